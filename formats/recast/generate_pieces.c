/* Walkable pieces: triangles joined through shared corners (after the weld). Recast keeps
 * every flat top an agent fits on (roofs, tables, the ground outside a room's walls);
 * a game room's walkmesh is the floor the player reaches, which in the corpus rooms is the
 * largest piece (FORMAT-NOTES §5: IoU 0.80 -> 0.93 keeping only it). */
#include "generate_internal.h"

#include <math.h>

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

wm_result generate_drop_pieces(wm_ctx *ctx, wm_mesh *m, float min_area, float keep_fraction, uint32_t *dropped)
{
    *dropped = 0;
    uint32_t *parent = wm_alloc_array(ctx, m->vertex_count ? m->vertex_count : 1, sizeof *parent);
    double *area = wm_alloc_array(ctx, m->vertex_count ? m->vertex_count : 1, sizeof *area);
    if (!parent || !area) {
        wm_free(ctx, parent), wm_free(ctx, area);
        return WM_ERR_NOMEM;
    }
    for (uint32_t v = 0; v < m->vertex_count; v++)
        parent[v] = v, area[v] = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        const uint32_t *i = m->indices + 3 * (size_t)t;
        uint32_t a = root_of(parent, i[0]);
        for (int k = 1; k < 3; k++) {
            uint32_t b = root_of(parent, i[k]);
            if (a != b)
                parent[b] = a;
        }
    }
    double largest = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        uint32_t r = root_of(parent, m->indices[3 * (size_t)t]);
        area[r] += triangle_area(m, t);
        largest = fmax(largest, area[r]);
    }
    double keep = fmax((double)min_area, largest * keep_fraction);
    uint32_t kept = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        if (area[root_of(parent, m->indices[3 * (size_t)t])] < keep) {
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
