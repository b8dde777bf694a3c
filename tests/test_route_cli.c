/* walkmesh path, reach and render --path through the CLI, and bad input with bounded answers:
 * exit codes (6 no route / no ground, 1 bad numbers, 4 a collision mesh), the JSON shapes, a
 * route across the room links of the assembled m10aa rooms, a radius wider than every
 * corridor, 10,000 islands, a layout whose links form a cycle, --tables on a TRX, and the
 * route render draws equal to the one path prints. Points are centres of faces computed here. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const float *vtx(const wm_mesh *m, uint32_t t, int k)
{
    return m->positions + 3 * (size_t)m->indices[3 * (size_t)t + k];
}

/* "x,y,z" of the centre of the n-th walkable face seen from above (of object `object`, or any: -1). */
static int centre_text(const wm_mesh *m, int object, uint32_t n, char *out, size_t size)
{
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        const float *a = vtx(m, t, 0), *b = vtx(m, t, 1), *c = vtx(m, t, 2);
        double plan = ((double)b[0] - a[0]) * ((double)c[1] - a[1]) - ((double)b[1] - a[1]) * ((double)c[0] - a[0]);
        if (!m->walkable[t] || fabs(plan) < 1e-3 || (object >= 0 && m->objects[t] != (uint16_t)object) || n--)
            continue;
        snprintf(out, size, "%.6f,%.6f,%.6f", (a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0,
                 (a[2] + b[2] + c[2]) / 3.0);
        return 1;
    }
    return 0;
}

static int run(char **out, char **err, const char *const *argv)
{
    *out = *err = NULL;
    return wmt_run_cli(out, err, argv);
}

static void test_exit_codes_and_json(void **state)
{
    (void)state;
    char *wok = wmt_corpus_path_or_skip("bwm/pykotor-generated_kit-blackvulkar-m10aa_03a.wok");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    assert_int_equal(wm_mesh_load(&ctx, wok, NULL, NULL, &m), WM_OK);
    char a[96], b[96], *out, *err;
    assert_true(centre_text(&m, -1, 0, a, sizeof a) && centre_text(&m, -1, 5, b, sizeof b));
    const char *ok[] = {"path", wok, a, b, "--json", NULL};
    assert_int_equal(run(&out, &err, ok), 0);
    assert_non_null(strstr(out, "{\"length\": "));
    assert_non_null(strstr(out, "\"points\": [["));
    free(out), free(err);
    const char *outside[] = {"path", wok, "-5000,-5000", b, NULL};
    assert_int_equal(run(&out, &err, outside), 6);
    assert_non_null(strstr(err, "over no walkable face"));
    free(out), free(err);
    const char *nan[] = {"path", wok, "nan,1", b, NULL};
    assert_int_equal(run(&out, &err, nan), 1);
    free(out), free(err);
    const char *wide[] = {"path", wok, a, b, "--radius", "1000", NULL}; /* no corridor is 2 km wide */
    int code = run(&out, &err, wide);
    assert_true(code == 6 || code == 0);
    if (code == 0) /* both points on one face: the route needs no portal */
        assert_non_null(strstr(out, "over 2 waypoints"));
    free(out), free(err);
    const char *reach[] = {"reach", wok, a, "--json", NULL};
    assert_int_equal(run(&out, &err, reach), 0);
    assert_non_null(strstr(out, "{\"regions\": "));
    assert_non_null(strstr(out, "\"unreachable\": ["));
    free(out), free(err);
    char *obj = wmt_sample_path("courtyard.obj");
    /* a collision mesh goes through a navmesh built on the fly (test_path_navmesh.c checks the
     * routes); on open flat ground between two points the route is the straight segment */
    const char *collision[] = {"path", obj, "1,1", "2,2", "--json", NULL};
#ifdef WALKMESH_HAVE_RECAST
    assert_int_equal(run(&out, &err, collision), 0);
    assert_non_null(strstr(out, "\"length\": 1.414"));
#else
    assert_int_equal(run(&out, &err, collision), 4);
    assert_non_null(strstr(err, "ecast"));
#endif
    free(out), free(err), free(obj);
    wm_mesh_free(&ctx, &m);
    free(wok);
}

