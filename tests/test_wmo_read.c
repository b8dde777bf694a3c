/* WMO reading: every corpus file parses with the counts its raw chunks
 * give, unmodified groups serialise byte-identical, collision counts match
 * the test's own MOPY count, LOD groups give no collision, corpus BSPs pass
 * the check, and OBJ output has the documented axes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "test_wmo_raw.h"
#include "wmo/wmo.h"

static const char *const wmo_suffix[] = {".wmo", NULL};

static int is_group_bytes(const uint8_t *d, size_t size)
{
    return size >= 16 && memcmp(d + 12, "PGOM", 4) == 0;
}

static void test_every_file_reads_with_raw_counts(void **state)
{
    (void)state;
    char **files = NULL;
    size_t n = wmt_corpus_list("wmo", wmo_suffix, &files);
    assert_int_equal(n, 14); /* the corpus README lists 14 WMO files */
    size_t roots = 0, groups = 0;
    for (size_t i = 0; i < n; i++) {
        size_t size = 0;
        uint8_t *d = wmt_read_file(files[i], &size);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        if (is_group_bytes(d, size)) {
            wmo_group g;
            wm_result r = wmo_group_load(&ctx, files[i], &g);
            if (r)
                fail_msg("%s: %s", files[i], wm_ctx_message(&ctx));
            size_t b = 0, e = 0, off = 0;
            uint32_t sz;
            assert_true(raw_group_range(d, size, &b, &e));
            assert_true(raw_find(d, b, e, "MOVT", &off, &sz));
            assert_int_equal(g.vertex_count, sz / 12);
            assert_true(raw_find(d, b, e, "MOVI", &off, &sz));
            assert_int_equal(g.triangle_count, sz / 6);
            if (raw_find(d, b, e, "MOPY", &off, &sz))
                assert_int_equal(sz / 2, g.triangle_count);
            else
                assert_true(wmo_group_is_lod(&g));
            assert_int_equal(g.header.flags, raw_u32(d + 20 + 8) /* MOGP payload at 20, flags at +8 */);
            wmo_group_free(&ctx, &g);
            groups++;
        } else {
            wmo_root root;
            wm_result r = wmo_root_load(&ctx, files[i], &root);
            if (r)
                fail_msg("%s: %s", files[i], wm_ctx_message(&ctx));
            size_t off;
            uint32_t sz;
            assert_true(raw_find(d, 0, size, "MOHD", &off, &sz));
            assert_int_equal(root.group_count, raw_u32(d + off + 4));
            assert_true(raw_find(d, 0, size, "MOGI", &off, &sz));
            assert_int_equal(root.group_info_count, sz / 32);
            assert_int_equal(root.group_count, root.group_info_count);
            if (raw_find(d, 0, size, "GFID", &off, &sz))
                assert_int_equal(root.file_id_count, sz / 4);
            wmo_root_free(&ctx, &root);
            roots++;
        }
        free(d);
    }
    assert_int_equal(roots, 5);
    assert_int_equal(groups, 9);
    wmt_free_list(files, n);
}

static void test_unmodified_groups_are_byte_identical(void **state)
{
    (void)state;
    char **files = NULL;
    size_t n = wmt_corpus_list("wmo", wmo_suffix, &files);
    size_t checked = 0;
    for (size_t i = 0; i < n; i++) {
        size_t size = 0;
        uint8_t *d = wmt_read_file(files[i], &size);
        if (is_group_bytes(d, size)) {
            wm_ctx ctx;
            wmt_ctx_init(&ctx);
            wmo_group g;
            assert_int_equal(wmo_group_load(&ctx, files[i], &g), WM_OK);
            wm_buffer b;
            wm_buffer_init(&b, &ctx);
            assert_int_equal(wmo_group_serialize(&ctx, &g, &b), WM_OK);
            assert_int_equal(b.size, size);
            if (memcmp(b.data, d, size) != 0)
                fail_msg("%s: serialised group differs from the file", files[i]);
            wm_buffer_free(&b);
            wmo_group_free(&ctx, &g);
            checked++;
        }
        free(d);
    }
    assert_int_equal(checked, 9);
    wmt_free_list(files, n);
}

