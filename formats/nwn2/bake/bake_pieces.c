/* The cutter's bases, pieces and walks (see bake_pieces.h). */
#include "bake_pieces_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A seed point counts as in the piece a walk ended in within this distance. */
#define WALK_TOLERANCE 1e-4
/* How much of the segment's neighbourhood a search over pieces follows. */
#define SEGMENT_TOLERANCE 1e-4

/* The squared distance (no square root: these tests run for every piece a search meets). */
static double point_segment_distance2(double px, double py, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    double u = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    const double ex = px - (ax + u * dx), ey = py - (ay + u * dy);
    return ex * ex + ey * ey;
}

/* Whether (x, y) lies within tol of the triangle with corners xy[0..5]. */
static int near_triangle(const double xy[6], double x, double y, double tol)
{
    double o[3], area = (xy[2] - xy[0]) * (xy[5] - xy[1]) - (xy[3] - xy[1]) * (xy[4] - xy[0]);
    for (int k = 0; k < 3; k++) {
        const double *a = &xy[2 * k], *b = &xy[2 * ((k + 1) % 3)];
        o[k] = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
    }
    if (area != 0 && (area > 0 ? o[0] >= 0 && o[1] >= 0 && o[2] >= 0 : o[0] <= 0 && o[1] <= 0 && o[2] <= 0))
        return 1;
    for (int k = 0; k < 3; k++) {
        const double *a = &xy[2 * k], *b = &xy[2 * ((k + 1) % 3)];
        if (point_segment_distance2(x, y, a[0], a[1], b[0], b[1]) <= tol * tol)
            return 1;
    }
    return 0;
}

static int segments_cross(const double *a, const double *b, const double *c, const double *d)
{
    double o1 = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    double o2 = (b[0] - a[0]) * (d[1] - a[1]) - (b[1] - a[1]) * (d[0] - a[0]);
    double o3 = (d[0] - c[0]) * (a[1] - c[1]) - (d[1] - c[1]) * (a[0] - c[0]);
    double o4 = (d[0] - c[0]) * (b[1] - c[1]) - (d[1] - c[1]) * (b[0] - c[0]);
    return ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0));
}

/* Whether the segment q0-q1 comes within tol of the triangle xy[0..5]. */
static int segment_meets(const double xy[6], const double q0[2], const double q1[2], double tol)
{
    if (near_triangle(xy, q0[0], q0[1], tol) || near_triangle(xy, q1[0], q1[1], tol))
        return 1;
    for (int k = 0; k < 3; k++) {
        const double *a = &xy[2 * k], *b = &xy[2 * ((k + 1) % 3)];
        if (segments_cross(a, b, q0, q1) ||
            point_segment_distance2(a[0], a[1], q0[0], q0[1], q1[0], q1[1]) <= tol * tol)
            return 1;
    }
    return 0;
}

static void piece_xy(const nwn2_aswm *a, uint32_t t, double xy[6])
{
    for (int k = 0; k < 3; k++) {
        xy[2 * k] = a->vertices[3 * (size_t)a->triangles[t].v[k]];
        xy[2 * k + 1] = a->vertices[3 * (size_t)a->triangles[t].v[k] + 1];
    }
}

static double base_area(const bake_pieces *p, uint32_t b)
{
    const double *xy = &p->base_xy[6 * (size_t)b];
    return (xy[2] - xy[0]) * (xy[5] - xy[1]) - (xy[3] - xy[1]) * (xy[4] - xy[0]);
}

wm_result bake_pieces_init(wm_ctx *ctx, bake_pieces *p, nwn2_aswm *a)
{
    memset(p, 0, sizeof *p);
    const uint32_t n = a->triangle_count;
    p->base_count = n;
    p->base_xy = wm_alloc_array(ctx, (size_t)(n ? n : 1) * 6, sizeof *p->base_xy);
    p->hint = wm_alloc_array(ctx, n ? n : 1, sizeof *p->hint);
    p->head = wm_alloc_array(ctx, n ? n : 1, sizeof *p->head);
    p->pieces = wm_alloc_array(ctx, n ? n : 1, sizeof *p->pieces);
    if (!p->base_xy || !p->hint || !p->head || !p->pieces)
        return WM_ERR_NOMEM;
    double lo[2], hi[2];
    bake_grid_extent(a, lo, hi);
    wm_result r = bake_grid_build(ctx, &p->grid, a, lo, hi, 2ull * n, NULL);
    for (uint32_t t = 0; t < n; t++) {
        a->triangles[t].edge[1] = t;
        piece_xy(a, t, &p->base_xy[6 * (size_t)t]);
        p->hint[t] = t;
        p->head[t] = NWN2_NONE32;
        p->pieces[t] = 0;
    }
    p->only_base = NWN2_NONE32;
    return r ? r : bake_pieces_enter(ctx, p, a, NULL, 0);
}

