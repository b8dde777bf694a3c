/* Islands: connected components of walkable triangles within one tile, and
 * the island path table. Matches the toolset exactly on the corpus:
 * islands numbered by their first triangle; centre = single-precision
 * running sum of the triangle centres (triangle order) times 1/count;
 * links found in triangle order and slot order, the exit being the first
 * own-side triangle met; path table from Dijkstra over the island graph in
 * single precision, settled by (distance, island index). */
#include "bake_queue.h"
#include "bake_internal.h"

#include <math.h>
#include <string.h>

/* Tile index of each triangle from the tiles' ranges (NWN2_NONE32 when no tile holds it). */
static uint32_t *triangle_tiles(wm_ctx *ctx, const nwn2_aswm *a)
{
    uint32_t *tile_of = wm_alloc_array(ctx, a->triangle_count ? a->triangle_count : 1, sizeof *tile_of);
    if (!tile_of)
        return NULL;
    memset(tile_of, 0xFF, (size_t)a->triangle_count * sizeof *tile_of);
    uint64_t tiles = (uint64_t)a->grid_width * a->grid_height;
    for (uint32_t ti = 0; ti < tiles; ti++) {
        const nwn2_tile *t = &a->tiles[ti];
        for (uint32_t k = 0; k < t->triangle_count && t->triangle_offset + k < a->triangle_count; k++)
            tile_of[t->triangle_offset + k] = ti;
    }
    return tile_of;
}

static int walkable(const nwn2_aswm *a, uint32_t t)
{
    return t < a->triangle_count && (a->triangles[t].flags & NWN2_TRI_WALKABLE);
}

/* Numbers the components; returns the count through *out_count. */
static wm_result number_components(wm_ctx *ctx, nwn2_aswm *a, const uint32_t *tile_of, uint32_t *out_count)
{
    uint32_t *stack = wm_alloc_array(ctx, a->triangle_count ? a->triangle_count : 1, sizeof *stack);
    if (!stack)
        return WM_ERR_NOMEM;
    for (uint32_t t = 0; t < a->triangle_count; t++)
        a->triangles[t].island = NWN2_NO_ISLAND;
    uint32_t count = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        if (!walkable(a, t) || a->triangles[t].island != NWN2_NO_ISLAND)
            continue;
        if (count >= NWN2_NO_ISLAND) {
            wm_free(ctx, stack);
            return wm_error(ctx, WM_ERR_LIMIT,
                            "triangle %u starts island %u, but island numbers are 16-bit (at most 65535 islands)", t,
                            count);
        }
        uint32_t top = 0;
        stack[top++] = t;
        a->triangles[t].island = (uint16_t)count;
        while (top) {
            uint32_t u = stack[--top];
            for (int k = 0; k < 3; k++) {
                uint32_t nb = a->triangles[u].neighbour[k];
                if (!walkable(a, nb) || tile_of[nb] != tile_of[u] || a->triangles[nb].island != NWN2_NO_ISLAND)
                    continue;
                a->triangles[nb].island = (uint16_t)count;
                stack[top++] = nb;
            }
        }
        count++;
    }
    wm_free(ctx, stack);
    *out_count = count;
    return WM_OK;
}

typedef struct link_list {
    uint32_t *island;
    uint32_t *exit;
    uint32_t count, cap_island, cap_exit;
} link_list;

static wm_result add_link(wm_ctx *ctx, link_list *l, uint32_t island, uint32_t exit)
{
    for (uint32_t i = 0; i < l->count; i++)
        if (l->island[i] == island)
            return WM_OK;
    if (bake_grow(ctx, (void **)&l->island, &l->cap_island, l->count + 1, sizeof(uint32_t)) ||
        bake_grow(ctx, (void **)&l->exit, &l->cap_exit, l->count + 1, sizeof(uint32_t)))
        return WM_ERR_NOMEM;
    l->island[l->count] = island;
    l->exit[l->count] = exit;
    l->count++;
    return WM_OK;
}

