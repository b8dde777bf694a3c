/* walkmesh path over a navmesh (issue 30): on every corpus WMO, built into a .navmesh, random
 * pairs of polygon centres. Whether the two polygons are linked comes from Detour's own walk
 * over the polygon links (wm_navmesh_reachable); the CLI must return a route ending at the goal
 * exactly then, and exit 6 otherwise; render --path on the WMO draws the route path prints.
 * Bad points get clear answers. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAIRS_PER_FILE 6

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static void centroid(const wm_mesh *m, uint32_t t, float out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = 0;
    for (int v = 0; v < 3; v++)
        for (int k = 0; k < 3; k++)
            out[k] += m->positions[3 * (size_t)m->indices[3 * (size_t)t + v] + k] / 3;
}

static int run_path(const char *file, const float a[3], const float b[3], char **out)
{
    char from[96], to[96];
    snprintf(from, sizeof from, "%.9g,%.9g,%.9g", a[0], a[1], a[2]);
    snprintf(to, sizeof to, "%.9g,%.9g,%.9g", b[0], b[1], b[2]);
    const char *argv[] = {"path", file, from, to, "--json", NULL};
    return wmt_run_cli(out, NULL, argv);
}

/* Whether the polygon nearest to b is among those Detour reaches from a. */
static int linked(wm_ctx *ctx, wm_navmesh *n, const float a[3], const float b[3], float goal[3])
{
    wm_navmesh_poly *polys = NULL, end;
    uint32_t count = 0;
    int found = 0;
    assert_int_equal(wm_navmesh_reachable(ctx, n, NULL, a, &polys, &count), WM_OK);
    assert_int_equal(wm_navmesh_nearest(ctx, n, NULL, b, &found, &end, goal), WM_OK);
    assert_true(found);
    int hit = 0;
    for (uint32_t i = 0; i < count && !hit; i++)
        hit = polys[i].tile_x == end.tile_x && polys[i].tile_y == end.tile_y && polys[i].poly == end.poly;
    wm_free(ctx, polys);
    return hit;
}

/* The last of the printed points, from the JSON's tail "..., [x, y, z]]}". */
static void last_point(const char *json, float out[3])
{
    const char *open = strrchr(json, '[');
    assert_non_null(open);
    assert_int_equal(sscanf(open, "[%f, %f, %f]", &out[0], &out[1], &out[2]), 3);
}

/* RecastDemo's navmesh of a WMO (default collision rule) and its polygons as triangles; 0 when
 * nothing in it is walkable. */
static int navmesh_of_wmo(wm_ctx *ctx, const char *wmo, wm_navmesh *n, wm_mesh *nav)
{
    wm_mesh mesh;
    if (wm_mesh_load(ctx, wmo, "wmo", NULL, &mesh) != WM_OK)
        return 0;
    wm_navmesh_config config;
    wm_navmesh_config_recast(&config);
    wm_result r = wm_navmesh_build(ctx, &mesh, &config, n);
    wm_mesh_free(ctx, &mesh);
    if (r)
        return 0;
    assert_int_equal(wm_navmesh_to_mesh(ctx, n, nav), WM_OK);
    return 1;
}

typedef unsigned (*per_wmo)(wm_ctx *ctx, const char *wmo, const char *dir, unsigned *counter);

/* each over every corpus WMO (skips without them), with a temporary folder; the sum of what
 * it returns. */
static unsigned over_corpus_wmos(per_wmo each, unsigned *counter, size_t *file_count)
{
    static const char *const suffixes[] = {".wmo", NULL};
    char **files = NULL;
    *file_count = wmt_corpus_list("wmo", suffixes, &files);
    if (*file_count == 0)
        skip();
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    char *dir = wmt_make_temp_dir();
    unsigned sum = 0;
    for (size_t f = 0; f < *file_count; f++)
        sum += each(&ctx, files[f], dir, counter);
    wmt_remove_tree(dir);
    free(dir);
    wmt_free_list(files, *file_count);
    return sum;
}

