/* The writing of a re-baked TRX on one thread against several: the ASWM
 * deflate of a large packet on every core (nwn2_deflate_parallel.c), timed
 * apart from the bake, whose own stages use the threads too.
 * Usage: bench_deflate_threads ROUNDS THREADS FILE.trx...
 * Each file is parsed and re-baked once, then written ROUNDS times with 1 and
 * THREADS (default 2) deflate threads, alternating; prints the best wall and
 * CPU (all threads: clock()) of each and their ratios. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_support.h"
#include "nwn2/bake/bake.h"

typedef struct timing {
    double wall, cpu;
    size_t bytes;
} timing;

/* Writes f with `threads` deflate threads; keeps the best wall and CPU in t. */
static int time_write(wm_ctx *ctx, nwn2_file *f, unsigned threads, timing *t)
{
    f->deflate_threads = threads;
    wm_buffer out;
    wm_buffer_init(&out, ctx);
    const double w0 = bench_now(), c0 = (double)clock() / CLOCKS_PER_SEC;
    const wm_result r = nwn2_file_serialize(ctx, f, -1, &out);
    const double wall = bench_now() - w0, cpu = (double)clock() / CLOCKS_PER_SEC - c0;
    t->bytes = out.size;
    wm_buffer_free(&out);
    if (t->wall < 0 || wall < t->wall)
        t->wall = wall;
    if (t->cpu < 0 || cpu < t->cpu)
        t->cpu = cpu;
    return r != WM_OK;
}

static int bench_file(const char *path, int rounds, unsigned threads)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    nwn2_file f;
    if (nwn2_file_read(&ctx, path, &f) || nwn2_bake(&ctx, &f.aswm, NULL, NULL)) {
        fprintf(stderr, "%s\n", wm_ctx_message(&ctx));
        return 1;
    }
    timing one = {-1, -1, 0}, many = {-1, -1, 0};
    int failed = 0;
    for (int round = 0; round < rounds && !failed; round++)
        failed = time_write(&ctx, &f, 1, &one) || time_write(&ctx, &f, threads, &many);
    nwn2_file_free(&ctx, &f);
    if (failed) {
        fprintf(stderr, "%s: %s\n", path, wm_ctx_message(&ctx));
        return 1;
    }
    const char *name = path;
    for (const char *p = path; *p; p++)
        if (*p == '/')
            name = p + 1;
    printf("| %s | %.2f ms (%.2f ms), %zu bytes | %.2f ms (%.2f ms), %zu bytes | %.2fx | %.2fx |\n", name,
           one.cpu * 1e3, one.wall * 1e3, one.bytes, many.cpu * 1e3, many.wall * 1e3, many.bytes,
           many.wall / one.wall, many.cpu / one.cpu);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_deflate_threads ROUNDS THREADS FILE.trx...\n");
        return 2;
    }
    const int rounds = atoi(argv[1]);
    const unsigned threads = (unsigned)atoi(argv[2]);
    printf("| file | write, 1 thread: CPU (wall) | write, %u threads: CPU (wall) | wall ratio | CPU ratio |\n",
           threads);
    printf("|---|---|---|---|---|\n");
    int failed = 0;
    for (int i = 3; i < argc; i++)
        failed |= bench_file(argv[i], rounds > 0 ? rounds : 1, threads ? threads : 2);
    return failed;
}