/* Triangles per object after reading through the format descriptor. */
static uint32_t object_triangles(const wm_mesh *mesh, const char *name)
{
    uint32_t count = 0;
    for (uint32_t t = 0; t < mesh->triangle_count; t++)
        count += strcmp(mesh->object_names[mesh->objects[t]], name) == 0;
    return count;
}

static void test_rule_counts_match_raw_mopy(void **state)
{
    (void)state;
    char **files = NULL;
    size_t n = wmt_corpus_list("wmo", wmo_suffix, &files);
    size_t checked = 0;
    for (size_t i = 0; i < n; i++) {
        size_t size = 0;
        uint8_t *d = wmt_read_file(files[i], &size);
        if (!is_group_bytes(d, size)) {
            free(d);
            continue;
        }
        uint32_t expected = raw_server_collision_count(d, size);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        wm_mesh mesh;
        wm_mesh_init(&mesh);
        wm_options opts;
        wm_options_init(&opts);
        assert_int_equal(wm_mesh_load(&ctx, files[i], wm_format_wmo.name, &opts, &mesh), WM_OK);
        assert_int_equal(mesh.triangle_count, expected);
        for (uint32_t t = 0; t < mesh.triangle_count; t++)
            assert_int_equal(mesh.surfaces[t], WM_SURF_COLLISION);
        if (strstr(files[i], "_lod")) {
            assert_int_equal(expected, 0);
            assert_non_null(strstr(wmt_warnings, "LOD group"));
        }
        /* the notes: on the BfA tower group only 61 of 20,416 triangles collide */
        if (strstr(files[i], "tower01_000.wmo")) {
            assert_int_equal(expected, 61);
            wmo_group g;
            assert_int_equal(wmo_group_load(&ctx, files[i], &g), WM_OK);
            assert_int_equal(g.triangle_count, 20416);
            assert_int_equal(wmo_group_count_collision(&g, WMO_RULE_ALL), 20416);
            wmo_group_free(&ctx, &g);
        }
        /* --collision-rule all takes every triangle */
        wm_mesh all;
        wm_mesh_init(&all);
        assert_int_equal(wm_option_set(&ctx, &opts, "collision-rule", "all"), WM_OK);
        assert_int_equal(wm_mesh_load(&ctx, files[i], wm_format_wmo.name, &opts, &all), WM_OK);
        size_t b = 0, e = 0, off = 0;
        uint32_t sz;
        assert_true(raw_group_range(d, size, &b, &e));
        assert_true(raw_find(d, b, e, "MOVI", &off, &sz));
        if (raw_find(d, b, e, "MOPY", &off, &sz))
            assert_int_equal(all.triangle_count, sz / 2);
        else
            assert_int_equal(all.triangle_count, 0);
        wm_mesh_free(&ctx, &all);
        wm_mesh_free(&ctx, &mesh);
        free(d);
        checked++;
    }
    assert_int_equal(checked, 9);
    wmt_free_list(files, n);
}

