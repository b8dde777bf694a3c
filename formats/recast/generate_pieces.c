/* Walkable pieces: triangles joined through shared edges (after the weld). Recast keeps
 * every flat top an agent fits on (roofs, tables, the ground outside a room's walls);
 * a game room's walkmesh is the floor the player reaches, which in the corpus rooms is the
 * largest piece (FORMAT-NOTES §5: IoU 0.80 -> 0.93 keeping only it). Edges, not corners:
 * two floors whose outlines touch at a corner are two pieces (on the 12 corpus rooms, median
 * IoU 0.918 -> 0.927: docs/generate.md). */
#include "generate_internal.h"

#include <math.h>
#include <stdlib.h>

static uint32_t root_of(uint32_t *parent, uint32_t v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]]; /* path halving keeps the walk short */
        v = parent[v];
    }
    return v;
}

static double triangle_area(const wm_mesh *m, uint32_t t)
{
    const uint32_t *i = m->indices + 3 * (size_t)t;
    const float *a = m->positions + 3 * (size_t)i[0], *b = m->positions + 3 * (size_t)i[1],
                *c = m->positions + 3 * (size_t)i[2];
    return 0.5 * fabs((double)(b[0] - a[0]) * (c[1] - a[1]) - (double)(c[0] - a[0]) * (b[1] - a[1]));
}

typedef struct edge_key {
    uint64_t corners; /* the lower corner's index above the higher's */
    uint32_t triangle;
} edge_key;

static int by_corners(const void *a, const void *b)
{
    uint64_t x = ((const edge_key *)a)->corners, y = ((const edge_key *)b)->corners;
    return (x > y) - (x < y);
}

/* Joins (in parent, over triangles) the triangles that share an edge. */
static wm_result join_edges(wm_ctx *ctx, const wm_mesh *m, uint32_t *parent)
{
    edge_key *edges = wm_alloc_array(ctx, 3 * (size_t)m->triangle_count + 1, sizeof *edges);
    if (!edges)
        return WM_ERR_NOMEM;
    size_t count = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        parent[t] = t;
        for (int k = 0; k < 3; k++) {
            uint64_t a = m->indices[3 * (size_t)t + k], b = m->indices[3 * (size_t)t + (k + 1) % 3];
            edges[count++] = (edge_key){a < b ? a << 32 | b : b << 32 | a, t};
        }
    }
    qsort(edges, count, sizeof *edges, by_corners);
    for (size_t i = 1; i < count; i++)
        if (edges[i].corners == edges[i - 1].corners) {
            uint32_t a = root_of(parent, edges[i - 1].triangle), b = root_of(parent, edges[i].triangle);
            if (a != b)
                parent[b] = a;
        }
    wm_free(ctx, edges);
    return WM_OK;
}

wm_result generate_drop_pieces(wm_ctx *ctx, wm_mesh *m, float min_area, float keep_fraction, uint32_t *dropped)
{
    *dropped = 0;
    uint32_t *parent = wm_alloc_array(ctx, (size_t)m->triangle_count + 1, sizeof *parent);
    double *area = wm_alloc_array(ctx, (size_t)m->triangle_count + 1, sizeof *area);
    wm_result r = parent && area ? join_edges(ctx, m, parent) : WM_ERR_NOMEM;
    if (r) {
        wm_free(ctx, parent), wm_free(ctx, area);
        return r;
    }
    for (uint32_t t = 0; t < m->triangle_count; t++)
        area[t] = 0;
    double largest = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        uint32_t root = root_of(parent, t);
        area[root] += triangle_area(m, t);
        largest = fmax(largest, area[root]);
    }
    double keep = fmax((double)min_area, largest * keep_fraction);
    uint32_t kept = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        if (area[root_of(parent, t)] < keep) {
            (*dropped)++;
            continue;
        }
        for (int k = 0; k < 3; k++)
            m->indices[3 * (size_t)kept + k] = m->indices[3 * (size_t)t + k];
        m->surfaces[kept] = m->surfaces[t], m->walkable[kept] = m->walkable[t], m->objects[kept] = m->objects[t];
        for (int k = 0; k < 3; k++)
            m->transitions[3 * (size_t)kept + k] = m->transitions[3 * (size_t)t + k];
        kept++;
    }
    m->triangle_count = kept;
    wm_free(ctx, parent), wm_free(ctx, area);
    return WM_OK;
}
