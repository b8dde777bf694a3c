/* The ASWM packet envelope: "COMP" + sizes + zlib stream, or raw bytes. */
#include "nwn2_compact.h"

#include <string.h>
#include <zlib.h>
#ifdef WALKMESH_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#define COMP_HEADER 12u
/* Memory for a packet is bounded by its real content: the claimed size may be
 * at most ASWM_MAX_RATIO times the zlib stream, plus ASWM_RATIO_SLACK for tiny
 * walkmeshes. Every real ASWM packet (90, ../shared/corpus/nwn2 and nwn2-areas)
 * inflates at most 5.1 times (dm_dungeon.trx: 980,570 -> 4,963,027 bytes), so
 * 32 leaves a six-fold margin; a claim beyond it (a zlib bomb: deflate itself
 * allows 1032:1) is refused before anything is allocated (docs/complexity.md). */
#define ASWM_MAX_RATIO 32u
#define ASWM_RATIO_SLACK (1u << 20)

static int level_hint(const uint8_t *stream, size_t size)
{
    if (size < 2)
        return -1;
    switch (stream[1] >> 6) {
    case 0: return 1;
    case 1: return 5;
    case 2: return 6;
    default: return 9;
    }
}

/* Inflates exactly `claimed` bytes from a zlib stream of exactly `size` bytes. */
#ifdef WALKMESH_HAVE_LIBDEFLATE
/* libdeflate inflates whole buffers about twice as fast as zlib. */
static wm_result inflate_exact(wm_ctx *ctx, const uint8_t *stream, size_t size, uint8_t *raw, size_t claimed,
                               const char *source)
{
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    if (!d)
        return wm_error(ctx, WM_ERR_NOMEM, "%s: could not start inflating the ASWM packet", source);
    size_t consumed = 0, produced = 0;
    enum libdeflate_result lr = libdeflate_zlib_decompress_ex(d, stream, size, raw, claimed, &consumed, &produced);
    libdeflate_free_decompressor(d);
    if (lr == LIBDEFLATE_SUCCESS && produced == claimed && consumed == size)
        return WM_OK;
    if (lr == LIBDEFLATE_SUCCESS && produced != claimed)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: ASWM inflates to %zu bytes, header claims %zu", source, produced,
                        claimed);
    if (lr == LIBDEFLATE_SUCCESS)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: ASWM zlib stream ends after %zu of its %zu bytes", source, consumed,
                        size);
    if (lr == LIBDEFLATE_INSUFFICIENT_SPACE)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: ASWM inflates to more than the claimed %zu bytes", source, claimed);
    return wm_error(ctx, WM_ERR_CORRUPT, "%s: ASWM zlib stream (%zu bytes) is corrupt or cut short", source, size);
}
#else
static wm_result inflate_exact(wm_ctx *ctx, const uint8_t *stream, size_t size, uint8_t *raw, size_t claimed,
                               const char *source)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit(&zs) != Z_OK)
        return wm_error(ctx, WM_ERR_NOMEM, "%s: zlib could not start inflating the ASWM packet", source);
    zs.next_in = (Bytef *)(uintptr_t)stream;
    zs.avail_in = (uInt)size;
    zs.next_out = raw;
    zs.avail_out = (uInt)claimed;
    int zr = inflate(&zs, Z_FINISH);
    size_t produced = (size_t)zs.total_out;
    size_t consumed = (size_t)zs.total_in;
    uInt out_left = zs.avail_out;
    const char *zmsg = zs.msg ? zs.msg : "zlib error";
    inflateEnd(&zs);
    if (zr == Z_STREAM_END && produced == claimed && consumed == size)
        return WM_OK;
    if (zr == Z_STREAM_END && consumed != size)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: ASWM zlib stream ends after %zu of its %zu bytes", source, consumed,
                        size);
    if (zr == Z_STREAM_END || zr == Z_BUF_ERROR) {
        if (zr == Z_BUF_ERROR && out_left == 0)
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: ASWM inflates to more than the claimed %zu bytes", source,
                            claimed);
        if (zr == Z_STREAM_END)
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: ASWM inflates to %zu bytes, header claims %zu", source, produced,
                            claimed);
        return wm_error(ctx, WM_ERR_TRUNCATED, "%s: ASWM zlib stream is cut short (%zu of %zu bytes inflated)", source,
                        produced, claimed);
    }
    return wm_error(ctx, WM_ERR_CORRUPT, "%s: ASWM zlib stream is corrupt at input byte %zu (%s)", source,
                    COMP_HEADER + consumed, zmsg);
}
#endif

