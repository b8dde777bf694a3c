/* The cutter's Delaunay flips (see bake_pieces.h; the side table they
 * read and write is bake_piece_sides.c). A corner inserted into a big
 * piece joins it to the piece's far corners; without flips the next corners of a dense outline
 * land in those long pieces and fan them again, and every outline edge then
 * crosses many of them (4,000 corners on fh_settlement: 87,000 pieces).
 * Flipping the sides facing the new corner while the far vertex lies in the
 * circle of the piece keeps the pieces near the outline short. */
#include "bake_pieces_internal.h"

#include <math.h>

static int on_segment_side(const float *v, const double q0[2], const double q1[2])
{
    double dx = q1[0] - q0[0], dy = q1[1] - q0[1], len = hypot(dx, dy);
    if (!(len > 0))
        return 0;
    double across = (dx * (v[1] - q0[1]) - dy * (v[0] - q0[0])) / len;
    double along = (dx * (v[0] - q0[0]) + dy * (v[1] - q0[1])) / len;
    return fabs(across) <= 1e-4 && along >= -1e-4 && along <= len + 1e-4;
}

static wm_result fix_sides_of(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, uint32_t t, const double q0[2],
                              const double q1[2])
{
    const uint32_t *v = a->triangles[t].v;
    int on[3];
    for (int k = 0; k < 3; k++)
        on[k] = on_segment_side(&a->vertices[3 * (size_t)v[k]], q0, q1);
    wm_result r = WM_OK;
    for (int k = 0; k < 3 && !r; k++)
        if (on[k] && on[(k + 1) % 3])
            r = bake_pieces_fix(ctx, p, v[k], v[(k + 1) % 3]);
    return r;
}

wm_result bake_pieces_fix_segment(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, const bake_subset *changed,
                                  uint32_t first, const double q0[2], const double q1[2])
{
    wm_result r = WM_OK;
    for (uint32_t i = 0; !r && i < changed->count; i++)
        r = fix_sides_of(ctx, p, a, changed->index[i], q0, q1);
    for (uint32_t t = first; !r && t < a->triangle_count; t++)
        r = fix_sides_of(ctx, p, a, t, q0, q1);
    return r;
}

/* Whether d lies inside the circle through a, b, c (either turning). */
static int in_circle(const float *a, const float *b, const float *c, const float *d)
{
    double ax = (double)a[0] - d[0], ay = (double)a[1] - d[1], bx = (double)b[0] - d[0], by = (double)b[1] - d[1];
    double cx = (double)c[0] - d[0], cy = (double)c[1] - d[1];
    double det = (ax * ax + ay * ay) * (bx * cy - cx * by) - (bx * bx + by * by) * (ax * cy - cx * ay) +
                 (cx * cx + cy * cy) * (ax * by - bx * ay);
    double turn = bake_orient(a, b, c[0], c[1]);
    return turn > 0 ? det > 1e-12 : turn < 0 ? det < -1e-12 : 0;
}

/* Flips the side of t facing its vertex P when that makes it more
 * Delaunay; returns the piece across it (flipped too) or NONE. */
static uint32_t flip_facing(bake_pieces *p, nwn2_aswm *a, uint32_t t, uint32_t P)
{
    uint32_t *v = a->triangles[t].v;
    int k = v[0] == P ? 0 : v[1] == P ? 1 : v[2] == P ? 2 : -1;
    if (k < 0)
        return NWN2_NONE32;
    const uint32_t u = v[(k + 1) % 3], w = v[(k + 2) % 3];
    if (bake_pieces_fixed(p, u, w))
        return NWN2_NONE32;
    const uint32_t n = bake_pieces_across(p, a, t, u, w);
    if (n == NWN2_NONE32)
        return NWN2_NONE32;
    uint32_t *nv = a->triangles[n].v, x = nv[0] != u && nv[0] != w ? nv[0] : nv[1] != u && nv[1] != w ? nv[1] : nv[2];
    const float *pp = &a->vertices[3 * (size_t)P], *pu = &a->vertices[3 * (size_t)u], *pw = &a->vertices[3 * (size_t)w],
                *px = &a->vertices[3 * (size_t)x];
    const double turn = bake_orient(pp, pu, pw[0], pw[1]);
    const double t1 = bake_orient(pp, pu, px[0], px[1]), t2 = bake_orient(pp, px, pw[0], pw[1]);
    if (!in_circle(pp, pu, pw, px) || !(turn > 0 ? t1 > 1e-12 && t2 > 1e-12 : t1 < -1e-12 && t2 < -1e-12))
        return NWN2_NONE32;
    v[0] = P, v[1] = u, v[2] = x;
    nv[0] = P, nv[1] = x, nv[2] = w;
    bake_pieces_put_sides(p, a, t);
    bake_pieces_put_sides(p, a, n);
    return n;
}

wm_result bake_pieces_update(wm_ctx *ctx, bake_pieces *p, nwn2_aswm *a, const bake_subset *changed, uint32_t first,
                             uint32_t flip_from)
{
    wm_result r = bake_pieces_enter(ctx, p, a, changed, first);
    if (r || flip_from == NWN2_NONE32)
        return r;
    /* stack of (piece, new vertex) whose facing side may flip */
    p->queue.count = 0;
    const uint32_t count = changed ? changed->count : 0;
    for (uint32_t i = 0; !r && i < count + (a->triangle_count - first); i++) {
        const uint32_t t = i < count ? changed->index[i] : first + (i - count);
        for (int k = 0; !r && k < 3; k++)
            if (a->triangles[t].v[k] >= flip_from) {
                if (bake_grow(ctx, (void **)&p->queue.index, &p->queue.capacity, p->queue.count + 2,
                              sizeof *p->queue.index))
                    return WM_ERR_NOMEM;
                p->queue.index[p->queue.count++] = t;
                p->queue.index[p->queue.count++] = a->triangles[t].v[k];
            }
    }
    r = bake_pieces_grow_sides(ctx, p, a, 64 + 6 * p->queue.count);
    for (uint64_t budget = 64 + 16ull * p->queue.count; !r && p->queue.count && budget; budget--) {
        const uint32_t P = p->queue.index[--p->queue.count], t = p->queue.index[--p->queue.count];
        const uint32_t n = flip_facing(p, a, t, P);
        if (n == NWN2_NONE32)
            continue;
        if (bake_grow(ctx, (void **)&p->queue.index, &p->queue.capacity, p->queue.count + 4, sizeof *p->queue.index))
            return WM_ERR_NOMEM;
        p->queue.index[p->queue.count++] = t;
        p->queue.index[p->queue.count++] = P;
        p->queue.index[p->queue.count++] = n;
        p->queue.index[p->queue.count++] = P;
        r = bake_pieces_grow_sides(ctx, p, a, 6);
    }
    return r;
}
