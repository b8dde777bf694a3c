/* `walkmesh render --path`: on every corpus TRX, a route between the reachable island with
 * the highest number and the first walkable triangle's island follows the file's own
 * island and tile next hops step by step, and a pair the table cannot connect draws no
 * route. */
#define _GNU_SOURCE
#include "test_support.h"
#include "svg_inspect.h"
#include "test_wmo_raw.h"
#include "nwn2/bake.h"
#include "nwn2/nwn2.h"
#include "nwn2/wm_nwn2_route.h"
#include "wm_picture.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void centroid(const nwn2_aswm *a, uint32_t t, float out[2])
{
    for (int c = 0; c < 2; c++)
        out[c] = (a->vertices[3 * (size_t)a->triangles[t].v[0] + c] + a->vertices[3 * (size_t)a->triangles[t].v[1] + c] +
                  a->vertices[3 * (size_t)a->triangles[t].v[2] + c]) / 3.0f;
}

static int contains(const nwn2_aswm *a, uint32_t t, const float p[2])
{
    double s[3];
    for (int k = 0; k < 3; k++) {
        const float *u = a->vertices + 3 * (size_t)a->triangles[t].v[k];
        const float *w = a->vertices + 3 * (size_t)a->triangles[t].v[(k + 1) % 3];
        s[k] = ((double)w[0] - u[0]) * ((double)p[1] - u[1]) - ((double)w[1] - u[1]) * ((double)p[0] - u[0]);
    }
    return (s[0] >= -1e-6 && s[1] >= -1e-6 && s[2] >= -1e-6) || (s[0] <= 1e-6 && s[1] <= 1e-6 && s[2] <= 1e-6);
}

/* Corners two triangles have in common, by position (a TRX may repeat a
 * vertex on both sides of a tile line). */
static uint32_t shared_vertices(const nwn2_aswm *a, uint32_t x, uint32_t y)
{
    uint32_t n = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            n += memcmp(a->vertices + 3 * (size_t)a->triangles[x].v[i], a->vertices + 3 * (size_t)a->triangles[y].v[j],
                        3 * sizeof(float)) == 0;
    return n;
}

static uint32_t tile_of(const nwn2_aswm *a, uint32_t t)
{
    for (uint32_t i = 0; i < a->grid_width * a->grid_height; i++)
        if (t >= a->tiles[i].triangle_offset && t - a->tiles[i].triangle_offset < a->tiles[i].triangle_count)
            return i;
    fail_msg("triangle %u is in no tile", t);
    return 0;
}

/* The file's next hop inside a tile from triangle `from` toward `to`. */
static uint32_t tile_next_hop(const nwn2_aswm *a, uint32_t from, uint32_t to)
{
    const nwn2_tile *tile = &a->tiles[tile_of(a, from)];
    uint8_t f = tile->local_to_node[from - tile->triangle_offset], g = tile->local_to_node[to - tile->triangle_offset];
    assert_true(f < tile->node_count && g < tile->node_count);
    uint8_t hop = tile->nodes[(size_t)f * tile->node_count + g];
    assert_int_not_equal(hop, 0xFF);
    return tile->triangle_offset + tile->node_to_local[hop & 0x7F];
}

/* Reads "route triangles ..." back and checks every step against the file. */
static uint32_t check_route(const nwn2_aswm *a, const char *svg, const float from[2], const float to[2], int reachable)
{
    const char *line = strstr(svg, "route start ");
    assert_non_null(line);
    unsigned start, goal;
    assert_int_equal(sscanf(line, "route start %u goal %u", &start, &goal), 2);
    assert_true(contains(a, start, from) && contains(a, goal, to));
    uint32_t steps[4096], n = 0;
    const char *p = strstr(svg, "route triangles ");
    assert_non_null(p);
    p += strlen("route triangles ");
    while (n < 4096 && isdigit((unsigned char)*p)) {
        steps[n++] = (uint32_t)strtoul(p, (char **)&p, 10);
        if (*p == ' ')
            p++;
    }
    assert_true(n >= 1 && steps[0] == start);
    uint32_t goal_island = a->triangles[goal].island;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = steps[i - 1], y = steps[i];
        if (shared_vertices(a, x, y) != 2) /* adjacent: they share an edge */
            fail_msg("route steps %u -> %u (triangles %u, %u) share %u corners", i - 1, i, x, y, shared_vertices(a, x, y));
        if (tile_of(a, x) == tile_of(a, y)) {
            uint32_t end = i; /* the last triangle of this run inside the tile */
            while (end + 1 < n && tile_of(a, steps[end + 1]) == tile_of(a, x))
                end++;
            assert_int_equal(y, tile_next_hop(a, x, steps[end]));
        } else {
            uint16_t next = a->island_paths[(size_t)a->triangles[x].island * a->island_count + goal_island].next;
            assert_int_equal(a->triangles[y].island, next);
        }
    }
    if (reachable) {
        assert_non_null(strstr(svg, "route reaches the goal"));
        assert_int_equal(steps[n - 1], goal);
        assert_int_equal(svgt_count_in_group(svg, "rt", "path"), 1);
    } else {
        assert_null(strstr(svg, "route reaches the goal"));
        assert_int_equal(svgt_count_in_group(svg, "re", "path"), 1); /* the goal crossed out */
    }
    return n;
}

