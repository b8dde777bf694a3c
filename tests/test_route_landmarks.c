/* Landmarks (wm_walk_graph_add_landmarks) change how much a route's search looks at, never the
 * route: on every corpus KotOR .wok and NWN2 .trx, random pairs anywhere on the walkable ground
 * (far apart: the bound matters on long routes) get the same answer with landmarks as without
 * (found or not, the same length in plan), with and without a radius, and each route found
 * lies over walkable ground every 10 cm (route_ground.h, the test's own view of the faces) and
 * is no longer over the ground than its slopes and the mesh's height allow. The
 * routes without landmarks are the ones test_route holds to the raster. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "route_ground.h"
#include "test_support.h"
#include "walkmesh.h"

#define PAIRS 12
#define LANDMARKS 2 /* as many as test the bound; the bench measures what more of them buy */
#define RADIUS 0.25f

typedef struct totals {
    unsigned files, pairs, found, radius_pairs, radius_found, multilevel;
    double longest;
} totals;

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static double uniform(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* A point uniform in plan over the walkable faces (cumulative: their areas summed). */
static void random_point(const wm_mesh *m, const double *cumulative, float out[3])
{
    uint32_t n = m->triangle_count, lo = 0, hi = n - 1;
    double pick = uniform() * cumulative[n - 1];
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (cumulative[mid] <= pick) lo = mid + 1;
        else hi = mid;
    }
    double r1 = sqrt(uniform()), r2 = uniform(), w[3] = {1 - r1, r1 * (1 - r2), r1 * r2};
    for (int k = 0; k < 3; k++)
        out[k] = (float)(w[0] * vtx(m, lo, 0)[k] + w[1] * vtx(m, lo, 1)[k] + w[2] * vtx(m, lo, 2)[k]);
}

typedef struct answer {
    int found;
    double plan;
} answer;

static answer route_answer(wm_ctx *ctx, const wm_walk_graph *g, const float s[3], const float t[3], float radius,
                           const cover *ground, const char *name, unsigned *multilevel)
{
    wm_route_options o = {1, 1, radius};
    wm_route route;
    if (wm_route_find(ctx, g, s, t, &o, &route))
        fail_msg("%s: (%.9g %.9g %.9g)-(%.9g %.9g %.9g): %s", name, s[0], s[1], s[2], t[0], t[1], t[2], ctx->message);
    answer a = {route.found, route.found ? route.plan_length : 0};
    if (route.found) {
        double spread;
        uint32_t face;
        /* where floors lie over each other the test's cover cannot tell which one a sample is on */
        int stacked = covered(ground, s[0], s[1], UINT32_MAX, 1e-4, &spread, &face) > 1 ||
                      covered(ground, t[0], t[1], UINT32_MAX, 1e-4, &spread, &face) > 1;
        unsigned misses = stacked ? 0 : off_ground(ground, &route);
        *multilevel += (unsigned)stacked;
        if (route.length > longest_over_ground(ground, route.plan_length))
            fail_msg("%s: (%.9g %.9g)-(%.9g %.9g): %g long over the ground, %g in plan", name, s[0], s[1], t[0], t[1],
                     route.length, route.plan_length);
        if (misses)
            fail_msg("%s: %u samples of the route (%.9g %.9g)-(%.9g %.9g) off walkable ground", name, misses, s[0],
                     s[1], t[0], t[1]);
    }
    wm_route_free(ctx, &route);
    return a;
}

static void same_answer(answer without, answer with, const char *name, const float s[3], const float t[3], float radius)
{
    if (without.found != with.found)
        fail_msg("%s: (%.9g %.9g)-(%.9g %.9g) radius %g: found %d without landmarks, %d with", name, s[0], s[1], t[0],
                 t[1], radius, without.found, with.found);
    if (fabs(without.plan - with.plan) > 1e-6 * (1 + without.plan))
        fail_msg("%s: (%.9g %.9g)-(%.9g %.9g) radius %g: %.9f m without landmarks, %.9f with", name, s[0], s[1],
                 t[0], t[1], radius, without.plan, with.plan);
}

