/* Line of sight in a tile: one visibility sweep per source triangle.
 *
 * The bit is set only when the segment between two centres provably stays
 * on the tile's walkable triangles: walked through triangle sides, it must
 * cross every side clearly inside (no vertex of a crossed triangle within
 * 1e-4 of its line, the source's centre not within 1e-4 of a crossed side's
 * line, the target's centre not within 1e-4 of the side it enters by), into
 * a walkable triangle of the tile. Anything doubtful answers 0, which is
 * always safe: the engine then tests at run time.
 *
 * Instead of walking one segment per target (O(n) per pair, O(n^3) per
 * tile), the sweep walks every direction at once: a search from the source
 * carries the arc of directions that reach a triangle through one chain of
 * sides. Crossing a side keeps the directions through it, minus a cone of
 * half-angle asin(1e-4 / r) around each vertex of the triangle at distance r
 * (forward and backward: the walk measures distance to the whole line). A
 * target is visible when its centre's direction lies in an arc reaching it.
 * Each direction follows one chain, so a source costs O(n) (triangle, arc)
 * pairs on a sound tile: O(n^2) per tile. A hard budget per source bounds
 * unsound tiles (the source then gets no bits, which is safe). */
#include "bake_tile_graph.h"

#include <math.h>
#include <string.h>

#define SIGHT_MARGIN 1e-4
#define SIGHT_BUDGET(n) (16u * (n) + 64u)
#define SIGHT_POOL 1024
#define SIGHT_ROOT 0xFFFFu
#define MAX_PIECES 16

typedef struct vec {
    double x, y;
} vec;

/* Directions from lo counter-clockwise to hi, less than half a turn. */
typedef struct arc {
    vec lo, hi;
} arc;

typedef struct sight_entry {
    arc dirs;
    double reach2;   /* squared distance from p of the farthest end of the sides crossed before
                        the last: a target farther than that is past all of them */
    double last2;    /* the same for the last side crossed */
    uint16_t parent; /* entry this one was reached from (SIGHT_ROOT: none) */
    uint8_t node, came, side, depth; /* side: the side of `came` crossed into node */
} sight_entry;

/* Per point of a node, for the current source: the edges of its cones. */
typedef struct point_cone {
    arc fwd, back;
    vec d;     /* the point, from p */
    double r2; /* squared distance from p */
    int blind; /* within the margin of the source: every direction passes too near */
} point_cone;

typedef struct sweep {
    const tile_graph *g;
    vec p;
    uint8_t *visible;
    uint32_t source;                               /* sources swept in this tile, + 1 */
    uint64_t target_dirs; /* bit i: a target lies in direction sector i (of 64) from p */
    uint32_t cone_source[BAKE_MAX_TILE_POINTS];    /* source the cone was made for */
    point_cone cones[BAKE_MAX_TILE_POINTS];
    uint32_t near_source[3 * NWN2_MAX_TILE_NODES]; /* source near[] was decided for */
    uint8_t near[3 * NWN2_MAX_TILE_NODES];         /* side_near_p of each (node, side) */
    sight_entry pool[SIGHT_POOL]; /* searched in order; children are appended */
    uint32_t count;
    int overflow;
} sweep;

static double cross(vec a, vec b)
{
    return a.x * b.y - a.y * b.x;
}

static vec from_p(const sweep *sw, const float c[2])
{
    return (vec){(double)c[0] - sw->p.x, (double)c[1] - sw->p.y};
}

/* Closed membership (v between lo and hi, boundaries included). */
static int within(const arc *a, vec v)
{
    return cross(a->lo, v) >= 0 && cross(v, a->hi) >= 0;
}

static int strictly_within(const arc *a, vec v)
{
    return cross(a->lo, v) > 0 && cross(v, a->hi) > 0;
}

