/* The cutter's triangle grid (see bake_grid.h). About two cells per
 * triangle, so a point or a short segment meets O(1) triangles and cutting
 * costs O(n log n) in the cutter's corners instead of a pass over every
 * triangle near the cutter per corner and per edge. */
#include "bake_grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A triangle over more cells than this is kept in the `large` list. */
#define MAX_CELLS_PER_TRIANGLE 64u
#define MAX_GRID_CELLS (1u << 22)

static uint32_t cell_of(double v, double origin, double inv_cell, uint32_t cells)
{
    double c = floor((v - origin) * inv_cell);
    if (!(c >= 0.0)) /* also NaN */
        return 0;
    return c >= (double)cells ? cells - 1 : (uint32_t)c;
}

static wm_result file_triangle(wm_ctx *ctx, bake_grid *g, const nwn2_aswm *a, uint32_t t)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 2; k++) {
            double v = a->vertices[3 * (size_t)a->triangles[t].v[i] + k];
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = v > hi[k] ? v : hi[k];
        }
    const uint32_t x0 = cell_of(lo[0], g->x0, g->inv_cell, g->nx), x1 = cell_of(hi[0], g->x0, g->inv_cell, g->nx);
    const uint32_t y0 = cell_of(lo[1], g->y0, g->inv_cell, g->ny), y1 = cell_of(hi[1], g->y0, g->inv_cell, g->ny);
    const uint64_t cells = (uint64_t)(x1 - x0 + 1) * (y1 - y0 + 1);
    if (cells > MAX_CELLS_PER_TRIANGLE) {
        if (bake_grow(ctx, (void **)&g->large, &g->large_capacity, g->large_count + 1, sizeof *g->large))
            return WM_ERR_NOMEM;
        g->large[g->large_count++] = t;
        return WM_OK;
    }
    if ((uint64_t)g->entry_count + cells > UINT32_MAX / 2)
        return wm_error(ctx, WM_ERR_LIMIT, "cutter grid: too many entries");
    if (bake_grow(ctx, (void **)&g->entries, &g->entry_capacity, g->entry_count + (uint32_t)cells, sizeof *g->entries))
        return WM_ERR_NOMEM;
    for (uint32_t y = y0; y <= y1; y++)
        for (uint32_t x = x0; x <= x1; x++) {
            uint32_t c = y * g->nx + x;
            g->entries[g->entry_count] = (bake_grid_entry){t, g->head[c]};
            g->head[c] = g->entry_count++;
        }
    return WM_OK;
}

wm_result bake_grid_add(wm_ctx *ctx, bake_grid *g, const nwn2_aswm *a, uint32_t first)
{
    for (uint32_t t = first; t < a->triangle_count; t++) {
        wm_result r = file_triangle(ctx, g, a, t);
        if (r)
            return r;
    }
    return WM_OK;
}

void bake_grid_extent(const nwn2_aswm *a, double lo[2], double hi[2])
{
    lo[0] = lo[1] = INFINITY;
    hi[0] = hi[1] = -INFINITY;
    for (uint32_t v = 0; v < a->vertex_count; v++)
        for (int k = 0; k < 2; k++) {
            double c = a->vertices[3 * (size_t)v + k];
            lo[k] = c < lo[k] ? c : lo[k];
            hi[k] = c > hi[k] ? c : hi[k];
        }
}

wm_result bake_grid_build(wm_ctx *ctx, bake_grid *g, const nwn2_aswm *a, const double lo_in[2],
                          const double hi_in[2], uint64_t cells, const bake_subset *only)
{
    memset(g, 0, sizeof *g);
    double lo[2] = {lo_in[0], lo_in[1]}, hi[2] = {hi_in[0], hi_in[1]};
    if (!(lo[0] <= hi[0]) || !(lo[1] <= hi[1]) || !isfinite(hi[0] - lo[0]) || !isfinite(hi[1] - lo[1]))
        lo[0] = lo[1] = hi[0] = hi[1] = 0.0;
    const double w = hi[0] - lo[0], h = hi[1] - lo[1];
    cells = cells < 16 ? 16 : cells > MAX_GRID_CELLS ? MAX_GRID_CELLS : cells;
    double cell = sqrt(w * h / (double)cells);
    double longest = w > h ? w : h;
    if (!(cell > longest / (double)cells))
        cell = longest / (double)cells; /* a flat extent: cells along its length */
    if (!(cell > 0.0))
        cell = 1.0;
    g->x0 = lo[0];
    g->y0 = lo[1];
    g->inv_cell = 1.0 / cell;
    double nx = floor(w / cell) + 1, ny = floor(h / cell) + 1;
    g->nx = nx > MAX_GRID_CELLS ? MAX_GRID_CELLS : (uint32_t)nx;
    g->ny = ny * g->nx > MAX_GRID_CELLS ? MAX_GRID_CELLS / g->nx : (uint32_t)ny;
    g->head = wm_realloc_array(ctx, NULL, (size_t)g->nx * g->ny, sizeof *g->head);
    if (!g->head)
        return WM_ERR_NOMEM;
    memset(g->head, 0xFF, (size_t)g->nx * g->ny * sizeof *g->head);
    if (!only)
        return bake_grid_add(ctx, g, a, 0);
    for (uint32_t i = 0; i < only->count; i++) {
        wm_result r = file_triangle(ctx, g, a, only->index[i]);
        if (r)
            return r;
    }
    return WM_OK;
}

