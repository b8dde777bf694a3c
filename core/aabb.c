/* A generic AABB tree over triangles for spatial queries (not a file format). */
#include "wm_geometry.h"

#include <float.h>
#include <math.h>

typedef struct build_task {
    uint32_t node, first, count;
} build_task;

static float centroid(const float *positions, const uint32_t *indices, uint32_t t, int axis)
{
    const uint32_t *tri = indices + 3 * (size_t)t;
    return (positions[3 * (size_t)tri[0] + axis] + positions[3 * (size_t)tri[1] + axis] +
            positions[3 * (size_t)tri[2] + axis]) / 3.0f;
}

/* Quickselect: after it, items[k] has the k-th smallest key and the ones before are <= it. */
static void select_kth(uint32_t *items, float *keys, uint32_t count, uint32_t k)
{
    uint32_t lo = 0, hi = count - 1;
    while (lo < hi) {
        float pivot = keys[lo + (hi - lo) / 2];
        uint32_t i = lo, j = hi;
        while (i <= j) {
            while (keys[i] < pivot)
                i++;
            while (keys[j] > pivot)
                j--;
            if (i <= j) {
                float fk = keys[i];
                keys[i] = keys[j];
                keys[j] = fk;
                uint32_t it = items[i];
                items[i] = items[j];
                items[j] = it;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
}

wm_result wm_aabb_build(wm_ctx *ctx, const float *positions, const uint32_t *indices, uint32_t triangle_count,
                        wm_aabb_tree *out)
{
    out->nodes = NULL;
    out->node_count = 0;
    out->positions = positions;
    out->indices = indices;
    if (triangle_count == 0)
        return WM_OK;
    uint32_t capacity = 2 * triangle_count - 1;
    wm_aabb_node *nodes = wm_alloc_array(ctx, capacity, sizeof *nodes);
    uint32_t *items = wm_alloc_array(ctx, triangle_count, sizeof *items);
    float *keys = wm_alloc_array(ctx, triangle_count, sizeof *keys);
    build_task *stack = wm_alloc_array(ctx, 64 + triangle_count, sizeof *stack);
    if (!nodes || !items || !keys || !stack) {
        wm_free(ctx, nodes);
        wm_free(ctx, items);
        wm_free(ctx, keys);
        wm_free(ctx, stack);
        return WM_ERR_NOMEM;
    }
    for (uint32_t t = 0; t < triangle_count; t++)
        items[t] = t;
    uint32_t used = 1, top = 0;
    stack[top++] = (build_task){0, 0, triangle_count};
    while (top) {
        build_task task = stack[--top];
        wm_aabb_node *node = &nodes[task.node];
        for (int k = 0; k < 3; k++) {
            node->min[k] = FLT_MAX;
            node->max[k] = -FLT_MAX;
        }
        for (uint32_t i = task.first; i < task.first + task.count; i++) {
            const uint32_t *tri = indices + 3 * (size_t)items[i];
            for (int v = 0; v < 3; v++)
                for (int k = 0; k < 3; k++) {
                    float x = positions[3 * (size_t)tri[v] + k];
                    node->min[k] = fminf(node->min[k], x);
                    node->max[k] = fmaxf(node->max[k], x);
                }
        }
        if (task.count == 1) {
            node->left = node->right = -1;
            node->triangle = (int32_t)items[task.first];
            continue;
        }
        int axis = 0;
        float extent = node->max[0] - node->min[0];
        for (int k = 1; k < 3; k++)
            if (node->max[k] - node->min[k] > extent) {
                extent = node->max[k] - node->min[k];
                axis = k;
            }
        for (uint32_t i = task.first; i < task.first + task.count; i++)
            keys[i] = centroid(positions, indices, items[i], axis);
        uint32_t half = task.count / 2;
        select_kth(items + task.first, keys + task.first, task.count, half);
        node->triangle = -1;
        node->left = (int32_t)used++;
        node->right = (int32_t)used++;
        stack[top++] = (build_task){(uint32_t)node->right, task.first + half, task.count - half};
        stack[top++] = (build_task){(uint32_t)node->left, task.first, half};
    }
    wm_free(ctx, items);
    wm_free(ctx, keys);
    wm_free(ctx, stack);
    out->nodes = nodes;
    out->node_count = used;
    return WM_OK;
}

void wm_aabb_free(const wm_ctx *ctx, wm_aabb_tree *tree)
{
    wm_free(ctx, tree->nodes);
    tree->nodes = NULL;
    tree->node_count = 0;
}

void wm_aabb_query_xy(const wm_aabb_tree *tree, float x, float y, wm_aabb_visit_fn visit, void *user)
{
    if (!tree->node_count)
        return;
    int32_t stack[128];
    int top = 0;
    stack[top++] = 0;
    while (top) {
        const wm_aabb_node *node = &tree->nodes[stack[--top]];
        if (x < node->min[0] || x > node->max[0] || y < node->min[1] || y > node->max[1])
            continue;
        if (node->triangle >= 0) {
            if (visit(user, (uint32_t)node->triangle))
                return;
            continue;
        }
        if (top + 2 <= 128) {
            stack[top++] = node->right;
            stack[top++] = node->left;
        }
    }
}

static int ray_box(const float orig[3], const float inv[3], const float min[3], const float max[3], float best)
{
    float t0 = 0.0f, t1 = best;
    for (int k = 0; k < 3; k++) {
        float a = (min[k] - orig[k]) * inv[k], b = (max[k] - orig[k]) * inv[k];
        if (isnan(a) || isnan(b)) { /* ray parallel and on the slab boundary */
            if (orig[k] < min[k] || orig[k] > max[k])
                return 0;
            continue;
        }
        if (a > b) {
            float s = a;
            a = b;
            b = s;
        }
        t0 = a > t0 ? a : t0;
        t1 = b < t1 ? b : t1;
        if (t0 > t1)
            return 0;
    }
    return 1;
}

int wm_aabb_raycast(const wm_aabb_tree *tree, const float orig[3], const float dir[3], uint32_t *out_triangle,
                    float *out_t)
{
    if (!tree->node_count)
        return 0;
    float inv[3];
    for (int k = 0; k < 3; k++)
        inv[k] = 1.0f / dir[k];
    float best = FLT_MAX;
    int hit = 0;
    int32_t stack[128];
    int top = 0;
    stack[top++] = 0;
    while (top) {
        const wm_aabb_node *node = &tree->nodes[stack[--top]];
        if (!ray_box(orig, inv, node->min, node->max, best))
            continue;
        if (node->triangle >= 0) {
            const uint32_t *tri = tree->indices + 3 * (size_t)node->triangle;
            float t;
            if (wm_ray_tri(orig, dir, tree->positions + 3 * (size_t)tri[0], tree->positions + 3 * (size_t)tri[1],
                           tree->positions + 3 * (size_t)tri[2], &t) &&
                t < best) {
                best = t;
                *out_triangle = (uint32_t)node->triangle;
                hit = 1;
            }
            continue;
        }
        if (top + 2 <= 128) {
            stack[top++] = node->right;
            stack[top++] = node->left;
        }
    }
    if (hit)
        *out_t = best;
    return hit;
}
