/* WMO benchmark (run by hand):
 *   bench_wmo [CORPUS_DIR] [OUT_DIR]
 * 1. extracts the collision of the largest corpus group
 *    (wmo/warcraftnet__8or_pvp_warsongbg_tower01_000.wmo) with every rule;
 * 2. writes a 1,002,528-triangle mesh as collision groups with BSPs, then
 *    reads it back. Prints time and peak memory for each step. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_support.h"
#include "wmo/wmo.h"

#define EXTRACT_RUNS 20
#define GRID_CELLS 708 /* 2 * 708^2 = 1,002,528 triangles */

static int bench_extract(const char *corpus)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/wmo/warcraftnet__8or_pvp_warsongbg_tower01_000.wmo", corpus);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    for (unsigned rule = 0; rule < WMO_RULE_COUNT; rule++) {
        wm_options opts;
        wm_options_init(&opts);
        wm_option_set(&ctx, &opts, "collision-rule", wmo_rule_name((wmo_rule)rule));
        uint32_t triangles = 0;
        double start = bench_now();
        for (int run = 0; run < EXTRACT_RUNS; run++) {
            wm_mesh mesh;
            wm_mesh_init(&mesh);
            if (wm_mesh_load(&ctx, path, wm_format_wmo.name, &opts, &mesh)) {
                fprintf(stderr, "bench_wmo: %s\n", wm_ctx_message(&ctx));
                return 1;
            }
            triangles = mesh.triangle_count;
            wm_mesh_free(&ctx, &mesh);
        }
        double per_run = (bench_now() - start) / EXTRACT_RUNS;
        printf("extract %-14s %6u triangles: %8.2f ms per read+parse+extract (mean of %d), peak RSS %ld KiB\n",
               wmo_rule_name((wmo_rule)rule), triangles, per_run * 1e3, EXTRACT_RUNS, bench_peak_rss_kb());
    }
    return 0;
}

static void make_terrain(wm_ctx *ctx, wm_mesh *m)
{
    wm_mesh_init(m);
    wm_mesh_add_object(ctx, m, "terrain", NULL);
    for (uint32_t y = 0; y <= GRID_CELLS; y++)
        for (uint32_t x = 0; x <= GRID_CELLS; x++)
            wm_mesh_add_vertex(ctx, m, (float)x * 0.5f, (float)y * 0.5f, (float)((x * 7 + y * 13) % 11) * 0.1f, NULL);
    for (uint32_t y = 0; y < GRID_CELLS; y++)
        for (uint32_t x = 0; x < GRID_CELLS; x++) {
            uint32_t a = y * (GRID_CELLS + 1) + x, b = a + 1, c = a + GRID_CELLS + 1, d = c + 1;
            wm_mesh_add_triangle(ctx, m, a, b, d, WM_SURF_COLLISION, 1);
            wm_mesh_add_triangle(ctx, m, a, d, c, WM_SURF_COLLISION, 1);
        }
}

static int bench_write(const char *out_dir)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_mesh mesh;
    make_terrain(&ctx, &mesh);
    char root[4096];
    snprintf(root, sizeof root, "%s/bench_terrain.wmo", out_dir);
    wm_options opts;
    wm_options_init(&opts);
    long rss_before = bench_peak_rss_kb();
    double start = bench_now();
    if (wm_mesh_save(&ctx, &mesh, root, wm_format_wmo.name, &opts, 1)) {
        fprintf(stderr, "bench_wmo: %s\n", wm_ctx_message(&ctx));
        return 1;
    }
    double wrote = bench_now() - start;
    wmo_root r;
    if (wmo_root_load(&ctx, root, &r)) {
        fprintf(stderr, "bench_wmo: %s\n", wm_ctx_message(&ctx));
        return 1;
    }
    uint32_t groups = r.group_info_count;
    wmo_root_free(&ctx, &r);
    printf("write %u triangles / %u vertices as %u groups: %.2f s, peak RSS %ld KiB (%ld KiB with the mesh alone)\n",
           mesh.triangle_count, mesh.vertex_count, groups, wrote, bench_peak_rss_kb(), rss_before);
    wm_mesh back;
    wm_mesh_init(&back);
    start = bench_now();
    if (wm_mesh_load(&ctx, root, wm_format_wmo.name, &opts, &back)) {
        fprintf(stderr, "bench_wmo: %s\n", wm_ctx_message(&ctx));
        return 1;
    }
    printf("read back %u triangles: %.2f s, peak RSS %ld KiB\n", back.triangle_count, bench_now() - start,
           bench_peak_rss_kb());
    wm_mesh_free(&ctx, &back);
    for (uint32_t i = 0; i < groups; i++) {
        char *group = wmo_group_path(&ctx, root, i);
        if (group)
            unlink(group);
        wm_free(&ctx, group);
    }
    unlink(root);
    wm_mesh_free(&ctx, &mesh);
    return 0;
}

int main(int argc, char **argv)
{
    const char *corpus = argc > 1 ? argv[1] : getenv("WALKMESH_CORPUS_DIR");
    const char *out_dir = argc > 2 ? argv[2] : "/tmp";
    if (!corpus) {
        fprintf(stderr, "usage: bench_wmo CORPUS_DIR [OUT_DIR]\n");
        return 1;
    }
    return bench_extract(corpus) || bench_write(out_dir);
}
