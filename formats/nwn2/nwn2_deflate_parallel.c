/* A large walkmesh deflated in pieces, on several threads when there are
 * (issue 20), into one valid deflate stream.
 *
 * libdeflate 1.14 compresses whole buffers only: no flush, no preset
 * dictionary. The bytes are cut into chunks, each deflated on its own
 * (without the 32 KiB history of the chunk before: a few hundred bytes lost
 * per cut); how many depends on the size alone, never on the threads, so a
 * file is the same on any machine. Then, for each chunk but the last, its
 * final block is made
 * non-final (the BFINAL bit of that block's header cleared) and an empty
 * stored block brings the stream to a byte boundary, as zlib's sync flush
 * does, where the next chunk's bytes begin:
 *
 *   chunk 0 (last block not final) | 000 pad 00 00 FF FF | chunk 1 ... | last chunk
 *
 * A deflate stream says nowhere where its last block begins; zlib's inflate
 * with Z_BLOCK stops at each block boundary and tells the bit, so each chunk
 * but the last is inflated once more by its own thread to find it. */
#include "nwn2_compact.h"
#include "wm_parallel.h"
#include "wm_platform.h"

#include <string.h>
#include <zlib.h>
#ifdef WALKMESH_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#define SCAN_CHUNK (64u * 1024u)

int nwn2_libdeflate_level(int level)
{
    return level == NWN2_DEFLATE_BEST ? 12 : level == NWN2_DEFLATE_BETTER ? 10 : 6;
}

void nwn2_put_bits_then_sync(wm_buffer *out, const uint8_t *stream, uint64_t bit)
{
    const size_t whole = (size_t)(bit / 8), k = (size_t)(bit % 8);
    wm_put_bytes(out, stream, whole);
    if (k)
        wm_put_u8(out, (uint8_t)(stream[whole] & ((1u << k) - 1))); /* its bits, then the stored header */
    if (k == 0 || k > 5)
        wm_put_u8(out, 0); /* the 3 header bits (or their rest) and the padding */
    wm_put_bytes(out, "\x00\x00\xFF\xFF", 4);
}

int nwn2_deflate_parallel_applies(size_t size)
{
#ifdef WALKMESH_HAVE_LIBDEFLATE
    return size >= NWN2_PARALLEL_DEFLATE_MIN;
#else
    (void)size;
    return 0;
#endif
}

#ifdef WALKMESH_HAVE_LIBDEFLATE
/* The bit (from the start of the raw deflate stream) where its final block's
 * header begins and the bit just after that block's end-of-block code.
 * Returns 0 when the stream does not inflate. */
static int final_block_bits(const uint8_t *stream, size_t size, uint8_t *scratch, uint64_t *header, uint64_t *end)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, -15) != Z_OK)
        return 0;
    zs.next_in = (Bytef *)(uintptr_t)stream;
    zs.avail_in = (uInt)size;
    uint64_t boundary = 0; /* the first block begins the stream */
    int found = 0;
    for (;;) {
        zs.next_out = scratch;
        zs.avail_out = SCAN_CHUNK;
        const int zr = inflate(&zs, Z_BLOCK);
        if (zr != Z_OK)
            break;
        if (zs.data_type & 128) { /* at a block boundary: the bits left unread in the last byte taken */
            const uint64_t here = (uint64_t)zs.total_in * 8 - (uint64_t)(zs.data_type & 7);
            if (zs.data_type & 64) { /* the final block has just ended */
                *header = boundary;
                *end = here;
                found = 1;
                break;
            }
            boundary = here;
        }
    }
    inflateEnd(&zs);
    return found;
}

struct nwn2_deflate_chunk {
    struct libdeflate_compressor *compressor;
    size_t from, size;      /* the chunk's bytes in the input */
    uint8_t *stream;        /* its raw deflate (capacity bytes) */
    size_t capacity, produced;
    uint8_t *scratch;       /* SCAN_CHUNK bytes for the inflate that finds the final block */
    uint64_t header, end;   /* final block's header bit and end bit, when it is to be joined to more */
    int ok;
};

