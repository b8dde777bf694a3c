/* Zip archives (NWN2's Data zips, PKWARE APPNOTE 6.3): the end record, the central directory
 * and each member's local header, read through the bounded cursor; members stored (method 0) or
 * deflated (8), inflated with zlib into the size the directory declares and no further. Folder
 * entries ("trees/") are not members; member names keep their folders ("trees/a.mdb") and pass
 * the name guard as relative paths, so a name like "../x" is refused when the archive opens. */
#include "wm_archive.h"
#include "wm_io.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

enum {
    END_RECORD = 22,         /* the end of central directory record without its comment */
    END_SEARCH = 22 + 65535, /* the record ends the file, after a comment of at most 64 KiB */
    DIRECTORY_ENTRY = 46,
    LOCAL_HEADER = 30,
    ZIP_MAX_MEMBERS = 1 << 24,
    METHOD_STORED = 0,
    METHOD_DEFLATED = 8
};

static const uint8_t end_signature[4] = {'P', 'K', 5, 6};

static int zip_probe(const wm_input *in)
{
    if (in->size >= 4 && memcmp(in->data, "PK\3\4", 4) == 0)
        return 90;
    /* an empty zip is its end record alone */
    return in->size >= END_RECORD && memcmp(in->data, end_signature, 4) == 0 ? 90 : 0;
}

/* The end record's position: the last signature whose comment length reaches the file's end. */
static int find_end_record(const wm_input *in, size_t *out)
{
    if (in->size < END_RECORD)
        return 0;
    size_t lowest = in->size > END_SEARCH ? in->size - END_SEARCH : 0;
    for (size_t at = in->size - END_RECORD + 1; at-- > lowest;) {
        const uint8_t *p = in->data + at;
        if (memcmp(p, end_signature, 4) == 0 && at + END_RECORD + (size_t)(p[20] | p[21] << 8) == in->size) {
            *out = at;
            return 1;
        }
    }
    return 0;
}

/* Where a member's data starts: after its local header, whose name and extra lengths may differ
 * from the directory's. */
static wm_result member_data_offset(wm_cursor *cur, uint32_t index, uint32_t header_offset, uint64_t *out)
{
    uint32_t signature = 0;
    uint16_t name_length = 0, extra_length = 0;
    char what[48];
    snprintf(what, sizeof what, "member %u's local header", index);
    wm_result r = wm_cursor_seek(cur, header_offset, what);
    if (!r) r = wm_read_u32(cur, &signature, what);
    if (!r && signature != 0x04034b50)
        r = wm_cursor_error(cur, WM_ERR_CORRUPT, "member %u: no local header (signature 0x%08x)", index, signature);
    if (!r) r = wm_cursor_seek(cur, (size_t)header_offset + 26, what);
    if (!r) r = wm_read_u16(cur, &name_length, what);
    if (!r) r = wm_read_u16(cur, &extra_length, what);
    *out = (uint64_t)header_offset + LOCAL_HEADER + name_length + extra_length;
    return r;
}

typedef struct directory_entry {
    uint16_t flags, method, name_length, extra_length, comment_length;
    uint32_t crc, packed, unpacked, header_offset;
    const uint8_t *name;
} directory_entry;

static wm_result read_directory_entry(wm_cursor *cur, directory_entry *e)
{
    uint32_t signature = 0;
    const uint8_t *fixed = NULL;
    size_t at = cur->pos;
    wm_result r = wm_read_u32(cur, &signature, "directory entry");
    if (!r && signature != 0x02014b50)
        return wm_cursor_error(cur, WM_ERR_CORRUPT, "no central directory entry at %zu (signature 0x%08x)", at,
                               signature);
    if (!r) r = wm_read_view(cur, &fixed, DIRECTORY_ENTRY - 4, "directory entry");
    if (r)
        return r;
    e->flags = wm_le16(fixed + 4);
    e->method = wm_le16(fixed + 6);
    e->crc = wm_le32(fixed + 12);
    e->packed = wm_le32(fixed + 16);
    e->unpacked = wm_le32(fixed + 20);
    e->name_length = wm_le16(fixed + 24);
    e->extra_length = wm_le16(fixed + 26);
    e->comment_length = wm_le16(fixed + 28);
    e->header_offset = wm_le32(fixed + 38);
    r = wm_read_view(cur, &e->name, e->name_length, "member name");
    if (!r) r = wm_cursor_skip(cur, (size_t)e->extra_length + e->comment_length, "directory entry's extra fields");
    return r;
}

