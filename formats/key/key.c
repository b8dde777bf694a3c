/* KEY V1 with its BIFF V1 files (KotOR and NWN1 chitin.key): the key names the BIFs (relative
 * to its folder, with backslashes, in any case) and lists every resource with its BIF and its
 * index there; the BIF's variable table gives the bytes (FORMAT-NOTES 4). A BIF is read only
 * when one of its members is, and mapped: a 2 GB BIF costs the member read. */
#include "wm_archive.h"
#include "wm_io.h"

#include <string.h>

#define KEY_MAX_ENTRIES (1u << 24)
enum { KEY_BIF_BITS = 20 };

static int key_probe(const wm_input *in)
{
    return in->size >= 8 && memcmp(in->data, "KEY V1  ", 8) == 0 ? 100 : 0;
}

/* The file table: one BIF name per entry (its length counts a NUL, which is dropped). */
static wm_result read_bifs(wm_ctx *ctx, wm_archive *archive, wm_cursor *cur, uint32_t bif_count)
{
    wm_result r = WM_OK;
    for (uint32_t i = 0; i < bif_count && !r; i++) {
        uint32_t size, name_offset = 0;
        uint16_t name_length = 0, drives;
        r = wm_read_u32(cur, &size, "BIF size");
        if (!r) r = wm_read_u32(cur, &name_offset, "BIF name offset");
        if (!r) r = wm_read_u16(cur, &name_length, "BIF name length");
        if (!r) r = wm_read_u16(cur, &drives, "BIF drives");
        wm_cursor names = *cur;
        const uint8_t *name = NULL;
        if (!r) r = wm_cursor_seek(&names, name_offset, "BIF name");
        if (!r) r = wm_read_view(&names, &name, name_length, "BIF name");
        size_t length = 0;
        while (!r && length < name_length && name[length])
            length++;
        if (!r) r = wm_archive_add_part(ctx, archive, i, (const char *)name, length);
    }
    return r;
}

static wm_result key_list(wm_ctx *ctx, wm_archive *archive)
{
    const wm_input *in = wm_archive_bytes(archive);
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, in->data, in->size, in->name);
    uint32_t bif_count = 0, key_count = 0, file_offset = 0, key_offset = 0;
    wm_result r = wm_cursor_seek(&cur, 8, "KEY header");
    if (!r) r = wm_read_u32(&cur, &bif_count, "BIF count");
    if (!r) r = wm_read_u32(&cur, &key_count, "key count");
    if (!r) r = wm_read_u32(&cur, &file_offset, "file table offset");
    if (!r) r = wm_read_u32(&cur, &key_offset, "key table offset");
    wm_cursor keys = cur;
    if (!r) r = wm_cursor_seek(&keys, key_offset, "key table");
    if (!r) r = wm_cursor_check_array(&keys, key_count, 22, KEY_MAX_ENTRIES, "key table");
    if (!r) r = wm_cursor_seek(&cur, file_offset, "file table");
    if (!r) r = wm_cursor_check_array(&cur, bif_count, 12, KEY_MAX_ENTRIES, "file table"); /* before reserving */
    if (!r) r = wm_archive_reserve(ctx, archive, key_count, bif_count);
    if (!r) r = read_bifs(ctx, archive, &cur, bif_count);
    for (uint32_t i = 0; i < key_count && !r; i++) {
        const uint8_t *name = NULL;
        uint16_t type = 0;
        uint32_t id = 0;
        r = wm_read_view(&keys, &name, 16, "key name");
        if (!r) r = wm_read_u16(&keys, &type, "resource type");
        if (!r) r = wm_read_u32(&keys, &id, "resource id");
        if (!r && (id >> KEY_BIF_BITS) >= bif_count)
            r = wm_cursor_error(&keys, WM_ERR_CORRUPT, "key %u: BIF %u of %u", i, id >> KEY_BIF_BITS, bif_count);
        wm_archive_member m = {.type = type, .part = (id >> KEY_BIF_BITS) + 1, .offset = id & 0xFFFFFu};
        if (!r) r = wm_archive_add_resource(ctx, archive, i, name, 16, 0, &m);
    }
    return r;
}

/* BIFF V1: u32 variable count, u32 fixed count, u32 variable table offset; an entry is u32 id
 * (its low 20 bits the index the key gives), u32 offset, u32 size, u32 type. */
static wm_result key_locate(wm_ctx *ctx, const wm_archive *archive, uint32_t member, const wm_input *bif,
                            uint64_t *out_offset, uint64_t *out_size)
{
    const wm_archive_member *m = wm_archive_member_at(archive, member);
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, bif->data, bif->size, bif->name);
    const uint8_t *magic = NULL;
    uint32_t variable_count = 0, fixed_count, table = 0, id = 0, offset = 0, size = 0, type = 0;
    wm_result r = wm_read_view(&cur, &magic, 8, "BIF header");
    if (!r && memcmp(magic, "BIFFV1  ", 8) != 0)
        r = wm_cursor_error(&cur, WM_ERR_NOT_FORMAT, "not a BIFF V1 file");
    if (!r) r = wm_read_u32(&cur, &variable_count, "variable count");
    if (!r) r = wm_read_u32(&cur, &fixed_count, "fixed count");
    if (!r) r = wm_read_u32(&cur, &table, "variable table offset");
    if (!r && m->offset >= variable_count)
        r = wm_cursor_error(&cur, WM_ERR_CORRUPT, "%s: resource %llu of %u", m->name, (unsigned long long)m->offset,
                            variable_count);
    if (!r) r = wm_cursor_seek(&cur, table, "variable table");
    if (!r) r = wm_cursor_skip(&cur, (size_t)m->offset * 16, "variable table");
    if (!r) r = wm_read_u32(&cur, &id, "resource id");
    if (!r) r = wm_read_u32(&cur, &offset, "resource offset");
    if (!r) r = wm_read_u32(&cur, &size, "resource size");
    if (!r) r = wm_read_u32(&cur, &type, "resource type");
    if (!r && (id & 0xFFFFFu) != m->offset) /* the type is the key's to say: the BIF's is not checked */
        r = wm_cursor_error(&cur, WM_ERR_CORRUPT, "%s: the BIF's entry %llu holds resource %u (type %u)", m->name,
                            (unsigned long long)m->offset, id & 0xFFFFFu, type);
    if (r) {
        wm_error_prefix(ctx, wm_archive_path(archive));
        return r;
    }
    *out_offset = offset;
    *out_size = size;
    return WM_OK;
}

static const char *const key_extensions[] = {"key", NULL};

const wm_container wm_container_key = {
    .name = "key",
    .description = "BioWare KEY V1 and its BIFF V1 files (KotOR, NWN1 chitin.key; BIFs beside the key)",
    .extensions = key_extensions,
    .probe = key_probe,
    .list = key_list,
    .locate = key_locate,
};
