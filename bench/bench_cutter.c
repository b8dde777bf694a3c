/* Cutting cost against a walkmesh cutter's point count (issue 19).
 *   bench_cutter [TRX] [GIT] [POINTS...]
 * Takes the GIT's walkmesh cutter with the largest area (corpus: fh_settlement), makes a
 * cutter of POINTS corners from it (its edges divided evenly, the added corners 1 cm to
 * alternate sides of the edge, as a hand-drawn dense outline has), and bakes the TRX with that
 * cutter alone, timing the whole bake (no file I/O) in CPU and wall time. Prints each
 * time and the growth exponent log(t2/t1) / log(n2/n1) between successive sizes.
 * Defaults: corpus/nwn2/fh_settlement.trx and .GIT; 500 2000 16384 points. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_support.h"
#include "nwn2/bake/bake.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define ZIGZAG 0.01

static double polygon_area(const nwn2_cutter *c)
{
    double twice = 0;
    for (uint32_t i = 0, j = c->point_count - 1; i < c->point_count; j = i++)
        twice += (double)c->points[2 * j] * c->points[2 * i + 1] - (double)c->points[2 * i] * c->points[2 * j + 1];
    return fabs(twice) / 2;
}

/* `points` corners on the outline of c: every edge gets a share in proportion to its length. */
static int densify(const nwn2_cutter *c, uint32_t points, nwn2_cutter *out)
{
    double perimeter = 0;
    for (uint32_t i = 0; i < c->point_count; i++) {
        uint32_t j = (i + 1) % c->point_count;
        perimeter += hypot(c->points[2 * j] - c->points[2 * i], c->points[2 * j + 1] - c->points[2 * i + 1]);
    }
    out->points = malloc(sizeof(float) * 2 * points);
    if (!out->points || points < c->point_count)
        return 1;
    out->point_count = 0;
    out->source_index = c->source_index;
    double spare = points - c->point_count, carried = 0;
    for (uint32_t i = 0; i < c->point_count; i++) {
        uint32_t j = (i + 1) % c->point_count;
        double dx = c->points[2 * j] - c->points[2 * i], dy = c->points[2 * j + 1] - c->points[2 * i + 1];
        carried += spare * hypot(dx, dy) / perimeter;
        uint32_t extra = (uint32_t)carried;
        if (i + 1 == c->point_count)
            extra = points - out->point_count - 1;
        carried -= extra;
        const double len = hypot(dx, dy), nx = len > 0 ? -dy / len : 0, ny = len > 0 ? dx / len : 0;
        for (uint32_t k = 0; k <= extra; k++) {
            /* added corners alternate 1 cm to either side of the edge: none is on a straight line */
            double off = k == 0 ? 0.0 : (k % 2 ? ZIGZAG : -ZIGZAG);
            out->points[2 * out->point_count] = (float)(c->points[2 * i] + dx * k / (extra + 1) + nx * off);
            out->points[2 * out->point_count + 1] = (float)(c->points[2 * i + 1] + dy * k / (extra + 1) + ny * off);
            out->point_count++;
        }
    }
    return out->point_count != points;
}

int main(int argc, char **argv)
{
    const char *corpus = getenv("WALKMESH_CORPUS_DIR") ? getenv("WALKMESH_CORPUS_DIR") : "../shared/corpus";
    char trx[1024], git[1024];
    snprintf(trx, sizeof trx, "%s/nwn2/fh_settlement.trx", corpus);
    snprintf(git, sizeof git, "%s/nwn2/fh_settlement.GIT", corpus);
    const char *trx_path = argc > 1 ? argv[1] : trx, *git_path = argc > 2 ? argv[2] : git;
    uint32_t sizes[16] = {500, 2000, 16384};
    int count = 3;
    if (argc > 3) {
        count = 0;
        for (int i = 3; i < argc && count < 16; i++)
            sizes[count++] = (uint32_t)strtoul(argv[i], NULL, 10);
    }
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    nwn2_file f;
    nwn2_cutter_set set;
    if (nwn2_file_read(&ctx, trx_path, &f) || nwn2_git_read_cutters(&ctx, git_path, &set) || !set.count) {
        fprintf(stderr, "bench_cutter: %s\n", ctx.message[0] ? ctx.message : "no cutters in the GIT");
        return 1;
    }
    const nwn2_cutter *largest = &set.cutters[0];
    for (uint32_t i = 1; i < set.count; i++)
        if (polygon_area(&set.cutters[i]) > polygon_area(largest))
            largest = &set.cutters[i];
    printf("%s: %u triangles; cutter from %s trigger %u (%u corners, %.1f m2), edges divided evenly\n",
           trx_path, f.aswm.triangle_count, git_path, largest->source_index, largest->point_count,
           polygon_area(largest));
    double previous = 0;
    for (int s = 0; s < count; s++) {
        nwn2_cutter big;
        if (densify(largest, sizes[s], &big)) {
            fprintf(stderr, "bench_cutter: cannot make %u corners\n", sizes[s]);
            return 1;
        }
        nwn2_cutter_set one = {&big, 1};
        nwn2_bake_options opts;
        nwn2_bake_options_init(&opts);
        opts.threads = 1;
        opts.cutters = &one;
        nwn2_aswm copy;
        nwn2_bake_stats stats;
        if (nwn2_aswm_copy(&ctx, &copy, &f.aswm))
            return 1;
        double c0 = cpu_now(), w0 = bench_now();
        wm_result r = nwn2_bake(&ctx, &copy, &opts, &stats);
        double cpu = cpu_now() - c0, wall = bench_now() - w0;
        if (r) {
            fprintf(stderr, "bench_cutter: bake failed: %s\n", ctx.message);
            return 1;
        }
        printf("%6u corners: CPU %8.3f s, wall %8.3f s; %u triangles, %u added by splits, %u removed%s",
               sizes[s], cpu, wall, copy.triangle_count, stats.split_added, stats.cut_removed,
               stats.whole_cutters ? " (cut whole: crowded tiles)" : "");
        if (s > 0 && previous > 0)
            printf("; growth exponent from %u: %.2f", sizes[s - 1],
                   log(cpu / previous) / log((double)sizes[s] / sizes[s - 1]));
        printf("\n");
        previous = cpu;
        nwn2_aswm_free(&ctx, &copy);
        free(big.points);
    }
    nwn2_cutter_set_free(&ctx, &set);
    nwn2_file_free(&ctx, &f);
    return 0;
}
