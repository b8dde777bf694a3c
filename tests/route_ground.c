/* The route tests' own view of the walkable ground (route_ground.h). */
#include "route_ground.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CELL 0.05
#define SAMPLE_STEP 0.1

const float *vtx(const wm_mesh *m, uint32_t t, int k)
{
    return m->positions + 3 * (size_t)m->indices[3 * (size_t)t + k];
}

void cover_build(cover *c, const wm_mesh *m, const uint32_t *klass)
{
    memset(c, 0, sizeof *c);
    c->mesh = m;
    c->klass = klass;
    double hi[3] = {-1e30, -1e30, -1e30}, low = 1e30;
    c->lo[0] = c->lo[1] = 1e30;
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        for (int k = 0; k < 2; k++) {
            c->lo[k] = fmin(c->lo[k], m->positions[3 * v + k]);
            hi[k] = fmax(hi[k], m->positions[3 * v + k]);
        }
        low = fmin(low, m->positions[3 * v + 2]);
        hi[2] = fmax(hi[2], m->positions[3 * v + 2]);
    }
    c->height_span = m->vertex_count ? hi[2] - low : 0;
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

void cover_free(cover *c)
{
    free(c->start);
    free(c->items);
}

/* Whether (x, y) lies in face t in plan, within slack (distance to each edge line). */
int inside(const wm_mesh *m, uint32_t t, double x, double y, double slack, double *height)
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
int covered(const cover *c, double x, double y, uint32_t want, double slack, double *spread, uint32_t *face)
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
double raster_length(const cover *c, uint32_t klass, const double s[2], const double t[2], double reach,
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
            double px = r.lo[0] + (x + 0.5) * CELL, py = r.lo[1] + (y + 0.5) * CELL, spread = 0;
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

/* Every 10 cm of the route in plan over some walkable face. */
unsigned off_ground(const cover *c, const wm_route *route)
{
    unsigned misses = 0;
    for (uint32_t i = 0; i + 1 < route->count; i++) {
        const float *a = route->points + 3 * (size_t)i, *b = a + 3;
        double len = hypot(b[0] - a[0], b[1] - a[1]);
        int steps = (int)ceil(len / SAMPLE_STEP);
        for (int k = 0; k <= steps; k++) {
            double u = steps ? (double)k / steps : 0;
            double x = a[0] + u * (b[0] - a[0]), y = a[1] + u * (b[1] - a[1]);
            misses += !covered(c, x, y, UINT32_MAX, 1e-4, NULL, NULL);
        }
    }
    return misses;
}

double straight3(const float *a, const float *b)
{
    return sqrt(((double)b[0] - a[0]) * (b[0] - a[0]) + ((double)b[1] - a[1]) * (b[1] - a[1]) +
                ((double)b[2] - a[2]) * (b[2] - a[2]));
}

typedef struct edge_use {
    uint32_t lo, hi, face, far;
} edge_use;

static int edge_use_order(const void *pa, const void *pb)
{
    const edge_use *a = pa, *b = pb;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return a->hi < b->hi ? -1 : a->hi > b->hi;
}

/* Distance in plan of p from the line a-b, signed by side. */
static double side_of(const float *a, const float *b, const float *p)
{
    double ex = b[0] - a[0], ey = b[1] - a[1], len = hypot(ex, ey);
    return len > 0 ? (ex * (p[1] - a[1]) - ey * (p[0] - a[0])) / len : 0;
}

/* Walkable faces sharing an edge whose far corners both lie over 0.1 mm to one side of it: the
 * ground folds over itself there, and a route over the faces may turn back where the raster,
 * which takes any face over a cell, goes straight. */
uint8_t *find_folds(const wm_mesh *m)
{
    edge_use *uses = malloc((3 * (size_t)m->triangle_count + 1) * sizeof *uses);
    uint8_t *folded = calloc((size_t)m->triangle_count + 1, 1);
    size_t n = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++)
        for (int k = 0; m->walkable[t] && k < 3; k++) {
            uint32_t a = m->indices[3 * (size_t)t + k], b = m->indices[3 * (size_t)t + (k + 1) % 3];
            uses[n++] = (edge_use){a < b ? a : b, a < b ? b : a, t, m->indices[3 * (size_t)t + (k + 2) % 3]};
        }
    qsort(uses, n, sizeof *uses, edge_use_order);
    for (size_t i = 0; i + 1 < n; i++) {
        if (uses[i].lo != uses[i + 1].lo || uses[i].hi != uses[i + 1].hi)
            continue;
        const float *a = m->positions + 3 * (size_t)uses[i].lo, *b = m->positions + 3 * (size_t)uses[i].hi;
        double p = side_of(a, b, m->positions + 3 * (size_t)uses[i].far);
        double q = side_of(a, b, m->positions + 3 * (size_t)uses[i + 1].far);
        if ((p > 1e-4 && q > 1e-4) || (p < -1e-4 && q < -1e-4))
            folded[uses[i].face] = folded[uses[i + 1].face] = 1;
    }
    free(uses);
    return folded;
}

double longest_over_ground(const cover *c, double plan)
{
    return 2 * plan + 2 * c->height_span;
}
