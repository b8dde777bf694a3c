/* NWN2 shared read (nwn2_file_parse_shared, what info and convert use): the
 * model points into the bytes read instead of copying them. Checked from
 * outside: on every corpus TRN/TRX, the shared model serialises back to
 * exactly the walkmesh bytes inflated from the file, as the copying parse's
 * does; the packets are the file's own bytes at the offsets its table
 * gives; and every cut of a walkmesh fails cleanly (ASan: nothing freed that
 * was shared, nothing leaked). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "test_nwn2_corpus.h"
#include "nwn2/nwn2.h"

static const char *const NWN2_SUFFIXES[] = {".trx", ".trn", NULL};

static uint32_t le32_at(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* 1 when p lies inside [base, base + size) */
static int inside(const void *p, const uint8_t *base, size_t size)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)base;
    return a >= b && a < b + size;
}

static void check_file(const char *path)
{
    size_t size;
    uint8_t *data = wmt_read_file(path, &size);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_file shared, copied;
    if (nwn2_file_parse_shared(&ctx, data, size, path, &shared) != WM_OK)
        fail_msg("%s: %s", path, wm_ctx_message(&ctx));
    assert_int_equal(nwn2_file_parse(&ctx, data, size, path, &copied), WM_OK);
    assert_true(shared.aswm_packet >= 0);
    /* the packets are the file's bytes: payload at the table's offset + the 8-byte packet header */
    for (uint32_t i = 0; i < shared.container.packet_count; i++) {
        uint32_t offset = le32_at(data + 12 + 8 * i + 4);
        assert_ptr_equal(shared.container.packets[i].payload, data + offset + 8);
        assert_int_equal(shared.container.packets[i].size, le32_at(data + offset + 4));
    }
    /* the big arrays were not copied (the test hosts are little-endian) */
    const nwn2_aswm *a = &shared.aswm;
    assert_null(shared.aswm_raw);
    assert_int_equal(shared.aswm_raw_size, copied.aswm_raw_size);
    const size_t block = shared.aswm_raw_size + 8;
    if (a->triangle_count)
        assert_true(inside(a->triangles, shared.aswm_block, block));
    if (a->vertex_count)
        assert_true(inside(a->vertices, shared.aswm_block, block));
    if (a->island_count)
        assert_true(inside(a->island_paths, shared.aswm_block, block));
    /* both models serialise back to the walkmesh bytes the file inflates to */
    wm_buffer from_shared, from_copy;
    wm_buffer_init(&from_shared, &ctx);
    wm_buffer_init(&from_copy, &ctx);
    assert_int_equal(nwn2_aswm_serialize(&ctx, &shared.aswm, &from_shared), WM_OK);
    assert_int_equal(nwn2_aswm_serialize(&ctx, &copied.aswm, &from_copy), WM_OK);
    assert_int_equal(from_shared.size, copied.aswm_raw_size);
    assert_memory_equal(from_shared.data, copied.aswm_raw, from_shared.size);
    assert_int_equal(from_copy.size, from_shared.size);
    assert_memory_equal(from_copy.data, from_shared.data, from_shared.size);
    wm_buffer_free(&from_shared);
    wm_buffer_free(&from_copy);
    nwn2_file_free(&ctx, &shared);
    nwn2_file_free(&ctx, &copied);
    free(data);
}

static void test_shared_model_is_the_file(void **state)
{
    (void)state;
    char **files;
    size_t n = wmt_corpus_list("nwn2", NWN2_SUFFIXES, &files);
    for (size_t i = 0; i < n; i++)
        check_file(files[i]);
    assert_true(n >= 10);
    wmt_free_list(files, n);
    char *areas = wmt_corpus_path("nwn2-areas/README.md"); /* the larger area files, when there */
    if (areas) {
        n = wmt_corpus_list("nwn2-areas", NWN2_SUFFIXES, &files);
        for (size_t i = 0; i < n; i++)
            check_file(files[i]);
        wmt_free_list(files, n);
        free(areas);
    }
}

/* Every cut of the inflated walkmesh at a stride (and near the start) parses
 * shared to a clean error, with partly shared arrays freed correctly. */
static void test_shared_prefixes_fail_cleanly(void **state)
{
    (void)state;
    size_t size;
    wm_ctx ctx;
    nwn2_file f;
    uint8_t *data = nwn2t_parse_corpus("nwn2/abandoned_house.trx", &ctx, &f, &size);
    const size_t raw_size = f.aswm_raw_size;
    uint8_t *block = malloc(raw_size + 8);
    for (size_t len = 0; len < raw_size; len += len < 4096 ? 1 : 997) {
        /* 3 bytes in, as the shared file read places it, so the arrays are shared (and the
         * island path table moved: copied afresh each time) */
        memcpy(block + 3, f.aswm_raw, len);
        nwn2_aswm a;
        wm_result r = nwn2_aswm_parse_shared(&ctx, block + 3, len, "cut", &a);
        if (r == WM_OK)
            nwn2_aswm_free(&ctx, &a);
        else
            assert_true(r == WM_ERR_TRUNCATED || r == WM_ERR_CORRUPT || r == WM_ERR_LIMIT);
    }
    free(block);
    nwn2_file_free(&ctx, &f);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_model_is_the_file),
        cmocka_unit_test(test_shared_prefixes_fail_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
