/* render --path for every walkmesh format (formats/render_route.c). */
#ifndef WM_RENDER_ROUTE_H
#define WM_RENDER_ROUTE_H

#include "picture.h"

/* Draws the shortest route between the two points of the "path" option (none: nothing). */
wm_result wm_render_route(wm_ctx *ctx, const wm_input *in, const wm_format *format, const wm_options *opts,
                          wm_picture *plot);

#endif
