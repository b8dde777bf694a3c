/* Route and reach queries (issue 30), after loading:
 *   bench_route FILE [QUERIES] [LANDMARKS]
 * reads FILE, joins its walkable faces (wm_walk_graph_build), then times QUERIES (10,000)
 * routes between random points on walkable ground (uniform in plan, both ends anywhere), and
 * beside them, in the same run, two floors on the same pairs: locating both ends (what any
 * query costs) and a Dijkstra over the face graph from face centre to face centre (the
 * classic search a navmesh starts from, not exact). Then times wm_reach_find from a random
 * point and the graph's build. Prints per-query mean, median, 99th percentile and maximum. With
 * LANDMARKS (16; 0: none) the same pairs again after wm_walk_graph_add_landmarks: the time to
 * prepare them, the routes (their lengths must not change), and the Detour ratio is taken of them.
 * Last, the Detour column: a navmesh of the same ground (RecastDemo's preset, the file's own
 * walkable flags kept) and Detour's findPath + findStraightPath (wm_navmesh_find_path) on the
 * same pairs, with the ratio of the route's mean to it. */
#include "bench_support.h"
#include "walkmesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static double uniform(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static const float *vtx(const wm_mesh *m, uint32_t t, int k)
{
    return m->positions + 3 * (size_t)m->indices[3 * (size_t)t + k];
}

/* A random point on walkable ground, uniform in plan. */
static void random_point(const wm_mesh *m, const double *cumulative, float out[3])
{
    double pick = uniform() * cumulative[m->triangle_count - 1];
    uint32_t lo = 0, hi = m->triangle_count - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (cumulative[mid] <= pick) lo = mid + 1;
        else hi = mid;
    }
    double r1 = sqrt(uniform()), r2 = uniform(), w[3] = {1 - r1, r1 * (1 - r2), r1 * r2};
    for (int k = 0; k < 3; k++)
        out[k] = (float)(w[0] * vtx(m, lo, 0)[k] + w[1] * vtx(m, lo, 1)[k] + w[2] * vtx(m, lo, 2)[k]);
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static void report(const char *what, double *times, int n)
{
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += times[i];
    qsort(times, (size_t)n, sizeof *times, by_value);
    printf("%-28s mean %8.1f us  median %8.1f us  p99 %8.1f us  max %8.1f us\n", what, 1e6 * sum / n,
           1e6 * times[n / 2], 1e6 * times[(int)(0.99 * (n - 1))], 1e6 * times[n - 1]);
}

static void centre(const wm_mesh *m, uint32_t t, double out[2])
{
    out[0] = (vtx(m, t, 0)[0] + vtx(m, t, 1)[0] + vtx(m, t, 2)[0]) / 3.0;
    out[1] = (vtx(m, t, 0)[1] + vtx(m, t, 1)[1] + vtx(m, t, 2)[1]) / 3.0;
}

/* Dijkstra over faces, centre to centre, with a plain binary heap (the floor's search). */
static double face_dijkstra(const wm_mesh *m, const wm_walk_graph *g, uint32_t from, uint32_t to, double *dist,
                            uint32_t *heap, uint8_t *done)
{
    uint32_t n = m->triangle_count, count = 0;
    for (uint32_t t = 0; t < n; t++)
        dist[t] = INFINITY, done[t] = 0;
    dist[from] = 0;
    heap[count++] = from;
    while (count) {
        uint32_t best = 0;
        for (uint32_t i = 1; i < count && i < 64; i++) /* a small window: the floor stays cheap */
            if (dist[heap[i]] < dist[heap[best]]) best = i;
        uint32_t t = heap[best];
        heap[best] = heap[--count];
        if (done[t]) continue;
        done[t] = 1;
        if (t == to) return dist[t];
        double c[2];
        centre(m, t, c);
        for (uint32_t e = 0; e < 3; e++) {
            int32_t nb = wm_walk_graph_neighbour(g, t, e);
            if (nb < 0 || done[nb / 3]) continue;
            double d[2];
            centre(m, (uint32_t)nb / 3, d);
            double nd = dist[t] + hypot(d[0] - c[0], d[1] - c[1]);
            if (nd < dist[nb / 3] && count < 3 * n) {
                dist[nb / 3] = nd;
                heap[count++] = (uint32_t)nb / 3;
            }
        }
    }
    return INFINITY;
}

