/* Even-odd point-in-polygon for the many piece centres one cutter is asked
 * about (bake internals; see bake_inside.c). Memory: 2 corners + 1 doubles
 * per column and row, 9 bytes per cell (cells <= 2 x corners), 4 bytes per
 * filing (<= 64 x corners + 4,096). A query costs the edges filed in its cell. */
#ifndef WM_NWN2_BAKE_INSIDE_H
#define WM_NWN2_BAKE_INSIDE_H

#include "bake_internal.h"

typedef struct bake_polygon_index {
    double lo[2], hi[2], pad;
    uint32_t nx, ny;
    double *xs, *ys;   /* cell bounds: nx + 1, ny + 1 */
    uint32_t *start;   /* per cell (row-major), into edge[]; nx * ny + 1 */
    uint32_t *edge;    /* edge i runs from corner i - 1 to corner i */
    uint8_t *base;     /* per cell: parity of the crossings of its bottom line right of it, other edges */
} bake_polygon_index;

/* Every corner must be a finite number (WM_ERR_INVALID otherwise). */
wm_result bake_polygon_index_build(wm_ctx *ctx, const nwn2_cutter *c, bake_polygon_index *ix);
void bake_polygon_index_free(const wm_ctx *ctx, bake_polygon_index *ix);
/* The even-odd rule over every edge of c, exactly as tested edge by edge. */
int bake_polygon_index_inside(const bake_polygon_index *ix, const nwn2_cutter *c, double x, double y);

#endif
