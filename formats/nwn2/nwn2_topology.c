/* Derived ASWM data recomputed from vertices and triangle vertex indices:
 * edges and neighbours, centres, normals and plane distances. */
#include "nwn2_compact.h"
#include "wm_platform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A side of a triangle is named by 3 x triangle + slot (below 2^32: the
 * caller checks): 4 bytes a side; its vertices are read from the triangle. */
static uint32_t tri_of(uint32_t side)
{
    return side / 3;
}

static uint32_t slot_of(uint32_t side)
{
    return side % 3;
}

/* Triangle t's vertices: stored, or the compact walkmesh's. */
static void verts(const nwn2_sides *s, uint32_t t, uint32_t v[3])
{
    if (s->v)
        memcpy(v, &s->v[t * s->tri_stride], 3 * sizeof *v);
    else
        nwn2_compact_verts(s->compact, t, v);
}

/* The side's vertices, low first. */
static void side_ends(const nwn2_sides *s, uint32_t side, uint32_t *lo, uint32_t *hi)
{
    uint32_t v[3];
    verts(s, side / 3, v);
    const uint32_t k = side % 3, p = v[k], q = v[(k + 1) % 3];
    *lo = p < q ? p : q;
    *hi = p < q ? q : p;
}

static int key_cmp(const void *pa, const void *pb)
{
    const uint64_t x = *(const uint64_t *)pa, y = *(const uint64_t *)pb;
    return (x > y) - (x < y);
}

#define PAIR_HINT_LIMIT 64
/* How many free sides a side without input triangle looks at for a mate. */
#define PAIR_SCAN_LIMIT 64

/* Two triangles on the same three vertices (duplicates, which toolset files
 * hold): never each other's neighbour. */
static int duplicates(const nwn2_sides *s, uint32_t ta, uint32_t tb)
{
    uint32_t a[3], b[3];
    verts(s, ta, a);
    verts(s, tb, b);
    for (int i = 0; i < 3; i++)
        if (a[i] != b[0] && a[i] != b[1] && a[i] != b[2])
            return 0;
    return 1;
}

static const uint32_t *hint_of(const nwn2_sides *s, uint32_t t)
{
    return &s->hint[(s->hint_by_origin ? s->origin[t] : t) * s->hint_stride];
}

/* Whether the input linked triangles t and u (both input triangles). */
static int input_linked(const nwn2_sides *s, uint32_t t, uint32_t u)
{
    const uint32_t *origin = s->origin;
    if (!origin || origin[t] == NWN2_NONE32 || origin[u] == NWN2_NONE32)
        return 0;
    const uint32_t *nt = hint_of(s, t), *nu = hint_of(s, u);
    return (nt[0] == origin[u] || nt[1] == origin[u] || nt[2] == origin[u]) &&
           (nu[0] == origin[t] || nu[1] == origin[t] || nu[2] == origin[t]);
}

/* Pairs the sides of one vertex pair h[0..n). Two sides: linked. More (a
 * non-manifold edge): sides whose triangles were linked in the input are
 * paired first (hints: origin[t] = input index, with the input's neighbours);
 * sides without input triangle are then paired in order.
 * A triangle is never paired with its duplicate unless the input did. */
static void pair_group(const uint32_t *h, uint32_t n, const nwn2_sides *s, uint32_t *mate)
{
    for (uint32_t i = 0; i < n; i++)
        mate[i] = NWN2_NONE32;
    if (n == 2) {
        if (tri_of(h[0]) != tri_of(h[1]) &&
            (!duplicates(s, tri_of(h[0]), tri_of(h[1])) || input_linked(s, tri_of(h[0]), tri_of(h[1])))) {
            mate[0] = 1;
            mate[1] = 0;
        }
        return;
    }
    /* Real non-manifold edges have three or four sides; the input's links are only
     * consulted up to a small bound so a hostile edge shared by thousands of
     * triangles costs linear time (its sides are then paired in order). */
    const uint32_t *hints = n <= PAIR_HINT_LIMIT ? s->origin : NULL;
    for (uint32_t i = 0; i < n && hints; i++) {
        uint32_t oi = hints[tri_of(h[i])];
        for (uint32_t j = i + 1; j < n && mate[i] == NWN2_NONE32 && oi != NWN2_NONE32; j++) {
            uint32_t oj = hints[tri_of(h[j])];
            if (mate[j] != NWN2_NONE32 || oj == NWN2_NONE32 || tri_of(h[i]) == tri_of(h[j]))
                continue;
            if (input_linked(s, tri_of(h[i]), tri_of(h[j]))) {
                mate[i] = j;
                mate[j] = i;
            }
        }
    }
    /* Each free side takes the next free side that is no duplicate of it,
     * among the next PAIR_SCAN_LIMIT free ones (real edges have at most four
     * sides). When a side finds none at all, every later free side is a
     * duplicate of it, so none of them pairs either: stop (g copies of one
     * triangle cost O(g), not O(g^2)). */
    for (uint32_t i = 0; i < n; i++) {
        if (mate[i] != NWN2_NONE32 || (hints && hints[tri_of(h[i])] != NWN2_NONE32))
            continue;
        uint32_t looked = 0, free_after = 0;
        for (uint32_t j = i + 1; j < n && looked < PAIR_SCAN_LIMIT; j++) {
            if (mate[j] != NWN2_NONE32 || (hints && hints[tri_of(h[j])] != NWN2_NONE32))
                continue;
            free_after = 1;
            looked++;
            if (tri_of(h[i]) != tri_of(h[j]) && !duplicates(s, tri_of(h[i]), tri_of(h[j]))) {
                mate[i] = j;
                mate[j] = i;
                break;
            }
        }
        if (!free_after || (mate[i] == NWN2_NONE32 && looked < PAIR_SCAN_LIMIT))
            break;
    }
}

