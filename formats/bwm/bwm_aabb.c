/* The BioWare AABB builder: centroid median split on the longest axis of
 * the node's face box, floor(n/2) faces on the left, leaf boxes padded by
 * 0.01, preorder layout with 0-based children, plane flag from the
 * displacement between the children's box centres (KOTORMax and MDLedit
 * write the split axis as 1, 2 or 4 instead).
 * Faces with equal centroids are ordered by a tie rank (default: face
 * index; BioWare's own tie order is not recoverable from geometry). A
 * selection gives the same split as a full sort, in linear time per level. */
#include "bwm/bwm.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define BWM_LEAF_PADDING 0.01f

/* One record per face, moved as a whole by the selection so every pass
 * over a node's faces reads memory sequentially. */
typedef struct face_rec {
    float box[6];    /* min, max */
    double cent[3];  /* mean of the corners */
    uint64_t order;  /* tie rank (default: face index) << 32 | face index: unique, one comparison */
} face_rec;

typedef struct aabb_job {
    face_rec *recs;
    bwm_aabb_node *out;
    bwm_plane_style planes;
} aabb_job;

/* Without branches: the selection's comparisons are hard to predict. */
static inline int rec_less(const face_rec *a, const face_rec *b, int axis)
{
    return (a->cent[axis] < b->cent[axis]) | ((a->cent[axis] == b->cent[axis]) & (a->order < b->order));
}

static inline uint32_t rec_face(const face_rec *r)
{
    return (uint32_t)r->order;
}

static inline void swap_recs(face_rec *r, size_t a, size_t b)
{
    face_rec t = r[a];
    r[a] = r[b];
    r[b] = t;
}

static inline int rec_same(const face_rec *a, const face_rec *b)
{
    return a->order == b->order;
}

/* Rearranges r[left..right] so that r[kth] holds the kth smallest key on the
 * axis and every record before it is smaller (Floyd and Rivest's selection:
 * the pivot comes from a recursive selection in a small sample, so about
 * 1.5 n comparisons suffice). Keys are unique (face index tie-break).
 * Instantiated per axis so the comparison compiles to a fixed offset. */
#define DEFINE_SELECT(NAME, AXIS)                                                                     \
    static void NAME(face_rec *r, long left, long right, long kth)                                   \
    {                                                                                                 \
        while (right > left) {                                                                        \
            if (right - left > 600) {                                                                 \
                double n = (double)(right - left + 1), i = (double)(kth - left + 1);                  \
                double z = log(n), s = 0.5 * exp(2.0 * z / 3.0);                                     \
                double sd = 0.5 * sqrt(z * s * (n - s) / n) * (i - n / 2 < 0 ? -1.0 : 1.0);          \
                long new_left = (long)((double)kth - i * s / n + sd);                                 \
                long new_right = (long)((double)kth + (n - i) * s / n + sd);                          \
                NAME(r, new_left > left ? new_left : left, new_right < right ? new_right : right, kth); \
            }                                                                                         \
            face_rec t = r[kth];                                                                      \
            long i = left, j = right;                                                                 \
            swap_recs(r, (size_t)left, (size_t)kth);                                                  \
            if (rec_less(&t, &r[right], AXIS)) swap_recs(r, (size_t)right, (size_t)left);            \
            while (i < j) {                                                                           \
                swap_recs(r, (size_t)i, (size_t)j);                                                   \
                i++;                                                                                  \
                j--;                                                                                  \
                while (rec_less(&r[i], &t, AXIS)) i++;                                                \
                while (rec_less(&t, &r[j], AXIS)) j--;                                                \
            }                                                                                         \
            if (rec_same(&r[left], &t)) {                                                             \
                swap_recs(r, (size_t)left, (size_t)j);                                                \
            } else {                                                                                  \
                j++;                                                                                  \
                swap_recs(r, (size_t)j, (size_t)right);                                               \
            }                                                                                         \
            if (j <= kth) left = j + 1;                                                               \
            if (kth <= j) right = j - 1;                                                              \
        }                                                                                             \
    }
DEFINE_SELECT(select_x, 0)
DEFINE_SELECT(select_y, 1)
DEFINE_SELECT(select_z, 2)

/* The axis (0, 1, 2 = x, y, z) along which the box is longest; the first on a tie. */
static int longest_axis(const float mn[3], const float mx[3])
{
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (mx[k] - mn[k] > mx[axis] - mn[axis]) axis = k;
    return axis;
}

/* r[kth] becomes the kth smallest of r[lo,hi), everything before it smaller. */
static void select_kth(face_rec *r, int axis, size_t lo, size_t hi, size_t kth)
{
    if (axis == 0)
        select_x(r, (long)lo, (long)hi - 1, (long)kth);
    else if (axis == 1)
        select_y(r, (long)lo, (long)hi - 1, (long)kth);
    else
        select_z(r, (long)lo, (long)hi - 1, (long)kth);
}

