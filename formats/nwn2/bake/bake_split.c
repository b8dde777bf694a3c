/* Splitting triangles along straight lines in x/y (tile lines, cutter
 * edges). One line at a time, every triangle the line crosses is cut in two
 * or three. The point where the line crosses an edge is computed once per
 * (edge, line) from the edge's endpoints in index order and shared by both
 * triangles of the edge, so the mesh stays watertight and every piece keeps
 * its triangle's flags. */
#include "bake_split.h"

#include <math.h>
#include <string.h>

/* Vertices closer than this to an inner tile line are moved onto it before
 * splitting (FORMAT-NOTES section 2: TRN geometry overhangs tile lines by
 * less than 1 mm in places; splitting there would make slivers). */
#define NWN2_SNAP_DISTANCE 1e-3
/* A triangle that still crosses an inner tile line, but by less than this on
 * its smaller side, is not split: it goes whole to the tile holding its
 * centre. The toolset does the same: its TRX files keep walkable triangles
 * that overhang their tile by up to 8.8 cm (FORMAT-NOTES section 2: 27 in
 * 10 files), and splitting the 1-22 mm overhangs of oldskull_descent.TRN
 * would put 140 walkable triangles in a tile where the toolset has 106. */
#define NWN2_WHOLE_OVERHANG 0.1

/* Vertices closer than this to the line count as on it (no sliver pieces). */
#define ON_LINE_EPS 1e-5

typedef struct point_slot {
    uint64_t key;   /* lo << 32 | hi */
    uint32_t stamp; /* line number + 1; other values = empty */
    uint32_t vertex;
} point_slot;

void bake_subset_free(const wm_ctx *ctx, bake_subset *set)
{
    wm_free(ctx, set->index);
    memset(set, 0, sizeof *set);
}

wm_result bake_subset_add_from(wm_ctx *ctx, bake_subset *set, const nwn2_aswm *a, uint32_t first)
{
    if (!set || first >= a->triangle_count)
        return WM_OK;
    wm_result r = bake_grow(ctx, (void **)&set->index, &set->capacity, set->count + (a->triangle_count - first),
                            sizeof *set->index);
    for (uint32_t t = first; !r && t < a->triangle_count; t++)
        set->index[set->count++] = t;
    return r;
}

void bake_splitter_init(bake_splitter *s)
{
    memset(s, 0, sizeof *s);
}

void bake_splitter_free(const wm_ctx *ctx, bake_splitter *s)
{
    wm_free(ctx, s->slots);
    wm_free(ctx, s->made);
    bake_splitter_init(s);
}

static double side_of(const bake_line *l, const float *p)
{
    double s = l->nx * (double)p[0] + l->ny * (double)p[1] - l->c;
    return fabs(s) <= ON_LINE_EPS ? 0.0 : s;
}

static wm_result reserve_slots(wm_ctx *ctx, bake_splitter *s, uint32_t points)
{
    uint64_t want = 16;
    while (want < 2ull * points)
        want *= 2;
    if (want <= s->capacity)
        return WM_OK;
    if (want > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "too many split points (%u)", points);
    point_slot *slots = wm_alloc_array(ctx, (size_t)want, sizeof *slots);
    if (!slots)
        return WM_ERR_NOMEM;
    wm_free(ctx, s->slots);
    s->slots = slots;
    s->capacity = (uint32_t)want;
    s->stamp = 0; /* fresh zeroed table: every stamp is free again */
    return WM_OK;
}

uint32_t bake_split_point(bake_splitter *s, nwn2_aswm *a, uint32_t p, uint32_t q, const float pos[3])
{
    uint32_t lo = p < q ? p : q, hi = p < q ? q : p;
    uint64_t key = ((uint64_t)lo << 32) | hi;
    uint32_t mask = s->capacity - 1;
    uint32_t i = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
    point_slot *slots = s->slots;
    while (slots[i].stamp == s->stamp) {
        if (slots[i].key == key)
            return slots[i].vertex;
        i = (i + 1) & mask;
    }
    memcpy(&a->vertices[3 * a->vertex_count], pos, 3 * sizeof(float));
    slots[i].key = key;
    slots[i].stamp = s->stamp;
    slots[i].vertex = a->vertex_count;
    if (3 * s->made_count + 3 <= s->made_capacity) {
        s->made[3 * s->made_count] = lo;
        s->made[3 * s->made_count + 1] = hi;
        s->made[3 * s->made_count++ + 2] = a->vertex_count;
    }
    return a->vertex_count++;
}

