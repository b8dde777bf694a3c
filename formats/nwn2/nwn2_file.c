/* A whole TRN/TRX file: container + decoded and parsed ASWM packet. */
#include "nwn2.h"

#include <stdio.h>
#include <string.h>

void nwn2_file_init(nwn2_file *f)
{
    memset(f, 0, sizeof *f);
    nwn2_container_init(&f->container);
    nwn2_aswm_init(&f->aswm);
    f->aswm_packet = -1;
    f->aswm_info.zlib_level_hint = -1;
}

void nwn2_file_free(const wm_ctx *ctx, nwn2_file *f)
{
    nwn2_container_free(ctx, &f->container);
    nwn2_aswm_free(ctx, &f->aswm);
    wm_free(ctx, f->aswm_block);
    nwn2_file_init(f);
}

/* How a parse holds what it read: copies of the packets; the packets inside
 * the data, which the file then owns (freed here on failure); the packets
 * inside the caller's data (the walkmesh parsed into arrays of its own); or
 * packets and walkmesh arrays inside the caller's data and the inflated bytes
 * (read-only). */
typedef enum { PARSE_COPY, PARSE_OWN, PARSE_BORROW, PARSE_SHARE } parse_mode;

/* The 53-byte ASWM header, then the arrays: 3 bytes ahead of an 8-byte boundary. */
#define SHARED_RAW_LEAD 3u

static wm_result file_parse(wm_ctx *ctx, uint8_t *data, size_t size, const char *source, parse_mode mode,
                            nwn2_file *out)
{
    nwn2_file_init(out);
    wm_result r = mode == PARSE_OWN    ? nwn2_container_parse_in_place(ctx, data, size, source, &out->container)
                  : mode == PARSE_COPY ? nwn2_container_parse(ctx, data, size, source, &out->container)
                                       : nwn2_container_parse_shared(ctx, data, size, source, &out->container);
    if (r) {
        if (mode == PARSE_OWN)
            wm_free(ctx, data);
        return r;
    }
    out->aswm_packet = nwn2_container_find(&out->container, "ASWM", 0);
    if (out->aswm_packet < 0)
        return WM_OK;
    const nwn2_packet *p = &out->container.packets[out->aswm_packet];
    char label[512];
    snprintf(label, sizeof label, "%s [ASWM packet %d]", source, (int)out->aswm_packet);
    const size_t lead = mode == PARSE_SHARE ? SHARED_RAW_LEAD : 0;
    r = nwn2_aswm_decode_packet_at(ctx, p->payload, p->size, label, lead, &out->aswm_block, &out->aswm_raw_size,
                                   &out->aswm_info);
    if (!r && mode == PARSE_SHARE) {
        r = nwn2_aswm_parse_shared(ctx, out->aswm_block + lead, out->aswm_raw_size, label, &out->aswm);
    } else if (!r) {
        out->aswm_raw = out->aswm_block;
        r = nwn2_aswm_parse(ctx, out->aswm_raw, out->aswm_raw_size, label, &out->aswm);
    }
    if (r)
        nwn2_file_free(ctx, out);
    return r;
}

wm_result nwn2_file_parse(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, nwn2_file *out)
{
    return file_parse(ctx, (uint8_t *)data, size, source, PARSE_COPY, out); /* copied: data is only read */
}

wm_result nwn2_file_parse_borrowing(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, nwn2_file *out)
{
    return file_parse(ctx, (uint8_t *)data, size, source, PARSE_BORROW, out); /* never written through */
}

wm_result nwn2_file_parse_shared(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, nwn2_file *out)
{
    return file_parse(ctx, (uint8_t *)data, size, source, PARSE_SHARE, out); /* never written through */
}

wm_result nwn2_file_read(wm_ctx *ctx, const char *path, nwn2_file *out)
{
    uint8_t *data = NULL;
    size_t size = 0;
    nwn2_file_init(out);
    wm_result r = wm_file_read(ctx, path, &data, &size);
    if (r)
        return r;
    return file_parse(ctx, data, size, path, PARSE_OWN, out);
}

/* The walkmesh bytes as a compressed packet at NWN2_DEFLATE_DEFAULT: spliced
 * onto the stream read when only its end changed. A walkmesh larger than the
 * one read is never encoded again (no size ladder): its pages are given back
 * as it is deflated, so it is not in memory whole beside the stream. */
static wm_result encode_changed(wm_ctx *ctx, const nwn2_file *f, const wm_buffer *raw, wm_buffer *packet)
{
    const int grew = !f->aswm_raw || raw->size > f->aswm_raw_size;
    const int level = NWN2_DEFLATE_DEFAULT;
    const nwn2_packet *old = &f->container.packets[f->aswm_packet];
    int spliced = 0;
    wm_result r = WM_OK;
    if (f->aswm_raw && f->aswm_info.compressed)
        r = nwn2_aswm_encode_spliced(ctx, raw->data, raw->size, f->aswm_raw, f->aswm_raw_size, old->payload, old->size,
                                     level, f->deflate_threads, packet, &spliced);
    if (!r && !spliced)
        r = nwn2_aswm_encode_packet(ctx, raw->data, raw->size, 1, level, f->deflate_threads, grew, packet);
    return r;
}