/* What reading a member needs beyond its place: kept per member in the archive's state. */
typedef struct packing {
    uint32_t crc;
    uint16_t method, flags;
} packing;

static void zip_close(wm_ctx *ctx, wm_archive *archive)
{
    wm_free(ctx, wm_archive_state(archive));
    wm_archive_set_state(archive, NULL);
}

static wm_result add_entry(wm_ctx *ctx, wm_archive *archive, wm_cursor *local, uint32_t index,
                           const directory_entry *e)
{
    if (e->name_length && e->name[e->name_length - 1] == '/')
        return WM_OK; /* a folder */
    if (e->packed == UINT32_MAX || e->unpacked == UINT32_MAX || e->header_offset == UINT32_MAX)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "member %u: a Zip64 entry (over 4 GiB), which walkmesh does not read",
                        index);
    uint64_t data_offset = 0;
    wm_result r = member_data_offset(local, index, e->header_offset, &data_offset);
    if (r)
        return r;
    const char *dot = memchr(e->name, '.', e->name_length);
    char extension[8] = "";
    size_t extension_length = dot ? e->name_length - (size_t)(dot + 1 - (const char *)e->name) : 0;
    if (dot && extension_length < sizeof extension && !memchr(dot + 1, '.', extension_length))
        memcpy(extension, dot + 1, extension_length);
    uint32_t type = extension[0] ? wm_resource_type_id(extension, 1) : UINT32_MAX;
    packing *packings = wm_archive_state(archive);
    packings[wm_archive_member_count(archive)] = (packing){e->crc, e->method, e->flags};
    wm_archive_member m = {.type = type,
                           .offset = data_offset,
                           .size = e->packed,
                           .unpacked_size = e->unpacked};
    return wm_archive_add_member(ctx, archive, index, (const char *)e->name, e->name_length, NULL, &m);
}

static wm_result zip_list(wm_ctx *ctx, wm_archive *archive)
{
    const wm_input *in = wm_archive_bytes(archive);
    size_t end = 0;
    if (!find_end_record(in, &end))
        return wm_error(ctx, WM_ERR_CORRUPT, "no end of central directory record (a truncated zip?)");
    const uint8_t *p = in->data + end;
    uint16_t disk = wm_le16(p + 4), directory_disk = wm_le16(p + 6);
    uint16_t here = wm_le16(p + 8), count = wm_le16(p + 10);
    uint32_t directory_size = wm_le32(p + 12), directory_offset = wm_le32(p + 16);
    if (disk != 0 || directory_disk != 0 || here != count)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "a zip split over several files, which walkmesh does not read");
    if (count == UINT16_MAX || directory_offset == UINT32_MAX)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "a Zip64 archive, which walkmesh does not read");
    if (directory_offset > end || directory_size > end - directory_offset)
        return wm_error(ctx, WM_ERR_CORRUPT, "byte %zu: the central directory (%u bytes at %u) lies past its end record",
                        end, directory_size, directory_offset);
    wm_cursor cur, local;
    wm_cursor_init(&cur, ctx, in->data + directory_offset, directory_size, in->name);
    wm_cursor_init(&local, ctx, in->data, in->size, in->name);
    wm_result r = wm_cursor_check_array(&cur, count, DIRECTORY_ENTRY, ZIP_MAX_MEMBERS, "central directory");
    if (!r) r = wm_archive_reserve(ctx, archive, count, 0);
    packing *packings = r ? NULL : wm_alloc_array(ctx, count ? count : 1, sizeof *packings);
    if (!r && !packings)
        r = WM_ERR_NOMEM;
    wm_archive_set_state(archive, packings);
    for (uint32_t i = 0; i < count && !r; i++) {
        directory_entry e;
        r = read_directory_entry(&cur, &e);
        if (!r) r = add_entry(ctx, archive, &local, i, &e);
    }
    return r;
}

/* Inflates exactly unpacked_size bytes: output past it is an error (a zip bomb declares little
 * and inflates much), and so is a stream that ends short of it. */
