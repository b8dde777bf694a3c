/* ASWM model lifetime: init, free, copy and the allocation helpers for builders. */
#include "nwn2.h"

#include <string.h>

void nwn2_aswm_init(nwn2_aswm *a)
{
    memset(a, 0, sizeof *a);
}

/* Frees p unless it points into the bytes a shared model was parsed from
 * (owner NULL: a builder's model, which owns everything). */
static void release(const wm_ctx *ctx, const nwn2_aswm *owner, void *p)
{
    const uint8_t *b = p;
    if (owner && owner->shared && b >= owner->shared && b < owner->shared + owner->shared_size)
        return;
    wm_free(ctx, p);
}

static void tile_free_path(const wm_ctx *ctx, const nwn2_aswm *owner, nwn2_tile *t)
{
    release(ctx, owner, t->local_to_node);
    release(ctx, owner, t->node_to_local);
    release(ctx, owner, t->nodes);
    t->local_to_node = NULL;
    t->node_to_local = NULL;
    t->nodes = NULL;
    t->local_count = 0;
    t->node_count = 0;
}

static void island_free_links(const wm_ctx *ctx, const nwn2_aswm *owner, nwn2_island *is)
{
    release(ctx, owner, is->adjacent);
    release(ctx, owner, is->distance);
    release(ctx, owner, is->exit);
    is->adjacent = NULL;
    is->distance = NULL;
    is->exit = NULL;
    is->adjacent_count = is->distance_count = is->exit_count = 0;
}

static void free_islands(const wm_ctx *ctx, nwn2_aswm *a)
{
    if (a->islands)
        for (uint32_t i = 0; i < a->island_count; i++)
            island_free_links(ctx, a, &a->islands[i]);
    wm_free(ctx, a->islands);
    release(ctx, a, a->island_paths);
    a->islands = NULL;
    a->island_paths = NULL;
    a->island_count = 0;
}

void nwn2_aswm_free_geometry(const wm_ctx *ctx, nwn2_aswm *a)
{
    release(ctx, a, a->vertices);
    release(ctx, a, a->edges);
    release(ctx, a, a->triangles);
    a->vertices = NULL;
    a->edges = NULL;
    a->triangles = NULL;
}

void nwn2_aswm_free(const wm_ctx *ctx, nwn2_aswm *a)
{
    nwn2_aswm_free_geometry(ctx, a);
    if (a->tiles) {
        uint64_t n = (uint64_t)a->grid_width * a->grid_height;
        for (uint64_t i = 0; i < n; i++) {
            release(ctx, a, a->tiles[i].vertices);
            release(ctx, a, a->tiles[i].edges);
            tile_free_path(ctx, a, &a->tiles[i]);
        }
        wm_free(ctx, a->tiles);
    }
    free_islands(ctx, a);
    wm_free(ctx, a->trailing);
    nwn2_aswm_init(a);
}

/* A copy of count elements, or NULL when src is NULL or an earlier copy failed (*r set). */
static void *copy_array(wm_ctx *ctx, const void *src, size_t count, size_t size, wm_result *r)
{
    if (!src || *r)
        return NULL;
    void *p = wm_alloc_array(ctx, count ? count : 1, size);
    if (!p) {
        *r = WM_ERR_NOMEM;
        return NULL;
    }
    if (count)
        memcpy(p, src, count * size);
    return p;
}

/* Member by member: every pointer of dst is replaced (by a copy or NULL)
 * before dst can be freed, so a failed copy never frees src's arrays. */