typedef struct chunk_work {
    const uint8_t *raw;
    nwn2_deflate_chunks *set;
    void (*side)(void *);
    void *side_user;
    int release; /* give each chunk's input pages back once deflated */
    nwn2_fill_fn fill; /* when set: lays each chunk's bytes out first, on its thread */
    void *fill_user;
} chunk_work;

static void deflate_chunk(void *user, size_t index)
{
    chunk_work *w = user;
    if (w->side && index-- == 0) {
        w->side(w->side_user);
        return;
    }
    nwn2_deflate_chunk *c = &w->set->chunks[index];
    if (w->fill) /* raw is the caller's writable buffer then */
        w->fill(w->fill_user, (uint8_t *)(uintptr_t)(w->raw + c->from), c->from, c->size);
    c->produced = libdeflate_deflate_compress(c->compressor, w->raw + c->from, c->size, c->stream, c->capacity);
    c->ok = c->produced != 0;
    if (w->release) /* rounded inward: a page shared with the next chunk stays */
        wm_platform_release_pages(w->raw + c->from, c->size);
    if (c->ok && (index + 1 < w->set->count || !w->set->final))
        c->ok = final_block_bits(c->stream, c->produced, c->scratch, &c->header, &c->end);
}

size_t nwn2_deflate_chunk_count(size_t size, int beside_scan)
{
    const size_t count = size / (beside_scan ? 2 * (size_t)NWN2_PARALLEL_DEFLATE_MIN : NWN2_PARALLEL_DEFLATE_MIN);
    const size_t least = beside_scan ? 1 : 2;
    return count < least ? least : count > 4 ? 4 : count;
}

/* Allocates the chunks' compressors and buffers (on the calling thread: a
 * failure is reported through ctx). Equal chunks, although each but the last
 * is also inflated to find its final block (about 45 % of deflating it):
 * chunks sized for the threads to end together (20 parts to the last one's
 * 24-29) made the 9 corpus re-bakes that deflate on 2 threads 5-10 KB larger
 * in all, against 1.1 KB with equal ones (the cut falls elsewhere in the
 * tables). piece > 0: chunks of piece bytes, the last one the rest. */
static wm_result chunks_prepare(wm_ctx *ctx, nwn2_deflate_chunks *set, size_t size, size_t piece, int lib_level)
{
    const size_t each = piece ? piece : size / set->count;
    for (size_t i = 0; i < set->count; i++) {
        nwn2_deflate_chunk *c = &set->chunks[i];
        c->from = each * i;
        c->size = i + 1 < set->count ? each : size - c->from;
        c->compressor = libdeflate_alloc_compressor(lib_level);
        if (!c->compressor)
            return wm_error(ctx, WM_ERR_NOMEM, "could not compress the ASWM walkmesh");
        c->capacity = libdeflate_deflate_compress_bound(c->compressor, c->size);
        c->stream = wm_realloc_array(ctx, NULL, c->capacity + SCAN_CHUNK, 1);
        if (!c->stream)
            return WM_ERR_NOMEM;
        c->scratch = c->stream + c->capacity;
    }
    return WM_OK;
}

static wm_result chunks_run(wm_ctx *ctx, const uint8_t *raw, size_t size, size_t piece, int lib_level,
                            unsigned threads, size_t count, int final, void (*side)(void *), void *side_user,
                            int release, const chunk_work *filling, nwn2_deflate_chunks *set)
{
    set->count = count ? count : 1;
    set->final = final;
    set->chunks = wm_alloc_array(ctx, set->count, sizeof *set->chunks);
    if (!set->chunks)
        return WM_ERR_NOMEM;
    wm_result r = chunks_prepare(ctx, set, size, piece, lib_level);
    if (!r) {
        chunk_work work = {raw, set, side, side_user, release, filling ? filling->fill : NULL,
                           filling ? filling->fill_user : NULL};
        wm_parallel_for(threads, set->count + (side != NULL), deflate_chunk, &work);
    }
    return r;
}