static wm_result inflate_member(wm_ctx *ctx, const wm_archive_member *m, const uint8_t *packed, uint8_t *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
        return wm_error(ctx, WM_ERR_NOMEM, "member %s: zlib could not start", m->name);
    uint8_t spare;
    uint64_t packed_left = m->size, out_left = m->unpacked_size;
    int status = Z_OK;
    while (status == Z_OK) {
        uInt in_chunk = packed_left > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uInt)packed_left;
        uInt out_chunk = out_left > UINT32_MAX / 2 ? UINT32_MAX / 2 : (uInt)out_left;
        z.next_in = (Bytef *)(uintptr_t)(packed + (m->size - packed_left));
        z.avail_in = in_chunk;
        z.next_out = out_left ? out + (m->unpacked_size - out_left) : &spare; /* one byte more: a bomb shows */
        z.avail_out = out_left ? out_chunk : 1;
        status = inflate(&z, Z_NO_FLUSH);
        packed_left -= in_chunk - z.avail_in;
        if (!out_left && z.avail_out == 0) {
            status = Z_BUF_ERROR;
            break;
        }
        out_left -= (out_left ? out_chunk - z.avail_out : 0);
        if (status == Z_BUF_ERROR && in_chunk == 0)
            break;
        if (status == Z_BUF_ERROR)
            status = Z_OK;
    }
    inflateEnd(&z);
    if (status == Z_STREAM_END && out_left == 0)
        return WM_OK;
    if ((status == Z_STREAM_END || (status == Z_BUF_ERROR && !packed_left)) && out_left)
        return wm_error(ctx, WM_ERR_CORRUPT, "member %s: its deflate stream ends %llu bytes short of its %llu bytes",
                        m->name, (unsigned long long)out_left, (unsigned long long)m->unpacked_size);
    if (status == Z_BUF_ERROR)
        return wm_error(ctx, WM_ERR_CORRUPT, "member %s: inflates past its declared %llu bytes", m->name,
                        (unsigned long long)m->unpacked_size);
    return wm_error(ctx, WM_ERR_CORRUPT, "member %s: its deflate stream is corrupt (%s)", m->name,
                    z.msg ? z.msg : "zlib error");
}

static wm_result zip_read_member(wm_ctx *ctx, wm_archive *archive, uint32_t index, uint8_t **out_data,
                                 size_t *out_size)
{
    const wm_archive_member *m = wm_archive_member_at(archive, index);
    const uint8_t *packed = wm_archive_bytes(archive)->data + m->offset;
    const packing *how = (const packing *)wm_archive_state(archive) + index;
    uint32_t method = how->method, flags = how->flags;
    if (flags & 1)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "member %s is encrypted", m->name);
    if (method != METHOD_STORED && method != METHOD_DEFLATED)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "member %s: compression method %u (walkmesh reads 0, stored, and 8, deflated)",
                        m->name, method);
    if (method == METHOD_STORED && m->size != m->unpacked_size)
        return wm_error(ctx, WM_ERR_CORRUPT, "member %s: stored, but %llu bytes declared as %llu", m->name,
                        (unsigned long long)m->size, (unsigned long long)m->unpacked_size);
    uint8_t *data = wm_realloc_array(ctx, NULL, m->unpacked_size ? (size_t)m->unpacked_size : 1, 1);
    if (!data)
        return WM_ERR_NOMEM;
    wm_result r = WM_OK;
    if (method == METHOD_STORED)
        memcpy(data, packed, (size_t)m->size);
    else
        r = inflate_member(ctx, m, packed, data);
    uLong crc = crc32(0L, Z_NULL, 0);
    for (uint64_t done = 0; !r && done < m->unpacked_size;) {
        uInt chunk = m->unpacked_size - done > (1u << 30) ? (1u << 30) : (uInt)(m->unpacked_size - done);
        crc = crc32(crc, data + done, chunk);
        done += chunk;
    }
    if (!r && (uint32_t)crc != how->crc)
        r = wm_error(ctx, WM_ERR_CORRUPT, "member %s: its bytes do not match the directory's CRC-32", m->name);
    if (r) {
        wm_free(ctx, data);
        return r;
    }
    *out_data = data;
    *out_size = (size_t)m->unpacked_size;
    return WM_OK;
}

static const char *const zip_extensions[] = {"zip", NULL};

const wm_container wm_container_zip = {
    .name = "zip",
    .description = "Zip archive, stored or deflated (NWN2 Data zips)",
    .extensions = zip_extensions,
    .probe = zip_probe,
    .list = zip_list,
    .read_member = zip_read_member,
    .close = zip_close,
};