/* The four corpus m10aa rooms at the layout indices their links name (as test_cli_area). */
static char *area_folder(void)
{
    static const char *const rooms[] = {"m10aa_01c", "m10aa_03a", "m10aa_05a", "m10aa_08b"};
    char *from_paths[4];
    for (int i = 0; i < 4; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "bwm/pykotor-generated_kit-blackvulkar-%s.wok", rooms[i]);
        from_paths[i] = wmt_corpus_path(rel);
    }
    wmt_require_all(from_paths, 4); /* skips, freeing what it found, before anything is made */
    char *dir = wmt_make_temp_dir();
    for (int i = 0; i < 4; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s.wok", rooms[i]);
        char *from = from_paths[i], *to = wmt_join(dir, name);
        size_t size;
        uint8_t *data = wmt_read_file(from, &size);
        wmt_write_file(to, data, size);
        free(data), free(from), free(to);
    }
    static const char layout[] = "beginlayout\nroomcount 8\nother0 0 0 0\nother1 0 0 0\nm10aa_08b 0 0 0\n"
                                 "m10aa_05a 0 0 0\nother4 0 0 0\nother5 0 0 0\nm10aa_01c 0 0 0\n"
                                 "m10aa_03a 0 0 0\ndonelayout\n";
    char *lyt = wmt_join(dir, "m10aa.lyt");
    wmt_write_file(lyt, layout, sizeof layout - 1);
    free(lyt);
    return dir;
}

/* A route from room 03a to room 05a crosses faces of 03a, 01c and 05a: their links joined it. Room
 * 08b's one link names room 1, which none of the corpus rooms is: no route reaches it. */
static void test_area_route_crosses_room_links(void **state)
{
    (void)state;
    char *dir = area_folder(), *lyt = wmt_join(dir, "m10aa.lyt");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh area;
    assert_int_equal(wm_mesh_load(&ctx, lyt, NULL, NULL, &area), WM_OK);
    wm_walk_graph *g;
    assert_int_equal(wm_walk_graph_build(&ctx, &area, 1, &g), WM_OK);
    int32_t r03 = wm_mesh_find_object(&area, "m10aa_03a"), r05 = wm_mesh_find_object(&area, "m10aa_05a");
    int32_t r08 = wm_mesh_find_object(&area, "m10aa_08b");
    char a[96], b[96], c[96];
    assert_true(centre_text(&area, r03, 0, a, sizeof a) && centre_text(&area, r05, 3, b, sizeof b) &&
                centre_text(&area, r08, 0, c, sizeof c));
    float p[3][3];
    sscanf(a, "%f,%f,%f", &p[0][0], &p[0][1], &p[0][2]);
    sscanf(b, "%f,%f,%f", &p[1][0], &p[1][1], &p[1][2]);
    sscanf(c, "%f,%f,%f", &p[2][0], &p[2][1], &p[2][2]);
    wm_route route;
    wm_route_options o = {1, 1, 0};
    assert_int_equal(wm_route_find(&ctx, g, p[0], p[1], &o, &route), WM_OK);
    assert_true(route.found);
    int rooms_crossed[8] = {0};
    for (uint32_t i = 0; i < route.face_count; i++)
        rooms_crossed[area.objects[route.faces[i]] & 7] = 1;
    assert_true(rooms_crossed[r03] && rooms_crossed[r05]);
    print_message("m10aa: 03a -> 05a %.2f long over %u faces; rooms crossed:%s%s%s\n", route.length,
                  route.face_count, rooms_crossed[r03] ? " 03a" : "", rooms_crossed[wm_mesh_find_object(&area,
                  "m10aa_01c")] ? " 01c" : "", rooms_crossed[r05] ? " 05a" : "");
    wm_route_free(&ctx, &route);
    assert_int_equal(wm_route_find(&ctx, g, p[0], p[2], &o, &route), WM_OK);
    assert_false(route.found);
    const char *cli[] = {"path", lyt, a, c, NULL};
    char *out, *err;
    assert_int_equal(run(&out, &err, cli), 6);
    free(out), free(err);
    wm_walk_graph_free(&ctx, g);
    wm_mesh_free(&ctx, &area);
    /* links that form a cycle: every room names the next, the last the first */
    static const char cycle[] = "beginlayout\nroomcount 4\nm10aa_03a 0 0 0\nm10aa_01c 0 0 0\nm10aa_05a 0 0 0\n"
                                "m10aa_08b 0 0 0\ndonelayout\n";
    wmt_write_file(lyt, cycle, sizeof cycle - 1);
    const char *again[] = {"reach", lyt, a, NULL};
    int code = run(&out, &err, again);
    assert_true(code == 0);
    free(out), free(err);
    wmt_remove_tree(dir);
    free(dir), free(lyt);
}

