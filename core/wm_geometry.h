/* Format-independent geometry: triangle math, edge adjacency by vertex
 * index, boundary loops, and a generic AABB tree for spatial queries. */
#ifndef WM_GEOMETRY_H
#define WM_GEOMETRY_H

#include "wm_api.h"

#include "wm_context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest coordinate magnitude, in game units, that an input may carry (positions,
 * controller values, layout offsets, --move/--rotate results): a float still has steps of
 * 1 game unit there and every derived value (planes, distances, tree boxes) stays finite.
 * Readers refuse larger values as an input error naming the node, line or option. */
#define WM_COORD_LIMIT 1.0e7f

/* Unit normal of (a,b,c) via (b-a)x(c-a); returns the length before normalising. */
WM_API float wm_tri_normal(const float a[3], const float b[3], const float c[3], float out[3]);
WM_API float wm_tri_area(const float a[3], const float b[3], const float c[3]);
/* Barycentric test in XY; edges count as inside within eps. */
WM_API int wm_point_in_tri_xy(const float a[3], const float b[3], const float c[3], float x, float y, float eps);
/* Height of the triangle's plane at (x,y); returns 0 when the plane is vertical. */
WM_API int wm_tri_height_at(const float a[3], const float b[3], const float c[3], float x, float y, float *out_z);
/* Möller–Trumbore, double-sided; returns 1 and t >= 0 on hit. */
WM_API int wm_ray_tri(const float orig[3], const float dir[3], const float a[3], const float b[3], const float c[3],
               float *out_t);

/* Edge adjacency by vertex index. For triangle t and edge e (vertex e to
 * e+1), out[3t+e] = neighbour*3 + neighbour_edge, or -1 when the edge is
 * open. Only triangles with include[t] != 0 take part (include may be NULL).
 * An edge shared by three or more triangles is linked between the first two
 * found and counted in *out_nonmanifold. Edges are matched regardless of
 * direction. */
WM_API wm_result wm_edge_adjacency(wm_ctx *ctx, const uint32_t *indices, uint32_t triangle_count,
                            const uint8_t *include, int32_t *out, uint32_t *out_nonmanifold);

/* Boundary loops: given open edges (as t*3+e codes) chains them end to
 * start. Loops start at the smallest remaining code. out_order receives
 * the codes in loop order, out_loop_ends the cumulative 1-based loop ends.
 * Edges that cannot be chained close a loop where they stop. */
WM_API wm_result wm_boundary_loops(wm_ctx *ctx, const uint32_t *indices, const uint32_t *edge_codes, uint32_t edge_count,
                            uint32_t *out_order, uint32_t *out_loop_ends, uint32_t *out_loop_count);

/* Generic AABB tree over triangles (built by median split on the longest
 * axis; not a file format). */
typedef struct wm_aabb_node {
    float min[3], max[3];
    int32_t left, right;   /* child node indices, -1 none */
    int32_t triangle;      /* leaf triangle, -1 on internal nodes */
} wm_aabb_node;

typedef struct wm_aabb_tree {
    wm_aabb_node *nodes;
    uint32_t node_count;
    const float *positions; /* borrowed */
    const uint32_t *indices; /* borrowed */
} wm_aabb_tree;

WM_API wm_result wm_aabb_build(wm_ctx *ctx, const float *positions, const uint32_t *indices, uint32_t triangle_count,
                        wm_aabb_tree *out);
WM_API void wm_aabb_free(const wm_ctx *ctx, wm_aabb_tree *tree);
/* Calls visit for each triangle whose box contains (x,y) in XY. Stops when visit returns non-zero. */
typedef int (*wm_aabb_visit_fn)(void *user, uint32_t triangle);
WM_API void wm_aabb_query_xy(const wm_aabb_tree *tree, float x, float y, wm_aabb_visit_fn visit, void *user);
/* Nearest hit along the ray; returns 1 and fills triangle and t on a hit. */
WM_API int wm_aabb_raycast(const wm_aabb_tree *tree, const float orig[3], const float dir[3], uint32_t *out_triangle,
                    float *out_t);

#ifdef __cplusplus
}
#endif
#endif
