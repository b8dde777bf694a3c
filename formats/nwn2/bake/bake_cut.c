/* Walkmesh cutters. For each polygon, edge by edge: the edge's end corner is
 * inserted into the triangles holding it (a corner on an edge splits both
 * triangles of the edge at one shared vertex), then the edge splits exactly
 * the triangles it passes through. Corner and edge alternate (instead of all
 * corners first) because a corner inserted into a big triangle fans it into
 * long pieces that every later edge of a dense outline would cross: 4,000
 * corners made 1.6 million pieces that way, 87,000 alternating. Since both
 * ends of an edge are vertices when it splits, it crosses any triangle from
 * boundary to boundary, so the
 * triangle on the other side of each crossed edge is crossed too and gets
 * the same split vertex: the mesh stays watertight. Last, every triangle
 * whose centre lies inside a polygon is removed. */
#include "bake_inside.h"
#include "bake_pieces_internal.h"

#include <stdlib.h>

#include <math.h>
#include <string.h>

/* Distance (in x/y units) within which a corner counts as on an edge. */
#define CORNER_EPS BAKE_CORNER_REACH
/* An edge closer than this to a base's rim all along runs along it (bake_split.c's ON_LINE_EPS). */
#define GRAZE 1e-5
/* How far around a corner or an edge the grid is asked for triangles. */
#define GRID_PAD 1e-3

static double orient(const float *a, const float *b, double px, double py)
{
    return ((double)b[0] - a[0]) * (py - a[1]) - ((double)b[1] - a[1]) * (px - a[0]);
}

typedef enum { CORNER_OUTSIDE, CORNER_INSIDE, CORNER_ON_EDGE, CORNER_AT_VERTEX } corner_place;

/* Where (x, y) lies in triangle t; *edge = vertex opposite the edge it is on
 * (at a vertex: that vertex), bary = barycentric weights of the vertices. */
static corner_place locate(const nwn2_aswm *a, uint32_t t, double x, double y, int *edge, double bary[3])
{
    const uint32_t *v = a->triangles[t].v;
    const float *p[3] = {&a->vertices[3 * v[0]], &a->vertices[3 * v[1]], &a->vertices[3 * v[2]]};
    double area = orient(p[0], p[1], p[2][0], p[2][1]);
    if (fabs(area) < 1e-12)
        return CORNER_OUTSIDE; /* vertical or degenerate: nothing to cut in x/y */
    int near = 0, other = 0;
    for (int k = 0; k < 3; k++) {
        const float *b = p[(k + 1) % 3], *c = p[(k + 2) % 3];
        double o = orient(b, c, x, y);
        double len = hypot((double)c[0] - b[0], (double)c[1] - b[1]);
        bary[k] = o / area;
        if (len > 0 && fabs(o) / len <= CORNER_EPS) {
            near++;
            other = *edge;
            *edge = k;
        } else if (bary[k] < 0) {
            return CORNER_OUTSIDE;
        }
    }
    if (near >= 2) {
        *edge = 3 - *edge - other; /* the vertex both near sides share */
        return CORNER_AT_VERTEX;
    }
    return near ? CORNER_ON_EDGE : CORNER_INSIDE;
}

/* A point made on an outline side splits it into two outline sides. */
static wm_result keep_outlines(wm_ctx *ctx, const bake_splitter *s, bake_pieces *pieces)
{
    wm_result r = WM_OK;
    for (uint32_t i = 0; i < s->made_count && !r; i++) {
        const uint32_t *m = &s->made[3 * i];
        if (bake_pieces_fixed(pieces, m[0], m[1]) && !(r = bake_pieces_fix(ctx, pieces, m[0], m[2])))
            r = bake_pieces_fix(ctx, pieces, m[2], m[1]);
    }
    return r;
}

static void note_vertex(corner_vertices *out, uint32_t base, uint32_t vertex)
{
    for (uint32_t i = 0; i < out->count; i++)
        if (out->base[i] == base) {
            if (out->vertex[i] != vertex)
                out->vertex[i] = NWN2_NONE32; /* two in one base: let the search choose */
            return;
        }
    if (out->count < sizeof out->base / sizeof out->base[0]) {
        out->base[out->count] = base;
        out->vertex[out->count++] = vertex;
    }
}

