/* WMO writing: collision round trips of every corpus group, what the
 * written files contain (checked on raw bytes against FORMAT-NOTES), the
 * BSP check on every written group, splitting past the u16 limits,
 * overwrite refusal and --base root updates (liquids, validation and group
 * skips: test_wmo_write_rules.c). */
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

static const char *const wmo_suffix[] = {".wmo", NULL};

static raw_tri *mesh_triangles(const wm_mesh *m)
{
    raw_tri *t = malloc((m->triangle_count + 1) * sizeof *t);
    for (uint32_t i = 0; i < m->triangle_count; i++)
        t[i] = raw_canonical(&m->positions[3 * m->indices[3 * i]], &m->positions[3 * m->indices[3 * i + 1]],
                             &m->positions[3 * m->indices[3 * i + 2]]);
    qsort(t, m->triangle_count, sizeof *t, raw_tri_compare);
    return t;
}

static void assert_same_triangles(const wm_mesh *a, const wm_mesh *b)
{
    assert_int_equal(a->triangle_count, b->triangle_count);
    raw_tri *ta = mesh_triangles(a), *tb = mesh_triangles(b);
    for (uint32_t i = 0; i < a->triangle_count; i++)
        for (int k = 0; k < 9; k++)
            if (fabsf(ta[i].v[k] - tb[i].v[k]) > 1e-6f)
                fail_msg("triangle %u coordinate %d: %g vs %g", i, k, ta[i].v[k], tb[i].v[k]);
    free(ta);
    free(tb);
}

/* Checks one written group on its raw bytes (notes section 3) and with the
 * BSP check; returns its triangle count. */
static uint32_t check_written_group(const char *path, uint32_t expected_flags)
{
    size_t size = 0;
    uint8_t *d = wmt_read_file(path, &size);
    size_t b = 0, e = 0, off = 0;
    uint32_t sz;
    assert_true(raw_group_range(d, size, &b, &e));
    uint32_t flags = raw_u32(d + 20 + 8);
    assert_int_equal(flags, expected_flags);
    assert_int_equal(flags & 0x80, 0);
    const char *mandatory[] = {"MOPY", "MOVI", "MOVT", "MONR", "MOTV", "MOBA", "MOBN", "MOBR"};
    for (size_t i = 0; i < sizeof mandatory / sizeof mandatory[0]; i++)
        if (!raw_find(d, b, e, mandatory[i], &off, &sz))
            fail_msg("%s: no %s chunk", path, mandatory[i]);
    assert_true(raw_find(d, b, e, "MOPY", &off, &sz));
    uint32_t triangles = sz / 2;
    for (uint32_t i = 0; i < triangles; i++) {
        assert_int_equal(d[off + 2 * i], 0x08);
        assert_int_equal(d[off + 2 * i + 1], 0xFF);
    }
    assert_true(raw_find(d, b, e, "MOVT", &off, &sz));
    assert_true(sz / 12 <= 65535);
    assert_true(triangles <= 65535);
    free(d);

    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wmo_group g;
    assert_int_equal(wmo_group_load(&ctx, path, &g), WM_OK);
    wmo_bsp_view v = {g.nodes, g.node_count, g.refs, g.ref_count, g.positions, g.indices, g.triangle_count};
    uint32_t problems = 99;
    assert_int_equal(wmo_bsp_check(&ctx, &v, NULL, NULL, &problems), WM_OK);
    if (problems)
        fail_msg("%s: %u BSP problems", path, problems);
    wmo_bsp_stats s;
    assert_int_equal(wmo_bsp_stats_compute(&ctx, g.nodes, g.node_count, g.triangle_count, g.refs, g.ref_count, &s),
                     WM_OK);
    assert_int_equal(s.unreferenced, 0);
    assert_true(s.leaves > 0);
    wmo_group_free(&ctx, &g);
    return triangles;
}

/* Checks the written root lists `groups` groups, and each group file. */
static uint32_t check_written_set(const char *root_path, uint32_t groups, uint32_t expected_flags)
{
    size_t size = 0;
    uint8_t *d = wmt_read_file(root_path, &size);
    size_t off;
    uint32_t sz;
    assert_true(raw_find(d, 0, size, "MOHD", &off, &sz));
    assert_int_equal(raw_u32(d + off + 4), groups);
    assert_true(raw_find(d, 0, size, "MOGI", &off, &sz));
    assert_int_equal(sz / 32, groups);
    assert_true(raw_find(d, 0, size, "MOGN", &off, &sz));
    free(d);
    uint32_t total = 0;
    for (uint32_t i = 0; i < groups; i++) {
        char suffix[16];
        snprintf(suffix, sizeof suffix, "_%03u.wmo", i);
        char path[4096];
        snprintf(path, sizeof path, "%.*s%s", (int)(strlen(root_path) - 4), root_path, suffix);
        total += check_written_group(path, expected_flags);
    }
    char next[4096];
    snprintf(next, sizeof next, "%.*s_%03u.wmo", (int)(strlen(root_path) - 4), root_path, groups);
    assert_false(wm_file_exists(next));
    return total;
}

