/* Walkmesh cutters. For each polygon: its corners are inserted into the
 * triangles holding them (a corner on an edge splits both triangles of the
 * edge at one shared vertex); then each polygon edge splits exactly the
 * triangles it passes through. Since every corner is a vertex by then, a
 * polygon edge crosses any triangle from boundary to boundary, so the
 * triangle on the other side of each crossed edge is crossed too and gets
 * the same split vertex: the mesh stays watertight. Last, every triangle
 * whose centre lies inside a polygon is removed. */
#include "bake_split.h"

#include <math.h>
#include <string.h>

/* Distance (in x/y units) within which a corner counts as on an edge. */
#define CORNER_EPS 1e-4

/* Even-odd rule. */
static int inside_polygon(const nwn2_cutter *c, double x, double y)
{
    int in = 0;
    for (uint32_t i = 0, j = c->point_count - 1; i < c->point_count; j = i++) {
        double xi = c->points[2 * i], yi = c->points[2 * i + 1];
        double xj = c->points[2 * j], yj = c->points[2 * j + 1];
        if ((yi > y) != (yj > y) && x < xj + (y - yj) * (xi - xj) / (yi - yj))
            in = !in;
    }
    return in;
}

static double orient(const float *a, const float *b, double px, double py)
{
    return ((double)b[0] - a[0]) * (py - a[1]) - ((double)b[1] - a[1]) * (px - a[0]);
}

typedef enum { CORNER_OUTSIDE, CORNER_INSIDE, CORNER_ON_EDGE } corner_place;

/* Where (x, y) lies in triangle t; *edge = vertex opposite the edge it is on,
 * bary = barycentric weights of the vertices. */
static corner_place locate(const nwn2_aswm *a, uint32_t t, double x, double y, int *edge, double bary[3])
{
    const uint32_t *v = a->triangles[t].v;
    const float *p[3] = {&a->vertices[3 * v[0]], &a->vertices[3 * v[1]], &a->vertices[3 * v[2]]};
    double area = orient(p[0], p[1], p[2][0], p[2][1]);
    if (fabs(area) < 1e-12)
        return CORNER_OUTSIDE; /* vertical or degenerate: nothing to cut in x/y */
    int near = 0;
    for (int k = 0; k < 3; k++) {
        const float *b = p[(k + 1) % 3], *c = p[(k + 2) % 3];
        double o = orient(b, c, x, y);
        double len = hypot((double)c[0] - b[0], (double)c[1] - b[1]);
        bary[k] = o / area;
        if (len > 0 && fabs(o) / len <= CORNER_EPS) {
            near++;
            *edge = k;
        } else if (bary[k] < 0) {
            return CORNER_OUTSIDE;
        }
    }
    if (near >= 2)
        return CORNER_OUTSIDE; /* at a vertex already */
    return near ? CORNER_ON_EDGE : CORNER_INSIDE;
}

