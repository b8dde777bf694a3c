/* WMO writing rules checked on raw bytes against FORMAT-NOTES: MLIQ liquids written as a
 * surface of their own, `walkmesh validate` exit codes on a written group and on one whose
 * BSP leaves lost their triangles, the extractors' group skips, and the BSP builder on
 * random triangle soups. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test_support.h"
#include "test_wmo_fixture.h"
#include "test_wmo_raw.h"
#include "wmo/wmo.h"

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void putf(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put32(p, u);
}

/* A group holding only a 3 x 2 tile MLIQ (4 x 3 vertices), two tiles dry. */
static size_t make_liquid_group(uint8_t *buf)
{
    size_t n = 0;
    memcpy(buf, "REVM", 4);
    put32(buf + 4, 4);
    put32(buf + 8, 17);
    n = 12;
    memcpy(buf + n, "PGOM", 4);
    size_t mogp_size_at = n + 4;
    n += 8;
    size_t mogp_start = n;
    memset(buf + n, 0, 68);
    put32(buf + n + 8, 0x1000);
    n += 68;
    const char *empty[] = {"YPOM", "IVOM", "TVOM"};
    for (int i = 0; i < 3; i++) {
        memcpy(buf + n, empty[i], 4);
        put32(buf + n + 4, 0);
        n += 8;
    }
    memcpy(buf + n, "QILM", 4);
    size_t mliq_size_at = n + 4;
    n += 8;
    size_t mliq_start = n;
    put32(buf + n, 4);
    put32(buf + n + 4, 3);
    put32(buf + n + 8, 3);
    put32(buf + n + 12, 2);
    putf(buf + n + 16, 100.0f);
    putf(buf + n + 20, 200.0f);
    putf(buf + n + 24, 5.0f);
    buf[n + 28] = 3;
    buf[n + 29] = 0;
    n += 30;
    for (int v = 0; v < 12; v++) {
        put32(buf + n, 0);
        putf(buf + n + 4, 10.0f + (float)v);
        n += 8;
    }
    const uint8_t tiles[6] = {0x00, 0x0F, 0x01, 0x4F, 0x02, 0x03};
    memcpy(buf + n, tiles, 6);
    n += 6;
    put32(buf + mliq_size_at, (uint32_t)(n - mliq_start));
    put32(buf + mogp_size_at, (uint32_t)(n - mogp_start));
    return n;
}

static void test_liquids_as_separate_surface(void **state)
{
    (void)state;
    uint8_t buf[1024];
    size_t n = make_liquid_group(buf);
    char *dir = wmt_make_temp_dir();
    char *path = wmt_join(dir, "pool_000.wmo");
    wmt_write_file(path, buf, n);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_options opts;
    wm_options_init(&opts);
    wm_mesh m;
    wm_mesh_init(&m);
    assert_int_equal(wm_mesh_load(&ctx, path, wm_format_wmo.name, &opts, &m), WM_OK);
    assert_int_equal(m.triangle_count, 0); /* liquids only on request */
    wm_mesh_free(&ctx, &m);
    wm_mesh_init(&m);
    assert_int_equal(wm_option_set(&ctx, &opts, "liquids", "1"), WM_OK);
    assert_int_equal(wm_mesh_load(&ctx, path, wm_format_wmo.name, &opts, &m), WM_OK);
    assert_int_equal(m.triangle_count, 2 * 4); /* tiles 0x0F and 0x4F are dry */
    for (uint32_t t = 0; t < m.triangle_count; t++) {
        assert_int_equal(m.surfaces[t], WM_SURF_LIQUID);
        assert_int_equal(m.walkable[t], 0);
        assert_string_equal(m.object_names[m.objects[t]], "pool_000_liquid");
        for (int k = 0; k < 3; k++) {
            const float *p = &m.positions[3 * m.indices[3 * t + k]];
            /* vertex (i, j) sits at corner + 4.1666625 * (i, j) with height 10 + j*4 + i */
            double i = (p[0] - 100.0) / 4.1666625, j = (p[1] - 200.0) / 4.1666625;
            assert_true(fabs(i - round(i)) < 1e-3 && fabs(j - round(j)) < 1e-3);
            assert_true(fabs(p[2] - (10.0 + round(j) * 4 + round(i))) < 1e-4);
        }
    }
    /* info reports the wet tile count */
    wm_report rep;
    wm_report_init(&rep, &ctx);
    assert_int_equal(wm_info(&ctx, path, wm_format_wmo.name, &opts, NULL, &rep), WM_OK);
    int found = 0;
    for (uint32_t i = 0; i < rep.count; i++)
        if (strcmp(rep.items[i].key, "liquid") == 0)
            found = strstr(rep.items[i].value, "4 with liquid") != NULL;
    assert_true(found);
    wm_report_free(&rep);
    wm_mesh_free(&ctx, &m);
    free(path);
    wmt_remove_tree(dir);
    free(dir);
}

