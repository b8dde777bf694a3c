/* Building a MOBN/MOBR BSP: split where the larger side gets smallest; a
 * triangle goes to every side it reaches, so each leaf region holds every
 * triangle overlapping it. Nodes are
 * stored in preorder with the positive child right after its parent, the
 * layout of Blizzard's trees. */
#include "wmo.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 48

typedef struct builder {
    wm_ctx *ctx;
    float *lo, *hi, *centroid; /* 3 per triangle */
    float *scratch;
    uint32_t leaf_size;
    wmo_bsp_node *nodes;
    uint32_t node_count, node_capacity;
    uint16_t *refs;
    uint32_t ref_count, ref_capacity;
    int too_many_nodes;
} builder;

static int compare_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static wm_result grow(wm_ctx *ctx, void **array, uint32_t *capacity, uint32_t needed, size_t elem)
{
    if (needed <= *capacity)
        return WM_OK;
    uint32_t wanted = *capacity ? *capacity : 64;
    while (wanted < needed)
        wanted *= 2;
    void *bigger = *array ? wm_realloc_array(ctx, *array, wanted, elem) : wm_alloc_array(ctx, wanted, elem);
    if (!bigger)
        return WM_ERR_NOMEM;
    *array = bigger;
    *capacity = wanted;
    return WM_OK;
}

static wm_result add_node(builder *b, uint32_t *out)
{
    if (b->node_count >= WMO_MAX_BSP_NODES) {
        b->too_many_nodes = 1;
        return WM_ERR_LIMIT;
    }
    wm_result r = grow(b->ctx, (void **)&b->nodes, &b->node_capacity, b->node_count + 1, sizeof *b->nodes);
    if (r)
        return r;
    *out = b->node_count++;
    memset(&b->nodes[*out], 0, sizeof b->nodes[*out]);
    return WM_OK;
}

static wm_result make_leaf(builder *b, uint32_t node, const uint32_t *tris, uint32_t count)
{
    wm_result r = grow(b->ctx, (void **)&b->refs, &b->ref_capacity, b->ref_count + count, sizeof *b->refs);
    if (r)
        return r;
    wmo_bsp_node *n = &b->nodes[node];
    n->flags = WMO_BSP_LEAF;
    n->negative = n->positive = -1;
    n->face_count = (uint16_t)count;
    n->first_face = b->ref_count;
    n->plane = 0.0f;
    for (uint32_t i = 0; i < count; i++)
        b->refs[b->ref_count++] = (uint16_t)tris[i];
    return WM_OK;
}

/* Side rules: a triangle goes negative when part of it lies below the plane
 * or its centroid is at or below it, positive likewise above. A query point
 * below (above) the plane descends negative (positive), one on the plane
 * both ways, so every point of a triangle, its centroid included (computed
 * the same way as the check does), reaches a leaf listing it. */
static int goes_negative(const builder *b, uint32_t t, int axis, float plane)
{
    return b->lo[3 * t + axis] < plane || b->centroid[3 * t + axis] <= plane;
}

static int goes_positive(const builder *b, uint32_t t, int axis, float plane)
{
    return b->hi[3 * t + axis] > plane || b->centroid[3 * t + axis] >= plane;
}

/* Tries planes at centroid quantiles and at the bounds of the median
 * triangle on every axis; keeps the one with the smallest larger side
 * (then the fewest duplicates). Returns 0 when no plane leaves both sides
 * at most 80% of the node's triangles. */
static int choose_split(builder *b, const uint32_t *tris, uint32_t count, int *out_axis, float *out_plane,
                        uint32_t *out_neg, uint32_t *out_pos)
{
    uint64_t best_cost = UINT64_MAX;
    for (int axis = 0; axis < 3; axis++) {
        for (uint32_t i = 0; i < count; i++)
            b->scratch[i] = b->centroid[3 * tris[i] + axis];
        qsort(b->scratch, count, sizeof *b->scratch, compare_float);
        if (!(b->scratch[count - 1] > b->scratch[0]))
            continue;
        uint32_t median_tri = tris[0];
        for (uint32_t i = 0; i < count; i++)
            if (b->centroid[3 * tris[i] + axis] == b->scratch[count / 2])
                median_tri = tris[i];
        float candidates[7] = {b->scratch[count / 4],     b->scratch[3 * count / 8], b->scratch[count / 2],
                               b->scratch[5 * count / 8], b->scratch[3 * count / 4], b->lo[3 * median_tri + axis],
                               b->hi[3 * median_tri + axis]};
        for (int c = 0; c < 7; c++) {
            uint32_t neg = 0, pos = 0;
            for (uint32_t i = 0; i < count; i++) {
                neg += (uint32_t)goes_negative(b, tris[i], axis, candidates[c]);
                pos += (uint32_t)goes_positive(b, tris[i], axis, candidates[c]);
            }
            /* a split that leaves either side with more than 80% of the
             * triangles mostly duplicates them: not worth a level */
            if ((uint64_t)(neg > pos ? neg : pos) * 5 > (uint64_t)count * 4)
                continue;
            uint64_t cost = 4u * (uint64_t)(neg > pos ? neg : pos) + neg + pos;
            if (cost < best_cost) {
                best_cost = cost;
                *out_axis = axis;
                *out_plane = candidates[c];
                *out_neg = neg;
                *out_pos = pos;
            }
        }
    }
    return best_cost != UINT64_MAX;
}

