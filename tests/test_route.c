/* Routes over every corpus KotOR .wok and NWN2 .trx, checked by computations of the test's
 * own on the files' triangles (route_ground.h): pairs of points on one walkable region (by a
 * union-find of the test's) get a route; every 10 cm of it lies over a walkable face; its
 * length is no shorter than the straight line and, unless it crosses ground folded over
 * itself, no longer than a 16-neighbour Dijkstra over a 5 cm raster of the pair's region.
 * Pairs are drawn within 4 m of each other and redrawn when the route is longer than 8 m (a
 * raster of bounded size). Files with an edge of 3+ walkable faces (the test's regions are not
 * the walk graph's there) are held to the ground and the straight line only. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "route_ground.h"
#include "test_support.h"
#include "walkmesh.h"
#include "nwn2/nwn2.h"
#include "nwn2/nwn2_route.h"

#define PAIRS 100
#define TABLE_PAIRS 20   /* pairs a TRX whose tables' route is compared with the shortest */
#define TABLE_REACH 20.0 /* at most this far apart (m): the search stays short under ASan */

/* ------------------------------------------------------------------ pairs */

typedef struct file_state {
    wm_mesh mesh;
    uint32_t *klass;
    cover cover;
    wm_walk_graph *graph;
    double *cumulative; /* area of the walkable faces up to each face */
    uint8_t *folded;    /* the face and one across an edge of it lie on one side of that edge in plan */
    uint64_t rng;
} file_state;

typedef struct totals {
    unsigned files, pairs, unjoined, multilevel, redrawn, apart, stacked, over_folds;
    unsigned stacked_pairs, stacked_routes; /* on files with edges of 3+ walkable faces */
    double worst_ratio, ratio_sum; /* route / raster */
    unsigned tables_pairs, tables_longer, tables_unreached;
    double tables_percent_sum, tables_percent_max;
} totals;

static double uniform(file_state *f)
{
    f->rng = f->rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(f->rng >> 11) / 9007199254740992.0;
}

