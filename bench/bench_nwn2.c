/* Read + validate + write of a TRX (default: the corpus's largest,
 * condemned_caves.trx). Usage: bench_nwn2 [FILE] [ROUNDS]
 * Prints the best time of each step over the rounds and the peak RSS. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_support.h"
#include "nwn2/nwn2.h"

static double best(double current, double t)
{
    return current < 0 || t < current ? t : current;
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "../shared/corpus/nwn2/condemned_caves.trx";
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    uint8_t *data;
    size_t size;
    if (wm_file_read(&ctx, path, &data, &size)) {
        fprintf(stderr, "%s\n", wm_ctx_message(&ctx));
        return 2;
    }
    double t_read = -1, t_validate = -1, t_write = -1, t_encode = -1, t_mesh = -1, t_total = -1;
    uint32_t errors = 0, warnings = 0, triangles = 0;
    size_t written = 0;
    for (int round = 0; round < rounds; round++) {
        nwn2_file f;
        double t0 = bench_now();
        if (nwn2_file_parse(&ctx, data, size, path, &f)) {
            fprintf(stderr, "%s\n", wm_ctx_message(&ctx));
            return 2;
        }
        double t1 = bench_now();
        wm_report report;
        wm_report_init(&report, &ctx);
        nwn2_validate(&ctx, &f, &report);
        errors = report.errors;
        warnings = report.warnings;
        wm_report_free(&report);
        double t2 = bench_now();
        wm_buffer out;
        wm_buffer_init(&out, &ctx);
        nwn2_file_serialize(&ctx, &f, -1, &out); /* unchanged walkmesh: packet kept */
        written = out.size;
        wm_buffer_free(&out);
        double t3 = bench_now();
        wm_buffer_init(&out, &ctx);
        nwn2_file_serialize(&ctx, &f, 6, &out); /* forced re-encode, as after an edit */
        wm_buffer_free(&out);
        double t4 = bench_now();
        wm_mesh mesh;
        wm_mesh_init(&mesh);
        nwn2_aswm_to_mesh(&ctx, &f.aswm, 0, &mesh);
        triangles = mesh.triangle_count;
        wm_mesh_free(&ctx, &mesh);
        double t5 = bench_now();
        nwn2_file_free(&ctx, &f);
        t_read = best(t_read, t1 - t0);
        t_validate = best(t_validate, t2 - t1);
        t_write = best(t_write, t3 - t2);
        t_encode = best(t_encode, t4 - t3);
        t_mesh = best(t_mesh, t5 - t4);
        t_total = best(t_total, (t2 - t0) + (t4 - t3)); /* read + validate + write (re-encoded) */
    }
    printf("file: %s (%zu bytes), %d rounds, best times\n", path, size, rounds);
    printf("read (container + inflate + ASWM parse): %.2f ms\n", t_read * 1e3);
    printf("validate (%u errors, %u warnings):       %.2f ms\n", errors, warnings, t_validate * 1e3);
    printf("write, unchanged walkmesh (%zu bytes):   %.2f ms\n", written, t_write * 1e3);
    printf("write, re-encoded at zlib level 6:       %.2f ms\n", t_encode * 1e3);
    printf("to neutral mesh (%u triangles):          %.2f ms\n", triangles, t_mesh * 1e3);
    printf("read + validate + write (re-encoded):    %.2f ms\n", t_total * 1e3);
    printf("peak RSS: %ld KiB\n", bench_peak_rss_kb());
    wm_free(&ctx, data);
    return 0;
}
