/* Hostile archives: members past the end, overlapping or duplicate entries, counts larger than
 * the file, member names with "..", separators, drive letters or control bytes, a key naming a BIF
 * outside its folder or one that is missing, keys and BIF tables that disagree. Each is refused
 * with a message naming the archive and the member; every prefix of a valid archive is refused
 * cleanly (the truncation sweep, under AddressSanitizer). Archives come from the tests' writer. */
#include "test_support.h"

#include "archive_test_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint8_t payload_a[40] = "first member's bytes", payload_b[24] = "second member";

static void two_members(atw_member *m)
{
    memset(m, 0, 2 * sizeof *m);
    snprintf(m[0].name, sizeof m[0].name, "alpha");
    snprintf(m[1].name, sizeof m[1].name, "beta");
    m[0].type = m[1].type = 2016;
    m[0].data = payload_a;
    m[0].size = sizeof payload_a;
    m[1].data = payload_b;
    m[1].size = sizeof payload_b;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* Opens the bytes from memory and expects a refusal whose message holds every needle. */
static void assert_refused(const uint8_t *data, size_t size, const char *const *needles)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_archive *archive = NULL;
    wm_result r = wm_archive_open_memory(&ctx, data, size, "hostile.erf", &archive);
    if (r == WM_OK) {
        wm_archive_close(&ctx, archive);
        fail_msg("accepted a hostile archive");
    }
    assert_non_null(strstr(ctx.message, "hostile.erf"));
    for (const char *const *n = needles; *n; n++)
        if (!strstr(ctx.message, *n))
            fail_msg("'%s' not in: %s", *n, ctx.message);
}

/* ERF V1.0 of two members: keys at 160 (24 bytes each), resources at 208 (8 each), data at 224. */
enum { KEYS = 160, RESOURCES = 208 };

static void test_member_past_the_end(void **state)
{
    (void)state;
    atw_member m[2];
    two_members(m);
    size_t size;
    uint8_t *erf = atw_build(ATW_ERF_V10, m, 2, &size);
    put32(erf + RESOURCES + 8 + 4, 0x7FFFFFF0u); /* beta's size */
    assert_refused(erf, size, (const char *const[]){"member 1", "beta.wok", "past the end", NULL});
    free(erf);
}

static void test_overlapping_members(void **state)
{
    (void)state;
    atw_member m[2];
    two_members(m);
    size_t size;
    uint8_t *erf = atw_build(ATW_ERF_V10, m, 2, &size);
    put32(erf + RESOURCES + 8, 224 + 10); /* beta starts inside alpha */
    assert_refused(erf, size, (const char *const[]){"overlaps", "alpha.wok", "beta.wok", NULL});
    free(erf);
}

static void test_duplicate_members(void **state)
{
    (void)state;
    atw_member m[2];
    two_members(m);
    snprintf(m[1].name, sizeof m[1].name, "ALPHA"); /* names are compared without case */
    size_t size;
    uint8_t *erf = atw_build(ATW_ERF_V10, m, 2, &size);
    assert_refused(erf, size, (const char *const[]){"members 0 and 1", "both named", NULL});
    free(erf);
}

static void test_count_larger_than_the_file(void **state)
{
    (void)state;
    atw_member m[2];
    two_members(m);
    size_t size;
    uint8_t *erf = atw_build(ATW_ERF_V10, m, 2, &size);
    put32(erf + 16, 0x00FFFFFFu); /* entry count */
    assert_refused(erf, size, (const char *const[]){"key list", NULL});
    free(erf);
    uint8_t *rim = atw_build(ATW_RIM, m, 2, &size);
    put32(rim + 12, 0x40000000u);
    assert_refused(rim, size, (const char *const[]){"key list", NULL});
    free(rim);
}

static void test_unsafe_member_names(void **state)
{
    (void)state;
    static const char *const names[] = {"..", "a/b", "a\\b", "c:x", "a\x01z", "con", "x\x7f", "\x1b[2J"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        atw_member m[2];
        two_members(m);
        snprintf(m[1].name, sizeof m[1].name, "%s", names[i]);
        size_t size;
        uint8_t *erf = atw_build(ATW_ERF_V10, m, 2, &size);
        assert_refused(erf, size, (const char *const[]){"member 1's name", NULL});
        free(erf);
    }
    atw_member m[2];
    two_members(m);
    m[1].name[0] = '\0'; /* NUL first: no name at all */
    size_t size;
    uint8_t *rim = atw_build(ATW_RIM, m, 2, &size);
    assert_refused(rim, size, (const char *const[]){"member 1 has an empty name", NULL});
    free(rim);
}

