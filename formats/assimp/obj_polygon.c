/* Polygon triangulation for the OBJ reader. The polygon is projected on
 * the plane of its Newell normal; a convex outline (every turn one way,
 * one turn in all) is fanned, which is exact; any other is ear-clipped
 * (Eberly's form: ear flags kept per corner, only non-convex corners can
 * block an ear, and a clip changes the flags of its two neighbours only),
 * O(n^2) for n corners. An outline that leaves no ear before the end (it
 * crosses itself) is refused unless what is left has no area. */
#include "obj_polygon.h"

#include <math.h>
#include <stdlib.h>

void wm_polygon_work_free(wm_ctx *ctx, wm_polygon_work *w)
{
    wm_free(ctx, w->flat);
    wm_free(ctx, w->prev);
    wm_free(ctx, w->next);
    wm_free(ctx, w->ear);
    wm_free(ctx, w->triangles);
    *w = (wm_polygon_work){0};
}

static wm_result reserve(wm_ctx *ctx, wm_polygon_work *w, uint32_t n)
{
    if (n <= w->capacity)
        return WM_OK;
    wm_polygon_work_free(ctx, w);
    w->flat = wm_alloc_array(ctx, 2 * (size_t)n, sizeof(double));
    w->prev = wm_alloc_array(ctx, n, sizeof(uint32_t));
    w->next = wm_alloc_array(ctx, n, sizeof(uint32_t));
    w->ear = wm_alloc_array(ctx, n, 1);
    w->triangles = wm_alloc_array(ctx, 3 * (size_t)n, sizeof(uint32_t));
    if (!w->flat || !w->prev || !w->next || !w->ear || !w->triangles) {
        wm_polygon_work_free(ctx, w);
        return WM_ERR_NOMEM;
    }
    w->capacity = n;
    return WM_OK;
}

/* Signed doubled area of 2-D triangle (p, q, s): positive counter-clockwise. */
static double cross2(const double *p, const double *q, const double *s)
{
    return (q[0] - p[0]) * (s[1] - p[1]) - (q[1] - p[1]) * (s[0] - p[0]);
}

static int same_point(const double *p, const double *q)
{
    return p[0] == q[0] && p[1] == q[1];
}

/* Projects the corners along the largest axis of the Newell normal so the
 * outline runs counter-clockwise; sets *not_planar when a corner lies off
 * the mean plane by more than 1/1000 of the polygon's extent. */
static void project(wm_polygon_work *w, const float *pos, const uint32_t *v, uint32_t n, int *not_planar)
{
    double normal[3] = {0, 0, 0}, centre[3] = {0, 0, 0}, lo[3], hi[3];
    for (int k = 0; k < 3; k++)
        lo[k] = hi[k] = pos[3 * (size_t)v[0] + k];
    for (uint32_t i = 0; i < n; i++) {
        const float *a = pos + 3 * (size_t)v[i], *b = pos + 3 * (size_t)v[i + 1 < n ? i + 1 : 0];
        normal[0] += ((double)a[1] - b[1]) * ((double)a[2] + b[2]);
        normal[1] += ((double)a[2] - b[2]) * ((double)a[0] + b[0]);
        normal[2] += ((double)a[0] - b[0]) * ((double)a[1] + b[1]);
        for (int k = 0; k < 3; k++) {
            centre[k] += a[k] / (double)n;
            lo[k] = a[k] < lo[k] ? a[k] : lo[k];
            hi[k] = a[k] > hi[k] ? a[k] : hi[k];
        }
    }
    int drop = fabs(normal[0]) > fabs(normal[1]) ? (fabs(normal[0]) > fabs(normal[2]) ? 0 : 2)
                                                   : (fabs(normal[1]) > fabs(normal[2]) ? 1 : 2);
    /* (u, t) keeps the projection's winding that of the normal: (y,z), (z,x), (x,y) */
    int u = (drop + 1) % 3, t = (drop + 2) % 3;
    double flip = normal[drop] < 0 ? -1 : 1;
    double length = sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    double extent = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    *not_planar = 0;
    for (uint32_t i = 0; i < n; i++) {
        const float *p = pos + 3 * (size_t)v[i];
        w->flat[2 * i] = p[u];
        w->flat[2 * i + 1] = p[t] * flip;
        double off = 0;
        for (int k = 0; k < 3 && length > 0; k++)
            off += (p[k] - centre[k]) * normal[k] / length;
        if (fabs(off) > 1e-3 * extent)
            *not_planar = 1;
    }
}

/* Convex and simple: no turn clockwise, and the turns add up to one
 * revolution (a star drawn in one stroke turns twice or more). */
static int is_convex(const double *flat, uint32_t n)
{
    double turning = 0;
    int strict = 0;
    for (uint32_t i = 0; i < n; i++) {
        const double *a = flat + 2 * (i ? i - 1 : n - 1), *b = flat + 2 * i, *c = flat + 2 * (i + 1 < n ? i + 1 : 0);
        double turn = cross2(a, b, c);
        if (turn < 0)
            return 0;
        strict |= turn > 0;
        double dot = (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1]);
        turning += atan2(turn, dot);
    }
    return strict && fabs(turning - 6.283185307179586) < 1e-6;
}