/* Sorts recs[lo,hi) into leaf order: each node's faces are split at the
 * median centroid on the longest axis of their face box, floor(n/2) left. */
static void order_leaves(face_rec *recs, size_t lo, size_t hi)
{
    if (hi - lo < 2) return;
    float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = lo; i < hi; i++) {
        const float *b = recs[i].box;
        for (int k = 0; k < 3; k++) {
            if (b[k] < mn[k]) mn[k] = b[k];
            if (b[3 + k] > mx[k]) mx[k] = b[3 + k];
        }
    }
    size_t half = (hi - lo) / 2;
    select_kth(recs, longest_axis(mn, mx), lo, hi, lo + half);
    order_leaves(recs, lo, lo + half);
    order_leaves(recs, lo + half, hi);
}

/* The records share memory with the nodes (see records_in_nodes): both are
 * copied through memcpy, which the compiler may not reorder across the other
 * type's accesses as it could plain loads and stores of unrelated types. */
static face_rec load_rec(const aabb_job *j, size_t i)
{
    face_rec r;
    memcpy(&r, &j->recs[i], sizeof r);
    return r;
}

static void store_node(const aabb_job *j, uint32_t index, const bwm_aabb_node *n)
{
    memcpy(&j->out[index], n, sizeof *n);
}

static bwm_aabb_node load_node(const aabb_job *j, uint32_t index)
{
    bwm_aabb_node n;
    memcpy(&n, &j->out[index], sizeof n);
    return n;
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
        face_rec rec = load_rec(j, lo);
        for (int k = 0; k < 3; k++) {
            n.min[k] = rec.box[k] - BWM_LEAF_PADDING;
            n.max[k] = rec.box[3 + k] + BWM_LEAF_PADDING;
        }
        memcpy(face_box, rec.box, sizeof rec.box);
        n.face = (int32_t)rec_face(&rec);
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
    bwm_aabb_node l = load_node(j, left), r = load_node(j, right);

    double best = -1.0;
    int best_axis = 0, negative = 0;
    for (int k = 0; k < 3; k++) {
        face_box[k] = left_box[k] < right_box[k] ? left_box[k] : right_box[k];
        face_box[3 + k] = left_box[3 + k] > right_box[3 + k] ? left_box[3 + k] : right_box[3 + k];
        n.min[k] = l.min[k] < r.min[k] ? l.min[k] : r.min[k];
        n.max[k] = l.max[k] > r.max[k] ? l.max[k] : r.max[k];
        double d = ((double)r.min[k] + r.max[k]) * 0.5 - ((double)l.min[k] + l.max[k]) * 0.5;
        if (fabs(d) > best) {
            best = fabs(d);
            best_axis = k;
            negative = d < 0;
        }
    }
    n.face = -1;
    /* BioWare: axis and sign of the children's centre displacement; KOTORMax: the split axis */
    if (j->planes == BWM_PLANES_KOTORMAX)
        n.plane = 1u << longest_axis(face_box, face_box + 3);
    else
        n.plane = (1u << best_axis) << (negative ? 3 : 0);
    n.left = left;
    n.right = right;
    store_node(j, node, &n);
    return 1 + left_nodes + right_nodes;
}

/* Where the face records go inside the node array: at its end, 8-byte
 * aligned for their doubles. The preorder writes never reach a record not
 * yet read: leaf p is node 2p + depth or lower (44 bytes per node), written
 * after record p is read, while record p + 1 starts at least
 * 32 F + 44 BWM_AABB_SPARE_NODES - 48 + 56 (p + 1) bytes into the array, so
 * it suffices that depth < BWM_AABB_SPARE_NODES; the depth is at most 32.
 * (Internal nodes are written after their children, below them.) */
_Static_assert(sizeof(face_rec) == 56 && sizeof(bwm_aabb_node) == 44, "records_in_nodes assumes these sizes");
static face_rec *records_in_nodes(bwm_aabb_node *out, uint32_t face_count)
{
    size_t node_bytes = ((size_t)2 * face_count - 1 + BWM_AABB_SPARE_NODES) * sizeof(bwm_aabb_node);
    uintptr_t end = (uintptr_t)out + node_bytes;
    uintptr_t start = (end - (size_t)face_count * sizeof(face_rec)) & ~(uintptr_t)7;
    return (face_rec *)start;
}

