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
#include "nwn2_toolset_compare.h"

static const char *const trx_suffixes[] = {".trx", NULL};

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
