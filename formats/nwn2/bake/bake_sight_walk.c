/* Line of sight in a tile, the fast way on real tiles: each centre-to-centre
 * segment walked through triangle sides, with everything that depends only
 * on the source (each point and each side seen from its centre) worked out
 * once per source.
 *
 * The walk decides exactly what the sweep of bake_sight.c decides (the bit is
 * set only when every crossing is clearly inside a side whose far triangle
 * is a walkable triangle of the tile; see there): on real tiles a segment
 * crosses about nine sides, so the walks of one source cost less than its
 * sweep. A walk costs O(n) steps, so a source's walks could cost O(n^2): each
 * source has a budget of steps of O(n), and a source that runs out of it is
 * decided by its sweep (O(n) per source) instead. A tile therefore costs
 * O(n^2) at worst, as with the sweep alone. */
#include "bake_tile_graph.h"

#include <string.h>

#define WALK_BUDGET(n) (16u * (n) + 64u)

/* The sides' lines in doubles, side k of u at 3 u + k, worked out once per
 * tile: the walk's tests are the same operations on the same values as with
 * the floats converted at each test. thr: 1e-8 times the side's squared
 * length. With them, e: p against each line (signed, times the side's
 * length), worked out for every side when a source is prepared: a loop
 * without branches over arrays (the processor does several sides at once)
 * costs less than deciding at each crossing whether the side was already
 * seen from this source (a branch taken about 1 time in 5, unpredictably). */
typedef struct walk_sides {
    double x0[3 * NWN2_MAX_TILE_NODES], y0[3 * NWN2_MAX_TILE_NODES];
    double dx[3 * NWN2_MAX_TILE_NODES], dy[3 * NWN2_MAX_TILE_NODES];
    double thr[3 * NWN2_MAX_TILE_NODES], e[3 * NWN2_MAX_TILE_NODES];
} walk_sides;

/* A sound triangle v entered through its side e (corner[v][e][0] >= 0): what
 * a step through it needs, in one place. Side h = 0 is (a, c), h = 1 is
 * (c, b), where a and b are the entry side's ends in order and c the third
 * corner. */
typedef struct walk_turn {
    uint32_t c;     /* c's tile point number */
    uint32_t sides; /* 3 v + k of side h, at bit 16 h */
    /* where crossing side h leads, at bit 32 h (shifted out rather than
     * indexed: which side is crossed is known late, and a shift by it costs
     * less than a load addressed by it):
     *   bits 0-7: the node beyond (NWN2_PATH_NONE: none);
     *   bits 8-9: 1 + the side of that node leading back to v (entry[v][k]);
     *   bit 10: the next entry side's first end lies on the other side of the
     *     line than a (when it is c after crossing (a, c), or b after (c, b));
     *   bit 11: that node, entered through that side, is itself a walk_turn
     *     and its entry side's ends are this side's (walk_source.carry) */
    uint64_t go;
} walk_turn;

#define GO_NODE(go) ((go) & 0xFFu)
#define GO_BACK(go) ((int)(((go) >> 8) & 3u) - 1)
#define GO_FLIP(go) (((go) >> 10) & 1u)
#define GO_TURN(go) (((go) >> 11) & 1u)

/* What one tile's walks share, and one source's. */
typedef struct walk_source {
    double p[2];
    double dp[BAKE_MAX_TILE_POINTS][2]; /* each tile point minus p */
    walk_sides side;
    walk_turn turn[NWN2_MAX_TILE_NODES][3];
    /* crossing side k of u into v by v's side entry[u][k]: 1 when that side's
     * ends are u's side's ends in order, 2 reversed, 0 otherwise (their
     * values against the line are then worked out again) */
    uint8_t carry[NWN2_MAX_TILE_NODES][3];
} walk_source;

/* Where the sweep's scratch starts, after the walks' (aligned for doubles). */
#define SWEEP_SCRATCH_AT ((sizeof(walk_source) + 15) & ~(size_t)15)

