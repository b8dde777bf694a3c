/* NWN2 writer: a large walkmesh deflated on several threads
 * (nwn2_deflate_parallel.c). Checked from outside: zlib's own inflate (not
 * the writer's libdeflate) gives back exactly the bytes of the one-thread
 * output; no re-baked corpus file grows past the toolset's; and the chunks'
 * joins, found by zlib's Z_BLOCK inflate as empty stored blocks, fall on
 * every bit position of a byte. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "test_support.h"
#include "nwn2/bake/bake.h"
#include "test_nwn2_corpus.h"


/* Compressible bytes that are not all alike: words and numbers from a
 * linear congruential generator. */
static uint8_t *text_like(size_t size, uint32_t seed)
{
    static const char *const words[] = {"walk", "mesh ", "tile", " 0.", "edge", "\n", "island ", "path", "\x00\x00",
                                        "\x7f\x3f"};
    uint8_t *data = malloc(size);
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < size;) {
        x = x * 1664525u + 1013904223u;
        const char *w = words[(x >> 24) % 10];
        size_t n = (x >> 24) % 10 >= 8 ? 2 : strlen(w);
        for (size_t k = 0; k < n && i < size; k++)
            data[i++] = (uint8_t)w[k];
        if (i < size && (x & 0x300) == 0)
            data[i++] = (uint8_t)('0' + (x >> 12) % 10);
    }
    return data;
}

/* The packet payload of the ASWM in a serialised file ("COMP", sizes, stream). */
static const uint8_t *aswm_payload(wm_ctx *ctx, const wm_buffer *file, nwn2_container *c, uint32_t *size)
{
    nwn2_container_init(c);
    assert_int_equal(nwn2_container_parse(ctx, file->data, file->size, "written", c), WM_OK);
    const int at = nwn2_container_find(c, "ASWM", 0);
    assert_true(at >= 0);
    assert_memory_equal(c->packets[at].payload, "COMP", 4);
    *size = c->packets[at].size;
    return c->packets[at].payload;
}

/* zlib's inflate of a packet payload, which must fill exactly its claimed size (malloc'ed). */
static uint8_t *zlib_inflate_payload(const uint8_t *payload, uint32_t size, uint32_t *raw_size)
{
    uint32_t stream_size;
    memcpy(&stream_size, payload + 4, 4);
    memcpy(raw_size, payload + 8, 4);
    assert_int_equal(stream_size + 12, size);
    uint8_t *raw = malloc(*raw_size ? *raw_size : 1);
    uLongf got = *raw_size;
    assert_int_equal(uncompress(raw, &got, payload + 12, stream_size), Z_OK);
    assert_int_equal(got, *raw_size);
    return raw;
}

/* Inflates a raw deflate stream with zlib, block by block, into out (exactly
 * size bytes), and marks in seen[] the bit position within a byte of every
 * empty stored block that is not the last: where chunks were joined. Returns
 * how many there were. */
static size_t inflate_counting_joins(const uint8_t *stream, size_t stream_size, uint8_t *out, size_t size,
                                     int seen[8])
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(inflateInit2(&zs, -15), Z_OK);
    zs.next_in = (Bytef *)(uintptr_t)stream;
    zs.avail_in = (uInt)stream_size;
    zs.next_out = out;
    zs.avail_out = (uInt)size;
    size_t joins = 0;
    int zr = Z_OK;
    while (zr == Z_OK) {
        zr = inflate(&zs, Z_BLOCK);
        if (zr != Z_OK || !(zs.data_type & 128) || (zs.data_type & 64))
            continue;
        const uint64_t bit = (uint64_t)zs.total_in * 8 - (uint64_t)(zs.data_type & 7);
        const size_t byte = (size_t)((bit + 3 + 7) / 8); /* after the 3 header bits and the padding */
        const unsigned header = (unsigned)((stream[bit / 8] | (bit / 8 + 1 < stream_size ? stream[bit / 8 + 1] << 8 : 0))
                                           >> (bit % 8)) & 7u;
        if (header == 0 && byte + 4 <= stream_size && memcmp(stream + byte, "\x00\x00\xFF\xFF", 4) == 0) {
            seen[bit % 8] = 1;
            joins++;
        }
    }
    assert_int_equal(zr, Z_STREAM_END);
    assert_int_equal(zs.total_out, size);
    inflateEnd(&zs);
    return joins;
}

