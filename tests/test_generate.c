/* wm_generate on scenes whose answer is known by construction (areas and heights computed here),
 * and on bad input: a clear error, nothing written. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A quad (two triangles, counter-clockwise from above when up) over [x0,x1] x [y0,y1], its
 * height z0 + slope_x * x. */
static void add_quad(wm_ctx *ctx, wm_mesh *m, float x0, float y0, float x1, float y1, float z0, float slope_x)
{
    uint32_t a, b, c, d;
    assert_int_equal(wm_mesh_add_vertex(ctx, m, x0, y0, z0 + slope_x * x0, &a), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(ctx, m, x1, y0, z0 + slope_x * x1, &b), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(ctx, m, x1, y1, z0 + slope_x * x1, &c), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(ctx, m, x0, y1, z0 + slope_x * x0, &d), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(ctx, m, a, b, c, 0, 1), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(ctx, m, a, c, d, 0, 1), WM_OK);
}

static double plan_area(const wm_mesh *m)
{
    double area = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        const float *a = m->positions + 3 * (size_t)m->indices[3 * t], *b = m->positions + 3 * (size_t)m->indices[3 * t + 1],
                    *c = m->positions + 3 * (size_t)m->indices[3 * t + 2];
        area += 0.5 * fabs((double)(b[0] - a[0]) * (c[1] - a[1]) - (double)(c[0] - a[0]) * (b[1] - a[1]));
    }
    return area;
}

static wm_generate_config kotor(wm_ctx *ctx)
{
    wm_generate_config c;
    assert_int_equal(wm_generate_config_game(ctx, "kotor", &c), WM_OK);
    return c;
}

/* A 12 x 8 floor sloping 0.1 up per unit of x: the walkable area is the floor's (within the
 * outline's simplification), every corner lies on the floor's plane, not on the voxel tops. */
static void sloped_floor_heights_on_the_render_floor(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh floor, out;
    wm_mesh_init(&floor);
    add_quad(&ctx, &floor, 0, 0, 12, 8, 2.0f, 0.1f);
    wm_generate_config c = kotor(&ctx);
    wm_generate_stats stats;
    assert_int_equal(wm_generate(&ctx, &floor, &c, &out, &stats), WM_OK);
    double area = plan_area(&out);
    assert_true(fabs(area - 96.0) < 96.0 * 0.03);
    assert_true(fabs(stats.walkable_area - area) < 1e-3 * area);
    for (uint32_t v = 0; v < out.vertex_count; v++) {
        const float *p = out.positions + 3 * (size_t)v;
        assert_true(fabsf(p[2] - (2.0f + 0.1f * p[0])) < 0.01f);
    }
    for (uint32_t t = 0; t < out.triangle_count; t++) {
        float n[3];
        wm_mesh_triangle_normal(&out, t, n);
        assert_true(n[2] > 0.99f); /* up, as the floor */
        assert_true(out.walkable[t]);
    }
    wm_mesh_free(&ctx, &out);
    wm_mesh_free(&ctx, &floor);
}

/* A ceiling 1 unit above 4 of the floor's 10 units: the KotOR agent (1.8) does not fit under it;
 * the roof (40 square units) is a piece of its own, smaller than the open floor (60). */
static void low_ceiling_blocks(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh scene, out;
    wm_mesh_init(&scene);
    add_quad(&ctx, &scene, 0, 0, 10, 10, 0, 0);
    add_quad(&ctx, &scene, 6, 0, 10, 10, 1.0f, 0); /* facing up too: a roof over the floor */
    wm_generate_config c = kotor(&ctx);
    c.keep_fraction = 0.9f; /* the open floor only */
    assert_int_equal(wm_generate(&ctx, &scene, &c, &out, NULL), WM_OK);
    double area = plan_area(&out);
    assert_true(area > 60 * 0.95 && area < 60 * 1.05);
    for (uint32_t v = 0; v < out.vertex_count; v++)
        assert_true(out.positions[3 * (size_t)v] < 6.2f && fabsf(out.positions[3 * (size_t)v + 2]) < 0.01f);
    wm_mesh_free(&ctx, &out);
    wm_mesh_free(&ctx, &scene);
}

