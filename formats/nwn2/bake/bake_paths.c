/* Tile path tables: for every pair of walkable triangles of a tile, the
 * first step of the shortest path inside the tile.
 *
 * Reproduces the toolset exactly (checked on every entry of the corpus
 * TRX files): Dijkstra from each source node, single-precision costs
 * (2-D distance between stored centres, accumulated in float), nodes
 * settled in order of (distance, node index), strict-improvement
 * relaxation, neighbours visited in triangle slot order. */
#include "bake_internal.h"
#include "bake_heap.h"

#include <math.h>
#include <string.h>

/* The tile's walkable graph: up to 3 neighbours per node, in slot order. */
typedef struct tile_graph {
    uint32_t n;
    uint32_t first;                 /* global index of the tile's first triangle */
    uint32_t count;                 /* the tile's triangles */
    uint32_t local[NWN2_MAX_TILE_NODES];
    uint8_t adj[NWN2_MAX_TILE_NODES][3];
    float cost[NWN2_MAX_TILE_NODES][3];
    uint8_t degree[NWN2_MAX_TILE_NODES];
    /* for line of sight: centres, each side's end points (x0 y0 x1 y1), its
     * squared length and the node beyond it (NWN2_PATH_NONE: none) */
    float centre[NWN2_MAX_TILE_NODES][2];
    float side[NWN2_MAX_TILE_NODES][3][4];
    float side_len2[NWN2_MAX_TILE_NODES][3];
    uint8_t side_node[NWN2_MAX_TILE_NODES][3];
    /* the distinct side end points of each node (3 for a sound triangle, at
     * most 6) and, per side end, which of them it is: a step of the line of
     * sight tests each point against the line once, not once per side */
    float point[NWN2_MAX_TILE_NODES][6][2];
    uint8_t point_count[NWN2_MAX_TILE_NODES];
    uint8_t side_point[NWN2_MAX_TILE_NODES][3][2];
} tile_graph;

/* First hops from src to every node (NWN2_PATH_NONE when unreachable or src). */
static void dijkstra_first_hops(const tile_graph *g, uint32_t src, uint8_t *first)
{
    float dist[NWN2_MAX_TILE_NODES];
    /* each relaxation pushes once; at most 3 per settled node + 1 */
    bake_heap_item heap[3 * NWN2_MAX_TILE_NODES + 1];
    uint32_t size = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        dist[i] = INFINITY;
        first[i] = NWN2_PATH_NONE;
    }
    dist[src] = 0.0f;
    bake_heap_push(heap, &size, (bake_heap_item){0.0f, src});
    while (size) {
        bake_heap_item it = bake_heap_pop(heap, &size);
        uint32_t u = it.id;
        if (it.d > dist[u])
            continue;
        for (uint32_t k = 0; k < g->degree[u]; k++) {
            uint32_t v = g->adj[u][k];
            float nd = it.d + g->cost[u][k];
            if (nd < dist[v]) {
                dist[v] = nd;
                first[v] = (uint8_t)(u == src ? v : first[u]);
                bake_heap_push(heap, &size, (bake_heap_item){nd, v});
            }
        }
    }
    first[src] = NWN2_PATH_NONE;
}

/* Signed area test: > 0 when c is left of a->b. */
static double orient(const double a[2], const double b[2], const float c[2])
{
    return (b[0] - a[0]) * ((double)c[1] - a[1]) - (b[1] - a[1]) * ((double)c[0] - a[0]);
}

static double orient_pt(const float a[2], const float b[2], const double c[2])
{
    return ((double)b[0] - a[0]) * (c[1] - a[1]) - ((double)b[1] - a[1]) * (c[0] - a[0]);
}

/* Line of sight from node `from` to node `to`: walks the centre-to-centre
 * segment through the sides of the tile's walkable triangles and succeeds
 * only when every crossing is clearly inside a side whose far triangle is a
 * walkable triangle of the same tile. Anything doubtful (a crossing near a
 * vertex, an end of the segment on a side) answers 0, which is always safe. */
static int line_of_sight(const tile_graph *g, uint32_t from, uint32_t to)
{
    const double p[2] = {g->centre[from][0], g->centre[from][1]};
    const double q[2] = {g->centre[to][0], g->centre[to][1]};
    const double len2 = (q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1]);
    if (len2 <= 0.0)
        return 0;
    const double margin2 = 1e-8 * len2; /* (1e-4 * |pq|)^2: how close the line may pass a vertex */
    uint32_t cur = from, came = NWN2_PATH_NONE;
    for (uint32_t steps = 0; steps <= g->n; steps++) {
        if (cur == to)
            return 1;
        uint32_t next = NWN2_PATH_NONE;
        int crossings = 0;
        double side_of[6];
        for (uint32_t i = 0; i < g->point_count[cur]; i++)
            side_of[i] = orient(p, q, g->point[cur][i]);
        for (int k = 0; k < 3; k++) {
            const float *u = g->side[cur][k], *w = g->side[cur][k] + 2;
            double su = side_of[g->side_point[cur][k][0]], sw = side_of[g->side_point[cur][k][1]];
            if (su * su <= margin2 || sw * sw <= margin2) {
                if (came != NWN2_PATH_NONE && g->side_node[cur][k] == came)
                    continue;
                return 0; /* the line passes (nearly) through a vertex */
            }
            if ((su > 0) == (sw > 0))
                continue;
            if (came != NWN2_PATH_NONE && g->side_node[cur][k] == came)
                continue;
            /* the crossing must lie strictly between p and q */
            double eu = orient_pt(u, w, p), ew = orient_pt(u, w, q);
            double tol = 1e-8 * g->side_len2[cur][k];
            if (eu * eu <= tol || ew * ew <= tol)
                return 0; /* an end of the segment lies (nearly) on this side */
            if ((eu > 0) == (ew > 0))
                continue; /* p and q on the same side: the side behind the start */
            crossings++;
            next = g->side_node[cur][k];
        }
        if (crossings != 1 || next == NWN2_PATH_NONE)
            return 0;
        came = cur;
        cur = next;
    }
    return 0;
}

