/* Navmeshes: Recast builds one from any collision mesh, Detour holds its tiles and answers
 * route queries. Recast and Detour are C++; they sit in the walkmesh-recast module, loaded on
 * the first call that needs them (docs/recast.md). Coordinates here are the neutral model's
 * (Z up, game units); Recast's Y-up space stays inside the library. */
#ifndef WM_NAVMESH_H
#define WM_NAVMESH_H

#include "wm_api.h"

#include "wm_context.h"
#include "wm_mesh.h"
#include "wm_route.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Area ids of the polygons (Recast keeps up to 63). */
#define WM_NAVMESH_AREA_WALKABLE 63 /* Recast's RC_WALKABLE_AREA: the plain parameters' one area */
#define WM_NAVMESH_SURFACE_AREA 2   /* areas_by_surface: surface s has area 2 + s ... */
#define WM_NAVMESH_SURFACE_AREAS 61 /* ... for surfaces 0..60; area 1 ranks below them all (Recast keeps the
                                     * higher area where two spans merge): the generator's blocking ground */
#define WM_NAVMESH_AREA_GROUND 11   /* TrinityCore's NAV_AREA_GROUND */
#define WM_NAVMESH_AREA_STEEP 10    /* TrinityCore's NAV_AREA_GROUND_STEEP */
/* Polygon flags (what a query's include flags select). */
#define WM_NAVMESH_FLAG_WALK 0x1
#define WM_NAVMESH_FLAG_STEEP 0x2
/* Recast's optional steps (wm_navmesh_config.steps). */
#define WM_NAVMESH_FILTER_LOW_HANGING 0x1 /* rcFilterLowHangingWalkableObstacles */
#define WM_NAVMESH_FILTER_LEDGES 0x2      /* rcFilterLedgeSpans */
#define WM_NAVMESH_FILTER_LOW_HEIGHT 0x4  /* rcFilterWalkableLowHeightSpans */
#define WM_NAVMESH_MEDIAN_AREAS 0x8       /* rcMedianFilterWalkableArea */

/* Refused before anything is allocated: a build whose voxel grid has more columns (about
 * 2.2 km a side at TrinityCore's 0.27 yd cells), or more than Recast's 8,191 cell heights
 * from the lowest to the highest vertex. */
#define WM_NAVMESH_MAX_COLUMNS (64ull * 1024 * 1024)
#define WM_NAVMESH_MAX_LAYERS 8191

/* Recast's build parameters in world units (as RecastDemo asks for them); the library turns
 * them into voxels as Recast's samples do. */
typedef struct wm_navmesh_config {
    float cell_size, cell_height;
    float agent_height, agent_radius, agent_climb;
    float walkable_slope;      /* degrees from horizontal: steeper triangles are not walkable */
    float steep_slope;         /* > walkable_slope: up to it a triangle is walkable as steep_area; 0: none */
    unsigned char ground_area, steep_area;
    int tile_size;             /* voxels along a tile's side */
    float max_edge_length;     /* world units; 0: no limit */
    float max_simplification_error; /* voxels */
    int min_region_size, merge_region_size; /* voxels along a side (Recast squares them) */
    int max_verts_per_poly;    /* 3..6 */
    float detail_sample_distance;  /* cells; below 0.9: no detail sampling */
    float detail_sample_max_error; /* cell heights */
    unsigned steps;            /* WM_NAVMESH_FILTER_* and WM_NAVMESH_MEDIAN_AREAS */
    int region_method;         /* 0 watershed, 1 monotone, 2 layers */
    int use_walkable_flags;    /* also require the mesh's own walkable flag */
    int areas_by_surface;      /* a walkable triangle's area is WM_NAVMESH_SURFACE_AREA + its surface (below
                                * WM_NAVMESH_SURFACE_AREAS), so that polygons do not cross from one surface to
                                * another; a steep one of a surface not walkable takes its surface's too */
    unsigned char low_area;    /* spans with less headroom than agent_height but at least low_height take
                                * this area instead of being dropped (ground under a table); 0: dropped */
    float low_height;          /* world units */
} wm_navmesh_config;

/* RecastDemo's defaults (cell 0.3, agent 2.0 high, 0.6 wide, climbs 0.9, 45 degrees). */
WM_API void wm_navmesh_config_recast(wm_navmesh_config *config);
/* TrinityCore's map builder (docs/recast.md cites the source): cells of 0.2666666, 55 degrees
 * ground and 70 steep, agent 6 voxels high, 2 wide, climbing 6. */
WM_API void wm_navmesh_config_trinitycore(wm_navmesh_config *config);
/* The preset of that name ("recast", "trinitycore"); WM_ERR_OPTION when there is none. */
WM_API wm_result wm_navmesh_config_preset(wm_ctx *ctx, const char *name, wm_navmesh_config *config);

/* Detour's navmesh parameters and its tiles (dtCreateNavMeshData's bytes), owned here. */
typedef struct wm_navmesh {
    float origin[3], tile_width, tile_height; /* Recast space (Y up), as Detour keeps them */
    uint32_t max_tiles, max_polys;
    uint8_t *tile_data;       /* the tiles one after another, each 4-byte aligned */
    uint64_t tile_data_size;
    uint64_t *tile_offsets;   /* tile_count + 1 */
    uint32_t tile_count;
    uint32_t poly_count;      /* over all tiles */
    void *detour;             /* the opened dtNavMesh, on first query */
} wm_navmesh;

