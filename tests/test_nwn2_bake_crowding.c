/* Cutters known to crowd a tile before cutting (bake_crowding.c). The bench's four shapes of
 * 16,384 corners on fh_settlement.trx (star, comb, zig-zag, smooth): the bake must say which tile
 * the cutter crowds, and the exact cut (bake_cut, whose removed area test_nwn2_bake_cut checks
 * against clipping) must really leave more than 127 walkable pieces with their centre in that tile,
 * counted here by centre. The baked walkmesh must be the one the cutter gives removing whole
 * triangles, which is what the bake made of these cutters before, after trying the exact cut. A
 * cutter of fewer corners than 3 x 127 is never decided early. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "nwn2/bake/bake_internal.h"

enum { STAR, COMB, ZIGZAG, SMOOTH };

/* The bench's shapes, inside 15..65 m around (40, 40). */
static nwn2_cutter shape_cutter(int shape, uint32_t n)
{
    nwn2_cutter c = {malloc(sizeof(float) * 2 * n), n, 0};
    assert_non_null(c.points);
    const double pi = 3.14159265358979323846;
    for (uint32_t i = 0; i < n; i++) {
        double x, y, angle = 2 * pi * i / n;
        if (shape == STAR || shape == SMOOTH) {
            const double r = shape == STAR ? (i % 2 ? 5.0 : 25.0) : 20.0 + 4.0 * sin(3 * angle);
            x = 40 + r * cos(angle);
            y = 40 + r * sin(angle);
        } else if (i < 2) {
            x = i ? 15.0 : 65.0;
            y = 15.0;
        } else {
            const uint32_t j = i - 2;
            x = 15.0 + 50.0 * j / (n - 3);
            y = (shape == COMB ? ((j + 1) / 2) % 2 == 0 : j % 2 == 0) ? 60.0 : 20.0;
        }
        c.points[2 * i] = (float)x;
        c.points[2 * i + 1] = (float)y;
    }
    return c;
}

/* Walkable triangles left by the exact cut with their centre in tile `tile`. */
static uint32_t exact_cut_walkable_in(const nwn2_aswm *input, const nwn2_cutter_set *one, uint32_t tile)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_aswm a;
    assert_int_equal(nwn2_aswm_copy(&ctx, &a, input), WM_OK);
    uint32_t added = 0, removed = 0, n = 0;
    assert_int_equal(bake_cut(&ctx, &a, one, NULL, &added, &removed), WM_OK);
    for (uint32_t t = 0; t < a.triangle_count; t++) {
        float c[2];
        const uint32_t *v = a.triangles[t].v;
        nwn2_toolset_centre(&a.vertices[3 * v[0]], &a.vertices[3 * v[1]], &a.vertices[3 * v[2]], c);
        n += (a.triangles[t].flags & NWN2_TRI_WALKABLE) && nwn2_tile_of(&a, c[0], c[1]) == tile;
    }
    nwn2_aswm_free(&ctx, &a);
    return n;
}

static void bake_with(const nwn2_aswm *input, const nwn2_cutter_set *one, int whole, nwn2_aswm *out,
                      nwn2_bake_stats *stats)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_bake_options opts;
    nwn2_bake_options_init(&opts);
    opts.cutters = one;
    opts.cut_whole_triangles = whole;
    assert_int_equal(nwn2_aswm_copy(&ctx, out, input), WM_OK);
    assert_int_equal(nwn2_bake(&ctx, out, &opts, stats), WM_OK);
}

static void assert_same_walkmesh(const nwn2_aswm *x, const nwn2_aswm *y)
{
    assert_int_equal(x->vertex_count, y->vertex_count);
    assert_int_equal(x->triangle_count, y->triangle_count);
    assert_int_equal(x->edge_count, y->edge_count);
    assert_memory_equal(x->vertices, y->vertices, sizeof(float) * 3 * x->vertex_count);
    assert_memory_equal(x->triangles, y->triangles, sizeof(nwn2_triangle) * x->triangle_count);
    assert_memory_equal(x->edges, y->edges, sizeof *x->edges * x->edge_count);
}

