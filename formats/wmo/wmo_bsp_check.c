/* Reading side of the MOBN/MOBR BSP: point queries, statistics and the
 * invariant check used by validate and the tests. A node's negative child
 * holds what lies at or below its plane on its axis, the positive child what
 * lies at or above it (measured on Blizzard's trees: see docs/wmo.md). */
#include "wmo.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Work bound for walks over possibly malformed trees: a tree visits each
 * node once; more visits mean shared children or cycles. */
typedef struct walk_item {
    uint32_t node;
    uint32_t depth;
    double lo[3], hi[3];
} walk_item;

int wmo_bsp_query_point(const wmo_bsp_node *nodes, uint32_t node_count, const float p[3], wmo_bsp_leaf_fn visit,
                        void *user, uint32_t *out_visits)
{
    int32_t stack[256];
    uint32_t top = 0, scratch_visits, *visits = out_visits ? out_visits : &scratch_visits;
    *visits = 0;
    if (node_count == 0)
        return 1;
    stack[top++] = 0;
    while (top > 0) {
        uint32_t i = (uint32_t)stack[--top];
        if (++*visits > node_count)
            return 0;
        const wmo_bsp_node *n = &nodes[i];
        if (n->flags & WMO_BSP_LEAF) {
            visit(user, i);
            continue;
        }
        int axis = n->flags & WMO_BSP_AXIS_MASK;
        if (axis > 2)
            return 0;
        int32_t next[2] = {p[axis] >= n->plane ? n->positive : -1, p[axis] <= n->plane ? n->negative : -1};
        for (int k = 0; k < 2; k++) {
            if (next[k] < 0)
                continue;
            if ((uint32_t)next[k] >= node_count || top == sizeof stack / sizeof stack[0])
                return 0;
            stack[top++] = next[k];
        }
    }
    return 1;
}

wm_result wmo_bsp_stats_compute(wm_ctx *ctx, const wmo_bsp_node *nodes, uint32_t node_count, uint32_t triangle_count,
                                const uint16_t *refs, uint32_t ref_count, wmo_bsp_stats *out)
{
    memset(out, 0, sizeof *out);
    out->nodes = node_count;
    out->refs = ref_count;
    out->min_leaf = UINT32_MAX;
    uint64_t leaf_total = 0;
    for (uint32_t i = 0; i < node_count; i++) {
        const wmo_bsp_node *n = &nodes[i];
        if (n->flags & WMO_BSP_LEAF) {
            out->leaves++;
            leaf_total += n->face_count;
            if (n->face_count < out->min_leaf)
                out->min_leaf = n->face_count;
            if (n->face_count > out->max_leaf)
                out->max_leaf = n->face_count;
        } else {
            out->empty_children += (n->negative < 0) + (n->positive < 0);
        }
    }
    if (out->leaves == 0)
        out->min_leaf = 0;
    out->average_leaf = out->leaves ? (double)leaf_total / out->leaves : 0.0;
    /* depth: children always come after their parent in a well-formed
     * (preorder) tree, so one forward pass assigns depths */
    uint32_t *depth = wm_alloc_array(ctx, node_count, sizeof *depth);
    uint8_t *seen = wm_alloc_array(ctx, triangle_count, 1);
    if (!depth || !seen) {
        wm_free(ctx, depth);
        wm_free(ctx, seen);
        return WM_ERR_NOMEM;
    }
    {
        for (uint32_t i = 0; i < node_count; i++) {
            const wmo_bsp_node *n = &nodes[i];
            if (depth[i] + 1 > out->depth)
                out->depth = depth[i] + 1;
            if (n->flags & WMO_BSP_LEAF)
                continue;
            int32_t kids[2] = {n->negative, n->positive};
            for (int k = 0; k < 2; k++)
                if (kids[k] > (int32_t)i && (uint32_t)kids[k] < node_count)
                    depth[kids[k]] = depth[i] + 1;
        }
    }
    {
        for (uint32_t i = 0; i < ref_count; i++)
            if (refs[i] < triangle_count)
                seen[refs[i]] = 1;
        for (uint32_t t = 0; t < triangle_count; t++)
            out->unreferenced += !seen[t];
    }
    wm_free(ctx, depth);
    wm_free(ctx, seen);
    return WM_OK;
}

#define MAX_LISTED_PROBLEMS 20

/* Work bounds of the check (see wmo_bsp_check in wmo.h). Blizzard's and our
 * trees list each reference once (MOBR entries = sum of leaf sizes) and a
 * centroid query visits about the depth of the tree. */