static uint32_t random_face(file_state *f)
{
    uint32_t n = f->mesh.triangle_count;
    double pick = uniform(f) * f->cumulative[n - 1];
    uint32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (f->cumulative[mid] <= pick) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void point_in_face(file_state *f, uint32_t t, float out[3])
{
    double r1 = sqrt(uniform(f)), r2 = uniform(f);
    double w[3] = {1 - r1, r1 * (1 - r2), r1 * r2};
    for (int k = 0; k < 3; k++)
        out[k] = (float)(w[0] * vtx(&f->mesh, t, 0)[k] + w[1] * vtx(&f->mesh, t, 1)[k] + w[2] * vtx(&f->mesh, t, 2)[k]);
}

/* A point of class klass within reach of s, or one in face s_face. */
static void nearby_point(file_state *f, uint32_t klass, uint32_t s_face, const float s[3], double reach, float out[3])
{
    for (int attempt = 0; attempt < 60; attempt++) {
        double angle = 6.283185307179586 * uniform(f), radius = reach * sqrt(uniform(f));
        double x = s[0] + radius * cos(angle), y = s[1] + radius * sin(angle);
        int gx = (int)floor(x - f->cover.lo[0]), gy = (int)floor(y - f->cover.lo[1]);
        if (gx < 0 || gy < 0 || (uint32_t)gx >= f->cover.w || (uint32_t)gy >= f->cover.h)
            continue;
        size_t cell = (size_t)gy * f->cover.w + (size_t)gx;
        for (uint32_t i = f->cover.start[cell]; i < f->cover.start[cell + 1]; i++) {
            double z;
            uint32_t t = f->cover.items[i];
            if (f->klass[t] == klass && inside(&f->mesh, t, x, y, 0, &z)) {
                out[0] = (float)x, out[1] = (float)y, out[2] = (float)z;
                return;
            }
        }
    }
    point_in_face(f, s_face, out);
}

static int route_over_folds(const file_state *f, const wm_route *route)
{
    for (uint32_t i = 0; i < route->face_count; i++)
        if (f->folded[route->faces[i]])
            return 1;
    return 0;
}

/* One pair: 1 when checked, 0 when it is to be drawn again. */
static int check_pair(file_state *f, totals *sum, const char *name)
{
    uint32_t s_face = random_face(f), klass = f->klass[s_face];
    float s[3], t[3];
    point_in_face(f, s_face, s);
    nearby_point(f, klass, s_face, s, 4.0, t);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_route route;
    wm_route_options o = {1, 1, 0};
    wm_result r = wm_route_find(&ctx, f->graph, s, t, &o, &route);
    if (r || !route.found)
        fail_msg("%s: no route from (%.9g %.9g %.9g) to (%.9g %.9g %.9g): %s", name, s[0], s[1], s[2], t[0], t[1], t[2],
                 r ? ctx.message : "not found");
    int checked = 0;
    if (route.plan_length <= 8.0) {
        double sp[2] = {s[0], s[1]}, tp[2] = {t[0], t[1]};
        int multilevel;
        double raster = raster_length(&f->cover, klass, sp, tp, route.plan_length + 0.3, &multilevel);
        sum->multilevel += multilevel;
        if (!multilevel) {
            unsigned misses = off_ground(&f->cover, &route);
            if (misses) {
                for (uint32_t i = 0; i < route.count; i++)
                    print_message("  %.9g %.9g %.9g\n", route.points[3 * i], route.points[3 * i + 1],
                                  route.points[3 * i + 2]);
                fail_msg("%s: %u samples of the route (%.9g %.9g %.9g)-(%.9g %.9g %.9g) off walkable ground", name,
                         misses, s[0], s[1], s[2], t[0], t[1], t[2]);
            }
            if (route.length < straight3(s, t) - 1e-4)
                fail_msg("%s: route (%.9g %.9g %.9g)-(%.9g %.9g %.9g) is %g long over the ground, shorter than the "
                         "straight line's %g", name, s[0], s[1], s[2], t[0], t[1], t[2], route.length, straight3(s, t));
            assert_true(route.plan_length >= hypot((double)t[0] - s[0], (double)t[1] - s[1]) - 1e-4);
            int over_folds = route_over_folds(f, &route);
            sum->over_folds += over_folds;
            if (isinf(raster))
                sum->unjoined++;
            else if (route.plan_length > raster + 0.02 && !over_folds) {
                for (uint32_t i = 0; i < route.count; i++)
                    print_message("  %.9g %.9g %.9g\n", route.points[3 * i], route.points[3 * i + 1], route.points[3 * i + 2]);
                fail_msg("%s: route (%g %g)-(%g %g) is %g long, the raster's %g", name, s[0], s[1], t[0], t[1],
                         route.plan_length, raster);
            } else if (raster > 0.2) {
                double ratio = route.plan_length / raster;
                sum->worst_ratio = fmax(sum->worst_ratio, ratio);
                sum->ratio_sum += ratio;
            }
            sum->pairs++;
            checked = 1;
        }
    }
    sum->redrawn += !checked;
    wm_route_free(&ctx, &route);
    return checked;
}

/* On a file with edges of 3+ walkable faces the test's regions are not the walk graph's (which
 * joins two faces an edge): a pair gets no verdict on whether a route must exist, but a route
 * found lies over walkable ground and is no shorter than the straight line. */
static void check_stacked_pair(file_state *f, totals *sum, const char *name)
{
    uint32_t s_face = random_face(f);
    float s[3], t[3];
    point_in_face(f, s_face, s);
    nearby_point(f, f->klass[s_face], s_face, s, 4.0, t);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_route route;
    wm_route_options o = {1, 1, 0};
    if (wm_route_find(&ctx, f->graph, s, t, &o, &route))
        fail_msg("%s: route from (%.9g %.9g %.9g) to (%.9g %.9g %.9g): %s", name, s[0], s[1], s[2], t[0], t[1], t[2],
                 ctx.message);
    if (route.found) {
        unsigned misses = off_ground(&f->cover, &route);
        if (misses)
            fail_msg("%s: %u samples of the route (%.9g %.9g %.9g)-(%.9g %.9g %.9g) off walkable ground", name, misses,
                     s[0], s[1], s[2], t[0], t[1], t[2]);
        if (route.length < straight3(s, t) - 1e-4)
            fail_msg("%s: route (%.9g %.9g %.9g)-(%.9g %.9g %.9g) is %g long over the ground, shorter than the "
                     "straight line's %g", name, s[0], s[1], s[2], t[0], t[1], t[2], route.length, straight3(s, t));
        sum->stacked_routes++;
    }
    sum->stacked_pairs++;
    wm_route_free(&ctx, &route);
}

/* Points on faces of two different classes: no route. */
static void check_apart(file_state *f, totals *sum, const char *name)
{
    for (int k = 0; k < 5; k++) {
        uint32_t a = random_face(f), b = random_face(f);
        if (f->klass[a] == f->klass[b])
            continue;
        float s[3], t[3];
        point_in_face(f, a, s);
        point_in_face(f, b, t);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        wm_route route;
        wm_route_options o = {1, 1, 0};
        assert_int_equal(wm_route_find(&ctx, f->graph, s, t, &o, &route), WM_OK);
        /* where faces of two regions overlap at one height, the point lies on either */
        int joined = f->klass[route.start_face] == f->klass[route.goal_face];
        if (route.found != joined)
            fail_msg("%s: (%g %g %g) on face %u (located on %u) to (%g %g %g) on face %u (%u): route %d, same region %d",
                     name, s[0], s[1], s[2], a, route.start_face, t[0], t[1], t[2], b, route.goal_face, route.found,
                     joined);
        wm_route_free(&ctx, &route);
        sum->apart++;
    }
}

/* The tables' route (start, each triangle's centre, goal) against the shortest, in plan. */
static void compare_tables(file_state *f, const uint8_t *data, size_t size, const char *name, totals *sum)
{
    wm_ctx parse_ctx;
    wmt_ctx_init(&parse_ctx);
    nwn2_file file;
    nwn2_file_init(&file);
    uint32_t *tile_of = NULL;
    if (nwn2_file_parse_shared(&parse_ctx, data, size, name, &file) || file.aswm_packet < 0 ||
        nwn2_tile_of_triangles(&parse_ctx, &file.aswm, &tile_of))
        fail_msg("%s: %s", name, parse_ctx.message);
    for (int k = 0; k < TABLE_PAIRS; k++) {
        uint32_t a = random_face(f);
        float s[3], t[3];
        point_in_face(f, a, s);
        nearby_point(f, f->klass[a], a, s, TABLE_REACH, t);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        wm_route route;
        wm_route_options o = {1, 1, 0};
        wm_nwn2_route tables;
        if (wm_route_find(&ctx, f->graph, s, t, &o, &route) || !route.found ||
            nwn2_route_on(&ctx, &file.aswm, tile_of, s, t, &tables)) {
            wm_route_free(&ctx, &route);
            continue;
        }
        sum->tables_pairs++;
        if (!tables.reached) {
            sum->tables_unreached++;
        } else {
            double length = 0;
            const float *prev = s;
            for (uint32_t i = 0; i < tables.count; i++) {
                length += hypot(tables.points[3 * i] - prev[0], tables.points[3 * i + 1] - prev[1]);
                prev = tables.points + 3 * i;
            }
            length += hypot(t[0] - prev[0], t[1] - prev[1]);
            double percent = route.plan_length > 0 ? 100 * (length / route.plan_length - 1) : 0;
            sum->tables_longer += percent > 1;
            sum->tables_percent_sum += percent;
            sum->tables_percent_max = fmax(sum->tables_percent_max, percent);
        }
        wm_nwn2_route_free(&ctx, &tables);
        wm_route_free(&ctx, &route);
    }
    wm_free(&parse_ctx, tile_of);
    nwn2_file_free(&parse_ctx, &file);
}

/* The pairs drawn depend on the file's name, not on where the corpus sits. */
static uint64_t seed_of(const char *path)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    if (getenv("ROUTE_SEED"))
        seed ^= strtoull(getenv("ROUTE_SEED"), NULL, 10) * 0xBF58476D1CE4E5B9ull;
    for (; *name; name++)
        seed = (seed ^ (unsigned char)*name) * 0x100000001B3ull;
    return seed;
}