static void expect_error(wm_mesh *scene, wm_result expected, const char *words)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_generate_config c = kotor(&ctx);
    wm_mesh out;
    wm_mesh_init(&out);
    assert_int_equal(wm_generate(&ctx, scene, &c, &out, NULL), expected);
    if (!strstr(ctx.message, words))
        fail_msg("expected \"%s\" in: %s", words, ctx.message);
    assert_int_equal(out.triangle_count, 0);
    wm_mesh_free(&ctx, scene);
}

static void bad_scenes_are_refused_by_name(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    wm_mesh_init(&m);
    expect_error(&m, WM_ERR_INVALID, "no triangles");
    wm_mesh_init(&m);
    add_quad(&ctx, &m, 0, 0, 4, 4, 0, 0);
    m.positions[4] = NAN;
    expect_error(&m, WM_ERR_CORRUPT, "vertex 1");
    wm_mesh_init(&m); /* walls only */
    uint32_t a, b, c;
    wm_mesh_add_vertex(&ctx, &m, 0, 0, 0, &a), wm_mesh_add_vertex(&ctx, &m, 4, 0, 0, &b);
    wm_mesh_add_vertex(&ctx, &m, 4, 0, 3, &c);
    wm_mesh_add_triangle(&ctx, &m, a, b, c, 0, 1);
    expect_error(&m, WM_ERR_INVALID, "nothing walkable");
    wm_mesh_init(&m); /* one triangle, smaller than --min-area */
    wm_mesh_add_vertex(&ctx, &m, 0, 0, 0, &a), wm_mesh_add_vertex(&ctx, &m, 0.5f, 0, 0, &b);
    wm_mesh_add_vertex(&ctx, &m, 0, 0.5f, 0, &c);
    wm_mesh_add_triangle(&ctx, &m, a, b, c, 0, 1);
    expect_error(&m, WM_ERR_INVALID, "filtered away");
    wm_mesh_init(&m); /* inside out: the floor faces down */
    add_quad(&ctx, &m, 0, 0, 6, 6, 0, 0);
    for (uint32_t t = 0; t < m.triangle_count; t++) {
        uint32_t keep = m.indices[3 * t + 1];
        m.indices[3 * t + 1] = m.indices[3 * t + 2], m.indices[3 * t + 2] = keep;
    }
    expect_error(&m, WM_ERR_INVALID, "nothing walkable");
    wm_mesh_init(&m); /* 10 km: the voxel grid's limit, before anything it sizes is allocated */
    add_quad(&ctx, &m, 0, 0, 10000, 10000, 0, 0);
    expect_error(&m, WM_ERR_LIMIT, "voxel columns");
}

/* The CLI: an input without anything walkable leaves no OUT behind (status 2). */
static void cli_writes_nothing_on_error(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir(), *in = wmt_join(dir, "wall.obj"), *out = wmt_join(dir, "wall.wok");
    const char wall[] = "v 0 0 0\nv 4 0 0\nv 4 3 0\nf 1 2 3\n"; /* Y up: a wall */
    wmt_write_file(in, wall, sizeof wall - 1);
    const char *argv[] = {"generate", in, out, NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, argv), 2);
    assert_non_null(strstr(err, "nothing walkable"));
    assert_int_not_equal(access(out, F_OK), 0);
    free(err);
    const char *help[] = {"generate", "--help", NULL};
    char *text = NULL;
    assert_int_equal(wmt_run_cli(&text, NULL, help), 0);
    assert_non_null(strstr(text, "--max-slope"));
    free(text);
    wmt_remove_tree(dir);
    free(in), free(out), free(dir);
}

/* Non-manifold, self-intersecting, duplicated and open input is a triangle soup to the voxels:
 * a fin standing on the edge two floor quads share (three faces on one edge), a tilted quad
 * crossing a flat one, the flat one twice. The walkable area and the top heights are known here;
 * the .wok written from it through the CLI validates. */