/* The bench's walkmesh (skips without the corpus). */
static void read_settlement(wm_ctx *ctx, nwn2_file *f)
{
    char *path = wmt_corpus_path_or_skip("nwn2/fh_settlement.trx");
    assert_int_equal(nwn2_file_read(ctx, path, f), WM_OK);
    free(path);
}

static void crowding_known_first(int shape)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_file f;
    read_settlement(&ctx, &f);
    nwn2_cutter cutter = shape_cutter(shape, 16384);
    nwn2_cutter_set one = {&cutter, 1};

    nwn2_aswm baked, whole;
    nwn2_bake_stats stats, whole_stats;
    wmt_warnings[0] = '\0';
    bake_with(&f.aswm, &one, 0, &baked, &stats);
    unsigned tile = 0, corners = 0;
    const char *said = strstr(wmt_warnings, "tile ");
    assert_non_null(said);
    assert_int_equal(sscanf(said, "tile %u", &tile), 1);
    const char *has = strstr(said, " has ");
    assert_non_null(has);
    assert_int_equal(sscanf(has, " has %u corners", &corners), 1);
    assert_int_equal(stats.whole_cutters, 1);
    bake_with(&f.aswm, &one, 1, &whole, &whole_stats);
    assert_same_walkmesh(&baked, &whole);

    const uint32_t exact = exact_cut_walkable_in(&f.aswm, &one, tile);
    print_message("shape %d: tile %u named with %u corners; the exact cut leaves %u walkable triangles there\n", shape,
                  tile, corners, exact);
    assert_true(corners > 3 * NWN2_MAX_TILE_NODES);
    assert_true(exact > NWN2_MAX_TILE_NODES);
    nwn2_aswm_free(&ctx, &baked);
    nwn2_aswm_free(&ctx, &whole);
    free(cutter.points);
    nwn2_file_free(&ctx, &f);
}

static void test_star_crowding_known_first(void **state)
{
    (void)state;
    crowding_known_first(STAR);
}

static void test_comb_crowding_known_first(void **state)
{
    (void)state;
    crowding_known_first(COMB);
}

static void test_zigzag_crowding_known_first(void **state)
{
    (void)state;
    crowding_known_first(ZIGZAG);
}

static void test_smooth_crowding_known_first(void **state)
{
    (void)state;
    crowding_known_first(SMOOTH);
}

/* 381 corners can never prove 128 triangles: such a cutter is always cut exactly first. */
static void test_few_corners_cut_exactly_first(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_file f;
    read_settlement(&ctx, &f);
    nwn2_cutter cutter = shape_cutter(STAR, 3 * NWN2_MAX_TILE_NODES);
    nwn2_cutter_set one = {&cutter, 1};
    nwn2_aswm baked;
    nwn2_bake_stats stats;
    wmt_warnings[0] = '\0';
    bake_with(&f.aswm, &one, 0, &baked, &stats);
    assert_null(strstr(wmt_warnings, " corners inside it"));
    nwn2_aswm_free(&ctx, &baked);
    free(cutter.points);
    nwn2_file_free(&ctx, &f);
}

/* A vertex that is not a number is still stage 1's error, named, with a cutter of many corners. */
static void test_bad_vertex_still_named(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_file f;
    read_settlement(&ctx, &f);
    f.aswm.vertices[3 * 7 + 1] = NAN;
    nwn2_cutter cutter = shape_cutter(STAR, 16384);
    nwn2_cutter_set one = {&cutter, 1};
    nwn2_bake_options opts;
    nwn2_bake_options_init(&opts);
    opts.cutters = &one;
    assert_int_equal(nwn2_bake(&ctx, &f.aswm, &opts, NULL), WM_ERR_CORRUPT);
    assert_non_null(strstr(ctx.message, "vertex 7"));
    free(cutter.points);
    nwn2_file_free(&ctx, &f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_star_crowding_known_first),
        cmocka_unit_test(test_comb_crowding_known_first),
        cmocka_unit_test(test_zigzag_crowding_known_first),
        cmocka_unit_test(test_smooth_crowding_known_first),
        cmocka_unit_test(test_few_corners_cut_exactly_first),
        cmocka_unit_test(test_bad_vertex_still_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
