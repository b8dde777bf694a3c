/* Bounded cursor, writer and atomic file output. */
#include "test_support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cursor_reads_little_endian(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    /* 0x04030201, then -2 as i16, then 1.5f (0x3FC00000) */
    const uint8_t data[] = {1, 2, 3, 4, 0xFE, 0xFF, 0x00, 0x00, 0xC0, 0x3F};
    wm_cursor cur;
    wm_cursor_init(&cur, &ctx, data, sizeof data, "le.bin");
    uint32_t u;
    int16_t s;
    float f;
    assert_int_equal(wm_read_u32(&cur, &u, "word"), WM_OK);
    assert_int_equal(u, 0x04030201u);
    assert_int_equal(wm_read_i16(&cur, &s, "short"), WM_OK);
    assert_int_equal(s, -2);
    assert_int_equal(wm_read_f32(&cur, &f, "float"), WM_OK);
    assert_true(f == 1.5f);
    assert_int_equal(wm_cursor_remaining(&cur), 0);
}

static void cursor_refuses_reads_past_the_end(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    const uint8_t data[6] = {0};
    wm_cursor cur;
    wm_cursor_init(&cur, &ctx, data, sizeof data, "short.bin");
    uint32_t u;
    assert_int_equal(wm_read_u32(&cur, &u, "vertex count"), WM_OK);
    assert_int_equal(wm_read_u32(&cur, &u, "face count"), WM_ERR_TRUNCATED);
    assert_string_equal(ctx.message,
                        "short.bin: offset 0x4: file ends while reading face count (4 bytes needed, 2 left)");
    assert_int_equal(cur.pos, 4);
    assert_int_equal(wm_cursor_seek(&cur, 7, "faces"), WM_ERR_TRUNCATED);
    assert_int_equal(wm_cursor_seek(&cur, 6, "end"), WM_OK);
}

static void array_counts_are_checked_before_allocation(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    uint8_t data[64] = {0};
    wm_cursor cur;
    wm_cursor_init(&cur, &ctx, data, sizeof data, "count.bin");
    assert_int_equal(wm_cursor_check_array(&cur, 5, 12, 0, "vertex"), WM_OK);
    assert_int_equal(wm_cursor_check_array(&cur, 6, 12, 0, "vertex"), WM_ERR_TRUNCATED);
    assert_non_null(strstr(ctx.message, "vertex count 6 needs 72 bytes but only 64 are left"));
    /* A count that would overflow 64-bit size arithmetic. */
    assert_int_equal(wm_cursor_check_array(&cur, UINT64_MAX / 2, 12, UINT64_MAX, "face"), WM_ERR_TRUNCATED);
    ctx.limits.max_triangles = 3;
    assert_int_equal(wm_cursor_check_array(&cur, 4, 1, 0, "face"), WM_ERR_LIMIT);
    assert_non_null(strstr(ctx.message, "over the limit of 3"));
}

static void buffer_writes_little_endian(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_buffer buf;
    wm_buffer_init(&buf, &ctx);
    wm_put_u32(&buf, 0x11223344);
    wm_put_i16(&buf, -1);
    wm_put_f32(&buf, -2.0f);
    wm_put_text(&buf, "%s=%d", "n", 42);
    wm_patch_u32(&buf, 0, 7);
    for (int i = 0; i < 3000; i++) /* crosses the initial capacity */
        wm_put_u8(&buf, (uint8_t)i);
    assert_int_equal(buf.status, WM_OK);
    const uint8_t expected[] = {7, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0xC0, 'n', '=', '4', '2'};
    assert_memory_equal(buf.data, expected, sizeof expected);
    assert_int_equal(buf.size, sizeof expected + 3000);
    assert_int_equal(buf.data[sizeof expected + 2999], (uint8_t)2999);
    wm_buffer_free(&buf);
}

/* Entries of dir whose names do not start with '.' and end with suffix. */
static int count_ending(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    size_t k = strlen(suffix);
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.' && strlen(e->d_name) >= k && strcmp(e->d_name + strlen(e->d_name) - k, suffix) == 0;
    closedir(d);
    return n;
}

static int count_entries(const char *dir)
{
    return count_ending(dir, "");
}

static void atomic_write_never_leaves_partial_files(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    char *dir = wmt_make_temp_dir();
    char *path = wmt_join(dir, "out.bin");
    assert_int_equal(wm_file_write_atomic(&ctx, path, "first", 5, 0), WM_OK);
    assert_int_equal(wm_file_write_atomic(&ctx, path, "second", 6, 0), WM_ERR_EXISTS);
    assert_non_null(strstr(ctx.message, "--force"));
    size_t size;
    uint8_t *data = wmt_read_file(path, &size);
    assert_int_equal(size, 5);
    free(data);
    assert_int_equal(wm_file_write_atomic(&ctx, path, "second", 6, 1), WM_OK);
    data = wmt_read_file(path, &size);
    assert_int_equal(size, 6);
    free(data);
    assert_int_equal(count_entries(dir), 1); /* no temporary file left */
    char *missing = wmt_join(dir, "no/such/folder/out.bin");
    assert_int_equal(wm_file_write_atomic(&ctx, missing, "x", 1, 0), WM_ERR_IO);
    assert_non_null(strstr(ctx.message, missing));
    uint8_t *read_back;
    assert_int_equal(wm_file_read(&ctx, missing, &read_back, &size), WM_ERR_IO);
    ctx.limits.max_bytes = 3;
    assert_int_equal(wm_file_read(&ctx, path, &read_back, &size), WM_ERR_LIMIT);
    wmt_remove_tree(dir);
    free(missing);
    free(path);
    free(dir);
}

