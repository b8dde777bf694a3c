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

#define WALK_BUDGET(n) (16u * (n) + 64u)

/* What one source's walks share. */
typedef struct walk_source {
    double p[2];
    double dp[BAKE_MAX_TILE_POINTS][2];      /* each tile point minus p */
    double ep[NWN2_MAX_TILE_NODES][3];       /* p against each side's line (signed, times its length) */
    uint8_t p_near[NWN2_MAX_TILE_NODES][3];  /* p within 1e-4 of the side's line */
} walk_source;

/* Signed area test of c against the side a->b (the side's end points in float). */
static double orient_side(const float side[4], const double c[2])
{
    return ((double)side[2] - side[0]) * (c[1] - side[1]) - ((double)side[3] - side[1]) * (c[0] - side[0]);
}

static void prepare_source(const tile_graph *g, uint32_t from, walk_source *ws)
{
    ws->p[0] = g->centre[from][0];
    ws->p[1] = g->centre[from][1];
    for (uint32_t i = 0; i < g->tile_points; i++) {
        ws->dp[i][0] = (double)g->point_at[i][0] - ws->p[0];
        ws->dp[i][1] = (double)g->point_at[i][1] - ws->p[1];
    }
    for (uint32_t u = 0; u < g->n; u++)
        for (int k = 0; k < 3; k++) {
            const double e = orient_side(g->side[u][k], ws->p);
            ws->ep[u][k] = e;
            ws->p_near[u][k] = e * e <= 1e-8 * g->side_len2[u][k];
        }
}

/* 1: the segment from the source to node `to` stays clearly on the tile's
 * walkable triangles; 0: not provably; -1: the source's budget ran out. */
static int walk(const tile_graph *g, const walk_source *ws, uint32_t from, uint32_t to, uint32_t *budget)
{
    const double q[2] = {g->centre[to][0], g->centre[to][1]};
    const double wx = q[0] - ws->p[0], wy = q[1] - ws->p[1];
    const double len2 = wx * wx + wy * wy;
    if (len2 <= 0.0)
        return 0;
    const double margin2 = 1e-8 * len2; /* (1e-4 * |pq|)^2: how close the line may pass a vertex */
    uint32_t cur = from, came = NWN2_PATH_NONE;
    for (uint32_t steps = 0; steps <= g->n; steps++) {
        if (cur == to)
            return 1;
        if (*budget == 0)
            return -1;
        --*budget;
        double side_of[6];
        for (uint32_t i = 0; i < g->point_count[cur]; i++) {
            const double *d = ws->dp[g->point_id[cur][i]];
            side_of[i] = wx * d[1] - wy * d[0];
        }
        uint32_t next = NWN2_PATH_NONE;
        int crossings = 0;
        for (int k = 0; k < 3; k++) {
            const int back = came != NWN2_PATH_NONE && g->side_node[cur][k] == came;
            const double su = side_of[g->side_point[cur][k][0]], sw = side_of[g->side_point[cur][k][1]];
            if (su * su <= margin2 || sw * sw <= margin2) {
                if (back)
                    continue;
                return 0; /* the line passes (nearly) through a vertex */
            }
            if ((su > 0) == (sw > 0) || back)
                continue;
            /* the crossing must lie strictly between p and q */
            const double eu = ws->ep[cur][k], ew = orient_side(g->side[cur][k], q);
            if (ws->p_near[cur][k] || ew * ew <= 1e-8 * g->side_len2[cur][k])
                return 0; /* an end of the segment lies (nearly) on this side */
            if ((eu > 0) == (ew > 0))
                continue; /* p and q on the same side: the side behind the start */
            crossings++;
            next = g->side_node[cur][k];
        }
        if (crossings != 1 || next == NWN2_PATH_NONE)
            return 0;
        came = cur;
        cur = next;
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
            bake_sight_from(g, from, visible, (unsigned char *)scratch + sizeof(walk_source));
            return;
        }
        visible[d] = (uint8_t)r;
    }
}

size_t bake_sight_pairs_scratch_size(void)
{
    return sizeof(walk_source) + bake_sight_scratch_size();
}

void bake_sight_pairs_start(void *scratch)
{
    bake_sight_start((unsigned char *)scratch + sizeof(walk_source));
}
