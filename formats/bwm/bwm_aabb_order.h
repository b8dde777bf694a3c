/* The AABB builder's engine (internal to bwm_aabb*.c): every face gets a
 * unique rank per axis from one sort of the centroids (ties by the tie
 * order), then each node's median split is a selection on those integers
 * and a stable partition of 16-byte records between two buffers, which
 * also gives both children's face boxes. Any correct selection yields the
 * same node sets, hence the same tree as a full sort at every node. */
#ifndef WM_BWM_AABB_ORDER_H
#define WM_BWM_AABB_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "wm_format.h"

/* A face on its way through the tree: its rank on x, y and z, and its index. */
typedef struct aabb_rec {
    uint32_t rank[3];
    uint32_t face;
} aabb_rec;

/* Work bytes a face needs: two record buffers and the face boxes; the
 * ranking borrows the second buffer and the boxes' room (24 bytes a face). */
#define AABB_WORK_PER_FACE (2 * sizeof(aabb_rec) + 6 * sizeof(float))

/* What the engine reports, in preorder. node: the node's index in the file;
 * box: its faces' box (min, max); a node of n > 1 faces has floor(n/2) on
 * the left at node + 1 and the rest at node + 2 floor(n/2). */
typedef struct aabb_visitor {
    wm_result (*inner)(void *user, uint32_t node, const float box[6], const float left[6], const float right[6],
                       size_t half);
    wm_result (*leaf)(void *user, uint32_t node, size_t position, uint32_t face, const float box[6]);
    void *user;
} aabb_visitor;

/* The axis (0, 1, 2 = x, y, z) along which a box (min, max) is longest; the first on a tie. */
int aabb_longest_axis(const float box[6]);

/* The box (min, max) of one face. */
void aabb_face_box(const float *vertices, const uint32_t *faces, uint32_t face, float box[6]);

/* Fills recs[f] (f in face order) with face f's three ranks. The ranks order
 * the centroids ((v0 + v1 + v2) / 3 in double), ties by tie_rank (NULL: 0)
 * then face index. scratch: 24 bytes a face, 8-byte aligned. */
void aabb_rank_faces(const float *vertices, const uint32_t *faces, uint32_t face_count, const uint32_t *tie_rank,
                     aabb_rec *recs, void *scratch);

/* Builds the tree over the ranked recs (face order) and reports it to v.
 * other: a second record buffer; boxes: 6 floats a face, which the call fills. */
wm_result aabb_order(const float *vertices, const uint32_t *faces, uint32_t face_count, aabb_rec *recs,
                     aabb_rec *other, float *boxes, const aabb_visitor *v);

/* The k-th smallest (0-based) of n unique values v[0], v[stride], ...;
 * scratch holds n values and is overwritten. */
uint32_t aabb_select(const uint32_t *v, size_t stride, size_t n, size_t k, uint32_t *scratch);

#endif
