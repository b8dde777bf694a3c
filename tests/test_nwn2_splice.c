/* NWN2 writer: a walkmesh whose bytes changed only after their start keeps the
 * zlib stream read up to the change (nwn2_splice.c). Checked from outside:
 * zlib's own inflate gives back exactly the bytes serialised, the new stream
 * begins with the toolset's bytes, a change at the very start is encoded
 * whole, and a re-bake is never larger than the toolset's file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "test_support.h"
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
static void test_rebakes_inflate_and_stay_small(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".trx", NULL};
    const char *folders[2] = {"nwn2", "nwn2-areas"};
    size_t files = 0, kept = 0;
    for (int k = 0; k < 2; k++) {
        char **list;
        size_t n = wmt_corpus_list(folders[k], suffixes, &list);
        for (size_t i = 0; i < n; i++) {
            wm_ctx ctx;
            nwn2_file f;
            wmt_ctx_init(&ctx);
            nwn2_file_init(&f);
            if (nwn2_file_read(&ctx, list[i], &f))
                fail_msg("%s: %s", list[i], wm_ctx_message(&ctx));
            const nwn2_packet *old = &f.container.packets[f.aswm_packet];
            size_t file_size;
            free(wmt_read_file(list[i], &file_size));
            assert_int_equal(nwn2_bake(&ctx, &f.aswm, NULL, NULL), WM_OK);
            wm_buffer out;
            wm_buffer_init(&out, &ctx);
            assert_int_equal(nwn2_file_serialize(&ctx, &f, -1, &out), WM_OK);
            kept += check_written(&ctx, &f, &out, old->payload + 12, old->size - 12) > 65536;
            if (out.size > file_size)
                fail_msg("%s: re-baked %zu bytes, the toolset's file %zu", list[i], out.size, file_size);
            files++;
            wm_buffer_free(&out);
            nwn2_file_free(&ctx, &f);
        }
        wmt_free_list(list, n);
    }
    print_message("%zu re-baked TRX: zlib inflates every one; %zu keep more than 64 KiB of the toolset's stream\n",
                  files, kept);
    assert_true(kept > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_change_at_the_end_keeps_the_start),
        cmocka_unit_test(test_change_at_the_start_is_encoded_whole),
        cmocka_unit_test(test_rebakes_inflate_and_stay_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
