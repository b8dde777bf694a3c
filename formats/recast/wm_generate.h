/* Walkmeshes generated from render geometry (walkmesh generate): Recast finds where an agent
 * stands, the result is simplified to a game walkmesh's size and its corners are put back on
 * the render floor. docs/generate.md gives the steps, the per-game defaults and their sources.
 * Coordinates are the neutral model's (Z up, game units). */
#ifndef WM_GENERATE_H
#define WM_GENERATE_H

#include "wm_api.h"

#include "wm_context.h"
#include "wm_mesh.h"
#include "wm_navmesh.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wm_generate_config {
    float agent_height;   /* headroom a walker needs */
    float agent_radius;   /* distance kept from walls (0: walkable up to them) */
    float max_slope;      /* degrees from horizontal */
    float max_climb;      /* highest step */
    float min_area;       /* walkable pieces smaller than this (square units) are dropped */
    float max_error;      /* how far the simplified outline and heights may stray from the voxels */
    float cell_size, cell_height; /* voxels (0: from max_error) */
    float keep_fraction;  /* walkable pieces whose area is below this fraction of the largest's are dropped
                           * (roofs, tops of props, ground outside the room); 0 keeps all */
    float detail;         /* height samples every this many cells where the floor is not flat (0: corners only) */
    uint16_t walkable_surface; /* neutral surface id (wm_surface.h) of the walkable faces */
    int blocking;         /* 1: the floor touching the walkable ground that is too steep (up to 60 degrees)
                           * or too low (under a table) becomes blocking faces (surface nonwalk); 0 (every
                           * game's default): left out (docs/generate.md says why) */
} wm_generate_config;

/* The defaults of a game: "kotor", "nwn", "wow" (docs/generate.md cites where each comes
 * from); WM_ERR_OPTION for another name. */
WM_API wm_result wm_generate_config_game(wm_ctx *ctx, const char *game, wm_generate_config *config);

/* The Recast parameters a generation builds with (its first step, wm_navmesh_build). */
WM_API void wm_generate_navmesh_config(const wm_generate_config *config, wm_navmesh_config *out);

/* Statistics of a generation, for reports. */
typedef struct wm_generate_stats {
    uint32_t input_triangles, voxel_polygons, faces;
    float walkable_area;
} wm_generate_stats;

/* A walkmesh of the render triangles: walkable faces (config->walkable_surface) where the
 * agent stands, and with config->blocking the floor around them the agent cannot stand on as
 * blocking faces, heights on the render floor. Non-finite input, an empty mesh, a scene too large for the voxel grid or
 * nothing walkable is an error naming why; out is untouched then. stats may be NULL. */
WM_API wm_result wm_generate(wm_ctx *ctx, const wm_mesh *render, const wm_generate_config *config, wm_mesh *out,
                             wm_generate_stats *stats);

/* A placeable's or door's walkmesh (.pwk, .dwk): the render triangles' convex hull seen from
 * above, grown by padding, as non-walkable faces at the model's lowest height; use hooks 1 and 2
 * (the BWM's points) at hook1/hook2, else a step beyond the footprint on either side along y. */
WM_API wm_result wm_generate_footprint(wm_ctx *ctx, const wm_mesh *render, float padding, const float *hook1,
                                       const float *hook2, wm_mesh *out);

#ifdef __cplusplus
}
#endif
#endif