static wm_result build(builder *b, const uint32_t *tris, uint32_t count, uint32_t depth, uint32_t *out_node)
{
    uint32_t node = 0;
    wm_result r = add_node(b, &node);
    if (r)
        return r;
    *out_node = node;
    int axis = 0;
    float plane = 0.0f;
    uint32_t neg = 0, pos = 0;
    if (count <= b->leaf_size || depth >= MAX_DEPTH || !choose_split(b, tris, count, &axis, &plane, &neg, &pos))
        return make_leaf(b, node, tris, count);
    uint32_t *sides = wm_alloc_array(b->ctx, (size_t)neg + pos, sizeof *sides);
    if (!sides)
        return WM_ERR_NOMEM;
    uint32_t *neg_tris = sides, *pos_tris = sides + neg, n = 0, p = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (goes_negative(b, tris[i], axis, plane))
            neg_tris[n++] = tris[i];
        if (goes_positive(b, tris[i], axis, plane))
            pos_tris[p++] = tris[i];
    }
    uint32_t pos_node = 0, neg_node = 0;
    r = build(b, pos_tris, pos, depth + 1, &pos_node);
    r = r ? r : build(b, neg_tris, neg, depth + 1, &neg_node);
    wm_free(b->ctx, sides);
    if (r)
        return r;
    wmo_bsp_node *nd = &b->nodes[node];
    nd->flags = (uint16_t)axis;
    nd->plane = plane;
    nd->positive = (int16_t)pos_node;
    nd->negative = (int16_t)neg_node;
    return WM_OK;
}

static void free_builder(builder *b)
{
    wm_free(b->ctx, b->lo);
    wm_free(b->ctx, b->hi);
    wm_free(b->ctx, b->centroid);
    wm_free(b->ctx, b->scratch);
    wm_free(b->ctx, b->nodes);
    wm_free(b->ctx, b->refs);
}

wm_result wmo_bsp_build(wm_ctx *ctx, const float *positions, const uint32_t *indices, uint32_t triangle_count,
                        uint32_t leaf_size, wmo_bsp_node **out_nodes, uint32_t *out_node_count, uint16_t **out_refs,
                        uint32_t *out_ref_count)
{
    *out_nodes = NULL;
    *out_refs = NULL;
    *out_node_count = *out_ref_count = 0;
    if (triangle_count > WMO_MAX_GROUP_ELEMENTS)
        return wm_error(ctx, WM_ERR_INVALID, "a WMO group holds at most %u triangles, got %u", WMO_MAX_GROUP_ELEMENTS,
                        triangle_count);
    if (triangle_count == 0)
        return WM_OK;
    if (leaf_size == 0)
        leaf_size = WMO_DEFAULT_LEAF_SIZE;
    for (;;) {
        builder b;
        memset(&b, 0, sizeof b);
        b.ctx = ctx;
        b.leaf_size = leaf_size;
        b.lo = wm_alloc_array(ctx, (size_t)triangle_count * 3, sizeof(float));
        b.hi = wm_alloc_array(ctx, (size_t)triangle_count * 3, sizeof(float));
        b.centroid = wm_alloc_array(ctx, (size_t)triangle_count * 3, sizeof(float));
        b.scratch = wm_alloc_array(ctx, triangle_count, sizeof(float));
        uint32_t *all = wm_alloc_array(ctx, triangle_count, sizeof *all);
        if (!b.lo || !b.hi || !b.centroid || !b.scratch || !all) {
            wm_free(ctx, all);
            free_builder(&b);
            return WM_ERR_NOMEM;
        }
        for (uint32_t t = 0; t < triangle_count; t++) {
            all[t] = t;
            for (int k = 0; k < 3; k++) {
                float a = positions[3 * indices[3 * t] + k], c = positions[3 * indices[3 * t + 1] + k],
                      d = positions[3 * indices[3 * t + 2] + k];
                float lo = a < c ? a : c, hi = a > c ? a : c;
                b.lo[3 * t + k] = d < lo ? d : lo;
                b.hi[3 * t + k] = d > hi ? d : hi;
                b.centroid[3 * t + k] = (a + c + d) / 3.0f;
            }
        }
        uint32_t root = 0;
        wm_result r = build(&b, all, triangle_count, 0, &root);
        wm_free(ctx, all);
        if (r == WM_OK) {
            *out_nodes = b.nodes;
            *out_node_count = b.node_count;
            *out_refs = b.refs;
            *out_ref_count = b.ref_count;
            b.nodes = NULL;
            b.refs = NULL;
            free_builder(&b);
            return WM_OK;
        }
        int retry = b.too_many_nodes && leaf_size < WMO_MAX_GROUP_ELEMENTS / 2;
        free_builder(&b);
        if (!retry)
            return r == WM_ERR_LIMIT ? wm_error(ctx, r, "BSP needs more than %u nodes", WMO_MAX_BSP_NODES) : r;
        leaf_size *= 2; /* fewer, larger leaves fit the i16 child indices */
    }
}

void wmo_put_bsp_nodes(wm_buffer *b, const wmo_bsp_node *nodes, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        wm_put_u16(b, nodes[i].flags);
        wm_put_i16(b, nodes[i].negative);
        wm_put_i16(b, nodes[i].positive);
        wm_put_u16(b, nodes[i].face_count);
        wm_put_u32(b, nodes[i].first_face);
        wm_put_f32(b, nodes[i].plane);
    }
}