/* render --path on the WMO draws the route path printed (its length, from the JSON), or says
 * there is none. */
static void check_render(const char *wmo, const char *dir, const float a[3], const float b[3], const char *json)
{
    char from[96], to[96], *svg = wmt_join(dir, "route.svg");
    snprintf(from, sizeof from, "%.9g,%.9g,%.9g", a[0], a[1], a[2]);
    snprintf(to, sizeof to, "%.9g,%.9g,%.9g", b[0], b[1], b[2]);
    const char *argv[] = {"render", wmo, "-o", svg, "--path", from, to, "--force", NULL};
    char *err = NULL;
    int code = wmt_run_cli(NULL, &err, argv);
    if (code != 0)
        fail_msg("render --path on %s exited %d: %s", wmo, code, err);
    size_t size;
    char *text = (char *)wmt_read_file(svg, &size);
    if (json) {
        const char *at = strstr(text, "shortest route length ");
        assert_non_null(at);
        double drawn = strtod(at + strlen("shortest route length "), NULL);
        double printed = strtod(strstr(json, "\"length\": ") + strlen("\"length\": "), NULL);
        assert_true(fabs(drawn - printed) < 1e-4 * (printed + 1));
    } else {
        assert_non_null(strstr(text, "shortest route none"));
    }
    free(text), free(err), free(svg);
}

static unsigned pairs_of_file(wm_ctx *ctx, const char *wmo, const char *dir, unsigned *reached)
{
    wm_mesh nav;
    wm_navmesh n;
    if (!navmesh_of_wmo(ctx, wmo, &n, &nav))
        return 0; /* nothing walkable: test_navmesh counts those */
    char *file = wmt_join(dir, "ground.navmesh");
    assert_int_equal(wm_navmesh_save(ctx, &n, file, 1), WM_OK);
    uint32_t seed = nav.triangle_count * 2654435761u + 7;
    unsigned pairs = 0;
    for (int i = 0; i < PAIRS_PER_FILE; i++, pairs++) {
        float a[3], b[3], goal[3], end[3];
        centroid(&nav, next_random(&seed) % nav.triangle_count, a);
        centroid(&nav, next_random(&seed) % nav.triangle_count, b);
        int joined = linked(ctx, &n, a, b, goal);
        char *out = NULL;
        int code = run_path(file, a, b, &out);
        assert_int_equal(code, joined ? 0 : 6);
        if (joined) {
            last_point(out, end);
            for (int k = 0; k < 3; k++)
                assert_true(fabsf(end[k] - goal[k]) < 0.01f);
            ++*reached;
        }
        free(out);
    }
    if (pairs) { /* the WMO itself: the navmesh is built on the fly with the same (default) preset */
        char *direct = NULL, *stored = NULL;
        float a[3], b[3];
        centroid(&nav, 0, a);
        centroid(&nav, nav.triangle_count - 1, b);
        int code = run_path(file, a, b, &stored);
        assert_int_equal(run_path(wmo, a, b, &direct), code);
        if (code == 0)
            assert_string_equal(direct, stored);
        check_render(wmo, dir, a, b, code == 0 ? direct : NULL);
        free(direct), free(stored);
    }
    wm_mesh_free(ctx, &nav);
    wm_navmesh_free(ctx, &n);
    remove(file);
    free(file);
    return pairs;
}

static void random_pairs_on_every_corpus_wmo(void **state)
{
    (void)state;
    wmt_require_recast();
    unsigned reached = 0;
    size_t file_count = 0;
    unsigned pairs = over_corpus_wmos(pairs_of_file, &reached, &file_count);
    printf("path over navmeshes of %zu WMOs: %u random pairs, %u linked and reached, %u exit 6\n", file_count, pairs,
           reached, pairs - reached);
    assert_true(pairs > 0);
}

