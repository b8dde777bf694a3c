/* WMO writing: collision round trips of every corpus group, what the
 * written files contain (checked on raw bytes against FORMAT-NOTES), the
 * BSP check on every written group, splitting past the u16 limits,
 * overwrite refusal, --base root updates and MLIQ liquids. */
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

/* A flat grid of quads, optionally with every triangle on its own vertices. */
static void make_grid(wm_mesh *m, uint32_t cells, int shared)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_mesh_init(m);
    assert_int_equal(wm_mesh_add_object(&ctx, m, "floor", NULL), WM_OK);
    for (uint32_t y = 0; y <= cells && shared; y++)
        for (uint32_t x = 0; x <= cells; x++)
            assert_int_equal(wm_mesh_add_vertex(&ctx, m, (float)x, (float)y, 0.01f * (float)(x % 7), NULL), WM_OK);
    for (uint32_t y = 0; y < cells; y++)
        for (uint32_t x = 0; x < cells; x++) {
            uint32_t v[4];
            for (int k = 0; k < 4; k++) {
                uint32_t vx = x + (k & 1), vy = y + (k >> 1);
                if (shared)
                    v[k] = vy * (cells + 1) + vx;
                else
                    assert_int_equal(wm_mesh_add_vertex(&ctx, m, (float)vx, (float)vy, 0.01f * (float)(vx % 7), &v[k]),
                                     WM_OK);
            }
            assert_int_equal(wm_mesh_add_triangle(&ctx, m, v[0], v[1], v[3], WM_SURF_COLLISION, 1), WM_OK);
            assert_int_equal(wm_mesh_add_triangle(&ctx, m, v[0], v[3], v[2], WM_SURF_COLLISION, 1), WM_OK);
        }
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

/* A fresh folder with output names "<stem>.wmo" / "<stem>_000.wmo", a
 * context, options and a grid mesh: the setting most writing tests share. */
typedef struct written_set {
    char *dir, *root, *group;
    wm_ctx ctx;
    wm_options opts;
    wm_mesh m;
} written_set;

static void set_open(written_set *s, const char *stem, uint32_t cells)
{
    char name[64];
    s->dir = wmt_make_temp_dir();
    snprintf(name, sizeof name, "%s.wmo", stem);
    s->root = wmt_join(s->dir, name);
    snprintf(name, sizeof name, "%s_000.wmo", stem);
    s->group = wmt_join(s->dir, name);
    wmt_ctx_init(&s->ctx);
    wm_options_init(&s->opts);
    make_grid(&s->m, cells, 1);
}

static void set_close(written_set *s)
{
    wm_mesh_free(&s->ctx, &s->m);
    free(s->root);
    free(s->group);
    wmt_remove_tree(s->dir);
    free(s->dir);
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
        cmocka_unit_test(test_collision_round_trip_of_every_group),
        cmocka_unit_test(test_split_by_option_and_u16_limits),
        cmocka_unit_test(test_refuses_to_overwrite),
        cmocka_unit_test(test_failed_root_leaves_no_new_groups),
        cmocka_unit_test(test_base_root_is_updated),
        cmocka_unit_test(test_liquids_as_separate_surface),
        cmocka_unit_test(test_validate_exit_codes),
        cmocka_unit_test(test_bsp_builder_on_random_soups),
        cmocka_unit_test(test_group_skips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
