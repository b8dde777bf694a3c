/* Writing in place: an output path inside an ERF, MOD (V1.1) or RIM adds or replaces that member.
 * The archives written are read back by a reader written here from the format documentation (not
 * walkmesh's): every untouched member keeps its name, type and bytes, the new member equals the
 * same conversion written to a loose file; replacing needs overwrite; a key, side outputs and a
 * name the table cannot hold are refused with the archive untouched. */
#include "test_support.h"

#include "archive_test_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const atw_entry *find_entry(const atw_entry *entries, size_t count, const char *name, uint32_t type)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(entries[i].name, name) == 0 && entries[i].type == type)
            return &entries[i];
    return NULL;
}

static size_t two_corpus_members(atw_member *m)
{
    char *a = wmt_corpus_path("bwm/k1cp-m10ac_30a.wok"), *b = wmt_corpus_path("bwm/k1cp-plc_fccage2.pwk");
    char *paths[2] = {a, b};
    wmt_require_all(paths, 2);
    memset(m, 0, 2 * sizeof *m);
    snprintf(m[0].name, sizeof m[0].name, "m10ac_30a");
    snprintf(m[1].name, sizeof m[1].name, "plc_fccage2");
    m[0].type = 2016;
    m[1].type = 2053;
    m[0].data = wmt_read_file(a, &m[0].size);
    m[1].data = wmt_read_file(b, &m[1].size);
    free(a);
    free(b);
    return 2;
}

/* Converts the corpus file into archive/member and into a loose file; compares as said above. */
static void write_member(atw_kind kind, const char *source, const char *member, uint32_t type, int replace)
{
    atw_member m[2];
    size_t count = two_corpus_members(m);
    char *dir = wmt_make_temp_dir(), *archive = atw_write(dir, kind, m, count);
    char *target = wmt_join(archive, member), *loose = wmt_join(dir, member), *input = wmt_corpus_path(source);
    size_t before_size, after_size, loose_size;
    uint8_t *before = wmt_read_file(archive, &before_size);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    if (replace) /* replacing needs overwrite, and the refusal leaves the archive as it was */
        assert_int_equal(wm_convert(&ctx, input, target, NULL, NULL, NULL, 0), WM_ERR_EXISTS);
    if (wm_convert(&ctx, input, target, NULL, NULL, NULL, replace))
        fail_msg("%s", ctx.message);
    assert_int_equal(wm_convert(&ctx, input, loose, NULL, NULL, NULL, 0), WM_OK);
    uint8_t *after = wmt_read_file(archive, &after_size), *expected = wmt_read_file(loose, &loose_size);
    atw_entry old_entries[8], new_entries[8];
    size_t old_count = atw_read(before, before_size, old_entries, 8);
    size_t new_count = atw_read(after, after_size, new_entries, 8);
    assert_int_equal(new_count, old_count + !replace);
    char stem[40];
    snprintf(stem, sizeof stem, "%.*s", (int)(strchr(member, '.') - member), member);
    for (size_t i = 0; i < old_count; i++) {
        const atw_entry *now = find_entry(new_entries, new_count, old_entries[i].name, old_entries[i].type);
        assert_non_null(now);
        if (strcmp(old_entries[i].name, stem) == 0 && old_entries[i].type == type)
            continue; /* the replaced one */
        assert_int_equal(now->size, old_entries[i].size);
        assert_memory_equal(now->data, old_entries[i].data, now->size);
    }
    const atw_entry *written = find_entry(new_entries, new_count, stem, type);
    assert_non_null(written);
    assert_int_equal(written->size, loose_size);
    assert_memory_equal(written->data, expected, loose_size);
    free(before);
    free(after);
    free(expected);
    free(input);
    free(loose);
    free(target);
    free(archive);
    wmt_remove_tree(dir);
    free(dir);
    free(m[0].data);
    free(m[1].data);
}

static void test_erf_add_member(void **state)
{
    (void)state;
    write_member(ATW_ERF_V10, "bwm/k1cp-m22ab_09a.wok", "m22ab_09a.wok", 2016, 0);
}

static void test_erf_replace_member(void **state)
{
    (void)state;
    write_member(ATW_ERF_V10, "bwm/k1cp-m22ab_09a.wok", "m10ac_30a.wok", 2016, 1);
}

