/* Topology and table checks of a TRN/TRX: tiles and their path tables,
 * islands and the island path table (FORMAT-NOTES section 2). Next-hop
 * tables are followed to confirm they reach their targets. */
#include "nwn2_check.h"

#include <math.h>
#include <string.h>

typedef struct tile_box {
    double x0, y0, x1, y1;
} tile_box;

static tile_box tile_bounds(const nwn2_aswm *a, uint32_t i)
{
    tile_box b;
    b.x0 = (double)(i % a->grid_width) * a->tile_width;
    b.y0 = (double)(i / a->grid_width) * a->tile_width;
    b.x1 = b.x0 + a->tile_width;
    b.y1 = b.y0 + a->tile_width;
    return b;
}

/* Follows next hops toward `to` for every start, memoising results so a
 * table costs O(n^2) per target set. next(from) returns a node or NONE. */
typedef uint32_t (*next_fn)(const void *user, uint32_t from, uint32_t to);

/* state: 0 unknown, 1 on the current walk, 2 reaches, 3 fails; steps valid for 2. */
static int walk_reaches(const void *user, next_fn next, uint32_t n, uint32_t from, uint32_t to, uint8_t *state,
                        uint32_t *steps, uint32_t *stack)
{
    uint32_t depth = 0, cur = from;
    int ok;
    for (;;) {
        if (cur == to) {
            ok = 1;
            steps[cur] = 0;
            break;
        }
        if (state[cur] == 2 || state[cur] == 3) {
            ok = state[cur] == 2;
            break;
        }
        if (state[cur] == 1) {
            ok = 0; /* a cycle */
            break;
        }
        state[cur] = 1;
        stack[depth++] = cur;
        uint32_t nx = next(user, cur, to);
        if (nx >= n) {
            ok = 0;
            break;
        }
        cur = nx;
    }
    uint32_t s = ok ? steps[cur] : 0;
    while (depth) {
        uint32_t node = stack[--depth];
        s++;
        steps[node] = s;
        state[node] = (ok && s <= n) ? 2 : 3;
        ok = state[node] == 2;
    }
    return state[from] == 2 || from == to;
}

typedef struct tile_walk {
    const nwn2_tile *tile;
} tile_walk;

static uint32_t tile_next(const void *user, uint32_t from, uint32_t to)
{
    const nwn2_tile *t = ((const tile_walk *)user)->tile;
    uint8_t e = t->nodes[(size_t)from * t->node_count + to];
    return e == NWN2_PATH_NONE ? NWN2_NONE32 : (uint32_t)(e & NWN2_PATH_NODE_MASK);
}

static uint32_t island_next(const void *user, uint32_t from, uint32_t to)
{
    const nwn2_aswm *a = user;
    uint16_t nx = a->island_paths[(size_t)from * a->island_count + to].next;
    return nx == NWN2_NO_ISLAND ? NWN2_NONE32 : nx;
}

static int are_neighbours(const nwn2_aswm *a, uint32_t t, uint32_t u)
{
    const nwn2_triangle *tri = &a->triangles[t];
    return tri->neighbour[0] == u || tri->neighbour[1] == u || tri->neighbour[2] == u;
}

