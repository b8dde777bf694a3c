/* Archives as folders: ERF V1.0/V1.1, RIM and KEY+BIF built here by a small writer written from
 * the format documentation (FORMAT-NOTES 4, xoreos), not walkmesh's own; every member read back
 * through a path into the archive byte-identical; the corpus archives list with the counts their
 * README gives; the corrupted ones refused naming the archive. */
#define _GNU_SOURCE /* memmem */
#include "test_support.h"

#include "archive_test_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The corpus walkmeshes packed as members r00.wok, r01.pwk, ... */
static size_t corpus_walkmeshes(atw_member *members, size_t max)
{
    static const char *const suffixes[] = {".wok", ".pwk", ".dwk", NULL};
    char **paths = NULL;
    size_t count = wmt_corpus_list("bwm", suffixes, &paths), n = 0;
    for (size_t i = 0; i < count && n < max; i++) {
        atw_member *m = &members[n++];
        const char *ext = strrchr(paths[i], '.') + 1;
        snprintf(m->name, sizeof m->name, "r%02zu", i);
        m->type = strcmp(ext, "wok") == 0 ? 2016 : strcmp(ext, "pwk") == 0 ? 2053 : 2052;
        m->data = wmt_read_file(paths[i], &m->size);
        snprintf(m->extension, sizeof m->extension, "%s", ext);
    }
    wmt_free_list(paths, count);
    return n;
}

static void free_members(atw_member *members, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(members[i].data);
}

/* Every member read through "<archive>/<NAME.EXT>" (in upper case: names are compared without
 * case) is the member's bytes. */
static void assert_members_read_back(const char *archive, const atw_member *members, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        char path[4096];
        int n = snprintf(path, sizeof path, "%s/%s.%s", archive, members[i].name, members[i].extension);
        for (char *p = path + strlen(archive); p < path + n; p++)
            *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
        wm_ctx ctx;
        wm_ctx_init(&ctx);
        wm_input in;
        wm_result r = wm_input_load(&ctx, path, &in);
        if (r)
            fail_msg("%s: %s", path, ctx.message);
        assert_int_equal(in.size, members[i].size);
        assert_memory_equal(in.data, members[i].data, in.size);
        assert_null(in.path); /* no file of its own: nothing reads "beside" it on disk */
        wm_input_free(&ctx, &in);
    }
}

static void write_and_check(atw_kind kind)
{
    atw_member members[64];
    size_t count = corpus_walkmeshes(members, 64);
    assert_true(count > 0);
    char *dir = wmt_make_temp_dir();
    char *path = atw_write(dir, kind, members, count);
    assert_members_read_back(path, members, count);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_archive *archive = NULL;
    assert_int_equal(wm_archive_open(&ctx, path, &archive), WM_OK);
    assert_int_equal(wm_archive_member_count(archive), count);
    wm_archive_close(&ctx, archive);
    free(path);
    wmt_remove_tree(dir);
    free(dir);
    free_members(members, count);
}

static void test_erf_v10_members_read_back(void **state) { (void)state; write_and_check(ATW_ERF_V10); }
static void test_erf_v11_members_read_back(void **state) { (void)state; write_and_check(ATW_MOD_V11); }
static void test_rim_members_read_back(void **state) { (void)state; write_and_check(ATW_RIM); }
static void test_key_bif_members_read_back(void **state) { (void)state; write_and_check(ATW_KEY); }

