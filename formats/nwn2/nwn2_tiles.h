/* The toolset's tile rules, shared by the mesh bridge and the bake: which
 * tile holds a point, the toolset's triangle centre, and whether a walkmesh
 * is a baked layout (FORMAT-NOTES section 2). */
#ifndef WM_NWN2_TILES_H
#define WM_NWN2_TILES_H

#include "nwn2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tile of a point: ceil(x / tile width) - 1 (a point on a tile line belongs
 * to the lower tile), clamped into the grid. */
uint32_t nwn2_tile_of(const nwn2_aswm *a, float x, float y);
/* The toolset's centre: ((v0 + v1) + v2) * (1/3) in single precision. */
void nwn2_toolset_centre(const float *v0, const float *v1, const float *v2, float out[2]);
/* A baked layout: grid flags 31, the tiles' triangle ranges partition the
 * triangles in order, every triangle's vertex, edge and neighbour indices in
 * range, and (unless keep_borders) no triangles in border tiles. Tile
 * membership of such a file is the toolset's decision and is kept. */
int nwn2_layout_is_baked(const nwn2_aswm *a, int keep_borders);

#ifdef __cplusplus
}
#endif
#endif
