/* WMO group files: MVER, one MOGP chunk (68-byte header + subchunks), and
 * whatever follows. Decoded arrays are re-encoded on serialisation; every
 * other chunk is copied, so an unmodified group is byte-identical. */
#include "wmo.h"

#include <string.h>

static wm_result read_group_header(wm_cursor *cur, wmo_group_header *h)
{
    wm_result r = WM_OK;
    r = r ? r : wm_read_u32(cur, &h->name_offset, "MOGP name offset");
    r = r ? r : wm_read_u32(cur, &h->description_offset, "MOGP description offset");
    r = r ? r : wm_read_u32(cur, &h->flags, "MOGP flags");
    for (int i = 0; i < 3 && !r; i++)
        r = wm_read_f32(cur, &h->bbox_min[i], "MOGP bounding box");
    for (int i = 0; i < 3 && !r; i++)
        r = wm_read_f32(cur, &h->bbox_max[i], "MOGP bounding box");
    r = r ? r : wm_read_u16(cur, &h->portal_start, "MOGP portal start");
    r = r ? r : wm_read_u16(cur, &h->portal_count, "MOGP portal count");
    r = r ? r : wm_read_u16(cur, &h->trans_batches, "MOGP batch counts");
    r = r ? r : wm_read_u16(cur, &h->int_batches, "MOGP batch counts");
    r = r ? r : wm_read_u16(cur, &h->ext_batches, "MOGP batch counts");
    r = r ? r : wm_read_u16(cur, &h->batch_padding, "MOGP batch counts");
    r = r ? r : wm_read_bytes(cur, h->fog_ids, 4, "MOGP fog ids");
    r = r ? r : wm_read_u32(cur, &h->liquid_type, "MOGP liquid type");
    r = r ? r : wm_read_u32(cur, &h->group_id, "MOGP group id");
    r = r ? r : wm_read_u32(cur, &h->flags2, "MOGP flags2");
    r = r ? r : wm_read_i16(cur, &h->split_parent, "MOGP split parent");
    r = r ? r : wm_read_i16(cur, &h->split_next, "MOGP split next");
    return r;
}

static void put_group_header(wm_buffer *b, const wmo_group_header *h)
{
    wm_put_u32(b, h->name_offset);
    wm_put_u32(b, h->description_offset);
    wm_put_u32(b, h->flags);
    for (int i = 0; i < 3; i++)
        wm_put_f32(b, h->bbox_min[i]);
    for (int i = 0; i < 3; i++)
        wm_put_f32(b, h->bbox_max[i]);
    wm_put_u16(b, h->portal_start);
    wm_put_u16(b, h->portal_count);
    wm_put_u16(b, h->trans_batches);
    wm_put_u16(b, h->int_batches);
    wm_put_u16(b, h->ext_batches);
    wm_put_u16(b, h->batch_padding);
    wm_put_bytes(b, h->fog_ids, 4);
    wm_put_u32(b, h->liquid_type);
    wm_put_u32(b, h->group_id);
    wm_put_u32(b, h->flags2);
    wm_put_i16(b, h->split_parent);
    wm_put_i16(b, h->split_next);
}

/* Chunk size must be a whole number of records; returns the record count. */
static wm_result record_count(wm_cursor *cur, const wmo_chunk *c, uint32_t record, uint32_t *out)
{
    if (c->size % record != 0) {
        char name[5];
        wmo_chunk_name(c->id, name);
        cur->pos = c->offset;
        return wm_cursor_error(cur, WM_ERR_CORRUPT, "chunk %s size %u is not a multiple of %u", name, c->size,
                               record);
    }
    *out = c->size / record;
    return WM_OK;
}

static wm_result decode_indices(wm_cursor *cur, const wmo_chunk *c, int wide, wmo_group *g)
{
    uint32_t triangles = 0;
    wm_result r = record_count(cur, c, wide ? 12u : 6u, &triangles);
    if (r)
        return r;
    if ((r = wm_check_count(cur->ctx, triangles, "WMO triangles")))
        return r;
    g->indices = wm_alloc_array(cur->ctx, (size_t)triangles * 3, sizeof *g->indices);
    if (!g->indices)
        return WM_ERR_NOMEM;
    cur->pos = c->offset;
    for (size_t i = 0; i < (size_t)triangles * 3 && !r; i++) {
        if (wide) {
            r = wm_read_u32(cur, &g->indices[i], "MOVX index");
        } else {
            uint16_t v = 0;
            r = wm_read_u16(cur, &v, "MOVI index");
            g->indices[i] = v;
        }
    }
    g->triangle_count = triangles;
    g->uses_movx = wide;
    return r;
}

