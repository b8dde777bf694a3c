/* Routes and reach over the walkable faces of any neutral mesh (no navmesh):
 * the walk graph (walkable faces joined through shared edges, and through
 * room links when the mesh is an assembled area), the shortest route for a
 * point agent between two points (exact in plan over the walkable faces),
 * and the walkable regions a point cannot reach. Facts and guarantees:
 * docs/routes.md. */
#ifndef WM_ROUTE_H
#define WM_ROUTE_H

#include "wm_api.h"

#include "wm_context.h"
#include "wm_mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_NO_REGION 0xFFFFFFFFu

typedef struct wm_walk_graph wm_walk_graph;

/* Walkable faces are joined where they share an edge (the two vertex indices,
 * as a KotOR walkmesh's own adjacency does); with link_rooms, an edge carrying
 * a transition is also joined to an edge of another object at the same two
 * positions (within 1 cm), as an assembled area's room links are. */
WM_API wm_result wm_walk_graph_build(wm_ctx *ctx, const wm_mesh *mesh, int link_rooms, wm_walk_graph **out);
WM_API void wm_walk_graph_free(const wm_ctx *ctx, wm_walk_graph *graph);

/* Counts and per-face facts of the graph. */
WM_API uint32_t wm_walk_graph_triangle_count(const wm_walk_graph *graph);
WM_API uint32_t wm_walk_graph_region_count(const wm_walk_graph *graph);
/* The region of face t (WM_NO_REGION for a blocking face or t out of range). */
WM_API uint32_t wm_walk_graph_region(const wm_walk_graph *graph, uint32_t t);
/* The walkable face joined to edge e of face t, -1 when none. */
WM_API int32_t wm_walk_graph_neighbour(const wm_walk_graph *graph, uint32_t t, uint32_t e);

/* The walkable face under (x, y): with has_z the one whose height there is
 * nearest to z, else the highest. WM_ERR_INVALID for a non-finite point;
 * *out_face = WM_NO_REGION (and WM_OK) when no walkable face is there. */
WM_API wm_result wm_walk_locate(wm_ctx *ctx, const wm_walk_graph *graph, const float point[3], int has_z,
                                uint32_t *out_face, float *out_height);

typedef struct wm_route {
    float *points;      /* 3 per waypoint: start, the corners where the route turns, goal */
    uint32_t count;
    double length;      /* over the ground: the 3-D length of the route across each face */
    double plan_length; /* in plan (x, y), the length that is shortest */
    uint32_t *faces;    /* the faces the route crosses, in order (start_face first) */
    uint32_t face_count;
    uint32_t start_face, goal_face;
    int found;          /* 0: the two points are not joined (the points stay empty) */
} wm_route;

typedef struct wm_route_options {
    int from_has_z, to_has_z; /* a Z picks the floor under the point where floors overlap */
    float radius;             /* 0: a point agent; see docs/routes.md for what R > 0 keeps */
} wm_route_options;

/* The shortest route over walkable faces from `from` to `to`. Points with no
 * walkable face under them, non-finite values or a negative radius are
 * WM_ERR_INVALID (message names the point); points on faces that are not
 * joined (or only through passages narrower than 2 radius) are WM_OK with
 * found 0. Free *out with wm_route_free. */
WM_API wm_result wm_route_find(wm_ctx *ctx, const wm_walk_graph *graph, const float from[3], const float to[3],
                               const wm_route_options *options, wm_route *out);
WM_API void wm_route_free(const wm_ctx *ctx, wm_route *route);

/* Prepares `count` landmarks (at most 64) on the graph's largest region, each one search
 * over the whole region (about as long as the slowest route there): later routes in that
 * region expand fewer windows and are as short. Worth it for many routes on one graph; 0
 * removes them. */
WM_API wm_result wm_walk_graph_add_landmarks(wm_ctx *ctx, wm_walk_graph *graph, uint32_t count);

typedef struct wm_region {
    uint32_t faces;
    double area;        /* over the ground */
    float point[3];     /* the centre of its largest face */
    uint32_t first_face;
    int enclosed;       /* every edge of its border meets a blocking face */
} wm_region;

typedef struct wm_reach {
    uint32_t region_count;   /* walkable regions of the mesh */
    uint32_t start_face, start_region;
    wm_region *unreachable;  /* every region but the start's, the largest area first */
    uint32_t unreachable_count;
} wm_reach;

/* The walkable regions that cannot be reached from `at` (has_z: as for
 * wm_walk_locate). A point with no walkable face under it is WM_ERR_INVALID.
 * Free *out with wm_reach_free. */
WM_API wm_result wm_reach_find(wm_ctx *ctx, const wm_walk_graph *graph, const float at[3], int has_z,
                               wm_reach *out);
/* Every region of the graph, the largest area first (regions[0] is the main one). */
WM_API wm_result wm_walk_regions(wm_ctx *ctx, const wm_walk_graph *graph, wm_region **out, uint32_t *out_count);
WM_API void wm_reach_free(const wm_ctx *ctx, wm_reach *reach);

#ifdef __cplusplus
}
#endif
#endif
