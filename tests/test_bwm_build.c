/* The BWM builder against real files: rebuilding a vanilla (BioWare) or
 * K1CP (KOTORMax) file from its vertices, faces, materials and transitions
 * must give back its face order, adjacency, edges, perimeters and AABB tree.
 * Where BioWare's tree splits faces whose centroids tie on the split axis,
 * its tie order is not recoverable; the test finds those nodes itself from
 * the original file and excuses only the subtrees below them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"

static const char *const VANILLA[] = {
    "pykotor-generated_kit-blackvulkar-m10aa_01c.wok", "pykotor-generated_kit-blackvulkar-m10aa_03a.wok",
    "pykotor-generated_kit-blackvulkar-m10aa_05a.wok", "pykotor-generated_kit-blackvulkar-m10aa_08b.wok",
    "pykotor-models-203tell.wok", "pykotor-tests-test.wok", "pykotor-tests-zio006j.wok"};
static const char *const K1CP[] = {"k1cp-m10ac_30a.wok", "k1cp-m12aa_01f.wok", "k1cp-m13aa_04a.wok",
                                   "k1cp-m22ab_09a.wok"};

static void load(const char *name, bwm_file *f)
{
    char rel[256];
    snprintf(rel, sizeof rel, "bwm/%s", name);
    char *path = wmt_corpus_path_or_skip(rel);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (bwm_read_file(&ctx, path, f)) fail_msg("%s", wm_ctx_message(&ctx));
    free(path);
}

/* Faces under each node of a tree (independent of the builder): leaf lists in preorder. */
static uint32_t collect(const bwm_file *f, uint32_t node, uint32_t *out)
{
    const bwm_aabb_node *n = &f->aabb[node];
    if (n->face >= 0) {
        out[0] = (uint32_t)n->face;
        return 1;
    }
    uint32_t k = collect(f, n->left, out);
    return k + collect(f, n->right, out + k);
}

static double centroid(const bwm_file *f, uint32_t face, int axis)
{
    double s = 0;
    for (int c = 0; c < 3; c++) s += f->vertices[3 * (size_t)f->faces[3 * (size_t)face + c] + axis];
    return s / 3.0;
}

/* Marks nodes of the original tree lying below a split whose two sides
 * share a centroid value on the split axis (the longest axis of the faces' box). */
static void mark_tie_subtrees(const bwm_file *f, uint32_t node, int below_tie, uint8_t *affected, uint32_t *tie_nodes)
{
    const bwm_aabb_node *n = &f->aabb[node];
    affected[node] = (uint8_t)below_tie;
    if (n->face >= 0) return;
    uint32_t *faces = malloc(sizeof(uint32_t) * f->face_count);
    uint32_t nl = collect(f, n->left, faces);
    uint32_t nr = collect(f, n->right, faces + nl);
    double mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < nl + nr; i++)
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++) {
                double v = f->vertices[3 * (size_t)f->faces[3 * (size_t)faces[i] + c] + k];
                mn[k] = fmin(mn[k], v);
                mx[k] = fmax(mx[k], v);
            }
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (mx[k] - mn[k] > mx[axis] - mn[axis]) axis = k;
    double left_max = -INFINITY, right_min = INFINITY;
    for (uint32_t i = 0; i < nl; i++) left_max = fmax(left_max, centroid(f, faces[i], axis));
    for (uint32_t i = nl; i < nl + nr; i++) right_min = fmin(right_min, centroid(f, faces[i], axis));
    /* the file itself must follow the median rule: floor(n/2) on the left, sorted by centroid */
    assert_int_equal(nl, (nl + nr) / 2);
    assert_true(left_max <= right_min);
    int tie = left_max == right_min;
    *tie_nodes += (uint32_t)tie;
    free(faces);
    mark_tie_subtrees(f, n->left, below_tie || tie, affected, tie_nodes);
    mark_tie_subtrees(f, n->right, below_tie || tie, affected, tie_nodes);
}

