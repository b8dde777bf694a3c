/* Polygon corners lowered onto the triangles under them (navmesh_heights.c). */
#ifndef WM_NAVMESH_HEIGHTS_H
#define WM_NAVMESH_HEIGHTS_H

#include "recast_module.h"
#include "wm_context.h"

/* A tile's triangles in Recast space: indices into verts, an area per triangle (0: not walkable). */
typedef struct settle_input {
    const float *verts;
    const int *tris;
    const unsigned char *areas;
    int tri_count;
} settle_input;

wm_result navmesh_settle_vertices(wm_ctx *ctx, const settle_input *in, const wmrc_polymesh *pm);

#endif