static int ascending(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static void begin_query(bake_grid *g)
{
    g->found.count = 0;
}

static wm_result collect_cells(wm_ctx *ctx, bake_grid *g, uint32_t y, uint32_t x0, uint32_t x1)
{
    for (uint32_t x = x0; x <= x1; x++)
        for (uint32_t e = g->head[y * g->nx + x]; e != NWN2_NONE32; e = g->entries[e].next) {
            uint32_t t = g->entries[e].triangle;
            if (bake_grow(ctx, (void **)&g->found.index, &g->found.capacity, g->found.count + 1,
                          sizeof *g->found.index))
                return WM_ERR_NOMEM;
            g->found.index[g->found.count++] = t;
        }
    return WM_OK;
}

static wm_result end_query(wm_ctx *ctx, bake_grid *g)
{
    if (bake_grow(ctx, (void **)&g->found.index, &g->found.capacity, g->found.count + g->large_count,
                  sizeof *g->found.index))
        return WM_ERR_NOMEM;
    for (uint32_t i = 0; i < g->large_count; i++)
        g->found.index[g->found.count++] = g->large[i];
    if (g->found.count > 1)
        qsort(g->found.index, g->found.count, sizeof *g->found.index, ascending);
    uint32_t n = 0; /* a triangle filed in several cells is found once */
    for (uint32_t i = 0; i < g->found.count; i++)
        if (n == 0 || g->found.index[i] != g->found.index[n - 1])
            g->found.index[n++] = g->found.index[i];
    g->found.count = n;
    return WM_OK;
}

wm_result bake_grid_box(wm_ctx *ctx, bake_grid *g, const double lo[2], const double hi[2])
{
    begin_query(g);
    const uint32_t x0 = cell_of(lo[0], g->x0, g->inv_cell, g->nx), x1 = cell_of(hi[0], g->x0, g->inv_cell, g->nx);
    const uint32_t y0 = cell_of(lo[1], g->y0, g->inv_cell, g->ny), y1 = cell_of(hi[1], g->y0, g->inv_cell, g->ny);
    wm_result r = WM_OK;
    for (uint32_t y = y0; y <= y1 && !r; y++)
        r = collect_cells(ctx, g, y, x0, x1);
    return r ? r : end_query(ctx, g);
}

wm_result bake_grid_segment(wm_ctx *ctx, bake_grid *g, const double p[2], const double q[2], double pad)
{
    begin_query(g);
    const double ylo = (p[1] < q[1] ? p[1] : q[1]) - pad, yhi = (p[1] < q[1] ? q[1] : p[1]) + pad;
    const uint32_t y0 = cell_of(ylo, g->y0, g->inv_cell, g->ny), y1 = cell_of(yhi, g->y0, g->inv_cell, g->ny);
    const double cell = 1.0 / g->inv_cell;
    wm_result r = WM_OK;
    for (uint32_t y = y0; y <= y1 && !r; y++) {
        /* the segment's x extent within this row of cells (widened by pad) */
        double band_lo = g->y0 + y * cell - pad, band_hi = g->y0 + (y + 1) * cell + pad;
        double xa, xb;
        if (p[1] == q[1]) {
            xa = p[0];
            xb = q[0];
        } else {
            double ta = (band_lo - p[1]) / (q[1] - p[1]), tb = (band_hi - p[1]) / (q[1] - p[1]);
            ta = ta < 0 ? 0 : ta > 1 ? 1 : ta;
            tb = tb < 0 ? 0 : tb > 1 ? 1 : tb;
            xa = p[0] + ta * (q[0] - p[0]);
            xb = p[0] + tb * (q[0] - p[0]);
        }
        double xl = (xa < xb ? xa : xb) - pad, xh = (xa < xb ? xb : xa) + pad;
        r = collect_cells(ctx, g, y, cell_of(xl, g->x0, g->inv_cell, g->nx), cell_of(xh, g->x0, g->inv_cell, g->nx));
    }
    return r ? r : end_query(ctx, g);
}

void bake_grid_free(const wm_ctx *ctx, bake_grid *g)
{
    wm_free(ctx, g->head);
    wm_free(ctx, g->entries);
    wm_free(ctx, g->large);
    bake_subset_free(ctx, &g->found);
    memset(g, 0, sizeof *g);
}
