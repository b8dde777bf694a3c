/* Writer of the uncompressed ASWM walkmesh, version 0x6c. The exact size is
 * computed first, so the bytes are written in one pass into one
 * reservation (a reserve per field was most of the writer's time). */
#include "nwn2_compact.h"
#include "wm_platform.h"

#include <string.h>

static uint8_t *put32(uint8_t *w, uint32_t v)
{
    w[0] = (uint8_t)v;
    w[1] = (uint8_t)(v >> 8);
    w[2] = (uint8_t)(v >> 16);
    w[3] = (uint8_t)(v >> 24);
    return w + 4;
}

static uint8_t *put16(uint8_t *w, uint16_t v)
{
    w[0] = (uint8_t)v;
    w[1] = (uint8_t)(v >> 8);
    return w + 2;
}

static uint8_t *putf(uint8_t *w, float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return put32(w, u);
}

static uint8_t *put_bytes(uint8_t *w, const void *data, size_t n)
{
    if (n)
        memcpy(w, data, n);
    return w + n;
}

static uint8_t *put_f32s(uint8_t *w, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        w = putf(w, v[i]);
    return w;
}

static uint8_t *put_u32s(uint8_t *w, const uint32_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        w = put32(w, v[i]);
    return w;
}

/* A block of records at a time (4 MiB of triangles, 1 MiB of edges): with
 * release, each block's pages are given back once copied, so a large
 * walkmesh's arrays are never in memory twice. */
#define PUT_BLOCK (1u << 16)

uint8_t *nwn2_put_edge(uint8_t *w, const nwn2_edge *e)
{
    w = put_u32s(w, e->v, 2);
    return put_u32s(w, e->tri, 2);
}

uint8_t *nwn2_put_triangle(uint8_t *w, const nwn2_triangle *t)
{
    w = put_u32s(w, t->v, 3);
    w = put_u32s(w, t->edge, 3);
    w = put_u32s(w, t->neighbour, 3);
    w = put_f32s(w, t->centre, 2);
    w = put_f32s(w, t->normal, 3);
    w = putf(w, t->d);
    w = put16(w, t->island);
    return put16(w, t->flags);
}

uint8_t *nwn2_put_vertex(uint8_t *w, const float *v)
{
    return put_f32s(w, v, 3);
}

static uint8_t *put_edges(uint8_t *w, const nwn2_edge *edges, uint32_t count, int release)
{
    for (uint32_t from = 0; from < count; from += PUT_BLOCK) {
        uint32_t to = count - from > PUT_BLOCK ? from + PUT_BLOCK : count;
        for (uint32_t i = from; i < to; i++)
            w = nwn2_put_edge(w, &edges[i]);
        if (release)
            wm_platform_release_pages(&edges[from], (size_t)(to - from) * sizeof *edges);
    }
    return w;
}

static uint8_t *put_triangles(uint8_t *w, const nwn2_triangle *tris, uint32_t count, int release)
{
    for (uint32_t from = 0; from < count; from += PUT_BLOCK) {
        uint32_t to = count - from > PUT_BLOCK ? from + PUT_BLOCK : count;
        for (uint32_t i = from; i < to; i++)
            w = nwn2_put_triangle(w, &tris[i]);
        if (release)
            wm_platform_release_pages(&tris[from], (size_t)(to - from) * sizeof *tris);
    }
    return w;
}

static uint64_t tile_size(const nwn2_tile *t)
{
    uint64_t n = 57 + 13 + (uint64_t)t->local_count + 4ull * t->node_count + (uint64_t)t->node_count * t->node_count + 4;
    if (t->owns_data)
        n += 12ull * t->vertex_count + 16ull * t->edge_count;
    return n;
}

static uint8_t *put_tile(uint8_t *w, const nwn2_tile *t)
{
    w = put_bytes(w, t->name, sizeof t->name);
    *w++ = t->owns_data;
    w = put32(w, t->vertex_count);
    w = put32(w, t->edge_count);
    w = put32(w, t->triangle_count);
    w = putf(w, t->size_x);
    w = putf(w, t->size_y);
    w = put32(w, t->triangle_offset);
    if (t->owns_data) {
        w = put_f32s(w, t->vertices, (size_t)t->vertex_count * 3);
        w = put_edges(w, t->edges, t->edge_count, 0);
    }
    w = put32(w, t->path_flags);
    w = put32(w, t->local_count);
    *w++ = t->node_count;
    w = put32(w, t->rle_size);
    w = put_bytes(w, t->local_to_node, t->local_count);
    w = put_u32s(w, t->node_to_local, t->node_count);
    w = put_bytes(w, t->nodes, (size_t)t->node_count * t->node_count);
    return put32(w, t->flags);
}

static uint64_t island_size(const nwn2_island *is)
{
    return 24 + 12 + 4ull * is->adjacent_count + 4ull * is->distance_count + 4ull * is->exit_count;
}

static uint8_t *put_island(uint8_t *w, const nwn2_island *is)
{
    w = put32(w, is->index);
    w = put32(w, is->tile);
    w = put_f32s(w, is->centre, 3);
    w = put32(w, is->triangle_count);
    w = put32(w, is->adjacent_count);
    w = put_u32s(w, is->adjacent, is->adjacent_count);
    w = put32(w, is->distance_count);
    w = put_f32s(w, is->distance, is->distance_count);
    w = put32(w, is->exit_count);
    return put_u32s(w, is->exit, is->exit_count);
}