/* Writes "piece 0 piece 1 ..." in `pieces` calls, then fails when asked to. */
typedef struct piecewise {
    int pieces;
    int fail;
} piecewise;

static wm_result write_pieces(wm_ctx *ctx, const char *path, int overwrite, const piecewise *p)
{
    wm_sink *sink = NULL;
    wm_result r = wm_sink_open(ctx, path, overwrite, &sink);
    for (int i = 0; !r && i < p->pieces; i++) {
        char text[16];
        int n = snprintf(text, sizeof text, "piece %d ", i);
        r = wm_sink_write(sink, NULL, text, (size_t)n);
    }
    if (!r && p->fail) r = wm_error(ctx, WM_ERR_LIMIT, "given up");
    if (!r) r = wm_sink_commit(sink);
    wm_sink_close(sink);
    return r;
}

static void streamed_write_is_atomic_too(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    char *dir = wmt_make_temp_dir();
    char *path = wmt_join(dir, "out.bin");
    piecewise ok = {3, 0}, failing = {5, 1};
    assert_int_equal(write_pieces(&ctx, path, 0, &ok), WM_OK);
    size_t size;
    uint8_t *data = wmt_read_file(path, &size);
    const char expected[] = "piece 0 piece 1 piece 2 ";
    assert_int_equal(size, strlen(expected));
    assert_memory_equal(data, expected, size);
    free(data);
    /* a producer that fails after writing part of the file: the old file stays, no temporary is left */
    assert_int_equal(write_pieces(&ctx, path, 1, &failing), WM_ERR_LIMIT);
    assert_string_equal(ctx.message, "given up");
    data = wmt_read_file(path, &size);
    assert_int_equal(size, strlen(expected));
    assert_memory_equal(data, expected, size);
    free(data);
    assert_int_equal(count_entries(dir), 1);
    assert_int_equal(write_pieces(&ctx, path, 0, &ok), WM_ERR_EXISTS);
    wmt_remove_tree(dir);
    free(path);
    free(dir);
}

/* Output temporaries take 4 KiB-aligned blocks around the file cache (O_DIRECT where
 * the file system allows it) and everything else through it: a file written as aligned
 * blocks, then a tail of odd length, then another aligned block (now at an odd place in
 * the file) reads back as the bytes given, in that order. */
static void aligned_blocks_read_back_whole(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    char *dir = wmt_make_temp_dir();
    char *path = wmt_join(dir, "out.bin");
    const size_t block = (size_t)256 << 10, tail = 1000, total = 4 * block + tail;
    uint8_t *data = aligned_alloc(4096, 5 * block), *expected = malloc(total);
    assert_non_null(data);
    assert_non_null(expected);
    for (size_t i = 0; i < 5 * block; i++)
        data[i] = (uint8_t)(i * 2654435761u >> 13);
    wm_sink *sink = NULL;
    assert_int_equal(wm_sink_open(&ctx, path, 0, &sink), WM_OK);
    const size_t starts[5] = {0, block, 2 * block, 3 * block, 4 * block}, sizes[5] = {block, block, block, tail, block};
    size_t at = 0;
    for (int i = 0; i < 5; i++) {
        assert_int_equal(wm_sink_write(sink, NULL, data + starts[i], sizes[i]), WM_OK);
        memcpy(expected + at, data + starts[i], sizes[i]);
        at += sizes[i];
    }
    assert_int_equal(wm_sink_commit(sink), WM_OK);
    wm_sink_close(sink);
    size_t size;
    uint8_t *back = wmt_read_file(path, &size);
    assert_int_equal(size, total);
    assert_memory_equal(back, expected, total);
    free(back);
    free(expected);
    free(data);
    wmt_remove_tree(dir);
    free(path);
    free(dir);
}

/* Large blocks take the allocator's huge-page path: contents must survive
 * growing, growing again and shrinking back below the threshold. */
static void large_blocks_keep_their_contents(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    size_t n = (9u << 20) / sizeof(uint32_t);
    uint32_t *a = wm_alloc_array(&ctx, n, sizeof *a);
    assert_non_null(a);
    assert_int_equal(a[n - 1], 0); /* zero-filled */
    for (size_t i = 0; i < n; i++)
        a[i] = (uint32_t)(i * 2654435761u);
    a = wm_realloc_array(&ctx, a, 2 * n, sizeof *a);
    assert_non_null(a);
    for (size_t i = 0; i < n; i += 4099)
        assert_int_equal(a[i], (uint32_t)(i * 2654435761u));
    a[2 * n - 1] = 7;
    a = wm_realloc_array(&ctx, a, 1000, sizeof *a);
    assert_non_null(a);
    for (size_t i = 0; i < 1000; i++)
        assert_int_equal(a[i], (uint32_t)(i * 2654435761u));
    wm_free(&ctx, a);
}