/* a and b both less than half a turn: their common arc (at most one). */
static int intersect(const arc *a, const arc *b, arc *out)
{
    vec lo = cross(a->lo, b->lo) > 0 ? b->lo : a->lo;
    vec hi = cross(a->hi, b->hi) > 0 ? a->hi : b->hi;
    if (!(cross(lo, hi) > 0) || !within(a, lo) || !within(b, lo) || !within(a, hi) || !within(b, hi))
        return 0;
    out->lo = lo;
    out->hi = hi;
    return 1;
}

/* The arc of directions from p through the segment u-w (0 when p is on its line). */
static int segment_arc(vec u, vec w, arc *out)
{
    double c = cross(u, w);
    if (c == 0)
        return 0;
    out->lo = c > 0 ? u : w;
    out->hi = c > 0 ? w : u;
    return 1;
}

static int near_side_line(const tile_graph *g, uint32_t u, int k, vec c_from_p, vec p)
{
    const float *s = g->side[u][k];
    double cx = c_from_p.x + p.x, cy = c_from_p.y + p.y;
    double e = ((double)s[2] - s[0]) * (cy - s[1]) - ((double)s[3] - s[1]) * (cx - s[0]);
    return e * e <= 1e-8 * g->side_len2[u][k];
}

static double far2(const sweep *sw, const float *side)
{
    vec u = from_p(sw, side), w = from_p(sw, side + 2);
    double du = u.x * u.x + u.y * u.y, dw = w.x * w.x + w.y * w.y;
    return du > dw ? du : dw;
}

/* Makes the cones of a point for the current source. */
static void make_cone(const sweep *sw, const float point[2], point_cone *pc)
{
    vec d = from_p(sw, point);
    double r2 = d.x * d.x + d.y * d.y, m2 = SIGHT_MARGIN * SIGHT_MARGIN;
    pc->d = d;
    pc->r2 = r2;
    pc->blind = !(r2 > m2);
    if (pc->blind)
        return;
    /* d turned by +-asin(margin / r), scaled by r: d cos + perp(d) sin */
    double c = sqrt(r2 - m2), m = SIGHT_MARGIN;
    vec plus = {d.x * c - d.y * m, d.y * c + d.x * m}, minus = {d.x * c + d.y * m, d.y * c - d.x * m};
    pc->fwd = (arc){minus, plus};
    pc->back = (arc){(vec){-minus.x, -minus.y}, (vec){-plus.x, -plus.y}};
}

/* The cones of point i of node, made once per source (points are shared). */
static inline const point_cone *cone_of(sweep *sw, uint32_t node, uint32_t i)
{
    const uint16_t id = sw->g->point_id[node][i];
    point_cone *pc = &sw->cones[id];
    if (sw->cone_source[id] != sw->source) {
        sw->cone_source[id] = sw->source;
        make_cone(sw, sw->g->point[node][i], pc);
    }
    return pc;
}

/* Whether p lies within the margin of the line of side k of node: decided
 * once per source and side (the searches meet a side many times). */
static int side_near_p(sweep *sw, uint32_t node, int k)
{
    const uint32_t at = 3 * node + (uint32_t)k;
    if (sw->near_source[at] != sw->source) {
        const vec zero = {0, 0};
        sw->near_source[at] = sw->source;
        sw->near[at] = (uint8_t)near_side_line(sw->g, node, k, zero, sw->p);
    }
    return sw->near[at];
}

/* Removes the arc x from each piece (a piece may split in two). */
static int subtract(arc *pieces, int n, const arc *x)
{
    const int count = n;
    for (int i = 0; i < count; i++) {
        arc a = pieces[i];
        int lo_in = strictly_within(&a, x->lo), hi_in = strictly_within(&a, x->hi);
        if (lo_in && hi_in && n < MAX_PIECES) {
            pieces[i].hi = x->lo;
            pieces[n++] = (arc){x->hi, a.hi};
        } else if (lo_in) {
            pieces[i].hi = x->lo;
        } else if (hi_in) {
            pieces[i].lo = x->hi;
        } else if (within(x, a.lo) && within(x, a.hi)) {
            pieces[i].hi = pieces[i].lo; /* covered: empty */
        }
    }
    return n;
}