#define MAX_LISTED_PER_REF 8u
#define WORK_PER_ELEMENT 64u

typedef struct checker {
    const wmo_bsp_view *bsp;
    wm_report *report;
    uint32_t problems;
    uint64_t budget; /* node visits and reference comparisons left */
} checker;

static void problem(checker *c, const char *location, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(3, 4)
#endif
    ;

static void problem(checker *c, const char *location, const char *fmt, ...)
{
    c->problems++;
    if (!c->report || c->problems > MAX_LISTED_PROBLEMS)
        return;
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    wm_report_finding(c->report, WM_SEV_ERROR, location, "%s", message);
}

/* Clips the triangle against the box (tolerance eps); non-empty = overlap. */
static int triangle_overlaps_box(const float *a, const float *b, const float *c, const double lo[3],
                                 const double hi[3], double eps)
{
    double poly[2][12][3];
    int n = 3, cur = 0;
    for (int k = 0; k < 3; k++) {
        poly[0][0][k] = a[k];
        poly[0][1][k] = b[k];
        poly[0][2][k] = c[k];
    }
    for (int plane = 0; plane < 6 && n > 0; plane++) {
        int axis = plane >> 1;
        double sign = (plane & 1) ? -1.0 : 1.0; /* keep sign*(x - bound) >= 0 */
        double bound = (plane & 1) ? hi[axis] + eps : lo[axis] - eps;
        if (!isfinite(bound))
            continue;
        int m = 0;
        for (int i = 0; i < n; i++) {
            const double *p = poly[cur][i], *q = poly[cur][(i + 1) % n];
            double dp = sign * (p[axis] - bound), dq = sign * (q[axis] - bound);
            if (dp >= 0)
                memcpy(poly[!cur][m++], p, sizeof(double) * 3);
            if ((dp >= 0) != (dq >= 0)) {
                double t = dp / (dp - dq);
                for (int k = 0; k < 3; k++)
                    poly[!cur][m][k] = p[k] + t * (q[k] - p[k]);
                m++;
            }
        }
        n = m;
        cur = !cur;
    }
    return n > 0;
}

static wm_result check_structure(wm_ctx *ctx, checker *c)
{
    const wmo_bsp_view *bsp = c->bsp;
    uint8_t *parents = wm_alloc_array(ctx, bsp->node_count, 1);
    if (!parents)
        return WM_ERR_NOMEM;
    char where[64];
    for (uint32_t i = 0; i < bsp->node_count; i++) {
        const wmo_bsp_node *n = &bsp->nodes[i];
        snprintf(where, sizeof where, "MOBN node %u", i);
        if (n->flags & WMO_BSP_LEAF) {
            if ((uint64_t)n->first_face + n->face_count > bsp->ref_count)
                problem(c, where, "faces %u..%u run past MOBR's %u entries", n->first_face,
                        n->first_face + n->face_count, bsp->ref_count);
            else if (n->face_count == 0)
                problem(c, where, "empty leaf (Blizzard's trees have none)");
            continue;
        }
        if ((n->flags & WMO_BSP_AXIS_MASK) > 2)
            problem(c, where, "flags 0x%x name no split axis", n->flags);
        int32_t kids[2] = {n->negative, n->positive};
        for (int k = 0; k < 2; k++) {
            if (kids[k] < 0)
                continue;
            if ((uint32_t)kids[k] >= bsp->node_count || kids[k] <= (int32_t)i)
                problem(c, where, "child %d is not a later node (tree must be preorder, %u nodes)", kids[k],
                        bsp->node_count);
            else if (parents[kids[k]]++)
                problem(c, where, "child %d already has a parent", kids[k]);
        }
    }
    for (uint32_t i = 0; i < bsp->ref_count; i++)
        if (bsp->refs[i] >= bsp->triangle_count) {
            snprintf(where, sizeof where, "MOBR entry %u", i);
            problem(c, where, "triangle %u but the group has %u", bsp->refs[i], bsp->triangle_count);
        }
    wm_free(ctx, parents);
    return WM_OK;
}

/* Spends work; 0 (with one problem) once the check's budget is gone. */
static int spend(checker *c, uint64_t units)
{
    if (c->budget >= units) {
        c->budget -= units;
        return 1;
    }
    if (c->budget != UINT64_MAX - 1)
        problem(c, "MOBN", "check stopped: its walks and leaves need more than %u steps per node, reference and "
                           "triangle (leaves overlap, or split planes pass through many centroids)",
                WORK_PER_ELEMENT);
    c->budget = UINT64_MAX - 1; /* marks the problem as reported; nothing more is spent */
    return 0;
}

static int spent(const checker *c)
{
    return c->budget == UINT64_MAX - 1;
}

/* Marks covered[t] for each triangle listed by a leaf whose region overlaps it. */
static wm_result check_regions(wm_ctx *ctx, checker *c, uint8_t *covered)
{
    const wmo_bsp_view *bsp = c->bsp;
    walk_item *stack = wm_alloc_array(ctx, (size_t)bsp->node_count + 1, sizeof *stack);
    if (!stack)
        return WM_ERR_NOMEM;
    uint32_t top = 0, visits = 0;
    stack[top].node = 0;
    for (int k = 0; k < 3; k++) {
        stack[top].lo[k] = -HUGE_VAL;
        stack[top].hi[k] = HUGE_VAL;
    }
    top++;
    while (top > 0 && visits++ <= bsp->node_count && spend(c, 1)) {
        walk_item item = stack[--top];
        const wmo_bsp_node *n = &bsp->nodes[item.node];
        if (n->flags & WMO_BSP_LEAF) {
            if ((uint64_t)n->first_face + n->face_count > bsp->ref_count || !spend(c, n->face_count))
                continue;
            for (uint32_t k = 0; k < n->face_count; k++) {
                uint32_t t = bsp->refs[n->first_face + k];
                if (t >= bsp->triangle_count || covered[t])
                    continue;
                const uint32_t *v = &bsp->indices[3 * (size_t)t];
                covered[t] = (uint8_t)triangle_overlaps_box(&bsp->positions[3 * v[0]], &bsp->positions[3 * v[1]],
                                                            &bsp->positions[3 * v[2]], item.lo, item.hi, 1e-3);
            }
            continue;
        }
        int axis = n->flags & WMO_BSP_AXIS_MASK;
        if (axis > 2)
            continue;
        int32_t kids[2] = {n->negative, n->positive};
        for (int k = 0; k < 2; k++) {
            if (kids[k] <= (int32_t)item.node || (uint32_t)kids[k] >= bsp->node_count || top > bsp->node_count)
                continue;
            walk_item child = item;
            child.node = (uint32_t)kids[k];
            child.depth = item.depth + 1;
            if (k == 0)
                child.hi[axis] = fmin(item.hi[axis], n->plane);
            else
                child.lo[axis] = fmax(item.lo[axis], n->plane);
            stack[top++] = child;
        }
    }
    wm_free(ctx, stack);
    return WM_OK;
}

/* The leaves listing each triangle (leaves_of[start[t]..start[t+1]]), so a
 * centroid query checks membership without scanning a leaf's whole list. */
typedef struct leaf_index {
    uint32_t *start, *leaves;
} leaf_index;

static uint64_t listed_references(const wmo_bsp_view *bsp)
{
    uint64_t listed = 0;
    for (uint32_t i = 0; i < bsp->node_count; i++) {
        const wmo_bsp_node *n = &bsp->nodes[i];
        if ((n->flags & WMO_BSP_LEAF) && (uint64_t)n->first_face + n->face_count <= bsp->ref_count)
            listed += n->face_count;
    }
    return listed;
}

static wm_result leaf_index_build(wm_ctx *ctx, const wmo_bsp_view *bsp, uint64_t listed, leaf_index *x)
{
    x->start = wm_alloc_array(ctx, (size_t)bsp->triangle_count + 1, sizeof(uint32_t));
    x->leaves = wm_alloc_array(ctx, (size_t)listed, sizeof(uint32_t));
    if (!x->start || !x->leaves)
        return WM_ERR_NOMEM;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < bsp->node_count; i++) {
            const wmo_bsp_node *n = &bsp->nodes[i];
            if (!(n->flags & WMO_BSP_LEAF) || (uint64_t)n->first_face + n->face_count > bsp->ref_count)
                continue;
            for (uint32_t k = 0; k < n->face_count; k++) {
                uint32_t t = bsp->refs[n->first_face + k];
                if (t >= bsp->triangle_count)
                    continue;
                if (pass == 0)
                    x->start[t + 1]++;
                else
                    x->leaves[x->start[t]++] = i; /* start[t] is the fill cursor in pass 1 */
            }
        }
        if (pass == 0)
            for (uint32_t t = 0; t < bsp->triangle_count; t++)
                x->start[t + 1] += x->start[t];
        else
            for (uint32_t t = bsp->triangle_count; t > 0; t--)
                x->start[t] = x->start[t - 1]; /* back from fill cursors to starts */
    }
    x->start[0] = 0;
    return WM_OK;
}

