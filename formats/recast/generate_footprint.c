/* Placeable and door walkmeshes (.pwk, .dwk): the model's blocking footprint on the ground as a
 * closed non-walkable shape. The footprint is the convex hull of the model seen from above, grown
 * by the padding: a convex shape needs no polygon clipping library (libpolyclipping's union of
 * the triangles' silhouettes would follow notches, which a placeable's collision does not need:
 * the acceptance bound is 1.5 times the hull's area) and it holds every point of the silhouette. */
#include "wm_generate.h"
#include "wm_surface.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Points around each corner approximating the padding's circle. */
#define PAD_DIRECTIONS 16
#define BWM_HOOK1 "bwm_use_hook1" /* the BWM writer's names for the use points (bwm.h) */
#define BWM_HOOK2 "bwm_use_hook2"

static int by_xy(const void *a, const void *b)
{
    const float *p = a, *q = b;
    return p[0] < q[0] ? -1 : p[0] > q[0] ? 1 : (p[1] > q[1]) - (p[1] < q[1]);
}

static double turn(const float *o, const float *a, const float *b)
{
    return (double)(a[0] - o[0]) * (b[1] - o[1]) - (double)(a[1] - o[1]) * (b[0] - o[0]);
}

/* Andrew's monotone chain over n points (2 floats each, sorted here): the hull counter-clockwise
 * into hull (room for n + 1 points); returns its corner count. */
static size_t convex_hull(float *points, size_t n, float *hull)
{
    qsort(points, n, 2 * sizeof(float), by_xy);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        while (k >= 2 && turn(hull + 2 * (k - 2), hull + 2 * (k - 1), points + 2 * i) <= 0)
            k--;
        memcpy(hull + 2 * k++, points + 2 * i, 2 * sizeof(float));
    }
    for (size_t i = n - 1, lower = k + 1; i-- > 0;) {
        while (k >= lower && turn(hull + 2 * (k - 2), hull + 2 * (k - 1), points + 2 * i) <= 0)
            k--;
        memcpy(hull + 2 * k++, points + 2 * i, 2 * sizeof(float));
    }
    return k > 1 ? k - 1 : k;
}

static wm_result footprint_shape(wm_ctx *ctx, const wm_mesh *m, float padding, float **hull, size_t *corners)
{
    size_t n = (size_t)m->vertex_count * (padding > 0 ? PAD_DIRECTIONS : 1);
    float *points = wm_alloc_array(ctx, 2 * n, sizeof(float));
    *hull = wm_alloc_array(ctx, 2 * (n + 1), sizeof(float));
    if (!points || !*hull) {
        wm_free(ctx, points);
        return WM_ERR_NOMEM;
    }
    size_t count = 0;
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        const float *p = m->positions + 3 * (size_t)v;
        for (int d = 0; d < (padding > 0 ? PAD_DIRECTIONS : 1); d++) {
            /* the padding's circle through polygon corners at padding / cos(half step): outside it */
            double angle = 2 * 3.14159265358979 * d / PAD_DIRECTIONS, reach = padding / cos(3.14159265358979 / PAD_DIRECTIONS);
            points[2 * count] = (float)(p[0] + reach * cos(angle));
            points[2 * count + 1] = (float)(p[1] + reach * sin(angle));
            count++;
        }
    }
    *corners = convex_hull(points, count, *hull);
    wm_free(ctx, points);
    return *corners >= 3 ? WM_OK
                         : wm_error(ctx, WM_ERR_INVALID, "generate: the model has no extent seen from above (a footprint "
                                                         "needs an area; give --padding)");
}

wm_result wm_generate_footprint(wm_ctx *ctx, const wm_mesh *render, float padding, const float *hook1,
                                const float *hook2, wm_mesh *out)
{
    if (render->triangle_count == 0)
        return wm_error(ctx, WM_ERR_INVALID, "generate: the input has no triangles");
    if (!isfinite(padding) || padding < 0)
        return wm_error(ctx, WM_ERR_INVALID, "generate: --padding must be a finite number, 0 or more");
    wm_result r = wm_mesh_check_finite(ctx, render);
    if (r)
        return r;
    float lo[3], hi[3], *hull = NULL;
    size_t corners = 0;
    wm_mesh_bounds(render, lo, hi);
    r = footprint_shape(ctx, render, padding, &hull, &corners);
    wm_mesh result;
    wm_mesh_init(&result);
    snprintf(result.name, sizeof result.name, "%s", render->name[0] ? render->name : "footprint");
    uint16_t blocking = wm_surface_named(wm_surfaces(ctx), "nonwalk");
    for (size_t i = 0; !r && i < corners; i++)
        r = wm_mesh_add_vertex(ctx, &result, hull[2 * i], hull[2 * i + 1], lo[2], NULL);
    for (size_t i = 2; !r && i < corners; i++)
        r = wm_mesh_add_triangle(ctx, &result, 0, (uint32_t)(i - 1), (uint32_t)i, blocking, 0);
    /* the use points on either side of the footprint along y, a step beyond it */
    float centre = (lo[0] + hi[0]) / 2, front[3] = {centre, lo[1] - padding - 0.5f, lo[2]},
          back[3] = {centre, hi[1] + padding + 0.5f, lo[2]};
    if (!r)
        r = wm_mesh_set_point(ctx, &result, BWM_HOOK1, hook1 ? hook1 : front);
    if (!r)
        r = wm_mesh_set_point(ctx, &result, BWM_HOOK2, hook2 ? hook2 : back);
    wm_free(ctx, hull);
    if (r)
        wm_mesh_free(ctx, &result);
    else
        *out = result;
    return r;
}