/* Detour on a navmesh of the same ground, the same pairs; returns its mean (0 without Recast). */
static double detour_column(wm_ctx *ctx, const wm_mesh *m, float (*ends)[2][3], int queries, double *times)
{
    wm_navmesh_config config;
    wm_navmesh_config_recast(&config);
    config.use_walkable_flags = 1;
    wm_navmesh n;
    double begun = bench_now();
    if (wm_navmesh_build(ctx, m, &config, &n)) {
        printf("Detour column: %s\n", ctx->message);
        return 0;
    }
    printf("navmesh of the same ground: %u polygons in %u tiles, built in %.0f ms\n", n.poly_count, n.tile_count,
           1e3 * (bench_now() - begun));
    int complete_count = 0, none = 0;
    double sum = 0;
    for (int q = 0; q < queries; q++) {
        float *points = NULL;
        uint32_t count = 0;
        int complete = 0;
        double t0 = bench_now();
        wm_result r = wm_navmesh_find_path(ctx, &n, NULL, ends[q][0], ends[q][1], &points, &count, &complete);
        times[q] = bench_now() - t0;
        sum += times[q];
        complete_count += !r && complete;
        none += r != WM_OK;
        wm_free(ctx, points);
    }
    printf("Detour: %d routes reach the goal, %d pairs with an end off the navmesh\n", complete_count, none);
    report("Detour findPath+straight", times, queries);
    wm_navmesh_free(ctx, &n);
    return sum / queries;
}

/* The same pairs again after wm_walk_graph_add_landmarks: the routes' lengths must not change.
 * Returns the mean. */