/* Makes (x, y) a vertex of every piece holding it; *out gets that vertex in each base. */
static wm_result insert_corner(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, double x, double y, bake_pieces *pieces,
                               corner_vertices *out, uint32_t *added)
{
    out->count = 0;
    wm_result r = bake_pieces_near_point(ctx, pieces, a, x, y, GRID_PAD);
    if (r)
        return r;
    const bake_subset *near = &pieces->found;
    uint32_t hits = 0;
    int edge;
    double bary[3];
    for (uint32_t i = 0; i < near->count; i++) {
        const uint32_t t = near->index[i];
        const corner_place where = locate(a, t, x, y, &edge, bary);
        hits += where == CORNER_INSIDE || where == CORNER_ON_EDGE;
        if (where == CORNER_AT_VERTEX)
            note_vertex(out, a->triangles[t].edge[1], a->triangles[t].v[edge]);
    }
    if (!hits)
        return WM_OK;
    r = bake_split_begin(ctx, s, a, hits, 2 * hits);
    if (r)
        return r;
    const uint32_t before = a->triangle_count, looked_at = near->count, first_vertex = a->vertex_count;
    for (uint32_t i = 0; i < looked_at; i++) {
        const uint32_t t = near->index[i];
        corner_place where = locate(a, t, x, y, &edge, bary);
        if (where == CORNER_OUTSIDE || where == CORNER_AT_VERTEX)
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
            note_vertex(out, model.edge[1], P);
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
            note_vertex(out, model.edge[1], P);
        }
    }
    uint32_t closed = 0; /* counted below with the rest */
    r = bake_split_close(ctx, s, a, near, before, &closed);
    if (!r)
        r = keep_outlines(ctx, s, pieces);
    *added += a->triangle_count - before;
    return r ? r : bake_pieces_update(ctx, pieces, a, near, before, first_vertex);
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

/* Splits every piece the segment p-q passes through along it (the way an
 * edge was cut before bake_constrain.c; now the fallback where flips cannot
 * make the edge a side). */
static wm_result split_along(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, bake_pieces *pieces, const double p[2],
                             const double q[2], uint32_t *added)
{
    const double dx = q[0] - p[0], dy = q[1] - p[1], len = sqrt(dx * dx + dy * dy);
    if (!(len > 1e-6) || !isfinite(len))
        return WM_OK;
    bake_line l = {-dy / len, dx / len, 0.0, -1};
    l.c = l.nx * p[0] + l.ny * p[1];
    segment sg = {&l, p[0], p[1], dx / len, dy / len, len};
    const uint32_t before = a->triangle_count, first_vertex = a->vertex_count;
    wm_result r = bake_pieces_on_segment(ctx, pieces, a, p, q);
    if (!r)
        r = bake_split_line(ctx, s, a, &l, on_segment, &sg, &pieces->found, added);
    if (!r)
        r = keep_outlines(ctx, s, pieces);
    if (!r)
        r = bake_pieces_fix_segment(ctx, pieces, a, &pieces->found, a->triangle_count, p, q);
    return r ? r : bake_pieces_update(ctx, pieces, a, &pieces->found, before, first_vertex);
}

/* Parameters along a cutter edge, for its rim crossings. */
typedef struct edge_params {
    double *t;
    uint32_t count, capacity;
    corner_vertices *at; /* the vertices made at each */
    uint32_t at_capacity;
} edge_params;

static int ascending_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Whether p-q only runs along base b's rim or touches its corner (the
 * middle of its part in b within GRAZE of the rim). A vertex there would
 * split a side the edge does not cross (a toolset TRX already has its
 * cutters' outlines as sides, to rounding); splitting along the edge
 * leaves such sides whole, as it always did. */
static int grazes(const bake_pieces *pieces, uint32_t b, const double p[2], const double q[2], double t)
{
    const double *xy = &pieces->base_xy[6 * (size_t)b], m[2] = {p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])};
    for (int k = 0; k < 3; k++) {
        const double *u = &xy[2 * k], *w = &xy[2 * ((k + 1) % 3)];
        const double dx = w[0] - u[0], dy = w[1] - u[1], len = sqrt(dx * dx + dy * dy);
        if (len > 0 && fabs(dx * (m[1] - u[1]) - dy * (m[0] - u[0])) / len <= GRAZE)
            return 1;
    }
    return 0;
}