wm_result nwn2_aswm_copy(wm_ctx *ctx, nwn2_aswm *dst, const nwn2_aswm *src)
{
    wm_result r = WM_OK;
    const size_t tiles = src->tiles ? (size_t)src->grid_width * src->grid_height : 0;
    *dst = *src;
    dst->shared = NULL; /* every array below is a copy of its own */
    dst->shared_size = 0;
    dst->vertices = copy_array(ctx, src->vertices, (size_t)src->vertex_count * 3, sizeof(float), &r);
    dst->edges = copy_array(ctx, src->edges, src->edge_count, sizeof(nwn2_edge), &r);
    dst->triangles = copy_array(ctx, src->triangles, src->triangle_count, sizeof(nwn2_triangle), &r);
    dst->trailing = copy_array(ctx, src->trailing, src->trailing_size, 1, &r);
    dst->tiles = copy_array(ctx, src->tiles, tiles, sizeof(nwn2_tile), &r);
    for (size_t i = 0; dst->tiles && i < tiles; i++) {
        nwn2_tile *t = &dst->tiles[i];
        t->vertices = copy_array(ctx, t->vertices, (size_t)t->vertex_count * 3, sizeof(float), &r);
        t->edges = copy_array(ctx, t->edges, t->edge_count, sizeof(nwn2_edge), &r);
        t->local_to_node = copy_array(ctx, t->local_to_node, t->local_count, 1, &r);
        t->node_to_local = copy_array(ctx, t->node_to_local, t->node_count, sizeof(uint32_t), &r);
        t->nodes = copy_array(ctx, t->nodes, (size_t)t->node_count * t->node_count, 1, &r);
    }
    dst->islands = copy_array(ctx, src->islands, src->island_count, sizeof(nwn2_island), &r);
    for (uint32_t i = 0; dst->islands && i < src->island_count; i++) {
        nwn2_island *is = &dst->islands[i];
        is->adjacent = copy_array(ctx, is->adjacent, is->adjacent_count, sizeof(uint32_t), &r);
        is->distance = copy_array(ctx, is->distance, is->distance_count, sizeof(float), &r);
        is->exit = copy_array(ctx, is->exit, is->exit_count, sizeof(uint32_t), &r);
    }
    dst->island_paths = copy_array(ctx, src->island_paths, (size_t)src->island_count * src->island_count,
                                   sizeof(nwn2_island_path), &r);
    if (r) {
        if (!dst->tiles)
            dst->grid_width = dst->grid_height = 0;
        if (!dst->islands)
            dst->island_count = 0;
        nwn2_aswm_free(ctx, dst);
    }
    return r;
}

wm_result nwn2_tile_alloc_path(wm_ctx *ctx, nwn2_tile *tile, uint32_t local_count, uint8_t node_count)
{
    size_t nodes = (size_t)node_count * node_count;
    if (tile->nodes && tile->local_count == local_count && tile->node_count == node_count) {
        /* the same sizes (a re-bake): the arrays are reused, cleared as fresh ones would be */
        memset(tile->node_to_local, 0, (node_count ? node_count : 1) * sizeof(uint32_t));
    } else {
        tile_free_path(ctx, NULL, tile);
        tile->local_to_node = wm_alloc_array(ctx, local_count ? local_count : 1, 1);
        tile->node_to_local = wm_alloc_array(ctx, node_count ? node_count : 1, sizeof(uint32_t));
        tile->nodes = wm_alloc_array(ctx, nodes ? nodes : 1, 1);
    }
    if (!tile->local_to_node || !tile->node_to_local || !tile->nodes) {
        tile_free_path(ctx, NULL, tile);
        return WM_ERR_NOMEM;
    }
    memset(tile->local_to_node, NWN2_PATH_NONE, local_count);
    memset(tile->nodes, NWN2_PATH_NONE, nodes);
    tile->local_count = local_count;
    tile->node_count = node_count;
    return WM_OK;
}

wm_result nwn2_aswm_alloc_islands(wm_ctx *ctx, nwn2_aswm *a, uint32_t count)
{
    /* the same count (a re-bake): the path table's memory is reused, not fresh pages */
    nwn2_island_path *kept = a->island_paths && a->island_count == count ? a->island_paths : NULL;
    if (kept)
        a->island_paths = NULL;
    free_islands(ctx, a);
    uint64_t paths = (uint64_t)count * count;
    if (paths > SIZE_MAX / sizeof(nwn2_island_path)) {
        wm_free(ctx, kept);
        return wm_error(ctx, WM_ERR_LIMIT, "%u islands: island path table too large", count);
    }
    if (kept)
        memset(kept, 0, (paths ? (size_t)paths : 1) * sizeof *kept);
    a->islands = wm_alloc_array(ctx, count ? count : 1, sizeof *a->islands);
    a->island_paths = kept ? kept : wm_alloc_array(ctx, paths ? (size_t)paths : 1, sizeof *a->island_paths);
    if (!a->islands || !a->island_paths) {
        wm_free(ctx, a->islands);
        wm_free(ctx, a->island_paths);
        a->islands = NULL;
        a->island_paths = NULL;
        return WM_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < count; i++)
        a->islands[i].index = i;
    for (uint64_t i = 0; i < paths; i++)
        a->island_paths[i].next = NWN2_NO_ISLAND;
    a->island_count = count;
    return WM_OK;
}

wm_result nwn2_island_alloc_links(wm_ctx *ctx, nwn2_island *island, uint32_t count)
{
    island_free_links(ctx, NULL, island);
    island->adjacent = wm_alloc_array(ctx, count ? count : 1, sizeof(uint32_t));
    island->distance = wm_alloc_array(ctx, count ? count : 1, sizeof(float));
    island->exit = wm_alloc_array(ctx, count ? count : 1, sizeof(uint32_t));
    if (!island->adjacent || !island->distance || !island->exit) {
        island_free_links(ctx, NULL, island);
        return WM_ERR_NOMEM;
    }
    island->adjacent_count = island->distance_count = island->exit_count = count;
    return WM_OK;
}