typedef struct rebuild_stats {
    uint32_t tie_nodes, affected, plane_diffs;
    double max_box_diff, max_normal_diff, max_distance_diff;
} rebuild_stats;

static void check_rebuild(const char *name, bwm_plane_style planes, int keep_tie_order, int check_planes_exact,
                          double plane_tol, rebuild_stats *st)
{
    bwm_file orig, built;
    wm_ctx ctx;
    load(name, &orig);
    load(name, &built);
    wmt_ctx_init(&ctx);
    assert_int_equal(bwm_rebuild(&ctx, &built, planes, keep_tie_order), WM_OK);
    memset(st, 0, sizeof *st);

    /* face order, materials, adjacency, edges and perimeters: exactly */
    assert_int_equal(built.face_count, orig.face_count);
    assert_memory_equal(built.faces, orig.faces, orig.face_count * 12);
    assert_memory_equal(built.materials, orig.materials, orig.face_count * 4);
    assert_int_equal(built.adjacency_count, orig.adjacency_count);
    assert_memory_equal(built.adjacency, orig.adjacency, orig.adjacency_count * 12);
    assert_int_equal(built.edge_count, orig.edge_count);
    for (uint32_t e = 0; e < orig.edge_count; e++) {
        assert_int_equal(built.edges[e].code, orig.edges[e].code);
        assert_int_equal(built.edges[e].transition, orig.edges[e].transition);
    }
    assert_int_equal(built.perimeter_count, orig.perimeter_count);
    assert_memory_equal(built.perimeters, orig.perimeters, orig.perimeter_count * 4);

    for (uint32_t i = 0; i < orig.face_count; i++) {
        for (int k = 0; k < 3; k++)
            st->max_normal_diff = fmax(st->max_normal_diff, fabs(built.normals[3 * i + k] - orig.normals[3 * i + k]));
        st->max_distance_diff = fmax(st->max_distance_diff, fabs(built.distances[i] - orig.distances[i]));
    }

    /* AABB: same shape everywhere; same faces, boxes and planes outside tie subtrees */
    assert_int_equal(built.aabb_count, orig.aabb_count);
    uint8_t *affected = calloc(orig.aabb_count, 1);
    mark_tie_subtrees(&orig, 0, 0, affected, &st->tie_nodes);
    if (keep_tie_order) memset(affected, 0, orig.aabb_count); /* then every node must match */
    for (uint32_t i = 0; i < orig.aabb_count; i++) {
        const bwm_aabb_node *a = &orig.aabb[i], *b = &built.aabb[i];
        assert_int_equal(b->left, a->left);
        assert_int_equal(b->right, a->right);
        assert_int_equal(b->constant, 4);
        if (affected[i]) {
            st->affected++;
            continue;
        }
        if (b->face != a->face) fail_msg("%s: node %u: face %d, original %d (no tie above)", name, i, b->face, a->face);
        for (int k = 0; k < 3; k++) {
            st->max_box_diff = fmax(st->max_box_diff, fabs(b->min[k] - a->min[k]));
            st->max_box_diff = fmax(st->max_box_diff, fabs(b->max[k] - a->max[k]));
        }
        if (b->plane != a->plane) {
            st->plane_diffs++;
            if (check_planes_exact) fail_msg("%s: node %u: plane %u, original %u", name, i, b->plane, a->plane);
            /* a differing plane must be a tie: the original's axis displaces (nearly) as far as ours */
            int ao = 0, ab = 0;
            while ((a->plane >> ao) > 1) ao++;
            while ((b->plane >> ab) > 1) ab++;
            const bwm_aabb_node *l = &orig.aabb[a->left], *r = &orig.aabb[a->right];
            double d_orig = fabs((r->min[ao % 3] + r->max[ao % 3]) - (l->min[ao % 3] + l->max[ao % 3])) / 2;
            double d_ours = fabs((r->min[ab % 3] + r->max[ab % 3]) - (l->min[ab % 3] + l->max[ab % 3])) / 2;
            if (fabs(d_orig - d_ours) > plane_tol)
                fail_msg("%s: node %u: plane %u vs original %u is not a tie (%g vs %g)", name, i, b->plane, a->plane,
                         d_ours, d_orig);
        }
    }
    print_message("%s %-47s nodes %5u  tie splits %3u  nodes below ties %4u  plane diffs %3u  max box diff %.2g  "
                  "normal %.2g  distance %.2g\n",
                  keep_tie_order ? "tie order kept" : "pure rebuild  ", name, orig.aabb_count, st->tie_nodes, st->affected, st->plane_diffs, st->max_box_diff,
                  st->max_normal_diff, st->max_distance_diff);
    free(affected);
    bwm_file_free(&ctx, &orig);
    bwm_file_free(&ctx, &built);
}