static void check_file(const char *path, totals *sum)
{
    file_state f;
    memset(&f, 0, sizeof f);
    f.rng = seed_of(path);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (wm_mesh_load(&ctx, path, NULL, NULL, &f.mesh))
        fail_msg("%s: %s", path, ctx.message);
    f.klass = wmt_walkable_classes(&f.mesh, 0);
    int stacked = f.klass[f.mesh.triangle_count] != 0;
    sum->stacked += stacked;
    cover_build(&f.cover, &f.mesh, f.klass);
    f.folded = find_folds(&f.mesh);
    assert_int_equal(wm_walk_graph_build(&ctx, &f.mesh, 1, &f.graph), WM_OK);
    f.cumulative = malloc(((size_t)f.mesh.triangle_count + 1) * sizeof *f.cumulative);
    double area = 0;
    for (uint32_t t = 0; t < f.mesh.triangle_count; t++) {
        if (f.mesh.walkable[t]) { /* in plan: a point is drawn on the ground as seen from above */
            const float *a = vtx(&f.mesh, t, 0), *b = vtx(&f.mesh, t, 1), *c = vtx(&f.mesh, t, 2);
            area += fabs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2;
        }
        f.cumulative[t] = area;
    }
    if (area > 0 && stacked) {
        for (unsigned k = 0; k < PAIRS; k++)
            check_stacked_pair(&f, sum, path);
    } else if (area > 0) {
        unsigned checked = 0;
        for (unsigned draws = 0; checked < PAIRS && draws < 20 * PAIRS; draws++)
            checked += (unsigned)check_pair(&f, sum, path);
        assert_true(checked >= PAIRS / 2);
        check_apart(&f, sum, path);
        size_t n = strlen(path);
        if (n > 4 && (strcmp(path + n - 4, ".trx") == 0 || strcmp(path + n - 4, ".TRX") == 0)) {
            size_t size;
            uint8_t *data = wmt_read_file(path, &size);
            compare_tables(&f, data, size, path, sum);
            free(data);
        }
        sum->files++;
    }
    wm_walk_graph_free(&ctx, f.graph);
    cover_free(&f.cover);
    free(f.cumulative);
    free(f.folded);
    free(f.klass);
    wm_mesh_free(&ctx, &f.mesh);
}

