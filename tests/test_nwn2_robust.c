/* NWN2 hostile input: truncation sweeps over the container and the ASWM,
 * huge counts, the 4 GB decompression claim, corrupt zlib streams. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "test_support.h"
#include "test_nwn2_corpus.h"
#include "nwn2/nwn2.h"

/* An allocator that records the largest single request. */
static size_t largest_request;
static void *tracking_realloc(void *user, void *ptr, size_t size)
{
    (void)user;
    if (size > largest_request)
        largest_request = size;
    return realloc(ptr, size);
}
static void tracking_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

static void tracking_ctx(wm_ctx *ctx)
{
    wmt_ctx_init(ctx);
    ctx->alloc.realloc_fn = tracking_realloc;
    ctx->alloc.free_fn = tracking_free;
    largest_request = 0;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

/* A container holding one ASWM packet with the given payload. */
static uint8_t *make_container(const uint8_t *payload, size_t size, size_t *out_size)
{
    size_t total = 12 + 8 + 8 + size;
    uint8_t *d = calloc(1, total);
    memcpy(d, "NWN2", 4);
    d[4] = 2;
    d[6] = 3;
    put32(d + 8, 1);
    memcpy(d + 12, "ASWM", 4);
    put32(d + 16, 20);
    memcpy(d + 20, "ASWM", 4);
    put32(d + 24, (uint32_t)size);
    memcpy(d + 28, payload, size);
    *out_size = total;
    return d;
}

/* A container whose ASWM packet is COMP + the stream, claiming `claim` bytes. */
static uint8_t *comp_container(const uint8_t *stream, size_t size, uint32_t claim, size_t *out_size)
{
    uint8_t *payload = malloc(12 + size);
    assert_non_null(payload);
    memcpy(payload, "COMP", 4);
    put32(payload + 4, (uint32_t)size);
    put32(payload + 8, claim);
    memcpy(payload + 12, stream, size);
    uint8_t *container = make_container(payload, 12 + size, out_size);
    free(payload);
    return container;
}

static int is_clean_failure(wm_result r, const wm_ctx *ctx)
{
    return r != WM_OK && r != WM_ERR_NOMEM && strlen(wm_ctx_message(ctx)) > 0;
}

/* Parses every prefix of the first 600 bytes, every prefix within 2 bytes
 * of a structure boundary (marks), every stride-th and the last 40: each
 * must fail cleanly. Returns how many prefixes were tried. */
typedef wm_result (*prefix_parser)(wm_ctx *ctx, const uint8_t *data, size_t size);

static unsigned sweep_prefixes(const uint8_t *data, size_t size, const size_t *marks, size_t nmarks, size_t stride,
                               prefix_parser parse)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    unsigned tried = 0;
    for (size_t len = 0; len < size; len++) {
        int take = len < 600 || len % stride == 0 || len + 40 > size;
        for (size_t m = 0; m < nmarks && !take; m++)
            take = len + 2 >= marks[m] && len <= marks[m] + 2;
        if (!take)
            continue;
        uint8_t *copy = malloc(len ? len : 1); /* exact size: ASan sees any over-read */
        memcpy(copy, data, len);
        wm_result r = parse(&ctx, copy, len);
        if (!is_clean_failure(r, &ctx))
            fail_msg("prefix of %zu bytes: result %d (%s)", len, r, wm_ctx_message(&ctx));
        free(copy);
        tried++;
    }
    return tried;
}

static wm_result parse_file_prefix(wm_ctx *ctx, const uint8_t *data, size_t size)
{
    nwn2_file f;
    wm_result r = nwn2_file_parse(ctx, data, size, "prefix", &f);
    if (r == WM_OK)
        nwn2_file_free(ctx, &f);
    return r;
}

static wm_result parse_aswm_prefix(wm_ctx *ctx, const uint8_t *data, size_t size)
{
    nwn2_aswm a;
    wm_result r = nwn2_aswm_parse(ctx, data, size, "ASWM prefix", &a);
    if (r == WM_OK)
        nwn2_aswm_free(ctx, &a);
    return r;
}

/* The container: every prefix near the start and at packet boundaries. */
static void test_truncated_container(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip("nwn2/abandoned_house.trx");
    size_t size;
    uint8_t *data = wmt_read_file(path, &size);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_container c;
    assert_int_equal(nwn2_container_parse(&ctx, data, size, path, &c), WM_OK);
    size_t marks[64], nmarks = 0;
    for (uint32_t i = 0; i < c.packet_count && nmarks + 2 < 64; i++) {
        marks[nmarks++] = c.packets[i].offset;
        marks[nmarks++] = c.packets[i].offset + 8 + c.packets[i].size;
    }
    nwn2_container_free(&ctx, &c);
    unsigned tried = sweep_prefixes(data, size, marks, nmarks, 97, parse_file_prefix);
    assert_true(tried > 600);
    free(data);
    free(path);
}