int nwn2_deflate_is_libdeflate(void)
{
#ifdef WALKMESH_HAVE_LIBDEFLATE
    return 1;
#else
    return 0;
#endif
}

/* The default compression (level NWN2_DEFLATE_DEFAULT): libdeflate at level 6
 * when built with it (about 4x faster than zlib at level 6 and smaller), else
 * zlib level 6; NWN2_DEFLATE_BEST: libdeflate level 12, else zlib level 9;
 * NWN2_DEFLATE_BETTER: libdeflate level 10, else zlib level 9.
 * Returns the stream size, 0 on failure. */
static size_t deflate_default(const uint8_t *raw, size_t size, int level, uint8_t *out, size_t capacity)
{
#ifdef WALKMESH_HAVE_LIBDEFLATE
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(nwn2_libdeflate_level(level));
    if (!c)
        return 0;
    size_t produced = libdeflate_zlib_compress(c, raw, size, out, capacity);
    libdeflate_free_compressor(c);
    return produced;
#else
    uLongf produced = (uLongf)capacity;
    return compress2(out, &produced, raw, (uLong)size, level == NWN2_DEFLATE_DEFAULT ? 6 : 9) == Z_OK ? (size_t)produced
                                                                                                  : 0;
#endif
}

wm_result nwn2_aswm_decode_packet(wm_ctx *ctx, const uint8_t *payload, size_t size, const char *source,
                                  uint8_t **out_raw, size_t *out_size, nwn2_aswm_packet_info *out_info)
{
    return nwn2_aswm_decode_packet_at(ctx, payload, size, source, 0, out_raw, out_size, out_info);
}

wm_result nwn2_aswm_decode_packet_at(wm_ctx *ctx, const uint8_t *payload, size_t size, const char *source, size_t lead,
                                     uint8_t **out_block, size_t *out_size, nwn2_aswm_packet_info *out_info)
{
    uint8_t **out_raw = out_block;
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, payload, size, source);
    nwn2_aswm_packet_info info = {0, 0, 0, -1};
    *out_raw = NULL;
    *out_size = 0;
    if (out_info)
        *out_info = info;

    if (size < 4 || memcmp(payload, "COMP", 4) != 0) {
        if (size > ctx->limits.max_bytes)
            return wm_cursor_error(&cur, WM_ERR_LIMIT, "ASWM packet of %zu bytes exceeds the limit of %llu", size,
                                   (unsigned long long)ctx->limits.max_bytes);
        uint8_t *raw = wm_alloc_array(ctx, lead + (size ? size : 1), 1);
        if (!raw)
            return WM_ERR_NOMEM;
        if (size)
            memcpy(raw + lead, payload, size);
        info.uncompressed_size = info.compressed_size = (uint32_t)size;
        *out_raw = raw;
        *out_size = size;
        if (out_info)
            *out_info = info;
        return WM_OK;
    }

    wm_result r;
    info.compressed = 1;
    if ((r = wm_cursor_skip(&cur, 4, "ASWM COMP tag")) ||
        (r = wm_read_u32(&cur, &info.compressed_size, "ASWM compressed size")) ||
        (r = wm_read_u32(&cur, &info.uncompressed_size, "ASWM uncompressed size")))
        return r;
    if (info.compressed_size > wm_cursor_remaining(&cur))
        return wm_cursor_error(&cur, WM_ERR_TRUNCATED, "ASWM zlib stream of %u bytes, only %zu left",
                               info.compressed_size, wm_cursor_remaining(&cur));
    if (info.compressed_size < wm_cursor_remaining(&cur))
        return wm_cursor_error(&cur, WM_ERR_CORRUPT, "ASWM zlib stream of %u bytes followed by %zu unexpected bytes",
                               info.compressed_size, wm_cursor_remaining(&cur) - info.compressed_size);
    if (info.uncompressed_size > ctx->limits.max_bytes)
        return wm_cursor_error(&cur, WM_ERR_LIMIT,
                               "ASWM claims %u uncompressed bytes, over the limit of %llu (refused before inflating)",
                               info.uncompressed_size, (unsigned long long)ctx->limits.max_bytes);
    if ((uint64_t)info.uncompressed_size > (uint64_t)info.compressed_size * ASWM_MAX_RATIO + ASWM_RATIO_SLACK)
        return wm_cursor_error(&cur, WM_ERR_LIMIT,
                               "ASWM claims %u uncompressed bytes from a %u-byte zlib stream, over %u times the stream "
                               "plus 1 MiB (real walkmeshes inflate at most about 5 times; refused before inflating)",
                               info.uncompressed_size, info.compressed_size, ASWM_MAX_RATIO);
    const uint8_t *stream = payload + COMP_HEADER;
    info.zlib_level_hint = level_hint(stream, info.compressed_size);

    /* not cleared first: inflate_exact fills every byte or fails */
    uint8_t *raw = wm_realloc_array(ctx, NULL, lead + (info.uncompressed_size ? info.uncompressed_size : 1), 1);
    if (!raw)
        return WM_ERR_NOMEM;
    r = inflate_exact(ctx, stream, info.compressed_size, raw + lead, info.uncompressed_size, source);
    if (r) {
        wm_free(ctx, raw);
        return r;
    }
    *out_raw = raw;
    *out_size = info.uncompressed_size;
    if (out_info)
        *out_info = info;
    return WM_OK;
}