/* Every corpus TRX re-baked and written with 1 and with 2 deflate threads:
 * the two files are byte-identical (a batch bakes each file on one thread, a
 * single run on every core: both must write the same file), zlib inflates the
 * packet to the serialised walkmesh, and no file is larger than the
 * toolset's. */
typedef struct two_thread_totals {
    size_t parallel, bytes_one, bytes_two;
} two_thread_totals;

/* One corpus TRX re-baked and written on one and on two deflate threads. */
static void rebake_on_two_threads(const char *path, wm_ctx *ctx, nwn2_file *f, void *user)
{
    two_thread_totals *totals = user;
    size_t toolset_size;
    free(wmt_read_file(path, &toolset_size));
    assert_int_equal(nwn2_bake(ctx, &f->aswm, NULL, NULL), WM_OK);
    wm_buffer out[2];
    uint8_t *raw[2];
    uint32_t raw_size[2], payload_size[2];
    nwn2_container c[2];
    for (int t = 0; t < 2; t++) {
        f->deflate_threads = (unsigned)t + 1;
        wm_buffer_init(&out[t], ctx);
        assert_int_equal(nwn2_file_serialize(ctx, f, -1, &out[t]), WM_OK);
        const uint8_t *payload = aswm_payload(ctx, &out[t], &c[t], &payload_size[t]);
        raw[t] = zlib_inflate_payload(payload, payload_size[t], &raw_size[t]);
        if (out[t].size > toolset_size)
            fail_msg("%s: %zu bytes on %d threads, the toolset's file %zu", path, out[t].size, t + 1, toolset_size);
    }
    assert_int_equal(raw_size[0], raw_size[1]);
    assert_memory_equal(raw[0], raw[1], raw_size[0]);
    if (out[0].size != out[1].size || memcmp(out[0].data, out[1].data, out[0].size) != 0)
        fail_msg("%s: %zu bytes on one thread, %zu on two, not the same file", path, out[0].size, out[1].size);
    totals->parallel += raw_size[0] >= NWN2_PARALLEL_DEFLATE_MIN;
    totals->bytes_one += out[0].size;
    totals->bytes_two += out[1].size;
    for (int t = 0; t < 2; t++) {
        free(raw[t]);
        nwn2_container_free(ctx, &c[t]);
        wm_buffer_free(&out[t]);
    }
}

static void test_corpus_rebakes_on_two_threads(void **state)
{
    (void)state;
    two_thread_totals totals = {0};
    const size_t files = nwn2t_each_corpus_trx(rebake_on_two_threads, &totals);
    if (files == 0)
        skip();
    print_message("%zu re-baked TRX: %zu walkmeshes of 1 MiB or more (those with 1 MiB or more to deflate go in pieces); "
                  "%zu bytes in all on two threads, %zu on one\n",
                  files, totals.parallel, totals.bytes_two, totals.bytes_one);
    if (nwn2_deflate_is_libdeflate())
        assert_true(totals.parallel > 0);
}

/* A walkmesh of exactly NWN2_PARALLEL_DEFLATE_MIN bytes is deflated in
 * pieces (its stream has a join), one byte fewer whole; either way the same
 * bytes on one thread as on two. */
