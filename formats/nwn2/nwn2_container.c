/* The "NWN2" packet container: header, packet table, packets kept byte-for-byte. */
#include "nwn2.h"

#include <string.h>

#define NWN2_HEADER_SIZE 12u
#define NWN2_TABLE_ENTRY 8u
#define NWN2_PACKET_HEADER 8u

void nwn2_container_init(nwn2_container *c)
{
    memset(c, 0, sizeof *c);
}

void nwn2_container_free(const wm_ctx *ctx, nwn2_container *c)
{
    if (c->packets) {
        for (uint32_t i = 0; i < c->packet_count && !c->file_data && !c->shares_data; i++)
            wm_free(ctx, c->packets[i].payload);
        wm_free(ctx, c->packets);
    }
    wm_free(ctx, c->file_data);
    nwn2_container_init(c);
}

static int printable_type(const char type[4])
{
    for (int i = 0; i < 4; i++)
        if (type[i] < 0x20 || type[i] > 0x7e)
            return 0;
    return 1;
}

static wm_result parse(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, int in_place,
                       nwn2_container *out)
{
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, data, size, source);
    nwn2_container_init(out);

    char magic[4];
    uint32_t count;
    wm_result r = wm_read_bytes(&cur, magic, 4, "container magic");
    if (r)
        return r;
    if (memcmp(magic, "NWN2", 4) != 0)
        return wm_cursor_error(&cur, WM_ERR_NOT_FORMAT, "not an NWN2 container (magic is not \"NWN2\")");
    if ((r = wm_read_u16(&cur, &out->major, "container major version")) ||
        (r = wm_read_u16(&cur, &out->minor, "container minor version")) ||
        (r = wm_read_u32(&cur, &count, "packet count")))
        return r;
    if (out->major != 2)
        return wm_cursor_error(&cur, WM_ERR_UNSUPPORTED, "container version %u.%u (only 2.x is known)",
                               (unsigned)out->major, (unsigned)out->minor);
    if ((r = wm_cursor_check_array(&cur, count, NWN2_TABLE_ENTRY + NWN2_PACKET_HEADER, 0, "packet table")))
        return r;
    out->packets = wm_alloc_array(ctx, count ? count : 1, sizeof *out->packets);
    if (!out->packets)
        return WM_ERR_NOMEM;

    uint64_t total = NWN2_HEADER_SIZE + (uint64_t)count * NWN2_TABLE_ENTRY;
    for (uint32_t i = 0; i < count; i++) {
        nwn2_packet *p = &out->packets[i];
        wm_cursor entry = cur;
        char type[4];
        uint32_t size_field;
        if ((r = wm_cursor_seek(&entry, NWN2_HEADER_SIZE + (size_t)i * NWN2_TABLE_ENTRY, "packet table entry")) ||
            (r = wm_read_bytes(&entry, p->type, 4, "packet table type")) ||
            (r = wm_read_u32(&entry, &p->offset, "packet table offset")))
            goto fail;
        if ((r = wm_cursor_seek(&entry, p->offset, "packet header")) ||
            (r = wm_read_bytes(&entry, type, 4, "packet header type")) ||
            (r = wm_read_u32(&entry, &size_field, "packet size")))
            goto fail;
        if (memcmp(type, p->type, 4) != 0) {
            r = wm_cursor_error(&entry, WM_ERR_CORRUPT, "packet %u: header type \"%.4s\" differs from table type \"%.4s\"",
                                i, printable_type(type) ? type : "????", printable_type(p->type) ? p->type : "????");
            goto fail;
        }
        if (size_field > wm_cursor_remaining(&entry)) {
            r = wm_cursor_error(&entry, WM_ERR_TRUNCATED, "packet %u (%.4s): payload of %u bytes, only %zu left", i,
                                printable_type(p->type) ? p->type : "????", size_field, wm_cursor_remaining(&entry));
            goto fail;
        }
        total += NWN2_PACKET_HEADER + (uint64_t)size_field;
        if (total > size) {
            r = wm_cursor_error(&entry, WM_ERR_CORRUPT, "packet %u: packets overlap (%llu bytes claimed in a %zu-byte file)",
                                i, (unsigned long long)total, size);
            goto fail;
        }
        if (in_place) {
            p->payload = (uint8_t *)data + entry.pos; /* checked to fit above */
        } else {
            p->payload = wm_realloc_array(ctx, NULL, size_field ? size_field : 1, 1); /* filled right below */
            if (!p->payload) {
                r = WM_ERR_NOMEM;
                goto fail;
            }
            if ((r = wm_read_bytes(&entry, p->payload, size_field, "packet payload")))
                goto fail;
        }
        p->size = size_field;
        out->packet_count = i + 1;
    }
    out->packet_count = count;
    return WM_OK;
fail:
    out->packet_count = in_place ? 0 : count; /* free every slot, filled or not (zeroed) */
    nwn2_container_free(ctx, out);
    return r;
}

wm_result nwn2_container_parse(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source,
                               nwn2_container *out)
{
    return parse(ctx, data, size, source, 0, out);
}

