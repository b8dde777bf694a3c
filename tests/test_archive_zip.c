/* Zip archives (NWN2's Data zips): zips written here from the format's documentation (PKWARE
 * APPNOTE: local headers, central directory, end record), with zlib's raw deflate, hold the
 * corpus TRX/TRN files; walkmesh reads every member back byte-identical, through the library and
 * as a path into the archive. Hostile zips: a bomb (declared small, inflating large), a declared
 * size over the limit, zip-slip names, members past the end, a bad CRC, and every prefix of a
 * valid zip are refused cleanly, naming the archive and the member. */
#include "test_support.h"

#include "game_find_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct zip_entry {
    const char *name;
    const uint8_t *data;
    size_t size;
    int deflate;
    uint32_t declared;   /* 0: the true size */
    uint32_t bad_crc;    /* XORed into the CRC */
    uint32_t header_shift; /* added to the local header's offset in the directory */
} zip_entry;

typedef struct zip_out {
    uint8_t *data;
    size_t size, capacity;
} zip_out;

static void put(zip_out *z, const void *bytes, size_t n)
{
    if (z->size + n > z->capacity) {
        z->capacity = (z->size + n) * 2;
        z->data = realloc(z->data, z->capacity);
        assert_non_null(z->data);
    }
    memcpy(z->data + z->size, bytes, n);
    z->size += n;
}

static void put16(zip_out *z, uint32_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(z, b, 2);
}

static void put32(zip_out *z, uint32_t v)
{
    put16(z, v & 0xffff);
    put16(z, v >> 16);
}

