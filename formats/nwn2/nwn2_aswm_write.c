/* Writer of the uncompressed ASWM walkmesh, version 0x6c. */
#include "nwn2.h"

static void put_f32s(wm_buffer *b, const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        wm_put_f32(b, v[i]);
}

static void put_u32s(wm_buffer *b, const uint32_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        wm_put_u32(b, v[i]);
}

static void put_edges(wm_buffer *b, const nwn2_edge *edges, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        put_u32s(b, edges[i].v, 2);
        put_u32s(b, edges[i].tri, 2);
    }
}

static void put_tile(wm_buffer *b, const nwn2_tile *t)
{
    wm_put_bytes(b, t->name, sizeof t->name);
    wm_put_u8(b, t->owns_data);
    wm_put_u32(b, t->vertex_count);
    wm_put_u32(b, t->edge_count);
    wm_put_u32(b, t->triangle_count);
    wm_put_f32(b, t->size_x);
    wm_put_f32(b, t->size_y);
    wm_put_u32(b, t->triangle_offset);
    if (t->owns_data) {
        put_f32s(b, t->vertices, (size_t)t->vertex_count * 3);
        put_edges(b, t->edges, t->edge_count);
    }
    wm_put_u32(b, t->path_flags);
    wm_put_u32(b, t->local_count);
    wm_put_u8(b, t->node_count);
    wm_put_u32(b, t->rle_size);
    wm_put_bytes(b, t->local_to_node, t->local_count);
    put_u32s(b, t->node_to_local, t->node_count);
    wm_put_bytes(b, t->nodes, (size_t)t->node_count * t->node_count);
    wm_put_u32(b, t->flags);
}

static void put_island(wm_buffer *b, const nwn2_island *is)
{
    wm_put_u32(b, is->index);
    wm_put_u32(b, is->tile);
    put_f32s(b, is->centre, 3);
    wm_put_u32(b, is->triangle_count);
    wm_put_u32(b, is->adjacent_count);
    put_u32s(b, is->adjacent, is->adjacent_count);
    wm_put_u32(b, is->distance_count);
    put_f32s(b, is->distance, is->distance_count);
    wm_put_u32(b, is->exit_count);
    put_u32s(b, is->exit, is->exit_count);
}

wm_result nwn2_aswm_serialize(wm_ctx *ctx, const nwn2_aswm *a, wm_buffer *out)
{
    if (a->owns_data == 0 && a->vertex_count)
        return wm_error(ctx, WM_ERR_INVALID, "ASWM: owns_data is 0 but %u vertices are present", a->vertex_count);
    if ((a->tiles == NULL && a->grid_width != 0 && a->grid_height != 0) ||
        (a->island_count && (!a->islands || !a->island_paths)))
        return wm_error(ctx, WM_ERR_INVALID, "ASWM: tile grid or island arrays missing for their counts");
    if (wm_buffer_reserve(out, 53 + (size_t)a->vertex_count * 12 + (size_t)a->edge_count * 16 +
                                   (size_t)a->triangle_count * 64))
        return out->status;
    wm_put_u32(out, NWN2_ASWM_VERSION);
    wm_put_bytes(out, a->name, sizeof a->name);
    wm_put_u8(out, a->owns_data);
    wm_put_u32(out, a->vertex_count);
    wm_put_u32(out, a->edge_count);
    wm_put_u32(out, a->triangle_count);
    wm_put_u32(out, a->reserved);
    put_f32s(out, a->vertices, (size_t)a->vertex_count * 3);
    put_edges(out, a->edges, a->edge_count);
    for (uint32_t i = 0; i < a->triangle_count; i++) {
        const nwn2_triangle *t = &a->triangles[i];
        put_u32s(out, t->v, 3);
        put_u32s(out, t->edge, 3);
        put_u32s(out, t->neighbour, 3);
        put_f32s(out, t->centre, 2);
        put_f32s(out, t->normal, 3);
        wm_put_f32(out, t->d);
        wm_put_u16(out, t->island);
        wm_put_u16(out, t->flags);
    }
    wm_put_u32(out, a->grid_flags);
    wm_put_f32(out, a->tile_width);
    wm_put_u32(out, a->grid_height);
    wm_put_u32(out, a->grid_width);
    uint64_t tiles = (uint64_t)a->grid_width * a->grid_height;
    for (uint64_t i = 0; i < tiles; i++)
        put_tile(out, &a->tiles[i]);
    wm_put_u32(out, a->border_size);
    wm_put_u32(out, a->island_count);
    for (uint32_t i = 0; i < a->island_count; i++)
        put_island(out, &a->islands[i]);
    uint64_t paths = (uint64_t)a->island_count * a->island_count;
    for (uint64_t i = 0; i < paths; i++) {
        wm_put_u16(out, a->island_paths[i].next);
        wm_put_u16(out, a->island_paths[i].padding);
        wm_put_f32(out, a->island_paths[i].weight);
    }
    if (a->trailing_size)
        wm_put_bytes(out, a->trailing, a->trailing_size);
    return out->status;
}
