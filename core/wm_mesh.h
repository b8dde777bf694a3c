/* The neutral walkmesh model: a triangle soup with per-triangle surface,
 * walkability and object, and a transition per triangle edge.
 * Coordinates are Z-up, in game units. Edge e of triangle t runs from
 * vertex indices[3t+e] to indices[3t+(e+1)%3]. */
#ifndef WM_MESH_H
#define WM_MESH_H

#include "wm_api.h"

#include "wm_context.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_NO_TRANSITION (-1)

#define WM_MESH_MAX_POINTS 8
#define WM_MESH_POINT_NAME 32

typedef struct wm_mesh_point {
    char name[WM_MESH_POINT_NAME];
    float xyz[3];
} wm_mesh_point;

typedef struct wm_mesh {
    char name[128];

    float *positions;        /* 3 per vertex */
    uint32_t vertex_count;
    uint32_t vertex_capacity;

    uint32_t *indices;       /* 3 per triangle */
    uint16_t *surfaces;      /* surface id (see wm_surface.h) per triangle */
    uint8_t *walkable;       /* 0/1 per triangle */
    uint16_t *objects;       /* object index per triangle */
    int32_t *transitions;    /* 3 per triangle, WM_NO_TRANSITION = none */
    uint32_t triangle_count;
    uint32_t triangle_capacity;

    char **object_names;     /* object_count names; object 0 always exists once a triangle does */
    uint32_t object_count;

    /* Named points a format keeps beside its triangles (a KotOR walkmesh's
     * header position and use hooks); interchange writers carry them as
     * named empties. Fixed room: no allocation. */
    wm_mesh_point points[WM_MESH_MAX_POINTS];
    uint32_t point_count;
} wm_mesh;

WM_API void wm_mesh_init(wm_mesh *mesh);
WM_API void wm_mesh_free(const wm_ctx *ctx, wm_mesh *mesh);

WM_API wm_result wm_mesh_reserve(wm_ctx *ctx, wm_mesh *mesh, uint32_t vertices, uint32_t triangles);
/* Returns the new vertex index through out_index (may be NULL). */
WM_API wm_result wm_mesh_add_vertex(wm_ctx *ctx, wm_mesh *mesh, float x, float y, float z, uint32_t *out_index);
/* Adds a triangle with no transitions in the current object. */
WM_API wm_result wm_mesh_add_triangle(wm_ctx *ctx, wm_mesh *mesh, uint32_t a, uint32_t b, uint32_t c,
                               uint16_t surface, int walkable);
/* Adds (or finds) an object by name; returns its index. */
WM_API wm_result wm_mesh_add_object(wm_ctx *ctx, wm_mesh *mesh, const char *name, uint16_t *out_index);
/* Adds an object without looking for one of that name: for a caller that keeps the names
 * distinct itself (an importer's own name table), so many objects cost no search each. */
WM_API wm_result wm_mesh_append_object(wm_ctx *ctx, wm_mesh *mesh, const char *name, uint16_t *out_index);
/* Appends every vertex and triangle of src (objects are merged by name). */
WM_API wm_result wm_mesh_append(wm_ctx *ctx, wm_mesh *dst, const wm_mesh *src);
WM_API wm_result wm_mesh_copy(wm_ctx *ctx, wm_mesh *dst, const wm_mesh *src);
/* Sets (or replaces) a named point; WM_ERR_LIMIT when the mesh has
 * WM_MESH_MAX_POINTS others or the name does not fit. */
WM_API wm_result wm_mesh_set_point(wm_ctx *ctx, wm_mesh *mesh, const char *name, const float xyz[3]);
/* The named point, or NULL. */
WM_API const wm_mesh_point *wm_mesh_find_point(const wm_mesh *mesh, const char *name);

/* Indices in range, finite coordinates, surfaces known to the table.
 * Reports the first problem naming the triangle or vertex. */
WM_API wm_result wm_mesh_validate(wm_ctx *ctx, const wm_mesh *mesh);

/* WM_ERR_CORRUPT naming the first vertex with an infinite or NaN coordinate:
 * input readers call it (weld does too) before any processing. */
WM_API wm_result wm_mesh_check_finite(wm_ctx *ctx, const wm_mesh *mesh);
/* Merges vertices closer than tolerance (per-axis grid, then exact distance
 * check) and rewrites indices. Keeps the first vertex of each cluster.
 * Weld and compact read and write only positions, vertex_count and indices
 * (the per-triangle attributes may be absent). */
WM_API wm_result wm_mesh_weld(wm_ctx *ctx, wm_mesh *mesh, float tolerance, uint32_t *out_merged);
/* What wm_mesh_weld would merge, the mesh unchanged: *out_merged counts the
 * vertices that merge; when there are any, *out_map (vertex_count entries,
 * the caller frees it with wm_free) holds the vertex each merges into, and
 * itself for those kept, else it is NULL. The indices wm_mesh_weld leaves
 * are map[index] before its compaction. */
WM_API wm_result wm_mesh_weld_map(wm_ctx *ctx, const wm_mesh *mesh, float tolerance, uint32_t **out_map,
                                  uint32_t *out_merged);
/* How many vertices no triangle uses (the ones wm_mesh_compact drops). */
WM_API wm_result wm_mesh_count_unused(wm_ctx *ctx, const wm_mesh *mesh, uint32_t *out_unused);
/* Removes triangles with repeated indices or area below min_area. */
WM_API wm_result wm_mesh_remove_degenerate(wm_ctx *ctx, wm_mesh *mesh, float min_area, uint32_t *out_removed);
/* Drops vertices no triangle uses, keeping the order of the rest. */
WM_API wm_result wm_mesh_compact(wm_ctx *ctx, wm_mesh *mesh);

/* Unit normal of triangle t (0,0,0 when degenerate). */
WM_API void wm_mesh_triangle_normal(const wm_mesh *mesh, uint32_t t, float out[3]);
/* Fills 3*triangle_count floats. */
WM_API void wm_mesh_normals(const wm_mesh *mesh, float *out);
/* min[3], max[3]; zeros for an empty mesh. */
WM_API void wm_mesh_bounds(const wm_mesh *mesh, float min[3], float max[3]);
/* Marks triangles walkable when their normal is within max_slope_deg of +Z. */
WM_API void wm_mesh_walkable_from_slope(wm_mesh *mesh, float max_slope_deg);

#ifdef __cplusplus
}
#endif
#endif
