/* NWN2 TRN/TRX: real-file facts, lossless round trips, the toolset's zlib
 * level, validation of every corpus file (broken invariants: test_nwn2_validate.c)
 * and conversions (the CLI: test_nwn2_cli.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "test_support.h"
#include "nwn2/nwn2.h"

/* Facts from ../shared/corpus/README.md (counted by its authors from the files). */
typedef struct corpus_fact {
    const char *file;
    uint32_t packets, watr;
    uint32_t vertices, edges, triangles, walkable;
    uint32_t grid_w, grid_h; /* README writes "grid WxH"; the square ones are ambiguous */
    uint32_t islands, max_walkable_per_tile;
} corpus_fact;

static const corpus_fact facts[] = {
    {"nwn2/CSLMordMansion.TRN", 2, 0, 742, 1956, 1218, 500, 6, 6, 0, 0},
    {"nwn2/CSLMordMansion.TRX", 2, 0, 1393, 3164, 1768, 811, 6, 6, 24, 90},
    {"nwn2/Defenders_Barracks.trx", 2, 0, 1856, 5084, 3208, 2428, 8, 8, 43, 85},
    {"nwn2/abandoned_house.trx", 2, 0, 231, 591, 356, 234, 4, 4, 4, 70},
    {"nwn2/arcanevault_entry.trx", 2, 0, 426, 1049, 606, 382, 7, 3, 12, 52},
    {"nwn2/castle_krag_tower.trx", 3, 1, 2394, 6038, 3572, 2154, 16, 8, 51, 94},
    {"nwn2/condemned_caves.trx", 10, 8, 10768, 29458, 18528, 9202, 24, 24, 365, 91},
    {"nwn2/dm_generic_tavern1.trx", 2, 0, 886, 2219, 1276, 859, 3, 3, 10, 124},
    {"nwn2/enter_world.trn", 2, 0, 494, 1381, 888, 676, 4, 4, 0, 0},
    {"nwn2/enter_world.trx", 2, 0, 566, 1530, 959, 730, 4, 4, 14, 74},
    {"nwn2/fh_settlement.TRN", 2, 0, 735, 1976, 1240, 778, 8, 8, 0, 0},
    {"nwn2/fh_settlement.trx", 2, 0, 1350, 3240, 1850, 1160, 8, 8, 20, 126},
    {"nwn2/md_fancy_fox_fashions_rlg.TRN", 2, 0, 464, 1277, 814, 378, 8, 8, 0, 0},
    {"nwn2/md_fancy_fox_fashions_rlg.TRX", 2, 0, 835, 2131, 1251, 584, 8, 8, 14, 71},
    {"nwn2/midwood_caverns_level_2.trx", 2, 0, 2769, 7303, 4402, 2046, 10, 12, 49, 127},
};
#define FACT_COUNT (sizeof facts / sizeof facts[0])

static int load(const char *relative, uint8_t **data, size_t *size, nwn2_file *f, wm_ctx *ctx)
{
    char *path = wmt_corpus_path(relative);
    if (!path)
        return 0;
    *data = wmt_read_file(path, size);
    wmt_ctx_init(ctx);
    wm_result r = nwn2_file_parse(ctx, *data, *size, path, f);
    if (r)
        fail_msg("%s: %s", relative, wm_ctx_message(ctx));
    free(path);
    return 1;
}

/* Walkable triangles counted straight from the inflated bytes (64-byte
 * triangles after the 53-byte header, vertices and edges; flags at +62). */
static uint32_t count_walkable_raw(const uint8_t *raw, size_t size)
{
    uint32_t nv, ne, nt, walk = 0;
    memcpy(&nv, raw + 37, 4);
    memcpy(&ne, raw + 41, 4);
    memcpy(&nt, raw + 45, 4);
    size_t base = 53 + (size_t)nv * 12 + (size_t)ne * 16;
    assert_true(base + (size_t)nt * 64 <= size);
    for (uint32_t t = 0; t < nt; t++)
        walk += raw[base + (size_t)t * 64 + 62] & 1;
    return walk;
}

typedef void (*file_check)(const corpus_fact *fc, const uint8_t *data, size_t size, nwn2_file *f, wm_ctx *ctx);

