/* NWN2 route finding (public): the route the game takes between two points
 * of a baked walkmesh (TRX), as the file's own tables give it: island next
 * hops across islands, tile next hops inside each tile. Facts:
 * FORMAT-NOTES section 2. */
#ifndef WM_NWN2_ROUTE_H
#define WM_NWN2_ROUTE_H

#include "wm_api.h"

#include "wm_context.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wm_nwn2_route {
    uint32_t start, goal; /* walkable triangles (with an island) under the two points; the highest if stacked */
    uint32_t *triangles;  /* the route, from start; ends at goal when reached */
    float *points;        /* the centre of each route triangle, 3 floats each */
    uint32_t count;
    int reached;          /* 1: the tables lead to the goal */
    char failure[160];    /* when not reached: where the tables stop, in words */
} wm_nwn2_route;

/* From the whole TRN/TRX file image; name is used in messages. A point with
 * no walkable triangle under it is WM_ERR_OPTION; a route the tables do not
 * complete is WM_OK with reached 0 and the triangles up to where it stops.
 * *out is owned by the caller: free it with wm_nwn2_route_free. */
WM_API wm_result wm_nwn2_route_find(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name,
                                    const float from[2], const float to[2], wm_nwn2_route *out);
WM_API wm_result wm_nwn2_route_find_file(wm_ctx *ctx, const char *path, const float from[2], const float to[2],
                                         wm_nwn2_route *out);
WM_API void wm_nwn2_route_free(wm_ctx *ctx, wm_nwn2_route *route);

#ifdef __cplusplus
}
#endif
#endif