static void check_path_table(nwn2_check_state *v, uint32_t ti, uint8_t *state, uint32_t *steps, uint32_t *stack)
{
    const nwn2_aswm *a = v->a;
    const nwn2_tile *t = &a->tiles[ti];
    char where[96];
    uint32_t nc = t->node_count;
    nwn2_check_where(where, sizeof where, "tile %u", ti);
    if (t->local_count != t->triangle_count) {
        nwn2_check_add(v, WM_SEV_ERROR, where, "path table has %u local entries for %u triangles", t->local_count,
                       t->triangle_count);
        return;
    }
    if (nc > NWN2_MAX_TILE_NODES) {
        nwn2_check_add(v, WM_SEV_ERROR, where, "%u path nodes (at most %u can be addressed)", nc, NWN2_MAX_TILE_NODES);
        return;
    }
    int ok = 1;
    for (uint32_t n = 0; n < nc; n++) {
        uint32_t l = t->node_to_local[n];
        if (l >= t->local_count || t->local_to_node[l] != n) {
            nwn2_check_add(v, WM_SEV_ERROR, nwn2_check_where(where, sizeof where, "tile %u node %u", ti, n),
                           "node_to_local %u does not map back to this node", l);
            ok = 0;
        } else if (n > 0 && l <= t->node_to_local[n - 1]) {
            nwn2_check_add(v, WM_SEV_WARNING, nwn2_check_where(where, sizeof where, "tile %u node %u", ti, n),
                           "node_to_local not ascending (%u after %u)", l, t->node_to_local[n - 1]);
        }
    }
    for (uint32_t l = 0; l < t->local_count; l++) {
        uint32_t g = t->triangle_offset + l;
        uint8_t node = t->local_to_node[l];
        int walkable = nwn2_check_walkable(a, g);
        nwn2_check_where(where, sizeof where, "tile %u triangle %u", ti, g);
        if (node == NWN2_PATH_NONE) {
            if (walkable) {
                nwn2_check_add(v, WM_SEV_ERROR, where, "walkable but has no path node");
                ok = 0;
            }
        } else if (node >= nc || t->node_to_local[node] != l) {
            nwn2_check_add(v, WM_SEV_ERROR, where, "local_to_node %u does not map back (%u nodes)", node, nc);
            ok = 0;
        } else if (!walkable) {
            nwn2_check_add(v, WM_SEV_ERROR, where, "not walkable but has path node %u", node);
        }
    }
    if (!ok)
        return;
    for (uint32_t from = 0; from < nc; from++) {
        uint32_t gfrom = t->triangle_offset + t->node_to_local[from];
        for (uint32_t to = 0; to < nc; to++) {
            uint8_t e = t->nodes[(size_t)from * nc + to];
            nwn2_check_where(where, sizeof where, "tile %u node %u to %u", ti, from, to);
            if (from == to) {
                if (e != NWN2_PATH_NONE)
                    nwn2_check_add(v, WM_SEV_WARNING, where, "diagonal entry 0x%02x (0xFF in real files)", e);
                continue;
            }
            if ((e & NWN2_PATH_LOS) != (t->nodes[(size_t)to * nc + from] & NWN2_PATH_LOS) && e != NWN2_PATH_NONE &&
                t->nodes[(size_t)to * nc + from] != NWN2_PATH_NONE)
                nwn2_check_add(v, WM_SEV_WARNING, where, "line-of-sight bit not symmetric");
            if (e == NWN2_PATH_NONE)
                continue;
            uint32_t next = e & NWN2_PATH_NODE_MASK;
            if (next >= nc) {
                nwn2_check_add(v, WM_SEV_ERROR, where, "next node %u out of range (%u nodes)", next, nc);
                ok = 0;
                continue;
            }
            uint32_t gnext = t->triangle_offset + t->node_to_local[next];
            if (!are_neighbours(a, gfrom, gnext))
                nwn2_check_add(v, WM_SEV_ERROR, where, "next triangle %u is not adjacent to triangle %u", gnext, gfrom);
        }
    }
    if (!ok)
        return;
    tile_walk tw = {t};
    for (uint32_t to = 0; to < nc; to++) {
        memset(state, 0, nc);
        for (uint32_t from = 0; from < nc; from++) {
            if (from == to || t->nodes[(size_t)from * nc + to] == NWN2_PATH_NONE)
                continue;
            if (!walk_reaches(&tw, tile_next, nc, from, to, state, steps, stack))
                nwn2_check_add(v, WM_SEV_ERROR,
                               nwn2_check_where(where, sizeof where, "tile %u node %u to %u", ti, from, to),
                               "following next hops does not reach the target within %u steps", nc);
        }
    }
}

