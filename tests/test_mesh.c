/* Neutral mesh operations checked against hand-computed values. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static wm_ctx ctx;

static void add_vertices(wm_mesh *m, const float *xyz, int n)
{
    for (int i = 0; i < n; i++)
        assert_int_equal(wm_mesh_add_vertex(&ctx, m, xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2], NULL), WM_OK);
}

static void weld_merges_within_tolerance(void **state)
{
    (void)state;
    wm_ctx_init(&ctx);
    wm_mesh m;
    wm_mesh_init(&m);
    /* Two triangles sharing an edge, but the shared vertices are duplicated
     * with offsets of 5e-5 (inside 1e-4) and one vertex 2e-4 away (outside). */
    const float v[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, /* triangle A */
                       1.00005f, 0, 0, 0, 1.00005f, 0, 1, 1, 0.0002f /* triangle B */};
    add_vertices(&m, v, 6);
    assert_int_equal(wm_mesh_add_triangle(&ctx, &m, 0, 1, 2, WM_SURF_STONE, 1), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(&ctx, &m, 3, 5, 4, WM_SURF_STONE, 1), WM_OK);
    uint32_t merged = 0;
    assert_int_equal(wm_mesh_weld(&ctx, &m, 1e-4f, &merged), WM_OK);
    assert_int_equal(merged, 2);
    assert_int_equal(m.vertex_count, 4);
    /* The first vertex of each cluster is kept, so vertex 1 is still exactly (1,0,0). */
    assert_int_equal(m.indices[3], 1);
    assert_int_equal(m.indices[5], 2);
    assert_true(m.positions[3] == 1.0f);
    /* The far vertex stays distinct and moved to index 3 after compaction. */
    assert_int_equal(m.indices[4], 3);
    assert_true(fabsf(m.positions[11] - 0.0002f) < 1e-9f);
    wm_mesh_free(&ctx, &m);
}

static void weld_keeps_distinct_vertices(void **state)
{
    (void)state;
    wm_ctx_init(&ctx);
    wm_mesh m;
    wm_mesh_init(&m);
    const float v[] = {0, 0, 0, 0.001f, 0, 0, 0, 0.001f, 0};
    add_vertices(&m, v, 3);
    assert_int_equal(wm_mesh_add_triangle(&ctx, &m, 0, 1, 2, 0, 0), WM_OK);
    uint32_t merged = 99;
    assert_int_equal(wm_mesh_weld(&ctx, &m, 1e-4f, &merged), WM_OK);
    assert_int_equal(merged, 0);
    assert_int_equal(m.vertex_count, 3);
    wm_mesh_free(&ctx, &m);
}

/* wm_mesh_weld_map against a direct search: each vertex merges into the
 * first earlier kept vertex within the tolerance (Euclidean), else is kept;
 * the mesh is left as it was, and wm_mesh_weld's indices are the map's,
 * compacted. m: n vertices (n a multiple of 3), one triangle per three. */
