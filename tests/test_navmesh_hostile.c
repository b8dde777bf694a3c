/* Bad input to the navmesh builder and queries: NaN, one triangle, nothing walkable, a 10 km
 * scene, triangles without number over many tiles, bad parameters. Each is refused with a
 * message saying what is wrong, before anything sized by it is allocated, and the command
 * leaves no output behind. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void quad(wm_ctx *ctx, wm_mesh *m, float x0, float y0, float x1, float y1, float z)
{
    uint32_t base = m->vertex_count;
    assert_int_equal(wm_mesh_add_vertex(ctx, m, x0, y0, z, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(ctx, m, x1, y0, z, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(ctx, m, x1, y1, z, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(ctx, m, x0, y1, z, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(ctx, m, base, base + 1, base + 2, 4, 1), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(ctx, m, base, base + 2, base + 3, 4, 1), WM_OK);
}

/* A context, an empty mesh and RecastDemo's parameters. */
typedef struct scene {
    wm_ctx ctx;
    wm_mesh m;
    wm_navmesh_config c;
} scene;

static void scene_start(scene *s)
{
    wmt_ctx_init(&s->ctx);
    wm_mesh_init(&s->m);
    wm_navmesh_config_recast(&s->c);
}

static wm_result build(wm_ctx *ctx, const wm_mesh *m, const wm_navmesh_config *config)
{
    wm_navmesh n;
    wm_result r = wm_navmesh_build(ctx, m, config, &n);
    print_message("%s: %s\n", wm_result_name(r), r ? ctx->message : "built");
    wm_navmesh_free(ctx, &n);
    return r;
}

static void nan_vertex_is_named(void **state)
{
    (void)state;
    wmt_require_recast();
    scene s;
    scene_start(&s);
    quad(&s.ctx, &s.m, 0, 0, 10, 10, 0);
    s.m.positions[3 * 2 + 2] = NAN;
    assert_int_not_equal(build(&s.ctx, &s.m, &s.c), WM_OK);
    assert_non_null(strstr(s.ctx.message, "vertex 2"));
    wm_mesh_free(&s.ctx, &s.m);
}