WM_API void wm_navmesh_init(wm_navmesh *navmesh);
WM_API void wm_navmesh_free(const wm_ctx *ctx, wm_navmesh *navmesh);

/* Builds a navmesh of the mesh's triangles. No walkable polygon at all is an error
 * (WM_ERR_INVALID) naming why (nothing walkable, or all of it filtered away). */
WM_API wm_result wm_navmesh_build(wm_ctx *ctx, const wm_mesh *mesh, const wm_navmesh_config *config,
                                  wm_navmesh *out);

/* The .navmesh file (docs/recast.md): a header and Detour's tile bytes. Reading checks every
 * count and offset of each tile before Detour sees it. */
WM_API wm_result wm_navmesh_write_memory(wm_ctx *ctx, const wm_navmesh *navmesh, uint8_t **out, size_t *out_size);
WM_API wm_result wm_navmesh_read_memory(wm_ctx *ctx, const void *data, size_t size, const char *name,
                                        wm_navmesh *out);
WM_API wm_result wm_navmesh_load(wm_ctx *ctx, const char *path, wm_navmesh *out);
/* Writes path by its extension: .navmesh, else any mesh format walkmesh writes (OBJ, glTF,
 * SVG ...) of the polygons (wm_navmesh_to_mesh). Nothing is written on error. */
WM_API wm_result wm_navmesh_save(wm_ctx *ctx, const wm_navmesh *navmesh, const char *path, int overwrite);
/* The polygons as a mesh (Z up): each polygon a fan of triangles, walkable, in an object
 * named "area_<id>" after its area id. */
WM_API wm_result wm_navmesh_to_mesh(wm_ctx *ctx, const wm_navmesh *navmesh, wm_mesh *out);

/* A polygon: its tile's grid position and its index in that tile's data. */
typedef struct wm_navmesh_poly {
    int32_t tile_x, tile_y;
    uint32_t poly;
} wm_navmesh_poly;

/* Route queries through Detour (the navmesh is opened on the first). include_flags selects
 * polygons by their flags (0: all); search is the half size of the box around a point in
 * which its nearest polygon is looked for (0: 2 yd across, 4 yd up and down). */
typedef struct wm_navmesh_query {
    uint16_t include_flags;
    float search[3];   /* x, y (horizontal), z (vertical) half extents; 0: the default */
} wm_navmesh_query;

/* A point given without a Z (has_z 0) is raised high over any mesh (WM_COORD_LIMIT / 4) and the
 * query's vertical search reaches all the way down, so that Detour's nearest polygon is the
 * highest floor under (x, y), as on a walkmesh. With a Z, neither changes. */
WM_API void wm_navmesh_query_point(wm_navmesh_query *query, int has_z, float point[3]);
/* findPath and findStraightPath from `from` to `to`: *points (3 floats each, free with
 * wm_free) gets the corners; *complete 0 when `to` cannot be reached and the route ends as
 * near as it gets. WM_ERR_INVALID when a point has no polygon near it. */
WM_API wm_result wm_navmesh_find_path(wm_ctx *ctx, wm_navmesh *navmesh, const wm_navmesh_query *query,
                                      const float from[3], const float to[3], float **points, uint32_t *point_count,
                                      int *complete);
/* The same as a route (wm_route.h): found when Detour's straight path reaches `to`, its length
 * the 3-D length of the corners' polyline (no faces listed). Free with wm_route_free. */
WM_API wm_result wm_navmesh_route(wm_ctx *ctx, wm_navmesh *navmesh, const wm_navmesh_query *query,
                                  const float from[3], const float to[3], wm_route *out);
/* Every polygon reachable from the one nearest to `from` (free *polys with wm_free). */
WM_API wm_result wm_navmesh_reachable(wm_ctx *ctx, wm_navmesh *navmesh, const wm_navmesh_query *query,
                                      const float from[3], wm_navmesh_poly **polys, uint32_t *count);
/* A polygon's corners (Z up, at most 6, 3 floats each) and area id, for drawing what
 * wm_navmesh_reachable and wm_navmesh_nearest return; WM_ERR_INVALID when there is no such
 * polygon. */
WM_API wm_result wm_navmesh_poly_outline(wm_ctx *ctx, const wm_navmesh *navmesh, const wm_navmesh_poly *poly,
                                         float corners[18], uint32_t *count, unsigned *area);
/* The polygon nearest to `at` and the point on it; *found 0 when there is none. */
WM_API wm_result wm_navmesh_nearest(wm_ctx *ctx, wm_navmesh *navmesh, const wm_navmesh_query *query,
                                    const float at[3], int *found, wm_navmesh_poly *poly, float point[3]);

/* The regions of the navmesh (polygons joined through Detour's links) that `at` cannot reach,
 * as wm_reach_find gives a walkmesh's: a region's faces are its polygons, its area theirs over
 * the ground, its point the centre of its largest polygon; start_face and first_face count the
 * polygons in the order Detour holds them. A point with no polygon near it is WM_ERR_INVALID.
 * Free *out with wm_reach_free. */
WM_API wm_result wm_navmesh_reach(wm_ctx *ctx, wm_navmesh *navmesh, const wm_navmesh_query *query, const float at[3],
                                  wm_reach *out);

#ifdef __cplusplus
}
#endif
#endif
