/* Routes over every corpus KotOR .wok and NWN2 .trx, checked by computations of the test's
 * own on the files' triangles: pairs of points on one walkable region (by a union-find of
 * the test's) get a route; every 10 cm of it lies over a walkable face; its length is no
 * shorter than the straight line and no longer than a 16-neighbour Dijkstra over a 5 cm
 * raster of the pair's region. The raster covers the ellipse of points x with
 * |s-x| + |x-t| <= the route's plan length (plus 30 cm): any shorter way lies inside it,
 * so bounding the raster there keeps the check whole. Pairs are drawn within 4 m of each
 * other and redrawn when the route is longer than 8 m (a raster of bounded size). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "test_support.h"
#include "walkmesh.h"
#include "nwn2/nwn2.h"
#include "nwn2/nwn2_route.h"

#define PAIRS 100
#define TABLE_PAIRS 20   /* pairs a TRX whose tables' route is compared with the shortest */
#define TABLE_REACH 20.0 /* at most this far apart (m): the search stays short under ASan */
#define CELL 0.05
#define SAMPLE_STEP 0.1

typedef struct cover {
    const wm_mesh *mesh;
    const uint32_t *klass;   /* per face, UINT32_MAX for blocking */
    double lo[2];
    uint32_t w, h;
    uint32_t *start, *items; /* faces per 1 m bucket */
} cover;

static const float *vtx(const wm_mesh *m, uint32_t t, int k)
{
    return m->positions + 3 * (size_t)m->indices[3 * (size_t)t + k];
}

static void cover_build(cover *c, const wm_mesh *m, const uint32_t *klass)
{
    memset(c, 0, sizeof *c);
    c->mesh = m;
    c->klass = klass;
    double hi[2] = {-1e30, -1e30};
    c->lo[0] = c->lo[1] = 1e30;
    for (uint32_t v = 0; v < m->vertex_count; v++)
        for (int k = 0; k < 2; k++) {
            c->lo[k] = fmin(c->lo[k], m->positions[3 * v + k]);
            hi[k] = fmax(hi[k], m->positions[3 * v + k]);
        }
    c->w = (uint32_t)(hi[0] - c->lo[0]) + 1;
    c->h = (uint32_t)(hi[1] - c->lo[1]) + 1;
    c->start = calloc((size_t)c->w * c->h + 1, sizeof *c->start);
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t t = 0; t < m->triangle_count; t++) {
            if (klass[t] == UINT32_MAX)
                continue;
            double a[2] = {1e30, 1e30}, b[2] = {-1e30, -1e30};
            for (int k = 0; k < 3; k++)
                for (int d = 0; d < 2; d++) {
                    a[d] = fmin(a[d], vtx(m, t, k)[d]);
                    b[d] = fmax(b[d], vtx(m, t, k)[d]);
                }
            for (uint32_t y = (uint32_t)(a[1] - c->lo[1]); y <= (uint32_t)(b[1] - c->lo[1]) && y < c->h; y++)
                for (uint32_t x = (uint32_t)(a[0] - c->lo[0]); x <= (uint32_t)(b[0] - c->lo[0]) && x < c->w; x++) {
                    size_t cell = (size_t)y * c->w + x;
                    if (pass == 0)
                        c->start[cell + 1]++;
                    else
                        c->items[c->start[cell]++] = t;
                }
        }
        if (pass == 0) {
            for (size_t i = 0; i < (size_t)c->w * c->h; i++)
                c->start[i + 1] += c->start[i];
            c->items = malloc(((size_t)c->start[(size_t)c->w * c->h] + 1) * sizeof *c->items);
        } else {
            for (size_t i = (size_t)c->w * c->h; i > 0; i--)
                c->start[i] = c->start[i - 1];
            c->start[0] = 0;
        }
    }
}

static void cover_free(cover *c)
{
    free(c->start);
    free(c->items);
}

/* Whether (x, y) lies in face t in plan, within slack (distance to each edge line). */
static int inside(const wm_mesh *m, uint32_t t, double x, double y, double slack, double *height)
{
    const float *p[3] = {vtx(m, t, 0), vtx(m, t, 1), vtx(m, t, 2)};
    double area = (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[1][1] - p[0][1]) * (p[2][0] - p[0][0]);
    if (fabs(area) < 1e-12)
        return 0;
    double w[3];
    for (int k = 0; k < 3; k++) {
        const float *a = p[(k + 1) % 3], *b = p[(k + 2) % 3];
        double edge = hypot(b[0] - a[0], b[1] - a[1]);
        double cr = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
        w[k] = cr / area;
        if (cr / (area > 0 ? 1 : -1) < -slack * edge)
            return 0;
    }
    if (height)
        *height = w[0] * p[0][2] + w[1] * p[1][2] + w[2] * p[2][2];
    return 1;
}

