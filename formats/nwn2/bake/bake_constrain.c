/* Making a cutter edge a side of the pieces by flips (Sloan's constrained
 * edge insertion) instead of splitting along it. Splitting a piece along a
 * line puts a vertex on every piece side the line crosses; each of those
 * vertices then joins the far corners of its base, so the next, nearly
 * parallel edge of a spiky outline crosses all of them and splits them
 * again: a base crossed by k spikes ended with about k^2 pieces (a 2,000-point
 * star: 609,734 pieces, 26,671 in one base). Flipping the sides that cross
 * u-w until u-w is a side adds no vertex and no piece, so the pieces of a
 * base stay about as many as the vertices on it: the corners and the points
 * where outline edges cross its rim. */
#include "bake_pieces_internal.h"

#include <math.h>

/* Orientation below this (relative to the lengths involved) counts as on the line. */
#define CROSS_EPS 1e-9

static const float *xy_of(const nwn2_aswm *a, uint32_t v)
{
    return &a->vertices[3 * (size_t)v];
}

/* Whether side (c, d) crosses segment (u, w) at a point inside both. */
static int crosses_properly(const nwn2_aswm *a, uint32_t u, uint32_t w, uint32_t c, uint32_t d)
{
    if (c == u || c == w || d == u || d == w)
        return 0;
    const float *U = xy_of(a, u), *W = xy_of(a, w), *C = xy_of(a, c), *D = xy_of(a, d);
    const double uw = hypot((double)W[0] - U[0], (double)W[1] - U[1]);
    const double cd = hypot((double)D[0] - C[0], (double)D[1] - C[1]);
    const double oc = bake_orient(U, W, C[0], C[1]), od = bake_orient(U, W, D[0], D[1]);
    const double ou = bake_orient(C, D, U[0], U[1]), ow = bake_orient(C, D, W[0], W[1]);
    const double e1 = CROSS_EPS * uw * (uw + cd), e2 = CROSS_EPS * cd * (uw + cd);
    return ((oc > e1 && od < -e1) || (oc < -e1 && od > e1)) && ((ou > e2 && ow < -e2) || (ou < -e2 && ow > e2));
}

static int has_side(const bake_pieces *p, const nwn2_aswm *a, uint32_t u, uint32_t w, uint32_t b)
{
    return bake_pieces_with_side(p, a, u, w, b) != NWN2_NONE32 || bake_pieces_with_side(p, a, w, u, b) != NWN2_NONE32;
}

/* Flips side (c, d) of base b when its two pieces make a strictly convex
 * quadrilateral; 1 with the new side's corners in *x, *y, else 0. */
static int flip_side(bake_pieces *p, nwn2_aswm *a, uint32_t c, uint32_t d, uint32_t b, uint32_t *x_out,
                     uint32_t *y_out)
{
    uint32_t t = bake_pieces_with_side(p, a, c, d, b), n = bake_pieces_with_side(p, a, d, c, b);
    if (t == NWN2_NONE32 || n == NWN2_NONE32 || bake_pieces_fixed(p, c, d))
        return 0;
    const uint32_t *tv = a->triangles[t].v, *nv = a->triangles[n].v;
    const uint32_t x = tv[0] != c && tv[0] != d ? tv[0] : tv[1] != c && tv[1] != d ? tv[1] : tv[2];
    const uint32_t y = nv[0] != c && nv[0] != d ? nv[0] : nv[1] != c && nv[1] != d ? nv[1] : nv[2];
    const float *X = xy_of(a, x), *Y = xy_of(a, y), *C = xy_of(a, c), *D = xy_of(a, d);
    const double xy = hypot((double)Y[0] - X[0], (double)Y[1] - X[1]);
    const double oc = bake_orient(X, Y, C[0], C[1]), od = bake_orient(X, Y, D[0], D[1]);
    const double eps = CROSS_EPS * xy * xy;
    if (!((oc > eps && od < -eps) || (oc < -eps && od > eps)))
        return 0;
    /* t = (c, d, x) and n = (d, c, y) in their turning become (c, y, x) and (y, d, x) */
    nwn2_triangle *T = &a->triangles[t], *N = &a->triangles[n];
    T->v[0] = c, T->v[1] = y, T->v[2] = x;
    N->v[0] = y, N->v[1] = d, N->v[2] = x;
    bake_pieces_put_sides(p, a, t);
    bake_pieces_put_sides(p, a, n);
    *x_out = x;
    *y_out = y;
    return 1;
}

