/* A TRX written from a large mesh without its walkmesh in memory (issue 20:
 * laid out and deflated piece by piece into the sink, its sizes written back at
 * the end; nwn2_aswm_stream.c). Checked from outside that writer: the file
 * parses (every packet's own size header against the table's offsets, the
 * COMP sizes against the zlib stream, which inflates to exactly the size it
 * claims); its walkmesh bytes and every other packet are those of the writer
 * that holds the whole model (--zlib-level 6 takes that path), also with
 * packets after the walkmesh (whose offsets are written back); and an output
 * that fails mid-write (the file size limit) leaves neither the target nor a
 * temporary, and an older target untouched. Needs condemned_caves.trx as --base. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_support.h"
#include "nwn2/nwn2.h"

/* 2 x 430^2 = 369,800 triangles: about 36 MB of records, above the 32 MiB
 * from which the writer streams (nwn2_compact.h). */
#define GRID 430

static void make_grid(wm_ctx *ctx, wm_mesh *mesh)
{
    wm_mesh_init(mesh);
    assert_int_equal(wm_mesh_reserve(ctx, mesh, (GRID + 1) * (GRID + 1), 2 * GRID * GRID), WM_OK);
    for (uint32_t y = 0; y <= GRID; y++)
        for (uint32_t x = 0; x <= GRID; x++) /* inside condemned_caves' 24 x 9 m grid, a little relief */
            assert_int_equal(wm_mesh_add_vertex(ctx, mesh, 0.5f * x, 0.5f * y, 0.01f * (float)((x * 7 + y * 3) % 5), NULL),
                             WM_OK);
    for (uint32_t y = 0; y < GRID; y++)
        for (uint32_t x = 0; x < GRID; x++) {
            uint32_t a = y * (GRID + 1) + x, b = a + 1, c = a + GRID + 1, d = c + 1;
            assert_int_equal(wm_mesh_add_triangle(ctx, mesh, a, b, d, WM_SURF_STONE, 1), WM_OK);
            assert_int_equal(wm_mesh_add_triangle(ctx, mesh, a, d, c, WM_SURF_STONE, 1), WM_OK);
        }
}

static wm_result write_trx(wm_ctx *ctx, const wm_mesh *mesh, const char *base, const char *path, const char *level,
                           int overwrite)
{
    wm_options opts;
    wm_options_init(&opts);
    opts.base_path = base;
    if (level)
        assert_int_equal(wm_option_set(ctx, &opts, "zlib-level", level), WM_OK);
    wm_sink *sink = NULL;
    wm_result r = wm_sink_open(ctx, path, overwrite, &sink);
    if (!r)
        r = wm_format_nwn2.write(ctx, mesh, sink, &opts);
    if (!r)
        r = wm_sink_commit(sink);
    wm_sink_close(sink);
    return r;
}

static void read_trx(wm_ctx *ctx, const char *path, nwn2_file *f)
{
    if (nwn2_file_read(ctx, path, f) != WM_OK)
        fail_msg("%s: %s", path, wm_ctx_message(ctx));
}

/* The grid and the base, made once for both tests; a folder of each test's own. */
typedef struct fixture {
    wm_ctx ctx;
    wm_mesh mesh;
    char *base, *dir;
} fixture;

static int group_setup(void **state)
{
    static fixture fx;
    wmt_ctx_init(&fx.ctx);
    make_grid(&fx.ctx, &fx.mesh);
    *state = &fx;
    return 0;
}

static int group_teardown(void **state)
{
    fixture *fx = *state;
    wm_mesh_free(&fx->ctx, &fx->mesh);
    return 0;
}

static int setup(void **state)
{
    fixture *fx = *state;
    fx->dir = wmt_make_temp_dir();
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    if (fx->dir)
        wmt_remove_tree(fx->dir);
    free(fx->dir);
    free(fx->base);
    fx->dir = fx->base = NULL;
    return 0;
}

/* The grid written streamed and by the whole-model writer, with base as --base:
 * the same walkmesh bytes and other packets. */