static wm_result decode_vertices(wm_cursor *cur, const wmo_chunk *c, wmo_group *g)
{
    uint32_t count = 0;
    wm_result r = record_count(cur, c, 12u, &count);
    if (r || (r = wm_check_count(cur->ctx, count, "MOVT vertices")))
        return r;
    g->positions = wm_alloc_array(cur->ctx, (size_t)count * 3, sizeof *g->positions);
    if (!g->positions)
        return WM_ERR_NOMEM;
    cur->pos = c->offset;
    for (size_t i = 0; i < (size_t)count * 3 && !r; i++)
        r = wm_read_f32(cur, &g->positions[i], "MOVT vertex");
    g->vertex_count = count;
    return r;
}

static wm_result decode_nodes(wm_cursor *cur, const wmo_chunk *c, wmo_group *g)
{
    uint32_t count = 0;
    wm_result r = record_count(cur, c, 16u, &count);
    if (r)
        return r;
    if (count > WMO_MAX_BSP_NODES + 1u) {
        cur->pos = c->offset;
        return wm_cursor_error(cur, WM_ERR_CORRUPT, "MOBN has %u nodes; i16 children address at most %u", count,
                               WMO_MAX_BSP_NODES + 1u);
    }
    g->nodes = wm_alloc_array(cur->ctx, count, sizeof *g->nodes);
    if (!g->nodes)
        return WM_ERR_NOMEM;
    cur->pos = c->offset;
    for (uint32_t i = 0; i < count && !r; i++) {
        wmo_bsp_node *n = &g->nodes[i];
        r = r ? r : wm_read_u16(cur, &n->flags, "MOBN flags");
        r = r ? r : wm_read_i16(cur, &n->negative, "MOBN negative child");
        r = r ? r : wm_read_i16(cur, &n->positive, "MOBN positive child");
        r = r ? r : wm_read_u16(cur, &n->face_count, "MOBN face count");
        r = r ? r : wm_read_u32(cur, &n->first_face, "MOBN first face");
        r = r ? r : wm_read_f32(cur, &n->plane, "MOBN plane");
    }
    g->node_count = count;
    return r;
}

static wm_result decode_refs(wm_cursor *cur, const wmo_chunk *c, wmo_group *g)
{
    uint32_t count = 0;
    wm_result r = record_count(cur, c, 2u, &count);
    if (r)
        return r;
    g->refs = wm_alloc_array(cur->ctx, count, sizeof *g->refs);
    if (!g->refs)
        return WM_ERR_NOMEM;
    cur->pos = c->offset;
    for (uint32_t i = 0; i < count && !r; i++)
        r = wm_read_u16(cur, &g->refs[i], "MOBR entry");
    g->ref_count = count;
    return r;
}

static wm_result decode_liquid(wm_cursor *cur, const wmo_chunk *c, wmo_group *g)
{
    wmo_liquid *l = &g->liquid;
    wm_result r = WM_OK;
    wm_cursor sub;
    wm_cursor_init(&sub, cur->ctx, cur->data, c->offset + c->size, cur->source);
    sub.pos = c->offset;
    r = r ? r : wm_read_i32(&sub, &l->xverts, "MLIQ x vertices");
    r = r ? r : wm_read_i32(&sub, &l->yverts, "MLIQ y vertices");
    r = r ? r : wm_read_i32(&sub, &l->xtiles, "MLIQ x tiles");
    r = r ? r : wm_read_i32(&sub, &l->ytiles, "MLIQ y tiles");
    for (int i = 0; i < 3 && !r; i++)
        r = wm_read_f32(&sub, &l->corner[i], "MLIQ corner");
    r = r ? r : wm_read_u16(&sub, &l->material, "MLIQ material");
    if (r)
        return r;
    if (l->xverts < 0 || l->yverts < 0 || l->xtiles < 0 || l->ytiles < 0)
        return wm_cursor_error(&sub, WM_ERR_CORRUPT, "MLIQ has negative counts (%d x %d vertices, %d x %d tiles)",
                               l->xverts, l->yverts, l->xtiles, l->ytiles);
    if ((l->xtiles > 0 && l->xtiles >= l->xverts) || (l->ytiles > 0 && l->ytiles >= l->yverts))
        return wm_cursor_error(&sub, WM_ERR_CORRUPT, "MLIQ has %d x %d tiles but only %d x %d vertices", l->xtiles,
                               l->ytiles, l->xverts, l->yverts);
    uint64_t verts = (uint64_t)l->xverts * (uint64_t)l->yverts;
    uint64_t tiles = (uint64_t)l->xtiles * (uint64_t)l->ytiles;
    r = r ? r : wm_cursor_check_array(&sub, verts, 8, 0, "MLIQ vertices");
    r = r ? r : wm_read_view(&sub, &l->vertices, (size_t)verts * 8, "MLIQ vertices");
    r = r ? r : wm_cursor_check_array(&sub, tiles, 1, 0, "MLIQ tiles");
    r = r ? r : wm_read_view(&sub, &l->tiles, (size_t)tiles, "MLIQ tiles");
    if (r)
        return r;
    g->has_liquid = 1;
    return WM_OK;
}