static void test_collision_round_trip_of_every_group(void **state)
{
    (void)state;
    char **files = NULL;
    size_t n = wmt_corpus_list("wmo", wmo_suffix, &files);
    char *dir = wmt_make_temp_dir();
    size_t checked = 0;
    for (size_t i = 0; i < n; i++) {
        size_t size = 0;
        uint8_t *d = wmt_read_file(files[i], &size);
        int group = size >= 16 && memcmp(d + 12, "PGOM", 4) == 0;
        uint32_t raw = raw_server_collision_count(d, size);
        free(d);
        if (!group || raw == 0)
            continue;
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        wm_options opts;
        wm_options_init(&opts);
        wm_mesh first, second;
        wm_mesh_init(&first);
        wm_mesh_init(&second);
        assert_int_equal(wm_mesh_load(&ctx, files[i], wm_format_wmo.name, &opts, &first), WM_OK);
        assert_int_equal(first.triangle_count, raw);
        char name[32];
        snprintf(name, sizeof name, "rt%zu.wmo", i);
        char *out = wmt_join(dir, name);
        if (wm_mesh_save(&ctx, &first, out, wm_format_wmo.name, &opts, 0))
            fail_msg("%s: %s", files[i], wm_ctx_message(&ctx));
        assert_int_equal(check_written_set(out, 1, 0x9), raw);
        assert_int_equal(wm_mesh_load(&ctx, out, wm_format_wmo.name, &opts, &second), WM_OK);
        assert_same_triangles(&first, &second);
        wm_mesh_free(&ctx, &first);
        wm_mesh_free(&ctx, &second);
        free(out);
        checked++;
    }
    assert_int_equal(checked, 7);
    wmt_remove_tree(dir);
    free(dir);
    wmt_free_list(files, n);
}

static uint32_t count_groups(const char *root_path)
{
    size_t size = 0;
    uint8_t *d = wmt_read_file(root_path, &size);
    size_t off;
    uint32_t sz;
    assert_true(raw_find(d, 0, size, "MOHD", &off, &sz));
    uint32_t n = raw_u32(d + off + 4);
    free(d);
    return n;
}

static void write_read_compare(const wm_mesh *m, const char *out, wm_options *opts, uint32_t min_groups,
                               uint32_t expected_flags)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (wm_mesh_save(&ctx, m, out, wm_format_wmo.name, opts, 0))
        fail_msg("%s", wm_ctx_message(&ctx));
    uint32_t groups = count_groups(out);
    assert_true(groups >= min_groups);
    assert_int_equal(check_written_set(out, groups, expected_flags), m->triangle_count);
    wm_mesh back;
    wm_mesh_init(&back);
    assert_int_equal(wm_mesh_load(&ctx, out, wm_format_wmo.name, opts, &back), WM_OK);
    assert_same_triangles(m, &back);
    wm_mesh_free(&ctx, &back);
}

static void test_split_by_option_and_u16_limits(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_options opts;
    wm_options_init(&opts);
    wm_mesh m;

    /* 2,000 triangles in groups of at most 500 */
    make_grid(&m, 32, 1);
    assert_int_equal(wm_option_set(&ctx, &opts, "max-group-triangles", "500"), WM_OK);
    assert_int_equal(wm_option_set(&ctx, &opts, "indoor", "1"), WM_OK);
    char *small = wmt_join(dir, "small.wmo");
    write_read_compare(&m, small, &opts, (2 * 32 * 32 + 499) / 500, 0x2001);
    wm_mesh_free(&ctx, &m);

    /* 2 * 186^2 = 69,192 triangles: more than one group holds */
    wm_options_init(&opts);
    make_grid(&m, 186, 1);
    char *big = wmt_join(dir, "big.wmo");
    write_read_compare(&m, big, &opts, 2, 0x9);
    wm_mesh_free(&ctx, &m);

    /* 2 * 140^2 = 39,200 triangles on 4 * 140^2 = 78,400 vertices: the vertex limit splits */
    make_grid(&m, 140, 0);
    assert_true(m.vertex_count > 65535 && m.triangle_count < 65535);
    char *loose = wmt_join(dir, "loose.wmo");
    write_read_compare(&m, loose, &opts, 2, 0x9);
    wm_mesh_free(&ctx, &m);

    free(small);
    free(big);
    free(loose);
    wmt_remove_tree(dir);
    free(dir);
}