void bake_pieces_free(const wm_ctx *ctx, bake_pieces *p)
{
    bake_grid_free(ctx, &p->grid);
    void *arrays[] = {p->base_xy, p->hint, p->head, p->pieces, p->next, p->seen, p->edges, p->fixed};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        wm_free(ctx, arrays[i]);
    bake_subset_free(ctx, &p->queue);
    bake_subset_free(ctx, &p->found);
    memset(p, 0, sizeof *p);
}

/* The piece of base b holding (x, y), walking from the last one found;
 * NONE when the walk does not end (a side whose far piece was split
 * differently, or a cycle among slivers). */
static uint32_t walk(const bake_pieces *p, const nwn2_aswm *a, uint32_t b, double x, double y)
{
    const double sign = base_area(p, b) > 0 ? 1.0 : -1.0;
    uint32_t t = p->hint[b];
    const uint64_t budget = 4ull * p->pieces[b] + 16;
    for (uint64_t step = 0; step < budget; step++) {
        const uint32_t *v = a->triangles[t].v;
        uint32_t next = NWN2_NONE32;
        for (int k0 = 0; k0 < 3 && next == NWN2_NONE32; k0++) {
            int k = (k0 + (int)(step % 3)) % 3;
            const float *u = &a->vertices[3 * (size_t)v[k]], *w = &a->vertices[3 * (size_t)v[(k + 1) % 3]];
            if (sign * bake_orient(u, w, x, y) < 0)
                next = bake_pieces_across(p, a, t, v[k], v[(k + 1) % 3]);
        }
        if (next == NWN2_NONE32)
            return t;
        t = next;
    }
    return NWN2_NONE32;
}

static wm_result add_found(wm_ctx *ctx, bake_subset *set, uint32_t t)
{
    if (bake_grow(ctx, (void **)&set->index, &set->capacity, set->count + 1, sizeof *set->index))
        return WM_ERR_NOMEM;
    set->index[set->count++] = t;
    return WM_OK;
}

/* The query a search over pieces answers: near a point, or meeting a segment. */
typedef struct piece_query {
    double x, y, pad;      /* point */
    const double *q0, *q1; /* segment, when set */
} piece_query;

static int query_meets(const nwn2_aswm *a, uint32_t t, const piece_query *q)
{
    double xy[6];
    piece_xy(a, t, xy);
    return q->q0 ? segment_meets(xy, q->q0, q->q1, SEGMENT_TOLERANCE) : near_triangle(xy, q->x, q->y, q->pad);
}

/* Every piece of base b the query meets, by its list (the slow way). */
static wm_result scan_base(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, uint32_t b, const piece_query *q)
{
    for (uint32_t t = p->head[b]; t != NWN2_NONE32; t = p->next[t])
        if (query_meets(a, t, q) && add_found(ctx, &p->found, t))
            return WM_ERR_NOMEM;
    return WM_OK;
}

/* The pieces of base b the query meets, searched over neighbours from the
 * piece holding (sx, sy), a point the query meets inside the base. */
static wm_result search_base(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, uint32_t b, double sx, double sy,
                             const piece_query *q)
{
    double xy[6];
    uint32_t t = walk(p, a, b, sx, sy);
    if (t != NWN2_NONE32)
        piece_xy(a, t, xy);
    if (t == NWN2_NONE32 || !near_triangle(xy, sx, sy, WALK_TOLERANCE) || !query_meets(a, t, q))
        return scan_base(ctx, p, a, b, q);
    p->hint[b] = t;
    if (++p->stamp == 0) {
        memset(p->seen, 0, (size_t)p->triangle_room * sizeof *p->seen);
        p->stamp = 1;
    }
    p->queue.count = 0;
    p->seen[t] = p->stamp;
    wm_result r = add_found(ctx, &p->queue, t);
    for (uint32_t i = 0; !r && i < p->queue.count; i++) {
        const uint32_t u = p->queue.index[i], *v = a->triangles[u].v;
        r = add_found(ctx, &p->found, u);
        for (int k = 0; !r && k < 3; k++) {
            uint32_t n = bake_pieces_across(p, a, u, v[k], v[(k + 1) % 3]);
            if (n == NWN2_NONE32 || p->seen[n] == p->stamp)
                continue;
            p->seen[n] = p->stamp;
            if (query_meets(a, n, q))
                r = add_found(ctx, &p->queue, n);
        }
    }
    return r;
}