/* The sides (3 x triangle + slot) bucketed by low vertex in triangle order:
 * a counting sort, the sides made from the triangles in both passes. */
static uint32_t *sides_by_low_vertex(wm_ctx *ctx, const nwn2_sides *s, size_t sides)
{
    uint32_t *side = wm_realloc_array(ctx, NULL, sides ? sides : 1, sizeof *side); /* written in full: not zeroed */
    uint32_t *start = wm_alloc_array(ctx, (size_t)s->vertex_count + 1, sizeof *start);
    if (!side || !start) {
        wm_free(ctx, side);
        wm_free(ctx, start);
        return NULL;
    }
    uint32_t lo, hi;
    for (uint32_t k = 0; k < sides; k++) {
        side_ends(s, k, &lo, &hi);
        start[lo + 1]++;
    }
    for (uint32_t v = 0; v < s->vertex_count; v++)
        start[v + 1] += start[v];
    for (uint32_t k = 0; k < sides; k++) {
        side_ends(s, k, &lo, &hi);
        side[start[lo]++] = k;
    }
    wm_free(ctx, start);
    return side;
}

/* The end of the run of sides from i that share side i's low vertex (and
 * its high one too, with both). */
static uint32_t run_end(const nwn2_sides *s, const uint32_t *side, uint32_t i, uint32_t sides, int both)
{
    uint32_t lo, hi, lo2, hi2, j = i + 1;
    side_ends(s, side[i], &lo, &hi);
    while (j < sides && (side_ends(s, side[j], &lo2, &hi2), lo2 == lo && (!both || hi2 == hi)))
        j++;
    return j;
}

/* Scratch room for n elements, kept from run to run (freed by the caller);
 * NULL when out of memory. */
static void *scratch_room(wm_ctx *ctx, void **scratch, size_t *room, size_t n, size_t elem)
{
    if (n > *room) {
        n = n < 64 ? 64 : n;
        void *grown = wm_realloc_array(ctx, *scratch, n, elem);
        if (!grown)
            return NULL;
        *scratch = grown;
        *room = n;
    }
    return *scratch;
}

/* Each low vertex's bucket sorted by (high vertex, side). Buckets are short
 * in real meshes, but a fan around one vertex can hold them all, so no
 * quadratic sort; the keys are made in a scratch as long as the longest. */
static wm_result sort_buckets(wm_ctx *ctx, const nwn2_sides *s, uint32_t *side, uint32_t sides)
{
    void *scratch = NULL;
    size_t room = 0;
    wm_result r = WM_OK;
    for (uint32_t i = 0, j; i < sides && !r; i = j) {
        j = run_end(s, side, i, sides, 0);
        uint64_t *key = scratch_room(ctx, &scratch, &room, j - i, sizeof *key);
        if (!key) {
            r = WM_ERR_NOMEM;
            break;
        }
        for (uint32_t k = i; k < j; k++) {
            uint32_t lo, hi;
            side_ends(s, side[k], &lo, &hi);
            key[k - i] = (uint64_t)hi << 32 | side[k];
        }
        if (j - i > 1)
            qsort(key, j - i, sizeof *key, key_cmp);
        for (uint32_t k = i; k < j; k++)
            side[k] = (uint32_t)key[k - i];
    }
    wm_free(ctx, scratch);
    return r;
}

/* Side h's edge is ne, its neighbour other (written at once unless its
 * triangle holds the input's links, which later groups read: those come from
 * the edges afterwards). */
