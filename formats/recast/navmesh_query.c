/* Route queries: the navmesh's tiles handed to Detour (through the walkmesh-recast module) on
 * the first query, then findNearestPoly, findPath + findStraightPath and a walk over the
 * polygon links. Points cross between the neutral Z-up space and Recast's Y-up one here. */
#include "navmesh_internal.h"
#include "recast_api.h"
#include "wm_geometry.h"

#include <math.h>
#include <string.h>

#define NAVMESH_MAX_CORRIDOR 65535 /* polygons a route may cross (Detour's node pool holds as many) */

void wm_navmesh_close_detour(wm_navmesh *navmesh);

void wm_navmesh_close_detour(wm_navmesh *navmesh)
{
    const wmrc_functions *rc = navmesh->detour ? wm_recast_load(NULL) : NULL;
    if (rc)
        rc->navmesh_close(navmesh->detour);
    navmesh->detour = NULL;
}

wm_result navmesh_open_detour(wm_ctx *ctx, wm_navmesh *n, const wmrc_functions **rc)
{
    *rc = wm_recast_load(ctx);
    if (!*rc)
        return WM_ERR_UNSUPPORTED;
    if (n->detour)
        return WM_OK;
    if (n->tile_count == 0)
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: no tiles to query");
    wmrc_navmesh_params params = {{n->origin[0], n->origin[1], n->origin[2]}, n->tile_width, n->tile_height,
                                  (int)n->max_tiles, (int)n->max_polys};
    char why[WMRC_WHY] = "";
    wmrc_navmesh *opened = NULL;
    if (!(*rc)->navmesh_open(&params, NAVMESH_MAX_CORRIDOR, &opened, why))
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: %s", why);
    for (uint32_t t = 0; t < n->tile_count; t++)
        if (!(*rc)->navmesh_add_tile(opened, n->tile_data + n->tile_offsets[t],
                                     (int)(n->tile_offsets[t + 1] - n->tile_offsets[t]), why)) {
            (*rc)->navmesh_close(opened);
            return wm_error(ctx, WM_ERR_CORRUPT, "navmesh: tile %u: %s", t, why);
        }
    n->detour = opened;
    return WM_OK;
}

static void to_recast(const float p[3], float out[3])
{
    out[0] = p[0], out[1] = p[2], out[2] = -p[1];
}

static void from_recast(const float p[3], float out[3])
{
    out[0] = p[0], out[1] = -p[2], out[2] = p[1];
}

typedef struct query_setup {
    unsigned short flags;
    float extents[3]; /* Recast space */
} query_setup;

static query_setup setup_of(const wm_navmesh_query *q)
{
    query_setup s = {0xffff, {2.0f, 4.0f, 2.0f}};
    if (!q)
        return s;
    s.flags = q->include_flags ? q->include_flags : 0xffff;
    const int axis[3] = {0, 2, 1};
    for (int k = 0; k < 3; k++)
        if (q->search[k] > 0 && q->search[k] <= WM_COORD_LIMIT) /* NaN and beyond: the default */
            s.extents[axis[k]] = q->search[k];
    return s;
}

static wm_result check_point(wm_ctx *ctx, const float at[3], const char *which)
{
    for (int k = 0; k < 3; k++)
        if (!navmesh_in_range(at[k]))
            return wm_error(ctx, WM_ERR_INVALID, "navmesh: the %s point's coordinate %g is not finite or beyond %g",
                            which, (double)at[k], (double)WM_COORD_LIMIT);
    return WM_OK;
}

static wm_result require_near(wm_ctx *ctx, const wmrc_functions *rc, wm_navmesh *n, const query_setup *s,
                              const float at[3], const char *which)
{
    if (check_point(ctx, at, which))
        return WM_ERR_INVALID;
    float p[3], nearest[3];
    to_recast(at, p);
    int found = 0;
    wmrc_poly_id id;
    char why[WMRC_WHY] = "";
    if (!rc->nearest_poly(n->detour, p, s->extents, s->flags, &found, &id, nearest, why))
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: %s", why);
    if (!found)
        return wm_error(ctx, WM_ERR_INVALID,
                        "navmesh: no polygon within %g x %g (and %g up or down) of the %s point (%g, %g, %g)",
                        (double)s->extents[0], (double)s->extents[2], (double)s->extents[1], which, (double)at[0],
                        (double)at[1], (double)at[2]);
    return WM_OK;
}

wm_result wm_navmesh_nearest(wm_ctx *ctx, wm_navmesh *n, const wm_navmesh_query *query, const float at[3], int *found,
                             wm_navmesh_poly *poly, float point[3])
{
    const wmrc_functions *rc;
    wm_result r = navmesh_open_detour(ctx, n, &rc);
    if (r)
        return r;
    query_setup s = setup_of(query);
    if (check_point(ctx, at, "query"))
        return WM_ERR_INVALID;
    float p[3], nearest[3];
    to_recast(at, p);
    wmrc_poly_id id;
    char why[WMRC_WHY] = "";
    if (!rc->nearest_poly(n->detour, p, s.extents, s.flags, found, &id, nearest, why))
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: %s", why);
    if (*found) {
        poly->tile_x = id.tile_x, poly->tile_y = id.tile_y, poly->poly = (uint32_t)id.poly;
        from_recast(nearest, point);
    }
    return WM_OK;
}