/* Runs check on every corpus file of the table; skips when none is present. */
static void for_each_corpus_file(file_check check)
{
    unsigned seen = 0;
    for (size_t i = 0; i < FACT_COUNT; i++) {
        uint8_t *data = NULL;
        size_t size;
        nwn2_file f;
        wm_ctx ctx;
        if (!load(facts[i].file, &data, &size, &f, &ctx))
            continue;
        seen++;
        check(&facts[i], data, size, &f, &ctx);
        nwn2_file_free(&ctx, &f);
        free(data);
    }
    if (!seen)
        skip();
}

static void check_corpus_facts(const corpus_fact *fc, const uint8_t *data, size_t size, nwn2_file *f, wm_ctx *ctx)
{
    (void)fc;
    (void)data;
    (void)size;
    (void)ctx;
    const nwn2_aswm *a = &f->aswm;
    assert_int_equal(f->container.packet_count, fc->packets);
    uint32_t watr = 0;
    for (uint32_t p = 0; p < f->container.packet_count; p++)
        watr += memcmp(f->container.packets[p].type, "WATR", 4) == 0;
    assert_int_equal(watr, fc->watr);
    assert_int_equal(a->version, 0x6c);
    assert_int_equal(a->vertex_count, fc->vertices);
    assert_int_equal(a->edge_count, fc->edges);
    assert_int_equal(a->triangle_count, fc->triangles);
    assert_true((a->grid_width == fc->grid_w && a->grid_height == fc->grid_h) ||
                (a->grid_width == fc->grid_h && a->grid_height == fc->grid_w));
    assert_int_equal(a->island_count, fc->islands);
    /* README: all interiors: tile width 9, border 0 */
    assert_true(a->tile_width == 9.0f);
    assert_int_equal(a->border_size, 0);
    int trx = strstr(fc->file, ".trx") || strstr(fc->file, ".TRX");
    assert_int_equal(a->grid_flags, trx ? 31 : 15);
    uint32_t walk = 0, max_tile = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++)
        walk += a->triangles[t].flags & NWN2_TRI_WALKABLE;
    assert_int_equal(walk, fc->walkable);
    assert_int_equal(count_walkable_raw(f->aswm_raw, f->aswm_raw_size), fc->walkable);
    for (uint32_t ti = 0; ti < a->grid_width * a->grid_height; ti++)
        if (a->tiles[ti].node_count > max_tile)
            max_tile = a->tiles[ti].node_count;
    assert_int_equal(max_tile, fc->max_walkable_per_tile);
}

static void test_corpus_facts(void **state)
{
    (void)state;
    for_each_corpus_file(check_corpus_facts);
}

/* read -> write is byte-identical; so is the uncompressed ASWM; and zlib
 * level 6 reproduces the toolset's stream exactly. */
static void check_lossless_and_zlib_level(const corpus_fact *fc, const uint8_t *data, size_t size, nwn2_file *f, wm_ctx *ctx)
{
    (void)fc;
    (void)data;
    (void)size;
    (void)ctx;
    wm_buffer out, raw, level6;
    wm_buffer_init(&out, ctx);
    wm_buffer_init(&raw, ctx);
    wm_buffer_init(&level6, ctx);
    assert_int_equal(nwn2_file_serialize(ctx, f, -1, &out), WM_OK);
    assert_int_equal(out.size, size);
    assert_memory_equal(out.data, data, size);
    assert_int_equal(nwn2_aswm_serialize(ctx, &f->aswm, &raw), WM_OK);
    /* independent inflate of the file's own packet */
    const nwn2_packet *p = &f->container.packets[f->aswm_packet];
    uint32_t claimed;
    memcpy(&claimed, p->payload + 8, 4);
    uLongf got = claimed;
    uint8_t *inflated = malloc(claimed);
    assert_int_equal(uncompress(inflated, &got, p->payload + 12, p->size - 12), Z_OK);
    assert_int_equal(got, raw.size);
    assert_memory_equal(raw.data, inflated, raw.size);
    free(inflated);
    /* forced re-encode at level 6 = the toolset's bytes */
    assert_int_equal(nwn2_file_serialize(ctx, f, 6, &level6), WM_OK);
    assert_int_equal(level6.size, size);
    assert_memory_equal(level6.data, data, size);
    wm_buffer_free(&out);
    wm_buffer_free(&raw);
    wm_buffer_free(&level6);
}