static void test_mod_v11_add_trx(void **state)
{
    (void)state;
    write_member(ATW_MOD_V11, "nwn2/abandoned_house.trx", "abandoned_house.trx", 3035, 0);
}

static void test_rim_add_and_replace(void **state)
{
    (void)state;
    write_member(ATW_RIM, "bwm/k1cp-m13aa_04a.wok", "m13aa_04a.wok", 2016, 0);
    write_member(ATW_RIM, "bwm/k1cp-m13aa_04a.wok", "plc_fccage2.pwk", 2053, 1);
}

/* Refusals leave the archive byte-identical: a key, an OBJ (its .mtl is a second file), a
 * name longer than the table's 16 bytes. */
static void test_refusals_keep_the_archive(void **state)
{
    (void)state;
    atw_member m[2];
    size_t count = two_corpus_members(m);
    char *dir = wmt_make_temp_dir(), *erf = atw_write(dir, ATW_ERF_V10, m, count);
    char *key = atw_write(dir, ATW_KEY, m, count), *input = wmt_corpus_path("bwm/k1cp-m22ab_09a.wok");
    const char *targets[][2] = {{"key", "new.wok"}, {"erf", "room.obj"}, {"erf", "a_name_of_twenty_chars.wok"}};
    for (size_t i = 0; i < 3; i++) {
        const char *archive = targets[i][0][0] == 'k' ? key : erf;
        size_t before_size, after_size;
        uint8_t *before = wmt_read_file(archive, &before_size);
        char *target = wmt_join(archive, targets[i][1]);
        wm_ctx ctx;
        wm_ctx_init(&ctx);
        assert_int_not_equal(wm_convert(&ctx, input, target, NULL, NULL, NULL, 1), WM_OK);
        uint8_t *after = wmt_read_file(archive, &after_size);
        assert_int_equal(before_size, after_size);
        assert_memory_equal(before, after, before_size);
        free(before);
        free(after);
        free(target);
    }
    free(input);
    free(key);
    free(erf);
    wmt_remove_tree(dir);
    free(dir);
    free(m[0].data);
    free(m[1].data);
}

/* The CLI: the brief's own command, bake of a member back into itself. */
static void test_cli_bake_in_place(void **state)
{
    (void)state;
    char *trx = wmt_corpus_path_or_skip("nwn2/abandoned_house.trx");
    atw_member m[1] = {{.name = "area", .extension = "trx", .type = 3035}};
    m[0].data = wmt_read_file(trx, &m[0].size);
    char *dir = wmt_make_temp_dir(), *mod = atw_write(dir, ATW_MOD_V11, m, 1), *member = wmt_join(mod, "area.trx");
    char *loose = wmt_join(dir, "area.trx"), *baked = wmt_join(dir, "baked.trx");
    wmt_write_file(loose, m[0].data, m[0].size);
    const char *without_force[] = {"bake", member, "-o", member, "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, without_force), 3);
    const char *in_place[] = {"bake", member, "-o", member, "--force", "-q", NULL};
    const char *beside[] = {"bake", loose, "-o", baked, "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, in_place), 0);
    assert_int_equal(wmt_run_cli(NULL, NULL, beside), 0);
    size_t archive_size, baked_size;
    uint8_t *archive = wmt_read_file(mod, &archive_size), *expected = wmt_read_file(baked, &baked_size);
    atw_entry entries[2];
    assert_int_equal(atw_read(archive, archive_size, entries, 2), 1);
    assert_int_equal(entries[0].size, baked_size);
    assert_memory_equal(entries[0].data, expected, baked_size);
    free(archive);
    free(expected);
    free(loose);
    free(baked);
    free(member);
    free(mod);
    wmt_remove_tree(dir);
    free(dir);
    free(m[0].data);
    free(trx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_erf_add_member),
        cmocka_unit_test(test_erf_replace_member),
        cmocka_unit_test(test_mod_v11_add_trx),
        cmocka_unit_test(test_rim_add_and_replace),
        cmocka_unit_test(test_refusals_keep_the_archive),
        cmocka_unit_test(test_cli_bake_in_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
