/* Which points lie inside a cutter polygon (even-odd), for many points: a
 * grid over the polygon's box files each edge in the cells it comes near,
 * and each cell keeps the parity of the crossings right of it on its bottom
 * line. A point then looks at its own cell's edges only, whatever the shape:
 * a star's spikes all cross the same horizontal strips, so testing the edges
 * of a strip (what this replaced) cost O(corners) per point.
 *
 * The answer is the rule as written over every edge, (yi > y) != (yj > y)
 * and x < xj + (y - yj) (xi - xj) / (yi - yj), not an approximation of it:
 * for the edges of the point's cell it is that very test; every other edge
 * stays more than `pad` from the cell, far beyond rounding, so whether it
 * crosses right of the point is whether it crosses right of the cell, at
 * the point's height y. That is counted on the cell's bottom line (the
 * row's crossings right of the cell, minus the cell's own edges) and carried
 * up to y: an edge away from the cell only starts or stops crossing at a
 * corner, and a corner right of the cell whose two edges are both away from
 * the cell changes the count by two; so only corners of the cell's own edges
 * (right of it, between the bottom line and y) change the parity. */
#include "bake_inside.h"

#include <math.h>
#include <string.h>

/* Filings allowed per edge on average (past it, the cells grow). */
#define FILINGS_PER_EDGE 64

static double coord(const nwn2_cutter *c, uint32_t i, int k)
{
    return c->points[2 * (size_t)i + k];
}

/* The even-odd test's crossing of edge i (from corner i - 1 to corner i) at height y. */
static int straddles(const nwn2_cutter *c, uint32_t i, double y)
{
    const uint32_t j = i ? i - 1 : c->point_count - 1;
    return (coord(c, i, 1) > y) != (coord(c, j, 1) > y);
}

static double crossing_x(const nwn2_cutter *c, uint32_t i, double y)
{
    const uint32_t j = i ? i - 1 : c->point_count - 1;
    double xi = coord(c, i, 0), yi = coord(c, i, 1), xj = coord(c, j, 0), yj = coord(c, j, 1);
    return xj + (y - yj) * (xi - xj) / (yi - yj);
}

/* The cell k with bounds[k] <= v < bounds[k + 1], clamped to 0 .. n - 1. */
static uint32_t cell_of(const double *bounds, uint32_t n, double v)
{
    double f = floor((v - bounds[0]) / (bounds[n] - bounds[0]) * n);
    uint32_t k = !(f >= 0) ? 0 : f >= (double)n ? n - 1 : (uint32_t)f;
    while (k > 0 && v < bounds[k])
        k--;
    while (k + 1 < n && v >= bounds[k + 1])
        k++;
    return k;
}

/* Calls file(cell) for every cell whose box widened by pad edge i comes within. */
static uint64_t file_edge(bake_polygon_index *ix, const nwn2_cutter *c, uint32_t i, uint32_t *counts, int count_only)
{
    const uint32_t j = i ? i - 1 : c->point_count - 1;
    const double px = coord(c, j, 0), py = coord(c, j, 1), qx = coord(c, i, 0), qy = coord(c, i, 1), pad = ix->pad;
    const uint32_t r0 = cell_of(ix->ys, ix->ny, (py < qy ? py : qy) - pad);
    const uint32_t r1 = cell_of(ix->ys, ix->ny, (py < qy ? qy : py) + pad);
    uint64_t filed = 0;
    for (uint32_t r = r0; r <= r1; r++) {
        double xa = px, xb = qx;
        if (py != qy) {
            double ta = (ix->ys[r] - pad - py) / (qy - py), tb = (ix->ys[r + 1] + pad - py) / (qy - py);
            ta = ta < 0 ? 0 : ta > 1 ? 1 : ta;
            tb = tb < 0 ? 0 : tb > 1 ? 1 : tb;
            xa = px + ta * (qx - px);
            xb = px + tb * (qx - px);
        }
        const uint32_t c0 = cell_of(ix->xs, ix->nx, (xa < xb ? xa : xb) - pad);
        const uint32_t c1 = cell_of(ix->xs, ix->nx, (xa < xb ? xb : xa) + pad);
        filed += c1 - c0 + 1;
        for (uint32_t k = c0; !count_only && k <= c1; k++)
            ix->edge[ix->start[(size_t)r * ix->nx + k] + counts[(size_t)r * ix->nx + k]++] = i;
        for (uint32_t k = c0; count_only == 1 && k <= c1; k++)
            counts[(size_t)r * ix->nx + k]++;
    }
    return filed;
}

