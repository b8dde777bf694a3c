/* NWN2 bake on small synthetic meshes: splitting along tile lines keeps the
 * area, the surfaces and watertightness; cutters remove exactly the polygon;
 * border tiles are dropped; TRN winding becomes the TRX's clockwise one;
 * 127 walkable triangles per tile bake, 128 is an error naming the tile.
 * Expected values are geometry worked out by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "nwn2/bake/bake.h"

static void make_mesh(wm_ctx *ctx, nwn2_aswm *a, uint32_t gw, uint32_t gh, float tw, const float *verts, uint32_t nv,
                      const uint32_t *tris, const uint16_t *flags, uint32_t nt)
{
    nwn2_aswm_init(a);
    a->version = NWN2_ASWM_VERSION;
    a->owns_data = 1;
    a->grid_flags = NWN2_GRID_FLAGS_TRN;
    a->tile_width = tw;
    a->grid_width = gw;
    a->grid_height = gh;
    a->tiles = wm_alloc_array(ctx, (size_t)gw * gh, sizeof *a->tiles);
    a->vertices = wm_alloc_array(ctx, (size_t)nv * 3, sizeof(float));
    a->triangles = wm_alloc_array(ctx, nt, sizeof *a->triangles);
    assert_non_null(a->tiles);
    assert_non_null(a->vertices);
    assert_non_null(a->triangles);
    memcpy(a->vertices, verts, (size_t)nv * 3 * sizeof(float));
    a->vertex_count = nv;
    for (uint32_t t = 0; t < nt; t++) {
        memcpy(a->triangles[t].v, &tris[3 * t], 3 * sizeof(uint32_t));
        a->triangles[t].flags = flags[t];
        a->triangles[t].island = NWN2_NO_ISLAND;
        for (int k = 0; k < 3; k++)
            a->triangles[t].neighbour[k] = NWN2_NONE32;
    }
    a->triangle_count = nt;
}

static double area_of(const nwn2_aswm *a, uint32_t t)
{
    const float *p = &a->vertices[3 * a->triangles[t].v[0]], *q = &a->vertices[3 * a->triangles[t].v[1]],
                *r = &a->vertices[3 * a->triangles[t].v[2]];
    double u[3], v[3];
    for (int k = 0; k < 3; k++) {
        u[k] = (double)q[k] - p[k];
        v[k] = (double)r[k] - p[k];
    }
    double c0 = u[1] * v[2] - u[2] * v[1], c1 = u[2] * v[0] - u[0] * v[2], c2 = u[0] * v[1] - u[1] * v[0];
    return 0.5 * sqrt(c0 * c0 + c1 * c1 + c2 * c2);
}

static double area_with(const nwn2_aswm *a, uint16_t mask)
{
    double s = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++)
        if ((a->triangles[t].flags & mask) == mask)
            s += area_of(a, t);
    return s;
}

/* Total length of the edges with a single triangle, and edges used by more than two sides. */
static double open_length(const nwn2_aswm *a)
{
    double len = 0;
    for (uint32_t e = 0; e < a->edge_count; e++) {
        if (a->edges[e].tri[1] != NWN2_NONE32)
            continue;
        const float *p = &a->vertices[3 * a->edges[e].v[0]], *q = &a->vertices[3 * a->edges[e].v[1]];
        len += sqrt(((double)q[0] - p[0]) * ((double)q[0] - p[0]) + ((double)q[1] - p[1]) * ((double)q[1] - p[1]) +
                    ((double)q[2] - p[2]) * ((double)q[2] - p[2]));
    }
    return len;
}

/* A 30 x 20 rectangle of two big triangles (stone, grass) over 3 x 2 tiles of 10. */
static void rectangle(wm_ctx *ctx, nwn2_aswm *a)
{
    const float v[] = {0, 0, 1, 30, 0, 2, 30, 20, 3, 0, 20, 2};
    const uint32_t t[] = {0, 1, 2, 0, 2, 3};
    const uint16_t f[] = {NWN2_TRI_WALKABLE | NWN2_TRI_STONE, NWN2_TRI_WALKABLE | NWN2_TRI_GRASS};
    make_mesh(ctx, a, 3, 2, 10.0f, v, 4, t, f, 2);
}