/* Faces of class want (UINT32_MAX: any walkable) over (x, y): how many, and the spread of their heights. */
static int covered(const cover *c, double x, double y, uint32_t want, double slack, double *spread, uint32_t *face)
{
    int gx = (int)floor(x - c->lo[0]), gy = (int)floor(y - c->lo[1]), found = 0;
    double lo = 1e30, hi = -1e30;
    if (gx < 0 || gy < 0 || (uint32_t)gx >= c->w || (uint32_t)gy >= c->h)
        return 0;
    size_t cell = (size_t)gy * c->w + (size_t)gx;
    for (uint32_t i = c->start[cell]; i < c->start[cell + 1]; i++) {
        uint32_t t = c->items[i];
        double z;
        if ((want == UINT32_MAX || c->klass[t] == want) && inside(c->mesh, t, x, y, slack, &z)) {
            if (face && !found)
                *face = t;
            found++;
            lo = fmin(lo, z);
            hi = fmax(hi, z);
        }
    }
    if (spread)
        *spread = found ? hi - lo : 0;
    return found;
}

/* ------------------------------------------------------------------ the raster */

typedef struct raster {
    const wm_mesh *mesh;
    double lo[2];
    uint32_t w, h;
    uint32_t *face; /* the face of the class under each cell's centre, UINT32_MAX: none */
    float *dist;
    uint32_t *heap, heap_count;
    int multilevel;
} raster;

static void heap_push(raster *r, uint32_t cell)
{
    uint32_t i = r->heap_count++;
    r->heap[i] = cell;
    while (i && r->dist[r->heap[i]] < r->dist[r->heap[(i - 1) / 2]]) {
        uint32_t p = (i - 1) / 2, s = r->heap[i];
        r->heap[i] = r->heap[p];
        r->heap[p] = s;
        i = p;
    }
}

static uint32_t heap_pop(raster *r)
{
    uint32_t top = r->heap[0], i = 0;
    r->heap[0] = r->heap[--r->heap_count];
    for (;;) {
        uint32_t m = i, a = 2 * i + 1, b = a + 1;
        if (a < r->heap_count && r->dist[r->heap[a]] < r->dist[r->heap[m]]) m = a;
        if (b < r->heap_count && r->dist[r->heap[b]] < r->dist[r->heap[m]]) m = b;
        if (m == i) break;
        uint32_t s = r->heap[i];
        r->heap[i] = r->heap[m];
        r->heap[m] = s;
        i = m;
    }
    return top;
}

static int cell_open(const raster *r, int x, int y)
{
    return x >= 0 && y >= 0 && (uint32_t)x < r->w && (uint32_t)y < r->h &&
           r->face[(size_t)y * r->w + (size_t)x] != UINT32_MAX;
}

/* The same face, or faces that share an edge (two vertex indices): ground a step may cross.
 * Faces that only touch (at a vertex, along part of an edge, or at the same positions with
 * vertices kept apart, as some vanilla files have) are not joined in the file. */
static int joined(const raster *r, int x0, int y0, int x1, int y1)
{
    uint32_t a = r->face[(size_t)y0 * r->w + (size_t)x0], b = r->face[(size_t)y1 * r->w + (size_t)x1];
    int shared = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            shared += r->mesh->indices[3 * (size_t)a + i] == r->mesh->indices[3 * (size_t)b + j];
    return a == b || shared >= 2;
}

/* The 16 moves; a move is allowed when every cell its segment crosses is open. */
static const int MOVES[16][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1},
                                 {1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};

