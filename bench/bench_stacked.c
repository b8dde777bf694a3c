/* Growth of the WOK build with faces stacked on one edge (issue 27.4).
 *   bench_stacked [N...]
 * Two ASCII walkmeshes per size N, each converted to a .wok by `wm_convert` (text read,
 * welded, built, written; file I/O in a temporary folder included):
 *   stacked:   one node, 3 vertices, N identical walkable faces (every edge shared by N faces);
 *   one-face:  N nodes of 3 vertices and 1 face each, all the same triangle (welded across
 *              nodes, the same N faces on one edge).
 * Prints CPU and wall time per size and the growth exponent log(t_last/t_first) / log(N_last/N_first)
 * of the CPU time. Defaults: 10000 31623 100000. Target: exponents <= 1.2, 100,000 stacked
 * faces under 1 s. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_support.h"
#include "walkmesh.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static const char triangle[] = "    0 0 0\n    4 0 0\n    0 4 0\n";
static const char face_row[] = "    0 1 2 1 0 0 0 4\n"; /* stone: walkable */

/* The text of one shape at size n into path; returns its size in bytes, 0 on failure. */
static long write_text(const char *path, int one_face_nodes, unsigned n)
{
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    fputs("# WOKMESH  ASCII\n", f);
    for (unsigned node = 0; node < (one_face_nodes ? n : 1u); node++) {
        fprintf(f, "node trimesh part%u\n  parent null\n  position 0 0 0\n  verts 3\n%s  faces %u\n", node,
                triangle, one_face_nodes ? 1u : n);
        for (unsigned i = 0; i < (one_face_nodes ? 1u : n); i++) fputs(face_row, f);
        fputs("endnode\n", f);
    }
    long size = ftell(f);
    return fclose(f) == 0 ? size : 0;
}

typedef struct timing {
    double cpu, wall;
} timing;

static int convert(const char *in, const char *out, timing *t)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.warn = NULL; /* every edge of the stack is shared by N faces: its warnings are not the point */
    double c0 = cpu_now(), w0 = bench_now();
    wm_result r = wm_convert(&ctx, in, out, NULL, NULL, NULL, 1);
    t->cpu = cpu_now() - c0;
    t->wall = bench_now() - w0;
    if (r) fprintf(stderr, "%s: %s\n", in, wm_ctx_message(&ctx));
    return r != WM_OK;
}

int main(int argc, char **argv)
{
    unsigned sizes[16] = {10000, 31623, 100000}, count = 3;
    if (argc > 1) {
        count = 0;
        for (int i = 1; i < argc && count < 16; i++) sizes[count++] = (unsigned)strtoul(argv[i], NULL, 10);
    }
    char dir[] = "/tmp/bench_stacked_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char in[64], out[64];
    snprintf(in, sizeof in, "%s/in.wok.ascii", dir);
    snprintf(out, sizeof out, "%s/out.wok", dir);
    static const char *const names[2] = {"stacked faces, one node", "one-face nodes"};
    int failed = 0;
    for (int shape = 0; shape < 2; shape++) {
        timing first = {0, 0}, last = {0, 0};
        for (unsigned s = 0; s < count; s++) {
            long bytes = write_text(in, shape, sizes[s]);
            timing t;
            if (!bytes || convert(in, out, &t)) {
                failed = 1;
                break;
            }
            printf("%s: %7u faces (%.1f MB of text): %.3f s CPU, %.3f s wall\n", names[shape], sizes[s],
                   (double)bytes / 1e6, t.cpu, t.wall);
            if (s == 0) first = t;
            last = t;
        }
        if (!failed && count > 1)
            printf("%s: growth exponent %u -> %u: %.2f (CPU), %.2f (wall); target <= 1.2\n", names[shape], sizes[0],
                   sizes[count - 1], log(last.cpu / first.cpu) / log((double)sizes[count - 1] / sizes[0]),
                   log(last.wall / first.wall) / log((double)sizes[count - 1] / sizes[0]));
    }
    remove(in);
    remove(out);
    rmdir(dir);
    return failed;
}
