/* Navmeshes of every corpus WMO (issue 30): built through Recast, written as .navmesh, read
 * back and loaded by Detour (the real library, through the walkmesh-recast module), which
 * answers findPath between random points on them. Every polygon vertex must lie within
 * 0.5 yd above a walkable collision triangle: checked here against the WMO's own triangles
 * with a slope test and a point-in-triangle test of the test's own. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ABOVE_AT_MOST 0.5
#define BELOW_AT_MOST 0.05 /* a float's rounding of a vertex on the surface */

typedef struct corpus_counts {
    unsigned files, built, nothing_walkable, vertices, vertices_above, paths, complete, polygons;
} corpus_counts;

static int load_collision(wm_ctx *ctx, const char *path, const char *rule, wm_mesh *mesh)
{
    wm_options opts;
    wm_options_init(&opts);
    assert_int_equal(wm_option_set(ctx, &opts, "collision-rule", rule), WM_OK);
    return wm_mesh_load(ctx, path, "wmo", &opts, mesh);
}

/* Height of triangle t's plane at (x, y), when (x, y) is inside it seen from above, or about
 * `slack` off it: a polygon corner sits on Recast's grid of cells, the floor under it may end
 * up to a cell short of it. */
static double slack = 0;

static int height_over(const wm_mesh *m, uint32_t t, double x, double y, double *z)
{
    const float *p[3];
    for (int k = 0; k < 3; k++)
        p[k] = m->positions + 3 * (size_t)m->indices[3 * (size_t)t + k];
    double ux = p[1][0] - p[0][0], uy = p[1][1] - p[0][1], vx = p[2][0] - p[0][0], vy = p[2][1] - p[0][1];
    double det = ux * vy - uy * vx;
    if (fabs(det) < 1e-12)
        return 0;
    double wx = x - p[0][0], wy = y - p[0][1];
    double b1 = (wx * vy - wy * vx) / det, b2 = (ux * wy - uy * wx) / det, b0 = 1 - b1 - b2;
    double lengths = sqrt(ux * ux + uy * uy) + sqrt(vx * vx + vy * vy);
    double tolerance = slack / (lengths > 0 ? lengths : 1);
    if (b0 < -tolerance || b1 < -tolerance || b2 < -tolerance)
        return 0;
    *z = b0 * p[0][2] + b1 * p[1][2] + b2 * p[2][2];
    return 1;
}