/* 10,000 unit squares apart from each other: 10,000 regions, answered without a search. */
static void test_ten_thousand_islands(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    wm_mesh_init(&m);
    for (uint32_t i = 0; i < 10000; i++) {
        float x = (float)(i % 100) * 2, y = (float)(i / 100) * 2;
        uint32_t v;
        assert_int_equal(wm_mesh_add_vertex(&ctx, &m, x, y, 0, &v), WM_OK);
        wm_mesh_add_vertex(&ctx, &m, x + 1, y, 0, NULL);
        wm_mesh_add_vertex(&ctx, &m, x + 1, y + 1, 0, NULL);
        wm_mesh_add_vertex(&ctx, &m, x, y + 1, 0, NULL);
        assert_int_equal(wm_mesh_add_triangle(&ctx, &m, v, v + 1, v + 2, 4, 1), WM_OK);
        assert_int_equal(wm_mesh_add_triangle(&ctx, &m, v, v + 2, v + 3, 4, 1), WM_OK);
    }
    wm_walk_graph *g;
    assert_int_equal(wm_walk_graph_build(&ctx, &m, 1, &g), WM_OK);
    assert_int_equal(wm_walk_graph_region_count(g), 10000);
    float from[3] = {0.5f, 0.5f, 0}, to[3] = {198.5f, 198.5f, 0}, near[3] = {0.9f, 0.2f, 0};
    wm_route route;
    assert_int_equal(wm_route_find(&ctx, g, from, to, NULL, &route), WM_OK);
    assert_false(route.found);
    assert_int_equal(wm_route_find(&ctx, g, from, near, NULL, &route), WM_OK);
    assert_true(route.found);
    assert_true(fabs(route.plan_length - hypot(0.4, 0.3)) < 1e-5);
    wm_route_free(&ctx, &route);
    wm_reach reach;
    assert_int_equal(wm_reach_find(&ctx, g, from, 0, &reach), WM_OK);
    assert_int_equal(reach.unreachable_count, 9999);
    wm_reach_free(&ctx, &reach);
    float bad[3] = {NAN, 0, 0};
    assert_int_equal(wm_route_find(&ctx, g, bad, to, NULL, &route), WM_ERR_INVALID);
    wm_route_options negative = {0, 0, -1};
    assert_int_equal(wm_route_find(&ctx, g, from, near, &negative, &route), WM_ERR_INVALID);
    wm_walk_graph_free(&ctx, g);
    wm_mesh_free(&ctx, &m);
}