static wm_result push_side(wm_ctx *ctx, bake_subset *q, uint32_t c, uint32_t d)
{
    if (bake_grow(ctx, (void **)&q->index, &q->capacity, q->count + 2, sizeof *q->index))
        return WM_ERR_NOMEM;
    q->index[q->count++] = c;
    q->index[q->count++] = d;
    return WM_OK;
}

/* The sides of `near` (pieces of base b) crossing u-w, each once. */
static wm_result crossing_sides(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, const bake_subset *near, uint32_t u,
                                uint32_t w, uint32_t b, int *rim)
{
    p->queue.count = 0;
    for (uint32_t i = 0; i < near->count; i++) {
        const uint32_t t = near->index[i], *v = a->triangles[t].v;
        if (a->triangles[t].edge[1] != b)
            continue;
        for (int k = 0; k < 3; k++) {
            const uint32_t c = v[k], d = v[(k + 1) % 3];
            if (!crosses_properly(a, u, w, c, d))
                continue;
            if (bake_pieces_across(p, a, t, c, d) == NWN2_NONE32 || bake_pieces_fixed(p, c, d))
                *rim = 1; /* a base rim or an outline: no flip can clear it */
            else if (c < d && push_side(ctx, &p->queue, c, d))
                return WM_ERR_NOMEM;
        }
    }
    return WM_OK;
}

static wm_result bake_constrain_side(wm_ctx *ctx, bake_pieces *p, nwn2_aswm *a, const bake_subset *near, uint32_t u,
                              uint32_t w, uint32_t b, int *made)
{
    *made = 0;
    if (u == w)
        return WM_OK;
    int rim = 0;
    wm_result r = crossing_sides(ctx, p, a, near, u, w, b, &rim);
    if (r || rim)
        return r;
    const uint32_t k = p->queue.count / 2;
    r = bake_pieces_grow_sides(ctx, p, a, 6 * k + 6);
    /* Sloan: a side that cannot flip yet goes to the back; each flip removes
     * a crossing or moves it on. The budget keeps a hostile case linear: past
     * it the caller splits along the edge instead (the pieces stay valid). */
    uint64_t budget = 16ull * k + 64;
    for (uint32_t head = 0; !r && head < p->queue.count && budget; budget--) {
        const uint32_t c = p->queue.index[head], d = p->queue.index[head + 1];
        head += 2;
        uint32_t x, y;
        if (!flip_side(p, a, c, d, b, &x, &y)) {
            if (crosses_properly(a, u, w, c, d) && (bake_pieces_with_side(p, a, c, d, b) != NWN2_NONE32))
                r = push_side(ctx, &p->queue, c, d);
            continue;
        }
        r = bake_pieces_grow_sides(ctx, p, a, 6);
        if (!r && crosses_properly(a, u, w, x, y))
            r = push_side(ctx, &p->queue, x, y);
        if (head > 1024 && 2 * head > p->queue.count) { /* drop what is done */
            for (uint32_t i = head; i < p->queue.count; i++)
                p->queue.index[i - head] = p->queue.index[i];
            p->queue.count -= head;
            head = 0;
        }
    }
    if (!r)
        *made = has_side(p, a, u, w, b);
    return r;
}

