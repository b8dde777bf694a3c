/* An archive is a folder on the command line: `info ARCHIVE/member`, `info ARCHIVE` (a list of what
 * walkmesh reads, --json too), `convert ARCHIVE -o DIR --to obj` and `validate ARCHIVE` over every
 * walkmesh member, one line each, worst exit code. The archives are built by the tests' own writer
 * from corpus walkmeshes; the outputs are compared with those of the loose files. */
#define _GNU_SOURCE /* memmem */
#include "test_support.h"

#include "archive_test_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct packed {
    atw_member members[8];
    size_t count;
    char *dir, *archive, *loose; /* loose: the members as files named like them */
} packed;

static void pack(packed *p, atw_kind kind)
{
    static const char *const suffixes[] = {".wok", ".pwk", NULL};
    char **paths = NULL;
    size_t n = wmt_corpus_list("bwm", suffixes, &paths);
    p->count = 0;
    p->dir = wmt_make_temp_dir();
    p->loose = wmt_join(p->dir, "loose");
    assert_int_equal(mkdir(p->loose, 0777), 0);
    for (size_t i = 0; i < n && p->count < 8; i += 3) { /* a spread of the corpus, small and large */
        atw_member *m = &p->members[p->count++];
        const char *ext = strrchr(paths[i], '.') + 1;
        snprintf(m->name, sizeof m->name, "room%zu", i);
        snprintf(m->extension, sizeof m->extension, "%s", ext);
        m->type = strcmp(ext, "wok") == 0 ? 2016 : 2053;
        m->data = wmt_read_file(paths[i], &m->size);
        char file[64];
        snprintf(file, sizeof file, "%s.%s", m->name, ext);
        char *loose = wmt_join(p->loose, file);
        wmt_write_file(loose, m->data, m->size);
        free(loose);
    }
    wmt_free_list(paths, n);
    p->archive = atw_write(p->dir, kind, p->members, p->count);
}

static void unpack(packed *p)
{
    for (size_t i = 0; i < p->count; i++)
        free(p->members[i].data);
    wmt_remove_tree(p->dir);
    free(p->dir);
    free(p->archive);
    free(p->loose);
}

static char *member_arg(const packed *p, size_t i)
{
    char name[64];
    snprintf(name, sizeof name, "%s.%s", p->members[i].name, p->members[i].extension);
    return wmt_join(p->archive, name);
}

static unsigned count_of(const char *text, const char *needle)
{
    unsigned n = 0;
    for (const char *at = text; (at = strstr(at, needle)) != NULL; at += strlen(needle))
        n++;
    return n;
}

/* info on a member prints what info on the loose file prints, but for the file line. */
static void test_info_member_like_loose(void **state)
{
    (void)state;
    packed p;
    pack(&p, ATW_ERF_V10);
    for (size_t i = 0; i < p.count; i++) {
        char *member = member_arg(&p, i), name[64];
        snprintf(name, sizeof name, "%s.%s", p.members[i].name, p.members[i].extension);
        char *loose = wmt_join(p.loose, name), *a = NULL, *b = NULL;
        const char *with_member[] = {"info", member, NULL}, *with_loose[] = {"info", loose, NULL};
        assert_int_equal(wmt_run_cli(&a, NULL, with_member), 0);
        assert_int_equal(wmt_run_cli(&b, NULL, with_loose), 0);
        assert_string_equal(strchr(a, '\n'), strchr(b, '\n'));
        free(a);
        free(b);
        free(loose);
        free(member);
    }
    unpack(&p);
}

/* info ARCHIVE lists every member with the triangle count info gives for the loose file. */
static void test_info_lists_archive(void **state)
{
    (void)state;
    packed p;
    pack(&p, ATW_RIM);
    char *text = NULL, *json = NULL;
    const char *list[] = {"info", p.archive, NULL}, *list_json[] = {"info", p.archive, "--json", NULL};
    assert_int_equal(wmt_run_cli(&text, NULL, list), 0);
    assert_int_equal(wmt_run_cli(&json, NULL, list_json), 0);
    assert_non_null(strstr(text, "container: rim"));
    assert_int_equal(count_of(json, "\"member\": "), p.count);
    for (size_t i = 0; i < p.count; i++) {
        char name[64], *loose_text = NULL;
        snprintf(name, sizeof name, "%s.%s", p.members[i].name, p.members[i].extension);
        char *loose = wmt_join(p.loose, name);
        const char *info[] = {"info", loose, NULL};
        assert_int_equal(wmt_run_cli(&loose_text, NULL, info), 0);
        unsigned triangles = 0;
        assert_int_equal(sscanf(strstr(loose_text, "triangles: "), "triangles: %u", &triangles), 1);
        char line[128];
        snprintf(line, sizeof line, "%s", name);
        const char *at = strstr(text, line);
        assert_non_null(at);
        unsigned listed = 0;
        assert_int_equal(sscanf(at + strlen(line), " bwm %u triangles", &listed), 1);
        assert_int_equal(listed, triangles);
        free(loose_text);
        free(loose);
    }
    free(text);
    free(json);
    unpack(&p);
}