static void test_split_along_tile_lines(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_aswm a;
    rectangle(&ctx, &a);
    double stone = area_with(&a, NWN2_TRI_STONE), grass = area_with(&a, NWN2_TRI_GRASS);
    nwn2_bake_stats stats;
    assert_int_equal(nwn2_bake(&ctx, &a, NULL, &stats), WM_OK);
    assert_true(stats.split_added > 0);
    /* area and surfaces kept */
    assert_true(fabs(area_with(&a, NWN2_TRI_STONE) - stone) < 1e-3);
    assert_true(fabs(area_with(&a, NWN2_TRI_GRASS) - grass) < 1e-3);
    /* no triangle crosses a tile line: all vertices inside the tile of the triangle */
    for (uint32_t ti = 0; ti < 6; ti++) {
        const nwn2_tile *tile = &a.tiles[ti];
        double x0 = (ti % 3) * 10.0, y0 = (ti / 3) * 10.0;
        assert_true(tile->triangle_count > 0);
        for (uint32_t t = tile->triangle_offset; t < tile->triangle_offset + tile->triangle_count; t++)
            for (int k = 0; k < 3; k++) {
                const float *p = &a.vertices[3 * a.triangles[t].v[k]];
                assert_true(p[0] >= x0 - 1e-4 && p[0] <= x0 + 10 + 1e-4);
                assert_true(p[1] >= y0 - 1e-4 && p[1] <= y0 + 10 + 1e-4);
            }
    }
    /* watertight: the only open edges are the rectangle's outline (perimeter in 3-D) */
    double outline = 2 * sqrt(900 + 1) + 2 * sqrt(400 + 1);
    assert_true(fabs(open_length(&a) - outline) < 1e-3);
    /* one island per tile, linked like the tiles: 4 horizontal + 3 vertical links */
    assert_int_equal(a.island_count, 6);
    uint32_t links = 0;
    for (uint32_t i = 0; i < 6; i++)
        links += a.islands[i].adjacent_count;
    assert_int_equal(links, 2 * 7);
    /* from the first tile's island to the opposite corner: two hops minimum, reachable */
    uint16_t first = a.triangles[a.tiles[0].triangle_offset].island;
    uint16_t last = a.triangles[a.tiles[5].triangle_offset].island;
    assert_int_not_equal(a.island_paths[(size_t)first * 6 + last].next, NWN2_NO_ISLAND);
    nwn2_aswm_free(&ctx, &a);
}

typedef struct progress_log {
    uint32_t calls, tiles_done, tiles_total, islands_done, islands_total;
} progress_log;

static void record_progress(void *user, const char *stage, uint32_t done, uint32_t total)
{
    progress_log *log = user;
    log->calls++;
    if (strstr(stage, "tile")) {
        log->tiles_done = done;
        log->tiles_total = total;
    } else {
        log->islands_done = done;
        log->islands_total = total;
    }
}

/* Progress: every tile, then every island row, reported in order, on 3 threads too. */
static void test_progress_reports_each_stage(void **state)
{
    (void)state;
    for (unsigned threads = 1; threads <= 3; threads += 2) {
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        nwn2_aswm a;
        rectangle(&ctx, &a);
        progress_log log = {0};
        nwn2_bake_options opts;
        nwn2_bake_options_init(&opts);
        opts.threads = threads;
        opts.progress = record_progress;
        opts.progress_user = &log;
        assert_int_equal(nwn2_bake(&ctx, &a, &opts, NULL), WM_OK);
        assert_int_equal(log.tiles_total, 6);
        assert_int_equal(log.islands_total, 6);
        assert_int_equal(log.tiles_done, 6);
        assert_int_equal(log.islands_done, 6);
        if (threads == 1)
            assert_int_equal(log.calls, 12);
        nwn2_aswm_free(&ctx, &a);
    }
}