void nwn2_check_tiles(nwn2_check_state *v, int baked, uint32_t *owner)
{
    const nwn2_aswm *a = v->a;
    char where[96];
    uint32_t tiles = a->grid_width * a->grid_height;
    uint8_t state[256];
    uint32_t steps[256], stack[256];
    for (uint32_t i = 0; i < tiles; i++) {
        const nwn2_tile *t = &a->tiles[i];
        nwn2_check_where(where, sizeof where, "tile %u", i);
        if (t->owns_data)
            nwn2_check_add(v, WM_SEV_WARNING, where,
                           "owns_data is %u (0 in real files; its own vertices and edges are unused)", t->owns_data);
        if (t->flags != a->grid_flags)
            nwn2_check_add(v, WM_SEV_WARNING, where, "tile flags %u differ from the grid flags %u", t->flags,
                           a->grid_flags);
        if ((uint64_t)t->triangle_offset + t->triangle_count > a->triangle_count) {
            nwn2_check_add(v, WM_SEV_ERROR, where, "triangles %u..+%u out of range (%u triangles)", t->triangle_offset,
                           t->triangle_count, a->triangle_count);
            continue;
        }
        tile_box box = tile_bounds(a, i);
        double slack = 1e-3 * (1.0 + a->tile_width);
        uint32_t walkable = 0;
        for (uint32_t k = 0; k < t->triangle_count; k++) {
            uint32_t g = t->triangle_offset + k;
            if (owner[g] != NWN2_NONE32) {
                nwn2_check_add(v, WM_SEV_ERROR, nwn2_check_where(where, sizeof where, "triangle %u", g),
                               "claimed by tiles %u and %u", owner[g], i);
                continue;
            }
            owner[g] = i;
            const nwn2_triangle *tri = &a->triangles[g];
            if (tri->flags & NWN2_TRI_WALKABLE) {
                walkable++;
                if (tri->centre[0] < box.x0 - slack || tri->centre[0] > box.x1 + slack ||
                    tri->centre[1] < box.y0 - slack || tri->centre[1] > box.y1 + slack)
                    nwn2_check_add(v, WM_SEV_WARNING,
                                   nwn2_check_where(where, sizeof where, "tile %u triangle %u", i, g),
                                   "walkable centre (%g, %g) lies outside the tile", (double)tri->centre[0],
                                   (double)tri->centre[1]);
            }
        }
        if (baked && walkable > NWN2_MAX_TILE_NODES)
            nwn2_check_add(v, WM_SEV_ERROR, where, "%u walkable triangles (at most %u per tile)", walkable,
                           NWN2_MAX_TILE_NODES);
        if (baked)
            check_path_table(v, i, state, steps, stack);
    }
    uint32_t unowned = 0, first = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++)
        if (owner[t] == NWN2_NONE32 && unowned++ == 0)
            first = t;
    if (unowned)
        nwn2_check_add(v, WM_SEV_WARNING, nwn2_check_where(where, sizeof where, "triangle %u", first),
                       "%u triangles belong to no tile", unowned);
}

