/* The cutter's side table, outline sides and Delaunay flips (see
 * bake_pieces.h). A corner inserted into a big piece joins it to the
 * piece's far corners; without flips the next corners of a dense outline
 * land in those long pieces and fan them again, and every outline edge then
 * crosses many of them (4,000 corners on fh_settlement: 87,000 pieces).
 * Flipping the sides facing the new corner while the far vertex lies in the
 * circle of the piece keeps the pieces near the outline short. */
#include "bake_pieces_internal.h"

#include <math.h>
#include <string.h>

static uint32_t hash3(uint32_t a, uint32_t b, uint32_t c, uint32_t mask)
{
    uint64_t h = ((uint64_t)a << 32 | b) * 0x9E3779B97F4A7C15ull ^ (uint64_t)c * 0xC2B2AE3D27D4EB4Full;
    return (uint32_t)(h >> 32) & mask;
}

static uint32_t edge_slot(const bake_pieces *p, uint32_t from, uint32_t to, uint32_t base)
{
    const uint32_t mask = p->edge_capacity - 1;
    uint32_t i = hash3(from, to, base, mask);
    while (p->edges[i].piece != NWN2_NONE32 &&
           (p->edges[i].from != from || p->edges[i].to != to || p->edges[i].base != base))
        i = (i + 1) & mask;
    return i;
}

static wm_result grow_edges(wm_ctx *ctx, bake_pieces *p, uint32_t more)
{
    if ((uint64_t)(p->edge_count + more) * 2 <= p->edge_capacity)
        return WM_OK;
    uint64_t cap = p->edge_capacity ? p->edge_capacity : 64;
    while ((uint64_t)(p->edge_count + more) * 2 > cap)
        cap *= 2;
    if (cap > (1u << 31))
        return wm_error(ctx, WM_ERR_LIMIT, "cutter: too many triangle sides");
    struct piece_edge *old = p->edges;
    const uint32_t old_cap = p->edge_capacity;
    p->edges = wm_alloc_array(ctx, (size_t)cap, sizeof *p->edges);
    if (!p->edges) {
        p->edges = old;
        return WM_ERR_NOMEM;
    }
    memset(p->edges, 0xFF, (size_t)cap * sizeof *p->edges);
    p->edge_capacity = (uint32_t)cap;
    for (uint32_t i = 0; i < old_cap; i++)
        if (old[i].piece != NWN2_NONE32)
            p->edges[edge_slot(p, old[i].from, old[i].to, old[i].base)] = old[i];
    wm_free(ctx, old);
    return WM_OK;
}

static void put_sides(bake_pieces *p, const nwn2_aswm *a, uint32_t t)
{
    const nwn2_triangle *tri = &a->triangles[t];
    for (int k = 0; k < 3; k++) {
        uint32_t from = tri->v[k], to = tri->v[(k + 1) % 3], i = edge_slot(p, from, to, tri->edge[1]);
        if (p->edges[i].piece == NWN2_NONE32)
            p->edge_count++;
        p->edges[i] = (struct piece_edge){from, to, tri->edge[1], t};
    }
}

uint32_t bake_pieces_across(const bake_pieces *p, const nwn2_aswm *a, uint32_t t, uint32_t u, uint32_t w)
{
    const uint32_t base = a->triangles[t].edge[1];
    const uint32_t n = p->edges[edge_slot(p, w, u, base)].piece;
    if (n == NWN2_NONE32 || n >= a->triangle_count || a->triangles[n].edge[1] != base)
        return NWN2_NONE32;
    const uint32_t *v = a->triangles[n].v;
    for (int k = 0; k < 3; k++)
        if (v[k] == w && v[(k + 1) % 3] == u)
            return n;
    return NWN2_NONE32; /* that side was split since */
}

wm_result bake_pieces_enter(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, const bake_subset *changed,
                            uint32_t first)
{
    const uint32_t n = a->triangle_count;
    if (n > p->triangle_room) {
        uint32_t room = p->triangle_room;
        if (bake_grow(ctx, (void **)&p->next, &room, n, sizeof *p->next))
            return WM_ERR_NOMEM;
        uint32_t *seen = wm_realloc_array(ctx, p->seen, room, sizeof *seen);
        if (!seen)
            return WM_ERR_NOMEM;
        memset(seen + p->triangle_room, 0, (size_t)(room - p->triangle_room) * sizeof *seen);
        p->seen = seen;
        p->triangle_room = room;
    }
    const uint32_t count = changed ? changed->count : 0;
    wm_result r = grow_edges(ctx, p, 3 * (count + (n - first)));
    for (uint32_t i = 0; !r && i < count; i++)
        put_sides(p, a, changed->index[i]);
    for (uint32_t t = first; !r && t < n; t++)
        put_sides(p, a, t);
    for (; !r && p->listed < n; p->listed++) {
        const uint32_t t = p->listed, b = a->triangles[t].edge[1];
        p->next[t] = p->head[b];
        p->head[b] = t;
        p->pieces[b]++;
    }
    return r;
}

static uint32_t fixed_slot(const bake_pieces *p, uint64_t key)
{
    const uint32_t mask = p->fixed_capacity - 1;
    uint32_t i = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
    while (p->fixed[i] && p->fixed[i] != key)
        i = (i + 1) & mask;
    return i;
}

static uint64_t side_key(uint32_t u, uint32_t w)
{
    return u < w ? (uint64_t)u << 32 | w : (uint64_t)w << 32 | u;
}

int bake_pieces_fixed(const bake_pieces *p, uint32_t u, uint32_t w)
{
    return p->fixed_capacity && p->fixed[fixed_slot(p, side_key(u, w))];
}

wm_result bake_pieces_fix(wm_ctx *ctx, bake_pieces *p, uint32_t u, uint32_t w)
{
    if ((uint64_t)(p->fixed_count + 1) * 2 > p->fixed_capacity) {
        uint64_t cap = p->fixed_capacity ? 2ull * p->fixed_capacity : 64;
        if (cap > (1u << 31))
            return wm_error(ctx, WM_ERR_LIMIT, "cutter: too many outline sides");
        uint64_t *old = p->fixed;
        const uint32_t old_cap = p->fixed_capacity;
        p->fixed = wm_alloc_array(ctx, (size_t)cap, sizeof *p->fixed);
        if (!p->fixed) {
            p->fixed = old;
            return WM_ERR_NOMEM;
        }
        memset(p->fixed, 0, (size_t)cap * sizeof *p->fixed);
        p->fixed_capacity = (uint32_t)cap;
        for (uint32_t i = 0; i < old_cap; i++)
            if (old[i])
                p->fixed[fixed_slot(p, old[i])] = old[i];
        wm_free(ctx, old);
    }
    const uint64_t key = side_key(u, w);
    const uint32_t i = fixed_slot(p, key);
    if (!p->fixed[i]) {
        p->fixed[i] = key;
        p->fixed_count++;
    }
    return WM_OK;
}

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
    put_sides(p, a, t);
    put_sides(p, a, n);
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
    r = grow_edges(ctx, p, 64 + 6 * p->queue.count);
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
        r = grow_edges(ctx, p, 6);
    }
    return r;
}
