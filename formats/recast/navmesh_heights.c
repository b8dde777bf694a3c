/* Recast puts a polygon corner at the highest floor of the four voxel columns around it, so
 * on a slope a corner floats above the ground by up to a cell's rise plus a cell height
 * (0.27 yd cells on a 55 degree slope: 0.8 yd), and Detour's route corners with it. Here each
 * corner is lowered onto the walkable triangle right under it (the highest one at most a cell
 * height above the corner), rounded up to the next cell height: never below the ground,
 * less than one cell height above it. Without a walkable triangle there (Recast's filter of
 * low-hanging obstacles makes the top of a steep face within the climb of a floor walkable)
 * the highest triangle of any slope is taken; with none at all the corner keeps its height. */
#include "navmesh_heights.h"

#include <math.h>
#include <string.h>

#define GRID 16 /* buckets along each side of a tile */

typedef struct bucket_grid {
    float x0, z0, cell_x, cell_z;
    uint32_t first[GRID * GRID + 1];
    int *members;
} bucket_grid;

static void triangle_box(const float *verts, const int *tri, float lo[2], float hi[2])
{
    lo[0] = lo[1] = INFINITY, hi[0] = hi[1] = -INFINITY;
    for (int k = 0; k < 3; k++) {
        const float *v = verts + 3 * tri[k];
        lo[0] = fminf(lo[0], v[0]), hi[0] = fmaxf(hi[0], v[0]);
        lo[1] = fminf(lo[1], v[2]), hi[1] = fmaxf(hi[1], v[2]);
    }
}

static int clamp_cell(float at, float origin, float cell)
{
    float c = floorf((at - origin) / cell);
    return c < 0 ? 0 : c >= GRID ? GRID - 1 : (int)c;
}

/* Triangles by the buckets they overlap (two passes: count, fill). */
static wm_result fill_grid(wm_ctx *ctx, const settle_input *in, bucket_grid *g)
{
    uint32_t fill[GRID * GRID];
    memset(g->first, 0, sizeof g->first);
    for (int pass = 0; pass < 2; pass++) {
        for (int t = 0; t < in->tri_count; t++) {
            float lo[2], hi[2];
            triangle_box(in->verts, in->tris + 3 * t, lo, hi);
            int x0 = clamp_cell(lo[0], g->x0, g->cell_x), x1 = clamp_cell(hi[0], g->x0, g->cell_x);
            int z0 = clamp_cell(lo[1], g->z0, g->cell_z), z1 = clamp_cell(hi[1], g->z0, g->cell_z);
            for (int z = z0; z <= z1; z++)
                for (int x = x0; x <= x1; x++) {
                    if (pass == 0)
                        g->first[z * GRID + x + 1]++;
                    else
                        g->members[fill[z * GRID + x]++] = t;
                }
        }
        if (pass == 0) {
            for (int i = 0; i < GRID * GRID; i++)
                g->first[i + 1] += g->first[i];
            memcpy(fill, g->first, sizeof fill);
            g->members = wm_alloc_array(ctx, g->first[GRID * GRID] + 1, sizeof *g->members);
            if (!g->members)
                return WM_ERR_NOMEM;
        }
    }
    return WM_OK;
}

/* The height of triangle t at (x, z), when (x, z) is in it or within a cell of it (a corner sits
 * on the cells' grid, the floor may end a little short of it). */
static int height_at(const settle_input *in, int t, float x, float z, float slack, float *y)
{
    const float *a = in->verts + 3 * in->tris[3 * t], *b = in->verts + 3 * in->tris[3 * t + 1],
                *c = in->verts + 3 * in->tris[3 * t + 2];
    double ux = b[0] - a[0], uz = b[2] - a[2], vx = c[0] - a[0], vz = c[2] - a[2];
    double det = ux * vz - uz * vx;
    if (fabs(det) < 1e-12)
        return 0;
    double wx = x - a[0], wz = z - a[2];
    double s = (wx * vz - wz * vx) / det, u = (ux * wz - uz * wx) / det, r = 1 - s - u;
    double tolerance = slack / (sqrt(ux * ux + uz * uz) + sqrt(vx * vx + vz * vz) + 1e-9);
    if (s < -tolerance || u < -tolerance || r < -tolerance)
        return 0;
    *y = (float)(r * a[1] + s * b[1] + u * c[1]);
    return 1;
}

static void settle_vertex(const settle_input *in, const bucket_grid *g, const wmrc_polymesh *pm, unsigned short *v)
{
    float x = pm->bmin[0] + v[0] * pm->cs, y = pm->bmin[1] + v[1] * pm->ch, z = pm->bmin[2] + v[2] * pm->cs;
    int cell = clamp_cell(z, g->z0, g->cell_z) * GRID + clamp_cell(x, g->x0, g->cell_x);
    float best = -INFINITY, best_any = -INFINITY;
    for (uint32_t m = g->first[cell]; m < g->first[cell + 1]; m++) {
        float h;
        int t = g->members[m];
        if (!height_at(in, t, x, z, pm->cs, &h) || h > y + pm->ch)
            continue;
        best_any = h > best_any ? h : best_any;
        best = in->areas[t] && h > best ? h : best;
    }
    if (best == -INFINITY)
        best = best_any;
    if (best == -INFINITY)
        return;
    float cells = ceilf((best - pm->bmin[1]) / pm->ch - 1e-4f);
    if (cells >= 0 && cells < v[1])
        v[1] = (unsigned short)cells;
}

wm_result navmesh_settle_vertices(wm_ctx *ctx, const settle_input *in, const wmrc_polymesh *pm)
{
    bucket_grid g;
    g.x0 = pm->bmin[0], g.z0 = pm->bmin[2];
    g.cell_x = (pm->bmax[0] - pm->bmin[0]) / GRID, g.cell_z = (pm->bmax[2] - pm->bmin[2]) / GRID;
    if (!(g.cell_x > 0) || !(g.cell_z > 0))
        return WM_OK;
    g.members = NULL;
    wm_result r = fill_grid(ctx, in, &g);
    for (int i = 0; i < pm->vert_count && !r; i++)
        settle_vertex(in, &g, pm, pm->verts + 3 * i);
    wm_free(ctx, g.members);
    return r;
}