void nwn2_check_islands(nwn2_check_state *v, const uint32_t *owner, uint32_t *members)
{
    const nwn2_aswm *a = v->a;
    uint32_t n = a->island_count;
    char where[96];
    memset(members, 0, (size_t)(n ? n : 1) * sizeof *members);
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        const nwn2_triangle *tri = &a->triangles[t];
        nwn2_check_where(where, sizeof where, "triangle %u", t);
        if (!(tri->flags & NWN2_TRI_WALKABLE)) {
            if (tri->island != NWN2_NO_ISLAND)
                nwn2_check_add(v, WM_SEV_WARNING, where, "not walkable but in island %u", tri->island);
            continue;
        }
        if (tri->island >= n) {
            nwn2_check_add(v, WM_SEV_ERROR, where, "walkable but island %u does not exist (%u islands)", tri->island,
                           n);
            continue;
        }
        members[tri->island]++;
        for (int k = 0; k < 3; k++) {
            uint32_t u = tri->neighbour[k];
            if (u >= a->triangle_count || !nwn2_check_walkable(a, u) || owner[u] != owner[t])
                continue;
            if (a->triangles[u].island != tri->island)
                nwn2_check_add(v, WM_SEV_ERROR, where,
                               "island %u but its walkable neighbour %u in the same tile is in island %u", tri->island,
                               u, a->triangles[u].island);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        const nwn2_island *is = &a->islands[i];
        nwn2_check_where(where, sizeof where, "island %u", i);
        if (is->index != i)
            nwn2_check_add(v, WM_SEV_ERROR, where, "index field is %u", is->index);
        if (is->tile != a->islands[0].tile)
            nwn2_check_add(v, WM_SEV_WARNING, where, "tile field %u differs from island 0's %u", is->tile,
                           a->islands[0].tile);
        if (is->centre[2] != 0.0f)
            nwn2_check_add(v, WM_SEV_WARNING, where, "centre z is %g (0 in real files)", (double)is->centre[2]);
        if (is->triangle_count != members[i])
            nwn2_check_add(v, WM_SEV_ERROR, where, "triangle count %u but %u walkable triangles name it",
                           is->triangle_count, members[i]);
        if (is->adjacent_count != is->distance_count || is->adjacent_count != is->exit_count) {
            nwn2_check_add(v, WM_SEV_ERROR, where, "link arrays differ in length (%u adjacent, %u distances, %u exits)",
                           is->adjacent_count, is->distance_count, is->exit_count);
            continue;
        }
        for (uint32_t j = 0; j < is->adjacent_count; j++) {
            uint32_t o = is->adjacent[j], x = is->exit[j];
            nwn2_check_where(where, sizeof where, "island %u link %u", i, j);
            if (o >= n || o == i) {
                nwn2_check_add(v, WM_SEV_ERROR, where, "adjacent island %u invalid (%u islands)", o, n);
                continue;
            }
            const nwn2_island *other = &a->islands[o];
            int back = 0;
            for (uint32_t m = 0; m < other->adjacent_count; m++)
                back |= other->adjacent[m] == i;
            if (!back)
                nwn2_check_add(v, WM_SEV_ERROR, where, "island %u does not link back", o);
            double dx = (double)is->centre[0] - other->centre[0], dy = (double)is->centre[1] - other->centre[1];
            if (!nwn2_check_near(is->distance[j], sqrt(dx * dx + dy * dy), 1e-3))
                nwn2_check_add(v, WM_SEV_WARNING, where, "distance %g, centres are %g apart", (double)is->distance[j],
                               sqrt(dx * dx + dy * dy));
            if (x >= a->triangle_count || a->triangles[x].island != i) {
                nwn2_check_add(v, WM_SEV_ERROR, where, "exit triangle %u is not in this island", x);
                continue;
            }
            const nwn2_triangle *xt = &a->triangles[x];
            int leads = 0;
            for (int k = 0; k < 3; k++)
                leads |= xt->neighbour[k] < a->triangle_count && a->triangles[xt->neighbour[k]].island == o;
            if (!leads)
                nwn2_check_add(v, WM_SEV_ERROR, where, "exit triangle %u has no neighbour in island %u", x, o);
        }
    }
}

void nwn2_check_island_paths(nwn2_check_state *v, uint8_t *state, uint32_t *steps, uint32_t *stack)
{
    const nwn2_aswm *a = v->a;
    uint32_t n = a->island_count;
    char where[96];
    int ok = 1;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            const nwn2_island_path *p = &a->island_paths[(size_t)i * n + j];
            nwn2_check_where(where, sizeof where, "island path %u to %u", i, j);
            if (i == j) {
                if (p->next != NWN2_NO_ISLAND)
                    nwn2_check_add(v, WM_SEV_WARNING, where, "diagonal next is %u (none in real files)", p->next);
                continue;
            }
            if (p->next == NWN2_NO_ISLAND)
                continue;
            if (p->next >= n) {
                nwn2_check_add(v, WM_SEV_ERROR, where, "next island %u out of range", p->next);
                ok = 0;
                continue;
            }
            const nwn2_island *is = &a->islands[i];
            uint32_t link = NWN2_NONE32;
            for (uint32_t m = 0; m < is->adjacent_count && m < is->distance_count; m++)
                if (is->adjacent[m] == p->next)
                    link = m;
            if (link == NWN2_NONE32)
                nwn2_check_add(v, WM_SEV_ERROR, where, "next island %u is not adjacent", p->next);
            else if (!nwn2_check_near(p->weight, is->distance[link], 1e-3))
                nwn2_check_add(v, WM_SEV_WARNING, where, "weight %g differs from the link distance %g",
                               (double)p->weight, (double)is->distance[link]);
        }
    if (!ok)
        return;
    for (uint32_t j = 0; j < n; j++) {
        memset(state, 0, n);
        for (uint32_t i = 0; i < n; i++) {
            if (i == j || a->island_paths[(size_t)i * n + j].next == NWN2_NO_ISLAND)
                continue;
            if (!walk_reaches(a, island_next, n, i, j, state, steps, stack))
                nwn2_check_add(v, WM_SEV_ERROR, nwn2_check_where(where, sizeof where, "island path %u to %u", i, j),
                               "following next islands does not reach the target within %u steps", n);
        }
    }
}
