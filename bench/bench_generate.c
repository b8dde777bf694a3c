/* Walkmesh generation benchmark (run by hand, from a release build):
 *   bench_generate [ROOM.mdl ...]
 * A 100,000-triangle render room (a 60 x 40 floor in 50,000 triangles, walls, and 200 crates
 * of 250 triangles each) and any room models given: wm_generate against the Recast step alone
 * (wm_navmesh_build with the parameters wm_generate hands it), best of 5 each, side by side with
 * the ratio (goal: generate <= 1.5 x Recast, <= 1 s at 100,000 triangles), and the library's
 * peak heap during a generation per input triangle (counted by the context's allocator; Recast's
 * own allocations are in the module and not counted). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_support.h"
#include "walkmesh.h"

#define RUNS 5

typedef struct heap_count {
    size_t now, peak;
} heap_count;

/* Each block carries its size in front of it, so frees can be counted. */
static void *counting_realloc(void *user, void *ptr, size_t size)
{
    heap_count *h = user;
    size_t *block = ptr ? (size_t *)ptr - 2 : NULL, old = block ? block[0] : 0;
    size_t *grown = realloc(block, size + 2 * sizeof(size_t));
    if (!grown)
        return NULL;
    grown[0] = size;
    h->now += size - old;
    h->peak = h->now > h->peak ? h->now : h->peak;
    return grown + 2;
}

static void counting_free(void *user, void *ptr)
{
    if (!ptr)
        return;
    heap_count *h = user;
    size_t *block = (size_t *)ptr - 2;
    h->now -= block[0];
    free(block);
}

static void add_box(wm_ctx *ctx, wm_mesh *m, float x, float y, float z, float sx, float sy, float sz, int steps)
{
    /* a box's top split into steps x steps quads, its four sides one quad each */
    uint32_t base = m->vertex_count;
    for (int j = 0; j <= steps; j++)
        for (int i = 0; i <= steps; i++)
            wm_mesh_add_vertex(ctx, m, x + sx * i / steps, y + sy * j / steps, z + sz, NULL);
    for (int j = 0; j < steps; j++)
        for (int i = 0; i < steps; i++) {
            uint32_t a = base + (uint32_t)(j * (steps + 1) + i), b = a + 1, c = a + (uint32_t)steps + 1, d = c + 1;
            wm_mesh_add_triangle(ctx, m, a, b, d, 4, 1);
            wm_mesh_add_triangle(ctx, m, a, d, c, 4, 1);
        }
    float cx[4] = {x, x + sx, x + sx, x}, cy[4] = {y, y, y + sy, y + sy};
    for (int s = 0; s < 4; s++) {
        uint32_t a, b, c, d;
        wm_mesh_add_vertex(ctx, m, cx[s], cy[s], z, &a);
        wm_mesh_add_vertex(ctx, m, cx[(s + 1) % 4], cy[(s + 1) % 4], z, &b);
        wm_mesh_add_vertex(ctx, m, cx[(s + 1) % 4], cy[(s + 1) % 4], z + sz, &c);
        wm_mesh_add_vertex(ctx, m, cx[s], cy[s], z + sz, &d);
        wm_mesh_add_triangle(ctx, m, a, b, c, 7, 0);
        wm_mesh_add_triangle(ctx, m, a, c, d, 7, 0);
    }
}

static void make_room(wm_ctx *ctx, wm_mesh *m)
{
    wm_mesh_init(m);
    add_box(ctx, m, 0, 0, -0.2f, 60, 40, 0.2f, 158); /* the floor: 2 * 158^2 = 49,928 triangles */
    add_box(ctx, m, -1, -1, 0, 1, 42, 4, 1);         /* walls */
    add_box(ctx, m, 60, -1, 0, 1, 42, 4, 1);
    add_box(ctx, m, 0, -1, 0, 60, 1, 4, 1);
    add_box(ctx, m, 0, 40, 0, 60, 1, 4, 1);
    for (int k = 0; k < 200; k++) /* crates, 242 triangles each */
        add_box(ctx, m, 2.0f + (k % 20) * 2.8f, 2.0f + (k / 20) * 3.6f, 0, 1.2f, 1.2f, 1.0f, 11);
}

static void bench(wm_ctx *ctx, heap_count *heap, const char *name, const wm_mesh *m)
{
    wm_generate_config g;
    wm_generate_config_game(ctx, "kotor", &g);
    wm_navmesh_config n;
    wm_generate_navmesh_config(&g, &n);
    double ours = INFINITY, recast = INFINITY;
    wm_generate_stats stats;
    size_t peak = 0;
    for (int run = 0; run < RUNS; run++) {
        double start = bench_now();
        wm_navmesh nav;
        if (wm_navmesh_build(ctx, m, &n, &nav)) {
            fprintf(stderr, "bench_generate: %s: %s\n", name, wm_ctx_message(ctx));
            exit(1);
        }
        recast = fmin(recast, bench_now() - start);
        wm_navmesh_free(ctx, &nav);
        heap->peak = heap->now;
        size_t before = heap->now;
        start = bench_now();
        wm_mesh out;
        if (wm_generate(ctx, m, &g, &out, &stats)) {
            fprintf(stderr, "bench_generate: %s: %s\n", name, wm_ctx_message(ctx));
            exit(1);
        }
        ours = fmin(ours, bench_now() - start);
        peak = heap->peak - before;
        wm_mesh_free(ctx, &out);
    }
    printf("%-28s %7u triangles -> %5u faces: generate %7.1f ms | Recast step alone %7.1f ms | ratio %.2f | "
           "heap %.0f bytes a triangle\n",
           name, m->triangle_count, stats.faces, ours * 1e3, recast * 1e3, ours / recast,
           (double)peak / m->triangle_count);
}

int main(int argc, char **argv)
{
    heap_count heap = {0, 0};
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.alloc.realloc_fn = counting_realloc, ctx.alloc.free_fn = counting_free, ctx.alloc.user = &heap;
    wm_mesh room;
    make_room(&ctx, &room);
    bench(&ctx, &heap, "synthetic room", &room);
    wm_mesh_free(&ctx, &room);
    for (int i = 1; i < argc; i++) {
        wm_options opts;
        wm_options_init(&opts);
        wm_option_set(&ctx, &opts, "geometry", "render");
        wm_mesh m;
        if (wm_mesh_load(&ctx, argv[i], NULL, &opts, &m)) {
            fprintf(stderr, "bench_generate: %s\n", wm_ctx_message(&ctx));
            return 1;
        }
        const char *slash = strrchr(argv[i], '/');
        bench(&ctx, &heap, slash ? slash + 1 : argv[i], &m);
        wm_mesh_free(&ctx, &m);
    }
    printf("peak RSS %ld KiB\n", bench_peak_rss_kb());
    return 0;
}