/* One walk: the target, the direction w = q - p, the margin; the node it is
 * in, the side it entered by (-1: none or not sound) and the values of that
 * side's ends against the line (when have_ends). */
typedef struct walk_line {
    double q[2];
    double wx, wy, margin2;
    double end_value[2];
    int have_ends;
} walk_line;

static void prepare_source(const tile_graph *g, uint32_t from, walk_source *ws)
{
    ws->p[0] = g->centre[from][0];
    ws->p[1] = g->centre[from][1];
    for (uint32_t i = 0; i < g->tile_points; i++) {
        ws->dp[i][0] = (double)g->point_at[i][0] - ws->p[0];
        ws->dp[i][1] = (double)g->point_at[i][1] - ws->p[1];
    }
    walk_sides *s = &ws->side;
    const double px = ws->p[0], py = ws->p[1];
    for (uint32_t i = 0; i < 3 * g->n; i++)
        s->e[i] = s->dx[i] * (py - s->y0[i]) - s->dy[i] * (px - s->x0[i]);
}

/* Point i of node u against the line (times |pq|). */
static inline double side_of_point(const tile_graph *g, const walk_source *ws, const walk_line *l, uint32_t u,
                                   uint32_t i)
{
    const double *d = ws->dp[g->point_id[u][i]];
    return l->wx * d[1] - l->wy * d[0];
}

/* Side at (3 u + k), whose ends lie on either side of the line: -1 when an
 * end of the segment lies within 1e-4 of the side's line, 1 when p and q lie
 * on either side of it (the segment crosses it), 0 when not (the side behind p). */
static inline int crosses(const walk_source *ws, const walk_line *l, uint32_t at)
{
    const walk_sides *s = &ws->side;
    const double ep = s->e[at], thr = s->thr[at];
    const double ew = s->dx[at] * (l->q[1] - s->y0[at]) - s->dy[at] * (l->q[0] - s->x0[at]);
    if (ep * ep <= thr || ew * ew <= thr)
        return -1;
    return (ep > 0) != (ew > 0);
}

/* One step from cur (entered from came, NWN2_PATH_NONE at the source): every
 * side checked. Returns the side crossed, -1 when the walk fails; value[]
 * gets each point's value against the line. */
static int step_any(const tile_graph *g, walk_source *ws, const walk_line *l, uint32_t cur, uint32_t came,
                    double *value)
{
    for (uint32_t i = 0; i < g->point_count[cur]; i++)
        value[i] = side_of_point(g, ws, l, cur, i);
    int crossed = -1, crossings = 0;
    for (int k = 0; k < 3; k++) {
        const int back = came != NWN2_PATH_NONE && g->side_node[cur][k] == came;
        const double su = value[g->side_point[cur][k][0]], sw = value[g->side_point[cur][k][1]];
        if (su * su <= l->margin2 || sw * sw <= l->margin2) {
            if (back)
                continue;
            return -1; /* the line passes (nearly) through a vertex */
        }
        if ((su > 0) == (sw > 0) || back)
            continue;
        const int c = crosses(ws, l, 3 * cur + (uint32_t)k);
        if (c < 0)
            return -1;
        crossings += c;
        crossed = c ? k : crossed;
    }
    return crossings == 1 && g->side_node[cur][crossed] != NWN2_PATH_NONE ? crossed : -1;
}

/* The same step through a sound triangle entered by its only side back to
 * came, `back`, without the values of the entry side's ends (the step before
 * crossed a side whose ends are other points): the sides (a, c) and (b, c)
 * are the ones to check. */