static wm_result reserve(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, uint32_t points, uint32_t triangles);

/* The vertex made on edge (p, q) in the current table, or NONE. */
static uint32_t made_point(const bake_splitter *s, uint32_t p, uint32_t q)
{
    if (!s->capacity)
        return NWN2_NONE32;
    uint32_t lo = p < q ? p : q, hi = p < q ? q : p;
    uint64_t key = ((uint64_t)lo << 32) | hi;
    uint32_t mask = s->capacity - 1;
    for (uint32_t i = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & mask; s->slots[i].stamp == s->stamp;
         i = (i + 1) & mask)
        if (s->slots[i].key == key)
            return s->slots[i].vertex;
    return NWN2_NONE32;
}

/* Splits triangle t in two when one of its sides got a point in the
 * current table (the triangle on the other side was split there, this one
 * not): returns 1 when it did. */
static int close_side(nwn2_aswm *a, const bake_splitter *s, uint32_t t)
{
    const nwn2_triangle model = a->triangles[t];
    for (int k = 0; k < 3; k++) {
        uint32_t u = model.v[k], w = model.v[(k + 1) % 3], x = model.v[(k + 2) % 3], P = made_point(s, u, w);
        if (P == NWN2_NONE32)
            continue;
        uint32_t slot = t;
        bake_split_emit(a, &slot, &model, u, P, x);
        bake_split_emit(a, &slot, &model, P, w, x);
        return 1;
    }
    return 0;
}

wm_result bake_split_close(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, const bake_subset *set, uint32_t first,
                           uint32_t *added)
{
    const uint32_t before = a->triangle_count, count = set ? set->count : 0;
    for (uint32_t i = 0; i < count + (a->triangle_count - first);) {
        const uint32_t t = i < count ? set->index[i] : first + (i - count);
        wm_result r = reserve(ctx, s, a, 0, 1);
        if (r)
            return r;
        if (!close_side(a, s, t))
            i++; /* else look at t again: its other sides */
    }
    *added += a->triangle_count - before;
    return WM_OK;
}

/* The vertex where the line crosses edge (p, q), computed from the edge's
 * endpoints in index order so both triangles of the edge get the same bits. */
static uint32_t edge_point(bake_splitter *s, nwn2_aswm *a, const bake_line *l, uint32_t p, uint32_t q)
{
    uint32_t lo = p < q ? p : q, hi = p < q ? q : p;
    const float *P = &a->vertices[3 * lo], *Q = &a->vertices[3 * hi];
    double sp = l->nx * (double)P[0] + l->ny * (double)P[1] - l->c;
    double sq = l->nx * (double)Q[0] + l->ny * (double)Q[1] - l->c;
    double t = sp / (sp - sq);
    float out[3];
    for (int k = 0; k < 3; k++)
        out[k] = (float)((double)P[k] + t * ((double)Q[k] - (double)P[k]));
    if (l->axis >= 0)
        out[l->axis] = (float)l->c; /* exactly on the tile line */
    return bake_split_point(s, a, lo, hi, out);
}

void bake_split_emit(nwn2_aswm *a, uint32_t *slot, const nwn2_triangle *model, uint32_t v0, uint32_t v1, uint32_t v2)
{
    nwn2_triangle *t;
    if (*slot != NWN2_NONE32) {
        t = &a->triangles[*slot];
        *slot = NWN2_NONE32;
    } else {
        t = &a->triangles[a->triangle_count++];
    }
    *t = *model;
    t->edge[0] = NWN2_NONE32; /* a piece is no input triangle (see bake_split.h) */
    t->v[0] = v0;
    t->v[1] = v1;
    t->v[2] = v2;
}

