/* The AABB builder's engine (internal to bwm_aabb*.c): every face gets a
 * unique rank per axis from one sort of the centroids (ties by the tie
 * order), then each node's median split is a selection on those integers
 * and a stable partition of 16-byte records between two buffers, and the
 * children's face boxes are united from the faces' boxes. Any correct
 * selection yields the same node sets, hence the same tree as a full sort
 * at every node. */
#ifndef WM_BWM_AABB_ORDER_H
#define WM_BWM_AABB_ORDER_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wm_format.h"

/* A face on its way through the tree: its rank on x, y and z, and its index. */
typedef struct aabb_rec {
    uint32_t rank[3];
    uint32_t face;
} aabb_rec;

/* Work bytes a face needs: two record buffers and the face boxes; the
 * ranking borrows the second buffer and part of the boxes' room (24 bytes
 * a face). */
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

/* A running union of face boxes stored as minima and negated maxima (the
 * engine's form, all six taken by min): with GCC's vector types, two
 * overlapping four-lane minima a face (lanes 0-3 and 2-5); these unions are
 * most of the tree's arithmetic. min(a, b) is `b < a ? b : a` either way. */
#if defined(__GNUC__)
typedef float aabb_lanes __attribute__((vector_size(16)));
typedef int32_t aabb_mask __attribute__((vector_size(16)));
typedef struct aabb_union {
    aabb_lanes lo, hi;
} aabb_union;

static inline aabb_lanes aabb_lanes_min(aabb_lanes a, aabb_lanes b)
{
    aabb_mask take_b = b < a;
    return (aabb_lanes)(((aabb_mask)b & take_b) | ((aabb_mask)a & ~take_b));
}

static inline void aabb_union_init(aabb_union *u)
{
    u->lo = u->hi = (aabb_lanes){INFINITY, INFINITY, INFINITY, INFINITY};
}

static inline void aabb_union_add(aabb_union *u, const float b[6])
{
    aabb_lanes lo, hi;
    memcpy(&lo, b, sizeof lo);
    memcpy(&hi, b + 2, sizeof hi);
    u->lo = aabb_lanes_min(u->lo, lo);
    u->hi = aabb_lanes_min(u->hi, hi);
}

static inline void aabb_union_merge(aabb_union *u, const aabb_union *v)
{
    u->lo = aabb_lanes_min(u->lo, v->lo);
    u->hi = aabb_lanes_min(u->hi, v->hi);
}

/* As a box (min, max). */
static inline void aabb_union_box(const aabb_union *u, float box[6])
{
    float lo[4], hi[4];
    memcpy(lo, &u->lo, sizeof lo);
    memcpy(hi, &u->hi, sizeof hi);
    const float m[6] = {lo[0], lo[1], lo[2], lo[3], hi[2], hi[3]};
    for (int k = 0; k < 6; k++) box[k] = k < 3 ? m[k] : -m[k];
}
#else
typedef struct aabb_union {
    float m[6];
} aabb_union;

static inline void aabb_union_init(aabb_union *u)
{
    for (int k = 0; k < 6; k++) u->m[k] = INFINITY;
}

static inline void aabb_union_add(aabb_union *u, const float b[6])
{
    for (int k = 0; k < 6; k++) u->m[k] = b[k] < u->m[k] ? b[k] : u->m[k];
}

static inline void aabb_union_merge(aabb_union *u, const aabb_union *v)
{
    aabb_union_add(u, v->m);
}

static inline void aabb_union_box(const aabb_union *u, float box[6])
{
    for (int k = 0; k < 6; k++) box[k] = k < 3 ? u->m[k] : -u->m[k];
}
#endif

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
