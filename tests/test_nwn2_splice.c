/* NWN2 writer: a walkmesh whose bytes changed only after their start keeps the
 * zlib stream read up to the change (nwn2_splice.c). Checked from outside:
 * zlib's own inflate gives back exactly the bytes serialised, the new stream
 * begins with the toolset's bytes, a change at the very start is encoded
 * whole, a re-bake is never larger than the toolset's file, and the old
 * stream is cut where zlib's Z_BLOCK inflate reports a block boundary. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "test_nwn2_corpus.h"
#include "nwn2/bake/bake.h"

/* condemned_caves.trx read into f; returns its ASWM packet as read. */
static const nwn2_packet *load_caves(wm_ctx *ctx, nwn2_file *f, char **path)
{
    *path = wmt_corpus_path_or_skip("nwn2/condemned_caves.trx");
    wmt_ctx_init(ctx);
    nwn2_file_init(f);
    if (nwn2_file_read(ctx, *path, f))
        fail_msg("%s: %s", *path, wm_ctx_message(ctx));
    return &f->container.packets[f->aswm_packet];
}

/* The ASWM packet's zlib stream of a serialised file (malloc'ed) and its claimed size. */
static uint8_t *aswm_stream(wm_ctx *ctx, const wm_buffer *file, size_t *stream_size, uint32_t *claimed)
{
    nwn2_container c;
    nwn2_container_init(&c);
    assert_int_equal(nwn2_container_parse(ctx, file->data, file->size, "written", &c), WM_OK);
    const int at = nwn2_container_find(&c, "ASWM", 0);
    assert_true(at >= 0);
    const nwn2_packet *p = &c.packets[at];
    assert_memory_equal(p->payload, "COMP", 4);
    memcpy(claimed, p->payload + 8, 4);
    *stream_size = p->size - 12;
    uint8_t *stream = malloc(*stream_size);
    memcpy(stream, p->payload + 12, *stream_size);
    nwn2_container_free(ctx, &c);
    return stream;
}

/* zlib (not the writer's libdeflate) inflates the written packet to exactly
 * the walkmesh's bytes; returns the length the new stream shares with old. */
static size_t check_written(wm_ctx *ctx, const nwn2_file *f, const wm_buffer *file, const uint8_t *old_stream,
                            size_t old_size)
{
    wm_buffer raw;
    wm_buffer_init(&raw, ctx);
    assert_int_equal(nwn2_aswm_serialize(ctx, &f->aswm, &raw), WM_OK);
    size_t size;
    uint32_t claimed;
    uint8_t *stream = aswm_stream(ctx, file, &size, &claimed);
    assert_int_equal(claimed, raw.size);
    uLongf got = claimed;
    uint8_t *inflated = malloc(claimed);
    assert_int_equal(uncompress(inflated, &got, stream, (uLong)size), Z_OK);
    assert_int_equal(got, raw.size);
    assert_memory_equal(inflated, raw.data, raw.size);
    free(inflated);
    size_t same = 0;
    while (same < size && same < old_size && stream[same] == old_stream[same])
        same++;
    free(stream);
    wm_buffer_free(&raw);
    return same;
}

static void test_change_at_the_end_keeps_the_start(void **state)
{
    (void)state;
    wm_ctx ctx;
    nwn2_file f;
    char *path;
    const nwn2_packet *old = load_caves(&ctx, &f, &path);
    /* the path tables of the last quarter of the tiles emptied: bytes that change near
     * the end and compress better, so the size ladder keeps the spliced stream */
    const uint32_t tiles = f.aswm.grid_width * f.aswm.grid_height;
    for (uint32_t t = tiles - tiles / 4; t < tiles; t++)
        memset(f.aswm.tiles[t].nodes, NWN2_PATH_NONE, (size_t)f.aswm.tiles[t].node_count * f.aswm.tiles[t].node_count);
    wm_buffer out;
    wm_buffer_init(&out, &ctx);
    assert_int_equal(nwn2_file_serialize(&ctx, &f, -1, &out), WM_OK);
    const size_t kept = check_written(&ctx, &f, &out, old->payload + 12, old->size - 12);
    /* the tables fill the second half of the bytes: most of the start is the toolset's stream */
    print_message("%zu of the toolset's %u stream bytes kept\n", kept, old->size - 12);
    assert_true(kept > (old->size - 12) / 4);
    wm_buffer_free(&out);
    nwn2_file_free(&ctx, &f);
    free(path);
}