static wm_result check_group(wm_ctx *ctx, const wmo_group *g, const char *source)
{
    for (uint32_t t = 0; t < g->triangle_count; t++)
        for (int k = 0; k < 3; k++)
            if (g->indices[3 * t + k] >= g->vertex_count)
                return wm_error(ctx, WM_ERR_CORRUPT, "%s: triangle %u vertex %d: index %u but MOVT has %u vertices",
                                source, t, k, g->indices[3 * t + k], g->vertex_count);
    for (uint32_t i = 0; i < g->node_count; i++) {
        const wmo_bsp_node *n = &g->nodes[i];
        if (n->flags & WMO_BSP_LEAF) {
            if ((uint64_t)n->first_face + n->face_count > g->ref_count)
                return wm_error(ctx, WM_ERR_CORRUPT, "%s: MOBN node %u: faces %u..%u past MOBR's %u entries", source,
                                i, n->first_face, n->first_face + n->face_count, g->ref_count);
        } else {
            if ((n->flags & WMO_BSP_AXIS_MASK) > 2)
                return wm_error(ctx, WM_ERR_CORRUPT, "%s: MOBN node %u: flags 0x%x name no axis", source, i,
                                n->flags);
            if (n->negative < -1 || n->positive < -1 || n->negative >= (int32_t)g->node_count ||
                n->positive >= (int32_t)g->node_count)
                return wm_error(ctx, WM_ERR_CORRUPT, "%s: MOBN node %u: child %d/%d out of range (%u nodes)",
                                source, i, n->negative, n->positive, g->node_count);
        }
    }
    for (uint32_t i = 0; i < g->ref_count; i++)
        if (g->refs[i] >= g->triangle_count)
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: MOBR entry %u: triangle %u but the group has %u", source, i,
                            g->refs[i], g->triangle_count);
    return WM_OK;
}

static wm_result decode_subchunks(wm_cursor *cur, wmo_group *g, const char *source)
{
    wm_result r = WM_OK;
    const wmo_chunk *movx = wmo_find_chunk(g->sub, g->sub_count, WMO_MOVX);
    for (uint32_t i = 0; i < g->sub_count && !r; i++) {
        const wmo_chunk *c = &g->sub[i];
        if (c->id == WMO_MOPY && !g->mopy) {
            uint32_t n = 0;
            r = record_count(cur, c, 2u, &n);
            g->mopy = g->bytes + c->offset;
        } else if ((c->id == WMO_MOVX || (c->id == WMO_MOVI && !movx)) && g->index_chunk < 0) {
            r = decode_indices(cur, c, c->id == WMO_MOVX, g);
            g->index_chunk = (int32_t)i;
        } else if (c->id == WMO_MOVT && g->vertex_chunk < 0) {
            r = decode_vertices(cur, c, g);
            g->vertex_chunk = (int32_t)i;
        } else if (c->id == WMO_MOBN && g->node_chunk < 0) {
            r = decode_nodes(cur, c, g);
            g->node_chunk = (int32_t)i;
        } else if (c->id == WMO_MOBR && g->ref_chunk < 0) {
            r = decode_refs(cur, c, g);
            g->ref_chunk = (int32_t)i;
        } else if (c->id == WMO_MLIQ && !g->has_liquid) {
            r = decode_liquid(cur, c, g);
        }
    }
    if (r)
        return r;
    if (g->mopy) {
        const wmo_chunk *c = wmo_find_chunk(g->sub, g->sub_count, WMO_MOPY);
        if (c->size / 2 != g->triangle_count)
            return wm_error(cur->ctx, WM_ERR_CORRUPT, "%s: MOPY lists %u triangles but the index chunk has %u",
                            source, c->size / 2, g->triangle_count);
    }
    return check_group(cur->ctx, g, source);
}