/* The container with the walkmesh bytes raw as its ASWM packet; raw is freed
 * as soon as it is encoded, before the container is serialised. */
static wm_result serialize_raw(wm_ctx *ctx, const nwn2_file *f, int level, wm_buffer *raw, wm_buffer *out)
{
    wm_buffer packet;
    wm_buffer_init(&packet, ctx);
    nwn2_container c = f->container; /* shallow: only the ASWM payload pointer is swapped */
    nwn2_packet *packets = NULL;
    wm_result r = WM_OK;
    int unchanged = f->aswm_raw && raw->size == f->aswm_raw_size && memcmp(raw->data, f->aswm_raw, raw->size) == 0 &&
                    level < 0;
    if (!unchanged) {
        /* the walkmesh changed (or a level was asked for): encode it anew */
        int compress = f->aswm_info.compressed || f->aswm_raw == NULL;
        r = compress && level < 0 ? encode_changed(ctx, f, raw, &packet)
                                  : nwn2_aswm_encode_packet(ctx, raw->data, raw->size, compress,
                                                            level < 0 ? NWN2_DEFLATE_DEFAULT : level, 1, 0, &packet);
        const uint32_t before = c.packets[f->aswm_packet].size;
        if (!r && compress && level < 0 && f->aswm_raw && packet.size > before && raw->size <= f->aswm_raw_size) {
            /* a walkmesh no bigger than the one read (a re-bake) is never written larger than
             * the packet it replaces when that can be helped: the toolset's streams are zlib
             * level 6, and a re-bake's extra line-of-sight bits cost entropy. (A TRN baked into
             * a TRX grows by its tables: no point.) */
            /* libdeflate 10 first: nearly 12's size in about half its time */
            const int levels[2] = {NWN2_DEFLATE_BETTER, NWN2_DEFLATE_BEST};
            for (int i = nwn2_deflate_is_libdeflate() ? 0 : 1; i < 2 && !r && packet.size > before; i++) {
                wm_buffer best;
                wm_buffer_init(&best, ctx);
                r = nwn2_aswm_encode_packet(ctx, raw->data, raw->size, 1, levels[i], f->deflate_threads, 0, &best); /* whole: smaller */
                if (!r && best.size < packet.size) {
                    wm_buffer swap = packet;
                    packet = best;
                    best = swap;
                }
                wm_buffer_free(&best);
            }
        }
        if (r)
            goto done;
        if (packet.size > UINT32_MAX) {
            r = wm_error(ctx, WM_ERR_LIMIT, "ASWM packet of %zu bytes exceeds 4 GiB", packet.size);
            goto done;
        }
        packets = wm_alloc_array(ctx, c.packet_count, sizeof *packets);
        if (!packets) {
            r = WM_ERR_NOMEM;
            goto done;
        }
        memcpy(packets, c.packets, c.packet_count * sizeof *packets);
        packets[f->aswm_packet].payload = packet.data;
        packets[f->aswm_packet].size = (uint32_t)packet.size;
        c.packets = packets;
    }
    wm_buffer_free(raw); /* the packet holds it now (or the one read is kept) */
    r = nwn2_container_serialize(ctx, &c, out);
done:
    wm_free(ctx, packets);
    wm_buffer_free(raw);
    wm_buffer_free(&packet);
    return r;
}

/* release: f's walkmesh, freed once its bytes are laid out (or NULL). */
static wm_result serialize_file(wm_ctx *ctx, const nwn2_file *f, nwn2_aswm *release, int level, wm_buffer *out)
{
    if (f->aswm_packet < 0)
        return nwn2_container_serialize(ctx, &f->container, out);
    wm_buffer raw;
    wm_buffer_init(&raw, ctx);
    /* a released walkmesh is freed as it is laid out: raw holds its bytes, and
     * encoding them needs no array of it */
    wm_result r = release ? nwn2_aswm_serialize_releasing(ctx, release, &raw) : nwn2_aswm_serialize(ctx, &f->aswm, &raw);
    if (release)
        nwn2_aswm_free(ctx, release);
    if (r) {
        wm_buffer_free(&raw);
        return r;
    }
    return serialize_raw(ctx, f, level, &raw, out);
}

wm_result nwn2_file_serialize(wm_ctx *ctx, const nwn2_file *f, int level, wm_buffer *out)
{
    return serialize_file(ctx, f, NULL, level, out);
}

wm_result nwn2_file_serialize_releasing(wm_ctx *ctx, nwn2_file *f, int level, wm_buffer *out)
{
    return serialize_file(ctx, f, &f->aswm, level, out);
}

wm_result nwn2_file_write(wm_ctx *ctx, const nwn2_file *f, const char *path, int overwrite)
{
    wm_buffer buf;
    wm_buffer_init(&buf, ctx);
    wm_result r = nwn2_file_serialize(ctx, f, -1, &buf);
    if (!r)
        r = wm_file_write_atomic(ctx, path, buf.data, buf.size, overwrite);
    wm_buffer_free(&buf);
    return r;
}
