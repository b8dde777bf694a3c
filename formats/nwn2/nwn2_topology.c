/* Derived ASWM data recomputed from vertices and triangle vertex indices:
 * edges and neighbours, centres, normals and plane distances. */
#include "nwn2.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One side of a triangle: its vertices low first, and 3 x triangle + slot
 * (below 2^32: the caller checks) rather than two words, 12 bytes a side. */
typedef struct half_edge {
    uint32_t lo, hi, side;
} half_edge;

static uint32_t tri_of(half_edge e)
{
    return e.side / 3;
}

static uint32_t slot_of(half_edge e)
{
    return e.side % 3;
}

/* By (low, high, triangle, slot): side grows with (triangle, slot). */
static int half_edge_cmp(const void *pa, const void *pb)
{
    const half_edge *x = pa, *y = pb;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return x->side < y->side ? -1 : (x->side > y->side);
}

#define PAIR_HINT_LIMIT 64
/* How many free sides a side without input triangle looks at for a mate. */
#define PAIR_SCAN_LIMIT 64

/* Two triangles on the same three vertices (duplicates, which toolset files
 * hold): never each other's neighbour. */
static int duplicates(const nwn2_triangle *a, const nwn2_triangle *b)
{
    for (int i = 0; i < 3; i++)
        if (a->v[i] != b->v[0] && a->v[i] != b->v[1] && a->v[i] != b->v[2])
            return 0;
    return 1;
}

/* Whether the input linked triangles t and u (both input triangles). */
static int input_linked(const uint32_t *origin, const nwn2_triangle *tris, uint32_t t, uint32_t u)
{
    if (!origin || origin[t] == NWN2_NONE32 || origin[u] == NWN2_NONE32)
        return 0;
    const uint32_t *nt = tris[t].neighbour, *nu = tris[u].neighbour;
    return (nt[0] == origin[u] || nt[1] == origin[u] || nt[2] == origin[u]) &&
           (nu[0] == origin[t] || nu[1] == origin[t] || nu[2] == origin[t]);
}

/* Pairs the sides of one vertex pair h[i..j). Two sides: linked. More (a
 * non-manifold edge): sides whose triangles were linked in the input are
 * paired first (hints: origin[t] = input index, t's neighbour[] = input
 * neighbours); sides without input triangle are then paired in order.
 * A triangle is never paired with its duplicate unless the input did. */
