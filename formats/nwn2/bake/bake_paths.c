/* Tile path tables: for every pair of walkable triangles of a tile, the
 * first step of the shortest path inside the tile.
 *
 * Reproduces the toolset exactly (checked on every entry of the corpus
 * TRX files): Dijkstra from each source node, single-precision costs
 * (2-D distance between stored centres, accumulated in float), nodes
 * settled in order of (distance, node index), strict-improvement
 * relaxation, neighbours visited in triangle slot order. */
#include "bake_queue.h"
#include "bake_tile_graph.h"

#include <math.h>
#include <string.h>

/* The tile-wide number of a point position. */
static uint16_t tile_point_id(tile_graph *g, const float pos[2])
{
    uint32_t x, y;
    memcpy(&x, &pos[0], 4);
    memcpy(&y, &pos[1], 4);
    uint32_t i = (uint32_t)(((x * 0x9E3779B1u) ^ (y * 0x85EBCA77u)) >> 21) & (BAKE_POINT_HASH - 1);
    while (g->point_hash[i].stamp == g->hash_stamp) {
        if (g->point_hash[i].x == x && g->point_hash[i].y == y)
            return g->point_hash[i].id;
        i = (i + 1) & (BAKE_POINT_HASH - 1);
    }
    g->point_hash[i].stamp = g->hash_stamp;
    g->point_hash[i].x = x;
    g->point_hash[i].y = y;
    g->point_hash[i].id = (uint16_t)g->tile_points;
    g->point_at[g->tile_points][0] = pos[0];
    g->point_at[g->tile_points][1] = pos[1];
    return (uint16_t)g->tile_points++;
}

/* First hops from src to every node (NWN2_PATH_NONE when unreachable or src). */
static void dijkstra_first_hops(const tile_graph *g, uint32_t src, uint8_t *first)
{
    float dist[NWN2_MAX_TILE_NODES];
    uint64_t frontier[NWN2_MAX_TILE_NODES];
    uint32_t at[NWN2_MAX_TILE_NODES];
    bake_queue q = {frontier, at, 0};
    for (uint32_t i = 0; i < g->n; i++) {
        dist[i] = INFINITY;
        first[i] = NWN2_PATH_NONE;
        at[i] = BAKE_QUEUE_OUT;
    }
    dist[src] = 0.0f;
    bake_queue_set(&q, src, 0.0f);
    while (q.count) {
        float d;
        const uint32_t u = bake_queue_pop(&q, &d);
        for (uint32_t k = 0; k < g->degree[u]; k++) {
            uint32_t v = g->adj[u][k];
            float nd = d + g->cost[u][k];
            if (nd < dist[v]) {
                dist[v] = nd;
                first[v] = (uint8_t)(u == src ? v : first[u]);
                bake_queue_set(&q, v, nd);
            }
        }
    }
    first[src] = NWN2_PATH_NONE;
}

/* More than 127 walkable triangles: an error naming the tile and the fix. */
static wm_result too_many_nodes(wm_ctx *ctx, const nwn2_aswm *a, uint32_t tile_index, uint32_t walkable)
{
    const double x0 = (double)(tile_index % a->grid_width) * a->tile_width;
    const double y0 = (double)(tile_index / a->grid_width) * a->tile_width;
    return wm_error(ctx, WM_ERR_LIMIT,
                    "tile %u (column %u, row %u; x %g to %g, y %g to %g): %u walkable triangles, but a tile's path"
                    " table numbers its walkable triangles in 7 bits (at most %u); the game's pathing cannot"
                    " address the rest. Use fewer walkable triangles in that square of the source mesh (merge"
                    " coplanar ones, make tiny ones non-walkable) and bake again",
                    tile_index, tile_index % a->grid_width, tile_index / a->grid_width, x0, x0 + a->tile_width, y0,
                    y0 + a->tile_width, walkable, NWN2_MAX_TILE_NODES);
}

/* g->corner of node u (see bake_tile_graph.h). */
static void find_corners(tile_graph *g, uint32_t u)
{
    for (int back = 0; back < 3; back++) {
        int8_t *out = g->corner[u][back];
        const uint8_t a = g->side_point[u][back][0], b = g->side_point[u][back][1], c = (uint8_t)(3 - a - b);
        out[0] = out[1] = out[2] = -1;
        if (g->point_count[u] != 3 || a == b)
            continue;
        for (int j = 1; j < 3; j++) {
            const int k = (back + j) % 3;
            const uint8_t x = g->side_point[u][k][0], y = g->side_point[u][k][1];
            if ((x == a && y == c) || (x == c && y == a))
                out[1] = (int8_t)k;
            else if ((x == b && y == c) || (x == c && y == b))
                out[2] = (int8_t)k;
        }
        if (out[1] >= 0 && out[2] >= 0)
            out[0] = (int8_t)c;
    }
}