void nwn2_zlib_header(int lib_level, uint8_t out[2])
{
    unsigned header = (0x78u << 8) | ((lib_level == 6 ? 2u : 3u) << 6); /* CINFO 7, CM 8; FLEVEL */
    header |= 31 - header % 31;
    out[0] = (uint8_t)(header >> 8);
    out[1] = (uint8_t)header;
}

/* The zlib stream of raw[0..size) deflated on several threads: libdeflate's
 * zlib header for the level, the chunks' raw deflate, Adler-32. */
static wm_result deflate_parallel(wm_ctx *ctx, const uint8_t *raw, size_t size, int level, unsigned threads,
                                  int release, wm_buffer *out)
{
#ifdef WALKMESH_HAVE_LIBDEFLATE
    const int lib_level = nwn2_libdeflate_level(level);
    uint8_t header[2];
    nwn2_zlib_header(lib_level, header);
    wm_put_bytes(out, header, 2);
    const uint32_t adler = libdeflate_adler32(1, raw, size); /* first: released bytes read as zeros */
    wm_result r = out->status ? out->status
                              : nwn2_deflate_raw_parallel(ctx, raw, size, lib_level, threads, release, out);
    if (r)
        return r;
    const uint8_t be[4] = {(uint8_t)(adler >> 24), (uint8_t)(adler >> 16), (uint8_t)(adler >> 8), (uint8_t)adler};
    wm_put_bytes(out, be, 4);
    return out->status;
#else
    (void)raw, (void)size, (void)level, (void)threads, (void)release, (void)out;
    return wm_error(ctx, WM_ERR_UNSUPPORTED, "parallel deflate needs libdeflate");
#endif
}

wm_result nwn2_aswm_encode_packet(wm_ctx *ctx, const uint8_t *raw, size_t size, int compress, int level,
                                  unsigned threads, int release, wm_buffer *out)
{
    if (!compress) {
        wm_put_bytes(out, raw, size);
        return out->status;
    }
    if (size > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "ASWM of %zu bytes exceeds the 4 GiB packet sizes", size);
    /* libdeflate's worst case is a little above zlib's: room for both */
    uLong bound = compressBound((uLong)size) + (uLong)(size / 1024) + 1024;
    size_t start = out->size;
    if (wm_buffer_reserve(out, COMP_HEADER + (size_t)bound))
        return out->status;
    wm_put_bytes(out, "COMP", 4);
    wm_put_u32(out, 0);
    wm_put_u32(out, (uint32_t)size);
    if (out->status)
        return out->status;
    uLongf produced = bound;
    if (level < 0 && nwn2_deflate_parallel_applies(size)) {
        wm_result r = deflate_parallel(ctx, raw, size, level, threads, release, out);
        if (!r)
            wm_patch_u32(out, start + 4, (uint32_t)(out->size - start - COMP_HEADER));
        return r ? r : out->status;
    } else if (level < 0) {
        produced = (uLongf)deflate_default(raw, size, level, out->data + out->size, (size_t)bound);
        if (!produced)
            return wm_error(ctx, WM_ERR_NOMEM, "could not compress the ASWM walkmesh");
    } else {
        int zr = compress2(out->data + out->size, &produced, raw, (uLong)size, level);
        if (zr != Z_OK)
            return wm_error(ctx, zr == Z_MEM_ERROR ? WM_ERR_NOMEM : WM_ERR_INVALID,
                            "zlib could not compress the ASWM walkmesh (level %d, error %d)", level, zr);
    }
    out->size += (size_t)produced;
    wm_patch_u32(out, start + 4, (uint32_t)produced);
    return out->status;
}
