/* The regions of a navmesh (polygons joined through Detour's links) and which of them a point
 * cannot reach, in wm_reach's terms: a region's faces are its polygons. */
#include "navmesh_internal.h"
#include "recast_api.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct region_sum {
    wm_region region;
    double largest; /* area of the polygon whose centre is region.point */
} region_sum;

/* A polygon's area over the ground (a fan from its first corner) and its corners' mean. */
static double polygon_area(const float *corners, uint32_t count, float centre[3])
{
    double area = 0, sum[3] = {0, 0, 0};
    for (uint32_t i = 0; i < count; i++)
        for (int k = 0; k < 3; k++)
            sum[k] += corners[3 * i + k];
    for (int k = 0; k < 3; k++)
        centre[k] = count ? (float)(sum[k] / count) : 0;
    for (uint32_t i = 1; i + 1 < count; i++) {
        const float *a = corners, *b = corners + 3 * i, *c = corners + 3 * (i + 1);
        double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
        area += 0.5 * sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    }
    return area;
}

static int larger_first(const void *a, const void *b)
{
    const wm_region *x = a, *y = b;
    if (x->area != y->area)
        return x->area > y->area ? -1 : 1;
    return x->first_face < y->first_face ? -1 : x->first_face > y->first_face;
}

static wm_result sum_regions(wm_ctx *ctx, const wm_navmesh *n, const wmrc_poly_id *ids, const int *regions,
                             uint32_t count, region_sum *sums)
{
    for (uint32_t i = 0; i < count; i++) {
        wm_navmesh_poly poly = {ids[i].tile_x, ids[i].tile_y, (uint32_t)ids[i].poly};
        float corners[18], centre[3];
        uint32_t corner_count = 0;
        unsigned area_id;
        wm_result r = wm_navmesh_poly_outline(ctx, n, &poly, corners, &corner_count, &area_id);
        if (r)
            return r;
        double area = polygon_area(corners, corner_count, centre);
        region_sum *s = &sums[regions[i]];
        if (s->region.faces++ == 0)
            s->region.first_face = i, s->largest = -1;
        s->region.area += area;
        if (area > s->largest) {
            s->largest = area;
            memcpy(s->region.point, centre, sizeof centre);
        }
    }
    return WM_OK;
}

/* The start's region left out, the others largest first. */
static wm_result fill_reach(wm_ctx *ctx, region_sum *sums, uint32_t region_count, uint32_t start, wm_reach *out)
{
    out->unreachable = wm_alloc_array(ctx, region_count, sizeof *out->unreachable);
    if (!out->unreachable)
        return WM_ERR_NOMEM;
    for (uint32_t g = 0; g < region_count; g++)
        if (g != out->start_region)
            out->unreachable[out->unreachable_count++] = sums[g].region;
    qsort(out->unreachable, out->unreachable_count, sizeof *out->unreachable, larger_first);
    out->region_count = region_count;
    out->start_face = start;
    return WM_OK;
}

static wm_result start_polygon(wm_ctx *ctx, wm_navmesh *n, const wm_navmesh_query *query, const float at[3],
                               const wmrc_poly_id *ids, uint32_t count, uint32_t *start)
{
    int found = 0;
    wm_navmesh_poly poly;
    float on[3];
    wm_result r = wm_navmesh_nearest(ctx, n, query, at, &found, &poly, on);
    if (r)
        return r;
    for (uint32_t i = 0; found && i < count; i++)
        if (ids[i].tile_x == poly.tile_x && ids[i].tile_y == poly.tile_y && (uint32_t)ids[i].poly == poly.poly) {
            *start = i;
            return WM_OK;
        }
    return wm_error(ctx, WM_ERR_INVALID, "navmesh: no polygon in the search box around (%g, %g)", (double)at[0],
                    (double)at[1]);
}

wm_result wm_navmesh_reach(wm_ctx *ctx, wm_navmesh *n, const wm_navmesh_query *query, const float at[3],
                           wm_reach *out)
{
    memset(out, 0, sizeof *out);
    const struct wmrc_functions *rc;
    wm_result r = navmesh_open_detour(ctx, n, &rc);
    if (r)
        return r;
    unsigned short flags = query && query->include_flags ? query->include_flags : 0xffff;
    wmrc_poly_id *ids = wm_alloc_array(ctx, (size_t)n->poly_count + 1, sizeof *ids);
    int *regions = wm_alloc_array(ctx, (size_t)n->poly_count + 1, sizeof *regions);
    region_sum *sums = wm_alloc_array(ctx, (size_t)n->poly_count + 1, sizeof *sums);
    int count = 0, region_count = 0;
    char why[WMRC_WHY] = "";
    if (!ids || !regions || !sums)
        r = WM_ERR_NOMEM;
    else if (!rc->regions(n->detour, flags, ids, regions, (int)n->poly_count, &count, &region_count, why))
        r = wm_error(ctx, WM_ERR_INVALID, "navmesh: %s", why);
    else if (count > (int)n->poly_count)
        r = wm_error(ctx, WM_ERR_CORRUPT, "navmesh: Detour holds %d polygons, the tiles %u", count, n->poly_count);
    uint32_t start = 0;
    if (!r)
        r = start_polygon(ctx, n, query, at, ids, (uint32_t)count, &start);
    if (!r)
        r = sum_regions(ctx, n, ids, regions, (uint32_t)count, sums);
    if (!r) {
        out->start_region = (uint32_t)regions[start];
        r = fill_reach(ctx, sums, (uint32_t)region_count, start, out);
    }
    wm_free(ctx, ids);
    wm_free(ctx, regions);
    wm_free(ctx, sums);
    return r;
}
