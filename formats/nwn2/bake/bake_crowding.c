/* Tiles a cutter is certain to crowd, known before anything is cut. A
 * corner of a cutter becomes a vertex of the cut, and the outline leaves
 * ground outside the cutter in the angle between its two edges there, so at
 * least one piece outside the cutter has that corner as a vertex. A corner
 * well inside a walkable triangle (no other cutter near it) and well inside
 * a tile therefore brings a walkable triangle of that tile, and one triangle
 * serves at most three corners: more than 3 x 127 such corners in one tile
 * make it hold more than 127 walkable triangles whatever the exact cut does.
 * The driver would cut exactly, find the tile crowded and redo the cutter
 * with whole triangles; knowing it first saves the exact cut, which for a
 * 16,384-corner star is the whole cost of the bake. */
#include "bake_crowding.h"

#include "bake_grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A counted corner lies this far (m) inside its tile, so every piece at it
 * has its centre in that tile even when kept whole over a tile line
 * (NWN2_WHOLE_OVERHANG is 0.1 m). */
#define CROWD_TILE_MARGIN 0.5
/* ... this far from the sides of its walkable triangle, */
#define CROWD_TRIANGLE_INSET 1e-2
/* ... and this far from the corners before and after it (they cannot merge
 * into one vertex; BAKE_CORNER_REACH is 1e-4). */
#define CROWD_CORNER_SPACING 1e-3
/* A cutter with more other cutters near it than this is not looked at (the
 * test is per corner and per neighbour). */
#define CROWD_MAX_NEIGHBOURS 64

typedef struct box2 {
    double lo[2], hi[2];
} box2;

/* The box of c's corners, widened by pad; 0 when a corner is not finite. */
static int cutter_box(const nwn2_cutter *c, double pad, box2 *b)
{
    b->lo[0] = b->lo[1] = INFINITY;
    b->hi[0] = b->hi[1] = -INFINITY;
    for (uint32_t i = 0; i < c->point_count; i++)
        for (int k = 0; k < 2; k++) {
            const double v = c->points[2 * i + k];
            if (!isfinite(v))
                return 0;
            b->lo[k] = v < b->lo[k] ? v : b->lo[k];
            b->hi[k] = v > b->hi[k] ? v : b->hi[k];
        }
    for (int k = 0; k < 2; k++) {
        b->lo[k] -= pad;
        b->hi[k] += pad;
    }
    return c->point_count > 0;
}

static int box_holds(const box2 *b, double x, double y)
{
    return x >= b->lo[0] && x <= b->hi[0] && y >= b->lo[1] && y <= b->hi[1];
}

static int boxes_meet(const box2 *a, const box2 *b)
{
    return a->lo[0] <= b->hi[0] && b->lo[0] <= a->hi[0] && a->lo[1] <= b->hi[1] && b->lo[1] <= a->hi[1];
}

/* The tile holding (x, y) with the whole square of CROWD_TILE_MARGIN around
 * it, outside the dropped border band; NWN2_NONE32 if none. */
static uint32_t tile_well_inside(const nwn2_aswm *a, int keep_borders, double x, double y)
{
    const double m = CROWD_TILE_MARGIN;
    const uint32_t t = nwn2_tile_of(a, (float)x, (float)y);
    if (t != nwn2_tile_of(a, (float)(x - m), (float)(y - m)) || t != nwn2_tile_of(a, (float)(x + m), (float)(y + m)))
        return NWN2_NONE32;
    const uint32_t b = keep_borders ? 0 : a->border_size, col = t % a->grid_width, row = t / a->grid_width;
    if (col < b || row < b || (uint64_t)col + b >= a->grid_width || (uint64_t)row + b >= a->grid_height)
        return NWN2_NONE32;
    return t;
}

/* Whether (x, y) lies in walkable triangle t, at least CROWD_TRIANGLE_INSET from its sides. */
static int deep_in_walkable(const nwn2_aswm *a, uint32_t t, double x, double y)
{
    const nwn2_triangle *tri = &a->triangles[t];
    if (!(tri->flags & NWN2_TRI_WALKABLE))
        return 0;
    const float *p[3];
    for (int k = 0; k < 3; k++) {
        if (tri->v[k] >= a->vertex_count)
            return 0;
        p[k] = &a->vertices[3 * tri->v[k]];
    }
    const double area = ((double)p[1][0] - p[0][0]) * ((double)p[2][1] - p[0][1]) -
                        ((double)p[1][1] - p[0][1]) * ((double)p[2][0] - p[0][0]);
    if (!(fabs(area) > 1e-6))
        return 0;
    const double sign = area > 0 ? 1.0 : -1.0;
    for (int k = 0; k < 3; k++) {
        const float *u = p[k], *w = p[(k + 1) % 3];
        const double dx = (double)w[0] - u[0], dy = (double)w[1] - u[1];
        const double side = sign * (dx * (y - u[1]) - dy * (x - u[0]));
        if (!(side >= CROWD_TRIANGLE_INSET * sqrt(dx * dx + dy * dy)))
            return 0;
    }
    return 1;
}

typedef struct crowd_search {
    const nwn2_aswm *a;
    const nwn2_cutter_set *cs;
    const nwn2_bake_options *opts;
    bake_grid grid;
    int grid_built;
    uint64_t *keys; /* tile << 32 | corner, for one cutter */
    box2 *near;     /* other cutters' boxes near the one looked at */
} crowd_search;