static wm_result reserve(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, uint32_t points, uint32_t triangles)
{
    uint64_t tris = (uint64_t)a->triangle_count + triangles;
    uint64_t verts = (uint64_t)a->vertex_count + points;
    if (tris > ctx->limits.max_triangles || verts > ctx->limits.max_triangles)
        return wm_error(ctx, WM_ERR_LIMIT, "splitting would make %llu triangles and %llu vertices (limit %llu)",
                        (unsigned long long)tris, (unsigned long long)verts,
                        (unsigned long long)ctx->limits.max_triangles);
    if (a->triangles != s->triangles || tris > s->triangle_room) {
        uint64_t room = tris + tris / 2 < ctx->limits.max_triangles ? tris + tris / 2 : tris;
        nwn2_triangle *nt = wm_realloc_array(ctx, a->triangles, (size_t)(room ? room : 1), sizeof *nt);
        if (!nt)
            return WM_ERR_NOMEM;
        a->triangles = nt;
        s->triangles = nt;
        s->triangle_room = room;
    }
    if (a->vertices != s->vertices || verts > s->vertex_room) {
        uint64_t room = verts + verts / 2 < ctx->limits.max_triangles ? verts + verts / 2 : verts;
        float *nv = wm_realloc_array(ctx, a->vertices, (size_t)(room ? room : 1) * 3, sizeof *nv);
        if (!nv)
            return WM_ERR_NOMEM;
        a->vertices = nv;
        s->vertices = nv;
        s->vertex_room = room;
    }
    return WM_OK;
}

wm_result bake_split_begin(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, uint32_t points, uint32_t triangles)
{
    wm_result r = reserve(ctx, s, a, points, triangles);
    if (!r)
        r = reserve_slots(ctx, s, points);
    s->made_count = 0;
    if (!r && points > UINT32_MAX / 3)
        r = wm_error(ctx, WM_ERR_LIMIT, "too many split points (%u)", points);
    if (!r && bake_grow(ctx, (void **)&s->made, &s->made_capacity, 3 * points, sizeof *s->made))
        r = WM_ERR_NOMEM;
    if (r)
        return r;
    if (++s->stamp == 0)
        ++s->stamp;
    return WM_OK;
}

static int crosses(const bake_line *l, const nwn2_aswm *a, uint32_t t, double d[3])
{
    const uint32_t *v = a->triangles[t].v;
    for (int k = 0; k < 3; k++)
        d[k] = side_of(l, &a->vertices[3 * v[k]]);
    int pos = (d[0] > 0) + (d[1] > 0) + (d[2] > 0), neg = (d[0] < 0) + (d[1] < 0) + (d[2] < 0);
    return pos && neg;
}

wm_result bake_split_line(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, const bake_line *l, bake_split_filter filter,
                          void *filter_user, bake_subset *subset, uint32_t *added)
{
    uint32_t crossing = 0;
    s->made_count = 0;
    const uint32_t looked_at = subset ? subset->count : a->triangle_count;
    for (uint32_t i = 0; i < looked_at; i++) {
        const uint32_t t = subset ? subset->index[i] : i;
        double d[3];
        crossing += crosses(l, a, t, d) && (!filter || filter(filter_user, a, t));
    }
    if (!crossing)
        return WM_OK;
    if (crossing > UINT32_MAX / 2)
        return wm_error(ctx, WM_ERR_LIMIT, "%u triangles cross one line", crossing);
    wm_result r = bake_split_begin(ctx, s, a, 2 * crossing, 2 * crossing);
    if (r)
        return r;

    const uint32_t before = a->triangle_count;
    for (uint32_t i = 0; i < looked_at; i++) {
        const uint32_t t = subset ? subset->index[i] : i;
        const nwn2_triangle model = a->triangles[t];
        double d[3];
        if (!crosses(l, a, t, d) || (filter && !filter(filter_user, a, t)))
            continue;
        uint32_t slot = t;
        /* rotate so that vertex 0 is the lone one: alone on its side, or on the line */
        int lone = 0;
        for (int k = 0; k < 3; k++) {
            int others_same = 0;
            for (int j = 0; j < 3; j++)
                if (j != k && ((d[j] > 0 && d[k] > 0) || (d[j] < 0 && d[k] < 0)))
                    others_same = 1;
            if (d[k] == 0 || !others_same) {
                lone = k;
                if (d[k] == 0)
                    break;
            }
        }
        uint32_t A = model.v[lone], B = model.v[(lone + 1) % 3], C = model.v[(lone + 2) % 3];
        if (d[lone] == 0) {
            /* the line runs through A and crosses BC */
            uint32_t P = edge_point(s, a, l, B, C);
            bake_split_emit(a, &slot, &model, A, B, P);
            bake_split_emit(a, &slot, &model, A, P, C);
        } else {
            uint32_t P = edge_point(s, a, l, A, B), Q = edge_point(s, a, l, C, A);
            bake_split_emit(a, &slot, &model, A, P, Q);
            bake_split_emit(a, &slot, &model, P, B, C);
            bake_split_emit(a, &slot, &model, P, C, Q);
        }
    }
    uint32_t closed = 0; /* counted below with the rest */
    r = subset ? bake_split_close(ctx, s, a, subset, before, &closed) : WM_OK;
    *added += a->triangle_count - before;
    return r ? r : bake_subset_add_from(ctx, subset, a, before);
}

