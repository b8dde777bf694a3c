/* Hostile WMO input: every prefix of every corpus file fails cleanly (no
 * crash, no leak, a message naming the source), and damaged or huge
 * headers are refused before anything is allocated from them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "test_wmo_raw.h"
#include "wmo/wmo.h"

static const char *const wmo_suffix[] = {".wmo", NULL};

/* Parses a copy of the first `len` bytes; returns the result, message in ctx. */
static wm_result parse_prefix(wm_ctx *ctx, const uint8_t *d, size_t len, int group)
{
    uint8_t *copy = wm_alloc_array(ctx, len, 1);
    assert_non_null(copy);
    memcpy(copy, d, len);
    wm_result r;
    if (group) {
        wmo_group g;
        r = wmo_group_parse(ctx, copy, len, "prefix.wmo", &g);
        wmo_group_free(ctx, &g);
    } else {
        wmo_root root;
        r = wmo_root_parse(ctx, copy, len, "prefix.wmo", &root);
        wmo_root_free(ctx, &root);
    }
    return r;
}

/* Offsets where a top-level chunk ends (a root cut there is a shorter, valid root). */
static int at_top_boundary(const uint8_t *d, size_t size, size_t len)
{
    size_t at = 0;
    while (at + 8 <= size) {
        at += 8 + (size_t)raw_u32(d + at + 4);
        if (at == len)
            return 1;
    }
    return 0;
}

/* Chunk and subchunk boundaries (each +-1) of a file, for the sampled sweep. */
static int near_boundary(const uint8_t *d, size_t size, size_t len)
{
    size_t b = 0, e = 0;
    for (size_t at = 0; at + 8 <= size; at += 8 + (size_t)raw_u32(d + at + 4))
        if (len + 1 >= at && len <= at + 9)
            return 1;
    if (raw_group_range(d, size, &b, &e)) {
        for (size_t at = b; at + 8 <= e; at += 8 + (size_t)raw_u32(d + at + 4))
            if (len + 1 >= at && len <= at + 9)
                return 1;
        if (len + 1 >= b - 68 && len <= b)
            return 1;
    }
    return 0;
}

static void test_truncation_sweep(void **state)
{
    (void)state;
    char **files = NULL;
    size_t n = wmt_corpus_list("wmo", wmo_suffix, &files);
    size_t tried = 0;
    for (size_t i = 0; i < n; i++) {
        size_t size = 0;
        uint8_t *d = wmt_read_file(files[i], &size);
        int group = size >= 16 && memcmp(d + 12, "PGOM", 4) == 0;
        size_t stride = size > 50000 ? size / 400 : 1;
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        assert_int_equal(parse_prefix(&ctx, d, size, group), WM_OK);
        for (size_t len = 0; len < size; len++) {
            if (len >= 512 && len % stride != 0 && !near_boundary(d, size, len))
                continue;
            wm_result r = parse_prefix(&ctx, d, len, group);
            tried++;
            if (r == WM_OK) {
                /* only a root cut right after a whole chunk past MOGI may stand */
                if (group || !at_top_boundary(d, size, len))
                    fail_msg("%s: prefix of %zu bytes parsed", files[i], len);
                continue;
            }
            if (!strstr(wm_ctx_message(&ctx), "prefix.wmo"))
                fail_msg("%s: prefix %zu: message does not name the source: %s", files[i], len,
                         wm_ctx_message(&ctx));
        }
        free(d);
    }
    assert_true(tried > 5000);
    wmt_free_list(files, n);
}

/* A small valid group written by the module: 2 x 2 quads. */
static uint8_t *small_group(size_t *size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    const float p[] = {0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0, 0, 2, 0, 1, 2, 0, 2, 2, 0};
    const uint32_t idx[] = {0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 3, 4, 7, 3, 7, 6, 4, 5, 8, 4, 8, 7};
    wm_buffer b;
    wm_buffer_init(&b, &ctx);
    assert_int_equal(wmo_build_collision_group(&ctx, p, 9, idx, 8, 2, WMO_GROUP_OUTDOOR, 2, &b), WM_OK);
    uint8_t *out = malloc(b.size);
    memcpy(out, b.data, b.size);
    *size = b.size;
    wm_buffer_free(&b);
    return out;
}

static size_t sub_offset(const uint8_t *d, size_t size, const char *name)
{
    size_t b = 0, e = 0, off = 0;
    uint32_t n;
    assert_true(raw_group_range(d, size, &b, &e));
    assert_true(raw_find(d, b, e, name, &off, &n));
    return off;
}

static void expect_refused(const uint8_t *d, size_t size, wm_result expected, const char *words)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_result r = parse_prefix(&ctx, d, size, 1);
    if (r != expected || !strstr(wm_ctx_message(&ctx), words))
        fail_msg("got %s '%s', wanted %s mentioning '%s'", wm_result_name(r), wm_ctx_message(&ctx),
                 wm_result_name(expected), words);
}