static void assert_weld_map_is_a_direct_search(wm_mesh *m, float tol)
{
    uint32_t n = m->vertex_count;
    for (uint32_t t = 0; t + 2 < n; t += 3) assert_int_equal(wm_mesh_add_triangle(&ctx, m, t, t + 1, t + 2, 0, 1), WM_OK);
    uint32_t *map = NULL, *expect = malloc(n * sizeof *expect), merged = 0, expect_merged = 0;
    assert_non_null(expect);
    for (uint32_t v = 0; v < n; v++) {
        expect[v] = v;
        for (uint32_t w = 0; w < v && expect[v] == v; w++) {
            const float *p = m->positions + 3 * (size_t)v, *q = m->positions + 3 * (size_t)w;
            double dx = (double)p[0] - q[0], dy = (double)p[1] - q[1], dz = (double)p[2] - q[2];
            if (expect[w] == w && dx * dx + dy * dy + dz * dz <= (double)tol * tol) expect[v] = w;
        }
        expect_merged += expect[v] != v;
    }
    assert_true(expect_merged > n / 10 && expect_merged < n - n / 6); /* the case is a real test */
    float first = m->positions[0];
    assert_int_equal(wm_mesh_weld_map(&ctx, m, tol, &map, &merged), WM_OK);
    assert_int_equal(merged, expect_merged);
    assert_non_null(map);
    assert_memory_equal(map, expect, n * sizeof *map);
    assert_int_equal(m->vertex_count, n);
    assert_true(m->positions[0] == first);
    assert_int_equal(wm_mesh_weld(&ctx, m, tol, &merged), WM_OK);
    uint32_t kept_before = 0, *rank = expect; /* rank of each kept vertex among the kept */
    for (uint32_t v = 0; v < n; v++) rank[v] = map[v] == v ? kept_before++ : UINT32_MAX;
    assert_int_equal(m->vertex_count, kept_before);
    for (uint32_t i = 0; i < 3 * m->triangle_count; i++) assert_int_equal(m->indices[i], rank[map[i]]);
    wm_free(&ctx, map);
    free(expect);
}

/* Points in clusters around a few centres, some within the tolerance of each other and some just beyond. */
static void weld_map_of_clusters_is_a_direct_search(void **state)
{
    (void)state;
    wm_ctx_init(&ctx);
    wm_mesh m;
    wm_mesh_init(&m);
    srand(7);
    for (uint32_t v = 0; v < 600; v++) {
        float c = (float)(v % 37) * 0.01f, jitter[3];
        for (int k = 0; k < 3; k++) jitter[k] = ((float)rand() / (float)RAND_MAX - 0.5f) * 2.4e-4f;
        assert_int_equal(wm_mesh_add_vertex(&ctx, &m, c + jitter[0], 0.5f + jitter[1], -c + jitter[2], NULL), WM_OK);
    }
    assert_weld_map_is_a_direct_search(&m, 1e-4f);
    wm_mesh_free(&ctx, &m);
}

/* Points snapped to round values (halves, hundredths: where cells of round multiples of the
 * tolerance have their walls), copies a little inside and a little beyond the tolerance. */
static void weld_map_of_round_coordinates_is_a_direct_search(void **state)
{
    (void)state;
    for (int scale = 0; scale < 2; scale++) {
        float tol = scale ? 1e-4f : 1e-6f;
        wm_ctx_init(&ctx);
        wm_mesh m;
        wm_mesh_init(&m);
        for (uint32_t v = 0; v < 600; v++) {
            float x = (float)(v % 40) * 0.5f, y = (float)(v % 7) * 0.07f;
            x += v % 3 == 1 ? 0.6f * tol : 0.0f;
            y += v % 5 == 2 ? 1.5f * tol : v % 5 == 4 ? -0.4f * tol : 0.0f;
            assert_int_equal(wm_mesh_add_vertex(&ctx, &m, x, y, (float)(v % 2) * 0.01f, NULL), WM_OK);
        }
        assert_weld_map_is_a_direct_search(&m, tol);
        wm_mesh_free(&ctx, &m);
    }
}

/* Vertices 0..19 on a line, triangles using some of them (the unused ones
 * at byte boundaries of a bit map and between): compaction keeps the used
 * ones in order and every triangle's corners where they were; without
 * unused vertices, and for a weld that merges nothing, nothing changes. */