/* The tile's walkable graph, sides and points (fields a later tile left
 * behind are reset here: the work area is reused). */
static void build_graph(const nwn2_aswm *a, nwn2_tile *tile, tile_graph *g)
{
    const uint32_t first = tile->triangle_offset, count = tile->triangle_count;
    g->n = 0;
    g->first = first;
    g->count = count;
    g->tile_points = 0;
    if (++g->hash_stamp == 0) {
        memset(g->point_hash, 0, sizeof g->point_hash);
        g->hash_stamp = 1;
    }
    memset(g->point_count, 0, sizeof g->point_count);
    memset(g->degree, 0, sizeof g->degree);
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
                    g->point_id[u][at] = tile_point_id(g, pos);
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
    for (uint32_t u = 0; u < g->n; u++) {
        find_corners(g, u);
        for (int k = 0; k < 3; k++) {
            const uint8_t v = g->side_node[u][k];
            g->entry[u][k] = -1;
            for (int j = 0; v != NWN2_PATH_NONE && j < 3; j++)
                if (g->side_node[v][j] == u)
                    g->entry[u][k] = g->entry[u][k] == -1 ? (int8_t)j : -2;
            if (g->entry[u][k] < 0)
                g->entry[u][k] = -1;
        }
    }
}

/* The line-of-sight bits: each unordered reachable pair is decided from its
 * lower node (the bit is symmetric). Returns the ordered pairs given the bit. */
static uint32_t sight_bits(const tile_graph *g, nwn2_tile *tile, void *sight)
{
    uint32_t los = 0;
    uint8_t visible[NWN2_MAX_TILE_NODES], wanted[NWN2_MAX_TILE_NODES];
    bake_sight_pairs_start(g, sight);
    for (uint32_t s = 0; s + 1 < g->n; s++) {
        for (uint32_t d = s + 1; d < g->n; d++)
            wanted[d] = tile->nodes[(size_t)s * g->n + d] != NWN2_PATH_NONE &&
                        tile->nodes[(size_t)d * g->n + s] != NWN2_PATH_NONE;
        bake_sight_pairs(g, s, wanted, visible, sight);
        for (uint32_t d = s + 1; d < g->n; d++) {
            if (!wanted[d] || !visible[d])
                continue;
            tile->nodes[(size_t)s * g->n + d] |= NWN2_PATH_LOS;
            tile->nodes[(size_t)d * g->n + s] |= NWN2_PATH_LOS;
            los += 2;
        }
    }
    return los;
}

/* Where the line-of-sight scratch starts in a work area: after the graph, aligned for doubles. */
#define SIGHT_SCRATCH_AT ((sizeof(tile_graph) + 15) & ~(size_t)15)

size_t bake_tile_work_size(void)
{
    return SIGHT_SCRATCH_AT + bake_sight_pairs_scratch_size();
}

wm_result bake_tile_paths(wm_ctx *ctx, nwn2_aswm *a, uint32_t tile_index, void *work, uint32_t *los_pairs)
{
    nwn2_tile *tile = &a->tiles[tile_index];
    const uint32_t first = tile->triangle_offset, count = tile->triangle_count;
    if (first > a->triangle_count || count > a->triangle_count - first)
        return wm_error(ctx, WM_ERR_INVALID, "tile %u: triangles %u..%u outside the %u triangles", tile_index,
                        first, first + count, a->triangle_count);
    uint32_t walkable = 0;
    for (uint32_t i = 0; i < count; i++)
        walkable += (a->triangles[first + i].flags & NWN2_TRI_WALKABLE) != 0;
    if (walkable > NWN2_MAX_TILE_NODES)
        return too_many_nodes(ctx, a, tile_index, walkable);
    wm_result r = nwn2_tile_alloc_path(ctx, tile, count, (uint8_t)walkable);
    if (r)
        return r;
    tile_graph *g = work;
    build_graph(a, tile, g);
    uint8_t hops[NWN2_MAX_TILE_NODES];
    for (uint32_t s = 0; s < g->n; s++) {
        dijkstra_first_hops(g, s, hops);
        memcpy(&tile->nodes[(size_t)s * g->n], hops, g->n);
    }
    *los_pairs = sight_bits(g, tile, (unsigned char *)work + SIGHT_SCRATCH_AT);
    tile->path_flags = 0;
    tile->rle_size = 0;
    tile->flags = NWN2_GRID_FLAGS_TRX;
    return WM_OK;
}
