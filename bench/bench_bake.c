/* The NWN2 bake, timed without file I/O.
 *   bench_bake [TRX] [ROUNDS] [THREADS]
 * 1. Re-bakes a toolset TRX (default: the corpus's condemned_caves.trx,
 *    18.5k triangles, 576 tiles): best and median time of ROUNDS bakes on
 *    one thread, then on THREADS threads.
 * 2. Bakes a synthetic exterior-sized mesh: 32 x 32 tiles of 10 m, 512 x 512
 *    quads (524,288 triangles) of rolling terrain whose walkable part is a
 *    road grid (at most 122 walkable triangles per tile, one island per tile).
 * Prints the peak resident memory after each part. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "bench_support.h"
#include "nwn2/bake/bake.h"

/* CPU seconds of this process: the honest one-thread figure on a shared machine. */
static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int rebake(const char *path, int rounds, unsigned threads)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    nwn2_file f;
    nwn2_file_init(&f);
    if (nwn2_file_read(&ctx, path, &f)) {
        fprintf(stderr, "%s\n", wm_ctx_message(&ctx));
        return 2;
    }
    double *times = calloc((size_t)rounds, sizeof *times), *cpu = calloc((size_t)rounds, sizeof *cpu);
    nwn2_bake_stats stats;
    for (int i = 0; i < rounds; i++) {
        nwn2_aswm copy;
        if (nwn2_aswm_copy(&ctx, &copy, &f.aswm)) {
            fprintf(stderr, "%s\n", wm_ctx_message(&ctx));
            return 2;
        }
        nwn2_bake_options opts;
        nwn2_bake_options_init(&opts);
        opts.threads = threads;
        double t0 = bench_now(), c0 = cpu_now();
        wm_result r = nwn2_bake(&ctx, &copy, &opts, &stats);
        times[i] = bench_now() - t0;
        cpu[i] = cpu_now() - c0;
        if (r) {
            fprintf(stderr, "%s\n", wm_ctx_message(&ctx));
            return 2;
        }
        nwn2_aswm_free(&ctx, &copy);
    }
    qsort(times, (size_t)rounds, sizeof *times, cmp_double);
    qsort(cpu, (size_t)rounds, sizeof *cpu, cmp_double);
    printf("re-bake %s: %u triangles, %u tiles, %u islands, %u LOS pairs; %u thread%s: wall best %.2f ms, median "
           "%.2f ms; CPU best %.2f ms, median %.2f ms (%d rounds); peak RSS %ld KiB\n",
           path, f.aswm.triangle_count, f.aswm.grid_width * f.aswm.grid_height, stats.island_count, stats.los_pairs,
           threads, threads == 1 ? "" : "s", times[0] * 1e3, times[rounds / 2] * 1e3, cpu[0] * 1e3,
           cpu[rounds / 2] * 1e3, rounds, bench_peak_rss_kb());
    free(times);
    free(cpu);
    nwn2_file_free(&ctx, &f);
    return 0;
}

#define QUADS 512u      /* per side */
#define TILES 32u       /* per side */
#define QUAD_SIZE 0.625f /* 16 quads per 10 m tile */

static int exterior(unsigned threads)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    nwn2_aswm a;
    nwn2_aswm_init(&a);
    const uint32_t side = QUADS + 1;
    a.version = NWN2_ASWM_VERSION;
    a.owns_data = 1;
    a.grid_flags = NWN2_GRID_FLAGS_TRN;
    a.tile_width = 10.0f;
    a.grid_width = a.grid_height = TILES;
    a.tiles = wm_alloc_array(&ctx, TILES * TILES, sizeof *a.tiles);
    a.vertices = wm_alloc_array(&ctx, (size_t)side * side * 3, sizeof(float));
    a.triangles = wm_alloc_array(&ctx, (size_t)QUADS * QUADS * 2, sizeof *a.triangles);
    if (!a.tiles || !a.vertices || !a.triangles)
        return 2;
    for (uint32_t y = 0; y < side; y++)
        for (uint32_t x = 0; x < side; x++) {
            float *v = &a.vertices[3 * ((size_t)y * side + x)];
            v[0] = (float)x * QUAD_SIZE;
            v[1] = (float)y * QUAD_SIZE;
            v[2] = 3.0f * sinf((float)x * 0.05f) * cosf((float)y * 0.04f);
        }
    a.vertex_count = side * side;
    uint32_t n = 0;
    for (uint32_t y = 0; y < QUADS; y++)
        for (uint32_t x = 0; x < QUADS; x++) {
            uint32_t v00 = y * side + x, v10 = v00 + 1, v01 = v00 + side, v11 = v01 + 1;
            uint16_t flags = ((y % 16) < 3 || (x % 16) < 1) ? (NWN2_TRI_WALKABLE | NWN2_TRI_GRASS) : NWN2_TRI_STONE;
            const uint32_t quad[2][3] = {{v00, v10, v11}, {v00, v11, v01}};
            for (int k = 0; k < 2; k++) {
                nwn2_triangle *t = &a.triangles[n++];
                memcpy(t->v, quad[k], sizeof quad[k]);
                t->flags = flags;
                t->island = NWN2_NO_ISLAND;
                for (int s = 0; s < 3; s++)
                    t->neighbour[s] = NWN2_NONE32;
            }
        }
    a.triangle_count = n;
    nwn2_bake_options opts;
    nwn2_bake_options_init(&opts);
    opts.threads = threads;
    nwn2_bake_stats stats;
    double t0 = bench_now(), c0 = cpu_now();
    wm_result r = nwn2_bake(&ctx, &a, &opts, &stats);
    double t = bench_now() - t0, c = cpu_now() - c0;
    if (r) {
        fprintf(stderr, "%s\n", wm_ctx_message(&ctx));
        return 2;
    }
    printf("exterior 32 x 32 tiles, %u triangles (%u walkable, at most %u per tile), %u islands; %u thread%s: "
           "wall %.1f ms, CPU %.1f ms; peak RSS %ld KiB\n",
           a.triangle_count, stats.walkable_triangles, stats.max_tile_nodes, stats.island_count, threads,
           threads == 1 ? "" : "s", t * 1e3, c * 1e3, bench_peak_rss_kb());
    nwn2_aswm_free(&ctx, &a);
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "../shared/corpus/nwn2/condemned_caves.trx";
    int rounds = argc > 2 ? atoi(argv[2]) : 20;
    unsigned threads = argc > 3 ? (unsigned)atoi(argv[3]) : 2;
    if (rounds < 1)
        rounds = 1;
    int rc = rebake(path, rounds, 1);
    if (!rc && threads > 1)
        rc = rebake(path, rounds, threads);
    if (!rc)
        rc = exterior(1);
    if (!rc && threads > 1)
        rc = exterior(threads);
    return rc;
}