static void compact_drops_exactly_the_unused_vertices(void **state)
{
    (void)state;
    wm_ctx_init(&ctx);
    for (int with_unused = 0; with_unused < 2; with_unused++) {
        wm_mesh m;
        wm_mesh_init(&m);
        for (uint32_t v = 0; v < 20; v++) assert_int_equal(wm_mesh_add_vertex(&ctx, &m, (float)v, 0, 0, NULL), WM_OK);
        const uint32_t some[][3] = {{1, 2, 3}, {3, 4, 9}, {10, 11, 12}, {12, 13, 14}, {17, 18, 19}, {1, 9, 19}};
        const uint32_t all[][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}, {12, 13, 14}, {15, 16, 17}, {18, 19, 0}};
        uint32_t triangles = with_unused ? 6 : 7;
        for (uint32_t t = 0; t < triangles; t++) {
            const uint32_t *c = with_unused ? some[t] : all[t];
            assert_int_equal(wm_mesh_add_triangle(&ctx, &m, c[0], c[1], c[2], 0, 1), WM_OK);
        }
        uint32_t used = 0, unused = 99, merged = 99, *map = &merged;
        for (uint32_t v = 0; v < 20; v++) {
            int in = 0;
            for (uint32_t i = 0; i < 3 * triangles; i++) in |= m.indices[i] == v;
            used += (uint32_t)in;
        }
        assert_int_equal(wm_mesh_weld_map(&ctx, &m, 1e-4f, &map, &merged), WM_OK);
        assert_int_equal(merged, 0);
        assert_null(map);
        assert_int_equal(wm_mesh_count_unused(&ctx, &m, &unused), WM_OK);
        assert_int_equal(unused, 20 - used);
        float corner_x[21];
        for (uint32_t i = 0; i < 3 * triangles; i++) corner_x[i] = m.positions[3 * (size_t)m.indices[i]];
        assert_int_equal(wm_mesh_compact(&ctx, &m), WM_OK);
        assert_int_equal(m.vertex_count, used);
        for (uint32_t v = 1; v < m.vertex_count; v++) assert_true(m.positions[3 * v] > m.positions[3 * (v - 1)]);
        for (uint32_t i = 0; i < 3 * triangles; i++) assert_true(m.positions[3 * (size_t)m.indices[i]] == corner_x[i]);
        wm_mesh_free(&ctx, &m);
    }
}

static void degenerate_triangles_are_removed(void **state)
{
    (void)state;
    wm_ctx_init(&ctx);
    wm_mesh m;
    wm_mesh_init(&m);
    const float v[] = {0, 0, 0, 2, 0, 0, 0, 2, 0, 4, 0, 0};
    add_vertices(&m, v, 4);
    wm_mesh_add_triangle(&ctx, &m, 0, 1, 2, WM_SURF_DIRT, 1);  /* area 2: kept */
    wm_mesh_add_triangle(&ctx, &m, 0, 0, 2, WM_SURF_DIRT, 1);  /* repeated index */
    wm_mesh_add_triangle(&ctx, &m, 0, 1, 3, WM_SURF_DIRT, 1);  /* collinear: area 0 */
    wm_mesh_add_triangle(&ctx, &m, 2, 1, 0, WM_SURF_NONWALK, 0); /* area 2, reversed: kept */
    m.transitions[3 * 3 + 1] = 7;
    uint32_t removed = 0;
    assert_int_equal(wm_mesh_remove_degenerate(&ctx, &m, 1e-6f, &removed), WM_OK);
    assert_int_equal(removed, 2);
    assert_int_equal(m.triangle_count, 2);
    assert_int_equal(m.surfaces[1], WM_SURF_NONWALK);
    assert_int_equal(m.walkable[1], 0);
    assert_int_equal(m.transitions[3 * 1 + 1], 7);
    assert_int_equal(m.indices[3], 2);
    wm_mesh_free(&ctx, &m);
}