wm_result bake_tile_paths(wm_ctx *ctx, nwn2_aswm *a, uint32_t tile_index, uint32_t *los_pairs)
{
    nwn2_tile *tile = &a->tiles[tile_index];
    const uint32_t first = tile->triangle_offset, count = tile->triangle_count;
    if (first > a->triangle_count || count > a->triangle_count - first)
        return wm_error(ctx, WM_ERR_INVALID, "tile %u: triangles %u..%u outside the %u triangles", tile_index,
                        first, first + count, a->triangle_count);
    uint32_t walkable = 0;
    for (uint32_t i = 0; i < count; i++)
        if (a->triangles[first + i].flags & NWN2_TRI_WALKABLE)
            walkable++;
    if (walkable > NWN2_MAX_TILE_NODES) {
        const double x0 = (double)(tile_index % a->grid_width) * a->tile_width;
        const double y0 = (double)(tile_index / a->grid_width) * a->tile_width;
        return wm_error(ctx, WM_ERR_LIMIT,
                        "tile %u (column %u, row %u; x %g to %g, y %g to %g): %u walkable triangles, but a tile's path"
                        " table numbers its walkable triangles in 7 bits (at most %u); the game's pathing cannot"
                        " address the rest. Use fewer walkable triangles in that square of the source mesh (merge"
                        " coplanar ones, make tiny ones non-walkable) and bake again",
                        tile_index, tile_index % a->grid_width, tile_index / a->grid_width, x0, x0 + a->tile_width,
                        y0, y0 + a->tile_width, walkable, NWN2_MAX_TILE_NODES);
    }
    wm_result r = nwn2_tile_alloc_path(ctx, tile, count, (uint8_t)walkable);
    if (r)
        return r;

    tile_graph *g = wm_alloc_array(ctx, 1, sizeof *g);
    if (!g)
        return WM_ERR_NOMEM;
    g->first = first;
    g->count = count;
    for (uint32_t i = 0; i < count; i++)
        if (a->triangles[first + i].flags & NWN2_TRI_WALKABLE) {
            tile->local_to_node[i] = (uint8_t)g->n;
            tile->node_to_local[g->n] = i;
            g->local[g->n++] = i;
        }
    for (uint32_t u = 0; u < g->n; u++) {
        const nwn2_triangle *t = &a->triangles[first + g->local[u]];
        memcpy(g->centre[u], t->centre, sizeof g->centre[u]);
        for (int k = 0; k < 3; k++) {
            const nwn2_edge *e = t->edge[k] < a->edge_count ? &a->edges[t->edge[k]] : NULL;
            for (int end = 0; end < 2; end++) {
                uint32_t v = e ? e->v[end] : t->v[0];
                const float *pos = &a->vertices[3 * (v < a->vertex_count ? v : 0)];
                g->side[u][k][2 * end] = pos[0];
                g->side[u][k][2 * end + 1] = pos[1];
                uint8_t at = 0;
                while (at < g->point_count[u] &&
                       (g->point[u][at][0] != pos[0] || g->point[u][at][1] != pos[1]))
                    at++;
                if (at == g->point_count[u]) {
                    g->point[u][at][0] = pos[0];
                    g->point[u][at][1] = pos[1];
                    g->point_count[u]++;
                }
                g->side_point[u][k][end] = at;
            }
            float dx = g->side[u][k][2] - g->side[u][k][0], dy = g->side[u][k][3] - g->side[u][k][1];
            g->side_len2[u][k] = dx * dx + dy * dy;
            g->side_node[u][k] = NWN2_PATH_NONE;
            uint32_t nb = t->neighbour[k];
            if (nb == NWN2_NONE32 || nb < first || nb - first >= count)
                continue;
            uint8_t node = tile->local_to_node[nb - first];
            g->side_node[u][k] = node;
            if (node == NWN2_PATH_NONE)
                continue;
            g->adj[u][g->degree[u]] = node;
            g->cost[u][g->degree[u]] = bake_distance(t->centre, a->triangles[nb].centre);
            g->degree[u]++;
        }
    }

    uint8_t hops[NWN2_MAX_TILE_NODES];
    for (uint32_t s = 0; s < g->n; s++) {
        dijkstra_first_hops(g, s, hops);
        memcpy(&tile->nodes[(size_t)s * g->n], hops, g->n);
    }
    /* Line of sight is symmetric: test each unordered reachable pair once. */
    uint32_t los = 0;
    for (uint32_t s = 0; s < g->n; s++)
        for (uint32_t d = s + 1; d < g->n; d++) {
            uint8_t *sd = &tile->nodes[(size_t)s * g->n + d];
            uint8_t *ds = &tile->nodes[(size_t)d * g->n + s];
            if (*sd == NWN2_PATH_NONE || *ds == NWN2_PATH_NONE)
                continue;
            if (line_of_sight(g, s, d)) {
                *sd |= NWN2_PATH_LOS;
                *ds |= NWN2_PATH_LOS;
                los += 2;
            }
        }
    wm_free(ctx, g);
    tile->path_flags = 0;
    tile->rle_size = 0;
    tile->flags = NWN2_GRID_FLAGS_TRX;
    if (los_pairs)
        *los_pairs = los;
    return WM_OK;
}
