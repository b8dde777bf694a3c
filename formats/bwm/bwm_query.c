/* Spatial queries through the file's own AABB tree. The traversal trusts
 * nothing: a child that does not lie after its parent inside the node array
 * (a cycle, or a read outside the tree) is a corrupt file, not a miss, and a
 * visit budget bounds shared subtrees. */
#include "bwm/bwm.h"
#include "wm_geometry.h"

#include <math.h>

#define QUERY_STACK 128

typedef int (*leaf_fn)(void *user, uint32_t face);
typedef int (*box_fn)(const void *user, const bwm_aabb_node *node);

static wm_result bad_link(wm_ctx *ctx, const bwm_file *f, const char *source, uint32_t node, const char *what,
                          uint32_t value)
{
    uint32_t offset = f->offsets[BWM_SEC_AABB] + 44u * node;
    if (value >= (what[0] == 'f' ? f->face_count : f->aabb_count))
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: offset 0x%x: AABB node %u: %s %u out of range (%u %s)", source,
                        offset, node, what, value, what[0] == 'f' ? f->face_count : f->aabb_count,
                        what[0] == 'f' ? "faces" : "nodes");
    return wm_error(ctx, WM_ERR_CORRUPT, "%s: offset 0x%x: AABB node %u: %s %u is not after its parent (the tree loops)",
                    source, offset, node, what, value);
}

wm_result bwm_check_aabb_links(wm_ctx *ctx, const bwm_file *f, const char *source)
{
    for (uint32_t i = 0; i < f->aabb_count; i++) {
        const bwm_aabb_node *n = &f->aabb[i];
        if (n->face >= 0) {
            if ((uint32_t)n->face >= f->face_count) return bad_link(ctx, f, source, i, "face", (uint32_t)n->face);
            continue;
        }
        if (n->left <= i || n->left >= f->aabb_count) return bad_link(ctx, f, source, i, "left child", n->left);
        if (n->right <= i || n->right >= f->aabb_count) return bad_link(ctx, f, source, i, "right child", n->right);
    }
    return WM_OK;
}

static wm_result walk_tree(wm_ctx *ctx, const bwm_file *f, box_fn enter, leaf_fn leaf, void *user)
{
    uint32_t stack[QUERY_STACK];
    unsigned top = 0;
    uint64_t budget = 4ull * f->aabb_count + 16;
    if (f->type != BWM_TYPE_AREA || f->aabb_count == 0)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "the walkmesh has no AABB tree (queries need a .wok)");
    stack[top++] = 0;
    while (top) {
        uint32_t i = stack[--top];
        const bwm_aabb_node *n = &f->aabb[i];
        if (budget-- == 0) return wm_error(ctx, WM_ERR_CORRUPT, "AABB tree: node %u: links form a cycle or overlap", i);
        if (!enter(user, n)) continue;
        if (n->face >= 0) {
            if ((uint32_t)n->face >= f->face_count) return bad_link(ctx, f, "AABB tree", i, "face", (uint32_t)n->face);
            if (leaf(user, (uint32_t)n->face)) return WM_OK;
            continue;
        }
        uint32_t kids[2] = {n->right, n->left}; /* left is popped first */
        for (int k = 0; k < 2; k++) {
            if (kids[k] <= i || kids[k] >= f->aabb_count)
                return bad_link(ctx, f, "AABB tree", i, k ? "left child" : "right child", kids[k]);
            if (top == QUERY_STACK) return wm_error(ctx, WM_ERR_CORRUPT, "AABB tree: node %u: deeper than %d", i, QUERY_STACK);
            stack[top++] = kids[k];
        }
    }
    return WM_OK;
}

static const float *corner(const bwm_file *f, uint32_t face, int k)
{
    return &f->vertices[3 * (size_t)f->faces[3 * (size_t)face + k]];
}

typedef struct point_query {
    const bwm_file *f;
    float x, y, z_ref;
    uint32_t best;
    float best_z;
} point_query;

static int point_enter(const void *user, const bwm_aabb_node *n)
{
    const point_query *q = user;
    return q->x >= n->min[0] && q->x <= n->max[0] && q->y >= n->min[1] && q->y <= n->max[1];
}

