/* RIM V1.0 (KotOR modules): a header whose key list offset is 120 in every real file, then one
 * 32-byte entry per member: name[16], u32 type, u32 id, u32 offset, u32 size (FORMAT-NOTES 4). */
#include "wm_archive.h"
#include "wm_io.h"

#include <string.h>

#define RIM_MAX_MEMBERS (1u << 24)

static int rim_probe(const wm_input *in)
{
    return in->size >= 8 && memcmp(in->data, "RIM V1.0", 8) == 0 ? 100 : 0;
}

static wm_result rim_list(wm_ctx *ctx, wm_archive *archive)
{
    const wm_input *in = wm_archive_bytes(archive);
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, in->data, in->size, in->name);
    uint32_t reserved, count = 0, key_offset = 0;
    wm_result r = wm_cursor_seek(&cur, 8, "RIM header");
    if (!r) r = wm_read_u32(&cur, &reserved, "RIM header");
    if (!r) r = wm_read_u32(&cur, &count, "entry count");
    if (!r) r = wm_read_u32(&cur, &key_offset, "key list offset");
    if (!r) r = wm_cursor_seek(&cur, key_offset, "key list");
    if (!r) r = wm_cursor_check_array(&cur, count, 32, RIM_MAX_MEMBERS, "key list");
    if (!r) r = wm_archive_reserve(ctx, archive, count, 0);
    for (uint32_t i = 0; i < count && !r; i++) {
        const uint8_t *name = NULL;
        uint32_t type = 0, id, offset = 0, size = 0;
        r = wm_read_view(&cur, &name, 16, "key name");
        if (!r) r = wm_read_u32(&cur, &type, "resource type");
        if (!r) r = wm_read_u32(&cur, &id, "resource id");
        if (!r) r = wm_read_u32(&cur, &offset, "resource offset");
        if (!r) r = wm_read_u32(&cur, &size, "resource size");
        wm_archive_member m = {.type = type, .offset = offset, .size = size};
        if (!r) r = wm_archive_add_resource(ctx, archive, i, name, 16, 0, &m);
    }
    return r;
}

wm_result rim_write(wm_ctx *ctx, const wm_archive *archive, const wm_archive_change *change, wm_sink *sink);

static const char *const rim_extensions[] = {"rim", NULL};

const wm_container wm_container_rim = {
    .name = "rim",
    .description = "BioWare RIM V1.0 (KotOR module archives: .rim, _s.rim)",
    .extensions = rim_extensions,
    .probe = rim_probe,
    .list = rim_list,
    .write = rim_write,
};