static void tangled_scene(wm_ctx *ctx, wm_mesh *m)
{
    uint32_t v[6];
    const float floor[6][2] = {{0, 0}, {4, 0}, {8, 0}, {0, 8}, {4, 8}, {8, 8}};
    for (int i = 0; i < 6; i++)
        assert_int_equal(wm_mesh_add_vertex(ctx, m, floor[i][0], floor[i][1], 0, &v[i]), WM_OK);
    const uint32_t tris[4][3] = {{0, 1, 4}, {0, 4, 3}, {1, 2, 5}, {1, 5, 4}};
    for (int t = 0; t < 4; t++)
        assert_int_equal(wm_mesh_add_triangle(ctx, m, v[tris[t][0]], v[tris[t][1]], v[tris[t][2]], 0, 1), WM_OK);
    uint32_t top[2];
    assert_int_equal(wm_mesh_add_vertex(ctx, m, 4, 0, 3, &top[0]), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(ctx, m, 4, 8, 3, &top[1]), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(ctx, m, v[1], v[4], top[1], 0, 0), WM_OK); /* the fin */
    assert_int_equal(wm_mesh_add_triangle(ctx, m, v[1], top[1], top[0], 0, 0), WM_OK);
    add_quad(ctx, m, 10, 0, 18, 8, 0, 0);
    add_quad(ctx, m, 10, 0, 18, 8, 0, 0);
    add_quad(ctx, m, 10, 0, 18, 8, -0.2f - 0.05f * 10, 0.05f); /* crosses the flat one at x = 14 */
}

static void write_scene_obj(const wm_mesh *m, const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (uint32_t i = 0; i < m->vertex_count; i++) /* OBJ is Y up: (x, z, -y) */
        fprintf(f, "v %g %g %g\n", m->positions[3 * i], m->positions[3 * i + 2], -m->positions[3 * i + 1]);
    for (uint32_t t = 0; t < m->triangle_count; t++)
        fprintf(f, "f %u %u %u\n", m->indices[3 * t] + 1, m->indices[3 * t + 1] + 1, m->indices[3 * t + 2] + 1);
    fclose(f);
}

static void tangled_input_still_walks(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh scene, out;
    wm_mesh_init(&scene);
    tangled_scene(&ctx, &scene);
    wm_generate_config c = kotor(&ctx);
    assert_int_equal(wm_generate(&ctx, &scene, &c, &out, NULL), WM_OK);
    double area = plan_area(&out), expected = 2 * 64 - 0.1 * 8; /* the fin takes a row of cells */
    if (fabs(area - expected) > 0.05 * expected)
        fail_msg("walkable area %.2f, expected %.2f within 5 %%", area, expected);
    for (uint32_t i = 0; i < out.vertex_count; i++) {
        const float *p = out.positions + 3 * (size_t)i;
        double floor_z = p[0] < 9 ? 0 : fmax(0, -0.2 + 0.05 * (p[0] - 10));
        if (fabs(p[2] - floor_z) > 0.05)
            fail_msg("corner (%g, %g, %g) is not on the top floor (%g)", p[0], p[1], p[2], floor_z);
    }
    wm_mesh_free(&ctx, &out);
    char *dir = wmt_make_temp_dir(), *in = wmt_join(dir, "tangled.obj"), *wok = wmt_join(dir, "tangled.wok");
    write_scene_obj(&scene, in);
    const char *generate[] = {"generate", in, wok, "-q", NULL}, *validate[] = {"validate", wok, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, generate), 0);
    assert_int_equal(wmt_run_cli(NULL, NULL, validate), 0);
    wmt_remove_tree(dir);
    free(in), free(wok), free(dir);
    wm_mesh_free(&ctx, &scene);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sloped_floor_heights_on_the_render_floor),
        cmocka_unit_test(low_ceiling_blocks),
        cmocka_unit_test(bad_scenes_are_refused_by_name),
        cmocka_unit_test(cli_writes_nothing_on_error),
        cmocka_unit_test(tangled_input_still_walks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
