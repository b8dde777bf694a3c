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
 * found by decoding its symbols up to the first change without writing
 * them (the boundaries zlib's Z_BLOCK inflate stops at, checked against it
 * on the corpus).
 *
 * When NWN2_PARALLEL_DEFLATE_MIN bytes or more follow the first change, the
 * bytes from the first change on are deflated as chunks of their own
 * (nwn2_deflate_parallel.c), beside that scan when there are several
 * threads (the same stream either way); the
 * few bytes between the last kept block and the first change are deflated
 * after it, as one more chunk joined at an empty stored block. */
#include "nwn2.h"

#include <string.h>
#ifdef WALKMESH_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#define COMP_HEADER 12u
/* The old stream's block boundaries, found by decoding its symbols without
 * writing their bytes (what zlib's Z_BLOCK inflate reports, at about a third
 * of its cost: no output, no window). Deflate's format (RFC 1951): blocks
 * of a 3-bit header, stored, fixed or dynamic Huffman codes. */
#define FAST_BITS 10u    /* code bits looked up at once; longer codes are decoded bit by bit */
#define MAX_CODE_BITS 15u
#define MAX_SYMBOLS 320u /* 286 literal/length + 30 distance codes at most, read in one run */

/* Extra bits after each length code (257..285) and distance code (0..29),
 * the bytes a length code stands for before them (RFC 1951, 3.2.5). */
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t distance_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                           6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* A symbol as decoded: symbol << 16 | extra bits << 8 | code length + extra bits. */
#define ENTRY(sym, extra, bits) ((uint32_t)(sym) << 16 | (uint32_t)(extra) << 8 | ((bits) + (extra)))
#define NO_ENTRY UINT32_MAX

/* A canonical Huffman code: fast[] by the next FAST_BITS bits of the stream
 * (an ENTRY, with the extra bits that follow the symbol, so that one shift
 * passes both; 0: a longer code or none), and what the bit-by-bit decode
 * needs (codes per length, symbols in code order, each symbol's extra bits). */
typedef struct huffman {
    uint32_t fast[1u << FAST_BITS];
    uint16_t count[MAX_CODE_BITS + 1];
    uint16_t sorted[MAX_SYMBOLS];
    const uint8_t *extra; /* from symbol extra_from on; NULL: none */
    unsigned extra_from, extra_count;
} huffman;

static uint32_t extra_of(const huffman *h, unsigned sym)
{
    return h->extra && sym >= h->extra_from && sym - h->extra_from < h->extra_count ? h->extra[sym - h->extra_from]
                                                                                     : 0;
}

/* Bits of the stream, least significant first, as deflate packs them. Bytes
 * past the end read as zeros; the caller checks that no block ends past it. */
typedef struct bit_reader {
    const uint8_t *data;
    size_t size, next; /* next byte to load */
    uint64_t hold;
    unsigned count; /* bits in hold */
} bit_reader;

/* Tops hold up to 56 bits or more. */
static inline void refill(bit_reader *br)
{
    if (br->next + 8 <= br->size) {
        const uint8_t *d = br->data + br->next; /* little-endian word (compilers make it one load) */
        const uint64_t w = (uint64_t)d[0] | (uint64_t)d[1] << 8 | (uint64_t)d[2] << 16 | (uint64_t)d[3] << 24 |
                           (uint64_t)d[4] << 32 | (uint64_t)d[5] << 40 | (uint64_t)d[6] << 48 |
                           (uint64_t)d[7] << 56;
        br->hold |= w << br->count;
        br->next += (63u - br->count) >> 3;
        br->count |= 56u;
        return;
    }
    for (; br->count <= 56; br->count += 8, br->next++)
        if (br->next < br->size)
            br->hold |= (uint64_t)br->data[br->next] << br->count;
}

/* The next n bits (n <= 32; hold must have them). */
static inline uint32_t take(bit_reader *br, unsigned n)
{
    const uint32_t v = (uint32_t)(br->hold & ((1ull << n) - 1));
    br->hold >>= n;
    br->count -= n;
    return v;
}

/* Bits read so far. */
static uint64_t bits_read(const bit_reader *br)
{
    return (uint64_t)br->next * 8 - br->count;
}