static void test_lossless_and_zlib_level(void **state)
{
    (void)state;
    for_each_corpus_file(check_lossless_and_zlib_level);
}

static void check_validate_corpus(const corpus_fact *fc, const uint8_t *data, size_t size, nwn2_file *f, wm_ctx *ctx)
{
    (void)fc;
    (void)data;
    (void)size;
    (void)ctx;
    wm_report report;
    wm_report_init(&report, ctx);
    assert_int_equal(nwn2_validate(ctx, f, &report), WM_OK);
    for (uint32_t k = 0; k < report.count; k++)
        if (report.items[k].severity == WM_SEV_ERROR)
            print_message("%s: %s: %s\n", fc->file, report.items[k].key, report.items[k].value);
    assert_int_equal(report.errors, 0);
    /* only the documented quirks (FORMAT-NOTES section 2) may warn: slivers with
     * the (1,0,0) normal, normal/d drift on near-degenerate triangles, duplicates */
    for (uint32_t k = 0; k < report.count; k++)
        if (report.items[k].severity == WM_SEV_WARNING && !strstr(report.items[k].value, "sliver") &&
            !strstr(report.items[k].value, "drift from a recomputation") &&
            !strstr(report.items[k].value, "the same three vertex positions"))
            fail_msg("%s: unexpected warning %s: %s", fc->file, report.items[k].key, report.items[k].value);
    wm_report_free(&report);
}

static void test_validate_corpus(void **state)
{
    (void)state;
    for_each_corpus_file(check_validate_corpus);
}

/* WATR summaries: README says condemned_caves has 8 WATR packets; each is a
 * regular water grid, so triangles = 2 * (side - 1)^2 for side^2 vertices. */
static void test_watr_summary(void **state)
{
    (void)state;
    uint8_t *data = NULL;
    size_t size;
    nwn2_file f;
    wm_ctx ctx;
    if (!load("nwn2/condemned_caves.trx", &data, &size, &f, &ctx))
        skip();
    uint32_t watr = 0;
    for (int32_t i = nwn2_container_find(&f.container, "WATR", 0); i >= 0;
         i = nwn2_container_find(&f.container, "WATR", (uint32_t)i + 1)) {
        nwn2_watr_summary w;
        const nwn2_packet *p = &f.container.packets[i];
        assert_int_equal(nwn2_watr_summarise(&ctx, p->payload, p->size, "WATR", &w), WM_OK);
        uint32_t side = 1;
        while (side * side < w.vertex_count)
            side++;
        assert_int_equal(side * side, w.vertex_count);
        assert_int_equal(w.triangle_count, 2 * (side - 1) * (side - 1));
        assert_true(w.megatile_x < 16 && w.megatile_y < 16);
        watr++;
    }
    assert_int_equal(watr, 8);
    nwn2_file_free(&ctx, &f);
    free(data);
}

/* Mesh bridge: walkable surfaces and the clockwise flag. */
static void test_to_mesh(void **state)
{
    (void)state;
    uint8_t *data = NULL;
    size_t size;
    nwn2_file f;
    wm_ctx ctx;
    if (!load("nwn2/abandoned_house.trx", &data, &size, &f, &ctx))
        skip();
    wm_mesh mesh;
    wm_mesh_init(&mesh);
    assert_int_equal(nwn2_aswm_to_mesh(&ctx, &f.aswm, 0, &mesh), WM_OK);
    assert_int_equal(mesh.triangle_count, 356);
    uint32_t walk = 0, wood = 0;
    const wm_surface_table *table = wm_surfaces(&ctx);
    for (uint32_t t = 0; t < mesh.triangle_count; t++) {
        walk += mesh.walkable[t];
        wood += strcmp(wm_surface_name(table, mesh.surfaces[t]), "wood") == 0;
    }
    assert_int_equal(walk, 234);
    assert_int_equal(wood, 234); /* flag 0x40 on all 234 walkable triangles (measured) */
    /* every TRX triangle is stored clockwise (flag 4): turned
     * counter-clockwise, the walkable floors face up */
    uint32_t up = 0;
    for (uint32_t t = 0; t < mesh.triangle_count; t++) {
        float n[3];
        wm_mesh_triangle_normal(&mesh, t, n);
        up += mesh.walkable[t] && n[2] > 0.5f;
    }
    assert_true(up >= 233);
    wm_mesh_free(&ctx, &mesh);
    wm_mesh_init(&mesh);
    assert_int_equal(nwn2_aswm_to_mesh(&ctx, &f.aswm, NWN2_MESH_WALKABLE_ONLY, &mesh), WM_OK);
    assert_int_equal(mesh.triangle_count, 234);
    wm_mesh_free(&ctx, &mesh);
    nwn2_file_free(&ctx, &f);
    free(data);
}