static void validate_reports_the_element(void **state)
{
    (void)state;
    wm_ctx_init(&ctx);
    wm_mesh m;
    wm_mesh_init(&m);
    const float v[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    add_vertices(&m, v, 3);
    wm_mesh_add_triangle(&ctx, &m, 0, 1, 2, 0, 0);
    assert_int_equal(wm_mesh_validate(&ctx, &m), WM_OK);
    wm_mesh_add_triangle(&ctx, &m, 0, 1, 5, 0, 0);
    assert_int_equal(wm_mesh_validate(&ctx, &m), WM_ERR_INVALID);
    assert_non_null(strstr(ctx.message, "triangle 1"));
    assert_non_null(strstr(ctx.message, "5"));
    m.indices[5] = 2;
    m.positions[4] = NAN;
    assert_int_equal(wm_mesh_validate(&ctx, &m), WM_ERR_INVALID);
    assert_non_null(strstr(ctx.message, "vertex 1"));
    m.positions[4] = 0;
    m.surfaces[0] = 9999;
    assert_int_equal(wm_mesh_validate(&ctx, &m), WM_ERR_INVALID);
    assert_non_null(strstr(ctx.message, "surface 9999"));
    wm_mesh_free(&ctx, &m);
}

static void normals_bounds_and_slope(void **state)
{
    (void)state;
    wm_ctx_init(&ctx);
    wm_mesh m;
    wm_mesh_init(&m);
    /* A floor triangle and a 60-degree slope: normal (0, -sin60, cos60). */
    const float v[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.8660254f};
    add_vertices(&m, v, 6);
    wm_mesh_add_triangle(&ctx, &m, 0, 1, 2, 0, 0);
    wm_mesh_add_triangle(&ctx, &m, 3, 4, 5, 0, 0);
    float n[6];
    wm_mesh_normals(&m, n);
    assert_true(fabsf(n[2] - 1.0f) < 1e-6f);
    assert_true(fabsf(n[4] + 0.8660254f) < 1e-5f && fabsf(n[5] - 0.5f) < 1e-5f);
    float lo[3], hi[3];
    wm_mesh_bounds(&m, lo, hi);
    assert_true(lo[0] == 0 && hi[0] == 1 && hi[1] == 1 && fabsf(hi[2] - 0.8660254f) < 1e-7f);
    wm_mesh_walkable_from_slope(&m, 45.0f);
    assert_int_equal(m.walkable[0], 1);
    assert_int_equal(m.walkable[1], 0);
    wm_mesh_walkable_from_slope(&m, 61.0f);
    assert_int_equal(m.walkable[1], 1);
    wm_mesh_free(&ctx, &m);
}

static void adjacency_and_boundary_loops(void **state)
{
    (void)state;
    wm_ctx_init(&ctx);
    /* Unit square split along 0-2: t0 = (0,1,2), t1 = (0,2,3). Shared edge:
     * t0 edge 2 (2->0) and t1 edge 0 (0->2). */
    const uint32_t idx[] = {0, 1, 2, 0, 2, 3};
    int32_t adj[6];
    uint32_t nonmanifold;
    assert_int_equal(wm_edge_adjacency(&ctx, idx, 2, NULL, adj, &nonmanifold), WM_OK);
    assert_int_equal(adj[2], 3);
    assert_int_equal(adj[3], 2);
    assert_int_equal(adj[0], -1);
    assert_int_equal(nonmanifold, 0);
    /* Open edges 0, 1, 4, 5 form one loop 0->1->2->3->0: codes 0 (0-1), 1 (1-2), 4 (2-3), 5 (3-0). */
    const uint32_t open[] = {5, 1, 4, 0};
    uint32_t order[4], ends[4], loops;
    assert_int_equal(wm_boundary_loops(&ctx, idx, open, 4, order, ends, &loops), WM_OK);
    assert_int_equal(loops, 1);
    assert_int_equal(ends[0], 4);
    assert_int_equal(order[0], 0);
    assert_int_equal(order[1], 1);
    assert_int_equal(order[2], 4);
    assert_int_equal(order[3], 5);
    /* A third triangle on edge 0-2 makes it non-manifold. */
    const uint32_t idx3[] = {0, 1, 2, 0, 2, 3, 2, 0, 4};
    int32_t adj3[9];
    assert_int_equal(wm_edge_adjacency(&ctx, idx3, 3, NULL, adj3, &nonmanifold), WM_OK);
    assert_int_equal(nonmanifold, 1);
    assert_int_equal(adj3[6], -1);
}

static void aabb_queries_match_brute_force(void **state)
{
    (void)state;
    wm_ctx_init(&ctx);
    /* A 10x10 grid of unit squares on the plane z = 0.25x. */
    float pos[121 * 3];
    uint32_t idx[200 * 3];
    for (int y = 0; y <= 10; y++)
        for (int x = 0; x <= 10; x++) {
            float *p = pos + 3 * (y * 11 + x);
            p[0] = (float)x;
            p[1] = (float)y;
            p[2] = 0.25f * (float)x;
        }
    int t = 0;
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 10; x++) {
            uint32_t a = (uint32_t)(y * 11 + x), b = a + 1, c = a + 12, d = a + 11;
            uint32_t q[6] = {a, b, c, a, c, d};
            memcpy(idx + 3 * t, q, sizeof q);
            t += 2;
        }
    wm_aabb_tree tree;
    assert_int_equal(wm_aabb_build(&ctx, pos, idx, 200, &tree), WM_OK);
    assert_int_equal(tree.node_count, 399);
    float orig[3] = {3.3f, 7.6f, 100.0f}, dir[3] = {0, 0, -1};
    uint32_t hit;
    float dist;
    assert_true(wm_aabb_raycast(&tree, orig, dir, &hit, &dist));
    /* The plane z = 0.25x gives 0.825 at x = 3.3. */
    assert_true(fabsf((100.0f - dist) - 0.825f) < 1e-4f);
    const uint32_t *tri = idx + 3 * hit;
    assert_true(wm_point_in_tri_xy(pos + 3 * tri[0], pos + 3 * tri[1], pos + 3 * tri[2], 3.3f, 7.6f, 0));
    wm_aabb_free(&ctx, &tree);
}