static int is_back(const tile_graph *g, const sight_entry *e, int k)
{
    return e->came != NWN2_PATH_NONE && g->side_node[e->node][k] == e->came;
}

static int has_direction(vec v)
{
    double d = fabs(v.x) + fabs(v.y);
    return d > 0 && isfinite(d);
}

/* Sector (of 64 equal-ish sectors of the pseudo-angle) of direction v. */
static unsigned sector(vec v)
{
    double d = fabs(v.x) + fabs(v.y);
    if (!(d > 0) || !isfinite(d))
        return 0; /* no direction (a point on the source, or hostile coordinates): callers treat it as anywhere */
    double r = v.y / d; /* 0..4 over the turn, monotone in the angle */
    double t = v.x < 0 ? 2 - r : (v.y < 0 ? 4 + r : r);
    return (unsigned)(t * 16.0) & 63u;
}

/* Whether some target may lie in the arc: an arc without one is not
 * searched further (its continuations only see directions inside it). */
static int may_see_target(const sweep *sw, const arc *a)
{
    if (!has_direction(a->lo) || !has_direction(a->hi))
        return 1; /* cannot prune an arc without a direction */
    const unsigned lo = sector(a->lo), hi = sector(a->hi);
    uint64_t m = lo <= hi ? ((2ull << (hi - lo)) - 1) << lo : (~0ull << lo) | ((2ull << hi) - 1);
    return (sw->target_dirs & m) != 0;
}

static void push(sweep *sw, uint32_t at, int k, const arc *a, double side_reach2)
{
    const sight_entry *e = &sw->pool[at];
    if (!may_see_target(sw, a))
        return;
    if (sw->count >= SIGHT_POOL) {
        sw->overflow = 1;
        return;
    }
    sw->pool[sw->count++] = (sight_entry){*a,
                                          e->reach2 > e->last2 ? e->reach2 : e->last2,
                                          side_reach2,
                                          (uint16_t)at,
                                          sw->g->side_node[e->node][k],
                                          e->node,
                                          (uint8_t)k,
                                          (uint8_t)(e->depth + 1)};
}

/* Cuts of the root only: directions whose backward ray crosses a side whose
 * line passes within the margin of p. */
static int cut_backward_sides(const sweep *sw, const sight_entry *e, arc *pieces, int n)
{
    const tile_graph *g = sw->g;
    const vec zero = {0, 0};
    for (int k = 0; k < 3; k++) {
        arc side;
        if (!near_side_line(g, e->node, k, zero, sw->p) ||
            !segment_arc(from_p(sw, g->side[e->node][k]), from_p(sw, g->side[e->node][k] + 2), &side))
            continue;
        arc back = {{-side.lo.x, -side.lo.y}, {-side.hi.x, -side.hi.y}};
        n = subtract(pieces, n, &back);
    }
    return n;
}

/* Directions of e that leave its triangle through side k, minus the cones
 * of every point the walk checks there. */
static void cross_side(sweep *sw, uint32_t at, int k)
{
    const sight_entry *e = &sw->pool[at];
    const tile_graph *g = sw->g;
    const int root = e->came == NWN2_PATH_NONE;
    arc pieces[MAX_PIECES];
    if (g->side_node[e->node][k] == NWN2_PATH_NONE || side_near_p(sw, e->node, k) ||
        !segment_arc(from_p(sw, g->side[e->node][k]), from_p(sw, g->side[e->node][k] + 2), &pieces[0]))
        return;
    if (!root && !intersect(&pieces[0], &e->dirs, &pieces[0]))
        return;
    int n = 1;
    uint8_t checked[6] = {0};
    for (int j = 0; j < 3; j++)
        if (!is_back(g, e, j))
            checked[g->side_point[e->node][j][0]] = checked[g->side_point[e->node][j][1]] = 1;
    for (uint32_t i = 0; i < g->point_count[e->node]; i++) {
        if (!checked[i])
            continue;
        const point_cone *pc = cone_of(sw, e->node, i);
        if (pc->blind)
            return;
        n = subtract(pieces, n, &pc->fwd);
        n = subtract(pieces, n, &pc->back);
    }
    if (root)
        n = cut_backward_sides(sw, e, pieces, n);
    for (int i = 0; i < n; i++)
        if (cross(pieces[i].lo, pieces[i].hi) > 0)
            push(sw, at, k, &pieces[i], far2(sw, g->side[e->node][k]));
}