/* TRN border: island none, not walkable and in the border band. */
static void test_border_triangles(void **state)
{
    (void)state;
    uint8_t *data = NULL;
    size_t size;
    nwn2_file f;
    wm_ctx ctx;
    if (!load("nwn2/fh_settlement.TRN", &data, &size, &f, &ctx))
        skip();
    nwn2_aswm *a = &f.aswm;
    uint32_t expect = 0;
    a->border_size = 2; /* 8x8 grid of 9: band = x or y < 18 or >= 54 */
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        const nwn2_triangle *tri = &a->triangles[t];
        float x = tri->centre[0], y = tri->centre[1];
        expect += tri->island == 0xFFFF && !(tri->flags & 1) && (x < 18 || y < 18 || x >= 54 || y >= 54);
    }
    assert_true(expect > 0);
    wm_mesh all, cut;
    wm_mesh_init(&all);
    wm_mesh_init(&cut);
    assert_int_equal(nwn2_aswm_to_mesh(&ctx, a, NWN2_MESH_KEEP_BORDER, &all), WM_OK);
    assert_int_equal(nwn2_aswm_to_mesh(&ctx, a, 0, &cut), WM_OK);
    assert_int_equal(all.triangle_count, 1240);
    assert_int_equal(all.triangle_count - cut.triangle_count, expect);
    wm_mesh_free(&ctx, &all);
    wm_mesh_free(&ctx, &cut);
    nwn2_file_free(&ctx, &f);
    free(data);
}

/* Recomputed edges, neighbours and geometry on a real TRX still validate,
 * and agree with the toolset's neighbour sets and normals. */
static void test_recompute_matches_toolset(void **state)
{
    (void)state;
    uint8_t *data = NULL;
    size_t size;
    nwn2_file f;
    wm_ctx ctx;
    if (!load("nwn2/enter_world.trx", &data, &size, &f, &ctx))
        skip();
    nwn2_aswm *a = &f.aswm;
    uint32_t n = a->triangle_count;
    nwn2_triangle *orig = malloc(n * sizeof *orig);
    memcpy(orig, a->triangles, n * sizeof *orig);
    uint32_t edges = a->edge_count;
    assert_int_equal(nwn2_aswm_rebuild_edges(&ctx, a), WM_OK);
    nwn2_aswm_recompute_geometry(a);
    assert_int_equal(a->edge_count, edges);
    for (uint32_t t = 0; t < n; t++) {
        /* the toolset's own edge numbering and slot order (FORMAT-NOTES §2 layout, as stored) */
        for (int k = 0; k < 3; k++) {
            assert_int_equal(a->triangles[t].neighbour[k], orig[t].neighbour[k]);
            assert_int_equal(a->triangles[t].edge[k], orig[t].edge[k]);
        }
        if (nwn2_triangle_sliver(a, t) >= NWN2_SLIVER_RATIO) {
            for (int k = 0; k < 3; k++)
                assert_float_equal(a->triangles[t].normal[k], orig[t].normal[k], 1e-4);
            assert_float_equal(a->triangles[t].d, orig[t].d, 1e-3 * (1 + (orig[t].d < 0 ? -orig[t].d : orig[t].d)));
        }
        assert_float_equal(a->triangles[t].centre[0], orig[t].centre[0], 1e-4);
    }
    wm_report report;
    wm_report_init(&report, &ctx);
    nwn2_validate(&ctx, &f, &report);
    assert_int_equal(report.errors, 0);
    wm_report_free(&report);
    free(orig);
    nwn2_file_free(&ctx, &f);
    free(data);
}

/* Mesh -> ASWM into a base: validates, keeps the other packets. */
/* Loads a corpus file (skips when absent), converts its walkmesh to a mesh
 * and writes that mesh back into the file's own ASWM. */