/* The same over the uncompressed walkmesh, with every section boundary. */
static void test_truncated_aswm(void **state)
{
    (void)state;
    size_t size;
    wm_ctx ctx;
    nwn2_file f;
    uint8_t *data = nwn2t_parse_corpus("nwn2/abandoned_house.trx", &ctx, &f, &size);
    size_t raw_size = f.aswm_raw_size;
    uint8_t *raw = malloc(raw_size);
    memcpy(raw, f.aswm_raw, raw_size);
    /* section boundaries computed from the layout in FORMAT-NOTES */
    const nwn2_aswm *a = &f.aswm;
    size_t marks[512], nmarks = 0, pos = 53;
    marks[nmarks++] = pos;
    pos += (size_t)a->vertex_count * 12;
    marks[nmarks++] = pos;
    pos += (size_t)a->edge_count * 16;
    marks[nmarks++] = pos;
    pos += (size_t)a->triangle_count * 64;
    marks[nmarks++] = pos;
    pos += 16;
    for (uint32_t i = 0; i < a->grid_width * a->grid_height && nmarks + 4 < 512; i++) {
        const nwn2_tile *t = &a->tiles[i];
        marks[nmarks++] = pos;
        pos += 57 + 13;
        marks[nmarks++] = pos;
        pos += t->local_count + (size_t)t->node_count * 4 + (size_t)t->node_count * t->node_count + 4;
    }
    marks[nmarks++] = pos; /* border size, island count */
    pos += 8;
    marks[nmarks++] = pos;
    nwn2_file_free(&ctx, &f);
    unsigned tried = sweep_prefixes(raw, raw_size, marks, nmarks, 61, parse_aswm_prefix);
    assert_true(tried > 1000);
    /* the whole walkmesh as a raw (uncompressed) packet also parses, and every
     * prefix of that container fails cleanly */
    size_t csize;
    uint8_t *container = make_container(raw, raw_size, &csize);
    assert_int_equal(nwn2_file_parse(&ctx, container, csize, "raw packet", &f), WM_OK);
    assert_int_equal(f.aswm_info.compressed, 0);
    assert_int_equal(f.aswm.triangle_count, 356);
    nwn2_file_free(&ctx, &f);
    for (size_t len = 0; len < csize; len += (len < 300 ? 1 : 211)) {
        wm_result r = nwn2_file_parse(&ctx, container, len, "raw prefix", &f);
        assert_true(is_clean_failure(r, &ctx));
    }
    free(container);
    free(raw);
    free(data);
}

/* COMP packet claiming 0xFFFFFFFF bytes: refused before any big allocation,
 * whatever the limit; a claim within the limit but beyond deflate's ratio too. */
static void test_size_bomb(void **state)
{
    (void)state;
    uint8_t tiny[16] = "ASWM walkmesh";
    uLongf zsize = 64;
    uint8_t stream[64];
    assert_int_equal(compress(stream, &zsize, tiny, sizeof tiny), Z_OK);
    size_t csize;
    uint8_t *container = comp_container(stream, zsize, 0xFFFFFFFFu, &csize);
    wm_ctx ctx;
    tracking_ctx(&ctx);
    ctx.limits.max_bytes = 8ull << 30; /* even with a generous 8 GiB limit */
    nwn2_file f;
    wm_result r = nwn2_file_parse(&ctx, container, csize, "bomb", &f);
    assert_int_not_equal(r, WM_OK);
    assert_true(largest_request < 4096);
    assert_non_null(strstr(wm_ctx_message(&ctx), "4294967295"));
    /* default limit (1 GiB): refused as over the limit */
    tracking_ctx(&ctx);
    r = nwn2_file_parse(&ctx, container, csize, "bomb", &f);
    assert_int_equal(r, WM_ERR_LIMIT);
    assert_true(largest_request < 4096);
    free(container);
}

/* Issue 19: a 2 MB file claiming 900 MB (under the 1 GiB limit, within deflate's
 * 1032:1) used to take 931 MB. Memory is bounded by the stream: a claim over
 * 32 times it plus 1 MiB is refused before anything of that size is allocated. */
static void test_claim_beyond_real_ratio(void **state)
{
    (void)state;
    const size_t size = 2u << 20;
    uint8_t *stream = malloc(size);
    assert_non_null(stream);
    for (size_t i = 0; i < size; i++)
        stream[i] = (uint8_t)(i * 2654435761u >> 13);
    size_t csize;
    uint8_t *container = comp_container(stream, size, 900000000u, &csize);
    wm_ctx ctx;
    tracking_ctx(&ctx);
    nwn2_file f;
    assert_int_equal(nwn2_file_parse(&ctx, container, csize, "bomb", &f), WM_ERR_LIMIT);
    assert_true(largest_request <= csize);
    assert_non_null(strstr(wm_ctx_message(&ctx), "refused before inflating"));
    free(container);
    free(stream);
}