/* Where p-q enters or leaves a base (its rim), ascending, the ends left out. */
static wm_result rim_crossings(wm_ctx *ctx, bake_pieces *pieces, const double p[2], const double q[2], double len,
                               edge_params *e)
{
    e->count = 0;
    wm_result r = bake_grid_segment(ctx, &pieces->grid, p, q, GRID_PAD);
    for (uint32_t i = 0; !r && i < pieces->grid.found.count; i++) {
        const uint32_t b = pieces->grid.found.index[i];
        double t[2];
        if (bake_pieces_flat_base(pieces, b) || !bake_pieces_clip(pieces, b, p, q, t) ||
            grazes(pieces, b, p, q, (t[0] + t[1]) / 2))
            continue;
        for (int k = 0; k < 2 && !r; k++)
            if (t[k] * len > CORNER_EPS && (1 - t[k]) * len > CORNER_EPS &&
                !(r = bake_grow(ctx, (void **)&e->t, &e->capacity, e->count + 1, sizeof *e->t)))
                e->t[e->count++] = t[k];
    }
    if (e->count > 1)
        qsort(e->t, e->count, sizeof *e->t, ascending_double);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < e->count; i++)
        if (!kept || e->t[i] != e->t[kept - 1])
            e->t[kept++] = e->t[i];
    e->count = kept;
    return r;
}

/* One cutter edge p-q (its corners already vertices): a vertex where it
 * crosses each base's rim, then each part between two of them made a side
 * by flips (bake_constrain.c), or split along where that fails. */
static wm_result cut_edge(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, bake_pieces *pieces, const double p[2],
                          const double q[2], const corner_vertices *at_p, const corner_vertices *at_q, edge_params *e,
                          uint32_t *added)
{
    const double dx = q[0] - p[0], dy = q[1] - p[1], len = sqrt(dx * dx + dy * dy);
    if (!(len > 1e-6) || !isfinite(len))
        return WM_OK;
    wm_result r = rim_crossings(ctx, pieces, p, q, len, e);
    if (!r && bake_grow(ctx, (void **)&e->at, &e->at_capacity, e->count + 1, sizeof *e->at))
        r = WM_ERR_NOMEM;
    for (uint32_t i = 0; !r && i < e->count; i++)
        r = insert_corner(ctx, s, a, p[0] + e->t[i] * dx, p[1] + e->t[i] * dy, pieces, &e->at[i], added);
    double from[2] = {p[0], p[1]};
    for (uint32_t i = 0; !r && i <= e->count; i++) {
        const double to[2] = {i < e->count ? p[0] + e->t[i] * dx : q[0], i < e->count ? p[1] + e->t[i] * dy : q[1]};
        int made = 0;
        r = bake_constrain_edge(ctx, pieces, a, from, to, i ? &e->at[i - 1] : at_p, i < e->count ? &e->at[i] : at_q,
                                &made);
        if (!r && !made)
            r = split_along(ctx, s, a, pieces, from, to, added);
        from[0] = to[0];
        from[1] = to[1];
    }
    return r;
}

static wm_result cut_one(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, const nwn2_cutter *c, bake_pieces *pieces,
                         uint32_t *added)
{
    wm_result r = WM_OK;
    const uint32_t n = c->point_count;
    edge_params e = {NULL, 0, 0, NULL, 0};
    corner_vertices first = {0}, at[2] = {{0}, {0}}; /* corner 0; corners i and i + 1 */
    r = insert_corner(ctx, s, a, c->points[0], c->points[1], pieces, &first, added);
    at[0] = first;
    for (uint32_t i = 0; i < n && !r; i++) {
        uint32_t j = (i + 1) % n;
        if (j)
            r = insert_corner(ctx, s, a, c->points[2 * j], c->points[2 * j + 1], pieces, &at[1], added);
        else
            at[1] = first;
        const double p[2] = {c->points[2 * i], c->points[2 * i + 1]}, q[2] = {c->points[2 * j], c->points[2 * j + 1]};
        if (!r)
            r = cut_edge(ctx, s, a, pieces, p, q, &at[0], &at[1], &e, added);
        at[0] = at[1];
    }
    wm_free(ctx, e.t);
    wm_free(ctx, e.at);
    return r;
}

