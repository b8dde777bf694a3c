/* Route finding on a parsed walkmesh, for the module's own picture (the
 * public entry is wm_nwn2_route.h), and the picture hook itself. */
#ifndef NWN2_ROUTE_H
#define NWN2_ROUTE_H

#include "nwn2/nwn2.h"
#include "nwn2/wm_nwn2_route.h"

/* The tile of every triangle (NWN2_NONE32: none), from the tiles' ranges as
 * stored, clipped to the triangles there are. grid_width * grid_height must
 * not overflow (the caller checked). */
wm_result nwn2_tile_of_triangles(wm_ctx *ctx, const nwn2_aswm *a, uint32_t **out);
wm_result nwn2_route_on(wm_ctx *ctx, const nwn2_aswm *a, const uint32_t *tile_of, const float from[2],
                        const float to[2], wm_nwn2_route *out);
/* 1 when triangle t's three vertex indices are in range. */
int nwn2_triangle_in_range(const nwn2_aswm *a, uint32_t t);
/* Centre of triangle t (its vertices are in range). */
void nwn2_triangle_centre(const nwn2_aswm *a, uint32_t t, float out[3]);

/* The descriptor's picture hook (nwn2_picture.c). */
wm_result nwn2_picture(wm_ctx *ctx, const wm_input *in, const wm_options *opts, struct wm_picture *picture);

#endif
