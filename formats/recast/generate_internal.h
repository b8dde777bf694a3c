/* What the generator's files share (generate.c, generate_floor.c). */
#ifndef WM_GENERATE_INTERNAL_H
#define WM_GENERATE_INTERNAL_H

#include "wm_generate.h"

/* The render triangles flat enough to stand on, bucketed over x and y. */
typedef struct floor_index {
    const wm_mesh *mesh;
    float origin[2], bucket;
    uint32_t buckets[2];
    uint32_t *first;   /* buckets[0] * buckets[1] + 1 */
    uint32_t *members; /* triangle indices, bucket by bucket */
    uint32_t *seen;    /* per render vertex: the floor_each_corner call that last met it */
    uint32_t calls;
} floor_index;

/* Height at (x, y) of the plane through the corners a, b, c, and how far outside their triangle
 * (x, y) lies in plan view (0 inside); 0 when the triangle has no area in plan view. */
int corners_height(const float *a, const float *b, const float *c, float x, float y, float *z, float *outside);

wm_result floor_index_build(wm_ctx *ctx, const wm_mesh *mesh, float max_slope, floor_index *out);
void floor_index_free(wm_ctx *ctx, floor_index *f);
/* The floor's height at (x, y) within [z - below, z + above], from a floor triangle the point
 * lies in or at most `reach` outside of (the one it lies deepest in; the highest of equals).
 * 0 when there is none. */
int floor_height(const floor_index *f, float x, float y, float z, float below, float above, float reach, float *out);

/* How far a simplified face may stray: from the render floor under it (sampled at its edges and
 * on a grid of `step` inside), and an outline corner removed from the straight outline. A
 * floor is looked for as a corner looks for it (generate.c: `below`, `above`, `reach`). */
typedef struct floor_limits {
    floor_index *floor;
    floor_index *steep_floor; /* blocking faces' floor (up to the blocking slope); NULL: floor */
    float below, above, reach;
    float error, outline, step;
} floor_limits;

/* Calls fn with every corner of the floor triangles listed under the box lo..hi, once each,
 * until it returns 0; returns 0 then, else 1. */
typedef int (*floor_corner_fn)(void *user, const float *corner);
int floor_each_corner(floor_index *f, const float lo[2], const float hi[2], floor_corner_fn fn, void *user);

/* The render floor's height *h at (x, y): one within limits->error of z if there is one, else
 * one within limits->below of it either side; 0 when there is none. *hint: a floor triangle to try first (the
 * last one found; UINT32_MAX: none). */
int floor_under(const floor_limits *limits, float x, float y, float z, uint32_t *hint, float *h);

/* The most faces round one corner the simplification looks at (generate_simplify.c). */
#define GENERATE_RING_MAX 32

/* Whether the new faces (3 corners each) keep within limits->error of the render floor, or no
 * farther from it than the old faces `old` (their count `old_count`) that they replace were;
 * where no floor is found, within limits->error of the old faces. */
int faces_follow_floor(const floor_limits *limits, const wm_mesh *m, const uint32_t *made, int faces,
                       const uint32_t *old, uint32_t old_count);

/* Drops the pieces of m (walkable triangles joined by shared edges) smaller than min_area or than
 * keep_fraction of the largest piece's area; *dropped counts the triangles dropped. */
wm_result generate_drop_pieces(wm_ctx *ctx, wm_mesh *m, float min_area, float keep_fraction, uint32_t *dropped);
/* Where more than two faces share an edge, drops each that lies on the same side of it as a
 * larger one (Recast's detail triangles of neighbouring polygons can fold over each other
 * beside steep ground): a walkmesh's edge joins one face to one other. */
wm_result generate_drop_stacked_faces(wm_ctx *ctx, wm_mesh *m, uint32_t *dropped);
/* Gives each walkable fan that meets another at a corner only (no edge between them) a corner
 * of its own: a walkmesh's perimeters pass each corner once. */
wm_result generate_split_touching_corners(wm_ctx *ctx, wm_mesh *m);
/* Removes corners whose hole, filled again with fewer faces, stays within limits->error of the
 * render floor (and, on the outline, lies on a straight stretch of it within limits->outline). */
wm_result generate_simplify(wm_ctx *ctx, wm_mesh *m, const floor_limits *limits);

#endif