static void test_corrupt_streams(void **state)
{
    (void)state;
    uint8_t raw[200];
    for (size_t i = 0; i < sizeof raw; i++)
        raw[i] = (uint8_t)(i * 7);
    uLongf zsize = 300;
    uint8_t payload[12 + 300];
    assert_int_equal(compress(payload + 12, &zsize, raw, sizeof raw), Z_OK);
    memcpy(payload, "COMP", 4);
    put32(payload + 4, (uint32_t)zsize);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    uint8_t *out;
    size_t out_size;
    nwn2_aswm_packet_info info;
    /* exact claim: inflates */
    put32(payload + 8, sizeof raw);
    assert_int_equal(nwn2_aswm_decode_packet(&ctx, payload, 12 + zsize, "ok", &out, &out_size, &info), WM_OK);
    assert_int_equal(out_size, sizeof raw);
    assert_memory_equal(out, raw, sizeof raw);
    wm_free(&ctx, out);
    /* claim too small / too large */
    put32(payload + 8, sizeof raw - 1);
    assert_int_equal(nwn2_aswm_decode_packet(&ctx, payload, 12 + zsize, "small", &out, &out_size, &info),
                     WM_ERR_CORRUPT);
    put32(payload + 8, sizeof raw + 1);
    assert_int_equal(nwn2_aswm_decode_packet(&ctx, payload, 12 + zsize, "large", &out, &out_size, &info),
                     WM_ERR_CORRUPT);
    put32(payload + 8, sizeof raw);
    /* stream cut short, flipped bytes, compressed size beyond the packet */
    assert_true(nwn2_aswm_decode_packet(&ctx, payload, 12 + zsize - 5, "cut", &out, &out_size, &info) != WM_OK);
    put32(payload + 4, (uint32_t)zsize + 10);
    assert_int_equal(nwn2_aswm_decode_packet(&ctx, payload, 12 + zsize, "size", &out, &out_size, &info),
                     WM_ERR_TRUNCATED);
    put32(payload + 4, (uint32_t)zsize);
    for (size_t i = 12; i < 12 + zsize; i++) {
        payload[i] ^= 0x5A;
        wm_result r = nwn2_aswm_decode_packet(&ctx, payload, 12 + zsize, "flip", &out, &out_size, &info);
        if (r == WM_OK)
            wm_free(&ctx, out); /* a flip inside stored data can still inflate */
        payload[i] ^= 0x5A;
    }
}

/* Huge counts in headers: refused before allocating, with the element named. */
static void test_huge_counts(void **state)
{
    (void)state;
    wm_ctx ctx;
    nwn2_container c;
    uint8_t head[12 + 8] = "NWN2";
    head[4] = 2;
    head[6] = 3;
    put32(head + 8, 0xFFFFFFFFu);
    tracking_ctx(&ctx);
    assert_int_not_equal(nwn2_container_parse(&ctx, head, sizeof head, "count", &c), WM_OK);
    assert_true(largest_request < 4096);

    /* ASWM header with each count huge in turn */
    uint8_t aswm[200];
    for (int which = 0; which < 3; which++) {
        memset(aswm, 0, sizeof aswm);
        put32(aswm, 0x6c);
        aswm[36] = 1;
        put32(aswm + 37 + 4 * which, 0xFFFFFFF0u);
        nwn2_aswm a;
        tracking_ctx(&ctx);
        wm_result r = nwn2_aswm_parse(&ctx, aswm, sizeof aswm, "huge", &a);
        assert_true(r == WM_ERR_TRUNCATED || r == WM_ERR_LIMIT);
        assert_true(largest_request < 4096);
    }
    /* empty mesh, then a grid of 65536 x 65536 tiles */
    memset(aswm, 0, sizeof aswm);
    put32(aswm, 0x6c);
    aswm[36] = 1;
    put32(aswm + 53, 31);
    put32(aswm + 57, 0x41100000u); /* 9.0f */
    put32(aswm + 61, 65536);
    put32(aswm + 65, 65536);
    nwn2_aswm a;
    tracking_ctx(&ctx);
    assert_int_not_equal(nwn2_aswm_parse(&ctx, aswm, sizeof aswm, "grid", &a), WM_OK);
    assert_true(largest_request < 4096);
    assert_non_null(strstr(wm_ctx_message(&ctx), "tile grid"));
    /* no tiles, then 0x10000 islands (their path table alone would be 32 GiB) */
    put32(aswm + 61, 0);
    put32(aswm + 65, 0);
    put32(aswm + 69, 0);
    put32(aswm + 73, 0x10000);
    tracking_ctx(&ctx);
    assert_int_not_equal(nwn2_aswm_parse(&ctx, aswm, sizeof aswm, "islands", &a), WM_OK);
    assert_true(largest_request < 4096);
    /* a version we do not read */
    put32(aswm, 0x6a);
    tracking_ctx(&ctx);
    assert_int_equal(nwn2_aswm_parse(&ctx, aswm, sizeof aswm, "version", &a), WM_ERR_UNSUPPORTED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncated_container),
        cmocka_unit_test(test_truncated_aswm),
        cmocka_unit_test(test_size_bomb),
        cmocka_unit_test(test_claim_beyond_real_ratio),
        cmocka_unit_test(test_corrupt_streams),
        cmocka_unit_test(test_huge_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
