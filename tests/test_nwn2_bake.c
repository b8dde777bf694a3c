/* NWN2 bake, re-bake check: baking each corpus TRX from itself must
 * reproduce the toolset's tables. Every tile next hop must equal the
 * toolset's or start an equally short path; islands (triangle sets,
 * centres, links, exits, distances) must be identical; island next hops
 * equal or tie-equivalent. Shortest paths are recomputed here in double
 * precision over the toolset's own triangle links and centres, with no
 * code from the bake. Also: determinism (same bytes on every run and
 * thread count), line-of-sight bits checked by sampling, and the tile
 * with exactly 127 walkable triangles. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "nwn2/bake/bake.h"

static const char *const trx_suffixes[] = {".trx", NULL};

static void load_file(const char *path, nwn2_file *f, wm_ctx *ctx)
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

static int float_cmp9(const float *a, const float *b)
{
    for (int i = 0; i < 9; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Duplicate triangles (the same three vertices) match in file order. */
static int key_cmp(const void *pa, const void *pb)
{
    const tri_key *a = pa, *b = pb;
    int c = float_cmp9(a->p, b->p);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

static tri_key *make_keys(const nwn2_aswm *a)
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
static uint32_t *match_triangles(const nwn2_aswm *orig, const nwn2_aswm *baked, uint32_t *unmatched)
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

static double centre_distance(const nwn2_aswm *a, uint32_t s, uint32_t t)
{
    double dx = (double)a->triangles[s].centre[0] - a->triangles[t].centre[0];
    double dy = (double)a->triangles[s].centre[1] - a->triangles[t].centre[1];
    return sqrt(dx * dx + dy * dy);
}

/* dist[i] = shortest distance from node i to node target over graph adj. */
static void distances_to(uint32_t n, const uint32_t *adj, const double *w, const uint32_t *deg, uint32_t stride,
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
static void check_tiles(const nwn2_aswm *o, const nwn2_aswm *b, const uint32_t *map, rebake_result *res)
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
static void check_islands(const nwn2_aswm *o, const nwn2_aswm *b, const uint32_t *map, rebake_result *res)
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

static uint32_t validate_errors(wm_ctx *ctx, const nwn2_file *f)
{
    wm_report report;
    wm_report_init(&report, ctx);
    assert_int_equal(nwn2_validate(ctx, f, &report), WM_OK);
    uint32_t errors = report.errors;
    wm_report_free(&report);
    return errors;
}

/* Every toolset TRX of both corpus folders (FORMAT-NOTES section 2: the
 * toolset's files are the reference): validates with 0 errors, re-bakes
 * without refusal to the toolset's tables, and validates again. */
static void test_rebake_reproduces_toolset(void **state)
{
    (void)state;
    const char *const folders[] = {"nwn2", "nwn2-areas"};
    rebake_result total;
    memset(&total, 0, sizeof total);
    uint32_t files_done = 0, errors_before = 0, errors_after = 0;
    for (size_t folder = 0; folder < 2; folder++) {
        char **files = NULL;
        size_t count = wmt_corpus_list(folders[folder], trx_suffixes, &files);
        assert_true(count >= 11);
        for (size_t fi = 0; fi < count; fi++) {
            wm_ctx ctx;
            nwn2_file f;
            load_file(files[fi], &f, &ctx);
            uint32_t before = validate_errors(&ctx, &f);
            nwn2_aswm baked;
            assert_int_equal(nwn2_aswm_copy(&ctx, &baked, &f.aswm), WM_OK);
            nwn2_bake_stats stats;
            wm_result r = nwn2_bake(&ctx, &baked, NULL, &stats);
            if (r)
                fail_msg("%s: %s", files[fi], wm_ctx_message(&ctx));
            uint32_t unmatched = 0;
            uint32_t *map = match_triangles(&f.aswm, &baked, &unmatched);
            rebake_result res;
            memset(&res, 0, sizeof res);
            check_tiles(&f.aswm, &baked, map, &res);
            check_islands(&f.aswm, &baked, map, &res);
            nwn2_file rebaked = f;
            rebaked.aswm = baked;
            uint32_t after = validate_errors(&ctx, &rebaked);
            /* the written file is no larger than the toolset's (with libdeflate; zlib's
             * best level cannot always make up for the extra line-of-sight bits) */
            wm_buffer out;
            wm_buffer_init(&out, &ctx);
            assert_int_equal(nwn2_file_serialize(&ctx, &rebaked, -1, &out), WM_OK);
            size_t toolset_size = 0;
            free(wmt_read_file(files[fi], &toolset_size));
            if (out.size > toolset_size && nwn2_deflate_is_libdeflate())
                fail_msg("%s: re-baked file of %zu bytes, the toolset's has %zu", files[fi], out.size, toolset_size);
            wm_buffer_free(&out);
            const char *name = strrchr(files[fi], '/') ? strrchr(files[fi], '/') + 1 : files[fi];
            printf("  %-36s next hops %llu: %.4f%% equal or tie (%llu tie); islands %u/%u identical; "
                   "island next hops %llu: %.4f%% (%llu tie); %u triangles without twin; validate errors %u/%u%s\n",
                   name, (unsigned long long)res.entries,
                   res.entries ? 100.0 * (double)(res.equal + res.tie) / (double)res.entries : 100.0,
                   (unsigned long long)res.tie, res.islands_identical, res.islands_checked,
                   (unsigned long long)res.island_entries,
                   res.island_entries
                       ? 100.0 * (double)(res.island_equal + res.island_tie) / (double)res.island_entries
                       : 100.0,
                   (unsigned long long)res.island_tie, unmatched, before, after,
                   stats.kept_layout ? "" : " (geometry rebuilt)");
            total.entries += res.entries;
            total.equal += res.equal;
            total.tie += res.tie;
            total.wrong += res.wrong;
            total.island_entries += res.island_entries;
            total.island_equal += res.island_equal;
            total.island_tie += res.island_tie;
            total.island_wrong += res.island_wrong;
            total.islands_checked += res.islands_checked;
            total.islands_identical += res.islands_identical;
            files_done++;
            errors_before += before;
            errors_after += after;
            if (baked.island_count != f.aswm.island_count)
                total.island_wrong++;
            free(map);
            nwn2_aswm_free(&ctx, &baked);
            nwn2_file_free(&ctx, &f);
        }
        wmt_free_list(files, count);
    }
    printf("  total: %u files; next hops %llu (%llu equal, %llu tie, %llu wrong); islands %u/%u identical; "
           "island next hops %llu (%llu equal, %llu tie, %llu wrong); validate errors before %u, after %u\n",
           files_done, (unsigned long long)total.entries, (unsigned long long)total.equal,
           (unsigned long long)total.tie, (unsigned long long)total.wrong, total.islands_identical,
           total.islands_checked, (unsigned long long)total.island_entries, (unsigned long long)total.island_equal,
           (unsigned long long)total.island_tie, (unsigned long long)total.island_wrong, errors_before, errors_after);
    assert_int_equal(total.wrong, 0);
    assert_int_equal(total.island_wrong, 0);
    assert_int_equal(total.islands_identical, total.islands_checked);
    assert_int_equal(errors_before, 0);
    assert_int_equal(errors_after, 0);
}

/* Every toolset triangle found unchanged in the baked mesh (map, by vertex
 * positions) sits in the tile the toolset put it in. */
static void assert_tiles_kept(const nwn2_aswm *toolset, const nwn2_aswm *baked, const uint32_t *map)
{
    uint32_t *tile_of = malloc((baked->triangle_count + 1) * sizeof *tile_of);
    for (uint32_t ti = 0; ti < baked->grid_width * baked->grid_height; ti++)
        for (uint32_t k = 0; k < baked->tiles[ti].triangle_count; k++)
            tile_of[baked->tiles[ti].triangle_offset + k] = ti;
    for (uint32_t ti = 0; ti < toolset->grid_width * toolset->grid_height; ti++)
        for (uint32_t k = 0; k < toolset->tiles[ti].triangle_count; k++) {
            uint32_t bt = map[toolset->tiles[ti].triangle_offset + k];
            uint32_t got = bt == UINT32_MAX ? ti : tile_of[bt];
            if (got != ti) {
                free(tile_of);
                fail_msg("toolset triangle %u: tile %u, baked into tile %u", toolset->tiles[ti].triangle_offset + k,
                         ti, got);
            }
        }
    free(tile_of);
}

/* A toolset TRX baked again with its area's GIT (the cutters were applied
 * once already; the toolset's triangulation around them differs from ours, so
 * some triangles are cut again): validates with 0 errors, and every toolset
 * triangle that survives whole stays in the toolset's tile. */
static void test_trx_with_cutters_keeps_tiles(void **state)
{
    (void)state;
    const char *const areas[][2] = {{"nwn2/CSLMordMansion.TRX", "nwn2/CSLMordMansion.GIT"},
                                    {"nwn2/fh_settlement.trx", "nwn2/fh_settlement.GIT"},
                                    {"nwn2-areas/oldskull_descent.trx", "nwn2-areas/oldskull_descent.GIT"},
                                    {"nwn2-areas/shadowdale_mages_guild.trx", "nwn2-areas/shadowdale_mages_guild.GIT"}};
    for (size_t i = 0; i < sizeof areas / sizeof areas[0]; i++) {
        char *path = wmt_corpus_path(areas[i][0]), *git = wmt_corpus_path(areas[i][1]);
        if (!path || !git) {
            free(path);
            free(git);
            print_message("corpus files of %s not available: skipping\n", areas[i][0]);
            skip();
        }
        wm_ctx ctx;
        nwn2_file f;
        load_file(path, &f, &ctx);
        nwn2_cutter_set cutters;
        assert_int_equal(nwn2_bake_read_git(&ctx, git, &cutters), WM_OK);
        nwn2_bake_options opts;
        nwn2_bake_options_init(&opts);
        opts.cutters = &cutters;
        nwn2_file baked = f;
        assert_int_equal(nwn2_aswm_copy(&ctx, &baked.aswm, &f.aswm), WM_OK);
        nwn2_bake_stats stats;
        if (nwn2_bake(&ctx, &baked.aswm, &opts, &stats))
            fail_msg("%s: %s", path, wm_ctx_message(&ctx));
        assert_false(stats.kept_layout);
        assert_int_equal(stats.snapped_vertices, 0);
        uint32_t unmatched = 0;
        uint32_t *map = match_triangles(&f.aswm, &baked.aswm, &unmatched);
        assert_tiles_kept(&f.aswm, &baked.aswm, map);
        printf("  %-40s %u of %u toolset triangles kept whole in their tile; %u pieces added, %u removed\n",
               areas[i][0], f.aswm.triangle_count - unmatched, f.aswm.triangle_count, stats.split_added,
               stats.cut_removed);
        assert_true(f.aswm.triangle_count - unmatched > f.aswm.triangle_count / 2);
        assert_int_equal(validate_errors(&ctx, &baked), 0);
        free(map);
        nwn2_aswm_free(&ctx, &baked.aswm);
        nwn2_cutter_set_free(&ctx, &cutters);
        nwn2_file_free(&ctx, &f);
        free(path);
        free(git);
    }
}

/* convert ... --base X.trx with an unchanged mesh: every triangle keeps the
 * toolset's tile and links, so the bake that follows reproduces the
 * toolset's tables (checked as above, against the toolset's file). With
 * one walkable triangle removed, every other triangle still sits in the
 * tile the toolset chose (matched by vertex positions). */
static void test_base_keeps_unchanged_triangles(void **state)
{
    (void)state;
    char **files = NULL;
    size_t count = wmt_corpus_list("nwn2", trx_suffixes, &files);
    for (size_t fi = 0; fi < count; fi++) {
        wm_ctx ctx;
        nwn2_file f;
        load_file(files[fi], &f, &ctx);
        wm_mesh mesh;
        wm_mesh_init(&mesh);
        assert_int_equal(nwn2_aswm_to_mesh(&ctx, &f.aswm, 0, &mesh), WM_OK);
        for (int edit = 0; edit < 2; edit++) {
            nwn2_aswm based;
            assert_int_equal(nwn2_aswm_copy(&ctx, &based, &f.aswm), WM_OK);
            uint32_t removed = NWN2_NONE32;
            if (edit) { /* drop the middle walkable triangle of the mesh */
                for (uint32_t t = mesh.triangle_count / 2; t < mesh.triangle_count && removed == NWN2_NONE32; t++)
                    if (mesh.walkable[t])
                        removed = t;
                assert_int_not_equal(removed, NWN2_NONE32);
                mesh.triangle_count--;
                memmove(&mesh.indices[3 * removed], &mesh.indices[3 * (removed + 1)],
                        3 * sizeof *mesh.indices * (mesh.triangle_count - removed));
                memmove(&mesh.walkable[removed], &mesh.walkable[removed + 1], mesh.triangle_count - removed);
                memmove(&mesh.surfaces[removed], &mesh.surfaces[removed + 1],
                        sizeof *mesh.surfaces * (mesh.triangle_count - removed));
            }
            assert_int_equal(nwn2_aswm_from_mesh(&ctx, &mesh, &based), WM_OK);
            nwn2_bake_stats stats;
            if (nwn2_bake(&ctx, &based, NULL, &stats))
                fail_msg("%s: %s", files[fi], wm_ctx_message(&ctx));
            assert_true(stats.kept_layout);
            uint32_t unmatched = 0;
            uint32_t *map = match_triangles(&f.aswm, &based, &unmatched);
            assert_int_equal(unmatched, edit ? 1 : 0);
            assert_tiles_kept(&f.aswm, &based, map);
            if (!edit) {
                rebake_result res;
                memset(&res, 0, sizeof res);
                check_tiles(&f.aswm, &based, map, &res);
                check_islands(&f.aswm, &based, map, &res);
                assert_int_equal(res.wrong, 0);
                assert_int_equal(res.island_wrong, 0);
                assert_int_equal(res.islands_identical, res.islands_checked);
            }
            free(map);
            nwn2_aswm_free(&ctx, &based);
        }
        wm_mesh_free(&ctx, &mesh);
        nwn2_file_free(&ctx, &f);
    }
    wmt_free_list(files, count);
}

/* Each pair given the line-of-sight bit: points sampled along the
 * centre-to-centre segment all lie on walkable triangles of the tile. */
static int on_tile_walkable(const nwn2_aswm *a, const nwn2_tile *t, double x, double y)
{
    for (uint32_t i = 0; i < t->node_count; i++) {
        const uint32_t *v = a->triangles[t->triangle_offset + t->node_to_local[i]].v;
        const float *p0 = &a->vertices[3 * v[0]], *p1 = &a->vertices[3 * v[1]], *p2 = &a->vertices[3 * v[2]];
        double d0 = ((double)p1[0] - p0[0]) * (y - p0[1]) - ((double)p1[1] - p0[1]) * (x - p0[0]);
        double d1 = ((double)p2[0] - p1[0]) * (y - p1[1]) - ((double)p2[1] - p1[1]) * (x - p1[0]);
        double d2 = ((double)p0[0] - p2[0]) * (y - p2[1]) - ((double)p0[1] - p2[1]) * (x - p2[0]);
        const double e = 1e-6;
        if ((d0 >= -e && d1 >= -e && d2 >= -e) || (d0 <= e && d1 <= e && d2 <= e))
            return 1;
    }
    return 0;
}

static void test_line_of_sight_is_safe(void **state)
{
    (void)state;
    const char *names[] = {"nwn2/condemned_caves.trx", "nwn2/fh_settlement.trx", "nwn2/midwood_caverns_level_2.trx"};
    for (size_t fi = 0; fi < sizeof names / sizeof names[0]; fi++) {
        char *path = wmt_corpus_path_or_skip(names[fi]);
        wm_ctx ctx;
        nwn2_file f;
        load_file(path, &f, &ctx);
        nwn2_bake_stats stats;
        assert_int_equal(nwn2_bake(&ctx, &f.aswm, NULL, &stats), WM_OK);
        uint64_t pairs = 0;
        for (uint32_t ti = 0; ti < f.aswm.grid_width * f.aswm.grid_height; ti++) {
            const nwn2_tile *t = &f.aswm.tiles[ti];
            for (uint32_t s = 0; s < t->node_count; s++)
                for (uint32_t d = 0; d < t->node_count; d++) {
                    uint8_t v = t->nodes[s * t->node_count + d];
                    if (v == NWN2_PATH_NONE || !(v & NWN2_PATH_LOS))
                        continue;
                    pairs++;
                    assert_true(t->nodes[d * t->node_count + s] & NWN2_PATH_LOS); /* symmetric */
                    const float *p = f.aswm.triangles[t->triangle_offset + t->node_to_local[s]].centre;
                    const float *q = f.aswm.triangles[t->triangle_offset + t->node_to_local[d]].centre;
                    for (int k = 0; k <= 16; k++) {
                        double u = k / 16.0;
                        if (!on_tile_walkable(&f.aswm, t, p[0] + u * (q[0] - p[0]), p[1] + u * (q[1] - p[1])))
                            fail_msg("%s tile %u nodes %u -> %u: line of sight set, but the segment leaves the "
                                     "walkable triangles at %.3f",
                                     names[fi], ti, s, d, u);
                    }
                }
        }
        assert_true(pairs > 0);
        assert_int_equal(pairs, stats.los_pairs);
        nwn2_file_free(&ctx, &f);
        free(path);
    }
}

/* The tile with exactly 127 walkable triangles (FORMAT-NOTES: valid). */
static void test_tile_with_127_walkable(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip("nwn2/midwood_caverns_level_2.trx");
    wm_ctx ctx;
    nwn2_file f;
    load_file(path, &f, &ctx);
    uint32_t full = NWN2_NONE32;
    for (uint32_t ti = 0; ti < f.aswm.grid_width * f.aswm.grid_height; ti++)
        if (f.aswm.tiles[ti].node_count == 127)
            full = ti;
    assert_int_not_equal(full, NWN2_NONE32);
    nwn2_aswm baked;
    assert_int_equal(nwn2_aswm_copy(&ctx, &baked, &f.aswm), WM_OK);
    nwn2_bake_stats stats;
    assert_int_equal(nwn2_bake(&ctx, &baked, NULL, &stats), WM_OK);
    assert_int_equal(stats.max_tile_nodes, 127);
    const nwn2_tile *o = &f.aswm.tiles[full], *b = &baked.tiles[full];
    assert_int_equal(b->node_count, 127);
    /* node i is the same walkable triangle (same vertex positions) in both */
    for (uint32_t i = 0; i < 127; i++) {
        const nwn2_triangle *ot = &f.aswm.triangles[o->triangle_offset + o->node_to_local[i]];
        const nwn2_triangle *bt = &baked.triangles[b->triangle_offset + b->node_to_local[i]];
        for (int k = 0; k < 3; k++)
            assert_memory_equal(&f.aswm.vertices[3 * ot->v[k]], &baked.vertices[3 * bt->v[k]], 3 * sizeof(float));
    }
    /* the toolset's next hops of that tile, entry for entry (line of sight aside) */
    for (uint32_t i = 0; i < 127u * 127u; i++) {
        uint8_t want = o->nodes[i], got = b->nodes[i];
        if (want == NWN2_PATH_NONE || got == NWN2_PATH_NONE)
            assert_int_equal(want, got);
        else
            assert_int_equal(want & NWN2_PATH_NODE_MASK, got & NWN2_PATH_NODE_MASK);
    }
    wm_report report;
    wm_report_init(&report, &ctx);
    nwn2_aswm_free(&ctx, &f.aswm);
    f.aswm = baked;
    assert_int_equal(nwn2_validate(&ctx, &f, &report), WM_OK);
    assert_int_equal(report.errors, 0);
    wm_report_free(&report);
    nwn2_file_free(&ctx, &f);
    free(path);
}

/* Same input, same bytes: twice on one thread, and on four threads; for a
 * re-bake of a TRX and for a TRN baked with its GIT's cutters. */
static void test_deterministic(void **state)
{
    (void)state;
    const char *const inputs[][2] = {{"nwn2/castle_krag_tower.trx", NULL},
                                     {"nwn2-areas/shadowdale_mages_guild.TRN", "nwn2-areas/shadowdale_mages_guild.GIT"}};
    for (size_t in = 0; in < 2; in++) {
        char *path = wmt_corpus_path(inputs[in][0]);
        char *git = inputs[in][1] ? wmt_corpus_path(inputs[in][1]) : NULL;
        if (!path || (inputs[in][1] && !git)) {
            free(path);
            free(git);
            print_message("corpus file %s not available: skipping\n", inputs[in][0]);
            skip();
        }
        uint8_t *data[3];
        size_t size[3];
        for (int run = 0; run < 3; run++) {
            wm_ctx ctx;
            nwn2_file f;
            load_file(path, &f, &ctx);
            nwn2_cutter_set cutters = {0};
            nwn2_bake_options opts;
            nwn2_bake_options_init(&opts);
            opts.threads = run == 2 ? 4 : 1;
            if (git) {
                assert_int_equal(nwn2_bake_read_git(&ctx, git, &cutters), WM_OK);
                opts.cutters = &cutters;
            }
            assert_int_equal(nwn2_bake(&ctx, &f.aswm, &opts, NULL), WM_OK);
            wm_buffer out;
            wm_buffer_init(&out, &ctx);
            assert_int_equal(nwn2_file_serialize(&ctx, &f, -1, &out), WM_OK);
            data[run] = malloc(out.size);
            memcpy(data[run], out.data, out.size);
            size[run] = out.size;
            wm_buffer_free(&out);
            nwn2_cutter_set_free(&ctx, &cutters);
            nwn2_file_free(&ctx, &f);
        }
        assert_int_equal(size[0], size[1]);
        assert_int_equal(size[0], size[2]);
        assert_memory_equal(data[0], data[1], size[0]);
        assert_memory_equal(data[0], data[2], size[0]);
        for (int run = 0; run < 3; run++)
            free(data[run]);
        free(path);
        free(git);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rebake_reproduces_toolset),
        cmocka_unit_test(test_base_keeps_unchanged_triangles),
        cmocka_unit_test(test_trx_with_cutters_keeps_tiles),
        cmocka_unit_test(test_line_of_sight_is_safe),
        cmocka_unit_test(test_tile_with_127_walkable),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
