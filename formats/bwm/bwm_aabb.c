/* The BioWare AABB builder: centroid median split on the longest axis of
 * the node's face box, floor(n/2) faces on the left, leaf boxes padded by
 * 0.01, preorder layout with 0-based children, plane flag from the
 * displacement between the children's box centres (KOTORMax and MDLedit
 * write the split axis as 1, 2 or 4 instead).
 * Faces with equal centroids are ordered by a tie rank (default: face
 * index; BioWare's own tie order is not recoverable from geometry). The
 * node sets come from bwm_aabb_order.c; here they become nodes. */
#include "bwm/bwm.h"
#include "bwm/bwm_aabb_order.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define BWM_LEAF_PADDING 0.01f

typedef struct aabb_job {
    const float *vertices;
    const uint32_t *faces;
    const uint32_t *leaf_faces; /* the faces in leaf order */
    bwm_aabb_node *out;
    bwm_plane_style planes;
} aabb_job;

/* The leaf faces share memory with the nodes (see build_layout): both are
 * copied through memcpy, which the compiler may not reorder across the other
 * type's accesses as it could plain loads and stores of unrelated types. */
static uint32_t load_leaf_face(const aabb_job *j, size_t i)
{
    uint32_t f;
    memcpy(&f, &j->leaf_faces[i], sizeof f);
    return f;
}

static void store_node(const aabb_job *j, uint32_t index, const bwm_aabb_node *n)
{
    memcpy(&j->out[index], n, sizeof *n);
}

static void pad_box(const float face_box[6], bwm_aabb_node *n)
{
    for (int k = 0; k < 3; k++) {
        n->min[k] = face_box[k] - BWM_LEAF_PADDING;
        n->max[k] = face_box[3 + k] + BWM_LEAF_PADDING;
    }
}

/* The plane flag of a node whose face box is `box` and whose children's are
 * left and right: BioWare's axis and sign of the displacement between the
 * children's (padded) box centres; KOTORMax's split axis. */
static uint32_t plane_flag(bwm_plane_style planes, const float box[6], const float left[6], const float right[6])
{
    if (planes == BWM_PLANES_KOTORMAX) return 1u << aabb_longest_axis(box);
    bwm_aabb_node l, r;
    pad_box(left, &l);
    pad_box(right, &r);
    double best = -1.0;
    int best_axis = 0, negative = 0;
    for (int k = 0; k < 3; k++) {
        double d = ((double)r.min[k] + r.max[k]) * 0.5 - ((double)l.min[k] + l.max[k]) * 0.5;
        if (fabs(d) > best) {
            best = fabs(d);
            best_axis = k;
            negative = d < 0;
        }
    }
    return (1u << best_axis) << (negative ? 3 : 0);
}

/* Writes the subtree of the (leaf-ordered) recs[lo,hi) at node index `node`
 * and sets face_box to the union of its faces' boxes, from which the split
 * axis of the parent follows again (min and max do not depend on the order
 * they are taken in). Returns the count of nodes written. */
static uint32_t write_node(const aabb_job *j, size_t lo, size_t hi, uint32_t node, float face_box[6])
{
    bwm_aabb_node n;
    n.constant = BWM_AABB_CONSTANT;
    if (hi - lo == 1) {
        uint32_t face = load_leaf_face(j, lo);
        aabb_face_box(j->vertices, j->faces, face, face_box);
        pad_box(face_box, &n);
        n.face = (int32_t)face;
        n.plane = 0;
        n.left = n.right = BWM_NONE;
        store_node(j, node, &n);
        return 1;
    }
    size_t half = (hi - lo) / 2;
    float left_box[6], right_box[6];
    uint32_t left = node + 1;
    uint32_t left_nodes = write_node(j, lo, lo + half, left, left_box);
    uint32_t right = left + left_nodes;
    uint32_t right_nodes = write_node(j, lo + half, hi, right, right_box);
    for (int k = 0; k < 3; k++) {
        face_box[k] = left_box[k] < right_box[k] ? left_box[k] : right_box[k];
        face_box[3 + k] = left_box[3 + k] > right_box[3 + k] ? left_box[3 + k] : right_box[3 + k];
    }
    /* a node's box is its faces' box padded: the union of its children's (rounding is monotonic) */
    pad_box(face_box, &n);
    n.face = -1;
    n.plane = plane_flag(j->planes, face_box, left_box, right_box);
    n.left = left;
    n.right = right;
    store_node(j, node, &n);
    return 1 + left_nodes + right_nodes;
}

/* The builder's work inside the node array: the engine's records and boxes
 * (AABB_WORK_PER_FACE bytes a face) from its start, the faces in leaf order
 * (4 bytes a face) at its end. write_node reads leaf p's face before it
 * writes that leaf's node, node 2p + depth or lower (44 bytes each), and the
 * 4-byte faces after p start 84 F + 44 BWM_AABB_SPARE_NODES - 44 + 4 (p + 1)
 * bytes in, beyond 44 (2p + depth + 1) as the depth is at most 33.
 * (Internal nodes are written after their children, below them.) */