static uint8_t *raw_deflate(const uint8_t *data, size_t size, size_t *out_size)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    assert_int_equal(deflateInit2(&s, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t bound = deflateBound(&s, (uLong)size);
    uint8_t *out = malloc(bound ? bound : 1);
    s.next_in = (Bytef *)(uintptr_t)data;
    s.avail_in = (uInt)size;
    s.next_out = out;
    s.avail_out = (uInt)bound;
    assert_int_equal(deflate(&s, Z_FINISH), Z_STREAM_END);
    *out_size = s.total_out;
    deflateEnd(&s);
    return out;
}

/* A whole zip of the entries, as APPNOTE 4.3 lays it out. */
static uint8_t *build_zip(const zip_entry *entries, size_t count, size_t *out_size)
{
    zip_out z = {0};
    uint32_t *offsets = calloc(count, sizeof *offsets), *crcs = calloc(count, sizeof *crcs);
    size_t *packed_sizes = calloc(count, sizeof *packed_sizes);
    for (size_t i = 0; i < count; i++) {
        const zip_entry *e = &entries[i];
        size_t packed_size = e->size;
        uint8_t *packed = e->deflate ? raw_deflate(e->data, e->size, &packed_size) : NULL;
        crcs[i] = (uint32_t)crc32(0, e->data, (uInt)e->size) ^ e->bad_crc;
        packed_sizes[i] = packed_size;
        offsets[i] = (uint32_t)z.size;
        put32(&z, 0x04034b50);
        put16(&z, 20), put16(&z, 0), put16(&z, e->deflate ? 8 : 0), put16(&z, 0), put16(&z, 0);
        put32(&z, crcs[i]), put32(&z, (uint32_t)packed_size), put32(&z, e->declared ? e->declared : (uint32_t)e->size);
        put16(&z, (uint32_t)strlen(e->name)), put16(&z, 0);
        put(&z, e->name, strlen(e->name));
        put(&z, packed ? packed : e->data, packed_size);
        free(packed);
    }
    uint32_t directory = (uint32_t)z.size;
    for (size_t i = 0; i < count; i++) {
        const zip_entry *e = &entries[i];
        put32(&z, 0x02014b50);
        put16(&z, 20), put16(&z, 20), put16(&z, 0), put16(&z, e->deflate ? 8 : 0), put16(&z, 0), put16(&z, 0);
        put32(&z, crcs[i]), put32(&z, (uint32_t)packed_sizes[i]);
        put32(&z, e->declared ? e->declared : (uint32_t)e->size);
        put16(&z, (uint32_t)strlen(e->name)), put16(&z, 0), put16(&z, 0), put16(&z, 0), put16(&z, 0);
        put32(&z, 0), put32(&z, offsets[i] + e->header_shift);
        put(&z, e->name, strlen(e->name));
    }
    uint32_t directory_size = (uint32_t)z.size - directory;
    put32(&z, 0x06054b50);
    put16(&z, 0), put16(&z, 0), put16(&z, (uint32_t)count), put16(&z, (uint32_t)count);
    put32(&z, directory_size), put32(&z, directory), put16(&z, 0);
    free(offsets), free(crcs), free(packed_sizes);
    *out_size = z.size;
    return z.data;
}

static const char *const trx_trn[] = {".trx", ".trn", NULL};

/* Every corpus TRX/TRN in one zip (every other one deflated, half of them in a folder), read back
 * member by member through the path "zip/member" in another case and with '\'. */
static void corpus_trx_trn_read_back_byte_identical(void **state)
{
    (void)state;
    char **files = NULL;
    size_t count = wmt_corpus_list("nwn2", trx_trn, &files);
    if (!count)
        skip();
    zip_entry *entries = calloc(count, sizeof *entries);
    uint8_t **contents = calloc(count, sizeof *contents);
    char **names = calloc(count, sizeof *names);
    for (size_t i = 0; i < count; i++) {
        contents[i] = wmt_read_file(files[i], &entries[i].size);
        names[i] = malloc(strlen(files[i]) + 8);
        sprintf(names[i], "%s%s", i % 2 ? "Data/" : "", wm_path_file_name(files[i]));
        entries[i] = (zip_entry){.name = names[i], .data = contents[i], .size = entries[i].size, .deflate = i % 3 != 0};
    }
    size_t size = 0;
    uint8_t *zip = build_zip(entries, count, &size);
    char *dir = wmt_make_temp_dir(), *path = wmt_join(dir, "nwn2_data.zip");
    wmt_write_file(path, zip, size);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_archive *archive = NULL;
    assert_int_equal(wm_archive_open(&ctx, path, &archive), WM_OK);
    assert_string_equal(wm_archive_kind(archive)->name, "zip");
    assert_int_equal(wm_archive_member_count(archive), count);
    wm_archive_close(&ctx, archive);
    for (size_t i = 0; i < count; i++) {
        char member[600];
        snprintf(member, sizeof member, "%s/%s", path, names[i]);
        for (char *c = member + strlen(path) + 1; *c; c++)
            *c = *c == '/' ? '\\' : (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
        wm_input in;
        assert_int_equal(wm_input_load(&ctx, member, &in), WM_OK);
        assert_int_equal(in.size, entries[i].size);
        assert_memory_equal(in.data, contents[i], in.size);
        wm_input_free(&ctx, &in);
        free(contents[i]), free(names[i]);
    }
    print_message("%zu corpus TRX/TRN files read back byte-identical from a zip\n", count);
    wmt_remove_tree(dir);
    free(dir), free(path), free(zip), free(entries), free(contents), free(names);
    wmt_free_list(files, count);
}

/* Info-ZIP's zip (when installed) writes the zip: an independent writer. */
static void info_zip_archive_lists_and_reads(void **state)
{
    (void)state;
    char *trx = wmt_corpus_path_or_skip("nwn2/enter_world.trx");
    char *zip_program = wmt_find_program("zip");
    if (!zip_program) {
        free(trx);
        skip();
    }
    char *dir = wmt_make_temp_dir(), *archive = wmt_join(dir, "a.zip");
    char command[2048];
    snprintf(command, sizeof command, "cd '%s' && mkdir -p trees && cp '%s' trees/ && zip -q -r a.zip trees", dir, trx);
    assert_int_equal(system(command), 0);
    char *out = NULL;
    const char *argv[] = {"info", archive, NULL};
    assert_int_equal(wmt_run_cli(&out, NULL, argv), 0);
    assert_non_null(strstr(out, "container: zip"));
    assert_non_null(strstr(out, "trees/enter_world.trx"));
    char *member = wmt_join(archive, "TREES\\Enter_World.TRX");
    size_t size = 0;
    uint8_t *expected = wmt_read_file(trx, &size);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_input in;
    assert_int_equal(wm_input_load(&ctx, member, &in), WM_OK);
    assert_int_equal(in.size, size);
    assert_memory_equal(in.data, expected, size);
    wm_input_free(&ctx, &in);
    wmt_remove_tree(dir);
    free(zip_program), free(trx), free(dir), free(archive), free(out), free(member), free(expected);
}

/* Opens the zip from memory, reads member 0, and expects `code` (0: any refusal) with every needle in the message. */
static void assert_zip_refused(const zip_entry *entries, size_t count, wm_result code, uint64_t limit,
                               const char *const *needles)
{
    size_t size = 0;
    uint8_t *zip = build_zip(entries, count, &size);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    if (limit)
        ctx.limits.max_bytes = limit;
    wm_archive *archive = NULL;
    wm_result r = wm_archive_open_memory(&ctx, zip, size, "hostile.zip", &archive);
    if (!r) {
        wm_input in;
        r = wm_archive_member_input(&ctx, archive, 0, &in);
        if (!r)
            wm_input_free(&ctx, &in);
        wm_archive_close(&ctx, archive);
    }
    if (code)
        assert_int_equal(r, code);
    else
        assert_int_not_equal(r, WM_OK);
    for (const char *const *n = needles; *n; n++)
        if (!strstr(ctx.message, *n))
            fail_msg("'%s' not in: %s", *n, ctx.message);
    free(zip);
}

static void bomb_inflating_past_its_declared_size_is_refused(void **state)
{
    (void)state;
    size_t size = 8u << 20;
    uint8_t *zeros = calloc(size, 1);
    zip_entry bomb = {.name = "bomb.trx", .data = zeros, .size = size, .deflate = 1, .declared = 4096};
    const char *needles[] = {"hostile.zip", "bomb.trx", "past its declared 4096 bytes", NULL};
    assert_zip_refused(&bomb, 1, WM_ERR_CORRUPT, 0, needles);
    /* declared large: the limit refuses it before anything is inflated or allocated */
    zip_entry large = {.name = "large.trx", .data = zeros, .size = 1000, .deflate = 1, .declared = 3000000000u};
    const char *limit_needles[] = {"hostile.zip", "large.trx", "over the limit", NULL};
    assert_zip_refused(&large, 1, WM_ERR_LIMIT, 1u << 20, limit_needles);
    /* declared larger than the stream: short */
    zip_entry short_one = {.name = "short.trx", .data = zeros, .size = 1000, .deflate = 1, .declared = 2000};
    const char *short_needles[] = {"hostile.zip", "short.trx", "short of its 2000 bytes", NULL};
    assert_zip_refused(&short_one, 1, WM_ERR_CORRUPT, 0, short_needles);
    free(zeros);
}

static void zip_slip_names_are_refused(void **state)
{
    (void)state;
    static const uint8_t bytes[] = "walkmesh";
    const char *names[] = {"../evil.trx", "trees/../../evil.trx", "/etc/evil.trx", "C:/evil.trx", "a\\..\\..\\x.trx",
                           "con.trx"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        zip_entry entries[2] = {{.name = "fine.trx", .data = bytes, .size = sizeof bytes},
                                {.name = names[i], .data = bytes, .size = sizeof bytes}};
        const char *needles[] = {"hostile.zip", "member 1", NULL};
        assert_zip_refused(entries, 2, WM_ERR_CORRUPT, 0, needles);
    }
}

static void members_past_the_end_overlapping_or_corrupt_are_refused(void **state)
{
    (void)state;
    static const uint8_t bytes[] = "walkmesh member bytes";
    zip_entry past = {.name = "past.trx", .data = bytes, .size = sizeof bytes, .header_shift = 100000};
    const char *past_needles[] = {"hostile.zip", "member 0", NULL};
    assert_zip_refused(&past, 1, 0, 0, past_needles);
    zip_entry crc = {.name = "crc.trx", .data = bytes, .size = sizeof bytes, .deflate = 1, .bad_crc = 1};
    const char *crc_needles[] = {"hostile.zip", "crc.trx", "CRC-32", NULL};
    assert_zip_refused(&crc, 1, WM_ERR_CORRUPT, 0, crc_needles);
    zip_entry twice[2] = {{.name = "same.trx", .data = bytes, .size = sizeof bytes},
                          {.name = "SAME.TRX", .data = bytes, .size = sizeof bytes}};
    const char *twice_needles[] = {"hostile.zip", "both named", NULL};
    assert_zip_refused(twice, 2, WM_ERR_CORRUPT, 0, twice_needles);
}

/* Every prefix of a valid zip: refused or read, never a crash (AddressSanitizer watches). */
static void every_prefix_is_refused_cleanly(void **state)
{
    (void)state;
    static const uint8_t bytes[] = "a member that deflates: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    zip_entry entries[2] = {{.name = "a.trx", .data = bytes, .size = sizeof bytes, .deflate = 1},
                            {.name = "b/c.trn", .data = bytes, .size = sizeof bytes}};
    size_t size = 0;
    uint8_t *zip = build_zip(entries, 2, &size);
    size_t refused = 0;
    for (size_t n = 0; n < size; n++) {
        uint8_t *prefix = malloc(n ? n : 1);
        memcpy(prefix, zip, n);
        wm_ctx ctx;
        wm_ctx_init(&ctx);
        wm_archive *archive = NULL;
        if (wm_archive_open_memory(&ctx, prefix, n, "cut.zip", &archive) == WM_OK) {
            for (uint32_t i = 0; i < wm_archive_member_count(archive); i++) {
                wm_input in;
                if (wm_archive_member_input(&ctx, archive, i, &in) == WM_OK)
                    wm_input_free(&ctx, &in);
            }
            wm_archive_close(&ctx, archive);
        } else {
            assert_non_null(strstr(ctx.message, "cut.zip"));
            refused++;
        }
        free(prefix);
    }
    assert_int_equal(refused, size); /* the end record closes the file: no prefix has it */
    free(zip);
}

/* --game over NWN2's Data zips: a later expansion's zip wins (walkmesh_x1.zip over
 * nwn2_models.zip), names are found in any case and inside a zip's folders. */
static void game_folder_finds_names_in_the_data_zips(void **state)
{
    (void)state;
    char *first = wmt_corpus_path_or_skip("nwn2/enter_world.trx");
    char *second = wmt_corpus_path_or_skip("nwn2/Defenders_Barracks.trx");
    size_t first_size = 0, second_size = 0;
    uint8_t *first_bytes = wmt_read_file(first, &first_size), *second_bytes = wmt_read_file(second, &second_size);
    char *game = wmt_make_temp_dir(), *data = wmt_join(game, "Data");
    char command[1024];
    snprintf(command, sizeof command, "mkdir '%s'", data);
    assert_int_equal(system(command), 0);
    zip_entry base[2] = {{.name = "area.trx", .data = first_bytes, .size = first_size, .deflate = 1},
                         {.name = "walkmesh/only_base.trx", .data = first_bytes, .size = first_size}};
    zip_entry expansion = {.name = "AREA.TRX", .data = second_bytes, .size = second_size, .deflate = 1};
    const struct { const char *file; const zip_entry *entries; size_t count; } zips[] = {
        {"NWN2_Models.zip", base, 2}, {"walkmesh_X1.zip", &expansion, 1}};
    for (size_t i = 0; i < 2; i++) {
        size_t size = 0;
        uint8_t *zip = build_zip(zips[i].entries, zips[i].count, &size);
        char *path = wmt_join(data, zips[i].file);
        wmt_write_file(path, zip, size);
        free(zip), free(path);
    }
    const char *names[] = {"area.trx", "ONLY_BASE.trx"};
    const char *files[] = {second, first};
    const char *holders[] = {"walkmesh_X1.zip", "NWN2_Models.zip"};
    for (size_t i = 0; i < 2; i++)
        assert_game_finds(game, names[i], holders[i], files[i]);
    wmt_remove_tree(game);
    free(first), free(second), free(first_bytes), free(second_bytes), free(game), free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_trx_trn_read_back_byte_identical),
        cmocka_unit_test(info_zip_archive_lists_and_reads),
        cmocka_unit_test(bomb_inflating_past_its_declared_size_is_refused),
        cmocka_unit_test(zip_slip_names_are_refused),
        cmocka_unit_test(members_past_the_end_overlapping_or_corrupt_are_refused),
        cmocka_unit_test(every_prefix_is_refused_cleanly),
        cmocka_unit_test(game_folder_finds_names_in_the_data_zips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
