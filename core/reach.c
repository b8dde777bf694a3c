/* Walkable regions: their sizes, a point inside each, whether blocking faces enclose them,
 * and which of them a point cannot reach. */
#include "walk_graph_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int larger_first(const void *x, const void *y)
{
    const wm_region *a = x, *b = y;
    if (a->area != b->area)
        return a->area < b->area ? 1 : -1;
    return a->first_face < b->first_face ? -1 : a->first_face > b->first_face;
}

static double plan_area(const wm_walk_graph *g, uint32_t face)
{
    const float *a = walk_vertex(g, face, 0), *b = walk_vertex(g, face, 1), *c = walk_vertex(g, face, 2);
    return fabs(((double)b[0] - a[0]) * ((double)c[1] - a[1]) - ((double)b[1] - a[1]) * ((double)c[0] - a[0])) / 2;
}

wm_result wm_walk_regions(wm_ctx *ctx, const wm_walk_graph *g, wm_region **out, uint32_t *out_count)
{
    *out = NULL;
    *out_count = 0;
    if (!g)
        return wm_error(ctx, WM_ERR_INVALID, "regions: no graph");
    wm_region *regions = wm_alloc_array(ctx, g->region_count, sizeof *regions);
    double *largest = wm_alloc_array(ctx, g->region_count, sizeof *largest);
    if (!regions || !largest) {
        wm_free(ctx, regions);
        wm_free(ctx, largest);
        return WM_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < g->region_count; i++) {
        regions[i].first_face = WM_NO_REGION;
        regions[i].enclosed = 1;
        largest[i] = -1;
    }
    for (uint32_t t = 0; t < g->triangle_count; t++) {
        uint32_t id = g->region[t];
        if (id == WM_NO_REGION)
            continue;
        wm_region *region = &regions[id];
        double area = walk_face_area(g, t), plan = plan_area(g, t);
        if (region->first_face == WM_NO_REGION)
            region->first_face = t;
        region->faces++;
        region->area += area;
        region->enclosed &= !g->open[3 * (size_t)t] && !g->open[3 * (size_t)t + 1] && !g->open[3 * (size_t)t + 2];
        if (plan > largest[id]) { /* the point lies on ground seen from above */
            largest[id] = plan;
            walk_face_centre(g, t, region->point);
        }
    }
    wm_free(ctx, largest);
    qsort(regions, g->region_count, sizeof *regions, larger_first);
    *out = regions;
    *out_count = g->region_count;
    return WM_OK;
}

wm_result wm_reach_find(wm_ctx *ctx, const wm_walk_graph *g, const float at[3], int has_z, wm_reach *out)
{
    memset(out, 0, sizeof *out);
    uint32_t face;
    wm_result r = wm_walk_locate(ctx, g, at, has_z, &face, NULL);
    if (r)
        return r;
    if (face == WM_NO_REGION)
        return wm_error(ctx, WM_ERR_INVALID, "the point (%g, %g) is over no walkable face", at[0], at[1]);
    wm_region *regions;
    uint32_t count;
    if ((r = wm_walk_regions(ctx, g, &regions, &count)) != WM_OK)
        return r;
    out->region_count = count;
    out->start_face = face;
    out->start_region = g->region[face];
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; i++)
        if (g->region[regions[i].first_face] != out->start_region)
            regions[kept++] = regions[i];
    out->unreachable = regions;
    out->unreachable_count = kept;
    return WM_OK;
}

void wm_reach_free(const wm_ctx *ctx, wm_reach *reach)
{
    if (!reach)
        return;
    wm_free(ctx, reach->unreachable);
    reach->unreachable = NULL;
    reach->unreachable_count = 0;
}