static void test_change_at_the_start_is_encoded_whole(void **state)
{
    (void)state;
    wm_ctx ctx;
    nwn2_file f;
    char *path;
    const nwn2_packet *old = load_caves(&ctx, &f, &path);
    f.aswm.vertices[0] += 1.0f;
    wm_buffer out, raw, whole;
    wm_buffer_init(&out, &ctx);
    wm_buffer_init(&raw, &ctx);
    wm_buffer_init(&whole, &ctx);
    assert_int_equal(nwn2_file_serialize(&ctx, &f, -1, &out), WM_OK);
    check_written(&ctx, &f, &out, old->payload + 12, old->size - 12);
    /* the same stream as a whole encode of the bytes */
    assert_int_equal(nwn2_aswm_serialize(&ctx, &f.aswm, &raw), WM_OK);
    assert_int_equal(nwn2_aswm_encode_packet(&ctx, raw.data, raw.size, 1, NWN2_DEFLATE_DEFAULT, 1, 0, &whole), WM_OK);
    size_t size;
    uint32_t claimed;
    uint8_t *stream = aswm_stream(&ctx, &out, &size, &claimed);
    if (size <= old->size - 12) { /* not taken from the size ladder */
        assert_int_equal(size, whole.size - 12);
        assert_memory_equal(stream, whole.data + 12, size);
    }
    free(stream);
    wm_buffer_free(&out);
    wm_buffer_free(&raw);
    wm_buffer_free(&whole);
    nwn2_file_free(&ctx, &f);
    free(path);
}

/* Every corpus TRX re-baked: zlib inflates each written packet to its bytes,
 * and no file is larger than the toolset's. */
static void rebake_one(const char *path, wm_ctx *ctx, nwn2_file *f, void *user)
{
    size_t *kept = user;
    const nwn2_packet *old = &f->container.packets[f->aswm_packet];
    size_t file_size;
    free(wmt_read_file(path, &file_size));
    assert_int_equal(nwn2_bake(ctx, &f->aswm, NULL, NULL), WM_OK);
    wm_buffer out;
    wm_buffer_init(&out, ctx);
    assert_int_equal(nwn2_file_serialize(ctx, f, -1, &out), WM_OK);
    *kept += check_written(ctx, f, &out, old->payload + 12, old->size - 12) > 65536;
    if (out.size > file_size)
        fail_msg("%s: re-baked %zu bytes, the toolset's file %zu", path, out.size, file_size);
    wm_buffer_free(&out);
}

static void test_rebakes_inflate_and_stay_small(void **state)
{
    (void)state;
    size_t kept = 0;
    const size_t files = nwn2t_each_corpus_trx(rebake_one, &kept);
    print_message("%zu re-baked TRX: zlib inflates every one; %zu keep more than 64 KiB of the toolset's stream\n",
                  files, kept);
    assert_true(kept > 0);
}

/* Every block boundary of a zlib stream as zlib's Z_BLOCK inflate reports
 * them (the end of each block but the final one): bits[i] from the stream's
 * start, outs[i] uncompressed. Returns the count. */
static size_t zlib_boundaries(const uint8_t *stream, size_t size, uint64_t *bits, size_t *outs, size_t max)
{
    static uint8_t scratch[1 << 16];
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(inflateInit2(&zs, -15), Z_OK);
    zs.next_in = (Bytef *)(uintptr_t)(stream + 2);
    zs.avail_in = (uInt)(size - 2);
    size_t n = 0;
    for (int zr = Z_OK; zr == Z_OK && n < max;) {
        zs.next_out = scratch;
        zs.avail_out = sizeof scratch;
        zr = inflate(&zs, Z_BLOCK);
        if ((zs.data_type & 128) && !(zs.data_type & 64)) {
            n -= n > 0 && outs[n - 1] == zs.total_out; /* after an empty block: the later boundary */
            bits[n] = (uint64_t)(zs.total_in + 2) * 8 - (uint64_t)(zs.data_type & 7);
            outs[n++] = zs.total_out;
        }
    }
    inflateEnd(&zs);
    return n;
}