/* Whether corner i of c may be counted, apart from its triangle: spaced from its neighbours, away from other cutters. */
static int corner_apart(const nwn2_cutter *c, uint32_t i, const box2 *near, uint32_t near_count)
{
    const uint32_t n = c->point_count;
    const double x = c->points[2 * i], y = c->points[2 * i + 1];
    for (int s = 0; s < 2; s++) {
        const uint32_t j = s ? (i + 1) % n : (i + n - 1) % n;
        if (!(hypot(c->points[2 * j] - x, c->points[2 * j + 1] - y) >= CROWD_CORNER_SPACING))
            return 0;
    }
    for (uint32_t k = 0; k < near_count; k++)
        if (box_holds(&near[k], x, y))
            return 0;
    return 1;
}

static int ascending_key(const void *x, const void *y)
{
    const uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Counts the corners keys[from .. to) (one tile) lying deep in a walkable triangle. */
static wm_result count_deep(wm_ctx *ctx, crowd_search *s, const nwn2_cutter *c, uint32_t from, uint32_t to,
                            uint32_t *deep)
{
    wm_result r = WM_OK;
    if (!s->grid_built) {
        double lo[2], hi[2];
        bake_grid_extent(s->a, lo, hi);
        r = bake_grid_build(ctx, &s->grid, s->a, lo, hi, 2ull * s->a->triangle_count, NULL);
        s->grid_built = !r;
    }
    *deep = 0;
    for (uint32_t k = from; k < to && !r; k++) {
        const uint32_t i = (uint32_t)s->keys[k];
        const double p[2] = {c->points[2 * i], c->points[2 * i + 1]};
        r = bake_grid_box(ctx, &s->grid, p, p);
        for (uint32_t f = 0; !r && f < s->grid.found.count; f++)
            if (deep_in_walkable(s->a, s->grid.found.index[f], p[0], p[1])) {
                (*deep)++;
                break;
            }
    }
    return r;
}

/* The first tile cutter ci certainly crowds (*tile, with *corners counted there), or NWN2_NONE32. */
static wm_result crowded_tile_of(wm_ctx *ctx, crowd_search *s, uint32_t ci, uint32_t *tile, uint32_t *corners)
{
    const nwn2_cutter *c = &s->cs->cutters[ci];
    *tile = NWN2_NONE32;
    box2 own;
    if (c->point_count <= 3 * NWN2_MAX_TILE_NODES || !cutter_box(c, CROWD_TILE_MARGIN, &own))
        return WM_OK;
    uint32_t near_count = 0;
    for (uint32_t o = 0; o < s->cs->count; o++) {
        box2 b;
        if (o == ci || s->cs->cutters[o].point_count < 3)
            continue;
        const int boxed = cutter_box(&s->cs->cutters[o], CROWD_TILE_MARGIN, &b);
        if (boxed && !boxes_meet(&own, &b))
            continue;
        if (!boxed || near_count == CROWD_MAX_NEIGHBOURS)
            return WM_OK; /* a cutter without a box, or too many near: cannot tell */
        s->near[near_count++] = b;
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < c->point_count; i++) {
        const uint32_t t = corner_apart(c, i, s->near, near_count)
                               ? tile_well_inside(s->a, s->opts->keep_borders, c->points[2 * i], c->points[2 * i + 1])
                               : NWN2_NONE32;
        if (t != NWN2_NONE32)
            s->keys[kept++] = (uint64_t)t << 32 | i;
    }
    qsort(s->keys, kept, sizeof *s->keys, ascending_key);
    wm_result r = WM_OK;
    for (uint32_t from = 0, to; from < kept && !r && *tile == NWN2_NONE32; from = to) {
        for (to = from + 1; to < kept && s->keys[to] >> 32 == s->keys[from] >> 32;)
            to++;
        if (to - from <= 3 * NWN2_MAX_TILE_NODES)
            continue;
        r = count_deep(ctx, s, c, from, to, corners);
        if (!r && *corners > 3 * NWN2_MAX_TILE_NODES)
            *tile = (uint32_t)(s->keys[from] >> 32);
    }
    return r;
}

wm_result bake_mark_crowding_cutters(wm_ctx *ctx, const nwn2_aswm *a, const nwn2_bake_options *opts, uint8_t *whole,
                                     uint32_t *marked)
{
    const nwn2_cutter_set *cs = opts->cutters;
    *marked = 0;
    uint32_t most = 0;
    for (uint32_t ci = 0; ci < cs->count; ci++)
        most = cs->cutters[ci].point_count > most ? cs->cutters[ci].point_count : most;
    /* bad input is left for stage 1 to report */
    if (most <= 3 * NWN2_MAX_TILE_NODES || bake_check_input(ctx, a))
        return WM_OK;
    crowd_search s;
    memset(&s, 0, sizeof s);
    s.a = a;
    s.cs = cs;
    s.opts = opts;
    s.keys = wm_alloc_array(ctx, most, sizeof *s.keys);
    s.near = wm_alloc_array(ctx, CROWD_MAX_NEIGHBOURS, sizeof *s.near);
    wm_result r = s.keys && s.near ? WM_OK : WM_ERR_NOMEM;
    for (uint32_t ci = 0; ci < cs->count && !r; ci++) {
        uint32_t tile, corners;
        if (whole[ci] || (r = crowded_tile_of(ctx, &s, ci, &tile, &corners)) || tile == NWN2_NONE32)
            continue;
        whole[ci] = 1;
        (*marked)++;
        wm_warn(ctx,
                "tile %u (column %u, row %u): cutter %u has %u corners inside it, so cutting would leave more "
                "than %u walkable triangles there; it removes whole triangles instead",
                tile, tile % a->grid_width, tile / a->grid_width, ci, corners, NWN2_MAX_TILE_NODES);
    }
    if (s.grid_built)
        bake_grid_free(ctx, &s.grid);
    wm_free(ctx, s.keys);
    wm_free(ctx, s.near);
    return r;
}