/* About `cells` cells over the box, shaped so that the edges cross about
 * as many column lines as row lines (a comb's long upright teeth get many
 * narrow columns and few rows): with sx, sy the edges' summed extents in x
 * and y, an edge is filed about sx / cell width + sy / cell height extra
 * times in all, least for a given cell count when both terms are equal. */
static void lay_out(bake_polygon_index *ix, const nwn2_cutter *c, const double lo[2], const double hi[2],
                    uint64_t cells)
{
    const double w = hi[0] - lo[0], h = hi[1] - lo[1];
    double sx = 0, sy = 0;
    for (uint32_t i = 0, j = c->point_count - 1; i < c->point_count; j = i++) {
        sx += fabs(coord(c, i, 0) - coord(c, j, 0));
        sy += fabs(coord(c, i, 1) - coord(c, j, 1));
    }
    sx = sx > w ? sx : w; /* a closed outline spans its box both ways */
    sy = sy > h ? sy : h;
    double nx = sqrt((double)cells * (sy * w) / (sx * h));
    nx = !(nx >= 1) ? 1 : nx > (double)cells ? (double)cells : nx;
    ix->nx = (uint32_t)nx;
    ix->ny = (uint32_t)((cells + ix->nx - 1) / ix->nx);
    for (uint32_t k = 0; k <= ix->nx; k++)
        ix->xs[k] = k == ix->nx ? hi[0] : lo[0] + w * k / ix->nx;
    for (uint32_t k = 0; k <= ix->ny; k++)
        ix->ys[k] = k == ix->ny ? hi[1] : lo[1] + h * k / ix->ny;
}

void bake_polygon_index_free(const wm_ctx *ctx, bake_polygon_index *ix)
{
    void *arrays[] = {ix->xs, ix->ys, ix->start, ix->edge, ix->base};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        wm_free(ctx, arrays[i]);
    memset(ix, 0, sizeof *ix);
}

/* base[cell] = parity of the crossings of the cell's bottom line right of
 * the cell, by edges not filed in it. */
static wm_result fill_bases(wm_ctx *ctx, bake_polygon_index *ix, const nwn2_cutter *c)
{
    const uint32_t n = c->point_count, nx = ix->nx;
    uint8_t *right = wm_alloc_array(ctx, (size_t)nx + 1, 1);
    if (!right)
        return WM_ERR_NOMEM;
    for (uint32_t r = 0; r < ix->ny; r++) {
        const double y = ix->ys[r];
        memset(right, 0, (size_t)nx + 1);
        /* each crossing of the line counts for the cells whose right side is left of it */
        for (uint32_t i = 0; i < n; i++) {
            if (!straddles(c, i, y))
                continue;
            const double x = crossing_x(c, i, y);
            uint32_t m = cell_of(ix->xs, nx, x); /* then: the cells k with xs[k + 1] < x */
            while (m > 0 && !(ix->xs[m] < x))
                m--;
            while (m < nx && ix->xs[m + 1] < x)
                m++;
            right[m] ^= 1;
        }
        uint8_t parity = 0;
        for (uint32_t k = nx; k-- > 0;) {
            parity ^= right[k + 1];
            uint8_t own = 0;
            const size_t cell = (size_t)r * nx + k;
            for (uint32_t e = ix->start[cell]; e < ix->start[cell + 1]; e++)
                own ^= straddles(c, ix->edge[e], y) && crossing_x(c, ix->edge[e], y) > ix->xs[k + 1];
            ix->base[cell] = parity ^ own;
        }
    }
    wm_free(ctx, right);
    return WM_OK;
}