/* Boundary loops through one vertex of very high degree (issue 19): 600,000 triangles
 * (p, q, c) touching only at c, every edge open. Each loop starts at p (smallest code),
 * reaches c and leaves it by the first unused edge there, which once meant rescanning every
 * used edge at c (1.8e11 steps; 200,000 took 14 s). Each triangle is a loop of its own three edges. */
static void boundary_loops_at_one_vertex(void **state)
{
    (void)state;
    enum { PETALS = 600000 };
    uint32_t *idx = malloc(sizeof *idx * 3 * PETALS), *open = malloc(sizeof *open * 3 * PETALS);
    uint32_t *order = malloc(sizeof *order * 3 * PETALS), *ends = malloc(sizeof *ends * 3 * PETALS), loops = 0;
    assert_non_null(idx);
    assert_non_null(open);
    assert_non_null(order);
    assert_non_null(ends);
    for (uint32_t t = 0; t < PETALS; t++) {
        idx[3 * t] = 1 + 2 * t;
        idx[3 * t + 1] = 2 + 2 * t;
        idx[3 * t + 2] = 0;
    }
    for (uint32_t c = 0; c < 3 * PETALS; c++)
        open[c] = c;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    assert_int_equal(wm_boundary_loops(&ctx, idx, open, 3 * PETALS, order, ends, &loops), WM_OK);
    assert_int_equal(loops, PETALS);
    for (uint32_t l = 0; l < PETALS; l++) {
        assert_int_equal(ends[l], 3 * (l + 1));
        for (uint32_t k = 0; k < 3; k++)
            assert_int_equal(order[3 * l + k] / 3, l);
    }
    free(idx);
    free(open);
    free(order);
    free(ends);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(weld_merges_within_tolerance),
        cmocka_unit_test(weld_keeps_distinct_vertices),
        cmocka_unit_test(weld_map_of_clusters_is_a_direct_search),
        cmocka_unit_test(weld_map_of_round_coordinates_is_a_direct_search),
        cmocka_unit_test(compact_drops_exactly_the_unused_vertices),
        cmocka_unit_test(degenerate_triangles_are_removed),
        cmocka_unit_test(validate_reports_the_element),
        cmocka_unit_test(normals_bounds_and_slope),
        cmocka_unit_test(adjacency_and_boundary_loops),
        cmocka_unit_test(boundary_loops_at_one_vertex),
        cmocka_unit_test(aabb_queries_match_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
