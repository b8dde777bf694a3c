/* Detour's answers on a .navmesh, printed exactly (%a), so that the Windows build (Recast and
 * Detour cross-built with MinGW) can be compared with the Linux build line by line
 * (tests/windows/run-wine.sh builds this program for both and runs it on the same files).
 *
 *   navmesh_routes FILE.navmesh
 *
 * Points: the centres of the first and the last polygon of each tile (their corners' mean). Printed: the nearest
 * polygon and point to each, the route (wm_navmesh_find_path) from each point to the next and
 * from the first to the last, and the polygons reachable from the first. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <walkmesh.h>

#define MAX_POINTS 16

static void print_point(const float p[3])
{
    printf(" %a %a %a", p[0], p[1], p[2]);
}

/* The centre of the first (last: `last`) polygon of tile `t` (Detour's tile header: x and y
 * at bytes 8 and 12, the polygon count at 24). */
static int tile_poly_centre(const wm_navmesh *n, uint32_t t, int last, float centre[3])
{
    int32_t grid[2], polys;
    memcpy(grid, n->tile_data + n->tile_offsets[t] + 8, sizeof grid);
    memcpy(&polys, n->tile_data + n->tile_offsets[t] + 24, sizeof polys);
    if (last && polys < 2)
        return 0;
    wm_navmesh_poly p = {grid[0], grid[1], last ? (uint32_t)polys - 1 : 0};
    float corners[18];
    uint32_t count = 0;
    unsigned area = 0;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    if (wm_navmesh_poly_outline(&ctx, n, &p, corners, &count, &area) || count == 0)
        return 0;
    centre[0] = centre[1] = centre[2] = 0;
    for (uint32_t i = 0; i < count * 3; i++)
        centre[i % 3] += corners[i] / (float)count;
    return 1;
}

static void route(wm_navmesh *n, const float from[3], const float to[3])
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    float *points = NULL;
    uint32_t count = 0;
    int complete = 0;
    wm_result r = wm_navmesh_find_path(&ctx, n, NULL, from, to, &points, &count, &complete);
    printf("route: result %d, complete %d, %u corners:", (int)r, complete, count);
    for (uint32_t i = 0; i < count; i++)
        print_point(points + 3 * i);
    printf("\n");
    wm_free(&ctx, points);
}

int main(int argc, char **argv)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_navmesh n;
    if (argc != 2 || wm_navmesh_load(&ctx, argv[1], &n)) {
        fprintf(stderr, "navmesh_routes: %s\n", argc == 2 ? wm_ctx_message(&ctx) : "usage: navmesh_routes FILE");
        return 2;
    }
    float points[MAX_POINTS][3];
    uint32_t count = 0;
    for (uint32_t t = 0; t < n.tile_count && count < MAX_POINTS; t++)
        for (int last = 0; last < 2 && count < MAX_POINTS; last++)
            count += (uint32_t)tile_poly_centre(&n, t, last, points[count]);
    for (uint32_t i = 0; i < count; i++) {
        wm_navmesh_poly poly = {0, 0, 0};
        float at[3] = {0, 0, 0};
        int found = 0;
        wm_result r = wm_navmesh_nearest(&ctx, &n, NULL, points[i], &found, &poly, at);
        printf("nearest: result %d, found %d, tile %d %d poly %u:", (int)r, found, poly.tile_x, poly.tile_y, poly.poly);
        print_point(at);
        printf("\n");
    }
    for (uint32_t i = 0; i + 1 < count; i++)
        route(&n, points[i], points[i + 1]);
    if (count > 1)
        route(&n, points[0], points[count - 1]);
    wm_navmesh_poly *reached = NULL;
    uint32_t reached_count = 0;
    if (count > 0) {
        wm_result r = wm_navmesh_reachable(&ctx, &n, NULL, points[0], &reached, &reached_count);
        printf("reachable: result %d, %u polygons:", (int)r, reached_count);
        for (uint32_t i = 0; i < reached_count; i++)
            printf(" %d,%d,%u", reached[i].tile_x, reached[i].tile_y, reached[i].poly);
        printf("\n");
    }
    wm_free(&ctx, reached);
    printf("points %u\n", count);
    wm_navmesh_free(&ctx, &n);
    return 0;
}