static void test_damaged_and_huge_headers(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *good = small_group(&size);
    uint8_t *d = malloc(size + 64);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    assert_int_equal(parse_prefix(&ctx, good, size, 1), WM_OK);

    memcpy(d, good, size); /* MOGP announcing 4 GiB */
    d[16] = d[17] = d[18] = d[19] = 0xFF;
    expect_refused(d, size, WM_ERR_TRUNCATED, "MOGP");

    memcpy(d, good, size); /* version 16 */
    d[8] = 16;
    expect_refused(d, size, WM_ERR_UNSUPPORTED, "version 16");

    memcpy(d, good, size); /* a vertex index past MOVT */
    size_t movi = sub_offset(d, size, "MOVI");
    d[movi] = 200;
    expect_refused(d, size, WM_ERR_CORRUPT, "triangle 0 vertex 0");

    memcpy(d, good, size); /* MOBN child out of range */
    size_t mobn = sub_offset(d, size, "MOBN");
    d[mobn + 2] = 0x70;
    expect_refused(d, size, WM_ERR_CORRUPT, "MOBN node 0");

    memcpy(d, good, size); /* MOBR naming a triangle the group lacks */
    size_t mobr = sub_offset(d, size, "MOBR");
    d[mobr] = 99;
    expect_refused(d, size, WM_ERR_CORRUPT, "MOBR entry 0");

    memcpy(d, good, size); /* leaf range past MOBR (the last node is a leaf) */
    size_t nodes_size = raw_u32(d + mobn - 4);
    size_t leaf = mobn + nodes_size - 16;
    d[leaf + 8] = 0xFF;
    d[leaf + 9] = 0xFF;
    d[leaf + 10] = 0xFF;
    expect_refused(d, size, WM_ERR_CORRUPT, "past MOBR");

    /* MLIQ with 2^31-1 x 2^31-1 vertices: refused before any allocation */
    memcpy(d, good, size);
    size_t at = size;
    memcpy(d + at, "QILM", 4);
    uint32_t mliq_size = 30 + 8;
    memcpy(d + at + 4, &mliq_size, 4);
    memset(d + at + 8, 0, mliq_size);
    for (int k = 0; k < 2; k++) {
        uint32_t huge = 0x7FFFFFFF;
        memcpy(d + at + 8 + 4 * k, &huge, 4);
    }
    uint32_t mogp_size = raw_u32(d + 16) + 8 + mliq_size;
    memcpy(d + 16, &mogp_size, 4);
    expect_refused(d, size + 8 + mliq_size, WM_ERR_LIMIT, "MLIQ vertices");

    /* MOPY disagreeing with MOVI */
    memcpy(d, good, size);
    size_t mopy = sub_offset(d, size, "MOPY");
    uint32_t mopy_size = raw_u32(d + mopy - 4);
    memcpy(d + mopy - 8, "XXXX", 4); /* hide MOPY, then graft a short one at the end */
    memcpy(d + size, "YPOM", 4);
    uint32_t two = 2;
    memcpy(d + size + 4, &two, 4);
    d[size + 8] = 8;
    d[size + 9] = 0xFF;
    mogp_size = raw_u32(good + 16) + 10;
    memcpy(d + 16, &mogp_size, 4);
    (void)mopy_size;
    expect_refused(d, size + 10, WM_ERR_CORRUPT, "MOPY lists 1 triangles");

    free(d);
    free(good);
}

/* Issue 19 audit: the BSP check's work is linear in the group. A chain of
 * split nodes whose planes all pass through every centroid (each point query
 * visits every node: triangles x nodes before), and leaves that all list the
 * whole MOBR (leaves x references before), stop the check with one problem. */
static void test_bsp_check_work_is_bounded(void **state)
{
    (void)state;
    enum { TRIANGLES = 3000, CHAIN = 3000 };
    float positions[9] = {-1, -1, 0, 1, -1, 0, 0, 2, 0}; /* centroid (0, 0, 0) */
    uint32_t *indices = calloc(3 * TRIANGLES, sizeof *indices);
    uint16_t *refs = calloc(TRIANGLES, sizeof *refs);
    wmo_bsp_node *nodes = calloc(CHAIN + 1, sizeof *nodes);
    assert_true(indices && refs && nodes);
    for (uint32_t t = 0; t < TRIANGLES; t++) {
        indices[3 * t + 1] = 1;
        indices[3 * t + 2] = 2;
        refs[t] = (uint16_t)t;
    }
    for (uint32_t i = 0; i < CHAIN; i++) /* axis 0, plane x = 0: the centroid is on every plane */
        nodes[i] = (wmo_bsp_node){0, (int16_t)(i + 1), -1, 0, 0, 0.0f};
    nodes[CHAIN] = (wmo_bsp_node){WMO_BSP_LEAF, -1, -1, TRIANGLES, 0, 0.0f};
    wmo_bsp_view v = {nodes, CHAIN + 1, refs, TRIANGLES, positions, indices, TRIANGLES};
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_report report;
    wm_report_init(&report, &ctx);
    uint32_t problems = 0;
    assert_int_equal(wmo_bsp_check(&ctx, &v, NULL, &report, &problems), WM_OK);
    assert_int_equal(problems, 1);
    assert_non_null(strstr(report.items[0].value, "check stopped"));
    wm_report_free(&report);

    for (uint32_t i = 0; i < CHAIN; i++) /* every node a leaf listing all of MOBR */
        nodes[i] = (wmo_bsp_node){WMO_BSP_LEAF, -1, -1, TRIANGLES, 0, 0.0f};
    wm_report_init(&report, &ctx);
    assert_int_equal(wmo_bsp_check(&ctx, &v, NULL, &report, &problems), WM_OK);
    assert_int_equal(problems, 1);
    assert_non_null(strstr(report.items[0].value, "leaves overlap"));
    wm_report_free(&report);
    free(indices);
    free(refs);
    free(nodes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncation_sweep),
        cmocka_unit_test(test_damaged_and_huge_headers),
        cmocka_unit_test(test_bsp_check_work_is_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
