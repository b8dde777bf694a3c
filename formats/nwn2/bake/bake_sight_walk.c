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

/* What one source's walks share. */
typedef struct walk_source {
    double p[2];
    double dp[BAKE_MAX_TILE_POINTS][2];     /* each tile point minus p */
    uint32_t source;                        /* sources prepared in this tile, + 1 */
    uint32_t ep_source[NWN2_MAX_TILE_NODES][3]; /* source ep and p_near were worked out for */
    double ep[NWN2_MAX_TILE_NODES][3];      /* p against each side's line (signed, times its length) */
    uint8_t p_near[NWN2_MAX_TILE_NODES][3]; /* p within 1e-4 of the side's line */
} walk_source;

/* Where the sweep's scratch starts, after the walks' (aligned for doubles). */
#define SWEEP_SCRATCH_AT ((sizeof(walk_source) + 15) & ~(size_t)15)

/* One step's segment: the target, the direction w = q - p, the margin. */
typedef struct walk_line {
    double q[2];
    double wx, wy, margin2;
} walk_line;

/* Signed area test of c against the side a->b (the side's end points in float). */
static double orient_side(const float side[4], const double c[2])
{
    return ((double)side[2] - side[0]) * (c[1] - side[1]) - ((double)side[3] - side[1]) * (c[0] - side[0]);
}

static void prepare_source(const tile_graph *g, uint32_t from, walk_source *ws)
{
    ws->p[0] = g->centre[from][0];
    ws->p[1] = g->centre[from][1];
    ws->source++;
    for (uint32_t i = 0; i < g->tile_points; i++) {
        ws->dp[i][0] = (double)g->point_at[i][0] - ws->p[0];
        ws->dp[i][1] = (double)g->point_at[i][1] - ws->p[1];
    }
}

/* Point i of node u against the line (times |pq|). */
static double side_of_point(const tile_graph *g, const walk_source *ws, const walk_line *l, uint32_t u, uint32_t i)
{
    const double *d = ws->dp[g->point_id[u][i]];
    return l->wx * d[1] - l->wy * d[0];
}

/* Side k of u, whose ends lie on either side of the line: -1 when an end of
 * the segment lies (nearly) on the side's line, 1 when p and q lie on either
 * side of it (the segment crosses it), 0 when not (the side behind p). */
static int crosses(const tile_graph *g, walk_source *ws, const walk_line *l, uint32_t u, int k)
{
    if (ws->ep_source[u][k] != ws->source) {
        const double e = orient_side(g->side[u][k], ws->p);
        ws->ep_source[u][k] = ws->source;
        ws->ep[u][k] = e;
        ws->p_near[u][k] = e * e <= 1e-8 * g->side_len2[u][k];
    }
    const double ew = orient_side(g->side[u][k], l->q);
    if (ws->p_near[u][k] || ew * ew <= 1e-8 * g->side_len2[u][k])
        return -1;
    return (ws->ep[u][k] > 0) != (ew > 0);
}

/* One step from cur (entered from came, NWN2_PATH_NONE at the source): every
 * side checked. Returns the side crossed, -1 when the walk fails. */
static int step_any(const tile_graph *g, walk_source *ws, const walk_line *l, uint32_t cur, uint32_t came)
{
    double side_of[6];
    for (uint32_t i = 0; i < g->point_count[cur]; i++)
        side_of[i] = side_of_point(g, ws, l, cur, i);
    int crossed = -1, crossings = 0;
    for (int k = 0; k < 3; k++) {
        const int back = came != NWN2_PATH_NONE && g->side_node[cur][k] == came;
        const double su = side_of[g->side_point[cur][k][0]], sw = side_of[g->side_point[cur][k][1]];
        if (su * su <= l->margin2 || sw * sw <= l->margin2) {
            if (back)
                continue;
            return -1; /* the line passes (nearly) through a vertex */
        }
        if ((su > 0) == (sw > 0) || back)
            continue;
        const int c = crosses(g, ws, l, cur, k);
        if (c < 0)
            return -1;
        crossings += c;
        crossed = c ? k : crossed;
    }
    return crossings == 1 && g->side_node[cur][crossed] != NWN2_PATH_NONE ? crossed : -1;
}

/* The same step through a sound triangle entered by its only side back to
 * came, `back`: the sides (a, c) and (b, c) are the ones to check. */
static int step_sound(const tile_graph *g, walk_source *ws, const walk_line *l, uint32_t cur, int back)
{
    const int8_t *corner = g->corner[cur][back];
    const double sa = side_of_point(g, ws, l, cur, g->side_point[cur][back][0]);
    const double sb = side_of_point(g, ws, l, cur, g->side_point[cur][back][1]);
    const double sc = side_of_point(g, ws, l, cur, (uint32_t)corner[0]);
    if (sa * sa <= l->margin2 || sb * sb <= l->margin2 || sc * sc <= l->margin2)
        return -1; /* the line passes (nearly) through a vertex */
    int crossed = -1, crossings = 0;
    for (int h = 0; h < 2; h++) {
        const double s = h ? sb : sa;
        if ((s > 0) == (sc > 0))
            continue;
        const int c = crosses(g, ws, l, cur, corner[1 + h]);
        if (c < 0)
            return -1;
        crossings += c;
        crossed = c ? corner[1 + h] : crossed;
    }
    return crossings == 1 && g->side_node[cur][crossed] != NWN2_PATH_NONE ? crossed : -1;
}

/* 1: the segment from the source to node `to` stays clearly on the tile's
 * walkable triangles; 0: not provably; -1: the source's budget ran out. */
static int walk(const tile_graph *g, walk_source *ws, uint32_t from, uint32_t to, uint32_t *budget)
{
    walk_line l = {{g->centre[to][0], g->centre[to][1]}, 0, 0, 0};
    l.wx = l.q[0] - ws->p[0];
    l.wy = l.q[1] - ws->p[1];
    const double len2 = l.wx * l.wx + l.wy * l.wy;
    if (len2 <= 0.0)
        return 0;
    l.margin2 = 1e-8 * len2; /* (1e-4 * |pq|)^2: how close the line may pass a vertex */
    uint32_t cur = from, came = NWN2_PATH_NONE;
    int back = -1;
    for (uint32_t steps = 0; steps <= g->n; steps++) {
        if (cur == to)
            return 1;
        if (*budget == 0)
            return -1;
        --*budget;
        const int k = back >= 0 && g->corner[cur][back][0] >= 0 ? step_sound(g, ws, &l, cur, back)
                                                                : step_any(g, ws, &l, cur, came);
        if (k < 0)
            return 0;
        back = g->entry[cur][k];
        came = cur;
        cur = g->side_node[cur][k];
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

void bake_sight_pairs_start(void *scratch)
{
    walk_source *ws = scratch;
    ws->source = 0;
    memset(ws->ep_source, 0, sizeof ws->ep_source);
    bake_sight_start((unsigned char *)scratch + SWEEP_SCRATCH_AT);
}
