/* wm_generate's simplification on render floors made of many small triangles, whose true surface
 * this file evaluates itself: the generated faces keep within half of --max-error of it, and a
 * plane comes out as few faces as its outline needs. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SPAN 20.0
#define CELLS 40 /* 0.5 units a cell */

typedef double (*surface_fn)(double x, double y);

static double rolling(double x, double y)
{
    return 0.25 * sin(x / 2) + 0.2 * cos(y / 3); /* at most 0.19 rise a unit: about 11 degrees */
}

static double tilted(double x, double y)
{
    (void)y;
    return 1.0 + 0.1 * x;
}

/* The surface sampled at the grid's corners, two triangles a cell (split along the rising
 * diagonal), counter-clockwise from above. */
static void add_grid(wm_ctx *ctx, wm_mesh *m, surface_fn height)
{
    wm_mesh_init(m);
    double step = SPAN / CELLS;
    for (int j = 0; j <= CELLS; j++)
        for (int i = 0; i <= CELLS; i++)
            assert_int_equal(wm_mesh_add_vertex(ctx, m, (float)(i * step), (float)(j * step),
                                                (float)height(i * step, j * step), NULL),
                             WM_OK);
    for (int j = 0; j < CELLS; j++)
        for (int i = 0; i < CELLS; i++) {
            uint32_t a = (uint32_t)(j * (CELLS + 1) + i), b = a + 1, c = a + CELLS + 2, d = a + CELLS + 1;
            assert_int_equal(wm_mesh_add_triangle(ctx, m, a, b, c, 0, 1), WM_OK);
            assert_int_equal(wm_mesh_add_triangle(ctx, m, a, c, d, 0, 1), WM_OK);
        }
}

/* The render grid's height at (x, y): the plane of the grid triangle (x, y) lies in. */
static double grid_height(surface_fn height, double x, double y)
{
    double step = SPAN / CELLS;
    int i = (int)floor(x / step), j = (int)floor(y / step);
    i = i < 0 ? 0 : i >= CELLS ? CELLS - 1 : i, j = j < 0 ? 0 : j >= CELLS ? CELLS - 1 : j;
    double u = x / step - i, v = y / step - j;
    double h00 = height(i * step, j * step), h10 = height((i + 1) * step, j * step),
           h01 = height(i * step, (j + 1) * step), h11 = height((i + 1) * step, (j + 1) * step);
    if (u >= v) /* below the rising diagonal: (0,0) (1,0) (1,1) */
        return h00 + u * (h10 - h00) + v * (h11 - h10);
    return h00 + u * (h11 - h01) + v * (h01 - h00); /* (0,0) (1,1) (0,1) */
}

typedef struct deviation {
    size_t samples, within;
    double worst;
} deviation;

/* Every generated face on a 5 cm grid against the render grid's height. */
static deviation measure(const wm_mesh *out, surface_fn height, double tolerance)
{
    deviation d = {0, 0, 0};
    for (uint32_t t = 0; t < out->triangle_count; t++) {
        const float *p[3];
        for (int k = 0; k < 3; k++)
            p[k] = out->positions + 3 * (size_t)out->indices[3 * (size_t)t + k];
        double det = (double)(p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (double)(p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
        if (fabs(det) < 1e-9)
            continue;
        double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < 2; a++)
                lo[a] = fmin(lo[a], p[k][a]), hi[a] = fmax(hi[a], p[k][a]);
        for (double y = floor(lo[1] / 0.05) * 0.05 + 0.025; y <= hi[1]; y += 0.05)
            for (double x = floor(lo[0] / 0.05) * 0.05 + 0.025; x <= hi[0]; x += 0.05) {
                double u = ((x - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (y - p[0][1])) / det;
                double v = ((p[1][0] - p[0][0]) * (y - p[0][1]) - (x - p[0][0]) * (p[1][1] - p[0][1])) / det;
                if (u < 0 || v < 0 || u + v > 1)
                    continue;
                double z = p[0][2] + u * (p[1][2] - p[0][2]) + v * (p[2][2] - p[0][2]);
                double off = fabs(z - grid_height(height, x, y));
                d.samples++;
                d.within += off <= tolerance;
                d.worst = fmax(d.worst, off);
            }
    }
    return d;
}

typedef struct grid_result {
    wm_ctx ctx;
    wm_generate_config config;
    wm_mesh out;
    deviation d; /* within half of --max-error, plus 1 mm of float rounding */
} grid_result;

static void generate_grid(surface_fn height, grid_result *r)
{
    wmt_ctx_init(&r->ctx);
    wm_mesh render;
    add_grid(&r->ctx, &render, height);
    assert_int_equal(wm_generate_config_game(&r->ctx, "kotor", &r->config), WM_OK);
    assert_int_equal(wm_generate(&r->ctx, &render, &r->config, &r->out, NULL), WM_OK);
    wm_mesh_free(&r->ctx, &render);
    r->d = measure(&r->out, height, r->config.max_error / 2 + 1e-3);
    print_message("%u faces; %zu samples, %.2f %% within %.3f, worst %.4f\n", r->out.triangle_count, r->d.samples,
                  100.0 * r->d.within / r->d.samples, r->config.max_error / 2, r->d.worst);
}

/* Rolling ground in 3,200 triangles: the walkmesh keeps within half of --max-error of it at 99 %
 * of the 5 cm samples (Recast's detail mesh alone: 99.3 %) and within --max-error at all of them,
 * in far fewer faces than the render grid. */
static void rolling_ground_within_half_the_error(void **state)
{
    (void)state;
    grid_result r;
    generate_grid(rolling, &r);
    assert_true(r.d.samples > 0.95 * SPAN * SPAN / (0.05 * 0.05));
    assert_true(r.d.within >= 0.99 * r.d.samples);
    assert_true(r.d.worst <= r.config.max_error);
    assert_true(r.out.triangle_count < 2 * CELLS * CELLS / 4);
    wm_mesh_free(&r.ctx, &r.out);
}

/* A tilted plane in 3,200 triangles: a square needs 2 faces; the outline's corners (Recast's,
 * within --max-error of the square's) may add a few. */
static void tilted_plane_in_few_faces(void **state)
{
    (void)state;
    grid_result r;
    generate_grid(tilted, &r);
    assert_true(r.d.within == r.d.samples);
    assert_true(r.out.triangle_count <= 8);
    wm_mesh_free(&r.ctx, &r.out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rolling_ground_within_half_the_error),
        cmocka_unit_test(tilted_plane_in_few_faces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