static wm_result insert_corner(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, double x, double y, bake_subset *near,
                               uint32_t *added)
{
    uint32_t hits = 0;
    int edge;
    double bary[3];
    for (uint32_t i = 0; i < near->count; i++)
        hits += locate(a, near->index[i], x, y, &edge, bary) != CORNER_OUTSIDE;
    if (!hits)
        return WM_OK;
    wm_result r = bake_split_begin(ctx, s, a, hits, 2 * hits);
    if (r)
        return r;
    const uint32_t before = a->triangle_count, looked_at = near->count;
    for (uint32_t i = 0; i < looked_at; i++) {
        const uint32_t t = near->index[i];
        corner_place where = locate(a, t, x, y, &edge, bary);
        if (where == CORNER_OUTSIDE)
            continue;
        const nwn2_triangle model = a->triangles[t];
        uint32_t slot = t;
        if (where == CORNER_INSIDE) {
            float pos[3] = {(float)x, (float)y, 0.0f};
            double z = 0;
            for (int k = 0; k < 3; k++)
                z += bary[k] * a->vertices[3 * model.v[k] + 2];
            pos[2] = (float)z;
            uint32_t P = a->vertex_count;
            memcpy(&a->vertices[3 * a->vertex_count++], pos, sizeof pos);
            bake_split_emit(a, &slot, &model, model.v[0], model.v[1], P);
            bake_split_emit(a, &slot, &model, model.v[1], model.v[2], P);
            bake_split_emit(a, &slot, &model, model.v[2], model.v[0], P);
        } else {
            uint32_t X = model.v[edge], Y = model.v[(edge + 1) % 3], Z = model.v[(edge + 2) % 3];
            /* the point on edge YZ, from the edge's ends in index order */
            uint32_t lo = Y < Z ? Y : Z, hi = Y < Z ? Z : Y;
            const float *L = &a->vertices[3 * lo], *H = &a->vertices[3 * hi];
            double dx = (double)H[0] - L[0], dy = (double)H[1] - L[1];
            double u = ((x - L[0]) * dx + (y - L[1]) * dy) / (dx * dx + dy * dy);
            float pos[3];
            for (int k = 0; k < 3; k++)
                pos[k] = (float)((double)L[k] + u * ((double)H[k] - (double)L[k]));
            uint32_t P = bake_split_point(s, a, lo, hi, pos);
            bake_split_emit(a, &slot, &model, X, Y, P);
            bake_split_emit(a, &slot, &model, X, P, Z);
        }
    }
    *added += a->triangle_count - before;
    return bake_subset_add_from(ctx, near, a, before);
}

/* A polygon edge as a segment: from (x0, y0) along the unit direction for len. */
typedef struct segment {
    const bake_line *line;
    double x0, y0, dx, dy, len;
} segment;

/* Splits triangle t only when the middle of the line's chord through it lies on the segment. */
static int on_segment(void *user, const nwn2_aswm *a, uint32_t t)
{
    const segment *sg = user;
    const uint32_t *v = a->triangles[t].v;
    double d[3], mx = 0, my = 0;
    int n = 0;
    for (int k = 0; k < 3; k++) {
        const float *p = &a->vertices[3 * v[k]];
        d[k] = sg->line->nx * p[0] + sg->line->ny * p[1] - sg->line->c;
    }
    for (int k = 0; k < 3 && n < 2; k++) {
        const float *p = &a->vertices[3 * v[k]], *q = &a->vertices[3 * v[(k + 1) % 3]];
        double dk = d[k], dq = d[(k + 1) % 3];
        if ((dk > 0 && dq < 0) || (dk < 0 && dq > 0)) {
            double u = dk / (dk - dq);
            mx += p[0] + u * ((double)q[0] - p[0]);
            my += p[1] + u * ((double)q[1] - p[1]);
            n++;
        }
    }
    if (n == 0)
        return 0;
    mx /= n;
    my /= n;
    double along = (mx - sg->x0) * sg->dx + (my - sg->y0) * sg->dy;
    return along > CORNER_EPS && along < sg->len - CORNER_EPS;
}

/* A cutter's box in x/y, widened by the distance within which a corner
 * still counts as on an edge. */
typedef struct cut_box {
    double lo[2], hi[2];
} cut_box;

static cut_box cutter_box(const nwn2_cutter *c)
{
    cut_box b = {{INFINITY, INFINITY}, {-INFINITY, -INFINITY}};
    for (uint32_t i = 0; i < c->point_count; i++)
        for (int k = 0; k < 2; k++) {
            double v = c->points[2 * i + k];
            b.lo[k] = v < b.lo[k] ? v : b.lo[k];
            b.hi[k] = v > b.hi[k] ? v : b.hi[k];
        }
    for (int k = 0; k < 2; k++) {
        b.lo[k] -= 2 * CORNER_EPS;
        b.hi[k] += 2 * CORNER_EPS;
    }
    return b;
}

