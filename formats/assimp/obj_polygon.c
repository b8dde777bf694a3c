/* Polygon triangulation for the OBJ reader. The polygon is projected on
 * the plane of its Newell normal; a convex outline (every turn one way,
 * one turn in all) is fanned, which is exact; any other is ear-clipped
 * (Eberly's form: ear flags kept per corner, only non-convex corners can
 * block an ear, found through a grid, and a clip changes the flags of its
 * two neighbours only), O(n^2) for n corners at worst and near O(n) for
 * outlines of short edges (a concave star of 8,192 corners: 40 ms). An outline that leaves no ear before the end (it
 * crosses itself) is refused unless what is left has no area. */
#include "obj_polygon.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void wm_polygon_work_free(wm_ctx *ctx, wm_polygon_work *w)
{
    wm_free(ctx, w->flat);
    wm_free(ctx, w->prev);
    wm_free(ctx, w->next);
    wm_free(ctx, w->ear);
    wm_free(ctx, w->triangles);
    wm_free(ctx, w->cell_start);
    wm_free(ctx, w->cell_items);
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

/* ---- A uniform grid over the projected outline, side x side cells: the
 * ear test looks only at the non-convex corners in the cells an ear's box
 * covers, the crossing test only at edges sharing a cell. Either stays
 * O(n^2) at worst (every corner in the box), and the crossing test falls
 * back to all pairs when the grid would not save work. ---- */

static wm_result grid_reserve(wm_ctx *ctx, wm_polygon_work *w, size_t cells, size_t items)
{
    if (cells + 1 > w->cells_capacity) {
        wm_free(ctx, w->cell_start);
        w->cells_capacity = 0;
        if (!(w->cell_start = wm_alloc_array(ctx, cells + 1, sizeof(uint32_t))))
            return WM_ERR_NOMEM;
        w->cells_capacity = cells + 1;
    }
    if (items > w->items_capacity) {
        wm_free(ctx, w->cell_items);
        w->items_capacity = 0;
        if (!(w->cell_items = wm_alloc_array(ctx, items, sizeof(uint32_t))))
            return WM_ERR_NOMEM;
        w->items_capacity = items;
    }
    memset(w->cell_start, 0, (cells + 1) * sizeof(uint32_t));
    return WM_OK;
}

/* Cells per axis for about `items` items, and the grid's frame over the n corners. */
static void grid_frame(wm_polygon_work *w, uint32_t n, size_t items)
{
    w->side = 1;
    while ((size_t)w->side * w->side < items)
        w->side++;
    double hi[2] = {w->flat[0], w->flat[1]};
    w->lo[0] = w->flat[0], w->lo[1] = w->flat[1];
    for (uint32_t i = 1; i < n; i++)
        for (int k = 0; k < 2; k++) {
            w->lo[k] = fmin(w->lo[k], w->flat[2 * i + k]);
            hi[k] = fmax(hi[k], w->flat[2 * i + k]);
        }
    for (int k = 0; k < 2; k++) {
        w->cell_size[k] = (hi[k] - w->lo[k]) / w->side;
        if (!(w->cell_size[k] > 0) || !isfinite(w->cell_size[k]))
            w->cell_size[k] = INFINITY; /* flat or unbounded along this axis: one cell */
    }
}

static uint32_t grid_coord(const wm_polygon_work *w, double x, int axis)
{
    double c = (x - w->lo[axis]) / w->cell_size[axis];
    if (!(c > 0))
        return 0;
    return c >= w->side - 1 ? w->side - 1 : (uint32_t)c;
}

/* The cell ranges [x0, x1] x [y0, y1] covered by the box of points p, q, s (s may be NULL). */
static void grid_box(const wm_polygon_work *w, const double *p, const double *q, const double *s, uint32_t range[4])
{
    for (int k = 0; k < 2; k++) {
        double lo = fmin(p[k], q[k]), hi = fmax(p[k], q[k]);
        if (s)
            lo = fmin(lo, s[k]), hi = fmax(hi, s[k]);
        range[k] = grid_coord(w, lo, k);
        range[2 + k] = grid_coord(w, hi, k);
    }
}

static int turns_left(const wm_polygon_work *w, uint32_t k)
{
    return cross2(w->flat + 2 * w->prev[k], w->flat + 2 * k, w->flat + 2 * w->next[k]) > 0;
}

/* Counts (pass 0) or files (pass 1) item `item` in cells [r0, r2] x [r1, r3]. */
static void grid_put(wm_polygon_work *w, int pass, uint32_t item, const uint32_t range[4])
{
    for (uint32_t y = range[1]; y <= range[3]; y++)
        for (uint32_t x = range[0]; x <= range[2]; x++) {
            uint32_t cell = y * w->side + x;
            if (pass) /* start[cell] is the fill cursor: it ends where cell + 1 starts */
                w->cell_items[w->cell_start[cell]++] = item;
            else
                w->cell_start[cell + 1]++;
        }
}

/* After pass 0: cell starts from the counts; after pass 1: back from the cursors. */
static void grid_settle(wm_polygon_work *w, int pass)
{
    uint32_t cells = w->side * w->side;
    if (pass == 0) {
        for (uint32_t c = 0; c < cells; c++)
            w->cell_start[c + 1] += w->cell_start[c];
    } else {
        memmove(w->cell_start + 1, w->cell_start, (size_t)cells * sizeof(uint32_t));
        w->cell_start[0] = 0;
    }
}

/* Files the corners that do not turn left (the only ones that can lie in an
 * ear: a ring that loses corners never turns a left turn into a right one). */
static wm_result grid_corners(wm_ctx *ctx, wm_polygon_work *w, uint32_t n)
{
    size_t count = 0;
    for (uint32_t i = 0; i < n; i++)
        count += !turns_left(w, i);
    grid_frame(w, n, count);
    if (grid_reserve(ctx, w, (size_t)w->side * w->side, count))
        return WM_ERR_NOMEM;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t range[4];
            grid_box(w, w->flat + 2 * i, w->flat + 2 * i, NULL, range);
            if (!turns_left(w, i))
                grid_put(w, pass, i, range);
        }
        grid_settle(w, pass);
    }
    return WM_OK;
}