static void test_cutter_removes_polygon(void **state)
{
    (void)state;
    /* 20 x 20 flat square over 2 x 2 tiles; cutters: one square inside a
     * tile, one straddling a tile line, one with corners on existing edges */
    const float v[] = {0, 0, 0, 20, 0, 0, 20, 20, 0, 0, 20, 0};
    const uint32_t t[] = {0, 1, 2, 0, 2, 3};
    const uint16_t f[] = {NWN2_TRI_WALKABLE | NWN2_TRI_DIRT, NWN2_TRI_WALKABLE | NWN2_TRI_DIRT};
    float sq1[] = {2, 3, 6, 3, 6, 7, 2, 7};          /* 4 x 4 = 16 */
    float sq2[] = {8, 12, 12, 12, 12, 15, 8, 15};    /* 4 x 3 = 12, across x = 10 */
    float tri[] = {14, 14, 18, 14, 18, 18};          /* right triangle 8, hypotenuse on the diagonal y = x */
    nwn2_cutter cut[3] = {{sq1, 4, 0}, {sq2, 4, 1}, {tri, 3, 2}};
    nwn2_cutter_set set = {cut, 3};
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_aswm a;
    make_mesh(&ctx, &a, 2, 2, 10.0f, v, 4, t, f, 2);
    nwn2_bake_options opts;
    nwn2_bake_options_init(&opts);
    opts.cutters = &set;
    nwn2_bake_stats stats;
    assert_int_equal(nwn2_bake(&ctx, &a, &opts, &stats), WM_OK);
    assert_true(fabs(area_with(&a, NWN2_TRI_WALKABLE) - (400 - 16 - 12 - 8)) < 1e-3);
    /* watertight: open edges = outer square + the three hole outlines */
    double holes = 16 + 14 + (8 + sqrt(32));
    assert_true(fabs(open_length(&a) - (80 + holes)) < 1e-3);
    assert_int_equal(stats.cut_removed > 0, 1);
    nwn2_aswm_free(&ctx, &a);
}

static void test_border_tiles_dropped(void **state)
{
    (void)state;
    /* 4 x 4 tiles of 10 with border 1: only the middle 2 x 2 tiles stay */
    const float v[] = {0, 0, 0, 40, 0, 0, 40, 40, 0, 0, 40, 0};
    const uint32_t t[] = {0, 1, 2, 0, 2, 3};
    const uint16_t f[] = {NWN2_TRI_WALKABLE, NWN2_TRI_WALKABLE};
    for (int keep = 0; keep < 2; keep++) {
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        nwn2_aswm a;
        make_mesh(&ctx, &a, 4, 4, 10.0f, v, 4, t, f, 2);
        a.border_size = 1;
        nwn2_bake_options opts;
        nwn2_bake_options_init(&opts);
        opts.keep_borders = keep;
        assert_int_equal(nwn2_bake(&ctx, &a, &opts, NULL), WM_OK);
        /* split along the tile lines first, so exactly the middle 20 x 20 stays */
        double area = area_with(&a, NWN2_TRI_WALKABLE);
        assert_true(fabs(area - (keep ? 1600 : 400)) < 1e-3);
        for (uint32_t ti = 0; ti < 16 && !keep; ti++) {
            uint32_t x = ti % 4, y = ti / 4;
            if (x == 0 || y == 0 || x == 3 || y == 3)
                assert_int_equal(a.tiles[ti].triangle_count, 0);
        }
        nwn2_aswm_free(&ctx, &a);
    }
}

static void test_trn_winding_becomes_clockwise(void **state)
{
    (void)state;
    const float v[] = {1, 1, 0, 5, 1, 0, 1, 5, 0};
    const uint32_t t[] = {0, 1, 2}; /* counter-clockwise seen from +z, as in a TRN */
    const uint16_t f[] = {NWN2_TRI_WALKABLE | NWN2_TRI_WOOD};
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_aswm a;
    make_mesh(&ctx, &a, 1, 1, 10.0f, v, 3, t, f, 1);
    assert_int_equal(nwn2_bake(&ctx, &a, NULL, NULL), WM_OK);
    const nwn2_triangle *tri = &a.triangles[0];
    assert_true(tri->flags & NWN2_TRI_CLOCKWISE);
    assert_true(tri->flags & NWN2_TRI_WOOD);
    const float *p = &a.vertices[3 * tri->v[0]], *q = &a.vertices[3 * tri->v[1]], *r = &a.vertices[3 * tri->v[2]];
    double cross_z = ((double)q[0] - p[0]) * ((double)r[1] - p[1]) - ((double)q[1] - p[1]) * ((double)r[0] - p[0]);
    assert_true(cross_z < 0);              /* stored clockwise */
    assert_true(tri->normal[2] > 0.999f);  /* normal still up */
    assert_true(fabs(tri->centre[0] - 7.0 / 3.0) < 1e-6 && fabs(tri->centre[1] - 7.0 / 3.0) < 1e-6);
    nwn2_aswm_free(&ctx, &a);
}

