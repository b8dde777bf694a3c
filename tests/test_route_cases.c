/* Routes between points of real files where the search once went wrong, each checked as the
 * corpus sweep (test_route.c) checks its pairs, by the test's own view of the ground
 * (route_ground.h): the route is found, every 10 cm of it lies over walkable ground, it is no
 * shorter than the straight line (over the ground, in 3-D) and, unless it crosses ground folded
 * over itself, no longer than the 5 cm raster's way plus 2 cm. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>

#include <cmocka.h>

#include "route_ground.h"
#include "test_support.h"
#include "walkmesh.h"

typedef struct route_case {
    const char *file; /* under the corpus */
    float from[3], to[3];
    int has_z;        /* the points' heights pick the floor; else the highest floor */
    float radius;
} route_case;

/* The shape each case has, found by the corpus sweep:
 * a face folded back over a hole's edge: a straight line through it left the ground;
 * two vertices 1 mm apart in height whose faces on edge closed a fan the plan pinches;
 * a corner at the end of a face seen edge-on, where the route did not turn;
 * a route of 90 m around a wall, past the old bound on the search;
 * a step up a face on edge, whose climb the length left out;
 * two folded slivers in a row, where the raster goes straight and the faces turn back;
 * a route of 213 m across the largest corpus TRX, past the bound of 128 windows a face;
 * slivers and micrometre faces wound both ways round one vertex, a ring in plan the search went
 * round for ever; with a radius there, the length over the ground walked back and forth (1,267 m
 * for a route of 43 m in plan). */
static const route_case CASES[] = {
    {"nwn2/dm_generic_tavern1.trx", {16.2338562f, 12.4920788f, 0}, {15.545392f, 14.9946928f, 0}, 1, 0},
    {"bwm/k1cp-m12aa_01f.wok", {52.1106f, 47.8582f, 0}, {51.8681f, 44.0487f, 0}, 0, 0},
    {"nwn2-areas/cormanthyr_-_corruptedcaves2.trx", {34.6422f, 69.7663f, 0}, {31.9083f, 67.3689f, 0}, 0, 0},
    {"nwn2-areas/hv_oldskull_inn3.trx", {19.2396507f, 47.5804138f, 0}, {16.2087154f, 46.7134781f, 0}, 1, 0},
    {"nwn2-areas/temple_of_chauntea.trx", {78.521347f, 80.1878204f, 0}, {78.3522873f, 81.6919785f, 0.45f}, 1, 0},
    {"nwn2-areas/upper_dark_tunnels.trx", {69.7642f, 74.9332f, -3.4932f}, {67.8479f, 76.223f, -1.7648f}, 1, 0},
    {"nwn2-areas/dm_dungeon.trx", {180.951874f, 6.87771988f, 0}, {70.5828629f, 15.7569427f, 0}, 1, 0},
    {"bwm/pykotor-root-out.wok", {39.1295166f, 6.19008684f, 0.026487112f}, {19.2751961f, -28.9881668f, 0.026487112f}, 1, 0},
    {"bwm/pykotor-root-out.wok", {39.1295166f, 6.19008684f, 0.026487112f}, {19.2751961f, -28.9881668f, 0.026487112f}, 1,
     0.25f},
};

static int route_over(const uint8_t *flags, const wm_route *route)
{
    for (uint32_t i = 0; i < route->face_count; i++)
        if (flags[route->faces[i]])
            return 1;
    return 0;
}

static void check_case(void **state)
{
    const route_case *c = *state;
    char *path = wmt_corpus_path_or_skip(c->file);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh mesh;
    if (wm_mesh_load(&ctx, path, NULL, NULL, &mesh))
        fail_msg("%s: %s", path, ctx.message);
    uint32_t *klass = wmt_walkable_classes(&mesh, 0);
    cover ground;
    cover_build(&ground, &mesh, klass);
    uint8_t *folded = find_folds(&mesh);
    wm_walk_graph *graph;
    assert_int_equal(wm_walk_graph_build(&ctx, &mesh, 1, &graph), WM_OK);
    wm_route route;
    wm_route_options o = {c->has_z, c->has_z, c->radius};
    if (wm_route_find(&ctx, graph, c->from, c->to, &o, &route) || !route.found)
        fail_msg("%s: no route: %s", path, ctx.message);
    const float *s = route.points, *t = route.points + 3 * (size_t)(route.count - 1);
    unsigned misses = off_ground(&ground, &route);
    if (misses)
        fail_msg("%s: %u samples of the route off walkable ground", path, misses);
    if (route.length < straight3(s, t) - 1e-4)
        fail_msg("%s: %g long over the ground, the straight line %g", path, route.length, straight3(s, t));
    assert_true(route.plan_length >= hypot((double)t[0] - s[0], (double)t[1] - s[1]) - 1e-4);
    if (route.length > longest_over_ground(&ground, route.plan_length))
        fail_msg("%s: %g long over the ground, %g in plan", path, route.length, route.plan_length);
    if (route.plan_length <= 8.0) {
        double sp[2] = {s[0], s[1]}, tp[2] = {t[0], t[1]};
        int multilevel;
        double raster = raster_length(&ground, klass[route.start_face], sp, tp, route.plan_length + 0.3, &multilevel);
        if (!route_over(folded, &route) && route.plan_length > raster + 0.02)
            fail_msg("%s: %g long in plan, the raster's %g", path, route.plan_length, raster);
        print_message("%s: %.4f m in plan, raster %.4f, over folds %d\n", c->file, route.plan_length, raster,
                      route_over(folded, &route));
    } else {
        print_message("%s: %.4f m in plan over %u waypoints\n", c->file, route.plan_length, route.count);
    }
    wm_route_free(&ctx, &route);
    wm_walk_graph_free(&ctx, graph);
    free(folded);
    cover_free(&ground);
    free(klass);
    wm_mesh_free(&ctx, &mesh);
    free(path);
}

int main(void)
{
    struct CMUnitTest tests[sizeof CASES / sizeof CASES[0]];
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        tests[i] = (struct CMUnitTest){.name = CASES[i].file, .test_func = check_case,
                                       .initial_state = (void *)&CASES[i]};
    return _cmocka_run_group_tests("route_cases", tests, sizeof tests / sizeof tests[0], NULL, NULL);
}