static void test_rebuild_vanilla(void **state)
{
    (void)state;
    for (int keep = 0; keep < 2; keep++)
        for (size_t i = 0; i < sizeof VANILLA / sizeof VANILLA[0]; i++) {
            rebuild_stats st;
            check_rebuild(VANILLA[i], BWM_PLANES_BIOWARE, keep, 0, 2e-3, &st); /* ties within the box noise */
            assert_true(st.max_normal_diff <= 1e-5);
            assert_true(st.max_distance_diff <= 1e-5);
            /* BioWare padded boxes of its source coordinates: 0.01 +- 1.1e-3 around the stored faces */
            assert_true(st.max_box_diff <= 2e-3);
        }
}

static void test_rebuild_k1cp_kotormax_planes(void **state)
{
    (void)state;
    for (int keep = 0; keep < 2; keep++)
        for (size_t i = 0; i < sizeof K1CP / sizeof K1CP[0]; i++) {
            rebuild_stats st;
            check_rebuild(K1CP[i], BWM_PLANES_KOTORMAX, keep, 1, 0, &st);
            assert_int_equal(st.plane_diffs, 0);
        }
}

/* The built file passes the independent validator without errors. */
static void assert_validates(wm_ctx *ctx, const bwm_file *f)
{
    wm_report report;
    wm_report_init(&report, ctx);
    assert_int_equal(bwm_validate(ctx, f, 0, &report), WM_OK);
    assert_int_equal(report.errors, 0);
    wm_report_free(&report);
}

/* Independent check of the builder's tree on a generated mesh: median rule at every node. */
static void test_builder_median_rule_on_generated_mesh(void **state)
{
    (void)state;
    enum { W = 23, H = 17 };
    float verts[(W + 1) * (H + 1) * 3];
    uint32_t faces[W * H * 2 * 3], materials[W * H * 2];
    uint32_t nv = 0, nf = 0;
    for (int y = 0; y <= H; y++)
        for (int x = 0; x <= W; x++) {
            verts[3 * nv] = (float)x * 1.5f;
            verts[3 * nv + 1] = (float)y;
            verts[3 * nv + 2] = 0.1f * (float)((x * 7 + y * 3) % 5);
            nv++;
        }
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint32_t a = (uint32_t)(y * (W + 1) + x), b = a + 1, c = a + W + 1, d = c + 1;
            uint32_t quad[6] = {a, b, d, a, d, c};
            for (int t = 0; t < 2; t++) {
                memcpy(&faces[3 * nf], &quad[3 * t], 12);
                materials[nf] = ((x + y) % 4 == 0) ? 7 : 4; /* nonwalk / stone */
                nf++;
            }
        }
    bwm_build_input in = {BWM_TYPE_AREA, verts, nv, faces, nf, materials, NULL, NULL, BWM_PLANES_BIOWARE, NULL, NULL, NULL};
    bwm_file f;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    assert_int_equal(bwm_build(&ctx, &in, &f), WM_OK);
    assert_int_equal(f.aabb_count, 2 * nf - 1);
    uint8_t *affected = calloc(f.aabb_count, 1);
    uint32_t ties = 0;
    mark_tie_subtrees(&f, 0, 0, affected, &ties); /* asserts the median rule at every node */
    free(affected);
    /* walkable-first, stable */
    uint32_t walkable = 0;
    for (uint32_t i = 0; i < nf; i++) walkable += materials[i] == 4;
    assert_int_equal(f.adjacency_count, walkable);
    for (uint32_t i = 0; i < nf; i++) assert_int_equal(f.materials[i], i < walkable ? 4 : 7);
    assert_validates(&ctx, &f);
    bwm_file_free(&ctx, &f);
}