static int box_meets_triangle(const cut_box *b, const nwn2_aswm *a, uint32_t t)
{
    for (int k = 0; k < 2; k++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < 3; i++) {
            double v = a->vertices[3 * (size_t)a->triangles[t].v[i] + k];
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        if (hi < b->lo[k] || lo > b->hi[k])
            return 0;
    }
    return 1;
}

/* Corners and edges of one cutter only touch the triangles its box meets
 * (and the pieces made from them): those are the only ones looked at. */
static wm_result cut_one(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, const nwn2_cutter *c, bake_subset *near,
                         uint32_t *added)
{
    const cut_box box = cutter_box(c);
    near->count = 0;
    wm_result r = WM_OK;
    for (uint32_t t = 0; t < a->triangle_count && !r; t++)
        if (box_meets_triangle(&box, a, t)) {
            r = bake_grow(ctx, (void **)&near->index, &near->capacity, near->count + 1, sizeof *near->index);
            if (!r)
                near->index[near->count++] = t;
        }
    for (uint32_t i = 0; i < c->point_count && !r; i++)
        if (isfinite(c->points[2 * i]) && isfinite(c->points[2 * i + 1]))
            r = insert_corner(ctx, s, a, c->points[2 * i], c->points[2 * i + 1], near, added);
    for (uint32_t i = 0; i < c->point_count && !r; i++) {
        uint32_t j = (i + 1) % c->point_count;
        double x0 = c->points[2 * i], y0 = c->points[2 * i + 1];
        double dx = c->points[2 * j] - x0, dy = c->points[2 * j + 1] - y0;
        double len = sqrt(dx * dx + dy * dy);
        if (!(len > 1e-6) || !isfinite(len))
            continue;
        bake_line l = {-dy / len, dx / len, 0.0, -1};
        l.c = l.nx * x0 + l.ny * y0;
        segment sg = {&l, x0, y0, dx / len, dy / len, len};
        r = bake_split_line(ctx, s, a, &l, on_segment, &sg, near, added);
    }
    return r;
}

wm_result bake_cut(wm_ctx *ctx, nwn2_aswm *a, const nwn2_cutter_set *cutters, const uint8_t *whole, uint32_t *added,
                   uint32_t *removed)
{
    bake_splitter s;
    bake_splitter_init(&s);
    bake_subset near = {0};
    cut_box *boxes = wm_alloc_array(ctx, cutters->count ? cutters->count : 1, sizeof *boxes);
    wm_result r = boxes ? WM_OK : WM_ERR_NOMEM;
    for (uint32_t ci = 0; ci < cutters->count && !r; ci++) {
        const nwn2_cutter *c = &cutters->cutters[ci];
        boxes[ci] = cutter_box(c);
        if (c->point_count < 3 || (whole && whole[ci]))
            continue;
        r = cut_one(ctx, &s, a, c, &near, added);
    }
    bake_splitter_free(ctx, &s);
    bake_subset_free(ctx, &near);
    if (r) {
        wm_free(ctx, boxes);
        return r;
    }
    uint32_t n = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        float centre[2];
        const uint32_t *v = a->triangles[t].v;
        nwn2_toolset_centre(&a->vertices[3 * v[0]], &a->vertices[3 * v[1]], &a->vertices[3 * v[2]], centre);
        int cut = 0;
        for (uint32_t ci = 0; ci < cutters->count && !cut; ci++) {
            const cut_box *b = &boxes[ci];
            cut = cutters->cutters[ci].point_count >= 3 && centre[0] >= b->lo[0] && centre[0] <= b->hi[0] &&
                  centre[1] >= b->lo[1] && centre[1] <= b->hi[1] &&
                  inside_polygon(&cutters->cutters[ci], centre[0], centre[1]);
        }
        if (cut)
            (*removed)++;
        else
            a->triangles[n++] = a->triangles[t];
    }
    a->triangle_count = n;
    wm_free(ctx, boxes);
    return WM_OK;
}