/* walkmesh validate: 0 on a written group, 5 once a leaf loses its triangles. */
static void test_validate_exit_codes(void **state)
{
    (void)state;
    written_set w;
    set_open(&w, "v", 12);
    assert_int_equal(wm_mesh_save(&w.ctx, &w.m, w.root, wm_format_wmo.name, &w.opts, 0), WM_OK);
    const char *argv[] = {"validate", w.group, NULL};
    const char *argv_root[] = {"validate", w.root, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, argv), 0);
    assert_int_equal(wmt_run_cli(NULL, NULL, argv_root), 0);
    size_t size = 0;
    uint8_t *d = wmt_read_file(w.group, &size);
    size_t b = 0, e = 0, off = 0;
    uint32_t sz;
    assert_true(raw_group_range(d, size, &b, &e));
    assert_true(raw_find(d, b, e, "MOBR", &off, &sz));
    for (uint32_t i = 2; i < sz; i += 2) { /* every entry names triangle refs[0] */
        d[off + i] = d[off];
        d[off + i + 1] = d[off + 1];
    }
    wmt_write_file(w.group, d, size);
    free(d);
    char *out = NULL;
    assert_int_equal(wmt_run_cli(&out, NULL, argv), 5);
    assert_non_null(strstr(out, "no BSP leaf whose region overlaps it lists it"));
    assert_non_null(strstr(out, "point query at the centroid"));
    free(out);
    assert_int_equal(wmt_run_cli(NULL, NULL, argv_root), 5);
    set_close(&w);
}

static uint32_t read_count(const char *path, const char *rule)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_options opts;
    wm_options_init(&opts);
    assert_int_equal(wm_option_set(&ctx, &opts, "collision-rule", rule), WM_OK);
    wm_mesh m;
    wm_mesh_init(&m);
    assert_int_equal(wm_mesh_load(&ctx, path, wm_format_wmo.name, &opts, &m), WM_OK);
    uint32_t n = m.triangle_count;
    wm_mesh_free(&ctx, &m);
    return n;
}

/* FORMAT-NOTES: the extractors skip groups flagged 0x80 or 0x4000000, or named "antiportal". */
static void test_group_skips(void **state)
{
    (void)state;
    written_set w;
    set_open(&w, "a", 3);
    wm_free(&w.ctx, w.m.object_names[0]);
    w.m.object_names[0] = wm_strdup(&w.ctx, "antiportal");
    assert_int_equal(wm_mesh_save(&w.ctx, &w.m, w.root, wm_format_wmo.name, &w.opts, 0), WM_OK);
    assert_int_equal(read_count(w.root, "server"), 0);
    assert_non_null(strstr(wmt_warnings, "named antiportal"));
    assert_int_equal(read_count(w.group, "server"), 0); /* the root beside it names the group */
    assert_int_equal(read_count(w.root, "azerothcore"), 0);
    assert_int_equal(read_count(w.root, "all"), w.m.triangle_count);

    wm_free(&w.ctx, w.m.object_names[0]);
    w.m.object_names[0] = wm_strdup(&w.ctx, "hall");
    assert_int_equal(wm_mesh_save(&w.ctx, &w.m, w.root, wm_format_wmo.name, &w.opts, 1), WM_OK);
    assert_int_equal(read_count(w.root, "server"), w.m.triangle_count);
    const uint32_t skip_flags[] = {0x80, 0x4000000};
    for (int i = 0; i < 2; i++) {
        size_t size = 0;
        uint8_t *d = wmt_read_file(w.group, &size);
        uint32_t flags = raw_u32(d + 28) | skip_flags[i];
        memcpy(d + 28, &flags, 4);
        wmt_write_file(w.group, d, size);
        free(d);
        assert_int_equal(read_count(w.group, "server"), 0);
        assert_int_equal(read_count(w.group, "collision-flag"), 0);
        assert_int_equal(read_count(w.group, "all"), w.m.triangle_count);
        assert_int_equal(wm_mesh_save(&w.ctx, &w.m, w.root, wm_format_wmo.name, &w.opts, 1), WM_OK);
    }
    set_close(&w);
}

/* The builder on awkward soups: coordinates on a coarse integer grid (many
 * triangles lying exactly on split planes, flat and degenerate ones,
 * duplicates) and free floats; every tree must pass the check. */
static void test_bsp_builder_on_random_soups(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    uint32_t seed = 12345;
    for (int round = 0; round < 60; round++) {
        uint32_t triangles = 1 + (uint32_t)(round * 37 % 500), vertices = triangles + 2;
        float *p = malloc((size_t)vertices * 3 * sizeof *p);
        uint32_t *idx = malloc((size_t)triangles * 3 * sizeof *idx);
        for (uint32_t i = 0; i < vertices * 3; i++) {
            seed = seed * 1664525u + 1013904223u;
            p[i] = (round % 2) ? (float)((seed >> 16) % 5) : (float)((seed >> 8) % 100000) / 997.0f;
        }
        for (uint32_t i = 0; i < triangles * 3; i++) {
            seed = seed * 1664525u + 1013904223u;
            idx[i] = (seed >> 8) % vertices;
        }
        wmo_bsp_node *nodes = NULL;
        uint16_t *refs = NULL;
        uint32_t node_count = 0, ref_count = 0, problems = 99;
        uint32_t leaf = 1 + (uint32_t)round % 40;
        assert_int_equal(wmo_bsp_build(&ctx, p, idx, triangles, leaf, &nodes, &node_count, &refs, &ref_count), WM_OK);
        wmo_bsp_view v = {nodes, node_count, refs, ref_count, p, idx, triangles};
        assert_int_equal(wmo_bsp_check(&ctx, &v, NULL, NULL, &problems), WM_OK);
        if (problems)
            fail_msg("round %d (%u triangles, leaf %u): %u BSP problems", round, triangles, leaf, problems);
        wm_free(&ctx, nodes);
        wm_free(&ctx, refs);
        free(p);
        free(idx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_liquids_as_separate_surface),
        cmocka_unit_test(test_validate_exit_codes),
        cmocka_unit_test(test_bsp_builder_on_random_soups),
        cmocka_unit_test(test_group_skips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
