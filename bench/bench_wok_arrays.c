/* The C side of bench_python.py: builds a WOK from raw arrays through the public API
 * (wm_mesh_save), the same work the Python package does from numpy arrays.
 *
 *   bench_wok_arrays MESH.bin OUT.wok RUNS
 *
 * MESH.bin: u32 vertex count, u32 triangle count, float positions[3V], u32 indices[3T],
 * u16 surfaces[T], u8 walkable[T] (written by bench_python.py). Prints the best wall time of
 * RUNS saves in seconds; reading the arrays is not timed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_support.h"
#include "walkmesh.h"

static int read_exact(FILE *f, void *out, size_t size)
{
    return fread(out, 1, size, f) == size;
}

static int load(const char *path, wm_ctx *ctx, wm_mesh *mesh)
{
    FILE *f = fopen(path, "rb");
    uint32_t counts[2];
    if (!f || !read_exact(f, counts, sizeof counts)) return 0;
    wm_mesh_init(mesh);
    if (wm_mesh_reserve(ctx, mesh, counts[0], counts[1])) return 0;
    int ok = read_exact(f, mesh->positions, (size_t)counts[0] * 3 * sizeof(float)) &&
             read_exact(f, mesh->indices, (size_t)counts[1] * 3 * sizeof(uint32_t)) &&
             read_exact(f, mesh->surfaces, (size_t)counts[1] * sizeof(uint16_t)) &&
             read_exact(f, mesh->walkable, counts[1]);
    fclose(f);
    mesh->vertex_count = counts[0];
    mesh->triangle_count = counts[1];
    memset(mesh->objects, 0, (size_t)counts[1] * sizeof(uint16_t));
    for (size_t i = 0; i < (size_t)counts[1] * 3; i++) mesh->transitions[i] = WM_NO_TRANSITION;
    uint16_t object;
    return ok && wm_mesh_add_object(ctx, mesh, "bench", &object) == WM_OK;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: bench_wok_arrays MESH.bin OUT.wok RUNS\n");
        return 1;
    }
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_mesh mesh;
    if (!load(argv[1], &ctx, &mesh)) {
        fprintf(stderr, "%s: cannot read the arrays\n", argv[1]);
        return 2;
    }
    double best = 1e30;
    for (int run = 0; run < atoi(argv[3]); run++) {
        double start = bench_now();
        if (wm_mesh_save(&ctx, &mesh, argv[2], NULL, NULL, 1)) {
            fprintf(stderr, "%s\n", wm_ctx_message(&ctx));
            return 3;
        }
        double took = bench_now() - start;
        if (took < best) best = took;
    }
    printf("%.6f\n", best);
    wm_mesh_free(&ctx, &mesh);
    return 0;
}