/* One record per face: its box, centroid and tie order. */
static void fill_records(face_rec *recs, const float *vertices, const uint32_t *faces, uint32_t face_count,
                         const uint32_t *tie_rank)
{
    for (uint32_t f = 0; f < face_count; f++) {
        face_rec *r = &recs[f];
        const float *v[3];
        for (int c = 0; c < 3; c++) v[c] = &vertices[3 * (size_t)faces[3 * (size_t)f + c]];
        for (int k = 0; k < 3; k++) {
            float lo = v[0][k], hi = v[0][k];
            for (int c = 1; c < 3; c++) {
                if (v[c][k] < lo) lo = v[c][k];
                if (v[c][k] > hi) hi = v[c][k];
            }
            r->box[k] = lo;
            r->box[3 + k] = hi;
            r->cent[k] = ((double)v[0][k] + v[1][k] + v[2][k]) / 3.0;
        }
        r->order = (uint64_t)(tie_rank ? tie_rank[f] : f) << 32 | f;
    }
}

wm_result bwm_build_aabb(wm_ctx *ctx, const float *vertices, const uint32_t *faces, uint32_t face_count,
                         const uint32_t *tie_rank, bwm_plane_style planes, bwm_aabb_node *out)
{
    (void)ctx;
    if (face_count == 0) return WM_OK;
    /* the records live inside the output (no scratch allocation: on many
     * systems touching fresh memory costs more than the work done in it) */
    face_rec *recs = records_in_nodes(out, face_count);
    fill_records(recs, vertices, faces, face_count, tie_rank);
    order_leaves(recs, 0, face_count);
    aabb_job job = {recs, out, planes};
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
typedef struct tree_stream {
    face_rec *recs;
    bwm_plane_style planes;
    bwm_put_fn put;
    void *stage;
} tree_stream;

static void range_box(const face_rec *recs, size_t lo, size_t hi, float box[6])
{
    /* in locals: `box` could alias the records, which would keep it in memory */
    float m[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (size_t i = lo; i < hi; i++) {
        const float *b = recs[i].box;
        for (int k = 0; k < 3; k++) {
            m[k] = b[k] < m[k] ? b[k] : m[k];
            m[3 + k] = b[3 + k] > m[3 + k] ? b[3 + k] : m[3 + k];
        }
    }
    memcpy(box, m, sizeof m);
}

static void pad_box(const float face_box[6], bwm_aabb_node *n)
{
    for (int k = 0; k < 3; k++) {
        n->min[k] = face_box[k] - BWM_LEAF_PADDING;
        n->max[k] = face_box[3 + k] + BWM_LEAF_PADDING;
    }
}

/* The plane flag of a node whose face box is `box` and whose children's are
 * left and right: as write_node finds it from the children's nodes. */
static uint32_t plane_flag(bwm_plane_style planes, const float box[6], const float left[6], const float right[6])
{
    if (planes == BWM_PLANES_KOTORMAX) return 1u << longest_axis(box, box + 3);
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

/* The subtree of recs[lo,hi) (face box `box`) at node index `node`. */
static wm_result stream_node(const tree_stream *t, size_t lo, size_t hi, uint32_t node, const float box[6])
{
    bwm_aabb_node n;
    uint32_t words[11];
    n.constant = BWM_AABB_CONSTANT;
    pad_box(box, &n);
    if (hi - lo == 1) {
        n.face = (int32_t)rec_face(&t->recs[lo]);
        n.plane = 0;
        n.left = n.right = BWM_NONE;
        bwm_node_words(&n, words);
        return t->put(t->stage, words, 11);
    }
    size_t half = (hi - lo) / 2;
    float left_box[6], right_box[6];
    select_kth(t->recs, longest_axis(box, box + 3), lo, hi, lo + half);
    range_box(t->recs, lo, lo + half, left_box);
    range_box(t->recs, lo + half, hi, right_box);
    n.face = -1;
    n.plane = plane_flag(t->planes, box, left_box, right_box);
    n.left = node + 1;
    n.right = node + 2 * (uint32_t)half; /* the left subtree holds 2 half - 1 nodes */
    bwm_node_words(&n, words);
    wm_result r = t->put(t->stage, words, 11);
    if (!r) r = stream_node(t, lo, lo + half, n.left, left_box);
    if (!r) r = stream_node(t, lo + half, hi, n.right, right_box);
    return r;
}

size_t bwm_aabb_stream_bytes(uint32_t face_count)
{
    return (size_t)face_count * sizeof(face_rec);
}

wm_result bwm_stream_aabb(const float *vertices, const uint32_t *faces, uint32_t face_count,
                          bwm_plane_style planes, void *work, bwm_put_fn put, void *stage)
{
    if (face_count == 0) return WM_OK;
    tree_stream t = {work, planes, put, stage};
    float box[6];
    fill_records(t.recs, vertices, faces, face_count, NULL);
    range_box(t.recs, 0, face_count, box);
    return stream_node(&t, 0, face_count, 0, box);
}
