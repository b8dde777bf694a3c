/* Comparing a baked NWN2 walkmesh with the toolset's own file: triangles matched by
 * vertex positions, and tile and island tables checked against shortest paths recomputed
 * here in double precision over the toolset's own triangle links and centres, with no
 * code from the bake. Shared by the bake tests. */
#ifndef TEST_NWN2_TOOLSET_COMPARE_H
#define TEST_NWN2_TOOLSET_COMPARE_H

#include "test_support.h"
#include "nwn2/bake/bake.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void load_file(const char *path, nwn2_file *f, wm_ctx *ctx)
{
    wmt_ctx_init(ctx);
    nwn2_file_init(f);
    wm_result r = nwn2_file_read(ctx, path, f);
    if (r)
        fail_msg("%s: %s", path, wm_ctx_message(ctx));
}

/* ---- matching baked triangles to the toolset's, by vertex positions ---- */

typedef struct tri_key {
    float p[9]; /* vertex positions, rotated so the smallest comes first */
    uint32_t index;
} tri_key;

static inline int float_cmp9(const float *a, const float *b)
{
    for (int i = 0; i < 9; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Duplicate triangles (the same three vertices) match in file order. */
static inline int key_cmp(const void *pa, const void *pb)
{
    const tri_key *a = pa, *b = pb;
    int c = float_cmp9(a->p, b->p);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

static inline tri_key *make_keys(const nwn2_aswm *a)
{
    tri_key *k = calloc(a->triangle_count ? a->triangle_count : 1, sizeof *k);
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        float rot[3][9];
        for (int r = 0; r < 3; r++)
            for (int i = 0; i < 3; i++)
                memcpy(&rot[r][3 * i], &a->vertices[3 * a->triangles[t].v[(r + i) % 3]], 3 * sizeof(float));
        int best = 0;
        for (int r = 1; r < 3; r++)
            if (float_cmp9(rot[r], rot[best]) < 0)
                best = r;
        memcpy(k[t].p, rot[best], sizeof k[t].p);
        k[t].index = t;
    }
    qsort(k, a->triangle_count, sizeof *k, key_cmp);
    return k;
}

/* map[orig triangle] = baked triangle, or UINT32_MAX when it has no twin. */
static inline uint32_t *match_triangles(const nwn2_aswm *orig, const nwn2_aswm *baked, uint32_t *unmatched)
{
    tri_key *ko = make_keys(orig), *kb = make_keys(baked);
    uint32_t *map = malloc((orig->triangle_count ? orig->triangle_count : 1) * sizeof *map);
    memset(map, 0xFF, orig->triangle_count * sizeof *map);
    uint32_t i = 0, j = 0;
    *unmatched = 0;
    while (i < orig->triangle_count) {
        while (j < baked->triangle_count && float_cmp9(kb[j].p, ko[i].p) < 0)
            j++;
        if (j < baked->triangle_count && float_cmp9(kb[j].p, ko[i].p) == 0)
            map[ko[i].index] = kb[j++].index;
        else
            (*unmatched)++;
        i++;
    }
    free(ko);
    free(kb);
    return map;
}

/* ---- independent shortest paths (double precision, O(n^2) Dijkstra) ---- */

static inline double centre_distance(const nwn2_aswm *a, uint32_t s, uint32_t t)
{
    double dx = (double)a->triangles[s].centre[0] - a->triangles[t].centre[0];
    double dy = (double)a->triangles[s].centre[1] - a->triangles[t].centre[1];
    return sqrt(dx * dx + dy * dy);
}

/* dist[i] = shortest distance from node i to node target over graph adj. */
static inline void distances_to(uint32_t n, const uint32_t *adj, const double *w, const uint32_t *deg, uint32_t stride,
                         uint32_t target, double *dist)
{
    uint8_t *done = calloc(n, 1);
    for (uint32_t i = 0; i < n; i++)
        dist[i] = INFINITY;
    dist[target] = 0;
    for (;;) {
        uint32_t u = n;
        for (uint32_t i = 0; i < n; i++)
            if (!done[i] && dist[i] < INFINITY && (u == n || dist[i] < dist[u]))
                u = i;
        if (u == n)
            break;
        done[u] = 1;
        for (uint32_t k = 0; k < deg[u]; k++) {
            uint32_t v = adj[u * stride + k];
            if (dist[u] + w[u * stride + k] < dist[v])
                dist[v] = dist[u] + w[u * stride + k];
        }
    }
    free(done);
}

typedef struct rebake_result {
    uint64_t entries, equal, tie, wrong;
    uint64_t island_entries, island_equal, island_tie, island_wrong;
    uint32_t islands_checked, islands_identical;
} rebake_result;

/* Next hops of every toolset tile, compared through the triangle map. */
static inline void check_tiles(const nwn2_aswm *o, const nwn2_aswm *b, const uint32_t *map, rebake_result *res)
{
    uint32_t *baked_tile = malloc((b->triangle_count ? b->triangle_count : 1) * sizeof *baked_tile);
    for (uint32_t ti = 0; ti < b->grid_width * b->grid_height; ti++)
        for (uint32_t k = 0; k < b->tiles[ti].triangle_count; k++)
            baked_tile[b->tiles[ti].triangle_offset + k] = ti;
    for (uint32_t ti = 0; ti < o->grid_width * o->grid_height; ti++) {
        const nwn2_tile *ot = &o->tiles[ti];
        uint32_t n = ot->node_count;
        if (n == 0)
            continue;
        uint32_t adj[127 * 3], deg[127];
        double w[127 * 3], dist[127];
        uint32_t glob[127];
        for (uint32_t i = 0; i < n; i++)
            glob[i] = ot->triangle_offset + ot->node_to_local[i];
        for (uint32_t i = 0; i < n; i++) {
            deg[i] = 0;
            for (int k = 0; k < 3; k++)
                for (uint32_t j = 0; j < n; j++)
                    if (o->triangles[glob[i]].neighbour[k] == glob[j]) {
                        adj[3 * i + deg[i]] = j;
                        w[3 * i + deg[i]++] = centre_distance(o, glob[i], glob[j]);
                    }
        }
        /* the baked nodes of this tile's triangles */
        uint32_t bnode[127], btile = NWN2_NONE32;
        int mapped = 1;
        for (uint32_t i = 0; i < n && mapped; i++) {
            uint32_t bt = map[glob[i]];
            if (bt == UINT32_MAX) {
                mapped = 0;
                break;
            }
            if (btile == NWN2_NONE32)
                btile = baked_tile[bt];
            mapped = baked_tile[bt] == btile;
            bnode[i] = b->tiles[btile].local_to_node[bt - b->tiles[btile].triangle_offset];
        }
        for (uint32_t to = 0; to < n; to++) {
            distances_to(n, adj, w, deg, 3, to, dist);
            for (uint32_t from = 0; from < n; from++) {
                if (from == to)
                    continue;
                res->entries++;
                if (!mapped) {
                    res->wrong++;
                    continue;
                }
                const nwn2_tile *bt = &b->tiles[btile];
                uint8_t want = ot->nodes[from * n + to];
                uint8_t got = bt->nodes[bnode[from] * bt->node_count + bnode[to]];
                if (want == NWN2_PATH_NONE || got == NWN2_PATH_NONE || !isfinite(dist[from])) {
                    if (want == got && !isfinite(dist[from]))
                        res->equal++;
                    else
                        res->wrong++;
                    continue;
                }
                uint32_t got_glob = bt->triangle_offset + bt->node_to_local[got & NWN2_PATH_NODE_MASK];
                uint32_t got_node = n;
                for (uint32_t i = 0; i < n; i++)
                    if (map[glob[i]] == got_glob)
                        got_node = i;
                if (got_node == (uint32_t)(want & NWN2_PATH_NODE_MASK)) {
                    res->equal++;
                    continue;
                }
                int tie = 0;
                for (uint32_t k = 0; k < deg[from]; k++)
                    if (adj[3 * from + k] == got_node && fabs(w[3 * from + k] + dist[got_node] - dist[from]) <= 1e-4)
                        tie = 1;
                if (tie)
                    res->tie++;
                else
                    res->wrong++;
            }
        }
    }
    free(baked_tile);
}

/* Islands: the same triangle sets, bit-identical centres, the same links
 * (adjacent island, exit triangle, distance) as sets; island next hops
 * equal or tie-equivalent over the toolset's island graph. */
static inline void check_islands(const nwn2_aswm *o, const nwn2_aswm *b, const uint32_t *map, rebake_result *res)
{
    uint32_t n = o->island_count;
    uint32_t *imap = malloc((n ? n : 1) * sizeof *imap);
    uint32_t *count = calloc(n ? n : 1, sizeof *count);
    memset(imap, 0xFF, n * sizeof *imap);
    int consistent = 1;
    for (uint32_t t = 0; t < o->triangle_count; t++) {
        uint16_t oi = o->triangles[t].island;
        if (oi == NWN2_NO_ISLAND || oi >= n)
            continue;
        count[oi]++;
        uint32_t bt = map[t];
        uint16_t bi = bt == UINT32_MAX ? NWN2_NO_ISLAND : b->triangles[bt].island;
        if (imap[oi] == UINT32_MAX)
            imap[oi] = bi;
        else if (imap[oi] != bi)
            consistent = 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        res->islands_checked++;
        uint32_t j = imap[i];
        if (!consistent || j == NWN2_NO_ISLAND || j >= b->island_count)
            continue;
        const nwn2_island *oi = &o->islands[i], *bi = &b->islands[j];
        int same = bi->triangle_count == count[i] && oi->triangle_count == count[i] &&
                   memcmp(oi->centre, bi->centre, sizeof oi->centre) == 0 && oi->adjacent_count == bi->adjacent_count;
        for (uint32_t k = 0; same && k < oi->adjacent_count; k++) {
            int found = 0;
            for (uint32_t m = 0; m < bi->adjacent_count && !found; m++)
                found = bi->adjacent[m] == imap[oi->adjacent[k]] && bi->exit[m] == map[oi->exit[k]] &&
                        bi->distance[m] == oi->distance[k];
            same = found;
        }
        res->islands_identical += same;
    }
    /* island graph of the toolset file */
    uint32_t stride = 0;
    for (uint32_t i = 0; i < n; i++)
        if (o->islands[i].adjacent_count > stride)
            stride = o->islands[i].adjacent_count;
    stride = stride ? stride : 1;
    uint32_t *adj = calloc((size_t)n * stride + 1, sizeof *adj), *deg = calloc(n + 1, sizeof *deg);
    double *w = calloc((size_t)n * stride + 1, sizeof *w), *dist = calloc(n + 1, sizeof *dist);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < o->islands[i].adjacent_count; k++) {
            adj[i * stride + deg[i]] = o->islands[i].adjacent[k];
            w[i * stride + deg[i]++] = o->islands[i].distance[k];
        }
    for (uint32_t to = 0; to < n; to++) {
        distances_to(n, adj, w, deg, stride, to, dist);
        for (uint32_t from = 0; from < n; from++) {
            if (from == to)
                continue;
            res->island_entries++;
            if (!consistent || imap[from] >= b->island_count || imap[to] >= b->island_count) {
                res->island_wrong++;
                continue;
            }
            uint16_t want = o->island_paths[(size_t)from * n + to].next;
            const nwn2_island_path *got = &b->island_paths[(size_t)imap[from] * b->island_count + imap[to]];
            if (want == NWN2_NO_ISLAND || got->next == NWN2_NO_ISLAND) {
                if (want == got->next && !isfinite(dist[from]))
                    res->island_equal++;
                else
                    res->island_wrong++;
                continue;
            }
            uint32_t got_orig = n;
            for (uint32_t i = 0; i < n; i++)
                if (imap[i] == got->next)
                    got_orig = i;
            if (got_orig == want && got->weight == o->island_paths[(size_t)from * n + to].weight) {
                res->island_equal++;
                continue;
            }
            int tie = 0;
            for (uint32_t k = 0; k < deg[from]; k++)
                if (adj[from * stride + k] == got_orig && got->weight == (float)w[from * stride + k] &&
                    fabs(w[from * stride + k] + dist[got_orig] - dist[from]) <= 1e-4)
                    tie = 1;
            if (tie)
                res->island_tie++;
            else
                res->island_wrong++;
        }
    }
    free(adj);
    free(deg);
    free(w);
    free(dist);
    free(imap);
    free(count);
}

static inline uint32_t validate_errors(wm_ctx *ctx, const nwn2_file *f)
{
    wm_report report;
    wm_report_init(&report, ctx);
    assert_int_equal(nwn2_validate(ctx, f, &report), WM_OK);
    uint32_t errors = report.errors;
    wm_report_free(&report);
    return errors;
}

#endif