static void check_file(const char *path, totals *sum)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    if (wm_mesh_load(&ctx, path, NULL, NULL, &m))
        fail_msg("%s: %s", path, ctx.message);
    uint32_t *klass = wmt_walkable_classes(&m, 0);
    cover ground;
    cover_build(&ground, &m, klass);
    double *cumulative = malloc(((size_t)m.triangle_count + 1) * sizeof *cumulative), area = 0;
    for (uint32_t t = 0; t < m.triangle_count; t++) {
        if (m.walkable[t]) {
            const float *a = vtx(&m, t, 0), *b = vtx(&m, t, 1), *c = vtx(&m, t, 2);
            area += fabs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2;
        }
        cumulative[t] = area;
    }
    if (area > 0) {
        wm_walk_graph *g;
        assert_int_equal(wm_walk_graph_build(&ctx, &m, 1, &g), WM_OK);
        float ends[PAIRS][2][3];
        answer plain[PAIRS][2];
        for (unsigned q = 0; q < PAIRS; q++) {
            random_point(&m, cumulative, ends[q][0]);
            random_point(&m, cumulative, ends[q][1]);
            for (int r = 0; r < 2; r++)
                plain[q][r] = route_answer(&ctx, g, ends[q][0], ends[q][1], r ? RADIUS : 0, &ground, path,
                                           &sum->multilevel);
        }
        if (wm_walk_graph_add_landmarks(&ctx, g, LANDMARKS))
            fail_msg("%s: landmarks: %s", path, ctx.message);
        for (unsigned q = 0; q < PAIRS; q++)
            for (int r = 0; r < 2; r++) {
                float radius = r ? RADIUS : 0;
                answer a = route_answer(&ctx, g, ends[q][0], ends[q][1], radius, &ground, path, &sum->multilevel);
                same_answer(plain[q][r], a, path, ends[q][0], ends[q][1], radius);
                sum->pairs += !r, sum->found += !r && a.found;
                sum->radius_pairs += r, sum->radius_found += r && a.found;
                sum->longest = fmax(sum->longest, a.plan);
            }
        wm_walk_graph_free(&ctx, g);
        sum->files++;
    }
    free(cumulative);
    cover_free(&ground);
    free(klass);
    wm_mesh_free(&ctx, &m);
}

static void test_same_routes_with_landmarks(void **state)
{
    (void)state;
    static const char *const wok[] = {".wok", NULL};
    static const char *const trx[] = {".trx", ".TRX", NULL};
    static const struct { const char *folder; const char *const *suffixes; } folders[] = {
        {"bwm", wok}, {"nwn2", trx}, {"nwn2-areas", trx}};
    totals sum = {0};
    for (size_t k = 0; k < sizeof folders / sizeof folders[0]; k++) {
        char **files;
        size_t count = wmt_corpus_list(folders[k].folder, folders[k].suffixes, &files);
        for (size_t i = 0; i < count; i++)
            check_file(files[i], &sum);
        wmt_free_list(files, count);
    }
    if (!sum.files)
        skip();
    printf("landmarks: %u files, %u pairs (%u routes) and %u with radius %g (%u routes) the same with %d "
           "landmarks as without; longest %.1f m; %u routes between stacked floors not sampled for ground\n",
           sum.files, sum.pairs, sum.found, sum.radius_pairs, RADIUS, sum.radius_found, LANDMARKS, sum.longest,
           sum.multilevel);
    assert_true(sum.found > 0);
}

/* On a straight strip of squares the test builds, the route is the segment with any count of
 * landmarks the API takes; it refuses more than 64 and no graph. */
static void test_landmark_counts(void **state)
{
    (void)state;
    enum { SQUARES = 40 };
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    wm_mesh_init(&m);
    for (uint32_t i = 0; i <= SQUARES; i++)
        for (uint32_t j = 0; j < 2; j++)
            assert_int_equal(wm_mesh_add_vertex(&ctx, &m, (float)i, (float)j, 0, NULL), WM_OK);
    for (uint32_t i = 0; i < SQUARES; i++) {
        uint32_t a = 2 * i, b = a + 1, c = a + 2, d = a + 3;
        assert_int_equal(wm_mesh_add_triangle(&ctx, &m, a, c, d, 0, 1), WM_OK);
        assert_int_equal(wm_mesh_add_triangle(&ctx, &m, a, d, b, 0, 1), WM_OK);
    }
    wm_walk_graph *g;
    assert_int_equal(wm_walk_graph_build(&ctx, &m, 0, &g), WM_OK);
    assert_int_equal(wm_walk_graph_add_landmarks(&ctx, g, 65), WM_ERR_INVALID);
    assert_non_null(strstr(ctx.message, "65"));
    float s[3] = {0.5f, 0.25f, 0}, t[3] = {39.5f, 0.75f, 0};
    wm_route_options o = {0, 0, 0};
    double straight = hypot(39.0, 0.5); /* the strip is straight: the route is the segment */
    for (uint32_t count = 0; count <= 64; count += 16) {
        assert_int_equal(wm_walk_graph_add_landmarks(&ctx, g, count), WM_OK);
        wm_route route;
        assert_int_equal(wm_route_find(&ctx, g, s, t, &o, &route), WM_OK);
        assert_true(route.found);
        assert_true(fabs(route.plan_length - straight) < 1e-5);
        wm_route_free(&ctx, &route);
    }
    assert_int_equal(wm_walk_graph_add_landmarks(&ctx, NULL, 4), WM_ERR_INVALID);
    wm_walk_graph_free(&ctx, g);
    wm_mesh_free(&ctx, &m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_landmark_counts),
        cmocka_unit_test(test_same_routes_with_landmarks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
