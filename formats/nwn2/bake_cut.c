/* Walkmesh cutters: the mesh is split along the line of every polygon edge
 * (the whole line, so every split point lies on an edge shared by both of
 * its triangles and the mesh stays watertight), then every piece whose
 * centre lies inside the polygon is removed. */
#include "bake_split.h"

#include <math.h>

void nwn2_cutter_set_free(const wm_ctx *ctx, nwn2_cutter_set *set)
{
    if (set->cutters)
        for (uint32_t i = 0; i < set->count; i++)
            wm_free(ctx, set->cutters[i].points);
    wm_free(ctx, set->cutters);
    set->cutters = NULL;
    set->count = 0;
}

/* Even-odd rule. */
static int inside_polygon(const nwn2_cutter *c, double x, double y)
{
    int in = 0;
    for (uint32_t i = 0, j = c->point_count - 1; i < c->point_count; j = i++) {
        double xi = c->points[2 * i], yi = c->points[2 * i + 1];
        double xj = c->points[2 * j], yj = c->points[2 * j + 1];
        if ((yi > y) != (yj > y) && x < xj + (y - yj) * (xi - xj) / (yi - yj))
            in = !in;
    }
    return in;
}

wm_result nwn2_bake_cut(wm_ctx *ctx, nwn2_aswm *a, const nwn2_cutter_set *cutters, uint32_t *added,
                        uint32_t *removed)
{
    bake_splitter s;
    bake_splitter_init(&s);
    wm_result r = WM_OK;
    for (uint32_t ci = 0; ci < cutters->count && !r; ci++) {
        const nwn2_cutter *c = &cutters->cutters[ci];
        if (c->point_count < 3)
            continue;
        for (uint32_t i = 0; i < c->point_count && !r; i++) {
            uint32_t j = (i + 1) % c->point_count;
            double x0 = c->points[2 * i], y0 = c->points[2 * i + 1];
            double dx = c->points[2 * j] - x0, dy = c->points[2 * j + 1] - y0;
            double len = sqrt(dx * dx + dy * dy);
            if (!(len > 1e-6) || !isfinite(len))
                continue;
            bake_line l = {-dy / len, dx / len, 0.0, -1};
            l.c = l.nx * x0 + l.ny * y0;
            r = bake_split_line(ctx, &s, a, &l, added);
        }
    }
    bake_splitter_free(ctx, &s);
    if (r)
        return r;
    uint32_t n = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        float centre[2];
        const uint32_t *v = a->triangles[t].v;
        nwn2_bake_centre(&a->vertices[3 * v[0]], &a->vertices[3 * v[1]], &a->vertices[3 * v[2]], centre);
        int cut = 0;
        for (uint32_t ci = 0; ci < cutters->count && !cut; ci++)
            cut = cutters->cutters[ci].point_count >= 3 && inside_polygon(&cutters->cutters[ci], centre[0], centre[1]);
        if (cut)
            (*removed)++;
        else
            a->triangles[n++] = a->triangles[t];
    }
    a->triangle_count = n;
    return WM_OK;
}