/* Every prefix of a valid archive is refused (its last member ends at the end of the file). */
static void test_truncation_sweep(void **state)
{
    (void)state;
    atw_member m[2];
    two_members(m);
    for (atw_kind kind = ATW_ERF_V10; kind <= ATW_KEY; kind++) {
        size_t size;
        uint8_t *bytes = atw_build(kind, m, 2, &size);
        for (size_t n = 0; n < size; n++) {
            uint8_t *prefix = malloc(n ? n : 1); /* its own block: ASan sees a read past it */
            memcpy(prefix, bytes, n);
            wm_ctx ctx;
            wm_ctx_init(&ctx);
            wm_archive *archive = NULL;
            wm_result r = wm_archive_open_memory(&ctx, prefix, n, "cut", &archive);
            if (kind == ATW_KEY && r == WM_OK) /* a key's table ends where its last key does */
                fail_msg("a key cut to %zu of %zu bytes opened", n, size);
            assert_int_not_equal(r, WM_OK);
            free(prefix);
        }
        free(bytes);
    }
}

/* A key in a folder: chitin.key and data/walkmesh.bif, as the writer lays them out. */
typedef struct key_folder {
    char *dir, *key;
    uint8_t *key_bytes, *bif_bytes;
    size_t key_size, bif_size;
} key_folder;

static void make_key(key_folder *k)
{
    atw_member m[2];
    two_members(m);
    k->dir = wmt_make_temp_dir();
    k->key = atw_write(k->dir, ATW_KEY, m, 2);
    k->key_bytes = wmt_read_file(k->key, &k->key_size);
    k->bif_bytes = atw_bif(m, 2, &k->bif_size);
}

static void rewrite(const key_folder *k, const char *relative, const uint8_t *data, size_t size)
{
    char *path = wmt_join(k->dir, relative);
    remove(path);
    wmt_write_file(path, data, size);
    free(path);
}

static void free_key(key_folder *k)
{
    wmt_remove_tree(k->dir);
    free(k->dir);
    free(k->key);
    free(k->key_bytes);
    free(k->bif_bytes);
}

/* Reading key/member fails with every needle in the message. */
static void assert_member_refused(const key_folder *k, const char *member, wm_result expected,
                                  const char *const *needles)
{
    char *path = wmt_join(k->key, member);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_input in;
    wm_result r = wm_input_load(&ctx, path, &in);
    if (r == WM_OK) {
        wm_input_free(&ctx, &in);
        fail_msg("%s was read", path);
    }
    assert_int_equal(r, expected);
    assert_non_null(strstr(ctx.message, k->key));
    for (const char *const *n = needles; *n; n++)
        if (!strstr(ctx.message, *n))
            fail_msg("'%s' not in: %s", *n, ctx.message);
    free(path);
}

/* The BIF name sits right after the 12-byte file entry at 64: "data\walkmesh.bif" (17 bytes + NUL). */
enum { BIF_NAME = 76, BIF_NAME_LENGTH = 17 };

static void test_key_bif_outside_its_folder(void **state)
{
    (void)state;
    static const char *const names[] = {"..\\walkmesh.bif", "/tmp/walkmesh.bi", "c:\\walkmesh.bif",
                                        "data\\..\\..\\x.bif", "\\\\host\\share\\x"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        key_folder k;
        make_key(&k);
        char field[BIF_NAME_LENGTH + 1] = {0};
        memcpy(field, names[i], strlen(names[i]) < BIF_NAME_LENGTH ? strlen(names[i]) : BIF_NAME_LENGTH);
        memcpy(k.key_bytes + BIF_NAME, field, BIF_NAME_LENGTH); /* padded with NULs */
        rewrite(&k, "chitin.key", k.key_bytes, k.key_size);
        assert_member_refused(&k, "alpha.wok", WM_ERR_CORRUPT, (const char *const[]){"BIF 0's name", NULL});
        free_key(&k);
    }
}

