/* Triangulation of one OBJ polygon (obj_polygon.c): exact or refused,
 * never a silent fan over a concave outline. */
#ifndef WM_OBJ_POLYGON_H
#define WM_OBJ_POLYGON_H

#include "walkmesh.h"

/* Concave polygons are ear-clipped in O(n^2) time (a convex one is fanned
 * in O(n), whatever its size); beyond this many corners a concave polygon
 * is refused, so one face costs at most about 2 x 10^8 steps and a file at
 * most WM_POLYGON_MAX_CONCAVE steps per byte. */
enum { WM_POLYGON_MAX_CONCAVE = 8192 };

/* Scratch reused from polygon to polygon (zero-initialise; free with wm_polygon_work_free). */
typedef struct wm_polygon_work {
    double *flat;          /* 2 per corner: the projection on the polygon's main plane */
    uint32_t *prev, *next; /* the outline still to clip, as a ring */
    uint8_t *ear;
    uint32_t *triangles; /* 3 per triangle: corner numbers 0..n-1 */
    uint32_t capacity;
    /* a uniform grid over the outline's box: per cell, the corners (or edges) in it */
    double lo[2], cell_size[2];
    uint32_t side;               /* cells per axis */
    uint32_t *cell_start;        /* side * side + 1 */
    uint32_t *cell_items;
    size_t cells_capacity, items_capacity;
} wm_polygon_work;

typedef enum wm_polygon_verdict {
    WM_POLYGON_OK,
    WM_POLYGON_TOO_LARGE, /* concave and more than WM_POLYGON_MAX_CONCAVE corners */
    WM_POLYGON_NO_EAR,    /* the outline folds so that no faithful triangulation was found */
} wm_polygon_verdict;

/* Warnings about a polygon that was triangulated. */
enum { WM_POLYGON_NOT_PLANAR = 1, WM_POLYGON_SELF_INTERSECTING = 2 };

/* Triangulates the polygon whose n >= 3 corners are positions[3 * corners[i]]:
 * on WM_POLYGON_OK, w->triangles holds n - 2 triangles (corner numbers,
 * wound as the outline). *flags gets WM_POLYGON_* warnings. */
wm_result wm_polygon_triangulate(wm_ctx *ctx, wm_polygon_work *w, const float *positions, const uint32_t *corners,
                                 uint32_t n, wm_polygon_verdict *verdict, unsigned *flags);
void wm_polygon_work_free(wm_ctx *ctx, wm_polygon_work *w);

#endif
