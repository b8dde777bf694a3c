/* Cutting cost against a walkmesh cutter's point count and shape (issue 26).
 *   bench_cutter [TRX] [SHAPE...] [POINTS...]
 * Bakes the TRX (default: corpus nwn2/fh_settlement.trx) with one cutter of POINTS corners
 * (default 1000 4000 16384) in each of five shapes (default all), inside 7..73 m around (40, 40):
 *   star    corners alternating between radii 25 and 5 around (40, 40): long thin spikes
 *           meeting at one centre;
 *   comb    a bar along y = 15..20 with teeth up to y = 60 (corners in pairs at y = 60 and
 *           y = 20, x stepping evenly): parallel slots as thin as the step;
 *   zigzag  the same with the top side going up and down at every corner (y = 60, 20, 60, ...);
 *   smooth  r = 20 + 4 sin(3 angle) around (40, 40): a dense smooth outline;
 *   ragged  corners alternating between radius 33 and inner radii spread over 2..31 (a fixed
 *           permutation): spikes of every length, whose corners spread over many tiles, so that
 *           no tile holds enough of them for the crowding test to decide before cutting.
 * The whole bake is timed (no file I/O), CPU and wall, best of a few runs for short ones; peak
 * memory is the most the bake held through the library's allocator at once (a counting
 * allocator in the context), printed beside the output walkmesh's own size. The growth exponent
 * is log(t2 / t1) / log(n2 / n1) between successive sizes and from the first to the last. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_support.h"
#include "nwn2/bake/bake_internal.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* An allocator that keeps each block's size in front of it, to follow the bytes held. */
typedef struct counting {
    size_t held, peak;
} counting;

typedef union block_head {
    size_t size;
    max_align_t align;
} block_head;

static void *counting_realloc(void *user, void *ptr, size_t size)
{
    counting *c = user;
    block_head *old = ptr ? (block_head *)ptr - 1 : NULL;
    size_t old_size = old ? old->size : 0;
    block_head *h = realloc(old, sizeof *h + size);
    if (!h)
        return NULL;
    h->size = size;
    c->held += size - old_size;
    if (c->held > c->peak)
        c->peak = c->held;
    return h + 1;
}

static void counting_free(void *user, void *ptr)
{
    counting *c = user;
    if (!ptr)
        return;
    block_head *h = (block_head *)ptr - 1;
    c->held -= h->size;
    free(h);
}

enum { STAR, COMB, ZIGZAG, SMOOTH, RAGGED, SHAPES };
static const char *const shape_name[SHAPES] = {"star", "comb", "zigzag", "smooth", "ragged"};

/* Corner i of n in one of the shapes. */
static void corner(int shape, uint32_t i, uint32_t n, float out[2])
{
    const double pi = 3.14159265358979323846;
    double x, y;
    if (shape == STAR || shape == SMOOTH || shape == RAGGED) {
        double angle = 2 * pi * i / n;
        double r = shape == STAR     ? (i % 2 ? 5.0 : 25.0)
                   : shape == RAGGED ? (i % 2 ? 2.0 + 29.0 * (double)((i * 7919u) % n) / n : 33.0)
                                     : 20.0 + 4.0 * sin(3 * angle);
        x = 40 + r * cos(angle);
        y = 40 + r * sin(angle);
    } else if (i < 2) { /* the bar's bottom corners */
        x = i ? 15.0 : 65.0;
        y = 15.0;
    } else { /* the top side, from x = 15 back to x = 65 */
        uint32_t j = i - 2;
        x = 15.0 + 50.0 * j / (n - 3);
        int high = shape == COMB ? ((j + 1) / 2) % 2 == 0 : j % 2 == 0;
        y = high ? 60.0 : 20.0;
    }
    out[0] = (float)x;
    out[1] = (float)y;
}

typedef struct run {
    double cpu, wall;
    size_t peak, output;
    uint32_t triangles, added, removed, whole;
} run;

static size_t walkmesh_bytes(const nwn2_aswm *a)
{
    return (size_t)a->vertex_count * 3 * sizeof(float) + (size_t)a->triangle_count * sizeof(nwn2_triangle) +
           (size_t)a->edge_count * sizeof *a->edges;
}

static int bake_once(const nwn2_aswm *source, const nwn2_cutter_set *cutters, run *out)
{
    counting count = {0, 0};
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.alloc.realloc_fn = counting_realloc;
    ctx.alloc.free_fn = counting_free;
    ctx.alloc.user = &count;
    nwn2_bake_options opts;
    nwn2_bake_options_init(&opts);
    opts.threads = 1;
    opts.cutters = cutters;
    nwn2_aswm copy;
    nwn2_bake_stats stats;
    if (nwn2_aswm_copy(&ctx, &copy, source))
        return 1;
    double c0 = cpu_now(), w0 = bench_now();
    wm_result r = nwn2_bake(&ctx, &copy, &opts, &stats);
    out->cpu = cpu_now() - c0;
    out->wall = bench_now() - w0;
    if (r) {
        fprintf(stderr, "bench_cutter: bake failed: %s\n", ctx.message);
        return 1;
    }
    out->peak = count.peak;
    out->output = walkmesh_bytes(&copy);
    out->triangles = copy.triangle_count;
    out->added = stats.split_added;
    out->removed = stats.cut_removed;
    out->whole = stats.whole_cutters;
    nwn2_aswm_free(&ctx, &copy);
    return 0;
}

