/* The compact walkmesh's records (nwn2_compact.h): each triangle and edge as
 * the model would hold it, made when it is laid out. */
#include "nwn2_compact.h"
#include "nwn2_tiles.h"

#include <math.h>
#include <string.h>

void nwn2_compact_free(wm_ctx *ctx, nwn2_compact *c)
{
    wm_free(ctx, c->tv);
    wm_free(ctx, c->order);
    wm_free(ctx, c->tedge);
    wm_free(ctx, c->flags);
    wm_free(ctx, c->edge_tri);
    wm_free(ctx, c->origin);
    wm_free(ctx, c->old);
    memset(c, 0, sizeof *c);
}

void nwn2_compact_verts(const nwn2_compact *c, uint32_t t, uint32_t v[3])
{
    if (c->tv) {
        memcpy(v, &c->tv[3 * (size_t)t], 3 * sizeof *v);
        return;
    }
    const uint32_t *ix = &c->indices[3 * (size_t)c->order[t]];
    v[0] = ix[0];
    v[1] = ix[c->clockwise ? 2 : 1];
    v[2] = ix[c->clockwise ? 1 : 2];
}

void nwn2_compact_triangle(const nwn2_compact *c, uint32_t t, nwn2_triangle *out)
{
    const uint32_t *edge = &c->tedge[3 * (size_t)t], *v = out->v;
    nwn2_compact_verts(c, t, out->v);
    memcpy(out->edge, edge, sizeof out->edge);
    for (int k = 0; k < 3; k++) {
        const uint32_t *et = &c->edge_tri[2 * (size_t)edge[k]];
        out->neighbour[k] = et[0] == t ? et[1] : et[0];
    }
    out->island = NWN2_NO_ISLAND;
    out->flags = c->flags[t];
    const uint32_t origin = c->origin ? c->origin[t] : NWN2_NONE32;
    if (origin != NWN2_NONE32) {
        const nwn2_triangle *old = &c->old[origin];
        memcpy(out->centre, old->centre, sizeof out->centre);
        memcpy(out->normal, old->normal, sizeof out->normal);
        out->d = old->d;
        return;
    }
    nwn2_geometry_of(c->positions, c->vertex_count, v, out->flags, out->centre, out->normal, &out->d);
    /* the toolset's centre (the bake's path costs are measured between centres) */
    nwn2_toolset_centre(&c->positions[3 * (size_t)v[0]], &c->positions[3 * (size_t)v[1]],
                        &c->positions[3 * (size_t)v[2]], out->centre);
}

/* Edge numbers grow with (low, high), and a triangle's edges are stored
 * ascending: its k-th edge is its k-th side in (low, high) order (sides of
 * one triangle on the same pair have the same ends either way). */
void nwn2_compact_edge(const nwn2_compact *c, uint32_t e, nwn2_edge *out)
{
    const uint32_t t = c->edge_tri[2 * (size_t)e], *edge = &c->tedge[3 * (size_t)t];
    uint32_t v[3];
    nwn2_compact_verts(c, t, v);
    uint64_t side[3];
    for (int k = 0; k < 3; k++) {
        const uint32_t p = v[k], q = v[(k + 1) % 3];
        side[k] = p < q ? (uint64_t)p << 32 | q : (uint64_t)q << 32 | p;
    }
    for (int i = 1; i < 3; i++)
        for (int k = i; k > 0 && side[k - 1] > side[k]; k--) {
            const uint64_t x = side[k];
            side[k] = side[k - 1];
            side[k - 1] = x;
        }
    const int k = edge[0] == e ? 0 : edge[1] == e ? 1 : 2;
    out->v[0] = (uint32_t)(side[k] >> 32);
    out->v[1] = (uint32_t)side[k];
    out->tri[0] = t;
    out->tri[1] = c->edge_tri[2 * (size_t)e + 1];
}

wm_result nwn2_compact_expand(wm_ctx *ctx, nwn2_compact *c, nwn2_aswm *a)
{
    const size_t nv = (size_t)c->vertex_count * 3;
    a->vertices = wm_realloc_array(ctx, NULL, nv ? nv : 1, sizeof *a->vertices);
    a->triangles = wm_realloc_array(ctx, NULL, c->triangle_count ? c->triangle_count : 1, sizeof *a->triangles);
    a->edges = wm_realloc_array(ctx, NULL, c->edge_count ? c->edge_count : 1, sizeof *a->edges);
    if (!a->vertices || !a->triangles || !a->edges) {
        nwn2_compact_free(ctx, c);
        return WM_ERR_NOMEM;
    }
    if (nv)
        memcpy(a->vertices, c->positions, nv * sizeof *a->vertices);
    for (uint32_t t = 0; t < c->triangle_count; t++) {
        memset(&a->triangles[t], 0, sizeof a->triangles[t]);
        nwn2_compact_triangle(c, t, &a->triangles[t]);
    }
    for (uint32_t e = 0; e < c->edge_count; e++)
        nwn2_compact_edge(c, e, &a->edges[e]);
    a->vertex_count = c->vertex_count;
    a->triangle_count = c->triangle_count;
    a->edge_count = c->edge_count;
    nwn2_compact_free(ctx, c);
    return WM_OK;
}

void nwn2_geometry_of(const float *vertices, uint32_t vertex_count, const uint32_t v[3], uint16_t flags,
                      float centre[2], float normal[3], float *d)
{
    double p[3][3];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            p[i][k] = v[i] < vertex_count ? vertices[3 * (size_t)v[i] + k] : 0.0;
    double u[3], w[3], n[3];
    for (int k = 0; k < 3; k++) {
        u[k] = p[1][k] - p[0][k];
        w[k] = p[2][k] - p[0][k];
    }
    n[0] = u[1] * w[2] - u[2] * w[1];
    n[1] = u[2] * w[0] - u[0] * w[2];
    n[2] = u[0] * w[1] - u[1] * w[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double sign = (flags & NWN2_TRI_CLOCKWISE) ? -1.0 : 1.0;
    for (int k = 0; k < 3; k++)
        n[k] = len > 0.0 ? sign * n[k] / len : (k == 0 ? 1.0 : 0.0); /* the toolset's placeholder */
    centre[0] = (float)((p[0][0] + p[1][0] + p[2][0]) / 3.0);
    centre[1] = (float)((p[0][1] + p[1][1] + p[2][1]) / 3.0);
    for (int k = 0; k < 3; k++)
        normal[k] = (float)n[k];
    *d = (float)-(n[0] * p[0][0] + n[1] * p[0][1] + n[2] * p[0][2]);
}
