/* Re-encoding a changed walkmesh without deflating its unchanged start.
 *
 * A re-bake keeps the geometry, which comes first in the ASWM bytes: only
 * the tables after it change (about the second half of the bytes on the
 * corpus). The packet read holds a zlib stream of the old bytes; its deflate
 * blocks before the first changed byte are kept as they are, bit for bit,
 * and only the rest is deflated:
 *
 *   old stream's zlib header and blocks up to the last block boundary at or
 *   before the first changed byte | an empty stored block (3 header bits,
 *   padding, 00 00 FF FF: brings the stream to a byte boundary, as zlib's
 *   sync flush does) | a raw deflate of the new bytes from that boundary on
 *   (its last block final) | Adler-32 of all the new bytes.
 *
 * That is one valid zlib stream. The deflate of the rest starts without the
 * 32 KiB history before it, which costs a few bytes; the writer's size ladder
 * (nwn2_file.c) still applies. The block boundaries of the old stream are
 * found by inflating it with zlib's Z_BLOCK up to the first change.
 *
 * When NWN2_PARALLEL_DEFLATE_MIN bytes or more follow the first change, the
 * bytes from the first change on are deflated as chunks of their own
 * (nwn2_deflate_parallel.c), beside that inflate when there are several
 * threads (the same stream either way); the
 * few bytes between the last kept block and the first change are deflated
 * after it, as one more chunk joined at an empty stored block. */
#include "nwn2.h"

#include <string.h>
#include <zlib.h>
#ifdef WALKMESH_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#define COMP_HEADER 12u
#ifdef WALKMESH_HAVE_LIBDEFLATE /* the rest's raw deflate and the Adler-32 are libdeflate's */
/* A start shorter than this is deflated again rather than looked for. */
#define SPLICE_MIN_KEPT (64u * 1024u)
#define SCAN_CHUNK (64u * 1024u)

/* Index of the first byte where a and b differ, n when none. */
static size_t first_difference(const uint8_t *a, const uint8_t *b, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y)
            break;
    }
    while (i < n && a[i] == b[i])
        i++;
    return i;
}

/* The last block boundary of the zlib stream at or before uncompressed byte
 * `limit`: *bit (from the stream's start) and *at (uncompressed). Returns 0
 * when none is found past the zlib header or the stream does not inflate. */
static int last_boundary_before(const uint8_t *stream, size_t size, size_t limit, uint8_t *scratch, uint64_t *bit,
                                size_t *at)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    /* raw inflate after the 2-byte zlib header: no Adler-32 of bytes thrown away */
    if (size < 2 || inflateInit2(&zs, -15) != Z_OK)
        return 0;
    zs.next_in = (Bytef *)(uintptr_t)(stream + 2);
    zs.avail_in = (uInt)(size - 2);
    *bit = 0;
    *at = 0;
    for (;;) {
        zs.next_out = scratch;
        zs.avail_out = SCAN_CHUNK;
        int zr = inflate(&zs, Z_BLOCK);
        if (zr != Z_OK || zs.total_out > limit)
            break;
        if ((zs.data_type & 128) && !(zs.data_type & 64)) {
            *bit = (uint64_t)(zs.total_in + 2) * 8 - (uint64_t)(zs.data_type & 7);
            *at = zs.total_out;
        }
    }
    inflateEnd(&zs);
    return *at > 0;
}

/* Appends a raw deflate of raw[0..size) on the calling thread. */
static wm_result deflate_rest(wm_ctx *ctx, const uint8_t *raw, size_t size, int lib_level, wm_buffer *out)
{
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(lib_level);
    if (!c)
        return wm_error(ctx, WM_ERR_NOMEM, "could not compress the ASWM walkmesh");
    const size_t bound = libdeflate_deflate_compress_bound(c, size);
    wm_result r = wm_buffer_reserve(out, bound + 4);
    size_t produced = 0;
    if (!r) {
        produced = libdeflate_deflate_compress(c, raw, size, out->data + out->size, bound);
        if (!produced)
            r = wm_error(ctx, WM_ERR_NOMEM, "could not compress the ASWM walkmesh");
    }
    libdeflate_free_compressor(c);
    out->size += produced;
    return r;
}

/* Where the old stream is cut (last_boundary_before): on several threads,
 * found on one of them while the others deflate the rest. */
typedef struct boundary_scan {
    const uint8_t *stream;
    size_t size, limit;
    uint8_t *scratch;
    uint64_t bit;
    size_t at;
    int found;
} boundary_scan;