static void give_side(const nwn2_sides *s, uint32_t h, uint32_t ne, uint32_t other)
{
    const uint32_t t = tri_of(h);
    s->edge[t * s->tri_stride + slot_of(h)] = ne;
    if (s->neighbour && (!s->origin || s->origin[t] == NWN2_NONE32))
        s->neighbour[t * s->tri_stride + slot_of(h)] = other;
}

/* Emits the edges of one (low, high) group in side order (a pair once, at
 * its first side) and gives each side its edge. */
static uint32_t emit_group(const nwn2_sides *s, const uint32_t *h, uint32_t n, const uint32_t *mate, uint32_t ne)
{
    uint32_t lo, hi;
    side_ends(s, h[0], &lo, &hi);
    for (uint32_t k = 0; k < n; k++) {
        if (mate[k] != NWN2_NONE32 && mate[k] < k)
            continue; /* emitted with its mate */
        const uint32_t t = tri_of(h[k]), other = mate[k] == NWN2_NONE32 ? NWN2_NONE32 : tri_of(h[mate[k]]);
        if (s->edge_v) {
            s->edge_v[ne * s->edge_stride] = lo;
            s->edge_v[ne * s->edge_stride + 1] = hi;
        }
        s->edge_tri[ne * s->edge_stride] = t;
        s->edge_tri[ne * s->edge_stride + 1] = other;
        give_side(s, h[k], ne, other);
        if (other != NWN2_NONE32)
            give_side(s, h[mate[k]], ne, t);
        ne++;
    }
    return ne;
}

/* Pairs every (low, high) group of the sorted sides and numbers the edges;
 * *count gets how many. The sides' pages are given back as they are done
 * (side is not read afterwards). */
static wm_result pair_and_number(wm_ctx *ctx, const nwn2_sides *s, const uint32_t *side, uint32_t sides,
                                 uint32_t *count)
{
    void *scratch = NULL;
    size_t room = 0;
    uint32_t ne = 0, done = 0;
    wm_result r = WM_OK;
    for (uint32_t i = 0, j; i < sides; i = j) {
        j = run_end(s, side, i, sides, 1);
        uint32_t *mate = scratch_room(ctx, &scratch, &room, j - i, sizeof *mate);
        if (!mate) {
            r = WM_ERR_NOMEM;
            break;
        }
        pair_group(&side[i], j - i, s, mate);
        ne = emit_group(s, &side[i], j - i, mate, ne);
        if (j - done >= (1u << 16)) { /* the sides behind are done: given back as the edges grow */
            wm_platform_release_pages(&side[done], (size_t)(j - done) * sizeof *side);
            done = j;
        }
    }
    wm_free(ctx, scratch);
    *count = ne;
    return r;
}

/* Neighbours of the triangles that held the input's links, from their edges;
 * then each triangle's slots in ascending edge order, as the toolset stores them. */
static void finish_slots(const nwn2_sides *s)
{
    for (uint32_t t = 0; t < s->triangle_count; t++) {
        uint32_t *edge = &s->edge[t * s->tri_stride];
        uint32_t *nb = s->neighbour ? &s->neighbour[t * s->tri_stride] : NULL;
        for (int k = 0; nb && s->origin && s->origin[t] != NWN2_NONE32 && k < 3; k++) {
            const uint32_t *et = &s->edge_tri[edge[k] * s->edge_stride];
            nb[k] = et[0] == t ? et[1] : et[0];
        }
        for (int i = 1; i < 3; i++)
            for (int k = i; k > 0 && edge[k - 1] > edge[k]; k--) {
                uint32_t e = edge[k];
                edge[k] = edge[k - 1];
                edge[k - 1] = e;
                if (nb) {
                    uint32_t n = nb[k];
                    nb[k] = nb[k - 1];
                    nb[k - 1] = n;
                }
            }
    }
}

wm_result nwn2_sides_rebuild(wm_ctx *ctx, const nwn2_sides *s, uint32_t *count)
{
    const uint64_t sides = 3ull * s->triangle_count;
    if (sides > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "%u triangles: too many edges", s->triangle_count);
    /* Sorted by (low, high, triangle, slot); 4 bytes a side, its vertices read
     * from the triangles, and no mate array: the pairs are numbered as found */
    uint32_t *side = sides_by_low_vertex(ctx, s, (size_t)sides);
    if (!side)
        return WM_ERR_NOMEM;
    wm_result r = sort_buckets(ctx, s, side, (uint32_t)sides);
    if (!r)
        r = pair_and_number(ctx, s, side, (uint32_t)sides, count);
    wm_free(ctx, side);
    if (!r)
        finish_slots(s);
    return r;
}

