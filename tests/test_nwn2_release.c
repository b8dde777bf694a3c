/* NWN2 writing that gives the walkmesh back as it lays it out
 * (nwn2_file_serialize_releasing, what the TRX writer uses to bound its
 * memory). Checked from outside: an unchanged corpus file, parsed copying or
 * shared, is written as the writer that keeps the model writes it, with the
 * file's own ASWM packet where its walkmesh round-trips exactly; a changed walkmesh
 * (a vertex moved, so the packet is deflated anew, on two threads) comes
 * out as the same bytes as the writer that keeps the model, and its packet
 * inflates to the walkmesh bytes laid out before. ASan: nothing shared is
 * given back or freed, nothing leaks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "nwn2/nwn2.h"

static const char *const NWN2_SUFFIXES[] = {".trx", ".trn", NULL};

/* Parsed copying (shared = 0) or shared, written with the releasing writer:
 * the keeping writer's bytes, the model's arrays gone, the packet inflating
 * to the walkmesh laid out before; and, when those are the bytes inflated
 * from the file (an exact round trip), the file's own packet. */
static void check_unchanged(wm_ctx *ctx, const uint8_t *data, size_t size, const char *path, int shared)
{
    nwn2_file f;
    wm_result r = shared ? nwn2_file_parse_shared(ctx, data, size, path, &f) : nwn2_file_parse(ctx, data, size, path, &f);
    if (r != WM_OK)
        fail_msg("%s: %s", path, wm_ctx_message(ctx));
    wm_buffer out, kept, raw;
    wm_buffer_init(&out, ctx);
    wm_buffer_init(&kept, ctx);
    wm_buffer_init(&raw, ctx);
    assert_int_equal(nwn2_aswm_serialize(ctx, &f.aswm, &raw), WM_OK);
    assert_int_equal(nwn2_file_serialize(ctx, &f, -1, &kept), WM_OK);
    assert_int_equal(nwn2_file_serialize_releasing(ctx, &f, -1, &out), WM_OK);
    assert_int_equal(out.size, kept.size);
    assert_memory_equal(out.data, kept.data, out.size);
    assert_null(f.aswm.triangles);
    assert_null(f.aswm.vertices);
    nwn2_file back;
    assert_int_equal(nwn2_file_parse(ctx, out.data, out.size, "<out>", &back), WM_OK);
    assert_int_equal(back.aswm_raw_size, raw.size);
    assert_memory_equal(back.aswm_raw, raw.data, raw.size);
    if (f.aswm_raw && f.aswm_raw_size == raw.size && memcmp(f.aswm_raw, raw.data, raw.size) == 0) {
        const nwn2_packet *read = &f.container.packets[f.aswm_packet]; /* the file's bytes */
        assert_int_equal(back.container.packets[back.aswm_packet].size, read->size);
        assert_memory_equal(back.container.packets[back.aswm_packet].payload, read->payload, read->size);
    }
    nwn2_file_free(ctx, &back);
    wm_buffer_free(&out);
    wm_buffer_free(&kept);
    wm_buffer_free(&raw);
    nwn2_file_free(ctx, &f);
}

/* One vertex moved: both writers give the same bytes, whose walkmesh is the one laid out. */
static void check_changed(wm_ctx *ctx, const uint8_t *data, size_t size, const char *path)
{
    nwn2_file kept, released;
    assert_int_equal(nwn2_file_parse(ctx, data, size, path, &kept), WM_OK);
    assert_int_equal(nwn2_file_parse(ctx, data, size, path, &released), WM_OK);
    if (kept.aswm.vertex_count == 0) {
        nwn2_file_free(ctx, &kept);
        nwn2_file_free(ctx, &released);
        return;
    }
    kept.aswm.vertices[0] += 0.25f;
    released.aswm.vertices[0] += 0.25f;
    kept.deflate_threads = released.deflate_threads = 2;
    wm_buffer raw, a, b;
    wm_buffer_init(&raw, ctx);
    wm_buffer_init(&a, ctx);
    wm_buffer_init(&b, ctx);
    assert_int_equal(nwn2_aswm_serialize(ctx, &kept.aswm, &raw), WM_OK);
    assert_int_equal(nwn2_file_serialize(ctx, &kept, -1, &a), WM_OK);
    assert_int_equal(nwn2_file_serialize_releasing(ctx, &released, -1, &b), WM_OK);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.data, b.data, a.size);
    nwn2_file back;
    assert_int_equal(nwn2_file_parse(ctx, b.data, b.size, "<out>", &back), WM_OK);
    assert_int_equal(back.aswm_raw_size, raw.size);
    assert_memory_equal(back.aswm_raw, raw.data, raw.size);
    nwn2_file_free(ctx, &back);
    wm_buffer_free(&raw);
    wm_buffer_free(&a);
    wm_buffer_free(&b);
    nwn2_file_free(ctx, &kept);
    nwn2_file_free(ctx, &released);
}

static void check_folder(const char *folder, int changed)
{
    char **files;
    size_t n = wmt_corpus_list(folder, NWN2_SUFFIXES, &files);
    for (size_t i = 0; i < n; i++) {
        size_t size;
        uint8_t *data = wmt_read_file(files[i], &size);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        if (changed) {
            check_changed(&ctx, data, size, files[i]);
        } else {
            check_unchanged(&ctx, data, size, files[i], 0);
            check_unchanged(&ctx, data, size, files[i], 1);
        }
        free(data);
    }
    assert_true(n >= 10);
    wmt_free_list(files, n);
}

static void test_unchanged_file_written_back(void **state)
{
    (void)state;
    char *probe = wmt_corpus_path_or_skip("nwn2/condemned_caves.trx");
    free(probe);
    check_folder("nwn2", 0);
}

static void test_changed_walkmesh_same_bytes(void **state)
{
    (void)state;
    char *probe = wmt_corpus_path_or_skip("nwn2/condemned_caves.trx");
    free(probe);
    check_folder("nwn2", 1);
    char *areas = wmt_corpus_path("nwn2-areas/README.md"); /* the larger area files, when there */
    if (areas)
        check_folder("nwn2-areas", 1);
    free(areas);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unchanged_file_written_back),
        cmocka_unit_test(test_changed_walkmesh_same_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