/* A strip of n walkable triangles inside one 100 x 100 tile. */
static void strip(wm_ctx *ctx, nwn2_aswm *a, uint32_t n)
{
    uint32_t nv = n + 2;
    float *v = calloc((size_t)nv * 3, sizeof *v);
    uint32_t *t = calloc((size_t)n * 3, sizeof *t);
    uint16_t *f = calloc(n, sizeof *f);
    for (uint32_t i = 0; i < nv; i++) {
        v[3 * i] = 1.0f + 0.5f * (float)(i / 2);
        v[3 * i + 1] = 1.0f + (float)(i % 2);
    }
    for (uint32_t i = 0; i < n; i++) {
        t[3 * i] = i;
        t[3 * i + 1] = i % 2 ? i + 2 : i + 1;
        t[3 * i + 2] = i % 2 ? i + 1 : i + 2;
        f[i] = NWN2_TRI_WALKABLE;
    }
    make_mesh(ctx, a, 1, 1, 100.0f, v, nv, t, f, n);
    free(v);
    free(t);
    free(f);
}

static void test_127_bakes_128_is_an_error(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_aswm a;
    strip(&ctx, &a, 127);
    nwn2_bake_stats stats;
    assert_int_equal(nwn2_bake(&ctx, &a, NULL, &stats), WM_OK);
    assert_int_equal(a.tiles[0].node_count, 127);
    assert_int_equal(a.island_count, 1);
    /* along a strip the next hop from node 0 towards the far end is node 1 */
    assert_int_equal(a.tiles[0].nodes[126] & NWN2_PATH_NODE_MASK, 1);
    assert_int_equal(a.tiles[0].nodes[126 * 127] & NWN2_PATH_NODE_MASK, 125);
    nwn2_aswm_free(&ctx, &a);

    strip(&ctx, &a, 128);
    assert_int_equal(nwn2_bake(&ctx, &a, NULL, &stats), WM_ERR_LIMIT);
    assert_non_null(strstr(wm_ctx_message(&ctx), "tile 0"));
    assert_non_null(strstr(wm_ctx_message(&ctx), "128 walkable"));
    assert_non_null(strstr(wm_ctx_message(&ctx), "127"));
    nwn2_aswm_free(&ctx, &a);
}

static void test_bad_input_is_refused(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_aswm a;
    strip(&ctx, &a, 4);
    a.triangles[2].v[1] = 99; /* vertex out of range */
    assert_int_equal(nwn2_bake(&ctx, &a, NULL, NULL), WM_ERR_CORRUPT);
    assert_non_null(strstr(wm_ctx_message(&ctx), "triangle 2"));
    nwn2_aswm_free(&ctx, &a);
    strip(&ctx, &a, 4);
    a.vertices[4] = NAN;
    assert_int_equal(nwn2_bake(&ctx, &a, NULL, NULL), WM_ERR_CORRUPT);
    assert_non_null(strstr(wm_ctx_message(&ctx), "vertex 1"));
    nwn2_aswm_free(&ctx, &a);
    strip(&ctx, &a, 4);
    a.tile_width = 0;
    assert_int_equal(nwn2_bake(&ctx, &a, NULL, NULL), WM_ERR_INVALID);
    nwn2_aswm_free(&ctx, &a);
}

/* 1000 triangles on one edge (a hostile "book" of pages): the sides of that edge
 * pair up in order (500 edges of two triangles), every other side is its own
 * edge: 500 + 2 * 1000 edges in all. */
static void test_edge_shared_by_many_triangles(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    enum { PAGES = 1000 };
    float *verts = calloc(3 * (PAGES + 2), sizeof(float));
    uint32_t *tris = calloc(3 * PAGES, sizeof(uint32_t));
    uint16_t *flags = calloc(PAGES, sizeof(uint16_t));
    verts[3] = 1.0f; /* vertex 1 at (1, 0, 0); vertex 0 at the origin */
    for (uint32_t k = 0; k < PAGES; k++) {
        float angle = 6.2831853f * (float)k / PAGES;
        verts[3 * (k + 2) + 0] = 0.5f;
        verts[3 * (k + 2) + 1] = cosf(angle);
        verts[3 * (k + 2) + 2] = sinf(angle);
        tris[3 * k] = 0;
        tris[3 * k + 1] = 1;
        tris[3 * k + 2] = k + 2;
        flags[k] = 0;
    }
    nwn2_aswm a;
    make_mesh(&ctx, &a, 1, 1, 9.0f, verts, PAGES + 2, tris, flags, PAGES);
    assert_int_equal(nwn2_aswm_rebuild_edges(&ctx, &a), WM_OK);
    assert_int_equal(a.edge_count, PAGES / 2 + 2 * PAGES);
    uint32_t shared = 0;
    for (uint32_t e = 0; e < a.edge_count; e++)
        if (a.edges[e].tri[1] != NWN2_NONE32) {
            shared++;
            assert_int_equal(a.edges[e].tri[1], a.edges[e].tri[0] + 1); /* paired in order */
        }
    assert_int_equal(shared, PAGES / 2);
    nwn2_aswm_free(&ctx, &a);
    free(verts);
    free(tris);
    free(flags);
}