static void test_threshold(void **state)
{
    (void)state;
    const size_t size = NWN2_PARALLEL_DEFLATE_MIN;
    uint8_t *data = text_like(size, 7);
    uint8_t *back = malloc(size);
    for (size_t n = size - 1; n <= size; n++) {
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        wm_buffer one, two;
        wm_buffer_init(&one, &ctx);
        wm_buffer_init(&two, &ctx);
        assert_int_equal(nwn2_aswm_encode_packet(&ctx, data, n, 1, NWN2_DEFLATE_DEFAULT, 1, 0, &one), WM_OK);
        assert_int_equal(nwn2_aswm_encode_packet(&ctx, data, n, 1, NWN2_DEFLATE_DEFAULT, 2, 0, &two), WM_OK);
        uint32_t raw_size;
        uint8_t *raw = zlib_inflate_payload(two.data, (uint32_t)two.size, &raw_size);
        assert_int_equal(raw_size, n);
        assert_memory_equal(raw, data, n);
        free(raw);
        int seen[8] = {0};
        /* the raw deflate after the zlib header, before the Adler-32 */
        const size_t joins = inflate_counting_joins(two.data + 14, two.size - 18, back, n, seen);
        assert_int_equal(one.size, two.size);
        assert_memory_equal(one.data, two.data, one.size);
        assert_int_equal(joins, n < size || !nwn2_deflate_is_libdeflate() ? 0 : 1);
        wm_buffer_free(&one);
        wm_buffer_free(&two);
    }
    free(back);
    free(data);
}

/* Chunks whose deflate ends at each of the 8 bit positions of a byte are
 * joined right: inputs of various sizes on 2 to 4 threads until every
 * position was seen, each stream inflated by zlib to the input. */
static void test_joins_at_every_bit(void **state)
{
    (void)state;
    if (!nwn2_deflate_is_libdeflate())
        skip();
    int seen[8] = {0}, all = 0;
    size_t runs = 0, joins = 0;
    for (uint32_t seed = 0; seed < 200 && !all; seed++, runs++) {
        const size_t size = NWN2_PARALLEL_DEFLATE_MIN / 2 + seed * 4099u;
        uint8_t *data = text_like(size, seed);
        uint8_t *back = malloc(size);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        wm_buffer out;
        wm_buffer_init(&out, &ctx);
        assert_int_equal(nwn2_deflate_raw_parallel(&ctx, data, size, 6, 2 + seed % 3, 0, &out), WM_OK);
        joins += inflate_counting_joins(out.data, out.size, back, size, seen);
        assert_memory_equal(back, data, size);
        all = 1;
        for (int k = 0; k < 8; k++)
            all &= seen[k];
        wm_buffer_free(&out);
        free(back);
        free(data);
    }
    print_message("%zu inputs, %zu joins: every bit position seen %s\n", runs, joins, all ? "yes" : "no");
    assert_true(all);
}

/* Bytes that do not compress: libdeflate stores them (stored blocks, which
 * end on a byte); the pieces still join into one stream. */
static void test_stored_pieces(void **state)
{
    (void)state;
    if (!nwn2_deflate_is_libdeflate())
        skip();
    const size_t size = NWN2_PARALLEL_DEFLATE_MIN + 12345;
    uint8_t *data = malloc(size), *back = malloc(size);
    uint32_t x = 12345;
    for (size_t i = 0; i < size; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5; /* xorshift32 */
        data[i] = (uint8_t)(x >> 11);
    }
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_buffer out;
    wm_buffer_init(&out, &ctx);
    assert_int_equal(nwn2_deflate_raw_parallel(&ctx, data, size, 6, 3, 0, &out), WM_OK);
    int seen[8] = {0};
    assert_int_equal(inflate_counting_joins(out.data, out.size, back, size, seen), nwn2_deflate_chunk_count(size, 0) - 1);
    assert_true(seen[0]);
    assert_memory_equal(back, data, size);
    wm_buffer_free(&out);
    free(back);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threshold),
        cmocka_unit_test(test_joins_at_every_bit),
        cmocka_unit_test(test_stored_pieces),
        cmocka_unit_test(test_corpus_rebakes_on_two_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