static wm_result fill_islands(wm_ctx *ctx, nwn2_aswm *a, const uint32_t *tile_of, uint32_t island_tag)
{
    const uint32_t n = a->island_count;
    float *sum = wm_alloc_array(ctx, (size_t)n * 2 + 1, sizeof *sum);
    link_list *links = wm_alloc_array(ctx, n ? n : 1, sizeof *links);
    wm_result r = (sum && links) ? WM_OK : WM_ERR_NOMEM;
    for (uint32_t t = 0; !r && t < a->triangle_count; t++) {
        const nwn2_triangle *tri = &a->triangles[t];
        if (tri->island == NWN2_NO_ISLAND)
            continue;
        nwn2_island *is = &a->islands[tri->island];
        is->triangle_count++;
        sum[2 * tri->island] += tri->centre[0];
        sum[2 * tri->island + 1] += tri->centre[1];
        for (int k = 0; k < 3 && !r; k++) {
            uint32_t nb = tri->neighbour[k];
            if (!walkable(a, nb) || tile_of[nb] == tile_of[t] || a->triangles[nb].island == tri->island)
                continue;
            r = add_link(ctx, &links[tri->island], a->triangles[nb].island, t);
        }
    }
    for (uint32_t i = 0; !r && i < n; i++) {
        nwn2_island *is = &a->islands[i];
        float inv = 1.0f / (float)is->triangle_count;
        is->index = i;
        is->tile = island_tag;
        is->centre[0] = sum[2 * i] * inv;
        is->centre[1] = sum[2 * i + 1] * inv;
        is->centre[2] = 0.0f;
    }
    for (uint32_t i = 0; !r && i < n; i++) {
        nwn2_island *is = &a->islands[i];
        r = nwn2_island_alloc_links(ctx, is, links[i].count);
        for (uint32_t k = 0; !r && k < links[i].count; k++) {
            is->adjacent[k] = links[i].island[k];
            is->exit[k] = links[i].exit[k];
            is->distance[k] = bake_distance(is->centre, a->islands[links[i].island[k]].centre);
        }
    }
    if (links)
        for (uint32_t i = 0; i < n; i++) {
            wm_free(ctx, links[i].island);
            wm_free(ctx, links[i].exit);
        }
    wm_free(ctx, links);
    wm_free(ctx, sum);
    return r;
}

wm_result bake_islands(wm_ctx *ctx, nwn2_aswm *a, uint32_t island_tag)
{
    uint32_t *tile_of = triangle_tiles(ctx, a);
    if (!tile_of)
        return WM_ERR_NOMEM;
    uint32_t count = 0;
    wm_result r = number_components(ctx, a, tile_of, &count);
    if (!r && (uint64_t)count * count * sizeof(nwn2_island_path) > ctx->limits.max_bytes)
        r = wm_error(ctx, WM_ERR_LIMIT,
                     "%u islands: the island path table would take %llu bytes (limit %llu); fewer, larger walkable"
                     " areas per tile make fewer islands",
                     count, (unsigned long long)count * count * sizeof(nwn2_island_path),
                     (unsigned long long)ctx->limits.max_bytes);
    if (!r)
        r = nwn2_aswm_alloc_islands(ctx, a, count);
    if (!r)
        r = fill_islands(ctx, a, tile_of, island_tag);
    wm_free(ctx, tile_of);
    return r;
}

wm_result bake_island_paths_row(wm_ctx *ctx, nwn2_aswm *a, uint32_t from)
{
    const uint32_t n = a->island_count;
    /* the frontier's keys, then dist, first and the frontier places: n each */
    uint64_t *work = wm_realloc_array(ctx, NULL, (size_t)n, 2 * sizeof(uint64_t) + sizeof(uint32_t));
    if (!work)
        return WM_ERR_NOMEM;
    float *dist = (float *)(work + n);
    uint32_t *first = (uint32_t *)(dist + n);
    bake_queue q = {work, first + n, 0};
    for (uint32_t i = 0; i < n; i++) {
        dist[i] = INFINITY;
        first[i] = NWN2_NONE32;
        q.at[i] = BAKE_QUEUE_OUT;
    }
    dist[from] = 0.0f;
    bake_queue_set(&q, from, 0.0f);
    while (q.count) {
        float d;
        const uint32_t u = bake_queue_pop(&q, &d);
        const nwn2_island *is = &a->islands[u];
        for (uint32_t k = 0; k < is->adjacent_count; k++) {
            uint32_t v = is->adjacent[k];
            if (v >= n)
                continue;
            float nd = d + is->distance[k];
            if (nd < dist[v]) {
                dist[v] = nd;
                first[v] = (u == from) ? k : first[u]; /* slot in the source's link list */
                bake_queue_set(&q, v, nd);
            }
        }
    }
    const nwn2_island *src = &a->islands[from];
    for (uint32_t to = 0; to < n; to++) {
        nwn2_island_path *p = &a->island_paths[(size_t)from * n + to];
        p->padding = 0;
        if (to == from || first[to] == NWN2_NONE32) {
            p->next = NWN2_NO_ISLAND;
            p->weight = 0.0f;
        } else {
            p->next = (uint16_t)src->adjacent[first[to]];
            p->weight = src->distance[first[to]];
        }
    }
    wm_free(ctx, work);
    return WM_OK;
}