/* The common case, a sound triangle entered through side (a, b) with its
 * third corner c inside the arc of directions through that side: the
 * directions split at c into those leaving through (a, c) and through
 * (c, b), each minus c's cones (a's and b's were taken off when crossing
 * into this triangle). Returns 0 when the triangle is not such a case. */
static int split_at_corner(sweep *sw, uint32_t at)
{
    const sight_entry *e = &sw->pool[at];
    const tile_graph *g = sw->g;
    const uint32_t u = e->node;
    int back = -1;
    for (int k = 0; k < 3; k++)
        if (is_back(g, e, k)) {
            if (back >= 0)
                return 0;
            back = k;
        }
    if (back < 0 || g->corner[u][back][0] < 0)
        return 0;
    const uint8_t a = g->side_point[u][back][0], b = g->side_point[u][back][1], c = (uint8_t)g->corner[u][back][0];
    int ka = g->corner[u][back][1], kb = g->corner[u][back][2];
    const point_cone *ca = cone_of(sw, u, a), *cb = cone_of(sw, u, b), *pc = cone_of(sw, u, c);
    vec A = ca->d, B = cb->d, C = pc->d;
    if (cross(A, B) < 0) { /* b is the clockwise end: swap so that a is */
        vec t = A;
        A = B;
        B = t;
        const point_cone *tc = ca;
        ca = cb;
        cb = tc;
        int k = ka;
        ka = kb;
        kb = k;
    }
    const vec AB = {B.x - A.x, B.y - A.y};
    if (!(cross(AB, (vec){C.x - A.x, C.y - A.y}) < 0)) /* p is on the positive side (cross(A, B) > 0) */
        return 0; /* c not beyond the entry side: a folded mesh, left to the general case */
    if (pc->blind)
        return 1;
    const double ac = cross(A, C), cb_ = cross(C, B);
    const int sides[2] = {ka, kb};
    const double reach[2] = {ca->r2 > pc->r2 ? ca->r2 : pc->r2, cb->r2 > pc->r2 ? cb->r2 : pc->r2};
    if (!(ac > 0 && cb_ > 0)) {
        /* c outside the arc through (a, b): every direction leaves by the side facing it */
        const int h = ac > 0 ? 0 : 1;
        if (g->side_node[u][sides[h]] == NWN2_PATH_NONE || side_near_p(sw, u, sides[h]))
            return 1;
        arc pieces[3] = {e->dirs};
        int n = subtract(pieces, 1, &pc->fwd);
        n = subtract(pieces, n, &pc->back);
        for (int i = 0; i < n; i++)
            if (cross(pieces[i].lo, pieces[i].hi) > 0)
                push(sw, at, sides[h], &pieces[i], reach[h]);
        return 1;
    }
    /* c's backward cone can only reach the arc when c is nearly opposite an end */
    const int back_cone = A.x * C.x + A.y * C.y <= 0 || B.x * C.x + B.y * C.y <= 0;
    const arc halves[2] = {{e->dirs.lo, cross(pc->fwd.lo, e->dirs.hi) > 0 ? pc->fwd.lo : e->dirs.hi},
                           {cross(e->dirs.lo, pc->fwd.hi) > 0 ? pc->fwd.hi : e->dirs.lo, e->dirs.hi}};
    for (int h = 0; h < 2; h++) {
        if (!(cross(halves[h].lo, halves[h].hi) > 0) || g->side_node[u][sides[h]] == NWN2_PATH_NONE ||
            side_near_p(sw, u, sides[h]))
            continue;
        arc pieces[2] = {halves[h]};
        int n = back_cone ? subtract(pieces, 1, &pc->back) : 1;
        for (int i = 0; i < n; i++)
            if (cross(pieces[i].lo, pieces[i].hi) > 0)
                push(sw, at, sides[h], &pieces[i], reach[h]);
    }
    return 1;
}

