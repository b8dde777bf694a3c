/* A RIM written back with one member added or replaced: the header and every other entry's name,
 * type and id kept, entries and data laid out again (header of 120 bytes, entries, data). */
#include "wm_archive.h"
#include "wm_io.h"

#include <string.h>

enum { RIM_HEADER = 120, RIM_ENTRY = 32 };

wm_result rim_write(wm_ctx *ctx, const wm_archive *archive, const wm_archive_change *change, wm_sink *sink);
wm_result rim_write(wm_ctx *ctx, const wm_archive *archive, const wm_archive_change *change, wm_sink *sink)
{
    const wm_input *in = wm_archive_bytes(archive);
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, in->data, in->size, in->name);
    uint32_t old_count = wm_archive_member_count(archive), key_offset = 0, type = 0;
    const uint8_t *entries = NULL;
    size_t length = 0;
    int added = change->replaced == UINT32_MAX;
    wm_result r = wm_cursor_seek(&cur, 16, "RIM header");
    if (!r) r = wm_read_u32(&cur, &key_offset, "key list offset");
    if (!r) r = wm_cursor_seek(&cur, key_offset, "key list");
    if (!r) r = wm_read_view(&cur, &entries, (size_t)old_count * RIM_ENTRY, "key list");
    if (!r && added) r = wm_archive_change_resource(ctx, change, 16, 0, &length, &type);
    if (r)
        return r;
    uint32_t count = old_count + (uint32_t)added;
    uint64_t offset = RIM_HEADER + (uint64_t)count * RIM_ENTRY, end = offset;
    for (uint32_t i = 0; i < count; i++)
        end += i == change->replaced || i == old_count ? change->size : wm_archive_member_at(archive, i)->size;
    if (end > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "the archive would pass 4 GiB, which its 32-bit offsets cannot hold");
    uint8_t header[RIM_HEADER] = {0}, entry[RIM_ENTRY];
    memcpy(header, in->data, key_offset < RIM_HEADER ? key_offset : RIM_HEADER); /* the list was after it */
    wm_store_le32(header + 12, count);
    wm_store_le32(header + 16, RIM_HEADER);
    r = wm_sink_write(sink, NULL, header, RIM_HEADER);
    for (uint32_t i = 0; i < count && !r; i++) {
        uint64_t size = i == change->replaced || i == old_count ? change->size : wm_archive_member_at(archive, i)->size;
        if (i < old_count) {
            memcpy(entry, entries + (size_t)i * RIM_ENTRY, RIM_ENTRY);
        } else {
            memset(entry, 0, RIM_ENTRY);
            memcpy(entry, change->name, length);
            wm_store_le32(entry + 16, type);
            wm_store_le32(entry + 20, i);
        }
        wm_store_le32(entry + 24, (uint32_t)offset);
        wm_store_le32(entry + 28, (uint32_t)size);
        r = wm_sink_write(sink, NULL, entry, RIM_ENTRY);
        offset += size;
    }
    for (uint32_t i = 0; i < count && !r; i++) {
        const wm_archive_member *m = wm_archive_member_at(archive, i);
        if (i == change->replaced || i == old_count)
            r = wm_sink_write(sink, NULL, change->data, change->size);
        else
            r = wm_sink_write(sink, NULL, in->data + m->offset, (size_t)m->size);
    }
    return r;
}
