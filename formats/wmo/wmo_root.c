/* WMO root files: MVER, MOHD (64 bytes), MOGN names, MOGI group entries,
 * GFID file ids; every chunk is kept in order. */
#include "wmo.h"

#include <string.h>

static wm_result read_mohd(wm_cursor *cur, wmo_root *root)
{
    wm_result r = WM_OK;
    r = r ? r : wm_read_u32(cur, &root->material_count, "MOHD material count");
    r = r ? r : wm_read_u32(cur, &root->group_count, "MOHD group count");
    r = r ? r : wm_read_u32(cur, &root->portal_count, "MOHD portal count");
    r = r ? r : wm_read_u32(cur, &root->light_count, "MOHD light count");
    r = r ? r : wm_read_u32(cur, &root->model_count, "MOHD model count");
    r = r ? r : wm_read_u32(cur, &root->doodad_count, "MOHD doodad count");
    r = r ? r : wm_read_u32(cur, &root->set_count, "MOHD set count");
    r = r ? r : wm_read_u32(cur, &root->ambient, "MOHD ambient colour");
    r = r ? r : wm_read_u32(cur, &root->wmo_id, "MOHD WMO id");
    for (int i = 0; i < 3 && !r; i++)
        r = wm_read_f32(cur, &root->bbox_min[i], "MOHD bounding box");
    for (int i = 0; i < 3 && !r; i++)
        r = wm_read_f32(cur, &root->bbox_max[i], "MOHD bounding box");
    r = r ? r : wm_read_u16(cur, &root->flags, "MOHD flags");
    r = r ? r : wm_read_u16(cur, &root->lod_count, "MOHD LOD count");
    return r;
}

static wm_result read_mogi(wm_cursor *cur, const wmo_chunk *c, wmo_root *root)
{
    if (c->size % 32 != 0) {
        cur->pos = c->offset;
        return wm_cursor_error(cur, WM_ERR_CORRUPT, "MOGI size %u is not a multiple of 32", c->size);
    }
    uint32_t count = c->size / 32;
    root->groups = wm_alloc_array(cur->ctx, count, sizeof *root->groups);
    if (!root->groups)
        return WM_ERR_NOMEM;
    root->group_info_count = count;
    cur->pos = c->offset;
    wm_result r = WM_OK;
    for (uint32_t i = 0; i < count && !r; i++) {
        wmo_group_info *g = &root->groups[i];
        r = r ? r : wm_read_u32(cur, &g->flags, "MOGI flags");
        for (int k = 0; k < 3 && !r; k++)
            r = wm_read_f32(cur, &g->bbox_min[k], "MOGI bounding box");
        for (int k = 0; k < 3 && !r; k++)
            r = wm_read_f32(cur, &g->bbox_max[k], "MOGI bounding box");
        r = r ? r : wm_read_i32(cur, &g->name_offset, "MOGI name offset");
    }
    return r;
}

static wm_result read_gfid(wm_cursor *cur, const wmo_chunk *c, wmo_root *root)
{
    if (c->size % 4 != 0) {
        cur->pos = c->offset;
        return wm_cursor_error(cur, WM_ERR_CORRUPT, "GFID size %u is not a multiple of 4", c->size);
    }
    root->file_id_count = c->size / 4;
    root->file_ids = wm_alloc_array(cur->ctx, root->file_id_count, sizeof *root->file_ids);
    if (!root->file_ids)
        return WM_ERR_NOMEM;
    cur->pos = c->offset;
    wm_result r = WM_OK;
    for (uint32_t i = 0; i < root->file_id_count && !r; i++)
        r = wm_read_u32(cur, &root->file_ids[i], "GFID entry");
    return r;
}

wm_result wmo_root_parse(wm_ctx *ctx, uint8_t *bytes, size_t size, const char *source, wmo_root *out)
{
    memset(out, 0, sizeof *out);
    out->bytes = bytes;
    out->size = size;
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, bytes, size, source);
    wm_result r = wmo_read_file_chunks(&cur, &out->chunks, &out->chunk_count, &out->version);
    if (r)
        return r;
    const wmo_chunk *mohd = wmo_find_chunk(out->chunks, out->chunk_count, WMO_MOHD);
    if (!mohd)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: no MOHD chunk: not a WMO root file", source);
    if (mohd->size < 64) {
        cur.pos = mohd->offset;
        return wm_cursor_error(&cur, WM_ERR_TRUNCATED, "MOHD is %u bytes, expected 64", mohd->size);
    }
    cur.pos = mohd->offset;
    if ((r = read_mohd(&cur, out)))
        return r;
    const wmo_chunk *mogi = wmo_find_chunk(out->chunks, out->chunk_count, WMO_MOGI);
    if (!mogi)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: no MOGI chunk (group information)", source);
    if ((r = read_mogi(&cur, mogi, out)))
        return r;
    const wmo_chunk *mogn = wmo_find_chunk(out->chunks, out->chunk_count, WMO_MOGN);
    if (mogn) {
        out->names = (const char *)bytes + mogn->offset;
        out->names_size = mogn->size;
    }
    const wmo_chunk *gfid = wmo_find_chunk(out->chunks, out->chunk_count, WMO_GFID);
    if (gfid && (r = read_gfid(&cur, gfid, out)))
        return r;
    if (out->group_count != out->group_info_count)
        wm_warn(ctx, "%s: MOHD announces %u groups but MOGI lists %u; using MOGI", source, out->group_count,
                out->group_info_count);
    return WM_OK;
}

wm_result wmo_root_load(wm_ctx *ctx, const char *path, wmo_root *out)
{
    uint8_t *bytes = NULL;
    size_t size = 0;
    memset(out, 0, sizeof *out);
    wm_result r = wm_file_read(ctx, path, &bytes, &size);
    return r ? r : wmo_root_parse(ctx, bytes, size, path, out);
}

void wmo_root_free(const wm_ctx *ctx, wmo_root *root)
{
    wm_free(ctx, root->bytes);
    wm_free(ctx, root->chunks);
    wm_free(ctx, root->groups);
    wm_free(ctx, root->file_ids);
    memset(root, 0, sizeof *root);
}

void wmo_root_group_name(const wmo_root *root, uint32_t name_offset, char *out, size_t cap)
{
    uint64_t offset = name_offset;
    size_t n = 0;
    if (cap == 0)
        return;
    while (offset + n < root->names_size && n + 1 < cap && root->names[offset + n] != '\0') {
        out[n] = root->names[offset + n];
        n++;
    }
    out[n] = '\0';
}
