/* ERF V1.0 / V1.1 (ERF, MOD, HAK, SAV; NWN2's toolset also writes four spaces as the type):
 * a 160-byte header, a key list (name, id, type) and a resource list (offset, size) of one
 * entry per member (FORMAT-NOTES 4). V1.1 is NWN2's: 32-byte names and NWN2's type ids. */
#include "wm_archive.h"
#include "wm_io.h"

#include <string.h>

enum { ERF_HEADER = 160 };
#define ERF_MAX_MEMBERS (1u << 24)

static int erf_kind(const uint8_t *p)
{
    static const char *const kinds[] = {"ERF ", "MOD ", "HAK ", "SAV ", "    "};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (memcmp(p, kinds[i], 4) == 0)
            return 1;
    return 0;
}

static int erf_probe(const wm_input *in)
{
    if (in->size < 8 || !erf_kind(in->data))
        return 0;
    return memcmp(in->data + 4, "V1.0", 4) == 0 || memcmp(in->data + 4, "V1.1", 4) == 0 ? 100 : 0;
}

typedef struct erf_header {
    uint32_t count, key_offset, resource_offset;
    size_t name_size;
} erf_header;

static wm_result read_header(wm_cursor *cur, erf_header *h)
{
    uint32_t skipped;
    wm_result r = wm_cursor_seek(cur, 8, "ERF header");
    for (int i = 0; i < 2 && !r; i++) /* language count, localized string bytes */
        r = wm_read_u32(cur, &skipped, "ERF header");
    if (!r) r = wm_read_u32(cur, &h->count, "entry count");
    if (!r) r = wm_read_u32(cur, &skipped, "localized string offset");
    if (!r) r = wm_read_u32(cur, &h->key_offset, "key list offset");
    if (!r) r = wm_read_u32(cur, &h->resource_offset, "resource list offset");
    if (!r) r = wm_cursor_seek(cur, ERF_HEADER, "ERF header");
    h->name_size = memcmp(cur->data + 4, "V1.1", 4) == 0 ? 32 : 16;
    return r;
}

static wm_result erf_list(wm_ctx *ctx, wm_archive *archive)
{
    const wm_input *in = wm_archive_bytes(archive);
    wm_cursor keys, resources;
    wm_cursor_init(&keys, ctx, in->data, in->size, in->name);
    erf_header h = {0};
    wm_result r = read_header(&keys, &h);
    resources = keys;
    if (!r) r = wm_cursor_seek(&keys, h.key_offset, "key list");
    if (!r) r = wm_cursor_check_array(&keys, h.count, h.name_size + 8, ERF_MAX_MEMBERS, "key list");
    if (!r) r = wm_cursor_seek(&resources, h.resource_offset, "resource list");
    if (!r) r = wm_cursor_check_array(&resources, h.count, 8, ERF_MAX_MEMBERS, "resource list");
    if (!r) r = wm_archive_reserve(ctx, archive, h.count, 0);
    for (uint32_t i = 0; i < h.count && !r; i++) {
        const uint8_t *name = NULL;
        uint32_t id, offset = 0, size = 0;
        uint16_t type = 0, unused;
        wm_archive_member m = {0};
        r = wm_read_view(&keys, &name, h.name_size, "key name");
        if (!r) r = wm_read_u32(&keys, &id, "resource id");
        if (!r) r = wm_read_u16(&keys, &type, "resource type");
        if (!r) r = wm_read_u16(&keys, &unused, "key entry");
        if (!r) r = wm_read_u32(&resources, &offset, "resource offset");
        if (!r) r = wm_read_u32(&resources, &size, "resource size");
        m.type = type;
        m.offset = offset;
        m.size = size;
        if (!r) r = wm_archive_add_resource(ctx, archive, i, name, h.name_size, h.name_size == 32, &m);
    }
    return r;
}

wm_result erf_write(wm_ctx *ctx, const wm_archive *archive, const wm_archive_change *change, wm_sink *sink);

static const char *const erf_extensions[] = {"erf", "mod", "hak", "sav", "nwm", NULL};

const wm_container wm_container_erf = {
    .name = "erf",
    .description = "BioWare ERF V1.0/V1.1: .erf, .mod, .hak, .sav (KotOR, NWN1; NWN2 with 32-byte names)",
    .extensions = erf_extensions,
    .probe = erf_probe,
    .list = erf_list,
    .write = erf_write,
};