static void route_case(const char *path, const nwn2_aswm *a, uint32_t s, uint32_t g, const char *dir, int reachable)
{
    float from[2], to[2];
    centroid(a, s, from);
    centroid(a, g, to);
    char p1[64], p2[64];
    snprintf(p1, sizeof p1, "%.9g,%.9g", (double)from[0], (double)from[1]);
    snprintf(p2, sizeof p2, "%.9g,%.9g", (double)to[0], (double)to[1]);
    char *out = wmt_join(dir, "route.svg");
    const char *args[] = {"render", path, "-o", out, "--path", p1, p2, "--force", NULL};
    char *err = NULL;
    int code = wmt_run_cli(NULL, &err, args);
    if (code != 0)
        fail_msg("%s: %s", path, err);
    free(err);
    char *svg = svgt_load(out);
    /* the renderer may pick another triangle under the point (stacked floors):
     * reachability is taken from the table for the triangles it reports */
    unsigned start, goal;
    assert_int_equal(sscanf(strstr(svg, "route start "), "route start %u goal %u", &start, &goal), 2);
    uint16_t is = a->triangles[start].island, ig = a->triangles[goal].island;
    int table_says = is == ig || a->island_paths[(size_t)is * a->island_count + ig].next < a->island_count;
    if (start == s && goal == g)
        assert_int_equal(table_says, reachable);
    uint32_t n = check_route(a, svg, from, to, table_says);
    /* the public route API gives the picture's route */
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_nwn2_route route;
    assert_int_equal(wm_nwn2_route_find_file(&ctx, path, from, to, &route), WM_OK);
    assert_int_equal(route.start, start);
    assert_int_equal(route.goal, goal);
    assert_int_equal(route.reached, table_says);
    const char *list = strstr(svg, "route triangles ") + strlen("route triangles ");
    for (uint32_t i = 0; i < route.count; i++)
        assert_int_equal(strtoul(list, (char **)&list, 10), route.triangles[i]);
    wm_nwn2_route_free(&ctx, &route);
    print_message("%s: route over %u triangles, %s\n", wm_path_file_name(path), n, table_says ? "reached" : "no route");
    free(svg);
    free(out);
}

static void routes_follow_the_files_tables(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".trx", NULL};
    char **files;
    size_t count = wmt_corpus_list("nwn2", suffixes, &files);
    char *dir = wmt_make_temp_dir();
    uint32_t reached = 0, refused = 0;
    for (size_t f = 0; f < count; f++) {
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        nwn2_file file;
        assert_int_equal(nwn2_file_read(&ctx, files[f], &file), WM_OK);
        const nwn2_aswm *a = &file.aswm;
        uint32_t n = a->island_count, first = UINT32_MAX;
        for (uint32_t t = 0; t < a->triangle_count && first == UINT32_MAX; t++)
            if ((a->triangles[t].flags & NWN2_TRI_WALKABLE) && a->triangles[t].island < n)
                first = t;
        if (first == UINT32_MAX) {
            nwn2_file_free(&ctx, &file);
            continue;
        }
        /* the reachable island with the highest number, and one the table cannot reach */
        uint32_t from = a->triangles[first].island, far = UINT32_MAX, cut = UINT32_MAX;
        for (uint32_t j = 0; j < n; j++) {
            if (j != from && a->island_paths[(size_t)from * n + j].next < n)
                far = j;
            if (j != from && a->island_paths[(size_t)from * n + j].next >= n && cut == UINT32_MAX)
                cut = j;
        }
        for (int pass = 0; pass < 2; pass++) {
            uint32_t target = pass ? cut : far;
            if (target == UINT32_MAX)
                continue;
            uint32_t goal = UINT32_MAX;
            for (uint32_t t = 0; t < a->triangle_count && goal == UINT32_MAX; t++)
                if ((a->triangles[t].flags & NWN2_TRI_WALKABLE) && a->triangles[t].island == target)
                    goal = t;
            if (goal == UINT32_MAX)
                continue;
            route_case(files[f], a, first, goal, dir, !pass);
            pass ? refused++ : reached++;
        }
        nwn2_file_free(&ctx, &file);
    }
    print_message("routes: %u reachable and %u unreachable island pairs checked\n", reached, refused);
    assert_true(reached > 0);
    wmt_remove_tree(dir);
    free(dir);
    wmt_free_list(files, count);
}
int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(routes_follow_the_files_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