_Static_assert(AABB_WORK_PER_FACE == 56 && sizeof(bwm_aabb_node) == 44, "build_layout assumes these sizes");
static uint32_t *leaf_faces_in_nodes(bwm_aabb_node *out, uint32_t face_count)
{
    size_t node_bytes = ((size_t)2 * face_count - 1 + BWM_AABB_SPARE_NODES) * sizeof(bwm_aabb_node);
    return (uint32_t *)((uint8_t *)out + node_bytes) - face_count;
}

/* The engine's work at the start of `work` (8-byte aligned): two record
 * buffers and the boxes, the ranking's scratch over the second and the boxes. */
static wm_result order_faces(const float *vertices, const uint32_t *faces, uint32_t face_count,
                             const uint32_t *tie_rank, void *work, const aabb_visitor *v)
{
    aabb_rec *recs = work, *other = recs + face_count;
    float *boxes = (float *)(other + face_count);
    aabb_rank_faces(vertices, faces, face_count, tie_rank, recs, other);
    return aabb_order(vertices, faces, face_count, recs, other, boxes, v);
}

static wm_result keep_leaf(void *user, uint32_t node, size_t position, uint32_t face, const float box[6])
{
    (void)node;
    (void)box;
    memcpy((uint32_t *)user + position, &face, sizeof face);
    return WM_OK;
}

static wm_result skip_inner(void *user, uint32_t node, const float box[6], const float left[6],
                            const float right[6], size_t half)
{
    (void)user, (void)node, (void)box, (void)left, (void)right, (void)half;
    return WM_OK;
}

wm_result bwm_build_aabb(wm_ctx *ctx, const float *vertices, const uint32_t *faces, uint32_t face_count,
                         const uint32_t *tie_rank, bwm_plane_style planes, bwm_aabb_node *out)
{
    (void)ctx;
    if (face_count == 0) return WM_OK;
    /* the work lives inside the output (no scratch allocation: on many
     * systems touching fresh memory costs more than the work done in it) */
    uint32_t *leaf_faces = leaf_faces_in_nodes(out, face_count);
    aabb_visitor v = {skip_inner, keep_leaf, leaf_faces};
    wm_result r = order_faces(vertices, faces, face_count, tie_rank, out, &v);
    if (r) return r;
    aabb_job job = {vertices, faces, leaf_faces, out, planes};
    float face_box[6];
    write_node(&job, 0, face_count, 0, face_box);
    return WM_OK;
}

void bwm_node_words(const bwm_aabb_node *n, uint32_t w[11])
{
    memcpy(w, n->min, 12);
    memcpy(w + 3, n->max, 12);
    w[6] = (uint32_t)n->face;
    w[7] = n->constant;
    w[8] = n->plane;
    w[9] = n->left;
    w[10] = n->right;
}

/* The streamed tree: each node is found top-down and handed over before its
 * children, which is file (pre)order. A node's box is its faces' box padded,
 * which equals the union of its leaves' padded boxes (rounding is monotonic),
 * so nothing waits for the children. */
#define STREAM_BATCH 128 /* nodes handed to put at once */

typedef struct tree_stream {
    bwm_plane_style planes;
    bwm_put_fn put;
    void *stage;
    uint32_t count; /* nodes waiting in words */
    uint32_t words[STREAM_BATCH * 11];
} tree_stream;

static wm_result flush_nodes(tree_stream *t)
{
    wm_result r = t->count ? t->put(t->stage, t->words, (size_t)t->count * 11) : WM_OK;
    t->count = 0;
    return r;
}

static wm_result queue_node(tree_stream *t, const bwm_aabb_node *n)
{
    bwm_node_words(n, t->words + (size_t)t->count * 11);
    return ++t->count == STREAM_BATCH ? flush_nodes(t) : WM_OK;
}

static wm_result stream_inner(void *user, uint32_t node, const float box[6], const float left[6],
                              const float right[6], size_t half)
{
    tree_stream *t = user;
    bwm_aabb_node n;
    n.constant = BWM_AABB_CONSTANT;
    pad_box(box, &n);
    n.face = -1;
    n.plane = plane_flag(t->planes, box, left, right);
    n.left = node + 1;
    n.right = node + 2 * (uint32_t)half; /* the left subtree holds 2 half - 1 nodes */
    return queue_node(t, &n);
}

static wm_result stream_leaf(void *user, uint32_t node, size_t position, uint32_t face, const float box[6])
{
    (void)node;
    (void)position;
    bwm_aabb_node n;
    n.constant = BWM_AABB_CONSTANT;
    pad_box(box, &n);
    n.face = (int32_t)face;
    n.plane = 0;
    n.left = n.right = BWM_NONE;
    return queue_node(user, &n);
}

size_t bwm_aabb_stream_bytes(uint32_t face_count)
{
    return (size_t)face_count * AABB_WORK_PER_FACE;
}

wm_result bwm_stream_aabb(const float *vertices, const uint32_t *faces, uint32_t face_count,
                          bwm_plane_style planes, void *work, bwm_put_fn put, void *stage)
{
    if (face_count == 0) return WM_OK;
    tree_stream t;
    t.planes = planes;
    t.put = put;
    t.stage = stage;
    t.count = 0;
    aabb_visitor v = {stream_inner, stream_leaf, &t};
    wm_result r = order_faces(vertices, faces, face_count, NULL, work, &v);
    return r ? r : flush_nodes(&t);
}
