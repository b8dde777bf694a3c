/* The BioWare AABB builder: centroid median split on the longest axis of
 * the node's face box, floor(n/2) faces on the left, leaf boxes padded by
 * 0.01, preorder layout with 0-based children, plane flag from the
 * displacement between the children's box centres (KOTORMax and MDLedit
 * write the split axis as 1, 2 or 4 instead).
 * Faces with equal centroids are ordered by a tie rank (default: face
 * index; BioWare's own tie order is not recoverable from geometry). A quickselect partition
 * gives the same split as a full sort in linear time per level. */
#include "bwm/bwm.h"

#include <math.h>

#define BWM_LEAF_PADDING 0.01f

typedef struct aabb_job {
    const float *box;    /* 6 per face: min, max */
    const double *cent;  /* 3 per face */
    uint32_t *ids;
    const uint32_t *rank; /* tie order, NULL: face index */
    bwm_aabb_node *out;
    bwm_plane_style planes;
} aabb_job;

static int key_less(const aabb_job *j, int axis, uint32_t a, uint32_t b)
{
    double ca = j->cent[3 * (size_t)a + axis], cb = j->cent[3 * (size_t)b + axis];
    if (ca != cb) return ca < cb;
    return j->rank ? (j->rank[a] != j->rank[b] ? j->rank[a] < j->rank[b] : a < b) : a < b;
}

static void swap_ids(uint32_t *ids, size_t a, size_t b)
{
    uint32_t t = ids[a];
    ids[a] = ids[b];
    ids[b] = t;
}

/* Rearranges ids[lo,hi) so that ids[k] holds the k-th smallest key and
 * every id before k is smaller. Keys are unique (index tie-break). */
static void select_kth(const aabb_job *j, int axis, size_t lo, size_t hi, size_t k)
{
    uint32_t *ids = j->ids;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2, last = hi - 1;
        /* median of three moved to last as the pivot */
        if (key_less(j, axis, ids[mid], ids[lo])) swap_ids(ids, mid, lo);
        if (key_less(j, axis, ids[last], ids[lo])) swap_ids(ids, last, lo);
        if (key_less(j, axis, ids[mid], ids[last])) swap_ids(ids, mid, last);
        uint32_t pivot = ids[last];
        size_t store = lo;
        for (size_t i = lo; i < last; i++)
            if (key_less(j, axis, ids[i], pivot)) swap_ids(ids, i, store++);
        swap_ids(ids, store, last);
        if (store == k) return;
        if (k < store)
            hi = store;
        else
            lo = store + 1;
    }
}

/* Builds the subtree of ids[lo,hi) at node index `node`; returns the count of nodes written. */
static uint32_t build_node(const aabb_job *j, size_t lo, size_t hi, uint32_t node)
{
    bwm_aabb_node *n = &j->out[node];
    n->constant = BWM_AABB_CONSTANT;
    if (hi - lo == 1) {
        const float *b = &j->box[6 * (size_t)j->ids[lo]];
        for (int k = 0; k < 3; k++) {
            n->min[k] = b[k] - BWM_LEAF_PADDING;
            n->max[k] = b[3 + k] + BWM_LEAF_PADDING;
        }
        n->face = (int32_t)j->ids[lo];
        n->plane = 0;
        n->left = n->right = BWM_NONE;
        return 1;
    }
    float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = lo; i < hi; i++) {
        const float *b = &j->box[6 * (size_t)j->ids[i]];
        for (int k = 0; k < 3; k++) {
            if (b[k] < mn[k]) mn[k] = b[k];
            if (b[3 + k] > mx[k]) mx[k] = b[3 + k];
        }
    }
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (mx[k] - mn[k] > mx[axis] - mn[axis]) axis = k;
    size_t half = (hi - lo) / 2;
    select_kth(j, axis, lo, hi, lo + half);

    uint32_t left = node + 1;
    uint32_t left_nodes = build_node(j, lo, lo + half, left);
    uint32_t right = left + left_nodes;
    uint32_t right_nodes = build_node(j, lo + half, hi, right);
    const bwm_aabb_node *l = &j->out[left], *r = &j->out[right];

    double best = -1.0;
    int best_axis = 0, negative = 0;
    for (int k = 0; k < 3; k++) {
        n->min[k] = l->min[k] < r->min[k] ? l->min[k] : r->min[k];
        n->max[k] = l->max[k] > r->max[k] ? l->max[k] : r->max[k];
        double d = ((double)r->min[k] + r->max[k]) * 0.5 - ((double)l->min[k] + l->max[k]) * 0.5;
        if (fabs(d) > best) {
            best = fabs(d);
            best_axis = k;
            negative = d < 0;
        }
    }
    n->face = -1;
    /* BioWare: axis and sign of the children's centre displacement; KOTORMax: the split axis */
    if (j->planes == BWM_PLANES_KOTORMAX)
        n->plane = 1u << axis;
    else
        n->plane = (1u << best_axis) << (negative ? 3 : 0);
    n->left = left;
    n->right = right;
    return 1 + left_nodes + right_nodes;
}

wm_result bwm_build_aabb(wm_ctx *ctx, const float *vertices, const uint32_t *faces, uint32_t face_count,
                         const uint32_t *tie_rank, bwm_plane_style planes, bwm_aabb_node *out)
{
    if (face_count == 0) return WM_OK;
    float *box = wm_alloc_array(ctx, (size_t)face_count, 6 * sizeof(float));
    double *cent = wm_alloc_array(ctx, (size_t)face_count, 3 * sizeof(double));
    uint32_t *ids = wm_alloc_array(ctx, face_count, sizeof(uint32_t));
    if (!box || !cent || !ids) {
        wm_free(ctx, box);
        wm_free(ctx, cent);
        wm_free(ctx, ids);
        return WM_ERR_NOMEM;
    }
    for (uint32_t f = 0; f < face_count; f++) {
        const float *v[3];
        for (int c = 0; c < 3; c++) v[c] = &vertices[3 * (size_t)faces[3 * (size_t)f + c]];
        for (int k = 0; k < 3; k++) {
            float lo = v[0][k], hi = v[0][k];
            for (int c = 1; c < 3; c++) {
                if (v[c][k] < lo) lo = v[c][k];
                if (v[c][k] > hi) hi = v[c][k];
            }
            box[6 * (size_t)f + k] = lo;
            box[6 * (size_t)f + 3 + k] = hi;
            cent[3 * (size_t)f + k] = ((double)v[0][k] + v[1][k] + v[2][k]) / 3.0;
        }
        ids[f] = f;
    }
    aabb_job job = {box, cent, ids, tie_rank, out, planes};
    build_node(&job, 0, face_count, 0);
    wm_free(ctx, box);
    wm_free(ctx, cent);
    wm_free(ctx, ids);
    return WM_OK;
}