/* A member converts to the bytes the same file converts to on its own. */
static void test_member_converts_like_the_loose_file(void **state)
{
    (void)state;
    atw_member members[64];
    size_t count = corpus_walkmeshes(members, 64);
    char *dir = wmt_make_temp_dir();
    char *archive = atw_write(dir, ATW_ERF_V10, members, count);
    for (size_t i = 0; i < count; i++) {
        char member[8192], loose[8192], from_member[8192], from_loose[8192];
        snprintf(member, sizeof member, "%s/%s.%s", archive, members[i].name, members[i].extension);
        snprintf(loose, sizeof loose, "%s/loose%zu.%s", dir, i, members[i].extension);
        snprintf(from_member, sizeof from_member, "%s/m%zu.obj", dir, i);
        snprintf(from_loose, sizeof from_loose, "%s/l%zu.obj", dir, i);
        wmt_write_file(loose, members[i].data, members[i].size);
        wm_ctx ctx;
        wm_ctx_init(&ctx);
        assert_int_equal(wm_convert(&ctx, loose, from_loose, NULL, NULL, NULL, 0), WM_OK);
        if (wm_convert(&ctx, member, from_member, NULL, NULL, NULL, 0))
            fail_msg("%s", ctx.message);
        size_t a_size, b_size;
        uint8_t *a = wmt_read_file(from_member, &a_size), *b = wmt_read_file(from_loose, &b_size);
        /* the OBJ names its object after the input: the file names differ, nothing else may */
        assert_true(a_size > 0 && b_size > 0);
        const uint8_t *a_body = memmem(a, a_size, "\nv ", 3), *b_body = memmem(b, b_size, "\nv ", 3);
        assert_non_null(a_body);
        assert_non_null(b_body);
        assert_int_equal(a_size - (size_t)(a_body - a), b_size - (size_t)(b_body - b));
        assert_memory_equal(a_body, b_body, b_size - (size_t)(b_body - b));
        free(a);
        free(b);
    }
    free(archive);
    wmt_remove_tree(dir);
    free(dir);
    free_members(members, count);
}

/* The member counts the corpus README gives for each archive (its "what" column). */
static const struct {
    const char *file;
    uint32_t members;
} corpus_counts[] = {
    {"kotor-k1cp-lev_m40ad.mod", 96},         {"kotor-k1cp-tar_m09ab.mod", 19},
    {"kotor-k1r-k1r_paztourney.mod", 218},    {"kotor-k1r-manm26aa.mod", 295},
    {"kotor-kotornet-file1.erf", 2},          {"kotor-kotornet-file1.key", 25836},
    {"kotor-kotornet-file1.rim", 2},          {"kotor-pykotor-capsule.mod", 3},
    {"kotor-pykotor-capsule.rim", 3},         {"kotor-pykotor-test.erf", 3},
    {"kotor-pykotor-test.rim", 3},            {"nwn1-nwnnim-chitin.key", 43871},
    {"nwn1-rollnw-DockerDemo.mod", 14},       {"nwn1-rollnw-hak_with_description.hak", 1},
    {"nwn1-rollnw-test_module.mod", 23},      {"nwn1-rollnw-transforms.mod", 17},
    {"nwn1-toolsetgo-module.mod", 17},        {"nwn2-alfams-gwynnethroad2.erf", 4},
    {"nwn2-kaedrin-Hotfix.erf", 2},           {"nwn2-kaedrin-cliffpack_blueprints.ERF", 32},
    {"nwn2-nwnlibd-module.mod", 8},           {"nwn2-nwnlibd-test.hak", 2},
};

static uint32_t count_type(const wm_archive *archive, const char *extension)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < wm_archive_member_count(archive); i++) {
        const char *dot = strrchr(wm_archive_member_at(archive, i)->name, '.');
        n += dot && strcmp(dot + 1, extension) == 0;
    }
    return n;
}

