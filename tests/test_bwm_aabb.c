/* The AABB builder against a plain reference written here from the rule in
 * FORMAT-NOTES section 1: at each node, sort the faces by centroid (double
 * (v0 + v1 + v2) / 3) on the longest axis of their box (first axis on a
 * tie), ties by tie rank then face index, floor(n/2) to the left; leaf
 * boxes padded by 0.01; plane flag from the children's box centres
 * (BioWare) or the split axis (KOTORMax). Both entry points, node by node,
 * on real files' meshes and on random meshes full of equal centroids; and
 * the selection the builder uses, against a full sort. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"
#include "bwm/bwm_aabb_order.h"

typedef struct mesh {
    float *v;
    uint32_t *f;
    uint32_t *tie; /* NULL: face index alone */
    uint32_t nf;
} mesh;

static const mesh *sort_mesh; /* qsort has no user pointer */
static int sort_axis;

static double centroid(const mesh *m, uint32_t face, int axis)
{
    const uint32_t *c = &m->f[3 * (size_t)face];
    return ((double)m->v[3 * c[0] + axis] + m->v[3 * c[1] + axis] + m->v[3 * c[2] + axis]) / 3.0;
}

static int by_centroid(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    double ca = centroid(sort_mesh, a, sort_axis), cb = centroid(sort_mesh, b, sort_axis);
    if (ca != cb) return ca < cb ? -1 : 1;
    uint32_t ta = sort_mesh->tie ? sort_mesh->tie[a] : 0, tb = sort_mesh->tie ? sort_mesh->tie[b] : 0;
    if (ta != tb) return ta < tb ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* The reference: fills nodes[at...] in preorder, returns the node count. */
static uint32_t ref_build(const mesh *m, uint32_t *faces, uint32_t n, bwm_plane_style planes, bwm_aabb_node *nodes,
                          uint32_t at)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++) {
                float x = m->v[3 * m->f[3 * (size_t)faces[i] + c] + k];
                lo[k] = x < lo[k] ? x : lo[k];
                hi[k] = x > hi[k] ? x : hi[k];
            }
    bwm_aabb_node *node = &nodes[at];
    for (int k = 0; k < 3; k++) {
        node->min[k] = lo[k] - 0.01f;
        node->max[k] = hi[k] + 0.01f;
    }
    node->constant = 4;
    if (n == 1) {
        node->face = (int32_t)faces[0];
        node->plane = 0;
        node->left = node->right = 0xFFFFFFFFu;
        return 1;
    }
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (hi[k] - lo[k] > hi[axis] - lo[axis]) axis = k;
    sort_mesh = m;
    sort_axis = axis;
    qsort(faces, n, sizeof *faces, by_centroid);
    uint32_t half = n / 2;
    uint32_t left = ref_build(m, faces, half, planes, nodes, at + 1);
    uint32_t right = ref_build(m, faces + half, n - half, planes, nodes, at + 1 + left);
    const bwm_aabb_node *l = &nodes[at + 1], *r = &nodes[at + 1 + left];
    double best = -1.0;
    uint32_t flag = 0;
    for (int k = 0; k < 3; k++) {
        double d = ((double)r->min[k] + r->max[k]) * 0.5 - ((double)l->min[k] + l->max[k]) * 0.5;
        if (fabs(d) > best) {
            best = fabs(d);
            flag = (1u << k) << (d < 0 ? 3 : 0);
        }
    }
    node = &nodes[at];
    node->face = -1;
    node->plane = planes == BWM_PLANES_KOTORMAX ? 1u << axis : flag;
    node->left = at + 1;
    node->right = at + 1 + left;
    return 1 + left + right;
}

static bwm_aabb_node *reference(const mesh *m, bwm_plane_style planes)
{
    uint32_t *faces = malloc(sizeof *faces * m->nf);
    bwm_aabb_node *nodes = malloc(sizeof *nodes * (2 * (size_t)m->nf - 1));
    for (uint32_t i = 0; i < m->nf; i++) faces[i] = i;
    assert_int_equal(ref_build(m, faces, m->nf, planes, nodes, 0), 2 * m->nf - 1);
    free(faces);
    return nodes;
}

static void assert_same_nodes(const bwm_aabb_node *want, const bwm_aabb_node *got, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        if (memcmp(&want[i], &got[i], sizeof *want) != 0)
            fail_msg("node %u of %u differs: face %d/%d plane %u/%u left %u/%u", i, count, want[i].face,
                     got[i].face, want[i].plane, got[i].plane, want[i].left, got[i].left);
}

typedef struct collected {
    uint32_t *words;
    size_t count;
} collected;

static wm_result collect_words(void *stage, const void *words, size_t count)
{
    collected *c = stage;
    memcpy(c->words + c->count, words, count * 4);
    c->count += count;
    return WM_OK;
}

/* Both entry points against the reference. */
static void check_mesh(const mesh *m, bwm_plane_style planes)
{
    bwm_aabb_node *want = reference(m, planes);
    uint32_t count = 2 * m->nf - 1;
    bwm_aabb_node *built = malloc(sizeof *built * (count + BWM_AABB_SPARE_NODES));
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    assert_int_equal(bwm_build_aabb(&ctx, m->v, m->f, m->nf, m->tie, planes, built), WM_OK);
    assert_same_nodes(want, built, count);
    if (!m->tie) {
        void *work = malloc(bwm_aabb_stream_bytes(m->nf));
        collected c = {malloc((size_t)count * 44), 0};
        assert_int_equal(bwm_stream_aabb(m->v, m->f, m->nf, planes, work, collect_words, &c), WM_OK);
        assert_int_equal(c.count, (size_t)count * 11);
        for (uint32_t i = 0; i < count; i++) memcpy(&built[i], c.words + 11 * (size_t)i, 44); /* the file's layout */
        assert_same_nodes(want, built, count);
        free(work);
        free(c.words);
    }
    free(built);
    free(want);
}

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

