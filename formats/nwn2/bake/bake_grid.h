/* A uniform grid over the walkmesh in x/y that answers "which triangles may
 * meet this box / this segment" for the cutter (bake internals). Triangles
 * are filed by their bounding box; a triangle that gets smaller (split in
 * place) stays filed where it was, so answers are supersets, always given in
 * ascending triangle order (the order the cutter splits in, so its output
 * does not depend on the index). */
#ifndef WM_NWN2_BAKE_GRID_H
#define WM_NWN2_BAKE_GRID_H

#include "bake_split.h"

typedef struct bake_grid_entry {
    uint32_t triangle, next;
} bake_grid_entry;

typedef struct bake_grid {
    double x0, y0, inv_cell;
    uint32_t nx, ny;
    uint32_t *head;                 /* first entry of each cell, NWN2_NONE32 none */
    bake_grid_entry *entries;
    uint32_t entry_count, entry_capacity;
    uint32_t *large;                /* triangles over too many cells: in every answer */
    uint32_t large_count, large_capacity;
    bake_subset found;              /* the last answer */
} bake_grid;

/* A grid of about `cells` cells over [lo, hi] (points outside fall in the
 * border cells) filing the triangles of `only` (NULL: every triangle). */
wm_result bake_grid_build(wm_ctx *ctx, bake_grid *grid, const nwn2_aswm *a, const double lo[2], const double hi[2],
                          uint64_t cells, const bake_subset *only);
/* The extent of a's vertices in x/y. */
void bake_grid_extent(const nwn2_aswm *a, double lo[2], double hi[2]);
/* Files triangles first .. a->triangle_count - 1 (pieces just made). */
wm_result bake_grid_add(wm_ctx *ctx, bake_grid *grid, const nwn2_aswm *a, uint32_t first);
/* grid->found = the triangles filed in cells meeting [lo, hi]. */
wm_result bake_grid_box(wm_ctx *ctx, bake_grid *grid, const double lo[2], const double hi[2]);
/* grid->found = the triangles filed in cells within pad of the segment p-q. */
wm_result bake_grid_segment(wm_ctx *ctx, bake_grid *grid, const double p[2], const double q[2], double pad);
void bake_grid_free(const wm_ctx *ctx, bake_grid *grid);

#endif
