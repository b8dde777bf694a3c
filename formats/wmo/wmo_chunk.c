/* The WMO chunk reader: {char[4] id stored byte-reversed, u32 size, payload}. */
#include "wmo.h"

#include <string.h>

void wmo_chunk_name(uint32_t id, char out[5])
{
    for (int i = 0; i < 4; i++) {
        char c = (char)((id >> (24 - 8 * i)) & 0xFF);
        out[i] = (c >= 0x20 && c < 0x7F) ? c : '?';
    }
    out[4] = '\0';
}

wm_result wmo_read_chunks(wm_cursor *cur, size_t end, wmo_chunk **out, uint32_t *out_count)
{
    wmo_chunk *list = NULL;
    uint32_t count = 0, capacity = 0;
    *out = NULL;
    *out_count = 0;
    while (cur->pos < end) {
        size_t at = cur->pos;
        if (end - at < 8) {
            wm_free(cur->ctx, list);
            return wm_cursor_error(cur, WM_ERR_TRUNCATED, "chunk header needs 8 bytes, %zu left", end - at);
        }
        uint32_t id = 0, size = 0;
        if (wm_read_u32(cur, &id, "chunk id") || wm_read_u32(cur, &size, "chunk size")) {
            wm_free(cur->ctx, list);
            return WM_ERR_TRUNCATED;
        }
        if (size > end - cur->pos) {
            char name[5];
            wmo_chunk_name(id, name);
            wm_free(cur->ctx, list);
            cur->pos = at;
            return wm_cursor_error(cur, WM_ERR_TRUNCATED, "chunk %s announces %u bytes, only %zu left", name,
                                   size, end - (at + 8));
        }
        if (count == capacity) {
            uint32_t grown = capacity ? capacity * 2 : 16;
            wmo_chunk *bigger = list ? wm_realloc_array(cur->ctx, list, grown, sizeof *list)
                                     : wm_alloc_array(cur->ctx, grown, sizeof *list);
            if (!bigger) {
                wm_free(cur->ctx, list);
                return WM_ERR_NOMEM;
            }
            list = bigger;
            capacity = grown;
        }
        list[count].id = id;
        list[count].offset = cur->pos;
        list[count].size = size;
        count++;
        cur->pos += size;
    }
    *out = list;
    *out_count = count;
    return WM_OK;
}

wm_result wmo_read_file_chunks(wm_cursor *cur, wmo_chunk **out, uint32_t *out_count, uint32_t *out_version)
{
    wm_result r = wmo_read_chunks(cur, cur->size, out, out_count);
    if (r)
        return r;
    if (*out_count == 0 || (*out)[0].id != WMO_MVER || (*out)[0].size < 4)
        return wm_error(cur->ctx, WM_ERR_CORRUPT, "%s: offset 0x0: a WMO starts with a 4-byte MVER chunk",
                        cur->source);
    *out_version = wm_le32(cur->data + (*out)[0].offset);
    if (*out_version != WMO_VERSION)
        return wm_error(cur->ctx, WM_ERR_UNSUPPORTED, "%s: WMO version %u (only 17 is supported)", cur->source,
                        *out_version);
    return WM_OK;
}

const wmo_chunk *wmo_find_chunk(const wmo_chunk *chunks, uint32_t count, uint32_t id)
{
    for (uint32_t i = 0; i < count; i++)
        if (chunks[i].id == id)
            return &chunks[i];
    return NULL;
}

int wmo_probe_kind(const uint8_t *head, size_t head_size, int *out_is_root)
{
    if (out_is_root)
        *out_is_root = 0;
    if (head_size < 20 || memcmp(head, "REVM", 4) != 0 || wm_le32(head + 4) != 4)
        return 0;
    if (memcmp(head + 12, "DHOM", 4) == 0) {
        if (out_is_root)
            *out_is_root = 1;
    } else if (memcmp(head + 12, "PGOM", 4) != 0) {
        return 0;
    }
    return wm_le32(head + 8) == WMO_VERSION ? 100 : 60;
}

size_t wmo_begin_chunk(wm_buffer *b, uint32_t id)
{
    wm_put_u32(b, id);
    size_t at = b->size;
    wm_put_u32(b, 0);
    return at;
}

void wmo_end_chunk(wm_buffer *b, size_t size_at)
{
    if (b->status == WM_OK)
        wm_patch_u32(b, size_at, (uint32_t)(b->size - size_at - 4));
}