/* nf random triangles over a lattice of side `side` (many equal centroids
 * and boxes), or over continuous coordinates when side is 0. */
static mesh random_mesh(uint32_t nf, uint32_t side, uint32_t seed, int with_ties)
{
    mesh m;
    uint32_t nv = nf + 2;
    m.v = malloc(sizeof(float) * 3 * nv);
    m.f = malloc(sizeof(uint32_t) * 3 * nf);
    m.tie = with_ties ? malloc(sizeof(uint32_t) * nf) : NULL;
    m.nf = nf;
    for (uint32_t i = 0; i < 3 * nv; i++)
        m.v[i] = side ? (float)(next_random(&seed) % side) : (float)(next_random(&seed) % 100000) * 0.0137f;
    for (uint32_t i = 0; i < 3 * nf; i++) m.f[i] = next_random(&seed) % nv;
    for (uint32_t i = 0; m.tie && i < nf; i++) m.tie[i] = next_random(&seed) % (nf / 4 + 1);
    return m;
}

static void free_mesh(mesh *m)
{
    free(m->v);
    free(m->f);
    free(m->tie);
}

static void test_random_meshes(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {1, 2, 3, 4, 5, 17, 100, 2047, 2048, 5000, 30000};
    static const uint32_t sides[] = {2, 5, 0};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t d = 0; d < sizeof sides / sizeof *sides; d++)
            for (int ties = 0; ties < 2; ties++) {
                mesh m = random_mesh(sizes[s], sides[d], (uint32_t)(s * 7 + d * 3 + (size_t)ties), ties);
                check_mesh(&m, BWM_PLANES_BIOWARE);
                if (sizes[s] < 6000) check_mesh(&m, BWM_PLANES_KOTORMAX);
                free_mesh(&m);
            }
}

/* A flat grid of squares in row order, two triangles each: every column's
 * faces share their centroid's x and every row's their y. */
static void test_grid_of_equal_centroids(void **state)
{
    (void)state;
    const uint32_t cols = 150, rows = 90, nv = (cols + 1) * (rows + 1);
    mesh m = {malloc(sizeof(float) * 3 * nv), malloc(sizeof(uint32_t) * 6 * cols * rows), NULL, 2 * cols * rows};
    for (uint32_t y = 0, i = 0; y <= rows; y++)
        for (uint32_t x = 0; x <= cols; x++, i++) {
            m.v[3 * i] = (float)x;
            m.v[3 * i + 1] = (float)y * 0.5f;
            m.v[3 * i + 2] = 0.0f;
        }
    uint32_t *f = m.f;
    for (uint32_t y = 0; y < rows; y++)
        for (uint32_t x = 0; x < cols; x++) {
            uint32_t a = y * (cols + 1) + x, b = a + 1, c = a + cols + 1, d = c + 1;
            uint32_t tri[6] = {a, b, d, a, d, c};
            memcpy(f, tri, sizeof tri);
            f += 6;
        }
    check_mesh(&m, BWM_PLANES_BIOWARE);
    free_mesh(&m);
}

/* Every real file's mesh, built with face-index ties. */
static void test_corpus_meshes(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".wok", ".pwk", ".dwk", NULL};
    char **paths;
    size_t count = wmt_corpus_list("bwm", suffixes, &paths), checked = 0;
    for (size_t i = 0; i < count; i++) {
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        bwm_file f;
        if (bwm_read_file(&ctx, paths[i], &f)) fail_msg("%s: %s", paths[i], wm_ctx_message(&ctx));
        if (f.face_count > 0) {
            mesh m = {f.vertices, f.faces, NULL, f.face_count};
            check_mesh(&m, BWM_PLANES_BIOWARE);
            checked++;
        }
        bwm_file_free(&ctx, &f);
    }
    wmt_free_list(paths, count);
    assert_true(checked > 0);
}

static int by_value(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Distinct values in several orders (random, ascending, descending, saw
 * tooth) every 4th word, against the k-th of a sorted copy. */
static void test_select_against_sort(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 3, 16, 17, 100, 2047, 2048, 2049, 10000, 200000};
    uint32_t seed = 99;
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int pattern = 0; pattern < 4; pattern++) {
            size_t n = sizes[s];
            uint32_t *v = malloc(sizeof *v * 4 * n), *sorted = malloc(sizeof *v * n), *scratch = malloc(sizeof *v * n);
            for (size_t i = 0; i < n; i++) {
                size_t at = pattern == 0 ? i : pattern == 1 ? i : pattern == 2 ? n - 1 - i : (i % 97) * (n / 97 + 1) + i / 97;
                /* odd multiplier: distinct; patterns 1-3 keep the order of `at` */
                sorted[i] = pattern == 0 ? (uint32_t)(at * 2654435761u) : (uint32_t)at * 3u + 7u;
                v[4 * i] = sorted[i];
                v[4 * i + 1] = next_random(&seed);
            }
            qsort(sorted, n, sizeof *sorted, by_value);
            size_t ks[] = {0, n / 2, n - 1, next_random(&seed) % n, n / 3};
            for (size_t k = 0; k < sizeof ks / sizeof *ks; k++)
                assert_int_equal(aabb_select(v, 4, n, ks[k], scratch), sorted[ks[k]]);
            free(v);
            free(sorted);
            free(scratch);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_against_sort),
        cmocka_unit_test(test_random_meshes),
        cmocka_unit_test(test_grid_of_equal_centroids),
        cmocka_unit_test(test_corpus_meshes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