static void test_corpus_archives_list(void **state)
{
    (void)state;
    size_t checked = 0;
    for (size_t i = 0; i < sizeof corpus_counts / sizeof corpus_counts[0]; i++) {
        char relative[256];
        snprintf(relative, sizeof relative, "archives/%s", corpus_counts[i].file);
        char *path = wmt_corpus_path(relative);
        if (!path)
            continue;
        wm_ctx ctx;
        wm_ctx_init(&ctx);
        wm_archive *archive = NULL;
        wm_result r = wm_archive_open(&ctx, path, &archive);
        free(path);
        if (r)
            fail_msg("%s", ctx.message);
        assert_int_equal(wm_archive_member_count(archive), corpus_counts[i].members);
        if (strcmp(corpus_counts[i].file, "kotor-kotornet-file1.key") == 0) { /* README: the key's counts */
            assert_int_equal(count_type(archive, "wok"), 1202);
            assert_int_equal(count_type(archive, "pwk"), 196);
            assert_int_equal(count_type(archive, "dwk"), 156);
            assert_int_equal(count_type(archive, "lyt"), 124);
            assert_int_equal(count_type(archive, "vis"), 112);
            assert_int_equal(count_type(archive, "mdx"), 2832);
        }
        if (strcmp(corpus_counts[i].file, "nwn1-nwnnim-chitin.key") == 0) {
            assert_int_equal(count_type(archive, "wok"), 2143);
            assert_int_equal(count_type(archive, "pwk"), 191);
            assert_int_equal(count_type(archive, "dwk"), 77);
            assert_int_equal(count_type(archive, "mdl"), 15608);
            assert_int_equal(count_type(archive, "set"), 10);
        }
        wm_archive_close(&ctx, archive);
        checked++;
    }
    if (!checked)
        skip();
    assert_int_equal(checked, sizeof corpus_counts / sizeof corpus_counts[0]);
}

/* Every member of every corpus ERF and RIM, read through its path, is the bytes the test's own
 * reader finds; every walkmesh member converts as the member extracted by hand does. */
static void test_corpus_members_match_an_independent_reader(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".mod", ".erf", ".rim", ".hak", NULL};
    char **paths = NULL;
    size_t count = wmt_corpus_list("archives", suffixes, &paths), archives = 0, members = 0, walkmeshes = 0;
    char *dir = wmt_make_temp_dir();
    for (size_t a = 0; a < count; a++) {
        if (strstr(paths[a], "_corrupted"))
            continue;
        size_t size;
        uint8_t *bytes = wmt_read_file(paths[a], &size);
        static atw_entry entries[512];
        size_t n = atw_read(bytes, size, entries, 512);
        wm_ctx ctx;
        wm_ctx_init(&ctx);
        wm_archive *archive = NULL;
        assert_int_equal(wm_archive_open(&ctx, paths[a], &archive), WM_OK);
        assert_int_equal(wm_archive_member_count(archive), n);
        for (size_t i = 0; i < n; i++, members++) {
            const char *name = wm_archive_member_at(archive, (uint32_t)i)->name;
            assert_int_equal(wm_name_compare_n(name, strlen(entries[i].name), entries[i].name, strlen(entries[i].name)), 0);
            assert_int_equal(name[strlen(entries[i].name)], '.');
            char *member = wmt_join(paths[a], name);
            wm_input in;
            assert_int_equal(wm_input_load(&ctx, member, &in), WM_OK);
            assert_int_equal(in.size, entries[i].size);
            assert_memory_equal(in.data, entries[i].data, in.size);
            wm_input_free(&ctx, &in);
            if (entries[i].type == 2016 || entries[i].type == 2052 || entries[i].type == 2053) {
                char *loose = wmt_join(dir, name), *a_obj = wmt_join(dir, "member.obj"), *b_obj = wmt_join(dir, "loose.obj");
                wmt_write_file(loose, entries[i].data, entries[i].size);
                assert_int_equal(wm_convert(&ctx, member, a_obj, NULL, NULL, NULL, 1), WM_OK);
                assert_int_equal(wm_convert(&ctx, loose, b_obj, NULL, NULL, NULL, 1), WM_OK);
                size_t a_size, b_size;
                uint8_t *x = wmt_read_file(a_obj, &a_size), *y = wmt_read_file(b_obj, &b_size);
                const uint8_t *x_body = memmem(x, a_size, "\nv ", 3), *y_body = memmem(y, b_size, "\nv ", 3);
                assert_non_null(x_body);
                assert_int_equal(a_size - (size_t)(x_body - x), b_size - (size_t)(y_body - y));
                assert_memory_equal(x_body, y_body, a_size - (size_t)(x_body - x));
                free(x);
                free(y);
                free(loose);
                free(a_obj);
                free(b_obj);
                walkmeshes++;
            }
            free(member);
        }
        wm_archive_close(&ctx, archive);
        free(bytes);
        archives++;
    }
    print_message("%zu archives, %zu members, %zu walkmesh members converted\n", archives, members, walkmeshes);
    assert_int_equal(archives, 20);
    wmt_remove_tree(dir);
    free(dir);
    wmt_free_list(paths, count);
}