static void test_root_merges_groups_as_named_objects(void **state)
{
    (void)state;
    char *root = wmt_corpus_path_or_skip("wmo/warcraftnet__prisonHQ_Redridge.wmo");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh mesh;
    wm_mesh_init(&mesh);
    wm_options opts;
    wm_options_init(&opts);
    assert_int_equal(wm_mesh_load(&ctx, root, wm_format_wmo.name, &opts, &mesh), WM_OK);
    assert_int_equal(mesh.object_count, 3);
    uint32_t total = 0;
    for (int i = 0; i < 3; i++) {
        char rel[96], name[96];
        snprintf(rel, sizeof rel, "wmo/warcraftnet__prisonHQ_Redridge_%03d.wmo", i);
        snprintf(name, sizeof name, "warcraftnet__prisonHQ_Redridge_%03d", i);
        char *path = wmt_corpus_path_or_skip(rel);
        size_t size = 0;
        uint8_t *d = wmt_read_file(path, &size);
        uint32_t expected = raw_server_collision_count(d, size);
        assert_int_equal(object_triangles(&mesh, name), expected);
        total += expected;
        free(d);
        free(path);
    }
    assert_int_equal(mesh.triangle_count, total);
    /* walkable = normal within 60 degrees of +Z, recomputed here */
    for (uint32_t t = 0; t < mesh.triangle_count; t++) {
        const float *a = &mesh.positions[3 * mesh.indices[3 * t]], *b = &mesh.positions[3 * mesh.indices[3 * t + 1]],
                    *c = &mesh.positions[3 * mesh.indices[3 * t + 2]];
        double u[3], v[3];
        for (int k = 0; k < 3; k++) {
            u[k] = b[k] - a[k];
            v[k] = c[k] - a[k];
        }
        double nx = u[1] * v[2] - u[2] * v[1], ny = u[2] * v[0] - u[0] * v[2], nz = u[0] * v[1] - u[1] * v[0];
        double len = sqrt(nx * nx + ny * ny + nz * nz);
        if (len < 1e-6)
            continue;
        double cosine = nz / len;
        if (fabs(cosine - cos(60.0 * 3.14159265358979 / 180.0)) > 1e-4)
            assert_int_equal(mesh.walkable[t], cosine >= cos(60.0 * 3.14159265358979 / 180.0));
    }
    wm_mesh_free(&ctx, &mesh);
    free(root);
}

static void test_corpus_bsp_passes_check(void **state)
{
    (void)state;
    char **files = NULL;
    size_t n = wmt_corpus_list("wmo", wmo_suffix, &files);
    size_t checked = 0;
    for (size_t i = 0; i < n; i++) {
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        wmo_group g;
        size_t size = 0;
        uint8_t *d = wmt_read_file(files[i], &size);
        int group = is_group_bytes(d, size);
        free(d);
        if (!group)
            continue;
        assert_int_equal(wmo_group_load(&ctx, files[i], &g), WM_OK);
        if (!wmo_group_is_lod(&g)) {
            wmo_bsp_view v = {g.nodes, g.node_count, g.refs, g.ref_count, g.positions, g.indices, g.triangle_count};
            uint32_t problems = 99;
            assert_int_equal(wmo_bsp_check(&ctx, &v, NULL, NULL, &problems), WM_OK);
            if (problems)
                fail_msg("%s: %u BSP problems", files[i], problems);
            /* the check must notice a damaged tree: drop one leaf's triangles */
            for (uint32_t k = 0; k < g.node_count; k++)
                if (g.nodes[k].flags & WMO_BSP_LEAF) {
                    for (uint32_t f = 0; f < g.nodes[k].face_count; f++)
                        g.refs[g.nodes[k].first_face + f] = g.refs[g.nodes[k].first_face];
                    break;
                }
            assert_int_equal(wmo_bsp_check(&ctx, &v, NULL, NULL, &problems), WM_OK);
            assert_true(problems > 0);
            checked++;
        }
        wmo_group_free(&ctx, &g);
    }
    assert_int_equal(checked, 7);
    wmt_free_list(files, n);
}

/* Vertices of an OBJ file ("v x y z" lines). */
static float *obj_vertices(const char *path, size_t *count)
{
    size_t size = 0;
    char *text = (char *)wmt_read_file(path, &size);
    size_t cap = 1024, n = 0;
    float *v = malloc(cap * 3 * sizeof *v);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        float x, y, z;
        if (sscanf(line, "v %f %f %f", &x, &y, &z) == 3) {
            if (n == cap)
                v = realloc(v, (cap *= 2) * 3 * sizeof *v);
            v[3 * n] = x;
            v[3 * n + 1] = y;
            v[3 * n + 2] = z;
            n++;
        }
    }
    free(text);
    *count = n;
    return v;
}

static int has_vertex(const float *v, size_t n, float x, float y, float z)
{
    for (size_t i = 0; i < n; i++)
        if (fabsf(v[3 * i] - x) < 1e-3f && fabsf(v[3 * i + 1] - y) < 1e-3f && fabsf(v[3 * i + 2] - z) < 1e-3f)
            return 1;
    return 0;
}