static wm_result check_arrays(wm_ctx *ctx, const nwn2_aswm *a)
{
    if (a->owns_data == 0 && a->vertex_count)
        return wm_error(ctx, WM_ERR_INVALID, "ASWM: owns_data is 0 but %u vertices are present", a->vertex_count);
    if ((a->tiles == NULL && a->grid_width != 0 && a->grid_height != 0) ||
        (a->island_count && (!a->islands || !a->island_paths)))
        return wm_error(ctx, WM_ERR_INVALID, "ASWM: tile grid or island arrays missing for their counts");
    return WM_OK;
}

/* Bytes after the triangles: the tile grid, islands and their paths, trailing bytes. */
static uint64_t tail_size(const nwn2_aswm *a)
{
    const uint64_t tiles = (uint64_t)a->grid_width * a->grid_height;
    uint64_t total = 16 + 8 + 8 * (uint64_t)a->island_count * a->island_count + a->trailing_size;
    for (uint64_t i = 0; i < tiles; i++)
        total += tile_size(&a->tiles[i]);
    for (uint32_t i = 0; i < a->island_count; i++)
        total += island_size(&a->islands[i]);
    return total;
}

uint8_t *nwn2_aswm_put_head(uint8_t *w, const nwn2_aswm *a)
{
    w = put32(w, NWN2_ASWM_VERSION);
    w = put_bytes(w, a->name, sizeof a->name);
    *w++ = a->owns_data;
    w = put32(w, a->vertex_count);
    w = put32(w, a->edge_count);
    w = put32(w, a->triangle_count);
    return put32(w, a->reserved);
}

static uint8_t *put_tail(uint8_t *w, const nwn2_aswm *a)
{
    const uint64_t tiles = (uint64_t)a->grid_width * a->grid_height;
    const uint64_t paths = (uint64_t)a->island_count * a->island_count;
    w = put32(w, a->grid_flags);
    w = putf(w, a->tile_width);
    w = put32(w, a->grid_height);
    w = put32(w, a->grid_width);
    for (uint64_t i = 0; i < tiles; i++)
        w = put_tile(w, &a->tiles[i]);
    w = put32(w, a->border_size);
    w = put32(w, a->island_count);
    for (uint32_t i = 0; i < a->island_count; i++)
        w = put_island(w, &a->islands[i]);
    for (uint64_t i = 0; i < paths; i++) {
        w = put16(w, a->island_paths[i].next);
        w = put16(w, a->island_paths[i].padding);
        w = putf(w, a->island_paths[i].weight);
    }
    return put_bytes(w, a->trailing, a->trailing_size);
}

wm_result nwn2_aswm_serialize_tail(wm_ctx *ctx, const nwn2_aswm *a, wm_buffer *out)
{
    wm_result r = check_arrays(ctx, a);
    if (r)
        return r;
    const uint64_t total = tail_size(a);
    if (total > SIZE_MAX / 2)
        return wm_error(ctx, WM_ERR_LIMIT, "ASWM of %llu bytes is too large", (unsigned long long)total);
    if (wm_buffer_reserve(out, (size_t)total))
        return out->status;
    uint8_t *start = out->data + out->size;
    out->size += (size_t)(put_tail(start, a) - start);
    return out->status;
}

/* release: a, whose vertices, edges and triangles are freed once laid out
 * (they are most of the model), or NULL. */
static wm_result serialize(wm_ctx *ctx, const nwn2_aswm *a, nwn2_aswm *release, wm_buffer *out)
{
    wm_result r = check_arrays(ctx, a);
    if (r)
        return r;
    uint64_t total = NWN2_ASWM_HEAD + 12ull * a->vertex_count + 16ull * a->edge_count + 64ull * a->triangle_count +
                     tail_size(a);
    if (total > SIZE_MAX / 2)
        return wm_error(ctx, WM_ERR_LIMIT, "ASWM of %llu bytes is too large", (unsigned long long)total);
    if (wm_buffer_reserve(out, (size_t)total))
        return out->status;
    uint8_t *w = out->data + out->size, *start = w;
    w = nwn2_aswm_put_head(w, a);
    /* a shared model's arrays are the bytes read: never given back */
    const int give_back = release && !release->shared;
    w = put_f32s(w, a->vertices, (size_t)a->vertex_count * 3);
    if (give_back)
        wm_platform_release_pages(a->vertices, (size_t)a->vertex_count * 3 * sizeof *a->vertices);
    w = put_edges(w, a->edges, a->edge_count, give_back);
    w = put_triangles(w, a->triangles, a->triangle_count, give_back);
    if (release)
        nwn2_aswm_free_geometry(ctx, release);
    w = put_tail(w, a);
    out->size += (size_t)(w - start);
    return out->status;
}

wm_result nwn2_aswm_serialize(wm_ctx *ctx, const nwn2_aswm *a, wm_buffer *out)
{
    return serialize(ctx, a, NULL, out);
}

wm_result nwn2_aswm_serialize_releasing(wm_ctx *ctx, nwn2_aswm *a, wm_buffer *out)
{
    return serialize(ctx, a, a, out);
}