/* README: paz_holo.pwk is 1380 bytes; the only BIF of the key that is public holds global.jrl. */
static void test_corpus_members(void **state)
{
    (void)state;
    char *mod = wmt_corpus_path_or_skip("archives/kotor-k1r-k1r_paztourney.mod");
    char *member = wmt_join(mod, "PAZ_HOLO.pwk");
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_input in;
    assert_int_equal(wm_input_load(&ctx, member, &in), WM_OK);
    assert_int_equal(in.size, 1380);
    assert_memory_equal(in.data, "BWM V1.0", 8);
    wm_input_free(&ctx, &in);
    free(member);
    free(mod);
}

static void test_corrupted_corpus_archives_refused(void **state)
{
    (void)state;
    static const char *const files[] = {"archives/kotor-pykotor-test_corrupted.erf",
                                        "archives/kotor-pykotor-test_corrupted.rim"};
    for (size_t i = 0; i < 2; i++) {
        char *path = wmt_corpus_path_or_skip(files[i]);
        wm_ctx ctx;
        wm_ctx_init(&ctx);
        wm_archive *archive = NULL;
        wm_result r = wm_archive_open(&ctx, path, &archive);
        assert_true(r == WM_ERR_TRUNCATED || r == WM_ERR_CORRUPT);
        assert_non_null(strstr(ctx.message, path));
        assert_non_null(strstr(ctx.message, "key list"));
        free(path);
    }
}

/* A key's BIF named "data\\x.bif" is found as Data/X.BIF; a missing BIF is named. */
static void test_key_finds_bifs_without_case(void **state)
{
    (void)state;
    atw_member members[64];
    size_t count = corpus_walkmeshes(members, 4);
    char *dir = wmt_make_temp_dir();
    char *key = atw_write(dir, ATW_KEY, members, count);
    char *lower = wmt_join(dir, "data/walkmesh.bif"), *folder = wmt_join(dir, "data"),
         *upper_folder = wmt_join(dir, "DATA"), *upper = wmt_join(dir, "DATA/WALKMESH.BIF");
    assert_int_equal(rename(folder, upper_folder), 0);
    char *moved = wmt_join(dir, "DATA/walkmesh.bif");
    assert_int_equal(rename(moved, upper), 0);
    assert_members_read_back(key, members, count);
    assert_int_equal(remove(upper), 0);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_input in;
    char member[4096];
    snprintf(member, sizeof member, "%s/%s.%s", key, members[0].name, members[0].extension);
    assert_int_equal(wm_input_load(&ctx, member, &in), WM_ERR_IO);
    assert_non_null(strstr(ctx.message, "data\\walkmesh.bif"));
    free(moved);
    free(lower);
    free(folder);
    free(upper_folder);
    free(upper);
    free(key);
    wmt_remove_tree(dir);
    free(dir);
    free_members(members, count);
}

/* Every vertex of a lies within tolerance of a vertex of b, and the counts agree. */
static void assert_same_vertices(const wm_mesh *a, const wm_mesh *b, float tolerance)
{
    assert_int_equal(a->vertex_count, b->vertex_count);
    for (uint32_t i = 0; i < a->vertex_count; i++) {
        const float *p = &a->positions[3 * (size_t)i];
        int near = 0;
        for (uint32_t j = 0; j < b->vertex_count && !near; j++) {
            const float *q = &b->positions[3 * (size_t)j];
            near = fabsf(p[0] - q[0]) <= tolerance && fabsf(p[1] - q[1]) <= tolerance && fabsf(p[2] - q[2]) <= tolerance;
        }
        if (!near)
            fail_msg("vertex %u (%g %g %g) has no twin", i, p[0], p[1], p[2]);
    }
}