wm_result nwn2_aswm_rebuild_edges_hinted(wm_ctx *ctx, nwn2_aswm *a, const uint32_t *origin)
{
    const uint64_t sides = 3ull * a->triangle_count;
    if (sides > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "%u triangles: too many edges", a->triangle_count);
    /* written in full before being read: no zeroing (at most one edge a side) */
    nwn2_edge *edges = wm_realloc_array(ctx, NULL, sides ? (size_t)sides : 1, sizeof *edges);
    if (!edges)
        return WM_ERR_NOMEM;
    nwn2_triangle *tris = a->triangles;
    const size_t stride = sizeof *tris / sizeof(uint32_t), estride = sizeof *edges / sizeof(uint32_t);
    /* the input's links are the triangles' own neighbours, read before they are written */
    const nwn2_sides s = {.triangle_count = a->triangle_count,
                          .vertex_count = a->vertex_count,
                          .v = tris ? tris->v : NULL,
                          .edge = tris ? tris->edge : NULL,
                          .neighbour = tris ? tris->neighbour : NULL,
                          .tri_stride = stride,
                          .origin = origin,
                          .hint = tris ? tris->neighbour : NULL,
                          .hint_stride = stride,
                          .edge_v = edges->v,
                          .edge_tri = edges->tri,
                          .edge_stride = estride};
    uint32_t ne = 0;
    wm_result r = nwn2_sides_rebuild(ctx, &s, &ne);
    if (r) {
        wm_free(ctx, edges);
        return r;
    }
    /* not shrunk: the room past the last edge was never touched (address space
     * only), and realloc copied the edges of a large walkmesh to shrink them */
    wm_free(ctx, a->edges);
    a->edges = edges;
    a->edge_count = ne;
    return WM_OK;
}

wm_result nwn2_aswm_rebuild_edges(wm_ctx *ctx, nwn2_aswm *a)
{
    return nwn2_aswm_rebuild_edges_hinted(ctx, a, NULL);
}

double nwn2_triangle_sliver(const nwn2_aswm *a, uint32_t t)
{
    const nwn2_triangle *tri = &a->triangles[t];
    double p[3][3], longest = 0.0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            p[i][k] = tri->v[i] < a->vertex_count ? a->vertices[3 * (size_t)tri->v[i] + k] : 0.0;
    double u[3], w[3];
    for (int k = 0; k < 3; k++) {
        u[k] = p[1][k] - p[0][k];
        w[k] = p[2][k] - p[0][k];
    }
    for (int i = 0; i < 3; i++) {
        double e = 0.0;
        for (int k = 0; k < 3; k++)
            e += (p[(i + 1) % 3][k] - p[i][k]) * (p[(i + 1) % 3][k] - p[i][k]);
        if (e > longest)
            longest = e;
    }
    double cx = u[1] * w[2] - u[2] * w[1], cy = u[2] * w[0] - u[0] * w[2], cz = u[0] * w[1] - u[1] * w[0];
    double len = sqrt(cx * cx + cy * cy + cz * cz);
    return longest > 0.0 ? len / longest : 0.0;
}

void nwn2_triangle_geometry(const nwn2_aswm *a, uint32_t t, float centre[2], float normal[3], float *d)
{
    const nwn2_triangle *tri = &a->triangles[t];
    nwn2_geometry_of(a->vertices, a->vertex_count, tri->v, tri->flags, centre, normal, d);
}

void nwn2_aswm_recompute_geometry(nwn2_aswm *a)
{
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        nwn2_triangle *tri = &a->triangles[t];
        nwn2_triangle_geometry(a, t, tri->centre, tri->normal, &tri->d);
    }
}

static int corners_cmp(const uint32_t *x, const uint32_t *y, int n)
{
    for (int k = 0; k < n; k++)
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    return 0;
}

void nwn2_corner_key_make(nwn2_corner_key *key, const float *positions, const uint32_t v[3], uint32_t index)
{
    uint32_t c[3][3];
    for (int k = 0; k < 3; k++)
        memcpy(c[k], &positions[3 * (size_t)v[k]], sizeof c[k]);
    for (int i = 1; i < 3; i++)
        for (int k = i; k > 0 && corners_cmp(c[k - 1], c[k], 3) > 0; k--) {
            uint32_t x[3];
            memcpy(x, c[k], sizeof x);
            memcpy(c[k], c[k - 1], sizeof x);
            memcpy(c[k - 1], x, sizeof x);
        }
    memcpy(key->p, c, sizeof key->p);
    key->index = index;
}

int nwn2_corner_key_same(const nwn2_corner_key *x, const nwn2_corner_key *y)
{
    return corners_cmp(x->p, y->p, 9) == 0;
}

int nwn2_corner_key_cmp(const void *pa, const void *pb)
{
    const nwn2_corner_key *x = pa, *y = pb;
    int c = corners_cmp(x->p, y->p, 9);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}
