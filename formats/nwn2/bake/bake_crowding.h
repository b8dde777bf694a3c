/* Cutters certain to crowd a tile past 127 walkable triangles, found before
 * cutting (bake internals; see bake_crowding.c). */
#ifndef WM_NWN2_BAKE_CROWDING_H
#define WM_NWN2_BAKE_CROWDING_H

#include "bake_internal.h"

/* Sets whole[i] for each cutter i that certainly crowds a tile (a warning
 * names the tile); *marked = how many. Costs O(corners log corners) plus a
 * point location per corner of a tile with more than 3 x 127 corners. */
wm_result bake_mark_crowding_cutters(wm_ctx *ctx, const nwn2_aswm *a, const nwn2_bake_options *opts, uint8_t *whole,
                                     uint32_t *marked);

#endif