static void test_builder_warnings(void **state)
{
    (void)state;
    /* three walkable faces on edge 0-1; one walkable face facing down; one degenerate face */
    float verts[] = {0, 0, 0, 1, 0, 0, 0.5f, 1, 0, 0.5f, -1, 0, 0.5f, 0.5f, 1, 5, 5, 0, 6, 5, 0, 5, 6, 0, 7, 7, 0};
    uint32_t faces[] = {0, 1, 2, 1, 0, 3, 0, 1, 4, 5, 7, 6, 5, 6, 8};
    uint32_t materials[] = {4, 4, 4, 4, 4};
    float degenerate_verts[sizeof verts / sizeof verts[0]];
    memcpy(degenerate_verts, verts, sizeof verts);
    degenerate_verts[3 * 8] = 7; /* vertex 8 on the line 5-6 */
    degenerate_verts[3 * 8 + 1] = 5;
    bwm_build_input in = {BWM_TYPE_AREA, degenerate_verts, 9, faces, 5, materials, NULL, NULL, BWM_PLANES_BIOWARE,
                          NULL, NULL, NULL};
    bwm_file f;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    assert_int_equal(bwm_build(&ctx, &in, &f), WM_OK);
    assert_non_null(strstr(wmt_warnings, "shared by 3 faces"));
    assert_non_null(strstr(wmt_warnings, "face 3: walkable face faces down"));
    assert_non_null(strstr(wmt_warnings, "face 4: degenerate"));
    bwm_file_free(&ctx, &f);
}

static void test_placeable_build(void **state)
{
    (void)state;
    bwm_file orig, built;
    wm_ctx ctx;
    load("k1cp-plc_fccage2.pwk", &orig);
    load("k1cp-plc_fccage2.pwk", &built);
    wmt_ctx_init(&ctx);
    assert_int_equal(bwm_rebuild(&ctx, &built, BWM_PLANES_BIOWARE, 1), WM_OK);
    wm_buffer a, b;
    assert_int_equal(bwm_serialize(&ctx, &orig, &a), WM_OK);
    assert_int_equal(bwm_serialize(&ctx, &built, &b), WM_OK);
    assert_int_equal(a.size, b.size);
    /* header (hooks, zero offsets of absent sections), vertices, faces and materials identical */
    uint32_t normals_at = orig.offsets[BWM_SEC_NORMALS];
    assert_memory_equal(a.data, b.data, normals_at);
    for (uint32_t i = 0; i < orig.face_count * 3; i++) assert_true(fabs(orig.normals[i] - built.normals[i]) < 1e-5);
    wm_buffer_free(&a);
    wm_buffer_free(&b);
    bwm_file_free(&ctx, &orig);
    bwm_file_free(&ctx, &built);
}

