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
} floor_index;

wm_result floor_index_build(wm_ctx *ctx, const wm_mesh *mesh, float max_slope, floor_index *out);
void floor_index_free(wm_ctx *ctx, floor_index *f);
/* The floor's height at (x, y) within [z - below, z + above], from a floor triangle the point
 * lies in or at most `reach` outside of (the one it lies deepest in; the highest of equals).
 * 0 when there is none. */
int floor_height(const floor_index *f, float x, float y, float z, float below, float above, float reach, float *out);

/* Drops the pieces of m (triangles joined by shared corners) smaller than min_area or than
 * keep_fraction of the largest piece's area; *dropped counts the triangles dropped. */
wm_result generate_drop_pieces(wm_ctx *ctx, wm_mesh *m, float min_area, float keep_fraction, uint32_t *dropped);
/* Removes corners whose faces lie in one plane within `flat` (and, on the outline, on a straight
 * stretch of it within `flat`), filling each hole with fewer faces. */
wm_result generate_simplify(wm_ctx *ctx, wm_mesh *m, float flat);

#endif
