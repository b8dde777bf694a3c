#define _DEFAULT_SOURCE /* getrusage page-fault counts */
/* Builds a WOK from an in-memory mesh of about 1,000,000 triangles (a
 * bumpy 500 x 1000 grid, one triangle in eight non-walkable) and reports
 * time and peak memory of each stage. Target: build < 0.5 s, < 400 MB.
 * Usage: bench_bwm [columns rows [tree]]   (defaults 500 1000 -> 1,000,000 triangles;
 * "tree": only the AABB tree, streamed as the WOK writer does, five times)
 * The library's default allocator puts blocks of 8 MiB and more on transparent
 * huge pages (see core/context.c); page faults are counted per stage. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_support.h"
#include "bwm/bwm.h"
#include "wm_surface.h"

static void fill_grid(wm_ctx *ctx, wm_mesh *m, uint32_t cols, uint32_t rows)
{
    if (wm_mesh_reserve(ctx, m, (cols + 1) * (rows + 1), cols * rows * 2)) exit(1);
    for (uint32_t y = 0; y <= rows; y++)
        for (uint32_t x = 0; x <= cols; x++)
            wm_mesh_add_vertex(ctx, m, (float)x * 0.5f, (float)y * 0.5f, 0.3f * sinf((float)x * 0.37f) * cosf((float)y * 0.21f),
                               NULL);
    for (uint32_t y = 0; y < rows; y++)
        for (uint32_t x = 0; x < cols; x++) {
            uint32_t a = y * (cols + 1) + x, b = a + 1, c = a + cols + 1, d = c + 1;
            int walk = (x * 7 + y * 3) % 8 != 0;
            uint16_t s = walk ? WM_SURF_STONE : WM_SURF_NONWALK;
            wm_mesh_add_triangle(ctx, m, a, b, d, s, walk);
            wm_mesh_add_triangle(ctx, m, a, d, c, s, walk);
        }
}

static wm_result discard_words(void *stage, const void *words, size_t count)
{
    const uint32_t *w = words;
    for (size_t i = 0; i < count; i++) *(size_t *)stage += w[i]; /* a checksum of the nodes */
    return WM_OK;
}

/* The tree alone: least CPU of five streamed builds over the mesh's faces. */
static int bench_tree(const wm_mesh *m)
{
    void *work = malloc(bwm_aabb_stream_bytes(m->triangle_count));
    if (!work) return 1;
    double best = 1e30;
    size_t words = 0;
    for (int run = 0; run < 5; run++) {
        double c0 = (double)clock() / CLOCKS_PER_SEC;
        if (bwm_stream_aabb(m->positions, m->indices, m->triangle_count, BWM_PLANES_BIOWARE, work, discard_words,
                            &words))
            return 1;
        double c = (double)clock() / CLOCKS_PER_SEC - c0;
        best = c < best ? c : best;
    }
    printf("AABB tree, streamed: %.4f s CPU (least of 5), %u faces, %.1f MB work (checksum %zu)\n", best,
           m->triangle_count, bwm_aabb_stream_bytes(m->triangle_count) / 1e6, words);
    free(work);
    return 0;
}

/* Process CPU seconds: the machine is shared, so wall time overstates the work. */
static double cpu_now(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

int main(int argc, char **argv)
{
    uint32_t cols = argc > 2 ? (uint32_t)atoi(argv[1]) : 500, rows = argc > 2 ? (uint32_t)atoi(argv[2]) : 1000;
    wm_ctx ctx;
    wm_mesh mesh;
    wm_ctx_init(&ctx);
    wm_mesh_init(&mesh);
    fill_grid(&ctx, &mesh, cols, rows);
    long rss_mesh = bench_peak_rss_kb();
    printf("mesh: %u vertices, %u triangles (peak RSS %.1f MB)\n", mesh.vertex_count, mesh.triangle_count,
           rss_mesh / 1024.0);
    if (argc > 3 && strcmp(argv[3], "tree") == 0) {
        int failed = bench_tree(&mesh);
        wm_mesh_free(&ctx, &mesh);
        return failed;
    }

    uint32_t *materials = malloc(sizeof(uint32_t) * mesh.triangle_count);
    for (uint32_t t = 0; t < mesh.triangle_count; t++)
        materials[t] = (uint32_t)bwm_material_of_surface(wm_surfaces(&ctx), mesh.surfaces[t]);
    bwm_build_input in = {BWM_TYPE_AREA, mesh.positions, mesh.vertex_count, mesh.indices, mesh.triangle_count, materials,
                          NULL, NULL, BWM_PLANES_BIOWARE, NULL, NULL, NULL};
    bwm_file file;
    double t0 = bench_now(), c0 = cpu_now();
    long faults0 = bench_minor_faults();
    if (bwm_build(&ctx, &in, &file)) {
        fprintf(stderr, "build: %s\n", wm_ctx_message(&ctx));
        return 1;
    }
    double t1 = bench_now(), c1 = cpu_now();
    long faults1 = bench_minor_faults();
    printf("bwm_build (order, planes, AABB, adjacency, edges, perimeters): %.3f s wall, %.3f s CPU, peak RSS %.1f MB, "
           "%ld page faults\n",
           t1 - t0, c1 - c0, bench_peak_rss_kb() / 1024.0, faults1 - faults0);
    printf("  %u AABB nodes, %u walkable, %u boundary edges, %u perimeters\n", file.aabb_count, file.adjacency_count,
           file.edge_count, file.perimeter_count);
    bwm_file_free(&ctx, &file);

    t0 = bench_now();
    c0 = cpu_now();
    faults0 = bench_minor_faults();
    if (bwm_from_mesh(&ctx, &mesh, BWM_TYPE_AREA, -1.0f, BWM_PLANES_BIOWARE, &file)) {
        fprintf(stderr, "from_mesh: %s\n", wm_ctx_message(&ctx));
        return 1;
    }
    t1 = bench_now();
    c1 = cpu_now();
    faults1 = bench_minor_faults();
    wm_buffer buf;
    if (bwm_serialize(&ctx, &file, &buf)) return 1;
    double t2 = bench_now(), c2 = cpu_now();
    long faults2 = bench_minor_faults();
    printf("bwm_from_mesh (copy, weld 1e-4, compact, build): %.3f s wall, %.3f s CPU, %ld page faults; serialize "
           "%.3f s wall, %.3f s CPU, %ld page faults (%zu bytes); peak RSS %.1f MB\n",
           t1 - t0, c1 - c0, faults1 - faults0, t2 - t1, c2 - c1, faults2 - faults1, buf.size,
           bench_peak_rss_kb() / 1024.0);
    wm_buffer_free(&buf);

    t0 = bench_now();
    uint32_t hits = 0;
    for (uint32_t i = 0; i < 100000; i++) {
        float z;
        float x = (float)(i % 997) / 997.0f * (float)cols * 0.5f, y = (float)(i % 991) / 991.0f * (float)rows * 0.5f;
        hits += bwm_height_at(&ctx, &file, x, y, HUGE_VALF, &z) == WM_OK;
    }
    t1 = bench_now();
    printf("100000 height queries: %.3f s (%u found)\n", t1 - t0, hits);
    bwm_file_free(&ctx, &file);
    wm_mesh_free(&ctx, &mesh);
    free(materials);
    return 0;
}