typedef struct centroid_query {
    checker *c;
    const leaf_index *index;
    uint32_t triangle;
    uint32_t leaves;
    int found;
} centroid_query;

static void visit_leaf(void *user, uint32_t node)
{
    centroid_query *q = user;
    uint32_t from = q->index->start[q->triangle], to = q->index->start[q->triangle + 1];
    q->leaves++;
    if (q->found || !spend(q->c, to - from))
        return;
    for (uint32_t k = from; k < to && !q->found; k++)
        q->found = q->index->leaves[k] == node;
}

/* Every included triangle: covered by a leaf region, and found by a point query at its centroid. */
static void check_triangles(checker *c, const uint8_t *include, const uint8_t *covered, const leaf_index *index)
{
    const wmo_bsp_view *bsp = c->bsp;
    char where[64];
    for (uint32_t t = 0; t < bsp->triangle_count && !spent(c); t++) {
        if (include && !include[t])
            continue;
        snprintf(where, sizeof where, "triangle %u", t);
        if (!covered[t])
            problem(c, where, "no BSP leaf whose region overlaps it lists it");
        const uint32_t *v = &bsp->indices[3 * (size_t)t];
        float p[3];
        for (int k = 0; k < 3; k++)
            p[k] = (bsp->positions[3 * v[0] + k] + bsp->positions[3 * v[1] + k] + bsp->positions[3 * v[2] + k]) / 3.0f;
        centroid_query q = {c, index, t, 0, 0};
        uint32_t visits = 0;
        int formed = wmo_bsp_query_point(bsp->nodes, bsp->node_count, p, visit_leaf, &q, &visits);
        if (!spend(c, visits))
            break;
        if (!formed)
            problem(c, where, "point query at the centroid (%g, %g, %g) met a malformed tree", p[0], p[1], p[2]);
        else if (!q.found)
            problem(c, where, "point query at the centroid (%g, %g, %g) reaches %u leaves, none lists it", p[0],
                    p[1], p[2], q.leaves);
    }
}