wm_result nwn2_container_parse_in_place(wm_ctx *ctx, uint8_t *data, size_t size, const char *source,
                                        nwn2_container *out)
{
    wm_result r = parse(ctx, data, size, source, 1, out);
    if (!r)
        out->file_data = data;
    return r;
}

wm_result nwn2_container_parse_shared(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source,
                                      nwn2_container *out)
{
    wm_result r = parse(ctx, data, size, source, 1, out);
    if (!r)
        out->shares_data = 1;
    return r;
}

wm_result nwn2_container_serialize(wm_ctx *ctx, const nwn2_container *c, wm_buffer *out)
{
    uint64_t offset = NWN2_HEADER_SIZE + (uint64_t)c->packet_count * NWN2_TABLE_ENTRY;
    for (uint32_t i = 0; i < c->packet_count; i++)
        offset += NWN2_PACKET_HEADER + (uint64_t)c->packets[i].size;
    if (offset > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "NWN2 container of %llu bytes exceeds the 4 GiB offsets",
                        (unsigned long long)offset);
    if (wm_buffer_reserve(out, (size_t)offset))
        return out->status;
    wm_put_bytes(out, "NWN2", 4);
    wm_put_u16(out, c->major);
    wm_put_u16(out, c->minor);
    wm_put_u32(out, c->packet_count);
    offset = NWN2_HEADER_SIZE + (uint64_t)c->packet_count * NWN2_TABLE_ENTRY;
    for (uint32_t i = 0; i < c->packet_count; i++) {
        wm_put_bytes(out, c->packets[i].type, 4);
        wm_put_u32(out, (uint32_t)offset);
        offset += NWN2_PACKET_HEADER + (uint64_t)c->packets[i].size;
    }
    for (uint32_t i = 0; i < c->packet_count; i++) {
        wm_put_bytes(out, c->packets[i].type, 4);
        wm_put_u32(out, c->packets[i].size);
        wm_put_bytes(out, c->packets[i].payload, c->packets[i].size);
    }
    return out->status;
}

int nwn2_container_is_canonical(const nwn2_container *c, size_t file_size)
{
    uint64_t offset = NWN2_HEADER_SIZE + (uint64_t)c->packet_count * NWN2_TABLE_ENTRY;
    for (uint32_t i = 0; i < c->packet_count; i++) {
        if (c->packets[i].offset != offset)
            return 0;
        offset += NWN2_PACKET_HEADER + (uint64_t)c->packets[i].size;
    }
    return offset == file_size;
}

int32_t nwn2_container_find(const nwn2_container *c, const char type[4], uint32_t start)
{
    for (uint32_t i = start; i < c->packet_count && i < (uint32_t)INT32_MAX; i++)
        if (memcmp(c->packets[i].type, type, 4) == 0)
            return (int32_t)i;
    return -1;
}

wm_result nwn2_container_set_payload(wm_ctx *ctx, nwn2_container *c, uint32_t index, const uint8_t *data,
                                     size_t size)
{
    if (index >= c->packet_count)
        return wm_error(ctx, WM_ERR_INVALID, "packet %u does not exist (%u packets)", index, c->packet_count);
    if (size > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "packet %u: payload of %zu bytes exceeds 4 GiB", index, size);
    uint8_t *copy = wm_alloc_array(ctx, size ? size : 1, 1);
    if (!copy)
        return WM_ERR_NOMEM;
    if (size)
        memcpy(copy, data, size);
    wm_free(ctx, c->packets[index].payload);
    c->packets[index].payload = copy;
    c->packets[index].size = (uint32_t)size;
    return WM_OK;
}

wm_result nwn2_container_copy(wm_ctx *ctx, nwn2_container *dst, const nwn2_container *src)
{
    nwn2_container_init(dst);
    dst->major = src->major;
    dst->minor = src->minor;
    dst->packets = wm_alloc_array(ctx, src->packet_count ? src->packet_count : 1, sizeof *dst->packets);
    if (!dst->packets)
        return WM_ERR_NOMEM;
    dst->packet_count = src->packet_count;
    for (uint32_t i = 0; i < src->packet_count; i++) {
        memcpy(dst->packets[i].type, src->packets[i].type, 4);
        dst->packets[i].offset = src->packets[i].offset;
        wm_result r = nwn2_container_set_payload(ctx, dst, i, src->packets[i].payload, src->packets[i].size);
        if (r) {
            nwn2_container_free(ctx, dst);
            return r;
        }
    }
    return WM_OK;
}

wm_result nwn2_trwh_parse(wm_ctx *ctx, const uint8_t *payload, size_t size, const char *source, nwn2_trwh *out)
{
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, payload, size, source);
    wm_result r;
    if ((r = wm_read_u32(&cur, &out->width, "TRWH width")) || (r = wm_read_u32(&cur, &out->height, "TRWH height")) ||
        (r = wm_read_u32(&cur, &out->id, "TRWH id")))
        return r;
    return WM_OK;
}