/* Removes every triangle whose centre lies inside a cutter (even-odd). */
static wm_result remove_inside(wm_ctx *ctx, nwn2_aswm *a, const nwn2_cutter_set *cutters, bake_pieces *pieces,
                               bake_grid *grid, uint32_t *removed)
{
    uint8_t *cut = wm_alloc_array(ctx, a->triangle_count ? a->triangle_count : 1, 1);
    if (!cut)
        return WM_ERR_NOMEM;
    wm_result r = WM_OK;
    for (uint32_t ci = 0; ci < cutters->count && !r; ci++) {
        const nwn2_cutter *c = &cutters->cutters[ci];
        if (c->point_count < 3)
            continue;
        const cut_box b = cutter_box(c);
        bake_polygon_index index;
        r = bake_polygon_index_build(ctx, c, &index);
        if (!r)
            r = pieces ? bake_pieces_in_box(ctx, pieces, b.lo, b.hi) : bake_grid_box(ctx, grid, b.lo, b.hi);
        const bake_subset *near = pieces ? &pieces->found : &grid->found;
        for (uint32_t i = 0; !r && i < near->count; i++) {
            const uint32_t t = near->index[i];
            if (cut[t])
                continue;
            float centre[2];
            const uint32_t *v = a->triangles[t].v;
            nwn2_toolset_centre(&a->vertices[3 * v[0]], &a->vertices[3 * v[1]], &a->vertices[3 * v[2]], centre);
            cut[t] = centre[0] >= b.lo[0] && centre[0] <= b.hi[0] && centre[1] >= b.lo[1] && centre[1] <= b.hi[1] &&
                     bake_polygon_index_inside(&index, c, centre[0], centre[1]);
        }
        bake_polygon_index_free(ctx, &index);
    }
    uint32_t n = 0;
    for (uint32_t t = 0; !r && t < a->triangle_count; t++) {
        if (cut[t])
            (*removed)++;
        else
            a->triangles[n++] = a->triangles[t];
    }
    if (!r)
        a->triangle_count = n;
    wm_free(ctx, cut);
    return r;
}

/* The cutters with their corners that are not finite numbers left out (the
 * polygon joins the corners around them), as both the cut and the removal
 * see them; the same count, so whole[] still applies. */
static wm_result finite_cutters(wm_ctx *ctx, const nwn2_cutter_set *in, nwn2_cutter_set *out)
{
    out->count = 0;
    out->cutters = wm_alloc_array(ctx, in->count ? in->count : 1, sizeof *out->cutters);
    if (!out->cutters)
        return WM_ERR_NOMEM;
    for (uint32_t ci = 0; ci < in->count; ci++, out->count++) {
        const nwn2_cutter *c = &in->cutters[ci];
        nwn2_cutter *f = &out->cutters[ci];
        f->source_index = c->source_index;
        f->point_count = 0;
        f->points = wm_alloc_array(ctx, c->point_count ? c->point_count : 1, 2 * sizeof *f->points);
        if (!f->points)
            return WM_ERR_NOMEM;
        for (uint32_t i = 0; i < c->point_count; i++)
            if (isfinite(c->points[2 * i]) && isfinite(c->points[2 * i + 1])) {
                f->points[2 * f->point_count] = c->points[2 * i];
                f->points[2 * f->point_count++ + 1] = c->points[2 * i + 1];
            }
    }
    return WM_OK;
}

wm_result bake_cut(wm_ctx *ctx, nwn2_aswm *a, const nwn2_cutter_set *cutters_in, const uint8_t *whole,
                   uint32_t *added, uint32_t *removed)
{
    nwn2_cutter_set cutters;
    bake_splitter s;
    bake_splitter_init(&s);
    bake_pieces pieces;
    memset(&pieces, 0, sizeof pieces);
    wm_result r = finite_cutters(ctx, cutters_in, &cutters);
    if (!r)
        r = bake_pieces_init(ctx, &pieces, a);
    for (uint32_t ci = 0; ci < cutters.count && !r; ci++) {
        const nwn2_cutter *c = &cutters.cutters[ci];
        if (c->point_count < 3 || (whole && whole[ci]))
            continue;
        r = cut_one(ctx, &s, a, c, &pieces, added);
    }
    bake_splitter_free(ctx, &s);
    if (!r)
        r = remove_inside(ctx, a, &cutters, &pieces, NULL, removed);
    bake_pieces_free(ctx, &pieces);
    nwn2_cutter_set_free(ctx, &cutters);
    return r;
}

wm_result bake_cut_remove_inside(wm_ctx *ctx, nwn2_aswm *a, const nwn2_cutter_set *cutters_in, uint32_t *removed)
{
    nwn2_cutter_set cutters;
    bake_grid grid;
    memset(&grid, 0, sizeof grid);
    double lo[2], hi[2];
    bake_grid_extent(a, lo, hi);
    wm_result r = finite_cutters(ctx, cutters_in, &cutters);
    if (!r)
        r = bake_grid_build(ctx, &grid, a, lo, hi, 2ull * a->triangle_count, NULL);
    if (!r)
        r = remove_inside(ctx, a, &cutters, NULL, &grid, removed);
    bake_grid_free(ctx, &grid);
    nwn2_cutter_set_free(ctx, &cutters);
    return r;
}