static void load_mesh_back_into_base(const char *relative, uint8_t **data, size_t *size, nwn2_file *f, wm_ctx *ctx,
                                     wm_mesh *mesh)
{
    if (!load(relative, data, size, f, ctx))
        skip();
    wm_mesh_init(mesh);
    assert_int_equal(nwn2_aswm_to_mesh(ctx, &f->aswm, 0, mesh), WM_OK);
    assert_int_equal(nwn2_aswm_from_mesh(ctx, mesh, &f->aswm), WM_OK);
}

static void test_from_mesh_into_base(void **state)
{
    (void)state;
    uint8_t *data = NULL;
    size_t size;
    nwn2_file f;
    wm_ctx ctx;
    wm_mesh mesh;
    load_mesh_back_into_base("nwn2/castle_krag_tower.trx", &data, &size, &f, &ctx, &mesh);
    assert_int_equal(f.aswm.triangle_count, 3572);
    assert_int_equal(f.aswm.island_count, 0);
    wm_buffer out;
    wm_buffer_init(&out, &ctx);
    assert_int_equal(nwn2_file_serialize(&ctx, &f, -1, &out), WM_OK);
    nwn2_file back;
    assert_int_equal(nwn2_file_parse(&ctx, out.data, out.size, "<out>", &back), WM_OK);
    /* the WATR packet (45,872 bytes in the README's file) is untouched */
    int32_t w = nwn2_container_find(&back.container, "WATR", 0);
    assert_true(w >= 0);
    assert_int_equal(back.container.packets[w].size, 45872);
    assert_memory_equal(back.container.packets[w].payload, f.container.packets[w].payload, 45872);
    wm_report report;
    wm_report_init(&report, &ctx);
    assert_int_equal(nwn2_validate(&ctx, &back, &report), WM_OK);
    assert_int_equal(report.errors, 0);
    int said = 0;
    for (uint32_t k = 0; k < report.count; k++)
        said |= strstr(report.items[k].value, "not baked") != NULL;
    assert_true(said);
    uint32_t walk = 0;
    for (uint32_t t = 0; t < back.aswm.triangle_count; t++)
        walk += back.aswm.triangles[t].flags & 1;
    assert_int_equal(walk, 2154);
    wm_report_free(&report);
    nwn2_file_free(&ctx, &back);
    wm_buffer_free(&out);
    wm_mesh_free(&ctx, &mesh);
    nwn2_file_free(&ctx, &f);
    free(data);
}

/* The tile grid starts at (0, 0): a mesh placed at negative x or y cannot
 * be sorted into its tiles (they are clamped into the edge tiles), which
 * the conversion must say instead of writing it silently. */
static void test_mesh_below_the_grid_is_reported(void **state)
{
    (void)state;
    uint8_t *data = NULL;
    size_t size;
    nwn2_file f;
    wm_ctx ctx;
    wm_mesh mesh;
    load_mesh_back_into_base("nwn2/enter_world.trx", &data, &size, &f, &ctx, &mesh);
    assert_null(strstr(wmt_warnings, "outside the tile grid"));
    for (uint32_t v = 0; v < mesh.vertex_count; v++)
        mesh.positions[3 * (size_t)v + 1] -= 100.0f; /* the whole area moved to y < 0 */
    wmt_warnings[0] = '\0';
    assert_int_equal(nwn2_aswm_from_mesh(&ctx, &mesh, &f.aswm), WM_OK);
    char expected[64];
    snprintf(expected, sizeof expected, "%u triangles", mesh.triangle_count);
    assert_non_null(strstr(wmt_warnings, "outside the tile grid"));
    assert_non_null(strstr(wmt_warnings, expected));
    wm_mesh_free(&ctx, &mesh);
    nwn2_file_free(&ctx, &f);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_facts),
        cmocka_unit_test(test_lossless_and_zlib_level),
        cmocka_unit_test(test_validate_corpus),
        cmocka_unit_test(test_watr_summary),
        cmocka_unit_test(test_to_mesh),
        cmocka_unit_test(test_border_triangles),
        cmocka_unit_test(test_recompute_matches_toolset),
        cmocka_unit_test(test_from_mesh_into_base),
        cmocka_unit_test(test_mesh_below_the_grid_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