/* Whether two edges cross at a point inside both (touching does not count). */
static int edges_cross(const double *a, const double *b, const double *c, const double *d)
{
    double d1 = cross2(a, b, c), d2 = cross2(a, b, d), d3 = cross2(c, d, a), d4 = cross2(c, d, b);
    return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/* O(n^2): only polygons of at most WM_POLYGON_MAX_CONCAVE corners come here. */
static int self_intersecting(const double *flat, uint32_t n)
{
    for (uint32_t i = 0; i + 2 < n; i++) {
        const double *a = flat + 2 * i, *b = flat + 2 * (i + 1);
        for (uint32_t j = i + 2; j < n; j++) {
            if (i == 0 && j == n - 1)
                continue; /* the edge before the first shares its corner */
            if (edges_cross(a, b, flat + 2 * j, flat + 2 * (j + 1 < n ? j + 1 : 0)))
                return 1;
        }
    }
    return 0;
}

/* Corner b (still on the ring) is an ear: it turns left and no other
 * corner that does not turn left lies in or on its triangle. O(ring). */
static int is_ear(const wm_polygon_work *w, uint32_t b)
{
    uint32_t ia = w->prev[b], ic = w->next[b];
    const double *a = w->flat + 2 * ia, *p = w->flat + 2 * b, *c = w->flat + 2 * ic;
    if (cross2(a, p, c) <= 0)
        return 0;
    for (uint32_t k = w->next[ic]; k != ia; k = w->next[k]) {
        const double *q = w->flat + 2 * k;
        if (cross2(w->flat + 2 * w->prev[k], q, w->flat + 2 * w->next[k]) > 0)
            continue; /* a convex corner cannot be the first thing inside an ear */
        if (same_point(q, a) || same_point(q, p) || same_point(q, c))
            continue; /* the outline passing through a corner again (a slit) */
        if (cross2(a, p, q) >= 0 && cross2(p, c, q) >= 0 && cross2(c, a, q) >= 0)
            return 0;
    }
    return 1;
}

/* Doubled area of what is left of the ring, from corner first. */
static double ring_area(const wm_polygon_work *w, uint32_t first)
{
    double area = 0;
    uint32_t k = first;
    do {
        const double *p = w->flat + 2 * k, *q = w->flat + 2 * w->next[k];
        area += p[0] * q[1] - p[1] * q[0];
        k = w->next[k];
    } while (k != first);
    return area;
}

static wm_polygon_verdict clip_ears(wm_polygon_work *w, uint32_t n, double extent2)
{
    for (uint32_t i = 0; i < n; i++) {
        w->prev[i] = i ? i - 1 : n - 1;
        w->next[i] = i + 1 < n ? i + 1 : 0;
    }
    for (uint32_t i = 0; i < n; i++)
        w->ear[i] = (uint8_t)is_ear(w, i);
    uint32_t remaining = n, out = 0, at = 0;
    while (remaining > 3) {
        uint32_t walked = 0;
        while (!w->ear[at] && walked < remaining) {
            at = w->next[at];
            walked++;
        }
        if (!w->ear[at]) {
            if (fabs(ring_area(w, at)) > 1e-12 * extent2)
                return WM_POLYGON_NO_EAR;
            break; /* what is left has no area: any fan of it is exact */
        }
        uint32_t a = w->prev[at], c = w->next[at];
        w->triangles[out++] = a;
        w->triangles[out++] = at;
        w->triangles[out++] = c;
        w->next[a] = c;
        w->prev[c] = a;
        remaining--;
        w->ear[a] = (uint8_t)is_ear(w, a);
        w->ear[c] = (uint8_t)is_ear(w, c);
        at = c;
    }
    for (uint32_t k = w->next[at]; w->next[k] != at; k = w->next[k]) {
        w->triangles[out++] = at;
        w->triangles[out++] = k;
        w->triangles[out++] = w->next[k];
    }
    return WM_POLYGON_OK;
}

wm_result wm_polygon_triangulate(wm_ctx *ctx, wm_polygon_work *w, const float *positions, const uint32_t *corners,
                                 uint32_t n, wm_polygon_verdict *verdict, unsigned *flags)
{
    *flags = 0;
    *verdict = WM_POLYGON_OK;
    if (reserve(ctx, w, n))
        return WM_ERR_NOMEM;
    int not_planar;
    project(w, positions, corners, n, &not_planar);
    *flags |= not_planar ? WM_POLYGON_NOT_PLANAR : 0;
    if (is_convex(w->flat, n)) {
        /* the order the ear clipper always gave convex outlines: around the last corner */
        uint32_t out = 0;
        for (uint32_t i = 0; i + 4 <= n; i++) {
            w->triangles[out++] = n - 1;
            w->triangles[out++] = i;
            w->triangles[out++] = i + 1;
        }
        w->triangles[out++] = n - 3;
        w->triangles[out++] = n - 2;
        w->triangles[out++] = n - 1;
        return WM_OK;
    }
    if (n > WM_POLYGON_MAX_CONCAVE) {
        *verdict = WM_POLYGON_TOO_LARGE;
        return WM_OK;
    }
    *flags |= self_intersecting(w->flat, n) ? WM_POLYGON_SELF_INTERSECTING : 0;
    double lo[2] = {w->flat[0], w->flat[1]}, hi[2] = {w->flat[0], w->flat[1]};
    for (uint32_t i = 1; i < n; i++)
        for (int k = 0; k < 2; k++) {
            lo[k] = fmin(lo[k], w->flat[2 * i + k]);
            hi[k] = fmax(hi[k], w->flat[2 * i + k]);
        }
    *verdict = clip_ears(w, n, (hi[0] - lo[0]) * (hi[1] - lo[1]) + 1e-300);
    return WM_OK;
}