/* 0 when the lengths make no prefix code (over-subscribed). */
static int huffman_build(huffman *h, const uint8_t *length, unsigned n)
{
    uint16_t at[MAX_CODE_BITS + 2];
    memset(h->count, 0, sizeof h->count);
    for (unsigned i = 0; i < n; i++)
        h->count[length[i]]++;
    h->count[0] = 0;
    int left = 1;
    at[1] = 0;
    for (unsigned b = 1; b <= MAX_CODE_BITS; b++) {
        left = 2 * left - h->count[b];
        if (left < 0)
            return 0;
        at[b + 1] = (uint16_t)(at[b] + h->count[b]);
    }
    for (unsigned i = 0; i < n; i++)
        if (length[i])
            h->sorted[at[length[i]]++] = (uint16_t)i;
    memset(h->fast, 0, sizeof h->fast);
    uint32_t code = 0, index = 0;
    for (unsigned b = 1; b <= FAST_BITS; b++, code <<= 1)
        for (unsigned j = 0; j < h->count[b]; j++, code++) {
            uint32_t reversed = 0; /* codes are sent most significant bit first */
            for (unsigned k = 0; k < b; k++)
                reversed |= ((code >> k) & 1u) << (b - 1 - k);
            const uint32_t entry = ENTRY(h->sorted[index], extra_of(h, h->sorted[index]), b);
            for (uint32_t e = reversed; e < (1u << FAST_BITS); e += 1u << b)
                h->fast[e] = entry;
            index++;
        }
    return 1;
}

/* The next symbol's ENTRY, nothing taken (hold must have MAX_CODE_BITS
 * bits); NO_ENTRY when no code matches. */
static inline uint32_t decode(const bit_reader *br, const huffman *h)
{
    const uint32_t e = h->fast[br->hold & ((1u << FAST_BITS) - 1)];
    if (e)
        return e;
    int code = 0, first = 0, index = 0;
    for (unsigned b = 1; b <= MAX_CODE_BITS; b++) {
        code |= (int)((br->hold >> (b - 1)) & 1u);
        const int count = h->count[b];
        if (code - first < count) {
            const unsigned sym = h->sorted[index + code - first];
            return ENTRY(sym, extra_of(h, sym), b);
        }
        index += count;
        first = (first + count) << 1;
        code <<= 1;
    }
    return NO_ENTRY;
}

/* The codes of a dynamic block's header (literal/length and distance); 0 when invalid. */
static int read_dynamic_codes(bit_reader *br, huffman *lit, huffman *dist)
{
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    uint8_t length[MAX_SYMBOLS] = {0};
    refill(br);
    const unsigned nlit = take(br, 5) + 257, ndist = take(br, 5) + 1, nlen = take(br, 4) + 4;
    if (nlit > 286 || ndist > 30)
        return 0;
    for (unsigned i = 0; i < nlen; i++) {
        refill(br);
        length[order[i]] = (uint8_t)take(br, 3);
    }
    lit->extra = NULL; /* lit holds the code length code meanwhile */
    if (!huffman_build(lit, length, 19))
        return 0;
    memset(length, 0, sizeof length);
    for (unsigned i = 0; i < nlit + ndist;) {
        refill(br);
        const uint32_t e = decode(br, lit);
        if (e == NO_ENTRY)
            return 0;
        take(br, e & 31u);
        const uint32_t sym = e >> 16;
        if (sym < 16) {
            length[i++] = (uint8_t)sym;
            continue;
        }
        const uint8_t value = sym == 16 ? (i ? length[i - 1] : 0xFF) : 0;
        const unsigned repeat = sym == 16 ? 3 + take(br, 2) : sym == 17 ? 3 + take(br, 3) : 11 + take(br, 7);
        if (value == 0xFF || i + repeat > nlit + ndist)
            return 0;
        memset(length + i, value, repeat);
        i += repeat;
    }
    lit->extra = length_extra;
    return huffman_build(lit, length, nlit) && huffman_build(dist, length + nlit, ndist);
}

static void fixed_codes(huffman *lit, huffman *dist)
{
    uint8_t length[288];
    memset(length, 8, 144);
    memset(length + 144, 9, 112);
    memset(length + 256, 7, 24);
    memset(length + 280, 8, 8);
    lit->extra = length_extra;
    huffman_build(lit, length, 288);
    memset(length, 5, 30);
    huffman_build(dist, length, 30);
}

/* Skips a Huffman block's symbols, adding its bytes to *out, up to its end
 * (1) or until *out passes limit (1 too; the caller stops); 0 when invalid. */