/* Imported meshes: duplicated seam vertices are welded before adjacency; the walkable flag wins over the surface. */
static void test_from_mesh_welds_and_honours_walkable(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_mesh m;
    wmt_ctx_init(&ctx);
    wm_mesh_init(&m);
    /* two quads' worth of triangles; the second pair repeats the seam vertices 5e-5 apart */
    const float p[][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {1.00005f, 0, 0}, {2, 0, 0}, {2, 1, 0}, {1, 1.00005f, 0}};
    for (int i = 0; i < 8; i++) assert_int_equal(wm_mesh_add_vertex(&ctx, &m, p[i][0], p[i][1], p[i][2], NULL), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(&ctx, &m, 0, 1, 2, WM_SURF_STONE, 1), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(&ctx, &m, 0, 2, 3, WM_SURF_STONE, 1), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(&ctx, &m, 4, 5, 6, WM_SURF_STONE, 0), WM_OK); /* stone, marked not walkable */
    assert_int_equal(wm_mesh_add_triangle(&ctx, &m, 4, 6, 7, WM_SURF_STONE, 1), WM_OK);
    m.transitions[3 * 3 + 0] = 5; /* edge 4-6 of triangle 3 (open once triangle 2 is not walkable): a room link */
    bwm_file f;
    assert_int_equal(bwm_from_mesh(&ctx, &m, BWM_TYPE_AREA, -1.0f, BWM_PLANES_BIOWARE, &f), WM_OK);
    assert_int_equal(f.vertex_count, 6); /* 4 and 7 welded onto 1 and 2 */
    assert_int_equal(f.adjacency_count, 3);
    assert_int_equal(f.materials[3], 7); /* the non-walkable stone face became nonwalk, and comes last */
    assert_non_null(strstr(wmt_warnings, "walkable (or not) against their surface"));
    /* walkable-first: triangle 3 becomes face 2; the seam 1-2 links face 0 edge 1 and face 2 edge 2 (7 -> 4) */
    assert_int_equal(f.adjacency[0 * 3 + 1], 2 * 3 + 2);
    assert_int_equal(f.adjacency[2 * 3 + 2], 0 * 3 + 1);
    int found = 0;
    for (uint32_t e = 0; e < f.edge_count; e++) found |= f.edges[e].code == 2 * 3 + 0 && f.edges[e].transition == 5;
    assert_true(found);
    assert_validates(&ctx, &f);
    bwm_file_free(&ctx, &f);
    wm_mesh_free(&ctx, &m);
}

/* The rule, by direct search: in ascending edge order, each edge not linked yet links to the
 * first later unlinked edge of another face on the same two vertices. */
static void direct_search(const uint32_t *faces, uint32_t nf, int32_t *expect)
{
    for (uint32_t c = 0; c < 3 * nf; c++) expect[c] = -1;
    for (uint32_t c = 0; c < 3 * nf; c++)
        for (uint32_t d = c + 1; d < 3 * nf && expect[c] < 0; d++) {
            uint32_t c0 = faces[c], c1 = faces[c - c % 3 + (c % 3 + 1) % 3];
            uint32_t d0 = faces[d], d1 = faces[d - d % 3 + (d % 3 + 1) % 3];
            int same_pair = (c0 == d0 && c1 == d1) || (c0 == d1 && c1 == d0);
            if (same_pair && c / 3 != d / 3 && expect[d] < 0) {
                expect[c] = (int32_t)d;
                expect[d] = (int32_t)c;
            }
        }
}

/* Faces stacked on one triangle (issue 27.4: the linking was quadratic in them), both
 * windings, among them degenerate faces with two edges on the stacked pair (0 1 0) and one
 * with all three on one vertex (2 2 2): the builder's adjacency is the direct search's, and
 * the warning counts the faces on the edge. */
static void test_adjacency_of_stacked_faces_is_a_direct_search(void **state)
{
    (void)state;
    static const uint32_t shapes[][3] = {{0, 1, 2}, {1, 0, 2}, {0, 1, 0}, {2, 0, 1}, {1, 2, 0}, {2, 2, 2}, {0, 2, 1}};
    const float v[9] = {0, 0, 0, 4, 0, 0, 0, 4, 0};
    for (uint32_t nf = 3; nf <= 61; nf += 29) {
        uint32_t *faces = malloc(3 * (size_t)nf * sizeof(uint32_t)), *materials = malloc(nf * sizeof(uint32_t));
        int32_t *expect = malloc(3 * (size_t)nf * sizeof(int32_t));
        assert_true(faces && materials && expect);
        uint32_t on_01 = 0;
        for (uint32_t k = 0; k < nf; k++) {
            memcpy(faces + 3 * (size_t)k, shapes[(k * 5) % 7], sizeof shapes[0]);
            materials[k] = WM_SURF_STONE;
            for (uint32_t e = 0; e < 3; e++) { /* the warning counts the edges on the pair */
                uint32_t a = faces[3 * (size_t)k + e], b = faces[3 * (size_t)k + (e + 1) % 3];
                on_01 += (a == 0 && b == 1) || (a == 1 && b == 0);
            }
        }
        direct_search(faces, nf, expect);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        bwm_build_input in = {BWM_TYPE_AREA, v, 3, faces, nf, materials, NULL, NULL, BWM_PLANES_BIOWARE,
                              NULL, NULL, NULL};
        bwm_file f;
        assert_int_equal(bwm_build(&ctx, &in, &f), WM_OK);
        assert_memory_equal(f.adjacency, expect, 3 * (size_t)nf * sizeof(int32_t));
        char shared[64];
        snprintf(shared, sizeof shared, "shared by %u faces", on_01);
        if (nf > 3) assert_non_null(strstr(wmt_warnings, shared));
        bwm_file_free(&ctx, &f);
        free(faces);
        free(materials);
        free(expect);
    }
}