/* The best of a few runs, as many as fit in about half a second (at least one). */
static int bake_best(const nwn2_aswm *source, const nwn2_cutter_set *cutters, run *best)
{
    double spent = 0;
    for (int i = 0; i < 7 && (i == 0 || spent < 0.5); i++) {
        run r;
        if (bake_once(source, cutters, &r))
            return 1;
        spent += r.wall;
        if (i == 0 || r.cpu < best->cpu)
            *best = r;
    }
    return 0;
}

/* The exact cut alone (bake_cut, no tiles, no redo): what a cutter costs when the bake cannot tell
 * beforehand that it crowds a tile, so that cost stays in view. */
static int exact_cut_once(const nwn2_aswm *source, const nwn2_cutter_set *cutters, double *cpu, uint32_t *pieces)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    nwn2_aswm copy;
    if (nwn2_aswm_copy(&ctx, &copy, source))
        return 1;
    uint32_t added = 0, removed = 0;
    double c0 = cpu_now();
    wm_result r = bake_cut(&ctx, &copy, cutters, NULL, &added, &removed);
    *cpu = cpu_now() - c0;
    *pieces = copy.triangle_count + removed;
    nwn2_aswm_free(&ctx, &copy);
    if (r)
        fprintf(stderr, "bench_cutter: exact cut failed: %s\n", ctx.message);
    return r != WM_OK;
}

static void print_run(uint32_t points, const run *r, const run *previous, uint32_t previous_points)
{
    printf("  %6u points: CPU %7.3f s, wall %7.3f s, peak %7.1f MB (%5.1f x the output's %.2f MB); "
           "%u triangles, %u added, %u removed%s",
           points, r->cpu, r->wall, r->peak / 1e6, (double)r->peak / (double)r->output, r->output / 1e6,
           r->triangles, r->added, r->removed, r->whole ? " (crowded tiles cut whole)" : "");
    if (previous)
        printf("; exponent from %u: %.2f", previous_points,
               log(r->cpu / previous->cpu) / log((double)points / previous_points));
    printf("\n");
}

int main(int argc, char **argv)
{
    const char *corpus = getenv("WALKMESH_CORPUS_DIR") ? getenv("WALKMESH_CORPUS_DIR") : "../shared/corpus";
    char trx[1024];
    snprintf(trx, sizeof trx, "%s/nwn2/fh_settlement.trx", corpus);
    const char *trx_path = argc > 1 ? argv[1] : trx;
    uint32_t sizes[16] = {1000, 4000, 16384};
    int count = 0, chosen[SHAPES] = {0}, any_chosen = 0;
    for (int i = 2; i < argc; i++) {
        int shape = 0;
        while (shape < SHAPES && strcmp(argv[i], shape_name[shape]))
            shape++;
        if (shape < SHAPES)
            any_chosen = chosen[shape] = 1;
        else if (count < 16)
            sizes[count++] = (uint32_t)strtoul(argv[i], NULL, 10);
    }
    count = count ? count : 3;
    for (int s = 0; s < count; s++)
        if (sizes[s] < 8 || sizes[s] % 2) {
            fprintf(stderr, "bench_cutter: point counts must be even and at least 8\n");
            return 1;
        }
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    nwn2_file f;
    if (nwn2_file_read(&ctx, trx_path, &f)) {
        fprintf(stderr, "bench_cutter: %s\n", ctx.message);
        return 1;
    }
    printf("%s: %u triangles, one cutter per bake; then the exact cut alone\n", trx_path, f.aswm.triangle_count);
    for (int shape = 0; shape < SHAPES; shape++) {
        if (any_chosen && !chosen[shape])
            continue;
        printf("%s:\n", shape_name[shape]);
        run runs[16];
        double exact[16];
        for (int s = 0; s < count; s++) {
            nwn2_cutter c = {malloc(sizeof(float) * 2 * sizes[s]), sizes[s], 0};
            if (!c.points)
                return 1;
            for (uint32_t i = 0; i < sizes[s]; i++)
                corner(shape, i, sizes[s], &c.points[2 * i]);
            nwn2_cutter_set one = {&c, 1};
            uint32_t pieces = 0;
            int failed = bake_best(&f.aswm, &one, &runs[s]) || exact_cut_once(&f.aswm, &one, &exact[s], &pieces);
            free(c.points);
            if (failed)
                return 1;
            print_run(sizes[s], &runs[s], s ? &runs[s - 1] : NULL, s ? sizes[s - 1] : 0);
            printf("          exact cut alone: CPU %7.3f s, %u pieces", exact[s], pieces);
            if (s)
                printf("; exponent from %u: %.2f", sizes[s - 1], log(exact[s] / exact[s - 1]) / log((double)sizes[s] / sizes[s - 1]));
            printf("\n");
            fflush(stdout);
        }
        if (count > 1)
            printf("  growth exponent %u -> %u: %.2f\n", sizes[0], sizes[count - 1],
                   log(runs[count - 1].cpu / runs[0].cpu) / log((double)sizes[count - 1] / sizes[0]));
        if (count > 1)
            printf("  exact cut alone, growth exponent %u -> %u: %.2f\n", sizes[0], sizes[count - 1],
                   log(exact[count - 1] / exact[0]) / log((double)sizes[count - 1] / sizes[0]));
    }
    nwn2_file_free(&ctx, &f);
    return 0;
}