static void test_key_bif_missing_or_wrong(void **state)
{
    (void)state;
    key_folder k;
    make_key(&k);
    char *bif = wmt_join(k.dir, "data/walkmesh.bif");
    remove(bif);
    assert_member_refused(&k, "beta.wok", WM_ERR_IO, (const char *const[]){"data\\walkmesh.bif", "not there", NULL});
    /* the BIF's table holds one resource: the key's second names nothing there */
    uint8_t *short_bif = malloc(k.bif_size);
    memcpy(short_bif, k.bif_bytes, k.bif_size);
    put32(short_bif + 8, 1);
    rewrite(&k, "data/walkmesh.bif", short_bif, k.bif_size);
    assert_member_refused(&k, "beta.wok", WM_ERR_CORRUPT, (const char *const[]){"beta.wok", "resource 1 of 1", NULL});
    /* the BIF's entry sends the bytes past its end */
    memcpy(short_bif, k.bif_bytes, k.bif_size);
    put32(short_bif + 20 + 16 + 8, 0x10000000u);
    rewrite(&k, "data/walkmesh.bif", short_bif, k.bif_size);
    assert_member_refused(&k, "beta.wok", WM_ERR_CORRUPT, (const char *const[]){"beta.wok", "past the end", NULL});
    /* the entry the key points at holds another resource */
    memcpy(short_bif, k.bif_bytes, k.bif_size);
    put32(short_bif + 20 + 16, 0);
    rewrite(&k, "data/walkmesh.bif", short_bif, k.bif_size);
    assert_member_refused(&k, "beta.wok", WM_ERR_CORRUPT, (const char *const[]){"beta.wok", "holds resource 0", NULL});
    /* a key naming BIF 5 of 1 */
    uint8_t *key = malloc(k.key_size);
    memcpy(key, k.key_bytes, k.key_size);
    put32(key + BIF_NAME + BIF_NAME_LENGTH + 1 + 22 + 18, 5u << 20);
    rewrite(&k, "chitin.key", key, k.key_size);
    assert_member_refused(&k, "alpha.wok", WM_ERR_CORRUPT, (const char *const[]){"key 1", "BIF 5 of 1", NULL});
    free(key);
    free(short_bif);
    free(bif);
    free_key(&k);
}

/* The CLI: exit 2 naming the archive and the member. */
static void test_cli_exit_2(void **state)
{
    (void)state;
    atw_member m[2];
    two_members(m);
    size_t size;
    uint8_t *erf = atw_build(ATW_ERF_V10, m, 2, &size);
    put32(erf + RESOURCES + 8 + 4, 0x7FFFFFF0u);
    char *dir = wmt_make_temp_dir(), *path = wmt_join(dir, "bad.mod"), *member = wmt_join(path, "alpha.wok");
    wmt_write_file(path, erf, size);
    const char *commands[][5] = {{"info", path, NULL}, {"info", member, NULL}, {"validate", path, NULL},
                                 {"convert", path, "-o", dir, NULL}};
    for (size_t i = 0; i < 4; i++) {
        char *err = NULL;
        const char *argv[8] = {0};
        for (int a = 0; a < 5 && commands[i][a]; a++)
            argv[a] = commands[i][a];
        if (i == 3) {
            argv[4] = "--to";
            argv[5] = "obj";
        }
        assert_int_equal(wmt_run_cli(NULL, &err, argv), 2);
        assert_non_null(strstr(err, path));
        assert_non_null(strstr(err, "beta.wok"));
        free(err);
    }
    free(member);
    free(path);
    wmt_remove_tree(dir);
    free(dir);
    free(erf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_member_past_the_end),
        cmocka_unit_test(test_overlapping_members),
        cmocka_unit_test(test_duplicate_members),
        cmocka_unit_test(test_count_larger_than_the_file),
        cmocka_unit_test(test_unsafe_member_names),
        cmocka_unit_test(test_truncation_sweep),
        cmocka_unit_test(test_key_bif_outside_its_folder),
        cmocka_unit_test(test_key_bif_missing_or_wrong),
        cmocka_unit_test(test_cli_exit_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