static int step_sound(const tile_graph *g, walk_source *ws, const walk_line *l, uint32_t cur, int back,
                      double *value)
{
    const int8_t *corner = g->corner[cur][back];
    const uint8_t a = g->side_point[cur][back][0], b = g->side_point[cur][back][1];
    const double sc = side_of_point(g, ws, l, cur, (uint32_t)corner[0]);
    const double sa = side_of_point(g, ws, l, cur, a), sb = side_of_point(g, ws, l, cur, b);
    if (sa * sa <= l->margin2 || sb * sb <= l->margin2 || sc * sc <= l->margin2)
        return -1; /* the line passes (nearly) through a vertex */
    value[a] = sa;
    value[b] = sb;
    value[corner[0]] = sc;
    int crossed = -1, crossings = 0;
    for (int h = 0; h < 2; h++) {
        const double s = h ? sb : sa;
        if ((s > 0) == (sc > 0))
            continue;
        const int c = crosses(ws, l, 3 * cur + (uint32_t)corner[1 + h]);
        if (c < 0)
            return -1;
        crossings += c;
        crossed = c ? corner[1 + h] : crossed;
    }
    return crossings == 1 && g->side_node[cur][crossed] != NWN2_PATH_NONE ? crossed : -1;
}

/* Hands the values of the ends of side k of cur (just crossed) to the next step. */
static void carry_ends(const tile_graph *g, const walk_source *ws, walk_line *l, uint32_t cur, int k,
                       const double *value)
{
    const uint8_t how = ws->carry[cur][k];
    l->have_ends = how != 0;
    if (!how)
        return;
    const double x = value[g->side_point[cur][k][0]], y = value[g->side_point[cur][k][1]];
    l->end_value[0] = how == 1 ? x : y;
    l->end_value[1] = how == 1 ? y : x;
}

/* The step of step_sound through the turn t, entered through a side just
 * crossed: its ends a and b are the ends of that side, whose values against
 * the line were clear of the margin and on either side of it (o: whether a's
 * value is > 0). Only c's value is new, and exactly one of the sides (a, c)
 * and (c, b) has its ends on either side of the line. Returns where crossing
 * it leads (walk_turn.go), GO_NODE NWN2_PATH_NONE when the walk fails. */
static inline uint32_t step_turn(const walk_source *ws, const walk_line *l, const walk_turn *t, unsigned o)
{
    const double *dc = ws->dp[t->c];
    const double sc = l->wx * dc[1] - l->wy * dc[0];
    if (sc * sc <= l->margin2)
        return NWN2_PATH_NONE; /* the line passes (nearly) through a vertex */
    const unsigned h = o == (sc > 0);
    const uint32_t go = (uint32_t)(t->go >> (32 * h));
    return crosses(ws, l, (t->sides >> (16 * h)) & 0xFFFFu) == 1 ? go : NWN2_PATH_NONE;
}

/* 1: the segment from the source to node `to` stays clearly on the tile's
 * walkable triangles; 0: not provably; -1: the source's budget ran out. */
static int walk(const tile_graph *g, walk_source *ws, uint32_t from, uint32_t to, uint32_t *budget)
{
    walk_line l = {{g->centre[to][0], g->centre[to][1]}, 0, 0, 0, {0, 0}, 0};
    l.wx = l.q[0] - ws->p[0];
    l.wy = l.q[1] - ws->p[1];
    const double len2 = l.wx * l.wx + l.wy * l.wy;
    if (len2 <= 0.0)
        return 0;
    l.margin2 = 1e-8 * len2; /* (1e-4 * |pq|)^2: how close the line may pass a vertex */
    uint32_t cur = from, came = NWN2_PATH_NONE;
    int back = -1;
    unsigned turn = 0, o = 0; /* turn: cur entered through back is a walk_turn; o: its entry side's first end's value is > 0 */
    double value[6];
    for (uint32_t steps = 0; steps <= g->n; steps++) {
        if (cur == to)
            return 1;
        if (*budget == 0)
            return -1;
        --*budget;
        if (turn) {
            const walk_turn *t = &ws->turn[cur][back];
            const uint32_t go = step_turn(ws, &l, t, o);
            if (GO_NODE(go) == NWN2_PATH_NONE)
                return 0;
            o ^= GO_FLIP(go);
            turn = GO_TURN(go);
            back = GO_BACK(go);
            came = cur;
            cur = GO_NODE(go);
            continue;
        }
        const int k = back >= 0 && g->corner[cur][back][0] >= 0 ? step_sound(g, ws, &l, cur, back, value)
                                                                : step_any(g, ws, &l, cur, came, value);
        if (k < 0)
            return 0;
        carry_ends(g, ws, &l, cur, k, value);
        back = g->entry[cur][k];
        came = cur;
        cur = g->side_node[cur][k];
        turn = l.have_ends && back >= 0 && g->corner[cur][back][0] >= 0;
        o = l.end_value[0] > 0;
    }
    return 0;
}