static void one_triangle_builds_or_says_it_is_too_small(void **state)
{
    (void)state;
    wmt_require_recast();
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_navmesh_config c;
    wm_navmesh_config_recast(&c);
    wm_mesh big, tiny;
    wm_mesh_init(&big), wm_mesh_init(&tiny);
    uint32_t v;
    assert_int_equal(wm_mesh_add_vertex(&ctx, &big, 0, 0, 0, &v), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(&ctx, &big, 20, 0, 0, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(&ctx, &big, 0, 20, 0, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(&ctx, &big, 0, 1, 2, 4, 1), WM_OK);
    assert_int_equal(build(&ctx, &big, &c), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(&ctx, &tiny, 0, 0, 0, &v), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(&ctx, &tiny, 0.5f, 0, 0, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(&ctx, &tiny, 0, 0.5f, 0, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(&ctx, &tiny, 0, 1, 2, 4, 1), WM_OK);
    assert_int_equal(build(&ctx, &tiny, &c), WM_ERR_INVALID);
    assert_non_null(strstr(ctx.message, "filtered away"));
    wm_mesh_free(&ctx, &big), wm_mesh_free(&ctx, &tiny);
}

static void nothing_walkable_says_so(void **state)
{
    (void)state;
    wmt_require_recast();
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh wall;
    wm_mesh_init(&wall);
    for (int i = 0; i < 4; i++)
        assert_int_equal(wm_mesh_add_vertex(&ctx, &wall, (float)(i & 1) * 10, 0, (float)(i >> 1) * 10, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(&ctx, &wall, 0, 1, 3, 4, 1), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(&ctx, &wall, 0, 3, 2, 4, 1), WM_OK);
    wm_navmesh_config c;
    wm_navmesh_config_recast(&c);
    assert_int_equal(build(&ctx, &wall, &c), WM_ERR_INVALID);
    assert_non_null(strstr(ctx.message, "nothing walkable"));
    wm_mesh empty;
    wm_mesh_init(&empty);
    assert_int_equal(build(&ctx, &empty, &c), WM_ERR_INVALID);
    assert_non_null(strstr(ctx.message, "no triangles"));
    wm_mesh_free(&ctx, &wall);
}

/* 10 km at RecastDemo's 0.3 cells: 33,334 x 33,334 columns, over the limit; refused before
 * any grid is allocated (the test's allocator would see it: nothing over a megabyte). */
static size_t largest_request;

static void *watching_realloc(void *user, void *ptr, size_t size)
{
    (void)user;
    largest_request = size > largest_request ? size : largest_request;
    return realloc(ptr, size);
}

static void watching_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

static void ten_km_scene_is_refused_before_allocating(void **state)
{
    (void)state;
    wmt_require_recast();
    scene s;
    scene_start(&s);
    s.ctx.alloc.realloc_fn = watching_realloc, s.ctx.alloc.free_fn = watching_free;
    quad(&s.ctx, &s.m, -5000, -5000, 5000, 5000, 0);
    largest_request = 0;
    assert_int_equal(build(&s.ctx, &s.m, &s.c), WM_ERR_LIMIT);
    assert_non_null(strstr(s.ctx.message, "voxel columns"));
    assert_non_null(strstr(s.ctx.message, "--cell-size"));
    assert_true(largest_request < 1024 * 1024);
    /* and 10 km up from the lowest vertex to the highest */
    wm_mesh tall;
    wm_mesh_init(&tall);
    quad(&s.ctx, &tall, 0, 0, 10, 10, 0);
    quad(&s.ctx, &tall, 0, 0, 10, 10, 10000);
    assert_int_equal(build(&s.ctx, &tall, &s.c), WM_ERR_LIMIT);
    assert_non_null(strstr(s.ctx.message, "cell heights"));
    wm_mesh_free(&s.ctx, &tall);
    wm_mesh_free(&s.ctx, &s.m);
}

/* Many triangles each over every tile of a 2 km scene: the tile lists would hold billions of
 * entries; refused when they pass the limit, naming the triangle. */
static void triangles_over_too_many_tiles_are_refused(void **state)
{
    (void)state;
    wmt_require_recast();
    scene s;
    scene_start(&s);
    for (int i = 0; i < 2000; i++)
        quad(&s.ctx, &s.m, -1000, -1000, 1000, 1000, (float)i * 0.001f);
    s.c.tile_size = 8;
    assert_int_equal(build(&s.ctx, &s.m, &s.c), WM_ERR_LIMIT);
    assert_non_null(strstr(s.ctx.message, "overlap tiles"));
    wm_mesh_free(&s.ctx, &s.m);
}

static void bad_parameters_are_named(void **state)
{
    (void)state;
    wmt_require_recast();
    scene s;
    scene_start(&s);
    quad(&s.ctx, &s.m, 0, 0, 10, 10, 0);
    s.c.cell_size = NAN;
    assert_int_equal(build(&s.ctx, &s.m, &s.c), WM_ERR_INVALID);
    assert_non_null(strstr(s.ctx.message, "cell size"));
    wm_navmesh_config_recast(&s.c);
    s.c.walkable_slope = 95;
    assert_int_equal(build(&s.ctx, &s.m, &s.c), WM_ERR_INVALID);
    assert_non_null(strstr(s.ctx.message, "slopes"));
    wm_navmesh_config_recast(&s.c);
    s.c.max_verts_per_poly = 7;
    assert_int_equal(build(&s.ctx, &s.m, &s.c), WM_ERR_INVALID);
    assert_non_null(strstr(s.ctx.message, "vertices per polygon"));
    assert_int_equal(wm_navmesh_config_preset(&s.ctx, "mangos", &s.c), WM_ERR_OPTION);
    wm_mesh_free(&s.ctx, &s.m);
}

static void queries_refuse_points_out_of_range(void **state)
{
    (void)state;
    wmt_require_recast();
    scene s;
    scene_start(&s);
    quad(&s.ctx, &s.m, 0, 0, 10, 10, 0);
    wm_navmesh n;
    assert_int_equal(wm_navmesh_build(&s.ctx, &s.m, &s.c, &n), WM_OK);
    float inside[3] = {5, 5, 0}, far[3] = {5, 5, 3e19f}, nan[3] = {NAN, 5, 0}, away[3] = {500, 500, 0};
    float *points = NULL;
    uint32_t count = 0;
    int complete = 0;
    assert_int_equal(wm_navmesh_find_path(&s.ctx, &n, NULL, inside, far, &points, &count, &complete), WM_ERR_INVALID);
    assert_non_null(strstr(s.ctx.message, "end point"));
    assert_int_equal(wm_navmesh_find_path(&s.ctx, &n, NULL, nan, inside, &points, &count, &complete), WM_ERR_INVALID);
    assert_non_null(strstr(s.ctx.message, "start point"));
    assert_int_equal(wm_navmesh_find_path(&s.ctx, &n, NULL, inside, away, &points, &count, &complete), WM_ERR_INVALID);
    assert_non_null(strstr(s.ctx.message, "no polygon"));
    wm_navmesh_poly *polys = NULL;
    assert_int_equal(wm_navmesh_reachable(&s.ctx, &n, NULL, far, &polys, &count), WM_ERR_INVALID);
    assert_null(polys);
    wm_navmesh_free(&s.ctx, &n);
    wm_mesh_free(&s.ctx, &s.m);
}

/* The command: an input with nothing walkable leaves no output; an existing one is kept. */
static void command_writes_nothing_on_error(void **state)
{
    (void)state;
    wmt_require_recast();
    char *dir = wmt_make_temp_dir();
    char *wall = wmt_join(dir, "wall.obj"), *out = wmt_join(dir, "wall.navmesh");
    const char *text = "v 0 0 0\nv 10 0 0\nv 10 10 0\nv 0 10 0\nf 1 2 3\nf 1 3 4\n"; /* Y up: a wall */
    wmt_write_file(wall, text, strlen(text));
    char *err = NULL;
    const char *argv[] = {"navmesh", wall, out, NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, argv), 2);
    assert_non_null(strstr(err, "nothing walkable"));
    assert_false(wm_file_exists(out));
    free(err);
    wmt_write_file(out, "keep", 4);
    char *obj = wmt_sample_path("courtyard.obj");
    const char *again[] = {"navmesh", obj, out, NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, again), 3);
    size_t size = 0;
    uint8_t *kept = wmt_read_file(out, &size);
    assert_int_equal(size, 4);
    free(kept), free(err), free(obj);
    const char *usage[] = {"navmesh", wall, NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, usage), 1);
    free(err);
    wmt_remove_tree(dir);
    free(dir), free(wall), free(out);
}

/* navmesh, path and reach name the slope and the climb as generate does (--max-slope,
 * --max-climb); the former names give the same bytes. Both helps list the shared names. */
static void slope_and_climb_named_as_generate_names_them(void **state)
{
    (void)state;
    wmt_require_recast();
    char *dir = wmt_make_temp_dir(), *obj = wmt_sample_path("courtyard.obj");
    char *now = wmt_join(dir, "now.navmesh"), *before = wmt_join(dir, "before.navmesh");
    char *plain = wmt_join(dir, "plain.navmesh");
    const char *with_names[] = {"navmesh", obj, now, "--max-slope", "20", "--max-climb", "0.05", NULL};
    const char *with_former[] = {"navmesh", obj, before, "--slope", "20", "--agent-climb", "0.05", NULL};
    const char *without[] = {"navmesh", obj, plain, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, with_names), 0);
    assert_int_equal(wmt_run_cli(NULL, NULL, with_former), 0);
    assert_int_equal(wmt_run_cli(NULL, NULL, without), 0);
    size_t a, b, c;
    uint8_t *x = wmt_read_file(now, &a), *y = wmt_read_file(before, &b), *z = wmt_read_file(plain, &c);
    assert_true(a == b && memcmp(x, y, a) == 0);
    assert_false(a == c && memcmp(x, z, a) == 0); /* the values took effect */
    free(x), free(y), free(z);
    const char *const commands[] = {"navmesh", "generate", "path"};
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        char *out = NULL;
        const char *help[] = {commands[i], "--help", NULL};
        assert_int_equal(wmt_run_cli(&out, NULL, help), 0);
        if (!strstr(out, "--max-slope") || !strstr(out, "--max-climb") || !strstr(out, "--agent-height"))
            fail_msg("%s --help does not name --max-slope, --max-climb and --agent-height", commands[i]);
        free(out);
    }
    wmt_remove_tree(dir);
    free(dir), free(obj), free(now), free(before), free(plain);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nan_vertex_is_named),
        cmocka_unit_test(one_triangle_builds_or_says_it_is_too_small),
        cmocka_unit_test(nothing_walkable_says_so),
        cmocka_unit_test(ten_km_scene_is_refused_before_allocating),
        cmocka_unit_test(triangles_over_too_many_tiles_are_refused),
        cmocka_unit_test(bad_parameters_are_named),
        cmocka_unit_test(queries_refuse_points_out_of_range),
        cmocka_unit_test(command_writes_nothing_on_error),
        cmocka_unit_test(slope_and_climb_named_as_generate_names_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