/* --tables on a TRX says how the tables' route compares; render --path draws path's route. */
static void test_tables_and_render(void **state)
{
    (void)state;
    char *trx = wmt_corpus_path_or_skip("nwn2/enter_world.trx");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    assert_int_equal(wm_mesh_load(&ctx, trx, NULL, NULL, &m), WM_OK);
    char a[96], b[96], *out, *err;
    assert_true(centre_text(&m, -1, 0, a, sizeof a) && centre_text(&m, -1, 40, b, sizeof b));
    const char *tables[] = {"path", trx, a, b, "--tables", NULL};
    int code = run(&out, &err, tables);
    assert_true(code == 0 || code == 6);
    if (code == 0)
        assert_non_null(strstr(out, "the tables' route: "));
    free(out), free(err);
    char *dir = wmt_make_temp_dir(), *svg = wmt_join(dir, "route.svg");
    char *wok = wmt_corpus_path_or_skip("bwm/pykotor-generated_kit-blackvulkar-m10aa_03a.wok");
    wm_mesh w;
    assert_int_equal(wm_mesh_load(&ctx, wok, NULL, NULL, &w), WM_OK);
    assert_true(centre_text(&w, -1, 0, a, sizeof a) && centre_text(&w, -1, 30, b, sizeof b));
    const char *path[] = {"path", wok, a, b, NULL};
    assert_int_equal(run(&out, &err, path), 0);
    double length = strtod(out + strlen("length "), NULL);
    free(out), free(err);
    const char *render[] = {"render", wok, "-o", svg, "--path", a, b, NULL};
    assert_int_equal(run(&out, &err, render), 0);
    free(out), free(err);
    size_t size;
    char *text = (char *)wmt_read_file(svg, &size);
    char *at = strstr(text, "shortest route length ");
    assert_non_null(at);
    assert_true(fabs(strtod(at + strlen("shortest route length "), NULL) - length) < 1e-3 * (length + 1));
    free(text);
    wmt_remove_tree(dir);
    free(dir), free(svg), free(wok), free(trx);
    wm_mesh_free(&ctx, &w);
    wm_mesh_free(&ctx, &m);
}

/* validate: a 1 m walkable square boxed in by blocking walls, beside a 10 m floor, is named. */
static void test_validate_names_boxed_in_ground(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    wm_mesh_init(&m);
    static const float v[][3] = {{0, 0, 0}, {10, 0, 0}, {10, 10, 0}, {0, 10, 0},             /* the floor */
                                 {20, 20, 0}, {21, 20, 0}, {21, 21, 0}, {20, 21, 0},         /* the patch */
                                 {20, 20, 2}, {21, 20, 2}, {21, 21, 2}, {20, 21, 2}};        /* its walls' tops */
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        wm_mesh_add_vertex(&ctx, &m, v[i][0], v[i][1], v[i][2], NULL);
    wm_mesh_add_triangle(&ctx, &m, 0, 1, 2, 4, 1);
    wm_mesh_add_triangle(&ctx, &m, 0, 2, 3, 4, 1);
    wm_mesh_add_triangle(&ctx, &m, 4, 5, 6, 4, 1);
    wm_mesh_add_triangle(&ctx, &m, 4, 6, 7, 4, 1);
    for (uint32_t k = 0; k < 4; k++) { /* a wall on each side of the patch */
        uint32_t a = 4 + k, b = 4 + (k + 1) % 4;
        wm_mesh_add_triangle(&ctx, &m, a, b, b + 4, 7, 0);
        wm_mesh_add_triangle(&ctx, &m, a, b + 4, a + 4, 7, 0);
    }
    char *dir = wmt_make_temp_dir(), *wok = wmt_join(dir, "boxed.wok"), *out, *err;
    assert_int_equal(wm_mesh_save(&ctx, &m, wok, NULL, NULL, 0), WM_OK);
    const char *validate[] = {"validate", wok, NULL};
    assert_int_equal(run(&out, &err, validate), 0);
    assert_non_null(strstr(out, "enclosed by blocking faces"));
    assert_non_null(strstr(out, "around (20.6667, 20.3333, 0)"));
    free(out), free(err);
    wmt_remove_tree(dir);
    free(dir), free(wok);
    wm_mesh_free(&ctx, &m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_codes_and_json),
        cmocka_unit_test(test_area_route_crosses_room_links),
        cmocka_unit_test(test_ten_thousand_islands),
        cmocka_unit_test(test_tables_and_render),
        cmocka_unit_test(test_validate_names_boxed_in_ground),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