void bake_sight_pairs(const tile_graph *g, uint32_t from, const uint8_t *wanted, uint8_t *visible, void *scratch)
{
    walk_source *ws = scratch;
    prepare_source(g, from, ws);
    uint32_t budget = WALK_BUDGET(g->n);
    for (uint32_t d = from + 1; d < g->n; d++) {
        visible[d] = 0;
        if (!wanted[d])
            continue;
        const int r = walk(g, ws, from, d, &budget);
        if (r < 0) {
            bake_sight_from(g, from, visible, (unsigned char *)scratch + SWEEP_SCRATCH_AT);
            return;
        }
        visible[d] = (uint8_t)r;
    }
}

size_t bake_sight_pairs_scratch_size(void)
{
    return SWEEP_SCRATCH_AT + bake_sight_scratch_size();
}

/* How the ends of side k of u meet the side of the node beyond that leads back (walk_source.carry). */
static uint8_t carry_of(const tile_graph *g, uint32_t u, int k)
{
    const uint8_t v = g->side_node[u][k];
    const int e = g->entry[u][k];
    if (v == NWN2_PATH_NONE || e < 0)
        return 0;
    const uint16_t x = g->point_id[u][g->side_point[u][k][0]], y = g->point_id[u][g->side_point[u][k][1]];
    const uint16_t a = g->point_id[v][g->side_point[v][e][0]], b = g->point_id[v][g->side_point[v][e][1]];
    return x == a && y == b ? 1 : x == b && y == a ? 2 : 0;
}

/* ws->turn[v][e] (when v entered through e is sound; after ws->carry). */
static void make_turn(const tile_graph *g, walk_source *ws, uint32_t v, int e)
{
    const int8_t *corner = g->corner[v][e];
    walk_turn *t = &ws->turn[v][e];
    t->c = g->point_id[v][corner[0]];
    t->sides = 0;
    t->go = 0;
    for (int h = 0; h < 2; h++) {
        const int k = corner[1 + h], back = g->entry[v][k];
        const uint8_t how = ws->carry[v][k], w = g->side_node[v][k];
        /* the point of this side whose value becomes the next entry side's first end's */
        const uint8_t first = g->side_point[v][k][how == 1 ? 0 : 1];
        const uint32_t flip = (uint32_t)((first == corner[0]) ^ h);
        const uint32_t turn = how && back >= 0 && g->corner[w][back][0] >= 0;
        t->sides |= (3 * v + (uint32_t)k) << (16 * h);
        t->go |= (uint64_t)(w | (uint32_t)(back + 1) << 8 | flip << 10 | turn << 11) << (32 * h);
    }
}

void bake_sight_pairs_start(const tile_graph *g, void *scratch)
{
    walk_source *ws = scratch;
    for (uint32_t u = 0; u < g->n; u++)
        for (int k = 0; k < 3; k++) {
            const float *f = g->side[u][k];
            const uint32_t at = 3 * u + (uint32_t)k;
            ws->side.x0[at] = f[0];
            ws->side.y0[at] = f[1];
            ws->side.dx[at] = (double)f[2] - f[0];
            ws->side.dy[at] = (double)f[3] - f[1];
            ws->side.thr[at] = 1e-8 * g->side_len2[u][k];
            ws->carry[u][k] = carry_of(g, u, k);
        }
    for (uint32_t u = 0; u < g->n; u++)
        for (int e = 0; e < 3; e++)
            if (g->corner[u][e][0] >= 0)
                make_turn(g, ws, u, e);
    bake_sight_start((unsigned char *)scratch + SWEEP_SCRATCH_AT);
}
