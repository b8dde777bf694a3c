/* Which upward-facing collision triangles are roofs: a walkable-by-slope
 * triangle with another one under its centre, at least ROOF_CLEARANCE lower.
 * Seen from above, a roof hides the floors of the rooms under it, so the
 * picture cuts it away. A uniform grid over the floors keeps this near
 * linear; the work is capped, so a hostile file cannot make it quadratic
 * (triangles past the cap are left as floors). */
#include "wmo/wmo.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define ROOF_CLEARANCE 2.0f     /* yards: about a person's height */
#define GRID_MAX 512u           /* cells per side */
#define CELLS_PER_TRIANGLE 4096 /* a larger triangle is indexed in its centre cell only */
#define MAX_TESTS 20000000ull   /* point-in-triangle tests in all */

typedef struct roof_grid {
    float x0, y0, cell;
    uint32_t side;
    uint32_t *start, *items; /* items of cell c: items[start[c] .. start[c + 1]) */
} roof_grid;

static const float *corner(const wm_mesh *m, uint32_t t, int k)
{
    return m->positions + 3 * (size_t)m->indices[3 * (size_t)t + k];
}

static void cell_range(const roof_grid *g, const wm_mesh *m, uint32_t t, uint32_t lo[2], uint32_t hi[2])
{
    for (int a = 0; a < 2; a++) {
        float mn = FLT_MAX, mx = -FLT_MAX, origin = a ? g->y0 : g->x0;
        for (int k = 0; k < 3; k++) {
            mn = fminf(mn, corner(m, t, k)[a]);
            mx = fmaxf(mx, corner(m, t, k)[a]);
        }
        double l = floor((mn - origin) / g->cell), h = floor((mx - origin) / g->cell);
        lo[a] = l < 0 ? 0 : l >= g->side ? g->side - 1 : (uint32_t)l;
        hi[a] = h < 0 ? 0 : h >= g->side ? g->side - 1 : (uint32_t)h;
    }
    if ((uint64_t)(hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) > CELLS_PER_TRIANGLE) {
        lo[0] = hi[0] = (lo[0] + hi[0]) / 2;
        lo[1] = hi[1] = (lo[1] + hi[1]) / 2;
    }
}

/* Two passes over the floors: count per cell, then fill. */
static wm_result build_grid(wm_ctx *ctx, const wm_mesh *m, const uint8_t *is_floor, uint32_t floors, roof_grid *g)
{
    float lo[2] = {FLT_MAX, FLT_MAX}, hi[2] = {-FLT_MAX, -FLT_MAX};
    for (uint32_t t = 0; t < m->triangle_count; t++)
        for (int k = 0; is_floor[t] && k < 3; k++)
            for (int a = 0; a < 2; a++) {
                lo[a] = fminf(lo[a], corner(m, t, k)[a]);
                hi[a] = fmaxf(hi[a], corner(m, t, k)[a]);
            }
    double side = ceil(sqrt((double)floors));
    g->side = side < 1 ? 1 : side > GRID_MAX ? GRID_MAX : (uint32_t)side;
    g->x0 = lo[0];
    g->y0 = lo[1];
    g->cell = fmaxf(fmaxf(hi[0] - lo[0], hi[1] - lo[1]) / (float)g->side, 1e-3f);
    if (!isfinite(g->cell))
        return WM_ERR_INVALID;
    size_t cells = (size_t)g->side * g->side;
    g->start = wm_alloc_array(ctx, cells + 1, sizeof *g->start);
    if (!g->start)
        return WM_ERR_NOMEM;
    uint64_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t t = 0; t < m->triangle_count; t++) {
            uint32_t a[2], b[2];
            if (!is_floor[t])
                continue;
            cell_range(g, m, t, a, b);
            for (uint32_t y = a[1]; y <= b[1]; y++)
                for (uint32_t x = a[0]; x <= b[0]; x++) {
                    size_t c = (size_t)y * g->side + x;
                    if (pass == 0)
                        g->start[c + 1]++, total++;
                    else
                        g->items[g->start[c]++] = t;
                }
        }
        if (pass == 0) {
            for (size_t c = 0; c < cells; c++)
                g->start[c + 1] += g->start[c];
            if (total > UINT32_MAX || !(g->items = wm_alloc_array(ctx, total ? (size_t)total : 1, sizeof *g->items)))
                return WM_ERR_NOMEM;
        }
    }
    for (size_t c = cells; c > 0; c--) /* the fill moved each start to the next cell's */
        g->start[c] = g->start[c - 1];
    g->start[0] = 0;
    return WM_OK;
}

/* Height of triangle t's plane at (x, y) when the point is inside it. */
static int height_under(const wm_mesh *m, uint32_t t, float x, float y, float *z)
{
    const float *a = corner(m, t, 0), *b = corner(m, t, 1), *c = corner(m, t, 2);
    double d = ((double)b[1] - c[1]) * ((double)a[0] - c[0]) + ((double)c[0] - b[0]) * ((double)a[1] - c[1]);
    if (fabs(d) < 1e-12)
        return 0;
    double u = (((double)b[1] - c[1]) * (x - c[0]) + ((double)c[0] - b[0]) * (y - c[1])) / d;
    double v = (((double)c[1] - a[1]) * (x - c[0]) + ((double)a[0] - c[0]) * (y - c[1])) / d;
    if (u < -1e-6 || v < -1e-6 || u + v > 1 + 1e-6)
        return 0;
    *z = (float)(u * a[2] + v * b[2] + (1 - u - v) * c[2]);
    return 1;
}

wm_result wmo_find_roofs(wm_ctx *ctx, const wm_mesh *m, const uint8_t *is_floor, uint8_t *roof)
{
    uint32_t floors = 0;
    memset(roof, 0, m->triangle_count);
    for (uint32_t t = 0; t < m->triangle_count; t++)
        floors += is_floor[t] != 0;
    if (floors < 2)
        return WM_OK;
    roof_grid g;
    memset(&g, 0, sizeof g);
    wm_result r = build_grid(ctx, m, is_floor, floors, &g);
    uint64_t tests = 0;
    for (uint32_t t = 0; !r && t < m->triangle_count && tests < MAX_TESTS; t++) {
        if (!is_floor[t])
            continue;
        float c[3];
        for (int k = 0; k < 3; k++)
            c[k] = (corner(m, t, 0)[k] + corner(m, t, 1)[k] + corner(m, t, 2)[k]) / 3.0f;
        double fx = floor((c[0] - g.x0) / g.cell), fy = floor((c[1] - g.y0) / g.cell);
        uint32_t x = fx < 0 ? 0 : fx >= g.side ? g.side - 1 : (uint32_t)fx;
        uint32_t y = fy < 0 ? 0 : fy >= g.side ? g.side - 1 : (uint32_t)fy;
        size_t cell = (size_t)y * g.side + x;
        for (uint32_t i = g.start[cell]; i < g.start[cell + 1] && !roof[t]; i++, tests++) {
            float z;
            uint32_t u = g.items[i];
            roof[t] = u != t && height_under(m, u, c[0], c[1], &z) && z < c[2] - ROOF_CLEARANCE;
        }
    }
    wm_free(ctx, g.start);
    wm_free(ctx, g.items);
    return r == WM_ERR_INVALID ? WM_OK : r; /* non-finite coordinates: no roofs found, nothing cut */
}