/* Whether (x, y) lies in base b (its rim included, to a hair). */
static int base_holds(const bake_pieces *p, uint32_t b, double x, double y)
{
    const double *xy = &p->base_xy[6 * (size_t)b];
    double o[3], area = (xy[2] - xy[0]) * (xy[5] - xy[1]) - (xy[3] - xy[1]) * (xy[4] - xy[0]);
    if (area == 0)
        return 0;
    for (int k = 0; k < 3; k++) {
        const double *s = &xy[2 * k], *e = &xy[2 * ((k + 1) % 3)];
        o[k] = ((e[0] - s[0]) * (y - s[1]) - (e[1] - s[1]) * (x - s[0])) / area;
    }
    return o[0] >= -1e-12 && o[1] >= -1e-12 && o[2] >= -1e-12;
}

/* The vertex of base b's pieces nearest (x, y), within CORNER_REACH; NONE if none.
 * The one noted when the point was made, else searched. */
static wm_result vertex_near(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, uint32_t b, const double at[2],
                             const corner_vertices *noted, uint32_t *out)
{
    for (uint32_t i = 0; i < noted->count; i++)
        if (noted->base[i] == b && noted->vertex[i] != NWN2_NONE32) {
            *out = noted->vertex[i];
            return WM_OK;
        }
    *out = NWN2_NONE32;
    wm_result r = bake_pieces_near_point(ctx, p, a, at[0], at[1], BAKE_CORNER_REACH);
    double best = BAKE_CORNER_REACH;
    for (uint32_t i = 0; !r && i < p->found.count; i++) {
        const uint32_t t = p->found.index[i];
        if (a->triangles[t].edge[1] != b)
            continue;
        for (int k = 0; k < 3; k++) {
            const float *v = xy_of(a, a->triangles[t].v[k]);
            const double d = hypot(v[0] - at[0], v[1] - at[1]);
            if (d <= best) {
                best = d;
                *out = a->triangles[t].v[k];
            }
        }
    }
    return r;
}

wm_result bake_constrain_edge(wm_ctx *ctx, bake_pieces *p, nwn2_aswm *a, const double from[2], const double to[2],
                              const corner_vertices *at_from, const corner_vertices *at_to, int *made)
{
    *made = 1;
    const double mid[2] = {(from[0] + to[0]) / 2, (from[1] + to[1]) / 2};
    wm_result r = bake_grid_box(ctx, &p->grid, mid, mid);
    uint32_t bases[8], count = 0;
    for (uint32_t i = 0; !r && i < p->grid.found.count; i++) {
        const uint32_t b = p->grid.found.index[i];
        if (!base_holds(p, b, mid[0], mid[1]))
            continue;
        if (count == 8) { /* many levels stacked here: let the caller split */
            *made = 0;
            return WM_OK;
        }
        bases[count++] = b;
    }
    for (uint32_t i = 0; !r && i < count && *made; i++) {
        uint32_t u, w;
        p->only_base = bases[i]; /* the neighbours' rims touch both ends: never search them */
        r = vertex_near(ctx, p, a, bases[i], from, at_from, &u);
        if (!r)
            r = vertex_near(ctx, p, a, bases[i], to, at_to, &w);
        if (!r && u == w && u != NWN2_NONE32 && hypot(to[0] - from[0], to[1] - from[1]) <= 2 * BAKE_CORNER_REACH)
            continue; /* both ends at one vertex: nothing to cut */
        if (r || u == NWN2_NONE32 || w == NWN2_NONE32 || u == w) {
            *made = 0;
            break;
        }
        if (has_side(p, a, u, w, bases[i]))
            r = bake_pieces_fix(ctx, p, u, w);
        else if (!(r = bake_pieces_on_segment(ctx, p, a, from, to)))
            r = bake_constrain_side(ctx, p, a, &p->found, u, w, bases[i], made);
        if (!r && *made)
            r = bake_pieces_fix(ctx, p, u, w);
    }
    p->only_base = NWN2_NONE32;
    return r;
}
