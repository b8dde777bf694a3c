/* Derived ASWM data recomputed from vertices and triangle vertex indices:
 * edges and neighbours, centres, normals and plane distances. */
#include "nwn2.h"

#include <math.h>
#include <stdlib.h>

typedef struct side_key {
    uint32_t lo, hi; /* vertex pair, ordered */
    uint32_t code;   /* triangle*3 + side */
} side_key;

static int side_cmp(const void *pa, const void *pb)
{
    const side_key *a = pa, *b = pb;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    return (a->code > b->code) - (a->code < b->code);
}

wm_result nwn2_aswm_rebuild_edges(wm_ctx *ctx, nwn2_aswm *a)
{
    uint64_t sides64 = (uint64_t)a->triangle_count * 3;
    if (sides64 > UINT32_MAX - 1)
        return wm_error(ctx, WM_ERR_LIMIT, "ASWM: %u triangles are too many for edge codes", a->triangle_count);
    uint32_t sides = (uint32_t)sides64;
    side_key *keys = wm_alloc_array(ctx, sides ? sides : 1, sizeof *keys);
    uint32_t *partner = wm_alloc_array(ctx, sides ? sides : 1, sizeof *partner);
    uint32_t *edge_of = wm_alloc_array(ctx, sides ? sides : 1, sizeof *edge_of);
    nwn2_edge *edges = wm_alloc_array(ctx, sides ? sides : 1, sizeof *edges);
    wm_result r = WM_OK;
    if (!keys || !partner || !edge_of || !edges) {
        r = WM_ERR_NOMEM;
        goto done;
    }
    for (uint32_t c = 0; c < sides; c++) {
        const nwn2_triangle *t = &a->triangles[c / 3];
        uint32_t p = t->v[c % 3], q = t->v[(c % 3 + 1) % 3];
        keys[c].lo = p < q ? p : q;
        keys[c].hi = p < q ? q : p;
        keys[c].code = c;
        partner[c] = NWN2_NONE32;
    }
    qsort(keys, sides, sizeof *keys, side_cmp);
    /* Within a run of equal pairs (in triangle order) each side joins the
     * earliest edge that still has a free side: pair them two by two. */
    for (uint32_t i = 0; i + 1 < sides;) {
        if (keys[i].lo == keys[i + 1].lo && keys[i].hi == keys[i + 1].hi) {
            partner[keys[i].code] = keys[i + 1].code;
            partner[keys[i + 1].code] = keys[i].code;
            i += 2;
        } else {
            i++;
        }
    }
    uint32_t count = 0;
    for (uint32_t c = 0; c < sides; c++) {
        if (partner[c] != NWN2_NONE32 && partner[c] < c)
            continue; /* joined an earlier edge */
        const nwn2_triangle *t = &a->triangles[c / 3];
        nwn2_edge *e = &edges[count];
        e->v[0] = t->v[c % 3];
        e->v[1] = t->v[(c % 3 + 1) % 3];
        e->tri[0] = c / 3;
        e->tri[1] = partner[c] == NWN2_NONE32 ? NWN2_NONE32 : partner[c] / 3;
        edge_of[c] = count;
        if (partner[c] != NWN2_NONE32)
            edge_of[partner[c]] = count;
        count++;
    }
    for (uint32_t c = 0; c < sides; c++) {
        nwn2_triangle *t = &a->triangles[c / 3];
        t->edge[c % 3] = edge_of[c];
        t->neighbour[c % 3] = partner[c] == NWN2_NONE32 ? NWN2_NONE32 : partner[c] / 3;
    }
    nwn2_edge *shrunk = wm_realloc_array(ctx, edges, count ? count : 1, sizeof *edges);
    if (shrunk)
        edges = shrunk;
    wm_free(ctx, a->edges);
    a->edges = edges;
    a->edge_count = count;
    edges = NULL;
done:
    wm_free(ctx, keys);
    wm_free(ctx, partner);
    wm_free(ctx, edge_of);
    wm_free(ctx, edges);
    return r;
}

double nwn2_triangle_sliver(const nwn2_aswm *a, uint32_t t)
{
    const nwn2_triangle *tri = &a->triangles[t];
    double p[3][3], longest = 0.0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            p[i][k] = tri->v[i] < a->vertex_count ? a->vertices[3 * (size_t)tri->v[i] + k] : 0.0;
    double u[3], w[3];
    for (int k = 0; k < 3; k++) {
        u[k] = p[1][k] - p[0][k];
        w[k] = p[2][k] - p[0][k];
    }
    for (int i = 0; i < 3; i++) {
        double e = 0.0;
        for (int k = 0; k < 3; k++)
            e += (p[(i + 1) % 3][k] - p[i][k]) * (p[(i + 1) % 3][k] - p[i][k]);
        if (e > longest)
            longest = e;
    }
    double cx = u[1] * w[2] - u[2] * w[1], cy = u[2] * w[0] - u[0] * w[2], cz = u[0] * w[1] - u[1] * w[0];
    double len = sqrt(cx * cx + cy * cy + cz * cz);
    return longest > 0.0 ? len / longest : 0.0;
}

void nwn2_triangle_geometry(const nwn2_aswm *a, uint32_t t, float centre[2], float normal[3], float *d)
{
    const nwn2_triangle *tri = &a->triangles[t];
    double p[3][3];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            p[i][k] = tri->v[i] < a->vertex_count ? a->vertices[3 * (size_t)tri->v[i] + k] : 0.0;
    double u[3], w[3], n[3];
    for (int k = 0; k < 3; k++) {
        u[k] = p[1][k] - p[0][k];
        w[k] = p[2][k] - p[0][k];
    }
    n[0] = u[1] * w[2] - u[2] * w[1];
    n[1] = u[2] * w[0] - u[0] * w[2];
    n[2] = u[0] * w[1] - u[1] * w[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double sign = (tri->flags & NWN2_TRI_CLOCKWISE) ? -1.0 : 1.0;
    for (int k = 0; k < 3; k++)
        n[k] = len > 0.0 ? sign * n[k] / len : (k == 0 ? 1.0 : 0.0); /* the toolset's placeholder */
    centre[0] = (float)((p[0][0] + p[1][0] + p[2][0]) / 3.0);
    centre[1] = (float)((p[0][1] + p[1][1] + p[2][1]) / 3.0);
    for (int k = 0; k < 3; k++)
        normal[k] = (float)n[k];
    *d = (float)-(n[0] * p[0][0] + n[1] * p[0][1] + n[2] * p[0][2]);
}

void nwn2_aswm_recompute_geometry(nwn2_aswm *a)
{
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        nwn2_triangle *tri = &a->triangles[t];
        nwn2_triangle_geometry(a, t, tri->centre, tri->normal, &tri->d);
    }
}