wm_result bake_polygon_index_build(wm_ctx *ctx, const nwn2_cutter *c, bake_polygon_index *ix)
{
    memset(ix, 0, sizeof *ix);
    const uint32_t n = c->point_count;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}, size = 0;
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            const double v = coord(c, i, k);
            if (!isfinite(v))
                return wm_error(ctx, WM_ERR_INVALID, "cutter corner %u is not a finite number", i);
            lo[k] = v < lo[k] ? v : lo[k];
            hi[k] = v > hi[k] ? v : hi[k];
            size = fabs(v) > size ? fabs(v) : size;
        }
    if (n < 3)
        return WM_OK;
    /* far above the rounding of crossing_x, far below any real cell */
    ix->pad = 1e-9 * (size + 1.0);
    for (int k = 0; k < 2; k++) {
        lo[k] -= 2 * ix->pad;
        hi[k] += 2 * ix->pad;
    }
    ix->lo[0] = lo[0], ix->lo[1] = lo[1], ix->hi[0] = hi[0], ix->hi[1] = hi[1];
    uint64_t cells = 2ull * n;
    ix->xs = wm_alloc_array(ctx, (size_t)cells + 1, sizeof *ix->xs);
    ix->ys = wm_alloc_array(ctx, (size_t)cells + 1, sizeof *ix->ys);
    wm_result r = ix->xs && ix->ys ? WM_OK : WM_ERR_NOMEM;
    uint32_t *counts = NULL;
    uint64_t filings = 0;
    for (; !r; cells = (cells + 1) / 2) {
        lay_out(ix, c, lo, hi, cells);
        filings = 0;
        for (uint32_t i = 0; i < n; i++)
            filings += file_edge(ix, c, i, NULL, 2);
        if (filings <= (uint64_t)FILINGS_PER_EDGE * n + 4096 || cells == 1)
            break;
    }
    const size_t cell_count = (size_t)ix->nx * ix->ny;
    if (!r) {
        counts = wm_alloc_array(ctx, cell_count + 1, sizeof *counts);
        ix->start = wm_alloc_array(ctx, cell_count + 1, sizeof *ix->start);
        ix->base = wm_alloc_array(ctx, cell_count, 1);
        ix->edge = wm_alloc_array(ctx, (size_t)filings, sizeof *ix->edge);
        r = counts && ix->start && ix->base && ix->edge ? WM_OK : WM_ERR_NOMEM;
    }
    if (!r) {
        memset(counts, 0, (cell_count + 1) * sizeof *counts);
        for (uint32_t i = 0; i < n; i++)
            file_edge(ix, c, i, counts, 1);
        for (size_t k = 0; k < cell_count; k++)
            ix->start[k + 1] = ix->start[k] + counts[k];
        memset(counts, 0, (cell_count + 1) * sizeof *counts);
        for (uint32_t i = 0; i < n; i++)
            file_edge(ix, c, i, counts, 0);
        r = fill_bases(ctx, ix, c);
    }
    wm_free(ctx, counts);
    if (r)
        bake_polygon_index_free(ctx, ix);
    return r;
}

int bake_polygon_index_inside(const bake_polygon_index *ix, const nwn2_cutter *c, double x, double y)
{
    /* outside the box: no edge crosses right of the point, or (left of it)
     * every edge spanning y does, and those are always an even number */
    if (!ix->base || !(x >= ix->lo[0] && x <= ix->hi[0] && y >= ix->lo[1] && y <= ix->hi[1]))
        return 0;
    const uint32_t row = cell_of(ix->ys, ix->ny, y), col = cell_of(ix->xs, ix->nx, x);
    const size_t cell = (size_t)row * ix->nx + col;
    const double bottom = ix->ys[row], right = ix->xs[col + 1];
    int in = ix->base[cell];
    for (uint32_t e = ix->start[cell]; e < ix->start[cell + 1]; e++) {
        const uint32_t i = ix->edge[e], j = i ? i - 1 : c->point_count - 1;
        in ^= straddles(c, i, y) && x < crossing_x(c, i, y);
        /* corners right of the cell between its bottom line and y */
        in ^= coord(c, i, 1) > bottom && !(coord(c, i, 1) > y) && coord(c, i, 0) > right;
        in ^= coord(c, j, 1) > bottom && !(coord(c, j, 1) > y) && coord(c, j, 0) > right;
    }
    return in;
}