static void run_scan(void *user)
{
    boundary_scan *s = user;
    s->found = last_boundary_before(s->stream, s->size, s->limit, s->scratch, &s->bit, &s->at) &&
               s->at >= SPLICE_MIN_KEPT;
}

/* The deflate from the cut on. One thread (tail NULL): raw[at..size) whole.
 * Several: raw[at..limit), then the chunks of raw[limit..size) that were
 * deflated during the scan, joined at empty stored blocks. */
static wm_result deflate_after_cut(wm_ctx *ctx, const uint8_t *raw, size_t size, size_t at, size_t limit,
                                   int lib_level, nwn2_deflate_chunks *tail, wm_buffer *out)
{
    if (!tail)
        return deflate_rest(ctx, raw + at, size - at, lib_level, out);
    wm_result r = WM_OK;
    if (limit > at) {
        nwn2_deflate_chunks gap;
        r = nwn2_deflate_chunks_run(ctx, raw + at, limit - at, lib_level, 1, 1, 0, NULL, NULL, 0, &gap);
        if (!r)
            r = nwn2_deflate_chunks_join(ctx, &gap, out);
        nwn2_deflate_chunks_free(ctx, &gap);
    }
    return r ? r : nwn2_deflate_chunks_join(ctx, tail, out);
}

/* The new stream, as described at the top, into out after the COMP header. */
static wm_result write_spliced(wm_ctx *ctx, const uint8_t *raw, size_t size, const boundary_scan *scan,
                               int lib_level, nwn2_deflate_chunks *tail, wm_buffer *out)
{
    const size_t start = out->size;
    wm_result r = wm_buffer_reserve(out, COMP_HEADER + (size_t)(scan->bit / 8) + 6);
    if (!r) {
        wm_put_bytes(out, "COMP", 4);
        wm_put_u32(out, 0);
        wm_put_u32(out, (uint32_t)size);
        nwn2_put_bits_then_sync(out, scan->stream, scan->bit);
        r = out->status;
    }
    if (!r)
        r = deflate_after_cut(ctx, raw, size, scan->at, scan->limit, lib_level, tail, out);
    if (r)
        return r;
    const uint32_t adler = libdeflate_adler32(1, raw, size);
    const uint8_t be[4] = {(uint8_t)(adler >> 24), (uint8_t)(adler >> 16), (uint8_t)(adler >> 8), (uint8_t)adler};
    wm_put_bytes(out, be, 4);
    wm_patch_u32(out, start + 4, (uint32_t)(out->size - start - COMP_HEADER));
    return out->status;
}
#endif

wm_result nwn2_aswm_encode_spliced(wm_ctx *ctx, const uint8_t *raw, size_t size, const uint8_t *old_raw,
                                   size_t old_size, const uint8_t *old_payload, size_t old_payload_size, int level,
                                   unsigned threads, wm_buffer *out, int *spliced)
{
    *spliced = 0;
#ifdef WALKMESH_HAVE_LIBDEFLATE
    if (size > UINT32_MAX || old_payload_size < COMP_HEADER + 2 || memcmp(old_payload, "COMP", 4) != 0)
        return WM_OK;
    const size_t limit = first_difference(raw, old_raw, size < old_size ? size : old_size);
    if (limit < SPLICE_MIN_KEPT || limit == size)
        return WM_OK;
    uint8_t *scratch = wm_realloc_array(ctx, NULL, SCAN_CHUNK, 1);
    if (!scratch)
        return WM_ERR_NOMEM;
    boundary_scan scan = {old_payload + COMP_HEADER, old_payload_size - COMP_HEADER, limit, scratch, 0, 0, 0};
    const int lib_level = nwn2_libdeflate_level(level);
    nwn2_deflate_chunks tail = {NULL, 0, 1};
    wm_result r = WM_OK;
    const int side_by_side = nwn2_deflate_parallel_applies(size - limit);
    if (side_by_side) /* the bytes from the first change on deflate meanwhile */
        r = nwn2_deflate_chunks_run(ctx, raw + limit, size - limit, lib_level, threads,
                                    nwn2_deflate_chunk_count(size - limit, 1), 1, run_scan, &scan, 0, &tail);
    else
        run_scan(&scan);
    wm_free(ctx, scratch);
    if (!r && scan.found) {
        r = write_spliced(ctx, raw, size, &scan, lib_level, side_by_side ? &tail : NULL, out);
        *spliced = !r;
    }
    nwn2_deflate_chunks_free(ctx, &tail);
    return r;
#else
    (void)ctx, (void)raw, (void)size, (void)old_raw, (void)old_size, (void)old_payload, (void)old_payload_size;
    (void)level, (void)threads, (void)out;
    return WM_OK;
#endif
}