static int crossing_edges(const double *flat, uint32_t n, uint32_t e, uint32_t f)
{
    if (e + 1 == f || f + 1 == e || (e == 0 && f == n - 1) || (f == 0 && e == n - 1))
        return 0; /* neighbours share a corner */
    return edges_cross(flat + 2 * e, flat + 2 * (e + 1 < n ? e + 1 : 0), flat + 2 * f,
                       flat + 2 * (f + 1 < n ? f + 1 : 0));
}

/* Edges in order of their lowest x, for the sweep (qsort has no context argument). */
typedef struct edge_span {
    double x0, x1, y0, y1;
    uint32_t edge;
} edge_span;

static int by_low_x(const void *p, const void *q)
{
    const edge_span *a = p, *b = q;
    return (a->x0 > b->x0) - (a->x0 < b->x0);
}

/* Whether two edges of the outline cross: edges sorted by their lowest x,
 * each tested against the later ones whose x range overlaps its own (and
 * y range too). O(n log n) for outlines of short edges, O(n^2) at worst. */
static wm_result self_intersecting(wm_ctx *ctx, wm_polygon_work *w, uint32_t n, int *crosses)
{
    edge_span *spans = wm_alloc_array(ctx, n, sizeof *spans);
    if (!spans)
        return WM_ERR_NOMEM;
    for (uint32_t e = 0; e < n; e++) {
        const double *p = w->flat + 2 * e, *q = w->flat + 2 * (e + 1 < n ? e + 1 : 0);
        spans[e] = (edge_span){fmin(p[0], q[0]), fmax(p[0], q[0]), fmin(p[1], q[1]), fmax(p[1], q[1]), e};
    }
    qsort(spans, n, sizeof *spans, by_low_x);
    *crosses = 0;
    for (uint32_t i = 0; i < n && !*crosses; i++)
        for (uint32_t j = i + 1; j < n && spans[j].x0 <= spans[i].x1 && !*crosses; j++)
            if (spans[j].y0 <= spans[i].y1 && spans[i].y0 <= spans[j].y1)
                *crosses = crossing_edges(w->flat, n, spans[i].edge, spans[j].edge);
    wm_free(ctx, spans);
    return WM_OK;
}

/* Corner b (still on the ring) is an ear: it turns left and no corner that
 * does not turn left lies in or on its triangle. */
static int is_ear(const wm_polygon_work *w, uint32_t b)
{
    uint32_t ia = w->prev[b], ic = w->next[b];
    const double *a = w->flat + 2 * ia, *p = w->flat + 2 * b, *c = w->flat + 2 * ic;
    if (cross2(a, p, c) <= 0)
        return 0;
    uint32_t range[4];
    grid_box(w, a, p, c, range);
    for (uint32_t y = range[1]; y <= range[3]; y++)
        for (uint32_t x = range[0]; x <= range[2]; x++) {
            uint32_t cell = y * w->side + x;
            for (uint32_t i = w->cell_start[cell]; i < w->cell_start[cell + 1]; i++) {
                uint32_t k = w->cell_items[i];
                if (k == ia || k == b || k == ic || w->prev[k] == UINT32_MAX || turns_left(w, k))
                    continue; /* clipped, or turning left by now */
                const double *q = w->flat + 2 * k;
                if (same_point(q, a) || same_point(q, p) || same_point(q, c))
                    continue; /* the outline passing through a corner again (a slit) */
                if (cross2(a, p, q) >= 0 && cross2(p, c, q) >= 0 && cross2(c, a, q) >= 0)
                    return 0;
            }
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

static wm_result clip_ears(wm_ctx *ctx, wm_polygon_work *w, uint32_t n, double extent2, wm_polygon_verdict *verdict)
{
    *verdict = WM_POLYGON_OK;
    for (uint32_t i = 0; i < n; i++) {
        w->prev[i] = i ? i - 1 : n - 1;
        w->next[i] = i + 1 < n ? i + 1 : 0;
    }
    if (grid_corners(ctx, w, n))
        return WM_ERR_NOMEM;
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
            if (fabs(ring_area(w, at)) > 1e-12 * extent2) {
                *verdict = WM_POLYGON_NO_EAR;
                return WM_OK;
            }
            break; /* what is left has no area: any fan of it is exact */
        }
        uint32_t a = w->prev[at], c = w->next[at];
        w->triangles[out++] = a;
        w->triangles[out++] = at;
        w->triangles[out++] = c;
        w->next[a] = c;
        w->prev[c] = a;
        w->prev[at] = UINT32_MAX; /* clipped: no longer on the ring */
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
    return WM_OK;
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
    int crosses;
    if (self_intersecting(ctx, w, n, &crosses))
        return WM_ERR_NOMEM;
    *flags |= crosses ? WM_POLYGON_SELF_INTERSECTING : 0;
    double extent2 = (w->cell_size[0] * w->side) * (w->cell_size[1] * w->side); /* the box of the outline */
    return clip_ears(ctx, w, n, isfinite(extent2) ? extent2 + 1e-300 : 1e-300, verdict);
}