static void run_folder(const char *folder, const char *const *suffixes, totals *sum)
{
    char **files;
    size_t count = wmt_corpus_list(folder, suffixes, &files);
    for (size_t i = 0; i < count; i++) {
        clock_t begun = clock();
        check_file(files[i], sum);
        if (getenv("ROUTE_TIMES"))
            fprintf(stderr, "%.2f s %s\n", (double)(clock() - begun) / CLOCKS_PER_SEC, files[i]);
    }
    wmt_free_list(files, count);
}

static void test_routes_over_the_corpus(void **state)
{
    (void)state;
    totals sum = {0};
    static const char *const wok[] = {".wok", NULL};
    static const char *const trx[] = {".trx", ".TRX", NULL};
    run_folder("bwm", wok, &sum);
    unsigned wok_files = sum.files;
    run_folder("nwn2", trx, &sum);
    run_folder("nwn2-areas", trx, &sum);
    printf("routes: %u files (%u .wok), %u pairs checked against the raster (%u the raster does not join, "
           "%u over ground folded on itself: no upper bound), route/raster mean %.4f worst %.4f; %u redrawn (route "
           "over 8 m, or floors over each other: %u); %u pairs on different regions: no route; %u files with an "
           "edge of 3+ walkable faces: %u pairs, %u routes found, each over the ground\n",
           sum.files, wok_files, sum.pairs, sum.unjoined, sum.over_folds,
           sum.ratio_sum / (sum.pairs - sum.unjoined + 1e-9), sum.worst_ratio, sum.redrawn, sum.multilevel, sum.apart,
           sum.stacked, sum.stacked_pairs, sum.stacked_routes);
    printf("NWN2 tables: %u pairs, %u not completed by the tables, %u over 1%% longer than the shortest; "
           "mean %.2f%% longer, at most %.2f%%\n",
           sum.tables_pairs, sum.tables_unreached, sum.tables_longer,
           sum.tables_percent_sum / (sum.tables_pairs - sum.tables_unreached + 1e-9), sum.tables_percent_max);
    assert_true(sum.pairs > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_routes_over_the_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