/* convert ARCHIVE -o DIR --to obj writes what converting each loose file writes. */
static void test_batch_convert_archive(void **state)
{
    (void)state;
    packed p;
    pack(&p, ATW_KEY);
    char *from_archive = wmt_join(p.dir, "a"), *from_loose = wmt_join(p.dir, "b");
    const char *batch[] = {"convert", p.archive, "-o", from_archive, "--to", "obj", "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, batch), 0);
    for (size_t i = 0; i < p.count; i++) {
        char name[64], obj[64];
        snprintf(name, sizeof name, "%s.%s", p.members[i].name, p.members[i].extension);
        snprintf(obj, sizeof obj, "%s.obj", p.members[i].name);
        char *loose = wmt_join(p.loose, name), *a = wmt_join(from_archive, obj), *b = wmt_join(from_loose, obj);
        const char *one[] = {"convert", loose, "-o", from_loose, "--to", "obj", "-q", NULL};
        assert_int_equal(wmt_run_cli(NULL, NULL, one), 0);
        size_t a_size, b_size;
        uint8_t *a_bytes = wmt_read_file(a, &a_size), *b_bytes = wmt_read_file(b, &b_size);
        assert_int_equal(a_size, b_size);
        assert_memory_equal(a_bytes, b_bytes, a_size);
        free(a_bytes);
        free(b_bytes);
        free(loose);
        free(a);
        free(b);
    }
    free(from_archive);
    free(from_loose);
    unpack(&p);
}

/* validate ARCHIVE: one verdict line per member, the worst exit status. */
static void test_validate_archive(void **state)
{
    (void)state;
    packed p;
    pack(&p, ATW_MOD_V11);
    char *out = NULL, *err = NULL;
    const char *validate[] = {"validate", p.archive, NULL};
    int code = wmt_run_cli(&out, &err, validate);
    int worst = 0;
    for (size_t i = 0; i < p.count; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s.%s", p.members[i].name, p.members[i].extension);
        char *loose = wmt_join(p.loose, name);
        const char *one[] = {"validate", loose, NULL};
        int one_code = wmt_run_cli(NULL, NULL, one);
        worst = one_code > worst ? one_code : worst;
        char verdict[128];
        snprintf(verdict, sizeof verdict, "%s/%s: %s", p.archive, name, one_code ? "INVALID" : "valid");
        assert_non_null(strstr(out, verdict));
        free(loose);
    }
    assert_int_equal(code, worst);
    free(out);
    free(err);
    unpack(&p);
}

/* A member that is not there, an archive that is corrupt: exit 2 naming the archive. */
static void test_missing_member_and_corrupt_archive(void **state)
{
    (void)state;
    packed p;
    pack(&p, ATW_ERF_V10);
    char *missing = wmt_join(p.archive, "nothing.wok"), *err = NULL;
    const char *info[] = {"info", missing, NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, info), 2);
    assert_non_null(strstr(err, "no such member"));
    free(err);
    char name[64]; /* a path through a file that is not an archive names no file */
    snprintf(name, sizeof name, "%s.%s/x.wok", p.members[0].name, p.members[0].extension);
    char *through_file = wmt_join(p.loose, name);
    const char *through[] = {"info", through_file, NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, through), 2);
    assert_non_null(strstr(err, "no such file"));
    free(err);
    free(through_file);
    char *corrupt = wmt_corpus_path("archives/kotor-pykotor-test_corrupted.rim");
    if (corrupt) {
        const char *list[] = {"info", corrupt, NULL};
        assert_int_equal(wmt_run_cli(NULL, &err, list), 2);
        assert_non_null(strstr(err, corrupt));
        free(err);
        free(corrupt);
    }
    free(missing);
    unpack(&p);
}

/* walkmesh area assemble MOD/area.lyt: the layout's rooms come from the module, and the area
 * holds every room's triangles (the issue's `area assemble mod.mod/m02aa.lyt`). */
static void test_area_assemble_from_module(void **state)
{
    (void)state;
    packed p;
    pack(&p, ATW_ERF_V10);
    char layout[512];
    int n = snprintf(layout, sizeof layout, "beginlayout\n   roomcount %zu\n", p.count);
    for (size_t i = 0; i < p.count; i++)
        n += snprintf(layout + n, sizeof layout - (size_t)n, "      %s 0 0 0\n", p.members[i].name);
    n += snprintf(layout + n, sizeof layout - (size_t)n, "donelayout\n");
    atw_member with_layout[9];
    memcpy(with_layout, p.members, p.count * sizeof *with_layout);
    with_layout[p.count] = (atw_member){.name = "area", .extension = "lyt", .type = 3000,
                                        .data = (uint8_t *)layout, .size = (size_t)n};
    size_t size;
    uint8_t *mod = atw_build(ATW_ERF_V10, with_layout, p.count + 1, &size);
    char *module = wmt_join(p.dir, "area.mod"), *lyt = wmt_join(module, "area.lyt"), *obj = wmt_join(p.dir, "area.obj");
    wmt_write_file(module, mod, size);
    const char *assemble[] = {"area", "assemble", lyt, obj, "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, assemble), 0);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_mesh area;
    assert_int_equal(wm_mesh_load(&ctx, obj, NULL, NULL, &area), WM_OK);
    uint32_t expected = 0;
    for (size_t i = 0; i < p.count; i++) {
        wm_mesh room;
        assert_int_equal(wm_mesh_load_memory(&ctx, p.members[i].data, p.members[i].size, "room.wok", NULL, NULL, &room),
                         WM_OK);
        expected += room.triangle_count;
        wm_mesh_free(&ctx, &room);
    }
    assert_int_equal(area.triangle_count, expected);
    assert_int_equal(area.object_count, p.count);
    wm_mesh_free(&ctx, &area);
    free(mod);
    free(module);
    free(lyt);
    free(obj);
    unpack(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info_member_like_loose),
        cmocka_unit_test(test_info_lists_archive),
        cmocka_unit_test(test_batch_convert_archive),
        cmocka_unit_test(test_validate_archive),
        cmocka_unit_test(test_missing_member_and_corrupt_archive),
        cmocka_unit_test(test_area_assemble_from_module),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