static void test_refuses_to_overwrite(void **state)
{
    (void)state;
    written_set w;
    set_open(&w, "o", 4);
    /* an existing group file alone blocks the write, and no root appears */
    wmt_write_file(w.group, "keep", 4);
    assert_int_equal(wm_mesh_save(&w.ctx, &w.m, w.root, wm_format_wmo.name, &w.opts, 0), WM_ERR_EXISTS);
    assert_non_null(strstr(wm_ctx_message(&w.ctx), "o_000.wmo"));
    assert_false(wm_file_exists(w.root));
    size_t size = 0;
    uint8_t *d = wmt_read_file(w.group, &size);
    assert_int_equal(size, 4);
    free(d);
    assert_int_equal(wm_mesh_save(&w.ctx, &w.m, w.root, wm_format_wmo.name, &w.opts, 1), WM_OK);
    assert_int_equal(wm_mesh_save(&w.ctx, &w.m, w.root, wm_format_wmo.name, &w.opts, 0), WM_ERR_EXISTS);
    assert_int_equal(check_written_set(w.root, 1, 0x9), w.m.triangle_count);
    set_close(&w);
}

/* With overwriting allowed, a root that cannot be put in place (here a
 * folder of that name) fails the write, and the group files this write
 * created are removed again: no partial output. */
static void test_failed_root_leaves_no_new_groups(void **state)
{
    (void)state;
    written_set w;
    set_open(&w, "f", 4);
    assert_int_equal(mkdir(w.root, 0755), 0);
    assert_int_not_equal(wm_mesh_save(&w.ctx, &w.m, w.root, wm_format_wmo.name, &w.opts, 1), WM_OK);
    assert_false(wm_file_exists(w.group));
    set_close(&w);
}

static void test_base_root_is_updated(void **state)
{
    (void)state;
    char *base = wmt_corpus_path_or_skip("wmo/warcraftnet__prisonHQ_Redridge.wmo");
    char *dir = wmt_make_temp_dir();
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_options opts;
    wm_options_init(&opts);
    opts.base_path = base;
    wm_mesh m;
    make_grid(&m, 6, 1);
    char *out = wmt_join(dir, "prison.wmo");
    assert_int_equal(wm_mesh_save(&ctx, &m, out, wm_format_wmo.name, &opts, 0), WM_OK);
    /* our group is number 3, after the base's three */
    char *ours = wmt_join(dir, "prison_003.wmo");
    assert_int_equal(check_written_group(ours, 0x9), m.triangle_count);
    char *none = wmt_join(dir, "prison_000.wmo");
    assert_false(wm_file_exists(none));
    size_t bs = 0, os = 0;
    uint8_t *b = wmt_read_file(base, &bs), *o = wmt_read_file(out, &os);
    size_t boff, ooff;
    uint32_t bsz, osz;
    assert_true(raw_find(o, 0, os, "MOHD", &ooff, &osz));
    assert_int_equal(raw_u32(o + ooff + 4), 4);
    assert_true(raw_find(o, 0, os, "MOGI", &ooff, &osz));
    assert_int_equal(osz / 32, 4);
    assert_true(raw_find(b, 0, bs, "MOGI", &boff, &bsz));
    assert_memory_equal(o + ooff, b + boff, bsz); /* the base's entries are kept */
    uint32_t name_offset = raw_u32(o + ooff + 3 * 32 + 28);
    assert_true(raw_find(o, 0, os, "MOGN", &ooff, &osz));
    assert_true(name_offset < osz);
    assert_string_equal((const char *)o + ooff + name_offset, "floor");
    /* chunks we do not touch are copied byte for byte */
    const char *kept[] = {"MOTX", "MOMT", "MODS", "MODN", "MODD", "MFOG", "MOPV", "MOPT", "MOPR"};
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        assert_true(raw_find(b, 0, bs, kept[i], &boff, &bsz));
        assert_true(raw_find(o, 0, os, kept[i], &ooff, &osz));
        assert_int_equal(bsz, osz);
        assert_memory_equal(b + boff, o + ooff, bsz);
    }
    free(b);
    free(o);
    wm_mesh_free(&ctx, &m);
    free(ours);
    free(none);
    free(out);
    wmt_remove_tree(dir);
    free(dir);
    free(base);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collision_round_trip_of_every_group),
        cmocka_unit_test(test_split_by_option_and_u16_limits),
        cmocka_unit_test(test_refuses_to_overwrite),
        cmocka_unit_test(test_failed_root_leaves_no_new_groups),
        cmocka_unit_test(test_base_root_is_updated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