/* A large file is mapped rather than read; its bytes are the file's, and stay
 * so after the reader lets pages go (they come back from the file). A small
 * one is read into memory as before. */
static void large_inputs_read_the_same_after_release(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    char *dir = wmt_make_temp_dir(), *path = wmt_join(dir, "big.obj");
    size_t size = (17u << 20) + 123;
    uint8_t *bytes = malloc(size);
    assert_non_null(bytes);
    for (size_t i = 0; i < size; i++)
        bytes[i] = (uint8_t)('a' + (i * 7 + i / 4096) % 26);
    wmt_write_file(path, bytes, size);
    wm_input in;
    assert_int_equal(wm_input_load(&ctx, path, &in), WM_OK);
    assert_int_equal(in.size, size);
#ifndef _WIN32
    assert_int_equal(in.mapped, size); /* Windows reads it */
#endif
    assert_memory_equal(in.data, bytes, size);
    wm_input_release(&in, size / 2);
    assert_memory_equal(in.data, bytes, size); /* read again: from the file */
    wm_input_release(&in, size + 99);
    assert_memory_equal(in.data, bytes, size);
    wm_input_drop_bytes(&ctx, &in);
    assert_null(in.data);
    wm_input_free(&ctx, &in);
    wmt_write_file(path, bytes, 1000);
    assert_int_equal(wm_input_load(&ctx, path, &in), WM_OK);
    assert_int_equal(in.mapped, 0);
    assert_memory_equal(in.data, bytes, 1000);
    wm_input_release(&in, 500); /* ignored */
    assert_memory_equal(in.data, bytes, 1000);
    wm_input_free(&ctx, &in);
    free(bytes);
    wmt_remove_tree(dir);
    free(path);
    free(dir);
}

/* A folder sink (a split area's rooms): 2,000 files, more than a process may usually hold open,
 * none in place before the commit and all after; a second name that is the first without case,
 * a name that leaves the folder, or a file that exists without overwrite: refused, and closing
 * the sink leaves the folder as it was. */
static void folder_sink_places_all_or_none(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    char *dir = wmt_make_temp_dir(), name[32];
    wm_sink *sink;
    assert_int_equal(wm_sink_open_folder(&ctx, dir, 0, &sink), WM_OK);
    for (int i = 0; i < 2000; i++) {
        snprintf(name, sizeof name, "f%04d.bin", i);
        assert_int_equal(wm_sink_write_file(sink, name, name, strlen(name)), WM_OK);
    }
    assert_int_equal(count_ending(dir, ".bin"), 0);
    assert_int_equal(wm_sink_commit(sink), WM_OK);
    wm_sink_close(sink);
    assert_int_equal(count_ending(dir, ".bin"), 2000);
    char *last = wmt_join(dir, "f1999.bin");
    size_t size;
    uint8_t *bytes = wmt_read_file(last, &size);
    assert_true(size == 9 && memcmp(bytes, "f1999.bin", 9) == 0);
    free(bytes), free(last);
    char *kept = wmt_join(dir, "b.txt");
    wmt_write_file(kept, "old", 3);
    static const char *const second[][2] = {{"a.txt", "A.TXT"}, {"a.txt", "../a.txt"}, {"a.txt", "b.txt"}};
    static const wm_result why[] = {WM_ERR_EXISTS, WM_ERR_CORRUPT, WM_ERR_EXISTS};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(wm_sink_open_folder(&ctx, dir, 0, &sink), WM_OK);
        assert_int_equal(wm_sink_write_file(sink, second[k][0], "new", 3), WM_OK);
        assert_int_equal(wm_sink_write_file(sink, second[k][1], "new", 3), why[k]);
        assert_int_equal(wm_sink_commit(sink), why[k]);
        wm_sink_close(sink);
        assert_int_equal(count_entries(dir), 2000 + 1); /* the files and b.txt: no temporary left */
    }
    bytes = wmt_read_file(kept, &size);
    assert_true(size == 3 && memcmp(bytes, "old", 3) == 0);
    free(bytes), free(kept);
    wmt_remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cursor_reads_little_endian),
        cmocka_unit_test(cursor_refuses_reads_past_the_end),
        cmocka_unit_test(array_counts_are_checked_before_allocation),
        cmocka_unit_test(buffer_writes_little_endian),
        cmocka_unit_test(atomic_write_never_leaves_partial_files),
        cmocka_unit_test(streamed_write_is_atomic_too),
        cmocka_unit_test(aligned_blocks_read_back_whole),
        cmocka_unit_test(large_blocks_keep_their_contents),
        cmocka_unit_test(large_inputs_read_the_same_after_release),
        cmocka_unit_test(folder_sink_places_all_or_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