/* Fans of 6, 12 and 40 faces around vertex 0 (rows of 16, 32 and 106 edges: the first
 * sorted by insertion, the others by qsort), their spokes listed in a
 * scrambled order, each spoke shared by two faces and every third also by
 * a third face (a non-manifold edge): the builder's adjacency is the
 * direct search's: in ascending edge order, each edge not linked yet links
 * to the first later unlinked edge of another face on the same two vertices. */
static void test_adjacency_of_fans_is_a_direct_search(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {6, 12, 40};
    for (int s = 0; s < 3; s++) {
        uint32_t n = sizes[s], nf = n + n / 3, nv = n + 1;
        float *v = calloc(3 * (size_t)nv, sizeof(float));
        uint32_t *faces = malloc(3 * (size_t)nf * sizeof(uint32_t)), *materials = malloc(nf * sizeof(uint32_t));
        int32_t *expect = malloc(3 * (size_t)nf * sizeof(int32_t));
        assert_true(v && faces && materials && expect);
        for (uint32_t i = 0; i < n; i++) {
            v[3 * (i + 1)] = cosf(6.2831853f * (float)i / (float)n);
            v[3 * (i + 1) + 1] = sinf(6.2831853f * (float)i / (float)n);
        }
        for (uint32_t k = 0; k < nf; k++) {
            uint32_t i = k < n ? (k * 7) % n : 3 * (k - n); /* (k * 7) % n visits every spoke: 7 is prime to n */
            uint32_t a = 1 + i, b = 1 + (i + 1) % n;
            uint32_t *f = faces + 3 * (size_t)k;
            f[0] = 0, f[1] = k < n ? a : b, f[2] = k < n ? b : 1 + (i + 2) % n; /* extras share spoke b */
            materials[k] = WM_SURF_STONE;
        }
        direct_search(faces, nf, expect);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        bwm_build_input in = {BWM_TYPE_AREA, v, nv, faces, nf, materials, NULL, NULL, BWM_PLANES_BIOWARE,
                              NULL, NULL, NULL};
        bwm_file f;
        assert_int_equal(bwm_build(&ctx, &in, &f), WM_OK);
        assert_int_equal(f.adjacency_count, nf);
        assert_memory_equal(f.adjacency, expect, 3 * (size_t)nf * sizeof(int32_t));
        assert_non_null(strstr(wmt_warnings, "shared by 3 faces"));
        bwm_file_free(&ctx, &f);
        free(v);
        free(faces);
        free(materials);
        free(expect);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rebuild_vanilla),
        cmocka_unit_test(test_adjacency_of_fans_is_a_direct_search),
        cmocka_unit_test(test_adjacency_of_stacked_faces_is_a_direct_search),
        cmocka_unit_test(test_rebuild_k1cp_kotormax_planes),
        cmocka_unit_test(test_builder_median_rule_on_generated_mesh),
        cmocka_unit_test(test_builder_warnings),
        cmocka_unit_test(test_placeable_build),
        cmocka_unit_test(test_from_mesh_welds_and_honours_walkable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
