/* The stages of the bake, as the driver (bake.c) calls them, and the pieces
 * the stage files share (not part of the public API). */
#ifndef WM_NWN2_BAKE_INTERNAL_H
#define WM_NWN2_BAKE_INTERNAL_H

#include "bake.h"
#include "nwn2/nwn2_tiles.h"

#include <math.h>

/* Stage 1: the TRX geometry. Cutters with whole[i] != 0 (whole may be NULL)
 * remove the triangles whose centre is inside instead of cutting. */
wm_result bake_geometry(wm_ctx *ctx, nwn2_aswm *a, const nwn2_bake_options *opts, const uint8_t *whole,
                        nwn2_bake_stats *stats);

/* The input stage 1 needs: a tile grid of positive finite width, vertex
 * indices in range, finite coordinates (an error naming the first fault). */
wm_result bake_check_input(wm_ctx *ctx, const nwn2_aswm *a);
/* Stage 1 parts. Cuts triangles along each cutter polygon and removes the
 * pieces inside. */
wm_result bake_cut(wm_ctx *ctx, nwn2_aswm *a, const nwn2_cutter_set *cutters, const uint8_t *whole, uint32_t *added,
                   uint32_t *removed);
/* Removes every triangle whose centre lies inside a cutter again, after the
 * tile lines split the pieces: a sliver along an outline, cut by a tile
 * line, can leave a piece whose centre is a rounding error inside. */
wm_result bake_cut_remove_inside(wm_ctx *ctx, nwn2_aswm *a, const nwn2_cutter_set *cutters, uint32_t *removed);
/* Moves every vertex within NWN2_SNAP_DISTANCE of an inner tile line onto
 * it (x and y separately); returns how many vertices moved. */
uint32_t bake_snap_to_tile_lines(nwn2_aswm *a);
/* Splits every triangle that crosses an inner tile line by at least
 * NWN2_WHOLE_OVERHANG, keeping flags; points on shared edges are computed
 * once per edge, so the mesh stays watertight. With keep_input, triangles
 * still carrying their input index in edge[0] are never split, only pieces
 * are. Adds to *added the number of extra triangles. */
wm_result bake_split_tiles(wm_ctx *ctx, nwn2_aswm *a, int keep_input, uint32_t *added);

/* Stage 2: the path table and line-of-sight bits of one tile. Fails with
 * WM_ERR_LIMIT naming the tile when it holds more than 127 walkable
 * triangles. *los_pairs gets the number of ordered pairs given the bit.
 * work: a zeroed area of bake_tile_work_size() bytes, reused from tile to
 * tile by one thread at a time. */
wm_result bake_tile_paths(wm_ctx *ctx, nwn2_aswm *a, uint32_t tile, void *work, uint32_t *los_pairs);
size_t bake_tile_work_size(void);

/* Stage 3: islands (component per tile, numbered by first triangle),
 * triangle island fields, centres, links, exits and distances; the island
 * path table allocated. island_tag goes in every island's "tile" field. */
wm_result bake_islands(wm_ctx *ctx, nwn2_aswm *a, uint32_t island_tag);
/* Stage 4: row `from` of the island path table. */
wm_result bake_island_paths_row(wm_ctx *ctx, nwn2_aswm *a, uint32_t from);

/* 2-D distance between two centres, in single precision as the toolset. */
float bake_distance(const float a[2], const float b[2]);
/* Grows a flat array to hold `needed` elements (capacity doubles). */
wm_result bake_grow(wm_ctx *ctx, void **array, uint32_t *capacity, uint32_t needed, size_t elem_size);

#endif