/* The cut of the old stream (nwn2_deflate_last_boundary, its own decoder of
 * deflate blocks) against zlib's block boundaries in every corpus TRX's
 * stream: at each of the first 12 boundaries, one byte before it, and past
 * the stream's end, it names the last boundary zlib reports at or before
 * the limit. */
static void check_cuts(const char *path, wm_ctx *ctx, nwn2_file *f, void *user)
{
    (void)ctx;
    size_t *checked = user;
    const nwn2_packet *p = &f->container.packets[f->aswm_packet];
    const uint8_t *stream = p->payload + 12;
    const size_t size = p->size - 12;
    uint64_t bits[13], bit;
    size_t outs[13], at;
    const size_t count = zlib_boundaries(stream, size, bits, outs, 13);
    for (size_t b = 0; b + 1 < count; b++)
        for (size_t before = 0; before < 2; before++) {
            const size_t limit = outs[b + 1] - before;
            const size_t want = before ? b : b + 1; /* the boundary zlib reports at or before limit */
            assert_int_equal(nwn2_deflate_last_boundary(stream, size, limit, &bit, &at), 1);
            if (bit != bits[want] || at != outs[want])
                fail_msg("%s, limit %zu: bit %llu at %zu, zlib's %llu at %zu", path, limit, (unsigned long long)bit,
                         at, (unsigned long long)bits[want], outs[want]);
            ++*checked;
        }
    if (count < 13 && nwn2_deflate_last_boundary(stream, size, SIZE_MAX, &bit, &at))
        assert_true(count > 0 && bit == bits[count - 1] && at == outs[count - 1]);
}

static void test_cut_is_zlibs_last_block_boundary(void **state)
{
    (void)state;
    size_t checked = 0;
    const size_t files = nwn2t_each_corpus_trx(check_cuts, &checked);
    print_message("%zu TRX: %zu cuts equal to zlib's block boundaries\n", files, checked);
    assert_true(checked > 0);
}

/* Damaged streams (bytes changed, the stream cut short): the cut, when one
 * is found, lies inside the bytes given, and nothing outside them is read
 * (the sanitiser build checks that on the copies, each in its own block). */
static void test_cut_of_damaged_streams_stays_inside(void **state)
{
    (void)state;
    wm_ctx ctx;
    nwn2_file f;
    char *path;
    const nwn2_packet *p = load_caves(&ctx, &f, &path);
    const size_t size = p->size - 12, head = size < 65536 ? size : 65536;
    uint32_t x = 12345;
    size_t found = 0;
    for (int round = 0; round < 300; round++) {
        x = x * 1664525u + 1013904223u;
        const size_t keep = round % 3 == 0 ? 2 + (x >> 8) % (head - 2) : head; /* cut short, or whole */
        uint8_t *copy = malloc(keep);
        memcpy(copy, p->payload + 12, keep);
        for (int k = 0; k < 1 + round % 4; k++) { /* a few bytes changed after the zlib header */
            x = x * 1664525u + 1013904223u;
            copy[2 + (x >> 8) % (keep - 2)] ^= (uint8_t)(1u + (x >> 24) % 255u);
        }
        uint64_t bit;
        size_t at;
        if (nwn2_deflate_last_boundary(copy, keep, SIZE_MAX, &bit, &at)) {
            assert_true(bit > 16 && bit <= 8 * (uint64_t)keep);
            assert_true(at > 0);
            found++;
        }
        free(copy);
    }
    print_message("300 damaged copies of the first %zu bytes: %zu with a cut, all inside\n", head, found);
    nwn2_file_free(&ctx, &f);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_change_at_the_end_keeps_the_start),
        cmocka_unit_test(test_change_at_the_start_is_encoded_whole),
        cmocka_unit_test(test_rebakes_inflate_and_stay_small),
        cmocka_unit_test(test_cut_is_zlibs_last_block_boundary),
        cmocka_unit_test(test_cut_of_damaged_streams_stays_inside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