static int move_clear(const raster *r, int x, int y, int dx, int dy)
{
    if (!cell_open(r, x + dx, y + dy) || !joined(r, x, y, x + dx, y + dy))
        return 0;
    if (abs(dx) + abs(dy) == 1)
        return 1;
    int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1, cells[2][2]; /* the cells the step crosses */
    if (abs(dx) == 1 && abs(dy) == 1)
        cells[0][0] = x + dx, cells[0][1] = y, cells[1][0] = x, cells[1][1] = y + dy;
    else if (abs(dx) == 2)
        cells[0][0] = x + sx, cells[0][1] = y, cells[1][0] = x + sx, cells[1][1] = y + sy;
    else
        cells[0][0] = x, cells[0][1] = y + sy, cells[1][0] = x + sx, cells[1][1] = y + sy;
    for (int k = 0; k < 2; k++)
        if (!cell_open(r, cells[k][0], cells[k][1]) ||
            !(joined(r, x, y, cells[k][0], cells[k][1]) || joined(r, x + dx, y + dy, cells[k][0], cells[k][1])))
            return 0;
    return 1;
}

/* The nearest open cell to p within two cells, -1 when none. */
static int64_t snap(const raster *r, const double p[2], double *gap)
{
    int cx = (int)floor((p[0] - r->lo[0]) / CELL), cy = (int)floor((p[1] - r->lo[1]) / CELL);
    int64_t best = -1;
    double best_d = 1e30;
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
            if (cell_open(r, cx + dx, cy + dy)) {
                double d = hypot(r->lo[0] + (cx + dx + 0.5) * CELL - p[0], r->lo[1] + (cy + dy + 0.5) * CELL - p[1]);
                if (d < best_d) {
                    best_d = d;
                    best = (int64_t)(cy + dy) * r->w + (cx + dx);
                }
            }
    *gap = best_d;
    return best;
}

/* 16-neighbour Dijkstra from s to t over the cells of class `klass` inside the ellipse of
 * plan length `reach`: the length, INFINITY when the raster does not join them. */
static double raster_length(const cover *c, uint32_t klass, const double s[2], const double t[2], double reach,
                            int *multilevel)
{
    double a = reach / 2, d = hypot(t[0] - s[0], t[1] - s[1]) / 2;
    double b = sqrt(fmax(a * a - d * d, 0)), cx = (s[0] + t[0]) / 2, cy = (s[1] + t[1]) / 2;
    double ux = d > 0 ? (t[0] - s[0]) / (2 * d) : 1, uy = d > 0 ? (t[1] - s[1]) / (2 * d) : 0;
    double hx = sqrt(a * a * ux * ux + b * b * uy * uy), hy = sqrt(a * a * uy * uy + b * b * ux * ux);
    raster r = {.mesh = c->mesh, .lo = {cx - hx - CELL, cy - hy - CELL}};
    r.w = (uint32_t)((2 * hx + 2 * CELL) / CELL) + 1;
    r.h = (uint32_t)((2 * hy + 2 * CELL) / CELL) + 1;
    size_t n = (size_t)r.w * r.h;
    r.face = malloc(n * sizeof *r.face);
    r.dist = malloc(n * sizeof *r.dist);
    r.heap = malloc((16 * n + 1) * sizeof *r.heap);
    *multilevel = 0;
    for (uint32_t y = 0; y < r.h; y++)
        for (uint32_t x = 0; x < r.w; x++) {
            double px = r.lo[0] + (x + 0.5) * CELL, py = r.lo[1] + (y + 0.5) * CELL, spread;
            r.dist[(size_t)y * r.w + x] = INFINITY;
            r.face[(size_t)y * r.w + x] = UINT32_MAX;
            if (hypot(px - s[0], py - s[1]) + hypot(px - t[0], py - t[1]) > reach + 2 * CELL)
                continue;
            covered(c, px, py, klass, 0, &spread, &r.face[(size_t)y * r.w + x]);
            *multilevel |= spread > 0.5;
        }
    double gap_s, gap_t, length = INFINITY;
    int64_t from = snap(&r, s, &gap_s), to = snap(&r, t, &gap_t);
    if (from >= 0 && to >= 0 && !*multilevel) {
        r.dist[from] = 0;
        heap_push(&r, (uint32_t)from);
        while (r.heap_count) {
            uint32_t cell = heap_pop(&r);
            if (cell == (uint32_t)to)
                break;
            int x = (int)(cell % r.w), y = (int)(cell / r.w);
            for (int m = 0; m < 16; m++) {
                if (!move_clear(&r, x, y, MOVES[m][0], MOVES[m][1]))
                    continue;
                size_t next = (size_t)(y + MOVES[m][1]) * r.w + (size_t)(x + MOVES[m][0]);
                float nd = r.dist[cell] + (float)(CELL * hypot(MOVES[m][0], MOVES[m][1]));
                if (nd < r.dist[next]) {
                    r.dist[next] = nd;
                    heap_push(&r, (uint32_t)next);
                }
            }
        }
        length = gap_s + r.dist[to] + gap_t;
    }
    free(r.face);
    free(r.dist);
    free(r.heap);
    return length;
}