static int skip_symbols(bit_reader *br, const huffman *lit, const huffman *dist, size_t limit, size_t *out)
{
    size_t at = *out;
    int ok = 0;
    for (;;) {
        if (br->count < 48) { /* a symbol takes at most 15 + 5 + 15 + 13 bits */
            refill(br);
            if (br->next > br->size && bits_read(br) > 8ull * br->size)
                break; /* past the end (the zeros read there could go on for ever) */
        }
        const uint32_t e = decode(br, lit), sym = e >> 16;
        if (sym < 256) {
            take(br, e & 31u);
            at++;
            continue;
        }
        if (sym == 256 || sym > 285) {
            take(br, e & 31u);
            ok = sym == 256;
            break;
        }
        const uint32_t extra = (e >> 8) & 15u, bits = e & 31u;
        at += length_base[sym - 257] + (uint32_t)((br->hold >> (bits - extra)) & ((1u << extra) - 1));
        take(br, bits);
        const uint32_t d = decode(br, dist);
        if (d >> 16 > 29) /* NO_ENTRY too */
            break;
        take(br, d & 31u);
        if (at > limit) {
            ok = 1;
            break;
        }
    }
    *out = at;
    return ok;
}

int nwn2_deflate_last_boundary(const uint8_t *stream, size_t size, size_t limit, uint64_t *bit, size_t *at)
{
    huffman codes[2];
    codes[0].extra_from = 257; /* codes[0].extra: set per block (none while it holds the code length code) */
    codes[0].extra_count = 29;
    codes[1].extra = distance_extra;
    codes[1].extra_from = 0;
    codes[1].extra_count = 30;
    bit_reader br = {stream + 2, size >= 2 ? size - 2 : 0, 0, 0, 0}; /* after the 2-byte zlib header */
    size_t out = 0;
    *bit = 0;
    *at = 0;
    for (int final = 0; !final && out <= limit;) {
        refill(&br);
        final = (int)take(&br, 1);
        const uint32_t type = take(&br, 2);
        if (type == 0) { /* stored: LEN, NLEN on a byte boundary, LEN bytes */
            take(&br, br.count & 7u);
            const uint32_t len = take(&br, 16), nlen = take(&br, 16);
            const uint64_t end = bits_read(&br) + 8ull * len;
            if (len != (~nlen & 0xFFFFu) || end > 8ull * br.size)
                break;
            br = (bit_reader){br.data, br.size, (size_t)(end / 8), 0, 0};
            out += len;
        } else if (type == 3 || (type == 2 && !read_dynamic_codes(&br, &codes[0], &codes[1]))) {
            break;
        } else {
            if (type == 1)
                fixed_codes(&codes[0], &codes[1]);
            if (!skip_symbols(&br, &codes[0], &codes[1], limit, &out))
                break;
        }
        if (bits_read(&br) > 8ull * br.size)
            break;
        if (!final && out <= limit) {
            *bit = bits_read(&br) + 16;
            *at = out;
        }
    }
    return *at > 0;
}

#ifdef WALKMESH_HAVE_LIBDEFLATE /* the rest's raw deflate and the Adler-32 are libdeflate's */
/* A start shorter than this is deflated again rather than looked for. */
#define SPLICE_MIN_KEPT (64u * 1024u)

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
    uint64_t bit;
    size_t at;
    int found;
} boundary_scan;

static void run_scan(void *user)
{
    boundary_scan *s = user;
    s->found = nwn2_deflate_last_boundary(s->stream, s->size, s->limit, &s->bit, &s->at) &&
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
    boundary_scan scan = {old_payload + COMP_HEADER, old_payload_size - COMP_HEADER, limit, 0, 0, 0};
    const int lib_level = nwn2_libdeflate_level(level);
    nwn2_deflate_chunks tail = {NULL, 0, 1};
    wm_result r = WM_OK;
    const int side_by_side = nwn2_deflate_parallel_applies(size - limit);
    if (side_by_side) /* the bytes from the first change on deflate meanwhile */
        r = nwn2_deflate_chunks_run(ctx, raw + limit, size - limit, lib_level, threads,
                                    nwn2_deflate_chunk_count(size - limit, 1), 1, run_scan, &scan, 0, &tail);
    else
        run_scan(&scan);
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