wm_result nwn2_deflate_chunks_run(wm_ctx *ctx, const uint8_t *raw, size_t size, int lib_level, unsigned threads,
                                  size_t count, int final, void (*side)(void *), void *side_user, int release,
                                  nwn2_deflate_chunks *set)
{
    return chunks_run(ctx, raw, size, 0, lib_level, threads, count, final, side, side_user, release, NULL, set);
}

wm_result nwn2_deflate_pieces(wm_ctx *ctx, uint8_t *raw, size_t size, size_t piece, int lib_level,
                              unsigned threads, int final, nwn2_fill_fn fill, void *fill_user, wm_buffer *out)
{
    nwn2_deflate_chunks set;
    const chunk_work filling = {.fill = fill, .fill_user = fill_user};
    wm_result r = chunks_run(ctx, raw, size, piece, lib_level, threads, (size + piece - 1) / piece, final, NULL,
                             NULL, 0, &filling, &set);
    if (!r)
        r = nwn2_deflate_chunks_join(ctx, &set, out);
    nwn2_deflate_chunks_free(ctx, &set);
    return r;
}

wm_result nwn2_deflate_chunks_join(wm_ctx *ctx, nwn2_deflate_chunks *set, wm_buffer *out)
{
    size_t total = 0;
    for (size_t i = 0; i < set->count; i++) {
        if (!set->chunks[i].ok)
            return wm_error(ctx, WM_ERR_NOMEM, "could not compress the ASWM walkmesh");
        total += set->chunks[i].produced + 6;
    }
    if (wm_buffer_reserve(out, total))
        return out->status;
    for (size_t i = 0; i < set->count; i++) {
        nwn2_deflate_chunk *c = &set->chunks[i];
        if (i + 1 == set->count && set->final) {
            wm_put_bytes(out, c->stream, c->produced);
        } else {
            c->stream[c->header / 8] &= (uint8_t)~(1u << (c->header % 8)); /* BFINAL: not the last block any more */
            nwn2_put_bits_then_sync(out, c->stream, c->end);
        }
        wm_free(ctx, c->stream); /* joined: the stream is never in memory twice */
        c->stream = c->scratch = NULL;
    }
    return out->status;
}

void nwn2_deflate_chunks_free(wm_ctx *ctx, nwn2_deflate_chunks *set)
{
    for (size_t i = 0; set->chunks && i < set->count; i++) {
        if (set->chunks[i].compressor)
            libdeflate_free_compressor(set->chunks[i].compressor);
        wm_free(ctx, set->chunks[i].stream);
    }
    wm_free(ctx, set->chunks);
    set->chunks = NULL;
}

wm_result nwn2_deflate_raw_parallel(wm_ctx *ctx, const uint8_t *raw, size_t size, int lib_level, unsigned threads,
                                    int release, wm_buffer *out)
{
    nwn2_deflate_chunks set;
    wm_result r = nwn2_deflate_chunks_run(ctx, raw, size, lib_level, threads, nwn2_deflate_chunk_count(size, 0), 1,
                                          NULL, NULL, release, &set);
    if (!r)
        r = nwn2_deflate_chunks_join(ctx, &set, out);
    nwn2_deflate_chunks_free(ctx, &set);
    return r;
}
#else
wm_result nwn2_deflate_pieces(wm_ctx *ctx, uint8_t *raw, size_t size, size_t piece, int lib_level,
                              unsigned threads, int final, nwn2_fill_fn fill, void *fill_user, wm_buffer *out)
{
    (void)raw, (void)size, (void)piece, (void)lib_level, (void)threads, (void)final, (void)fill, (void)fill_user;
    (void)out;
    return wm_error(ctx, WM_ERR_UNSUPPORTED, "parallel deflate needs libdeflate");
}

wm_result nwn2_deflate_raw_parallel(wm_ctx *ctx, const uint8_t *raw, size_t size, int lib_level, unsigned threads,
                                    int release, wm_buffer *out)
{
    (void)raw, (void)size, (void)lib_level, (void)threads, (void)release, (void)out;
    return wm_error(ctx, WM_ERR_UNSUPPORTED, "parallel deflate needs libdeflate");
}
#endif