/* ------------------------------------------------------------------ pairs */

typedef struct file_state {
    wm_mesh mesh;
    uint32_t *klass;
    cover cover;
    wm_walk_graph *graph;
    double *cumulative; /* area of the walkable faces up to each face */
    uint64_t rng;
} file_state;

typedef struct totals {
    unsigned files, pairs, unjoined, multilevel, redrawn, apart, stacked;
    double worst_ratio, ratio_sum; /* route / raster */
    unsigned tables_pairs, tables_longer, tables_unreached;
    double tables_percent_sum, tables_percent_max;
} totals;

static double uniform(file_state *f)
{
    f->rng = f->rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(f->rng >> 11) / 9007199254740992.0;
}

static uint32_t random_face(file_state *f)
{
    uint32_t n = f->mesh.triangle_count;
    double pick = uniform(f) * f->cumulative[n - 1];
    uint32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (f->cumulative[mid] <= pick) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void point_in_face(file_state *f, uint32_t t, float out[3])
{
    double r1 = sqrt(uniform(f)), r2 = uniform(f);
    double w[3] = {1 - r1, r1 * (1 - r2), r1 * r2};
    for (int k = 0; k < 3; k++)
        out[k] = (float)(w[0] * vtx(&f->mesh, t, 0)[k] + w[1] * vtx(&f->mesh, t, 1)[k] + w[2] * vtx(&f->mesh, t, 2)[k]);
}

/* A point of class klass within reach of s, or one in face s_face. */
static void nearby_point(file_state *f, uint32_t klass, uint32_t s_face, const float s[3], double reach, float out[3])
{
    for (int attempt = 0; attempt < 60; attempt++) {
        double angle = 6.283185307179586 * uniform(f), radius = reach * sqrt(uniform(f));
        double x = s[0] + radius * cos(angle), y = s[1] + radius * sin(angle);
        int gx = (int)floor(x - f->cover.lo[0]), gy = (int)floor(y - f->cover.lo[1]);
        if (gx < 0 || gy < 0 || (uint32_t)gx >= f->cover.w || (uint32_t)gy >= f->cover.h)
            continue;
        size_t cell = (size_t)gy * f->cover.w + (size_t)gx;
        for (uint32_t i = f->cover.start[cell]; i < f->cover.start[cell + 1]; i++) {
            double z;
            uint32_t t = f->cover.items[i];
            if (f->klass[t] == klass && inside(&f->mesh, t, x, y, 0, &z)) {
                out[0] = (float)x, out[1] = (float)y, out[2] = (float)z;
                return;
            }
        }
    }
    point_in_face(f, s_face, out);
}

/* Every 10 cm of the route in plan over some walkable face. */
static unsigned off_ground(const file_state *f, const wm_route *route)
{
    unsigned misses = 0;
    for (uint32_t i = 0; i + 1 < route->count; i++) {
        const float *a = route->points + 3 * (size_t)i, *b = a + 3;
        double len = hypot(b[0] - a[0], b[1] - a[1]);
        int steps = (int)ceil(len / SAMPLE_STEP);
        for (int k = 0; k <= steps; k++) {
            double u = steps ? (double)k / steps : 0;
            double x = a[0] + u * (b[0] - a[0]), y = a[1] + u * (b[1] - a[1]);
            misses += !covered(&f->cover, x, y, UINT32_MAX, 1e-4, NULL, NULL);
        }
    }
    return misses;
}

static double straight3(const float *a, const float *b)
{
    return sqrt(((double)b[0] - a[0]) * (b[0] - a[0]) + ((double)b[1] - a[1]) * (b[1] - a[1]) +
                ((double)b[2] - a[2]) * (b[2] - a[2]));
}

/* One pair: 1 when checked, 0 when it is to be drawn again. */
static int check_pair(file_state *f, totals *sum, const char *name)
{
    uint32_t s_face = random_face(f), klass = f->klass[s_face];
    float s[3], t[3];
    point_in_face(f, s_face, s);
    nearby_point(f, klass, s_face, s, 4.0, t);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_route route;
    wm_route_options o = {1, 1, 0};
    wm_result r = wm_route_find(&ctx, f->graph, s, t, &o, &route);
    if (r || !route.found)
        fail_msg("%s: no route from (%.9g %.9g %.9g) to (%.9g %.9g %.9g): %s", name, s[0], s[1], s[2], t[0], t[1], t[2],
                 r ? ctx.message : "not found");
    int checked = 0;
    if (route.plan_length <= 8.0) {
        double sp[2] = {s[0], s[1]}, tp[2] = {t[0], t[1]};
        int multilevel;
        double raster = raster_length(&f->cover, klass, sp, tp, route.plan_length + 0.3, &multilevel);
        sum->multilevel += multilevel;
        if (!multilevel) {
            unsigned misses = off_ground(f, &route);
            if (misses)
                fail_msg("%s: %u samples of the route (%g %g)-(%g %g) off walkable ground", name, misses, s[0], s[1],
                         t[0], t[1]);
            assert_true(route.length >= straight3(s, t) - 1e-4);
            assert_true(route.plan_length >= hypot((double)t[0] - s[0], (double)t[1] - s[1]) - 1e-4);
            if (isinf(raster))
                sum->unjoined++;
            else if (route.plan_length > raster + 0.02) {
                for (uint32_t i = 0; i < route.count; i++)
                    print_message("  %.9g %.9g %.9g\n", route.points[3 * i], route.points[3 * i + 1], route.points[3 * i + 2]);
                fail_msg("%s: route (%g %g)-(%g %g) is %g long, the raster's %g", name, s[0], s[1], t[0], t[1],
                         route.plan_length, raster);
            } else if (raster > 0.2) {
                double ratio = route.plan_length / raster;
                sum->worst_ratio = fmax(sum->worst_ratio, ratio);
                sum->ratio_sum += ratio;
            }
            sum->pairs++;
            checked = 1;
        }
    }
    sum->redrawn += !checked;
    wm_route_free(&ctx, &route);
    return checked;
}

/* Points on faces of two different classes: no route. */
static void check_apart(file_state *f, totals *sum)
{
    for (int k = 0; k < 5; k++) {
        uint32_t a = random_face(f), b = random_face(f);
        if (f->klass[a] == f->klass[b])
            continue;
        float s[3], t[3];
        point_in_face(f, a, s);
        point_in_face(f, b, t);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        wm_route route;
        wm_route_options o = {1, 1, 0};
        assert_int_equal(wm_route_find(&ctx, f->graph, s, t, &o, &route), WM_OK);
        assert_int_equal(route.found, 0);
        wm_route_free(&ctx, &route);
        sum->apart++;
    }
}

/* The tables' route (start, each triangle's centre, goal) against the shortest, in plan. */
static void compare_tables(file_state *f, const uint8_t *data, size_t size, const char *name, totals *sum)
{
    wm_ctx parse_ctx;
    wmt_ctx_init(&parse_ctx);
    nwn2_file file;
    nwn2_file_init(&file);
    uint32_t *tile_of = NULL;
    if (nwn2_file_parse_shared(&parse_ctx, data, size, name, &file) || file.aswm_packet < 0 ||
        nwn2_tile_of_triangles(&parse_ctx, &file.aswm, &tile_of))
        fail_msg("%s: %s", name, parse_ctx.message);
    for (int k = 0; k < TABLE_PAIRS; k++) {
        uint32_t a = random_face(f);
        float s[3], t[3];
        point_in_face(f, a, s);
        nearby_point(f, f->klass[a], a, s, TABLE_REACH, t);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        wm_route route;
        wm_route_options o = {1, 1, 0};
        wm_nwn2_route tables;
        if (wm_route_find(&ctx, f->graph, s, t, &o, &route) || !route.found ||
            nwn2_route_on(&ctx, &file.aswm, tile_of, s, t, &tables)) {
            wm_route_free(&ctx, &route);
            continue;
        }
        sum->tables_pairs++;
        if (!tables.reached) {
            sum->tables_unreached++;
        } else {
            double length = 0;
            const float *prev = s;
            for (uint32_t i = 0; i < tables.count; i++) {
                length += hypot(tables.points[3 * i] - prev[0], tables.points[3 * i + 1] - prev[1]);
                prev = tables.points + 3 * i;
            }
            length += hypot(t[0] - prev[0], t[1] - prev[1]);
            double percent = route.plan_length > 0 ? 100 * (length / route.plan_length - 1) : 0;
            sum->tables_longer += percent > 1;
            sum->tables_percent_sum += percent;
            sum->tables_percent_max = fmax(sum->tables_percent_max, percent);
        }
        wm_nwn2_route_free(&ctx, &tables);
        wm_route_free(&ctx, &route);
    }
    wm_free(&parse_ctx, tile_of);
    nwn2_file_free(&parse_ctx, &file);
}

static void check_file(const char *path, totals *sum)
{
    file_state f;
    memset(&f, 0, sizeof f);
    f.rng = 0x9E3779B97F4A7C15ull ^ strlen(path);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (wm_mesh_load(&ctx, path, NULL, NULL, &f.mesh))
        fail_msg("%s: %s", path, ctx.message);
    f.klass = wmt_walkable_classes(&f.mesh, 0);
    if (f.klass[f.mesh.triangle_count]) { /* not one ground: where a route goes is not defined */
        sum->stacked++;
        free(f.klass);
        wm_mesh_free(&ctx, &f.mesh);
        return;
    }
    cover_build(&f.cover, &f.mesh, f.klass);
    assert_int_equal(wm_walk_graph_build(&ctx, &f.mesh, 1, &f.graph), WM_OK);
    f.cumulative = malloc(((size_t)f.mesh.triangle_count + 1) * sizeof *f.cumulative);
    double area = 0;
    for (uint32_t t = 0; t < f.mesh.triangle_count; t++) {
        if (f.mesh.walkable[t]) { /* in plan: a point is drawn on the ground as seen from above */
            const float *a = vtx(&f.mesh, t, 0), *b = vtx(&f.mesh, t, 1), *c = vtx(&f.mesh, t, 2);
            area += fabs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2;
        }
        f.cumulative[t] = area;
    }
    if (area > 0) {
        unsigned checked = 0;
        for (unsigned draws = 0; checked < PAIRS && draws < 20 * PAIRS; draws++)
            checked += (unsigned)check_pair(&f, sum, path);
        assert_true(checked >= PAIRS / 2);
        check_apart(&f, sum);
        size_t n = strlen(path);
        if (n > 4 && (strcmp(path + n - 4, ".trx") == 0 || strcmp(path + n - 4, ".TRX") == 0)) {
            size_t size;
            uint8_t *data = wmt_read_file(path, &size);
            compare_tables(&f, data, size, path, sum);
            free(data);
        }
        sum->files++;
    }
    wm_walk_graph_free(&ctx, f.graph);
    cover_free(&f.cover);
    free(f.cumulative);
    free(f.klass);
    wm_mesh_free(&ctx, &f.mesh);
}

static void run_folder(const char *folder, const char *const *suffixes, totals *sum)
{
    char **files;
    size_t count = wmt_corpus_list(folder, suffixes, &files);
    for (size_t i = 0; i < count; i++) {
        clock_t begun = clock();
        check_file(files[i], sum);
        if (getenv("ROUTE_TIMES"))
            fprintf(stderr, "%.2f s %s\n", (double)(clock() - begun) / CLOCKS_PER_SEC, files[i]);
    }
    wmt_free_list(files, count);
}

static void test_routes_over_the_corpus(void **state)
{
    (void)state;
    totals sum = {0};
    static const char *const wok[] = {".wok", NULL};
    static const char *const trx[] = {".trx", ".TRX", NULL};
    run_folder("bwm", wok, &sum);
    unsigned wok_files = sum.files;
    run_folder("nwn2", trx, &sum);
    run_folder("nwn2-areas", trx, &sum);
    printf("routes: %u files (%u .wok), %u pairs checked against the raster (%u the raster does not join), "
           "route/raster mean %.4f worst %.4f; %u redrawn (route over 8 m, or floors over each other: %u); "
           "%u pairs on different regions: no route; %u files left out (an edge of 3+ walkable faces)\n",
           sum.files, wok_files, sum.pairs, sum.unjoined, sum.ratio_sum / (sum.pairs - sum.unjoined + 1e-9),
           sum.worst_ratio, sum.redrawn, sum.multilevel, sum.apart, sum.stacked);
    printf("NWN2 tables: %u pairs, %u not completed by the tables, %u over 1%% longer than the shortest; "
           "mean %.2f%% longer, at most %.2f%%\n",
           sum.tables_pairs, sum.tables_unreached, sum.tables_longer,
           sum.tables_percent_sum / (sum.tables_pairs - sum.tables_unreached + 1e-9), sum.tables_percent_max);
    assert_true(sum.pairs > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_routes_over_the_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