static int point_leaf(void *user, uint32_t face)
{
    point_query *q = user;
    float z;
    if (face >= q->f->adjacency_count) return 0; /* walkable faces come first */
    const float *a = corner(q->f, face, 0), *b = corner(q->f, face, 1), *c = corner(q->f, face, 2);
    if (!wm_point_in_tri_xy(a, b, c, q->x, q->y, 1e-5f) || !wm_tri_height_at(a, b, c, q->x, q->y, &z)) return 0;
    if (q->best == BWM_NONE || fabsf(z - q->z_ref) < fabsf(q->best_z - q->z_ref) ||
        (isinf(q->z_ref) && z > q->best_z)) {
        q->best = face;
        q->best_z = z;
    }
    return 0;
}

wm_result bwm_face_at(wm_ctx *ctx, const bwm_file *file, float x, float y, float z_ref, uint32_t *out_face,
                      float *out_z)
{
    point_query q = {file, x, y, z_ref, BWM_NONE, 0};
    wm_result r = walk_tree(ctx, file, point_enter, point_leaf, &q);
    if (r) return r;
    if (q.best == BWM_NONE) return wm_error(ctx, WM_ERR_INVALID, "no walkable face at (%g, %g)", x, y);
    if (out_face) *out_face = q.best;
    if (out_z) *out_z = q.best_z;
    return WM_OK;
}

wm_result bwm_height_at(wm_ctx *ctx, const bwm_file *file, float x, float y, float z_ref, float *out_z)
{
    return bwm_face_at(ctx, file, x, y, z_ref, NULL, out_z);
}

typedef struct ray_query {
    const bwm_file *f;
    float o[3], d[3], inv[3];
    uint32_t best;
    float best_t;
} ray_query;

static int ray_enter(const void *user, const bwm_aabb_node *n)
{
    const ray_query *q = user;
    float t0 = 0.0f, t1 = q->best == BWM_NONE ? INFINITY : q->best_t;
    for (int k = 0; k < 3; k++) {
        if (q->d[k] == 0.0f) {
            if (q->o[k] < n->min[k] || q->o[k] > n->max[k]) return 0;
            continue;
        }
        float a = (n->min[k] - q->o[k]) * q->inv[k], b = (n->max[k] - q->o[k]) * q->inv[k];
        if (a > b) {
            float t = a;
            a = b;
            b = t;
        }
        if (a > t0) t0 = a;
        if (b < t1) t1 = b;
        if (t0 > t1) return 0;
    }
    return 1;
}

static int ray_leaf(void *user, uint32_t face)
{
    ray_query *q = user;
    float t;
    if (wm_ray_tri(q->o, q->d, corner(q->f, face, 0), corner(q->f, face, 1), corner(q->f, face, 2), &t) &&
        (q->best == BWM_NONE || t < q->best_t)) {
        q->best = face;
        q->best_t = t;
    }
    return 0;
}

wm_result bwm_raycast(wm_ctx *ctx, const bwm_file *file, const float origin[3], const float dir[3],
                      uint32_t *out_face, float *out_t)
{
    ray_query q = {file, {origin[0], origin[1], origin[2]}, {dir[0], dir[1], dir[2]}, {0, 0, 0}, BWM_NONE, 0};
    if (dir[0] == 0 && dir[1] == 0 && dir[2] == 0) return wm_error(ctx, WM_ERR_INVALID, "ray direction is zero");
    for (int k = 0; k < 3; k++) q.inv[k] = dir[k] != 0 ? 1.0f / dir[k] : 0.0f;
    wm_result r = walk_tree(ctx, file, ray_enter, ray_leaf, &q);
    if (r) return r;
    if (q.best == BWM_NONE) return wm_error(ctx, WM_ERR_INVALID, "the ray hits no face");
    if (out_face) *out_face = q.best;
    if (out_t) *out_t = q.best_t;
    return WM_OK;
}

uint32_t bwm_aabb_depth(const bwm_file *f)
{
    /* bounded walk: children must come after their parent */
    uint32_t best = 0;
    if (f->aabb_count == 0) return 0;
    uint32_t stack[QUERY_STACK], level[QUERY_STACK];
    unsigned top = 0;
    uint64_t budget = 4ull * f->aabb_count + 16;
    stack[top] = 0;
    level[top++] = 1;
    while (top && budget--) {
        top--;
        uint32_t i = stack[top], d = level[top];
        if (d > best) best = d;
        const bwm_aabb_node *n = &f->aabb[i];
        if (n->face >= 0) continue;
        uint32_t kids[2] = {n->left, n->right};
        for (int k = 0; k < 2; k++)
            if (kids[k] > i && kids[k] < f->aabb_count && top < QUERY_STACK) {
                stack[top] = kids[k];
                level[top++] = d + 1;
            }
    }
    return best;
}