/* A square (triangles 0 and 1 sharing the diagonal) and a copy of triangle 0
 * (triangle 2, the same three vertices): the rebuild links 0 and 1 across the
 * diagonal, and never links the copy to its original. */
static void test_duplicate_never_steals_a_link(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    const float verts[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    const uint32_t tris[] = {0, 1, 2, 0, 2, 3, 0, 1, 2};
    const uint16_t flags[] = {NWN2_TRI_WALKABLE, NWN2_TRI_WALKABLE, NWN2_TRI_WALKABLE};
    nwn2_aswm a;
    make_mesh(&ctx, &a, 1, 1, 9.0f, verts, 4, tris, flags, 3);
    assert_int_equal(nwn2_aswm_rebuild_edges(&ctx, &a), WM_OK);
    for (int k = 0; k < 3; k++) {
        assert_int_not_equal(a.triangles[0].neighbour[k], 2);
        assert_int_not_equal(a.triangles[2].neighbour[k], 0);
    }
    int linked = 0;
    for (int k = 0; k < 3; k++)
        linked += a.triangles[0].neighbour[k] == 1;
    assert_int_equal(linked, 1);
    nwn2_aswm_free(&ctx, &a);
}

/* Tile lines at x = 9 (2 x 1 tiles of 9 m). A vertex 0.5 mm short of the
 * line is moved onto it; a triangle overhanging the line by 5 cm stays whole
 * (in the tile of its centre); one overhanging by 1 m is split. */
static void test_overhangs_snap_or_stay_whole(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    const float verts[] = {1, 1, 0, 8.9995f, 1, 0, 1, 3, 0,   /* 0.5 mm short of the line */
                           1, 4, 0, 9.05f, 4, 0, 1, 6, 0,     /* 5 cm over it */
                           1, 7, 0, 10, 7, 0, 1, 8.5f, 0};    /* 1 m over it */
    const uint32_t tris[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    const uint16_t flags[] = {NWN2_TRI_WALKABLE, NWN2_TRI_WALKABLE, NWN2_TRI_WALKABLE};
    nwn2_aswm a;
    make_mesh(&ctx, &a, 2, 1, 9.0f, verts, 9, tris, flags, 3);
    nwn2_bake_options opts;
    nwn2_bake_options_init(&opts);
    nwn2_bake_stats stats;
    assert_int_equal(nwn2_bake(&ctx, &a, &opts, &stats), WM_OK);
    assert_int_equal(stats.snapped_vertices, 1);
    assert_int_equal(stats.split_added, 2); /* only the 1 m overhang: a triangle and a quadrilateral of two */
    assert_int_equal(a.triangle_count, 5);
    assert_int_equal(a.tiles[0].triangle_count, 4);
    assert_int_equal(a.tiles[1].triangle_count, 1);
    int on_line = 0;
    for (uint32_t v = 0; v < a.vertex_count; v++)
        on_line += a.vertices[3 * v] == 9.0f;
    assert_int_equal(on_line, 3); /* the snapped vertex and the two split points */
    nwn2_aswm_free(&ctx, &a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_along_tile_lines),
        cmocka_unit_test(test_progress_reports_each_stage),
        cmocka_unit_test(test_cutter_removes_polygon),
        cmocka_unit_test(test_border_tiles_dropped),
        cmocka_unit_test(test_trn_winding_becomes_clockwise),
        cmocka_unit_test(test_127_bakes_128_is_an_error),
        cmocka_unit_test(test_bad_input_is_refused),
        cmocka_unit_test(test_edge_shared_by_many_triangles),
        cmocka_unit_test(test_duplicate_never_steals_a_link),
        cmocka_unit_test(test_overhangs_snap_or_stay_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