wm_result wmo_bsp_check(wm_ctx *ctx, const wmo_bsp_view *bsp, const uint8_t *include, wm_report *report,
                        uint32_t *out_problems)
{
    checker c = {bsp, report, 0, 0};
    c.budget = WORK_PER_ELEMENT * ((uint64_t)bsp->node_count + bsp->ref_count + bsp->triangle_count) + (1u << 16);
    *out_problems = 0;
    wm_result r = check_structure(ctx, &c);
    if (r)
        return r;
    uint32_t wanted = 0;
    for (uint32_t t = 0; t < bsp->triangle_count; t++)
        wanted += !include || include[t];
    uint64_t listed = listed_references(bsp);
    int overlapping = listed > (uint64_t)MAX_LISTED_PER_REF * bsp->ref_count + 64;
    if (bsp->node_count == 0 && wanted)
        problem(&c, "MOBN", "no BSP but %u triangles should be in one", wanted);
    else if (overlapping)
        problem(&c, "MOBN", "leaves list %llu references in all, over %u times MOBR's %u entries (leaves overlap)",
                (unsigned long long)listed, MAX_LISTED_PER_REF, bsp->ref_count);
    if (bsp->node_count == 0 || overlapping) {
        *out_problems = c.problems;
        return WM_OK;
    }
    uint8_t *covered = wm_alloc_array(ctx, bsp->triangle_count, 1);
    leaf_index index = {NULL, NULL};
    r = covered ? leaf_index_build(ctx, bsp, listed, &index) : WM_ERR_NOMEM;
    if (!r)
        r = check_regions(ctx, &c, covered);
    if (!r && !spent(&c))
        check_triangles(&c, include, covered, &index);
    wm_free(ctx, covered);
    wm_free(ctx, index.start);
    wm_free(ctx, index.leaves);
    if (r)
        return r;
    if (report && c.problems > MAX_LISTED_PROBLEMS)
        wm_report_finding(report, WM_SEV_ERROR, "MOBN", "%u more BSP problems not listed",
                          c.problems - MAX_LISTED_PROBLEMS);
    *out_problems = c.problems;
    return WM_OK;
}