wm_result wmo_group_parse(wm_ctx *ctx, uint8_t *bytes, size_t size, const char *source, wmo_group *out)
{
    memset(out, 0, sizeof *out);
    out->bytes = bytes;
    out->size = size;
    out->index_chunk = out->vertex_chunk = out->node_chunk = out->ref_chunk = -1;
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, bytes, size, source);
    wm_result r = wmo_read_file_chunks(&cur, &out->top, &out->top_count, &out->version);
    if (r)
        return r;
    const wmo_chunk *mogp = wmo_find_chunk(out->top, out->top_count, WMO_MOGP);
    if (!mogp)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: no MOGP chunk: not a WMO group file", source);
    if (mogp->size < WMO_MOGP_HEADER_SIZE) {
        cur.pos = mogp->offset;
        return wm_cursor_error(&cur, WM_ERR_TRUNCATED, "MOGP is %u bytes, its header needs %u", mogp->size,
                               WMO_MOGP_HEADER_SIZE);
    }
    cur.pos = mogp->offset;
    if ((r = read_group_header(&cur, &out->header)))
        return r;
    if ((r = wmo_read_chunks(&cur, mogp->offset + mogp->size, &out->sub, &out->sub_count)))
        return r;
    return decode_subchunks(&cur, out, source);
}

wm_result wmo_group_load(wm_ctx *ctx, const char *path, wmo_group *out)
{
    uint8_t *bytes = NULL;
    size_t size = 0;
    memset(out, 0, sizeof *out);
    wm_result r = wm_file_read(ctx, path, &bytes, &size);
    return r ? r : wmo_group_parse(ctx, bytes, size, path, out);
}

void wmo_group_free(const wm_ctx *ctx, wmo_group *g)
{
    wm_free(ctx, g->bytes);
    wm_free(ctx, g->top);
    wm_free(ctx, g->sub);
    wm_free(ctx, g->indices);
    wm_free(ctx, g->positions);
    wm_free(ctx, g->nodes);
    wm_free(ctx, g->refs);
    memset(g, 0, sizeof *g);
}

int wmo_group_is_lod(const wmo_group *g)
{
    return g->mopy == NULL;
}

static void put_decoded_chunk(wm_buffer *b, const wmo_group *g, uint32_t i)
{
    if ((int32_t)i == g->index_chunk) {
        for (size_t k = 0; k < (size_t)g->triangle_count * 3; k++) {
            if (g->uses_movx)
                wm_put_u32(b, g->indices[k]);
            else
                wm_put_u16(b, (uint16_t)g->indices[k]);
        }
    } else if ((int32_t)i == g->vertex_chunk) {
        for (size_t k = 0; k < (size_t)g->vertex_count * 3; k++)
            wm_put_f32(b, g->positions[k]);
    } else if ((int32_t)i == g->node_chunk) {
        wmo_put_bsp_nodes(b, g->nodes, g->node_count);
    } else if ((int32_t)i == g->ref_chunk) {
        for (uint32_t k = 0; k < g->ref_count; k++)
            wm_put_u16(b, g->refs[k]);
    } else {
        wm_put_bytes(b, g->bytes + g->sub[i].offset, g->sub[i].size);
    }
}

wm_result wmo_group_serialize(wm_ctx *ctx, const wmo_group *g, wm_buffer *b)
{
    (void)ctx;
    for (uint32_t t = 0; t < g->top_count; t++) {
        const wmo_chunk *c = &g->top[t];
        if (c->id != WMO_MOGP || c != wmo_find_chunk(g->top, g->top_count, WMO_MOGP)) {
            wm_put_u32(b, c->id);
            wm_put_u32(b, c->size);
            wm_put_bytes(b, g->bytes + c->offset, c->size);
            continue;
        }
        size_t at = wmo_begin_chunk(b, WMO_MOGP);
        put_group_header(b, &g->header);
        for (uint32_t i = 0; i < g->sub_count; i++) {
            size_t sub_at = wmo_begin_chunk(b, g->sub[i].id);
            put_decoded_chunk(b, g, i);
            wmo_end_chunk(b, sub_at);
        }
        wmo_end_chunk(b, at);
    }
    return b->status;
}