static int walkable_by_slope(const wm_mesh *m, uint32_t t, double limit_degrees)
{
    const float *a = m->positions + 3 * (size_t)m->indices[3 * t], *b = m->positions + 3 * (size_t)m->indices[3 * t + 1],
                *c = m->positions + 3 * (size_t)m->indices[3 * t + 2];
    double e[2][3] = {{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, {c[0] - a[0], c[1] - a[1], c[2] - a[2]}};
    double n[3] = {e[0][1] * e[1][2] - e[0][2] * e[1][1], e[0][2] * e[1][0] - e[0][0] * e[1][2],
                   e[0][0] * e[1][1] - e[0][1] * e[1][0]};
    double length = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    return length > 0 && n[2] / length > cos(limit_degrees * 3.14159265358979323846 / 180.0);
}

/* How close vertex p is above a triangle of the source, walkable ones only or any. */
static int within_above(const wm_mesh *source, const float *p, double limit_degrees, int walkable_only)
{
    for (uint32_t t = 0; t < source->triangle_count; t++) {
        double z;
        if ((!walkable_only || walkable_by_slope(source, t, limit_degrees)) && height_over(source, t, p[0], p[1], &z) &&
            p[2] - z >= -BELOW_AT_MOST && p[2] - z <= ABOVE_AT_MOST)
            return 1;
    }
    return 0;
}

/* How many of the navmesh's vertices lie 0 to 0.5 above a walkable triangle of the source;
 * every one must lie so above some collision triangle. */
static unsigned vertices_above_walkable(const wm_mesh *source, const wm_mesh *nav, double limit_degrees)
{
    unsigned good = 0;
    for (uint32_t v = 0; v < nav->vertex_count; v++) {
        const float *p = nav->positions + 3 * (size_t)v;
        int walkable = within_above(source, p, limit_degrees, 1);
        if (!walkable)
            print_message("  vertex (%g, %g, %g) lies within %g above a collision triangle steeper than %g degrees "
                          "only\n",
                          (double)p[0], (double)p[1], (double)p[2], ABOVE_AT_MOST, limit_degrees);
        assert_true(walkable || within_above(source, p, limit_degrees, 0));
        good += (unsigned)walkable;
    }
    return good;
}

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static void centroid(const wm_mesh *m, uint32_t t, float out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = (m->positions[3 * (size_t)m->indices[3 * t] + k] + m->positions[3 * (size_t)m->indices[3 * t + 1] + k] +
                  m->positions[3 * (size_t)m->indices[3 * t + 2] + k]) /
                 3;
}

static int same_poly(const wm_navmesh_poly *a, const wm_navmesh_poly *b)
{
    return a->tile_x == b->tile_x && a->tile_y == b->tile_y && a->poly == b->poly;
}

/* Paths between random polygon centres: Detour finds one from the start; it reaches the end
 * exactly when the end's polygon is among those linked to the start's. */
static void random_paths(wm_ctx *ctx, wm_navmesh *n, const wm_mesh *nav, corpus_counts *counts)
{
    uint32_t seed = 12345 + nav->triangle_count;
    for (int i = 0; i < 20; i++) {
        float a[3], b[3];
        centroid(nav, next_random(&seed) % nav->triangle_count, a);
        centroid(nav, next_random(&seed) % nav->triangle_count, b);
        float *points = NULL, at[3];
        uint32_t count = 0, reachable_count = 0;
        int complete = 0, found = 0;
        wm_navmesh_poly end_poly, *reachable = NULL;
        wm_result r = wm_navmesh_find_path(ctx, n, NULL, a, b, &points, &count, &complete);
        if (r)
            print_message("  %s\n", ctx->message);
        assert_int_equal(r, WM_OK);
        assert_true(count >= 1);
        assert_true(hypotf(points[0] - a[0], points[1] - a[1]) < 0.01f);
        if (complete)
            assert_true(hypotf(points[3 * (count - 1)] - b[0], points[3 * (count - 1) + 1] - b[1]) < 0.01f);
        assert_int_equal(wm_navmesh_nearest(ctx, n, NULL, b, &found, &end_poly, at), WM_OK);
        assert_true(found);
        assert_int_equal(wm_navmesh_reachable(ctx, n, NULL, a, &reachable, &reachable_count), WM_OK);
        int linked = 0;
        for (uint32_t k = 0; k < reachable_count; k++)
            linked |= same_poly(&reachable[k], &end_poly);
        /* the end's nearest point lies inside the outline of its polygon, seen from above */
        float corners[18], outline[12];
        uint32_t corner_count = 0;
        unsigned area = 0;
        assert_int_equal(wm_navmesh_poly_outline(ctx, n, &end_poly, corners, &corner_count, &area), WM_OK);
        assert_true(corner_count >= 3 && corner_count <= 6 && area > 0);
        for (uint32_t k = 0; k < corner_count; k++)
            outline[2 * k] = corners[3 * k], outline[2 * k + 1] = corners[3 * k + 1];
        assert_true(wmt_inside_polygon(outline, corner_count, b[0], b[1]));
        assert_int_equal(complete, linked);
        counts->paths++, counts->complete += (unsigned)complete;
        wm_free(ctx, points), wm_free(ctx, reachable);
    }
}

/* Built, written, read back by our reader, loaded by Detour. */
static void check_navmesh(wm_ctx *ctx, const wm_mesh *source, const wm_navmesh *built, double limit,
                          corpus_counts *counts)
{
    uint8_t *bytes = NULL;
    size_t size = 0;
    assert_int_equal(wm_navmesh_write_memory(ctx, built, &bytes, &size), WM_OK);
    wm_navmesh read;
    assert_int_equal(wm_navmesh_read_memory(ctx, bytes, size, "written.navmesh", &read), WM_OK);
    assert_int_equal(read.poly_count, built->poly_count);
    wm_mesh nav;
    assert_int_equal(wm_navmesh_to_mesh(ctx, &read, &nav), WM_OK);
    unsigned good = vertices_above_walkable(source, &nav, limit);
    counts->vertices += nav.vertex_count, counts->vertices_above += good;
    counts->polygons += read.poly_count;
    /* Recast's filter of low-hanging obstacles makes the top of a steep face walkable when it
     * is within the climb of a walkable floor: a corner may sit above such a face (and must
     * lie within 0.5 above it, checked above) */
    assert_true(good * 100 >= nav.vertex_count * 99);
    random_paths(ctx, &read, &nav, counts);
    wm_mesh_free(ctx, &nav);
    wm_navmesh_free(ctx, &read);
    wm_free(ctx, bytes);
}

static void build_every_wmo(const char *preset, const char *rule, corpus_counts *counts)
{
    const char *suffixes[] = {".wmo", NULL};
    char **files = NULL;
    size_t file_count = wmt_corpus_list("wmo", suffixes, &files);
    wm_navmesh_config config;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    assert_int_equal(wm_navmesh_config_preset(&ctx, preset, &config), WM_OK);
    slack = config.cell_size;
    double limit = config.steep_slope > config.walkable_slope ? config.steep_slope : config.walkable_slope;
    for (size_t i = 0; i < file_count; i++) {
        if (strstr(files[i], "_lod"))
            continue; /* LOD groups hold no collision */
        wm_mesh mesh;
        assert_int_equal(load_collision(&ctx, files[i], rule, &mesh), WM_OK);
        counts->files++;
        wm_navmesh navmesh;
        wm_result r = wm_navmesh_build(&ctx, &mesh, &config, &navmesh);
        if (r == WM_OK) {
            counts->built++;
            check_navmesh(&ctx, &mesh, &navmesh, limit, counts);
        } else {
            /* only a file with nothing walkable left after Recast's filters may fail, and it says so */
            assert_int_equal(r, WM_ERR_INVALID);
            assert_non_null(strstr(ctx.message, "walkable"));
            counts->nothing_walkable++;
        }
        wm_navmesh_free(&ctx, &navmesh);
        wm_mesh_free(&ctx, &mesh);
    }
    wmt_free_list(files, file_count);
    print_message("%s, collision rule %s: %u WMO files, %u navmeshes (%u polygons), %u with nothing walkable; "
                  "%u of %u vertices within %g above a walkable triangle; %u paths, %u reaching their end\n",
                  preset, rule, counts->files, counts->built, counts->polygons, counts->nothing_walkable,
                  counts->vertices_above, counts->vertices, ABOVE_AT_MOST, counts->paths, counts->complete);
}

static void every_wmo_with_every_triangle_recast_preset(void **state)
{
    (void)state;
    wmt_require_recast();
    corpus_counts counts = {0};
    build_every_wmo("recast", "all", &counts);
    assert_true(counts.files > 0);
    assert_int_equal(counts.built, counts.files);
}

static void every_wmo_server_collision_trinitycore_preset(void **state)
{
    (void)state;
    wmt_require_recast();
    corpus_counts counts = {0};
    build_every_wmo("trinitycore", "server", &counts);
    assert_true(counts.built > 0);
    assert_int_equal(counts.built + counts.nothing_walkable, counts.files);
}

static void every_wmo_server_collision_recast_preset(void **state)
{
    (void)state;
    wmt_require_recast();
    corpus_counts counts = {0};
    build_every_wmo("recast", "server", &counts);
    assert_true(counts.built > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_wmo_with_every_triangle_recast_preset),
        cmocka_unit_test(every_wmo_server_collision_trinitycore_preset),
        cmocka_unit_test(every_wmo_server_collision_recast_preset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