static void pair_group(const half_edge *h, uint32_t n, const uint32_t *origin, const nwn2_triangle *tris,
                       uint32_t *mate)
{
    for (uint32_t i = 0; i < n; i++)
        mate[i] = NWN2_NONE32;
    if (n == 2) {
        if (tri_of(h[0]) != tri_of(h[1]) && (!duplicates(&tris[tri_of(h[0])], &tris[tri_of(h[1])]) ||
                                     input_linked(origin, tris, tri_of(h[0]), tri_of(h[1])))) {
            mate[0] = 1;
            mate[1] = 0;
        }
        return;
    }
    /* Real non-manifold edges have three or four sides; the input's links are only
     * consulted up to a small bound so a hostile edge shared by thousands of
     * triangles costs linear time (its sides are then paired in order). */
    const uint32_t *hints = n <= PAIR_HINT_LIMIT ? origin : NULL;
    for (uint32_t i = 0; i < n && hints; i++) {
        uint32_t oi = hints[tri_of(h[i])];
        for (uint32_t j = i + 1; j < n && mate[i] == NWN2_NONE32 && oi != NWN2_NONE32; j++) {
            uint32_t oj = hints[tri_of(h[j])];
            if (mate[j] != NWN2_NONE32 || oj == NWN2_NONE32 || tri_of(h[i]) == tri_of(h[j]))
                continue;
            if (input_linked(hints, tris, tri_of(h[i]), tri_of(h[j]))) {
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
            if (tri_of(h[i]) != tri_of(h[j]) && !duplicates(&tris[tri_of(h[i])], &tris[tri_of(h[j])])) {
                mate[i] = j;
                mate[j] = i;
                break;
            }
        }
        if (!free_after || (mate[i] == NWN2_NONE32 && looked < PAIR_SCAN_LIMIT))
            break;
    }
}

/* Calls emit(k, mate or NONE) once per edge: for each vertex pair in
 * (low, high) order, each pair of sides (or single side) in side order. */
static uint32_t for_each_edge(const half_edge *h, uint32_t sides, const uint32_t *mate, nwn2_aswm *a,
                              nwn2_edge *edges)
{
    uint32_t ne = 0;
    for (uint32_t i = 0; i < sides;) {
        uint32_t j = i + 1;
        while (j < sides && h[j].lo == h[i].lo && h[j].hi == h[i].hi)
            j++;
        for (uint32_t k = i; k < j; k++) {
            if (mate[k] != NWN2_NONE32 && mate[k] < k - i)
                continue; /* emitted with its mate */
            uint32_t m = mate[k] == NWN2_NONE32 ? NWN2_NONE32 : i + mate[k];
            uint32_t other = m == NWN2_NONE32 ? NWN2_NONE32 : tri_of(h[m]);
            if (edges) {
                edges[ne] = (nwn2_edge){{h[k].lo, h[k].hi}, {tri_of(h[k]), other}};
            } else {
                a->triangles[tri_of(h[k])].edge[slot_of(h[k])] = ne;
                a->triangles[tri_of(h[k])].neighbour[slot_of(h[k])] = other;
                if (m != NWN2_NONE32) {
                    a->triangles[other].edge[slot_of(h[m])] = ne;
                    a->triangles[other].neighbour[slot_of(h[m])] = tri_of(h[k]);
                }
            }
            ne++;
        }
        i = j;
    }
    return ne;
}

/* Side k of triangle t, its vertices low first. */
static half_edge side_of(const nwn2_aswm *a, uint32_t t, uint32_t k)
{
    uint32_t p = a->triangles[t].v[k], q = a->triangles[t].v[(k + 1) % 3];
    return (half_edge){p < q ? p : q, p < q ? q : p, 3 * t + k};
}

wm_result nwn2_aswm_rebuild_edges_hinted(wm_ctx *ctx, nwn2_aswm *a, const uint32_t *origin)
{
    const uint64_t sides = 3ull * a->triangle_count;
    if (sides > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "%u triangles: too many edges", a->triangle_count);
    /* h, edges and mate are written in full before being read: no zeroing */
    half_edge *h = wm_realloc_array(ctx, NULL, sides ? (size_t)sides : 1, sizeof *h);
    uint32_t *start = wm_alloc_array(ctx, (size_t)a->vertex_count + 1, sizeof *start);
    if (!h || !start) {
        wm_free(ctx, h);
        wm_free(ctx, start);
        return WM_ERR_NOMEM;
    }
    /* Sorted by (low, high, triangle, slot): a counting sort on the low vertex,
     * then each low vertex's bucket sorted on its own. Buckets are short in real
     * meshes, but a fan around one vertex can hold them all, so no quadratic sort.
     * The half-edges are made from the triangles in each pass, not kept unsorted. */
    for (uint32_t t = 0; t < a->triangle_count; t++)
        for (uint32_t k = 0; k < 3; k++)
            start[side_of(a, t, k).lo + 1]++;
    for (uint32_t v = 0; v < a->vertex_count; v++)
        start[v + 1] += start[v];
    for (uint32_t t = 0; t < a->triangle_count; t++)
        for (uint32_t k = 0; k < 3; k++) {
            half_edge e = side_of(a, t, k);
            h[start[e.lo]++] = e;
        }
    wm_free(ctx, start);
    nwn2_edge *edges = wm_realloc_array(ctx, NULL, sides ? (size_t)sides : 1, sizeof *edges);
    uint32_t *mate = wm_realloc_array(ctx, NULL, sides ? (size_t)sides : 1, sizeof *mate);
    if (!edges || !mate) {
        wm_free(ctx, h);
        wm_free(ctx, edges);
        wm_free(ctx, mate);
        return WM_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < sides;) {
        uint32_t j = i + 1;
        while (j < sides && h[j].lo == h[i].lo)
            j++;
        if (j - i > 1)
            qsort(&h[i], j - i, sizeof *h, half_edge_cmp);
        i = j;
    }
    for (uint32_t i = 0; i < sides;) {
        uint32_t j = i + 1;
        while (j < sides && h[j].lo == h[i].lo && h[j].hi == h[i].hi)
            j++;
        pair_group(&h[i], j - i, origin, a->triangles, &mate[i]);
        i = j;
    }
    /* Edges first, slots last: pair_group reads the hints in neighbour[]. */
    uint32_t ne = for_each_edge(h, (uint32_t)sides, mate, a, edges);
    for_each_edge(h, (uint32_t)sides, mate, a, NULL);
    wm_free(ctx, mate);
    wm_free(ctx, h);
    /* Each triangle's slots in ascending edge order, as the toolset stores them. */
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        nwn2_triangle *tri = &a->triangles[t];
        for (int i = 1; i < 3; i++)
            for (int k = i; k > 0 && tri->edge[k - 1] > tri->edge[k]; k--) {
                uint32_t e = tri->edge[k], n = tri->neighbour[k];
                tri->edge[k] = tri->edge[k - 1];
                tri->neighbour[k] = tri->neighbour[k - 1];
                tri->edge[k - 1] = e;
                tri->neighbour[k - 1] = n;
            }
    }
    nwn2_edge *shrunk = wm_realloc_array(ctx, edges, ne ? ne : 1, sizeof *edges);
    if (shrunk)
        edges = shrunk;
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
    double p[3][3];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            p[i][k] = tri->v[i] < a->vertex_count ? a->vertices[3 * (size_t)tri->v[i] + k] : 0.0;
    double u[3], w[3], n[3];
    for (int k = 0; k < 3; k++) {
        u[k] = p[1][k] - p[0][k];
        w[k] = p[2][k] - p[0][k];
    }
    n[0] = u[1] * w[2] - u[2] * w[1];
    n[1] = u[2] * w[0] - u[0] * w[2];
    n[2] = u[0] * w[1] - u[1] * w[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double sign = (tri->flags & NWN2_TRI_CLOCKWISE) ? -1.0 : 1.0;
    for (int k = 0; k < 3; k++)
        n[k] = len > 0.0 ? sign * n[k] / len : (k == 0 ? 1.0 : 0.0); /* the toolset's placeholder */
    centre[0] = (float)((p[0][0] + p[1][0] + p[2][0]) / 3.0);
    centre[1] = (float)((p[0][1] + p[1][1] + p[2][1]) / 3.0);
    for (int k = 0; k < 3; k++)
        normal[k] = (float)n[k];
    *d = (float)-(n[0] * p[0][0] + n[1] * p[0][1] + n[2] * p[0][2]);
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