static int ascending(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static void sort_found(bake_pieces *p)
{
    if (p->found.count > 1)
        qsort(p->found.index, p->found.count, sizeof *p->found.index, ascending);
}

/* The point of base b nearest (x, y). */
static void nearest_in_base(const bake_pieces *p, uint32_t b, double x, double y, double out[2])
{
    const double *xy = &p->base_xy[6 * (size_t)b];
    out[0] = x;
    out[1] = y;
    if (near_triangle(xy, x, y, 0.0))
        return;
    double best = INFINITY;
    for (int k = 0; k < 3; k++) {
        const double *s = &xy[2 * k], *e = &xy[2 * ((k + 1) % 3)];
        double dx = e[0] - s[0], dy = e[1] - s[1], len2 = dx * dx + dy * dy;
        double u = len2 > 0 ? ((x - s[0]) * dx + (y - s[1]) * dy) / len2 : 0.0;
        u = u < 0 ? 0 : u > 1 ? 1 : u;
        double px = s[0] + u * dx, py = s[1] + u * dy, d = hypot(x - px, y - py);
        if (d < best) {
            best = d;
            out[0] = px;
            out[1] = py;
        }
    }
}

wm_result bake_pieces_near_point(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, double x, double y, double pad)
{
    const double lo[2] = {x - pad, y - pad}, hi[2] = {x + pad, y + pad};
    wm_result r = bake_grid_box(ctx, &p->grid, lo, hi);
    p->found.count = 0;
    const piece_query q = {x, y, pad, NULL, NULL};
    for (uint32_t i = 0; !r && i < p->grid.found.count; i++) {
        const uint32_t b = p->grid.found.index[i];
        if ((p->only_base != NWN2_NONE32 && b != p->only_base) || !near_triangle(&p->base_xy[6 * (size_t)b], x, y, pad))
            continue;
        double s[2];
        nearest_in_base(p, b, x, y, s);
        r = base_area(p, b) == 0 ? scan_base(ctx, p, a, b, &q) : search_base(ctx, p, a, b, s[0], s[1], &q);
    }
    sort_found(p);
    return r;
}

/* The part of q0-q1 inside base b, as parameters t0 <= t1; 0 when none. */
int bake_pieces_clip(const bake_pieces *p, uint32_t b, const double q0[2], const double q1[2], double t[2])
{
    const double *xy = &p->base_xy[6 * (size_t)b];
    const double sign = base_area(p, b) > 0 ? 1.0 : -1.0;
    t[0] = 0.0;
    t[1] = 1.0;
    for (int k = 0; k < 3; k++) {
        const double *s = &xy[2 * k], *e = &xy[2 * ((k + 1) % 3)];
        double f0 = sign * ((e[0] - s[0]) * (q0[1] - s[1]) - (e[1] - s[1]) * (q0[0] - s[0]));
        double f1 = sign * ((e[0] - s[0]) * (q1[1] - s[1]) - (e[1] - s[1]) * (q1[0] - s[0]));
        if (f0 < 0 && f1 < 0)
            return 0;
        if (f0 < 0)
            t[0] = fmax(t[0], f0 / (f0 - f1));
        else if (f1 < 0)
            t[1] = fmin(t[1], f0 / (f0 - f1));
    }
    return t[0] <= t[1];
}

int bake_pieces_flat_base(const bake_pieces *p, uint32_t b)
{
    return base_area(p, b) == 0;
}

wm_result bake_pieces_on_segment(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, const double q0[2],
                                 const double q1[2])
{
    wm_result r = bake_grid_segment(ctx, &p->grid, q0, q1, 1e-3);
    p->found.count = 0;
    const piece_query q = {0, 0, 0, q0, q1};
    for (uint32_t i = 0; !r && i < p->grid.found.count; i++) {
        const uint32_t b = p->grid.found.index[i];
        double t[2];
        if (p->only_base != NWN2_NONE32 && b != p->only_base)
            continue;
        if (base_area(p, b) == 0 || !bake_pieces_clip(p, b, q0, q1, t)) {
            if (segment_meets(&p->base_xy[6 * (size_t)b], q0, q1, SEGMENT_TOLERANCE))
                r = scan_base(ctx, p, a, b, &q);
            continue;
        }
        const double m = (t[0] + t[1]) / 2;
        r = search_base(ctx, p, a, b, q0[0] + m * (q1[0] - q0[0]), q0[1] + m * (q1[1] - q0[1]), &q);
    }
    sort_found(p);
    return r;
}

wm_result bake_pieces_in_box(wm_ctx *ctx, bake_pieces *p, const double lo[2], const double hi[2])
{
    wm_result r = bake_grid_box(ctx, &p->grid, lo, hi);
    p->found.count = 0;
    for (uint32_t i = 0; !r && i < p->grid.found.count; i++)
        for (uint32_t t = p->head[p->grid.found.index[i]]; !r && t != NWN2_NONE32; t = p->next[t])
            r = add_found(ctx, &p->found, t);
    return r;
}