static void check_streamed(fixture *fx, const char *base)
{
    wm_ctx *ctx = &fx->ctx;
    const wm_mesh *mesh = &fx->mesh;
    char *streamed = wmt_join(fx->dir, "streamed.trx"), *whole = wmt_join(fx->dir, "whole.trx");
    assert_int_equal(write_trx(ctx, mesh, base, streamed, NULL, 1), WM_OK);
    assert_int_equal(write_trx(ctx, mesh, base, whole, "6", 1), WM_OK);
    nwn2_file s, w;
    read_trx(ctx, streamed, &s);
    read_trx(ctx, whole, &w);
    assert_int_equal(s.aswm.triangle_count, mesh->triangle_count);
    assert_int_equal(s.aswm.vertex_count, mesh->vertex_count);
    assert_true(s.aswm_info.compressed);
    assert_int_equal(s.aswm_raw_size, w.aswm_raw_size);
    assert_memory_equal(s.aswm_raw, w.aswm_raw, s.aswm_raw_size);
    assert_int_equal(s.aswm_packet, w.aswm_packet);
    assert_int_equal(s.container.packet_count, w.container.packet_count);
    for (uint32_t i = 0; i < s.container.packet_count; i++) {
        assert_memory_equal(s.container.packets[i].type, w.container.packets[i].type, 4);
        if ((int32_t)i == s.aswm_packet)
            continue;
        assert_int_equal(s.container.packets[i].size, w.container.packets[i].size);
        assert_memory_equal(s.container.packets[i].payload, w.container.packets[i].payload, s.container.packets[i].size);
    }
    nwn2_file_free(ctx, &s);
    nwn2_file_free(ctx, &w);
    free(streamed);
    free(whole);
}

static void test_streamed_is_the_whole_writers_walkmesh(void **state)
{
    fixture *fx = *state;
    fx->base = wmt_corpus_path_or_skip("nwn2/condemned_caves.trx");
    check_streamed(fx, fx->base);
}

/* Every real file has the ASWM packet last; with packets after it, their
 * table offsets are written back too. */
static void test_packets_after_the_walkmesh(void **state)
{
    fixture *fx = *state;
    fx->base = wmt_corpus_path_or_skip("nwn2/condemned_caves.trx");
    nwn2_file f;
    read_trx(&fx->ctx, fx->base, &f);
    nwn2_container *c = &f.container;
    assert_true(f.aswm_packet > 1);
    const nwn2_packet aswm = c->packets[f.aswm_packet]; /* moved to second place */
    memmove(&c->packets[2], &c->packets[1], (size_t)(f.aswm_packet - 1) * sizeof aswm);
    c->packets[1] = aswm;
    wm_buffer moved;
    wm_buffer_init(&moved, &fx->ctx);
    assert_int_equal(nwn2_container_serialize(&fx->ctx, c, &moved), WM_OK);
    char *path = wmt_join(fx->dir, "aswm_second.trx");
    wmt_write_file(path, moved.data, moved.size);
    wm_buffer_free(&moved);
    nwn2_file_free(&fx->ctx, &f);
    check_streamed(fx, path);
    free(path);
}

static size_t entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* In a child whose files may not grow past 2 MB: the write fails part way. */
static int write_limited(const wm_mesh *mesh, const char *base, const char *path, int overwrite)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit limit = {2u << 20, 2u << 20};
        signal(SIGXFSZ, SIG_IGN);
        setrlimit(RLIMIT_FSIZE, &limit);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        _exit(write_trx(&ctx, mesh, base, path, NULL, overwrite) == WM_ERR_IO ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_failed_write_leaves_nothing(void **state)
{
    fixture *fx = *state;
    const char *dir = fx->dir;
    fx->base = wmt_corpus_path_or_skip("nwn2/condemned_caves.trx");
    char *out = wmt_join(dir, "out.trx");
    assert_int_equal(write_limited(&fx->mesh, fx->base, out, 0), 0);
    assert_int_equal(entries(dir), 0);
    static const char old[] = "the file before";
    wmt_write_file(out, old, sizeof old);
    assert_int_equal(write_limited(&fx->mesh, fx->base, out, 1), 0);
    assert_int_equal(entries(dir), 1);
    size_t size = 0;
    uint8_t *kept = wmt_read_file(out, &size);
    assert_int_equal(size, sizeof old);
    assert_memory_equal(kept, old, sizeof old);
    free(kept);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_streamed_is_the_whole_writers_walkmesh, setup, teardown),
        cmocka_unit_test_setup_teardown(test_packets_after_the_walkmesh, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_write_leaves_nothing, setup, teardown),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