/* A room model packed in a module with the module's layout converts to the room's .wok: the
 * model's walkmesh at the room's layout position (FORMAT-NOTES 4). The position is the offset
 * between the corpus model and its compiled .wok twin, measured here on the loose files. */
static void test_room_model_placed_by_layout(void **state)
{
    (void)state;
    char *mdl = wmt_corpus_path("bwm-models/k1cp-m10ac_30a.mdl"), *mdx = wmt_corpus_path("bwm-models/k1cp-m10ac_30a.mdx");
    char *wok = wmt_corpus_path("bwm/k1cp-m10ac_30a.wok");
    char *paths[3] = {mdl, mdx, wok};
    wmt_require_all(paths, 3);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_mesh local, twin, placed;
    assert_int_equal(wm_mesh_load(&ctx, mdl, NULL, NULL, &local), WM_OK);
    assert_int_equal(wm_mesh_load(&ctx, wok, NULL, NULL, &twin), WM_OK);
    float local_min[3], local_max[3], twin_min[3], twin_max[3];
    wm_mesh_bounds(&local, local_min, local_max);
    wm_mesh_bounds(&twin, twin_min, twin_max);
    char layout[256];
    int n = snprintf(layout, sizeof layout, "beginlayout\n   roomcount 2\n      m10ac_29a 1.0 2.0 3.0\n"
                                            "      M10AC_30A %.9g %.9g %.9g\ndonelayout\n",
                     twin_min[0] - local_min[0], twin_min[1] - local_min[1], twin_min[2] - local_min[2]);
    atw_member m[3] = {{.name = "m10ac_30a", .extension = "mdl", .type = 2002},
                       {.name = "m10ac_30a", .extension = "mdx", .type = 3008},
                       {.name = "m10ac", .extension = "lyt", .type = 3000, .data = (uint8_t *)layout, .size = (size_t)n}};
    m[0].data = wmt_read_file(mdl, &m[0].size);
    m[1].data = wmt_read_file(mdx, &m[1].size);
    char *dir = wmt_make_temp_dir(), *mod = atw_write(dir, ATW_ERF_V10, m, 3);
    char *member = wmt_join(mod, "m10ac_30a.mdl"), *out = wmt_join(dir, "m10ac_30a.wok");
    if (wm_convert(&ctx, member, out, NULL, NULL, NULL, 0))
        fail_msg("%s", ctx.message);
    assert_int_equal(wm_mesh_load(&ctx, out, NULL, NULL, &placed), WM_OK);
    assert_int_equal(placed.triangle_count, twin.triangle_count);
    assert_same_vertices(&placed, &twin, 1e-4f);
    wm_mesh_free(&ctx, &local);
    wm_mesh_free(&ctx, &twin);
    wm_mesh_free(&ctx, &placed);
    free(m[0].data);
    free(m[1].data);
    free(member);
    free(out);
    free(mod);
    wmt_remove_tree(dir);
    free(dir);
    free(mdl);
    free(mdx);
    free(wok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_erf_v10_members_read_back),
        cmocka_unit_test(test_erf_v11_members_read_back),
        cmocka_unit_test(test_rim_members_read_back),
        cmocka_unit_test(test_key_bif_members_read_back),
        cmocka_unit_test(test_member_converts_like_the_loose_file),
        cmocka_unit_test(test_corpus_archives_list),
        cmocka_unit_test(test_corpus_members),
        cmocka_unit_test(test_corpus_members_match_an_independent_reader),
        cmocka_unit_test(test_corrupted_corpus_archives_refused),
        cmocka_unit_test(test_key_finds_bifs_without_case),
        cmocka_unit_test(test_room_model_placed_by_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