static void test_obj_axes(void **state)
{
    (void)state;
    char *group = wmt_corpus_path_or_skip("wmo/warcraftnet__duskwood_lumbermill_000.wmo");
    char *dir = wmt_make_temp_dir();
    char *yup = wmt_join(dir, "y.obj"), *zup = wmt_join(dir, "z.obj");
    const char *argv_y[] = {"convert", group, yup, NULL};
    const char *argv_z[] = {"convert", group, zup, "--up", "z", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, argv_y), 0);
    assert_int_equal(wmt_run_cli(NULL, NULL, argv_z), 0);
    size_t ny = 0, nz = 0, size = 0;
    float *vy = obj_vertices(yup, &ny), *vz = obj_vertices(zup, &nz);
    uint8_t *d = wmt_read_file(group, &size);
    size_t b = 0, e = 0, off = 0;
    uint32_t sz;
    assert_true(raw_group_range(d, size, &b, &e));
    assert_true(raw_find(d, b, e, "MOVT", &off, &sz));
    assert_true(ny > 0 && nz > 0);
    /* every group in this file collides (0x20 without 0x04), so every raw vertex reaches the OBJ */
    for (uint32_t i = 0; i < sz / 12; i += 7) {
        float x = raw_f32(d + off + 12 * i), y = raw_f32(d + off + 12 * i + 4), z = raw_f32(d + off + 12 * i + 8);
        assert_true(has_vertex(vz, nz, x, y, z));
        assert_true(has_vertex(vy, ny, x, z, -y));
    }
    free(d);
    free(vy);
    free(vz);
    free(yup);
    free(zup);
    wmt_remove_tree(dir);
    free(dir);
    free(group);
}

static void test_root_via_cli_and_missing_groups(void **state)
{
    (void)state;
    char *root = wmt_corpus_path_or_skip("wmo/warcraftnet__prisonHQ_Redridge.wmo");
    char *dir = wmt_make_temp_dir();
    char *obj = wmt_join(dir, "prison.obj");
    const char *argv[] = {"convert", root, obj, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, argv), 0);
    size_t size = 0;
    char *text = (char *)wmt_read_file(obj, &size);
    char *nul = realloc(text, size + 1);
    nul[size] = '\0';
    for (int i = 0; i < 3; i++) {
        char name[64];
        snprintf(name, sizeof name, "warcraftnet__prisonHQ_Redridge_%03d", i);
        if (!strstr(nul, name))
            fail_msg("OBJ has no object %s", name);
    }
    free(nul);

    /* a root whose group files are absent: a clear error naming the group file */
    size_t root_size = 0;
    uint8_t *bytes = wmt_read_file(root, &root_size);
    char *lonely = wmt_join(dir, "lonely.wmo");
    wmt_write_file(lonely, bytes, root_size);
    free(bytes);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_options opts;
    wm_options_init(&opts);
    wm_mesh mesh;
    wm_mesh_init(&mesh);
    assert_int_equal(wm_mesh_load(&ctx, lonely, wm_format_wmo.name, &opts, &mesh), WM_ERR_IO);
    assert_non_null(strstr(wm_ctx_message(&ctx), "lonely_000.wmo"));
    wm_mesh_free(&ctx, &mesh);
    char *err = NULL;
    const char *argv2[] = {"convert", lonely, obj, "--force", NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, argv2), 2);
    assert_non_null(strstr(err, "lonely_000.wmo"));
    free(err);
    free(lonely);
    free(obj);
    wmt_remove_tree(dir);
    free(dir);
    free(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_file_reads_with_raw_counts),
        cmocka_unit_test(test_unmodified_groups_are_byte_identical),
        cmocka_unit_test(test_rule_counts_match_raw_mopy),
        cmocka_unit_test(test_root_merges_groups_as_named_objects),
        cmocka_unit_test(test_corpus_bsp_passes_check),
        cmocka_unit_test(test_obj_axes),
        cmocka_unit_test(test_root_via_cli_and_missing_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