static double triangle_area(const wm_mesh *m, uint32_t t)
{
    const float *p[3];
    for (int k = 0; k < 3; k++)
        p[k] = m->positions + 3 * (size_t)m->indices[3 * (size_t)t + k];
    double u[3], v[3];
    for (int k = 0; k < 3; k++)
        u[k] = p[1][k] - p[0][k], v[k] = p[2][k] - p[0][k];
    double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    return 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

/* Regions of one navmesh from a polygon centre: the start's region is what Detour reaches from
 * there; every other region's point is one Detour's findPath cannot reach; all regions together
 * hold every polygon and the area of every triangle of the navmesh's own triangulation. */
static unsigned regions_of_file(wm_ctx *ctx, const char *wmo, const char *dir, unsigned *unreachable)
{
    (void)dir;
    wm_mesh nav;
    wm_navmesh n;
    if (!navmesh_of_wmo(ctx, wmo, &n, &nav))
        return 0;
    float at[3];
    centroid(&nav, nav.triangle_count / 2, at);
    wm_reach reach;
    assert_int_equal(wm_navmesh_reach(ctx, &n, NULL, at, &reach), WM_OK);
    wm_navmesh_poly *polys = NULL;
    uint32_t reached = 0;
    assert_int_equal(wm_navmesh_reachable(ctx, &n, NULL, at, &polys, &reached), WM_OK);
    wm_free(ctx, polys);
    assert_int_equal(reach.region_count, reach.unreachable_count + 1);
    uint32_t faces = reached;
    double area = 0, total = 0;
    for (uint32_t t = 0; t < nav.triangle_count; t++)
        total += triangle_area(&nav, t);
    for (uint32_t g = 0; g < reach.unreachable_count; g++) {
        const wm_region *region = &reach.unreachable[g];
        faces += region->faces;
        area += region->area;
        if (g)
            assert_true(region->area <= reach.unreachable[g - 1].area);
        float *points = NULL;
        uint32_t count = 0;
        int complete = 1;
        assert_int_equal(wm_navmesh_find_path(ctx, &n, NULL, at, region->point, &points, &count, &complete), WM_OK);
        assert_false(complete);
        wm_free(ctx, points);
    }
    assert_int_equal(faces, n.poly_count);
    assert_true(area <= total + 1e-3 * total);
    *unreachable += reach.unreachable_count;
    wm_reach_free(ctx, &reach);
    wm_mesh_free(ctx, &nav);
    wm_navmesh_free(ctx, &n);
    return 1;
}

static void regions_on_every_corpus_wmo(void **state)
{
    (void)state;
    wmt_require_recast();
    unsigned unreachable = 0;
    size_t file_count = 0;
    unsigned built = over_corpus_wmos(regions_of_file, &unreachable, &file_count);
    printf("reach over navmeshes of %u of %zu WMOs: %u unreachable regions, each unreachable by findPath\n", built,
           file_count, unreachable);
    assert_true(built > 0);
}

/* Outside the mesh, NaN, a missing goal: usage (1) or no route (6), with a message. */
static void bad_points_get_clear_answers(void **state)
{
    (void)state;
    wmt_require_recast();
    char *wmo = wmt_corpus_path_or_skip("wmo/blizzardry__trolltent.wmo");
    static const char *const cases[][3] = {
        {"1e6,1e6,0", "0,0", "no navmesh polygon within"}, {"nan,0,0", "0,0", "not a point"}, {"0,0", "inf,1", "not a point"}};
    static const int codes[] = {6, 1, 1};
    for (int i = 0; i < 3; i++) {
        const char *argv[] = {"path", wmo, cases[i][0], cases[i][1], NULL};
        char *err = NULL;
        assert_int_equal(wmt_run_cli(NULL, &err, argv), codes[i]);
        assert_non_null(strstr(err, cases[i][2]));
        free(err);
    }
    const char *radius[] = {"path", wmo, "0,0", "1,1", "--radius", "1", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, radius), 1);
    free(wmo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_pairs_on_every_corpus_wmo),
        cmocka_unit_test(regions_on_every_corpus_wmo),
        cmocka_unit_test(bad_points_get_clear_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
