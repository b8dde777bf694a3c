/* The cutter's side table (piece sides by their corners and base, for the
 * piece across a side) and its outline sides that flips never cross: the
 * layer both the piece queries (bake_pieces.c) and the flips (bake_flip.c)
 * stand on. */
#include "bake_pieces_internal.h"

#include <string.h>

double bake_orient(const float *a, const float *b, double px, double py)
{
    return ((double)b[0] - a[0]) * (py - a[1]) - ((double)b[1] - a[1]) * (px - a[0]);
}

/* A slot in 0 .. capacity - 1 (any capacity: the table is sized to what it holds, not to a power of two). */
static uint32_t hash3(uint32_t a, uint32_t b, uint32_t c, uint32_t capacity)
{
    uint64_t h = ((uint64_t)a << 32 | b) * 0x9E3779B97F4A7C15ull ^ (uint64_t)c * 0xC2B2AE3D27D4EB4Full;
    return (uint32_t)(((h >> 32) * capacity) >> 32);
}

static uint32_t edge_slot(const bake_pieces *p, uint32_t from, uint32_t to, uint32_t base)
{
    uint32_t i = hash3(from, to, base, p->edge_capacity);
    while (p->edges[i].piece != NWN2_NONE32 &&
           (p->edges[i].from != from || p->edges[i].to != to || p->edges[i].base != base))
        i = i + 1 == p->edge_capacity ? 0 : i + 1;
    return i;
}

/* Whether entry e still names a side of its piece (flips and splits leave stale entries). */
static int side_live(const nwn2_aswm *a, const struct piece_edge *e)
{
    if (e->piece == NWN2_NONE32 || e->piece >= a->triangle_count || a->triangles[e->piece].edge[1] != e->base)
        return 0;
    const uint32_t *v = a->triangles[e->piece].v;
    for (int k = 0; k < 3; k++)
        if (v[k] == e->from && v[(k + 1) % 3] == e->to)
            return 1;
    return 0;
}

wm_result bake_pieces_grow_sides(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, uint32_t more)
{
    if ((uint64_t)(p->edge_count + more) * 2 <= p->edge_capacity)
        return WM_OK;
    /* stale entries are dropped on the way: the table follows the live sides, not the flips made */
    uint32_t live = 0;
    for (uint32_t i = 0; i < p->edge_capacity; i++)
        live += side_live(a, &p->edges[i]);
    /* a third full: the next pass comes after another half of the live sides */
    const uint64_t cap = 3ull * (live + more) + 64;
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
    p->edge_count = live;
    for (uint32_t i = 0; i < old_cap; i++)
        if (side_live(a, &old[i]))
            p->edges[edge_slot(p, old[i].from, old[i].to, old[i].base)] = old[i];
    wm_free(ctx, old);
    return WM_OK;
}

void bake_pieces_put_sides(bake_pieces *p, const nwn2_aswm *a, uint32_t t)
{
    const nwn2_triangle *tri = &a->triangles[t];
    for (int k = 0; k < 3; k++) {
        uint32_t from = tri->v[k], to = tri->v[(k + 1) % 3], i = edge_slot(p, from, to, tri->edge[1]);
        if (p->edges[i].piece == NWN2_NONE32)
            p->edge_count++;
        p->edges[i] = (struct piece_edge){from, to, tri->edge[1], t};
    }
}

uint32_t bake_pieces_with_side(const bake_pieces *p, const nwn2_aswm *a, uint32_t from, uint32_t to, uint32_t base)
{
    const uint32_t n = p->edge_capacity ? p->edges[edge_slot(p, from, to, base)].piece : NWN2_NONE32;
    if (n == NWN2_NONE32 || n >= a->triangle_count || a->triangles[n].edge[1] != base)
        return NWN2_NONE32;
    const uint32_t *v = a->triangles[n].v;
    for (int k = 0; k < 3; k++)
        if (v[k] == from && v[(k + 1) % 3] == to)
            return n;
    return NWN2_NONE32; /* that side was split or flipped since */
}

uint32_t bake_pieces_across(const bake_pieces *p, const nwn2_aswm *a, uint32_t t, uint32_t u, uint32_t w)
{
    return bake_pieces_with_side(p, a, w, u, a->triangles[t].edge[1]);
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
    wm_result r = bake_pieces_grow_sides(ctx, p, a, 3 * (count + (n - first)));
    for (uint32_t i = 0; !r && i < count; i++)
        bake_pieces_put_sides(p, a, changed->index[i]);
    for (uint32_t t = first; !r && t < n; t++)
        bake_pieces_put_sides(p, a, t);
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