wm_result wm_navmesh_find_path(wm_ctx *ctx, wm_navmesh *n, const wm_navmesh_query *query, const float from[3],
                               const float to[3], float **points, uint32_t *point_count, int *complete)
{
    *points = NULL, *point_count = 0, *complete = 0;
    const wmrc_functions *rc;
    wm_result r = navmesh_open_detour(ctx, n, &rc);
    query_setup s = setup_of(query);
    if (!r)
        r = require_near(ctx, rc, n, &s, from, "start");
    if (!r)
        r = require_near(ctx, rc, n, &s, to, "end");
    float *corners = r ? NULL : wm_alloc_array(ctx, (size_t)NAVMESH_MAX_CORRIDOR * 3, sizeof(float));
    if (r || !corners)
        return r ? r : WM_ERR_NOMEM;
    float a[3], b[3];
    to_recast(from, a), to_recast(to, b);
    int count = 0;
    char why[WMRC_WHY] = "";
    if (!rc->find_path(n->detour, a, b, s.extents, s.flags, NAVMESH_MAX_CORRIDOR, corners, NAVMESH_MAX_CORRIDOR, &count,
                       complete, why)) {
        wm_free(ctx, corners);
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: %s", why);
    }
    for (int i = 0; i < count; i++) {
        float p[3];
        from_recast(corners + 3 * i, p);
        memcpy(corners + 3 * i, p, sizeof p);
    }
    *points = corners, *point_count = (uint32_t)count;
    return WM_OK;
}

wm_result wm_navmesh_reachable(wm_ctx *ctx, wm_navmesh *n, const wm_navmesh_query *query, const float from[3],
                               wm_navmesh_poly **polys, uint32_t *count)
{
    *polys = NULL, *count = 0;
    const wmrc_functions *rc;
    wm_result r = navmesh_open_detour(ctx, n, &rc);
    query_setup s = setup_of(query);
    if (!r)
        r = require_near(ctx, rc, n, &s, from, "start");
    wmrc_poly_id *ids = r ? NULL : wm_alloc_array(ctx, (size_t)n->poly_count + 1, sizeof *ids);
    if (r || !ids)
        return r ? r : WM_ERR_NOMEM;
    float a[3];
    to_recast(from, a);
    int found = 0;
    char why[WMRC_WHY] = "";
    if (!rc->reachable(n->detour, a, s.extents, s.flags, ids, (int)n->poly_count, &found, why)) {
        wm_free(ctx, ids);
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: %s", why);
    }
    wm_navmesh_poly *out = wm_alloc_array(ctx, (size_t)found + 1, sizeof *out);
    if (!out) {
        wm_free(ctx, ids);
        return WM_ERR_NOMEM;
    }
    for (int i = 0; i < found && i < (int)n->poly_count; i++)
        out[i].tile_x = ids[i].tile_x, out[i].tile_y = ids[i].tile_y, out[i].poly = (uint32_t)ids[i].poly;
    wm_free(ctx, ids);
    *polys = out, *count = (uint32_t)(found < (int)n->poly_count ? found : (int)n->poly_count);
    return WM_OK;
}

void wm_navmesh_query_point(wm_navmesh_query *query, int has_z, float point[3])
{
    if (has_z)
        return;
    point[2] = WM_COORD_LIMIT / 4;
    query->search[2] = WM_COORD_LIMIT / 2;
}

wm_result wm_navmesh_route(wm_ctx *ctx, wm_navmesh *navmesh, const wm_navmesh_query *query, const float from[3],
                           const float to[3], wm_route *out)
{
    memset(out, 0, sizeof *out);
    float *points = NULL;
    uint32_t count = 0;
    int complete = 0;
    wm_result r = wm_navmesh_find_path(ctx, navmesh, query, from, to, &points, &count, &complete);
    if (r || !complete || count == 0) {
        wm_free(ctx, points);
        return r;
    }
    out->points = points, out->count = count, out->found = 1;
    for (uint32_t i = 1; i < count; i++) {
        const float *a = points + 3 * (size_t)(i - 1), *b = points + 3 * (size_t)i;
        out->length += sqrt((double)(b[0] - a[0]) * (b[0] - a[0]) + (double)(b[1] - a[1]) * (b[1] - a[1]) +
                            (double)(b[2] - a[2]) * (b[2] - a[2]));
        out->plan_length += hypot((double)b[0] - a[0], (double)b[1] - a[1]);
    }
    return WM_OK;
}
