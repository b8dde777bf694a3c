/* libFuzzer target for routes and reach over whatever a walkmesh reader accepts (a binary or
 * ASCII .wok, an NWN2 .trx ...): the walk graph is built and routes are asked between points the
 * bytes pick on its walkable faces (face centres, edge middles, corners), with and without a
 * radius, and reach from each; on a quarter of the inputs the last three again with landmarks.
 * Folded, flat, pinched and stacked faces must give an answer or a clear error in bounded time,
 * never a crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "walkmesh.h"

static void quiet(void *user, const char *message)
{
    (void)user;
    (void)message;
}

/* A point of face t: its centre (kind 0), the middle of an edge (1) or a corner (2). */
static void point_on(const wm_mesh *m, uint32_t t, unsigned kind, float out[3])
{
    const float *p[3];
    for (int k = 0; k < 3; k++)
        p[k] = m->positions + 3 * (size_t)m->indices[3 * (size_t)t + k];
    for (int c = 0; c < 3; c++)
        out[c] = kind == 0 ? (p[0][c] + p[1][c] + p[2][c]) / 3 : kind == 1 ? (p[0][c] + p[1][c]) / 2 : p[2][c];
}

static uint32_t walkable_face(const wm_mesh *m, uint32_t pick)
{
    uint32_t count = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++)
        count += m->walkable[t] != 0;
    if (!count)
        return UINT32_MAX;
    pick %= count;
    for (uint32_t t = 0; t < m->triangle_count; t++)
        if (m->walkable[t] && pick-- == 0)
            return t;
    return UINT32_MAX;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.warn = quiet;
    ctx.limits.max_triangles = 1u << 12; /* each search stays short */
    wm_mesh mesh;
    if (wm_mesh_load_memory(&ctx, data, size, "fuzz.wok", NULL, NULL, &mesh) != WM_OK)
        return 0;
    wm_walk_graph *graph = NULL;
    if (wm_walk_graph_build(&ctx, &mesh, 1, &graph) == WM_OK) {
        uint32_t hash = 2166136261u;
        for (size_t i = 0; i < size; i++)
            hash = (hash ^ data[i]) * 16777619u;
        int landmarks = (hash & 3) == 0;
        for (unsigned q = 0; q < 6 + 3u * landmarks; q++, hash = hash * 1664525u + 1013904223u) {
            if (q == 6 && wm_walk_graph_add_landmarks(&ctx, graph, 2) != WM_OK)
                break;
            uint32_t a = walkable_face(&mesh, hash >> 8), b = walkable_face(&mesh, hash >> 20);
            if (a == UINT32_MAX || b == UINT32_MAX)
                break;
            float from[3], to[3];
            point_on(&mesh, a, q % 3, from);
            point_on(&mesh, b, (q + 1) % 3, to);
            wm_route_options options = {1, (int)(q & 1), q >= 3 ? 0.25f : 0};
            wm_route route;
            if (wm_route_find(&ctx, graph, from, to, &options, &route) == WM_OK)
                wm_route_free(&ctx, &route);
            wm_reach reach;
            if (wm_reach_find(&ctx, graph, from, 1, &reach) == WM_OK)
                wm_reach_free(&ctx, &reach);
        }
        wm_walk_graph_free(&ctx, graph);
    }
    wm_mesh_free(&ctx, &mesh);
    return 0;
}
