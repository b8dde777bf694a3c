/* The AABB builder's recursion over ranked faces (see bwm_aabb_order.h):
 * a node's faces lie at [lo, hi) of one of two record buffers; the median
 * rank on the longest axis of their box is selected, and one pass copies
 * the faces below it to the front and the others behind them, in the other
 * buffer; a pass over each side then unites its faces' boxes. The copy
 * keeps face order within each side, so the boxes (in face order) are read
 * forward. Measured and not kept: uniting the boxes in the copy itself,
 * through a masked address (more instructions than it saved in cache
 * misses), and splitting large nodes in one pass around a sampled bracket
 * of the median instead of a selection's pass and a copy's (slower: two
 * stores a face, and the sides no longer in face order). */
#include "bwm/bwm_aabb_order.h"

#include <math.h>
#include <string.h>

#define SMALL_TREE 16 /* faces of a subtree found in a local array */

typedef struct order_job {
    const float *boxes;
    aabb_rec *buf[2];
    const aabb_visitor *v;
} order_job;

void aabb_face_box(const float *vertices, const uint32_t *faces, uint32_t face, float box[6])
{
    const float *c[3];
    for (int i = 0; i < 3; i++) c[i] = &vertices[3 * (size_t)faces[3 * (size_t)face + i]];
    for (int k = 0; k < 3; k++) {
        float lo = c[0][k], hi = c[0][k];
        for (int i = 1; i < 3; i++) {
            if (c[i][k] < lo) lo = c[i][k];
            if (c[i][k] > hi) hi = c[i][k];
        }
        box[k] = lo;
        box[3 + k] = hi;
    }
}

/* The axis (0, 1, 2 = x, y, z) along which the box is longest; the first on a tie. */
int aabb_longest_axis(const float box[6])
{
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (box[3 + k] - box[k] > box[3 + axis] - box[axis]) axis = k;
    return axis;
}

/* Copies src[0,n) to dst: ranks on the axis under t to dst[0,half) and the
 * rest to dst[half,n), each side in its order. Without branches: which side
 * a face goes to is a coin toss for any predictor. */
static void split(const aabb_rec *src, aabb_rec *dst, size_t n, int axis, uint32_t t, size_t half)
{
    const uint32_t *key = src[0].rank + axis;
    size_t li = 0, ri = half;
    for (size_t i = 0; i < n; i++) {
        size_t below = key[4 * i] < t, at = ri ^ ((li ^ ri) & (0 - below));
        dst[at] = src[i];
        li += below;
        ri += 1 - below;
    }
}

/* The box of the faces of recs[0,n); two running unions halve the dependency. */
static void range_box(const order_job *j, const aabb_rec *recs, size_t n, float box[6])
{
    aabb_union a, b;
    aabb_union_init(&a);
    aabb_union_init(&b);
    size_t i = 0;
    for (; i + 1 < n; i += 2) {
        aabb_union_add(&a, j->boxes + 6 * (size_t)recs[i].face);
        aabb_union_add(&b, j->boxes + 6 * (size_t)recs[i + 1].face);
    }
    if (i < n) aabb_union_add(&a, j->boxes + 6 * (size_t)recs[i].face);
    aabb_union_merge(&a, &b);
    aabb_union_box(&a, box);
}

/* A small node's faces with their boxes, in a local array: its whole
 * subtree is found there, each level by sorting, without scattered reads. */
typedef struct small_face {
    uint32_t rank[3];
    uint32_t face;
    float box[6]; /* as in order_job.boxes */
} small_face;

static void sort_small_faces(small_face *s, size_t n, int axis)
{
    for (size_t i = 1; i < n; i++) {
        small_face x = s[i];
        size_t k = i;
        for (; k > 0 && s[k - 1].rank[axis] > x.rank[axis]; k--) s[k] = s[k - 1];
        s[k] = x;
    }
}

static void small_box(const small_face *s, size_t n, float box[6])
{
    aabb_union u;
    aabb_union_init(&u);
    for (size_t i = 0; i < n; i++) aabb_union_add(&u, s[i].box);
    aabb_union_box(&u, box);
}

static wm_result order_small(const order_job *j, small_face *s, size_t n, size_t position, uint32_t node,
                             const float box[6])
{
    if (n == 1) return j->v->leaf(j->v->user, node, position, s->face, box);
    int axis = aabb_longest_axis(box);
    size_t half = n / 2;
    float left[6], right[6];
    if (n == 2) { /* the commonest node: two leaves in their order on the axis */
        const small_face *a = &s[s[1].rank[axis] < s[0].rank[axis]], *b = &s[s[1].rank[axis] > s[0].rank[axis]];
        small_box(a, 1, left);
        small_box(b, 1, right);
        wm_result r = j->v->inner(j->v->user, node, box, left, right, 1);
        if (!r) r = j->v->leaf(j->v->user, node + 1, position, a->face, left);
        if (!r) r = j->v->leaf(j->v->user, node + 2, position + 1, b->face, right);
        return r;
    }
    sort_small_faces(s, n, axis);
    small_box(s, half, left);
    small_box(s + half, n - half, right);
    wm_result r = j->v->inner(j->v->user, node, box, left, right, half);
    if (!r) r = order_small(j, s, half, position, node + 1, left);
    if (!r) r = order_small(j, s + half, n - half, position + half, node + 2 * (uint32_t)half, right);
    return r;
}

static wm_result order_node(const order_job *j, int cur, size_t lo, size_t hi, uint32_t node, const float box[6])
{
    const aabb_rec *src = j->buf[cur] + lo;
    size_t n = hi - lo;
    if (n <= SMALL_TREE) {
        small_face s[SMALL_TREE];
        for (size_t i = 0; i < n; i++) {
            memcpy(s[i].rank, src[i].rank, sizeof s[i].rank);
            s[i].face = src[i].face;
            memcpy(s[i].box, j->boxes + 6 * (size_t)src[i].face, sizeof s[i].box);
        }
        return order_small(j, s, n, lo, node, box);
    }
    int axis = aabb_longest_axis(box);
    size_t half = n / 2;
    aabb_rec *dst = j->buf[!cur] + lo;
    /* the other buffer's room for these faces is free until the split fills it */
    uint32_t t = aabb_select((const uint32_t *)src + axis, 4, n, half, (uint32_t *)dst);
    float left[6], right[6];
    split(src, dst, n, axis, t, half);
    range_box(j, dst, half, left);
    range_box(j, dst + half, n - half, right);
    wm_result r = j->v->inner(j->v->user, node, box, left, right, half);
    if (!r) r = order_node(j, !cur, lo, lo + half, node + 1, left);
    if (!r) r = order_node(j, !cur, lo + half, hi, node + 2 * (uint32_t)half, right);
    return r;
}

wm_result aabb_order(const float *vertices, const uint32_t *faces, uint32_t face_count, aabb_rec *recs,
                     aabb_rec *other, float *boxes, const aabb_visitor *v)
{
    float box[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
    for (uint32_t f = 0; f < face_count; f++) {
        float *b = boxes + 6 * (size_t)f;
        aabb_face_box(vertices, faces, f, b);
        for (int k = 0; k < 3; k++) {
            box[k] = b[k] < box[k] ? b[k] : box[k];
            box[3 + k] = b[3 + k] > box[3 + k] ? b[3 + k] : box[3 + k];
            b[3 + k] = -b[3 + k]; /* see range_box */
        }
    }
    order_job j = {boxes, {recs, other}, v};
    return order_node(&j, 0, 0, face_count, 0, box);
}
