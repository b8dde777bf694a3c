/* A collision-only WMO group from triangles: MOGP flags 0x1 (BSP) plus
 * outdoor or indoor, every mandatory chunk (MOPY MOVI MOVT MONR MOTV MOBA),
 * triangles flagged 0x08 with material 0xFF, and a MOBN/MOBR tree covering
 * every triangle (FORMAT-NOTES section 3). */
#include "wmo.h"

#include <math.h>
#include <string.h>

/* Per-vertex normals: the area-weighted sum of the adjacent faces. */
static wm_result vertex_normals(wm_ctx *ctx, const float *positions, uint32_t vertex_count, const uint32_t *indices,
                                uint32_t triangle_count, float **out)
{
    float *normals = wm_alloc_array(ctx, (size_t)vertex_count * 3, sizeof *normals);
    if (!normals)
        return WM_ERR_NOMEM;
    for (uint32_t t = 0; t < triangle_count; t++) {
        const uint32_t *v = &indices[3 * (size_t)t];
        float n[3];
        float len = wm_tri_normal(&positions[3 * v[0]], &positions[3 * v[1]], &positions[3 * v[2]], n);
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++)
                normals[3 * v[c] + k] += n[k] * len;
    }
    for (uint32_t i = 0; i < vertex_count; i++) {
        float *n = &normals[3 * (size_t)i];
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (len > 0.0f && isfinite(len)) {
            n[0] /= len;
            n[1] /= len;
            n[2] /= len;
        } else {
            n[0] = n[1] = 0.0f;
            n[2] = 1.0f;
        }
    }
    *out = normals;
    return WM_OK;
}

static void put_header(wm_buffer *b, const float *positions, uint32_t vertex_count, uint32_t name_offset,
                       uint32_t flags)
{
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (uint32_t i = 0; i < vertex_count; i++)
        for (int k = 0; k < 3; k++) {
            float v = positions[3 * (size_t)i + k];
            if (i == 0 || v < lo[k])
                lo[k] = v;
            if (i == 0 || v > hi[k])
                hi[k] = v;
        }
    wm_put_u32(b, name_offset);
    wm_put_u32(b, 0); /* description: the empty name at MOGN offset 0 */
    wm_put_u32(b, flags);
    for (int k = 0; k < 3; k++)
        wm_put_f32(b, lo[k]);
    for (int k = 0; k < 3; k++)
        wm_put_f32(b, hi[k]);
    wm_put_zeros(b, 2 * 6 + 4); /* portals, batch counts, fog ids */
    wm_put_u32(b, 0);           /* liquid type */
    wm_put_u32(b, 0);           /* WMOAreaTable id */
    wm_put_u32(b, 0);           /* flags2 */
    wm_put_u32(b, 0);           /* split group links (0 as in the corpus files) */
}

wm_result wmo_build_collision_group(wm_ctx *ctx, const float *positions, uint32_t vertex_count,
                                    const uint32_t *indices, uint32_t triangle_count, uint32_t name_offset,
                                    uint32_t group_flags, uint32_t leaf_size, wm_buffer *b)
{
    if (vertex_count > WMO_MAX_GROUP_ELEMENTS || triangle_count > WMO_MAX_GROUP_ELEMENTS)
        return wm_error(ctx, WM_ERR_INVALID, "a WMO group holds at most %u vertices and triangles, got %u and %u",
                        WMO_MAX_GROUP_ELEMENTS, vertex_count, triangle_count);
    wmo_bsp_node *nodes = NULL;
    uint16_t *refs = NULL;
    uint32_t node_count = 0, ref_count = 0;
    float *normals = NULL;
    wm_result r = wmo_bsp_build(ctx, positions, indices, triangle_count, leaf_size, &nodes, &node_count, &refs,
                                &ref_count);
    r = r ? r : vertex_normals(ctx, positions, vertex_count, indices, triangle_count, &normals);
    if (r) {
        wm_free(ctx, nodes);
        wm_free(ctx, refs);
        return r;
    }
    wm_buffer_reserve(b, 100 + (size_t)triangle_count * 8 + (size_t)vertex_count * 32 + (size_t)node_count * 16 +
                             (size_t)ref_count * 2);
    size_t at = wmo_begin_chunk(b, WMO_MVER);
    wm_put_u32(b, WMO_VERSION);
    wmo_end_chunk(b, at);
    size_t mogp = wmo_begin_chunk(b, WMO_MOGP);
    put_header(b, positions, vertex_count, name_offset, group_flags | WMO_GROUP_HAS_BSP);

    at = wmo_begin_chunk(b, WMO_MOPY);
    for (uint32_t t = 0; t < triangle_count; t++) {
        wm_put_u8(b, WMO_POLY_COLLISION);
        wm_put_u8(b, WMO_MATERIAL_COLLISION_ONLY);
    }
    wmo_end_chunk(b, at);
    at = wmo_begin_chunk(b, WMO_MOVI);
    for (size_t i = 0; i < (size_t)triangle_count * 3; i++)
        wm_put_u16(b, (uint16_t)indices[i]);
    wmo_end_chunk(b, at);
    at = wmo_begin_chunk(b, WMO_MOVT);
    for (size_t i = 0; i < (size_t)vertex_count * 3; i++)
        wm_put_f32(b, positions[i]);
    wmo_end_chunk(b, at);
    at = wmo_begin_chunk(b, WMO_MONR);
    for (size_t i = 0; i < (size_t)vertex_count * 3; i++)
        wm_put_f32(b, normals[i]);
    wmo_end_chunk(b, at);
    at = wmo_begin_chunk(b, WMO_MOTV);
    wm_put_zeros(b, (size_t)vertex_count * 8);
    wmo_end_chunk(b, at);
    at = wmo_begin_chunk(b, WMO_MOBA); /* no render batches: nothing is drawn */
    wmo_end_chunk(b, at);
    at = wmo_begin_chunk(b, WMO_MOBN);
    wmo_put_bsp_nodes(b, nodes, node_count);
    wmo_end_chunk(b, at);
    at = wmo_begin_chunk(b, WMO_MOBR);
    for (uint32_t i = 0; i < ref_count; i++)
        wm_put_u16(b, refs[i]);
    wmo_end_chunk(b, at);
    wmo_end_chunk(b, mogp);

    wm_free(ctx, nodes);
    wm_free(ctx, refs);
    wm_free(ctx, normals);
    return b->status;
}