typedef struct tile_split {
    const bake_line *line;
    int keep_input; /* input triangles (edge[0] = input index) stay whole */
} tile_split;

/* A triangle crossing a tile line by less than NWN2_WHOLE_OVERHANG on its
 * smaller side stays whole (it goes to the tile holding its centre). */
static int overhangs_far(void *user, const nwn2_aswm *a, uint32_t t)
{
    const tile_split *ts = user;
    const bake_line *l = ts->line;
    if (ts->keep_input && a->triangles[t].edge[0] != NWN2_NONE32)
        return 0;
    double above = 0.0, below = 0.0;
    for (int k = 0; k < 3; k++) {
        const float *p = &a->vertices[3 * (size_t)a->triangles[t].v[k]];
        double s = l->nx * p[0] + l->ny * p[1] - l->c;
        above = s > above ? s : above;
        below = -s > below ? -s : below;
    }
    return (above < below ? above : below) >= NWN2_WHOLE_OVERHANG;
}

/* Marks the inner tile lines (k = 1 .. cells-1) some triangle crosses. */
static void mark_lines(const nwn2_aswm *a, int axis, uint32_t cells, uint8_t *crossed)
{
    const double w = a->tile_width;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int k = 0; k < 3; k++) {
            double c = a->vertices[3 * a->triangles[t].v[k] + axis];
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
        }
        double first = ceil((lo + ON_LINE_EPS) / w), last = floor((hi - ON_LINE_EPS) / w);
        if (first < 1)
            first = 1;
        if (last > (double)cells - 1)
            last = (double)cells - 1;
        for (double k = first; k <= last; k++)
            crossed[(uint32_t)k] = 1;
    }
}

uint32_t bake_snap_to_tile_lines(nwn2_aswm *a)
{
    const double w = a->tile_width;
    uint32_t moved = 0;
    for (uint32_t v = 0; v < a->vertex_count; v++) {
        int snapped = 0;
        for (int axis = 0; axis < 2; axis++) {
            uint32_t cells = axis == 0 ? a->grid_width : a->grid_height;
            float *c = &a->vertices[3 * (size_t)v + axis];
            double k = floor((double)*c / w + 0.5);
            if (!(k >= 1.0 && k <= (double)cells - 1.0))
                continue; /* only inner lines split triangles */
            float line = (float)k * a->tile_width;
            if (*c != line && fabs((double)*c - line) < NWN2_SNAP_DISTANCE) {
                *c = line;
                snapped = 1;
            }
        }
        moved += snapped;
    }
    return moved;
}

wm_result bake_split_tiles(wm_ctx *ctx, nwn2_aswm *a, int keep_input, uint32_t *added)
{
    bake_splitter s;
    bake_splitter_init(&s);
    wm_result r = WM_OK;
    for (int axis = 0; axis < 2 && !r; axis++) {
        uint32_t cells = axis == 0 ? a->grid_width : a->grid_height;
        uint8_t *crossed = wm_alloc_array(ctx, (size_t)cells + 1, 1);
        if (!crossed) {
            r = WM_ERR_NOMEM;
            break;
        }
        mark_lines(a, axis, cells, crossed);
        for (uint32_t k = 1; k < cells && !r; k++) {
            if (!crossed[k])
                continue;
            bake_line l = {axis == 0 ? 1.0 : 0.0, axis == 0 ? 0.0 : 1.0, (double)((float)k * a->tile_width), axis};
            tile_split ts = {&l, keep_input};
            r = bake_split_line(ctx, &s, a, &l, overhangs_far, &ts, NULL, added);
        }
        wm_free(ctx, crossed);
    }
    bake_splitter_free(ctx, &s);
    return r;
}
