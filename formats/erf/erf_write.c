/* An ERF written back with one member added or replaced: the header, localized strings and
 * every other key entry kept byte for byte, the tables and data laid out again after them
 * (header, strings, keys, resources, data: the order the games' own files use). */
#include "wm_archive.h"
#include "wm_io.h"

#include <string.h>

enum { ERF_HEADER = 160, AT_COUNT = 16, AT_STRINGS = 20, AT_KEYS = 24, AT_RESOURCES = 28 };

typedef struct erf_tables {
    const uint8_t *header, *strings, *keys;
    uint32_t string_bytes, count;
    size_t name_size;
} erf_tables;

static wm_result read_tables(wm_ctx *ctx, const wm_input *in, erf_tables *t)
{
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, in->data, in->size, in->name);
    uint32_t skipped, string_offset = 0, key_offset = 0;
    wm_result r = wm_read_view(&cur, &t->header, ERF_HEADER, "ERF header");
    if (!r) r = wm_cursor_seek(&cur, 12, "ERF header");
    if (!r) r = wm_read_u32(&cur, &t->string_bytes, "localized string bytes");
    if (!r) r = wm_read_u32(&cur, &t->count, "entry count");
    if (!r) r = wm_read_u32(&cur, &string_offset, "localized string offset");
    if (!r) r = wm_read_u32(&cur, &key_offset, "key list offset");
    if (!r) r = wm_read_u32(&cur, &skipped, "resource list offset");
    t->name_size = !r && memcmp(t->header + 4, "V1.1", 4) == 0 ? 32 : 16;
    if (!r) r = wm_cursor_seek(&cur, string_offset, "localized strings");
    if (!r) r = wm_read_view(&cur, &t->strings, t->string_bytes, "localized strings");
    if (!r) r = wm_cursor_seek(&cur, key_offset, "key list");
    if (!r) r = wm_read_view(&cur, &t->keys, (size_t)t->count * (t->name_size + 8), "key list");
    return r;
}

/* The key entry of an added member: its name, id (its index), type, unused. */
static void new_key(const wm_archive_change *change, size_t length, uint32_t type, uint32_t id, size_t name_size,
                    uint8_t *entry)
{
    memset(entry, 0, name_size + 8);
    memcpy(entry, change->name, length);
    wm_store_le32(entry + name_size, id);
    entry[name_size + 4] = (uint8_t)type;
    entry[name_size + 5] = (uint8_t)(type >> 8);
}

static const uint8_t *member_data(const wm_archive *archive, const wm_archive_change *change, uint32_t i,
                                  uint64_t *size)
{
    if (i == change->replaced) {
        *size = change->size;
        return change->data;
    }
    const wm_archive_member *m = wm_archive_member_at(archive, i);
    *size = m->size;
    return wm_archive_bytes(archive)->data + m->offset;
}

wm_result erf_write(wm_ctx *ctx, const wm_archive *archive, const wm_archive_change *change, wm_sink *sink);
wm_result erf_write(wm_ctx *ctx, const wm_archive *archive, const wm_archive_change *change, wm_sink *sink)
{
    erf_tables t;
    size_t length = 0;
    uint32_t type = 0;
    int added = change->replaced == UINT32_MAX;
    wm_result r = read_tables(ctx, wm_archive_bytes(archive), &t);
    if (!r && added)
        r = wm_archive_change_resource(ctx, change, t.name_size, t.name_size == 32, &length, &type);
    if (r)
        return r;
    uint32_t count = t.count + (uint32_t)added;
    uint64_t keys_at = ERF_HEADER + (uint64_t)t.string_bytes, resources_at = keys_at + count * (t.name_size + 8);
    uint64_t end = resources_at + 8ull * count, size;
    for (uint32_t i = 0; i < count; i++) {
        member_data(archive, change, i < t.count ? i : UINT32_MAX, &size);
        end += size;
    }
    if (end > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "the archive would pass 4 GiB, which its 32-bit offsets cannot hold");
    uint8_t header[ERF_HEADER], entry[40], resource[8];
    memcpy(header, t.header, ERF_HEADER);
    wm_store_le32(header + AT_COUNT, count);
    wm_store_le32(header + AT_STRINGS, ERF_HEADER);
    wm_store_le32(header + AT_KEYS, (uint32_t)keys_at);
    wm_store_le32(header + AT_RESOURCES, (uint32_t)resources_at);
    r = wm_sink_write(sink, NULL, header, ERF_HEADER);
    if (!r) r = wm_sink_write(sink, NULL, t.strings, t.string_bytes);
    if (!r) r = wm_sink_write(sink, NULL, t.keys, (size_t)t.count * (t.name_size + 8));
    if (!r && added) {
        new_key(change, length, type, t.count, t.name_size, entry);
        r = wm_sink_write(sink, NULL, entry, t.name_size + 8);
    }
    uint64_t offset = resources_at + 8ull * count;
    for (uint32_t i = 0; i < count && !r; i++) {
        member_data(archive, change, i < t.count ? i : UINT32_MAX, &size);
        wm_store_le32(resource, (uint32_t)offset);
        wm_store_le32(resource + 4, (uint32_t)size);
        r = wm_sink_write(sink, NULL, resource, 8);
        offset += size;
    }
    for (uint32_t i = 0; i < count && !r; i++) {
        const uint8_t *data = member_data(archive, change, i < t.count ? i : UINT32_MAX, &size);
        r = wm_sink_write(sink, NULL, data, (size_t)size);
    }
    return r;
}