static double landmark_column(wm_ctx *ctx, wm_walk_graph *g, float (*ends)[2][3], int queries, uint32_t landmarks,
                              const double *plans, double *times)
{
    double begun = bench_now();
    if (wm_walk_graph_add_landmarks(ctx, g, landmarks)) {
        printf("landmarks: %s\n", ctx->message);
        return 0;
    }
    printf("%u landmarks prepared in %.0f ms\n", landmarks, 1e3 * (bench_now() - begun));
    int differ = 0;
    double sum = 0, worst = 0;
    for (int q = 0; q < queries; q++) {
        wm_route_options o = {1, 1, 0};
        wm_route r;
        double t0 = bench_now();
        wm_route_find(ctx, g, ends[q][0], ends[q][1], &o, &r);
        times[q] = bench_now() - t0;
        sum += times[q];
        double plan = r.found ? r.plan_length : -1, gap = fabs(plan - plans[q]);
        differ += gap > 1e-4 * (1 + fabs(plans[q]));
        worst = gap > worst ? gap : worst;
        wm_route_free(ctx, &r);
    }
    printf("with landmarks: %d of %d routes differ in plan length by more than 1e-4 (largest %.6f)\n", differ,
           queries, worst);
    report("route with landmarks", times, queries);
    return sum / queries;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_route FILE [QUERIES] [LANDMARKS]\n");
        return 1;
    }
    int queries = argc > 2 ? atoi(argv[2]) : 10000, landmarks = argc > 3 ? atoi(argv[3]) : 16;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_mesh m;
    if (wm_mesh_load(&ctx, argv[1], NULL, NULL, &m)) {
        fprintf(stderr, "%s\n", ctx.message);
        return 2;
    }
    double begun = bench_now();
    wm_walk_graph *g;
    if (wm_walk_graph_build(&ctx, &m, 1, &g)) {
        fprintf(stderr, "%s\n", ctx.message);
        return 2;
    }
    double build = bench_now() - begun;
    double *cumulative = malloc(m.triangle_count * sizeof *cumulative), area = 0;
    for (uint32_t t = 0; t < m.triangle_count; t++) {
        const float *a = vtx(&m, t, 0), *b = vtx(&m, t, 1), *c = vtx(&m, t, 2);
        if (m.walkable[t])
            area += fabs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
        cumulative[t] = area;
    }
    float (*ends)[2][3] = malloc((size_t)queries * sizeof *ends);
    for (int q = 0; q < queries; q++)
        random_point(&m, cumulative, ends[q][0]), random_point(&m, cumulative, ends[q][1]);
    double *route_t = malloc((size_t)queries * sizeof(double)), *locate_t = malloc((size_t)queries * sizeof(double));
    double *face_t = malloc((size_t)queries * sizeof(double)), *dist = malloc(m.triangle_count * sizeof *dist);
    uint32_t *heap = malloc(3 * (size_t)m.triangle_count * sizeof *heap);
    uint8_t *done = malloc(m.triangle_count);
    double *plans = malloc((size_t)queries * sizeof *plans);
    int found = 0;
    double plan = 0;
    for (int q = 0; q < queries; q++) {
        wm_route_options o = {1, 1, 0};
        wm_route r;
        double t0 = bench_now();
        wm_route_find(&ctx, g, ends[q][0], ends[q][1], &o, &r);
        double t1 = bench_now();
        uint32_t fa, fb;
        wm_walk_locate(&ctx, g, ends[q][0], 1, &fa, NULL);
        wm_walk_locate(&ctx, g, ends[q][1], 1, &fb, NULL);
        double t2 = bench_now();
        if (fa != WM_NO_REGION && fb != WM_NO_REGION && wm_walk_graph_region(g, fa) == wm_walk_graph_region(g, fb))
            face_dijkstra(&m, g, fa, fb, dist, heap, done);
        double t3 = bench_now();
        route_t[q] = t1 - t0, locate_t[q] = t2 - t1, face_t[q] = t3 - t2 + (t2 - t1);
        found += r.found;
        plan += r.found ? r.plan_length : 0;
        plans[q] = r.found ? r.plan_length : -1;
        wm_route_free(&ctx, &r);
    }
    printf("%s: %u faces, %u walkable regions; graph built in %.2f ms\n", argv[1], m.triangle_count,
           wm_walk_graph_region_count(g), 1e3 * build);
    printf("%d queries, %d routes found (mean plan length %.1f)\n", queries, found, found ? plan / found : 0);
    report("route (wm_route_find)", route_t, queries);
    report("floor: locate both ends", locate_t, queries);
    report("floor: face-centre Dijkstra", face_t, queries);
    double reach_t[16];
    for (int k = 0; k < 16; k++) {
        float at[3];
        random_point(&m, cumulative, at);
        wm_reach reach;
        double t0 = bench_now();
        wm_reach_find(&ctx, g, at, 1, &reach);
        reach_t[k] = bench_now() - t0;
        wm_reach_free(&ctx, &reach);
    }
    report("reach (wm_reach_find)", reach_t, 16);
    double route_mean = 0;
    for (int q = 0; q < queries; q++)
        route_mean += route_t[q] / queries; /* sorted by report, the sum is the same */
    if (landmarks > 0)
        route_mean = landmark_column(&ctx, g, ends, queries, (uint32_t)landmarks, plans, route_t);
    double detour_mean = detour_column(&ctx, &m, ends, queries, locate_t);
    if (detour_mean > 0)
        printf("route / Detour (means): %.2f\n", route_mean / detour_mean);
    free(route_t), free(locate_t), free(face_t), free(dist), free(heap), free(done), free(ends), free(cumulative), free(plans);
    wm_walk_graph_free(&ctx, g);
    wm_mesh_free(&ctx, &m);
    return 0;
}