/* Whether q (relative to p) lies clearly beyond side k of node u: on the
 * other side of its line than p, and not within the margin of it. */
static int beyond_side(const sweep *sw, uint32_t u, int k, vec q)
{
    const vec zero = {0, 0};
    if (near_side_line(sw->g, u, k, q, sw->p))
        return 0;
    const float *s = sw->g->side[u][k];
    vec a = from_p(sw, s), b = from_p(sw, s + 2), ab = {b.x - a.x, b.y - a.y};
    double at_p = cross(ab, (vec){zero.x - a.x, zero.y - a.y}), at_q = cross(ab, (vec){q.x - a.x, q.y - a.y});
    return (at_p > 0) != (at_q > 0);
}

/* A target reached: visible when its centre's direction is in the arc and
 * the centre lies clearly beyond every side crossed on the way (checked one
 * by one only when it is not farther than all their ends). */
static void check_target(sweep *sw, uint32_t at)
{
    const sight_entry *e = &sw->pool[at];
    const vec q = from_p(sw, sw->g->centre[e->node]);
    if ((q.x == 0 && q.y == 0) || !strictly_within(&e->dirs, q) || !beyond_side(sw, e->came, e->side, q))
        return;
    if (q.x * q.x + q.y * q.y <= e->reach2)
        for (uint32_t up = e->parent; sw->pool[up].came != NWN2_PATH_NONE; up = sw->pool[up].parent)
            if (!beyond_side(sw, sw->pool[up].came, sw->pool[up].side, q))
                return;
    sw->visible[e->node] = 1;
}

void bake_sight_from(const tile_graph *g, uint32_t from, uint8_t *visible, void *scratch)
{
    sweep *sw = scratch;
    sw->g = g;
    sw->p = (vec){g->centre[from][0], g->centre[from][1]};
    sw->visible = visible;
    sw->overflow = 0;
    sw->source++;
    memset(visible, 0, g->n);
    sw->target_dirs = 0;
    for (uint32_t d = from + 1; d < g->n; d++) {
        vec q = from_p(sw, g->centre[d]);
        if (q.x != 0 || q.y != 0)
            sw->target_dirs |= has_direction(q) ? 1ull << sector(q) : ~0ull;
    }
    if (!sw->target_dirs)
        return;
    sw->pool[0] = (sight_entry){{{1, 0}, {0, 1}}, 0, 0, SIGHT_ROOT, (uint8_t)from, NWN2_PATH_NONE, 0, 0};
    sw->count = 1;
    const uint32_t budget = SIGHT_BUDGET(g->n);
    for (uint32_t at = 0; at < sw->count && !sw->overflow; at++) {
        if (at >= budget) {
            sw->overflow = 1;
            break;
        }
        const sight_entry *e = &sw->pool[at];
        if (e->came != NWN2_PATH_NONE && e->node > from) /* the lower node decides a pair */
            check_target(sw, at);
        if (e->depth >= g->n)
            continue;
        if (e->came != NWN2_PATH_NONE && split_at_corner(sw, at))
            continue;
        for (int k = 0; k < 3; k++)
            if (!is_back(g, &sw->pool[at], k))
                cross_side(sw, at, k);
    }
    if (sw->overflow)
        memset(visible, 0, g->n);
}

void bake_sight_start(void *scratch)
{
    sweep *sw = scratch;
    sw->source = 0;
    memset(sw->cone_source, 0, sizeof sw->cone_source);
    memset(sw->near_source, 0, sizeof sw->near_source);
}

size_t bake_sight_scratch_size(void)
{
    return sizeof(sweep);
}
