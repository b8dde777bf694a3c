/* The public per-triangle tables (wm_nwn2_triangles_read, wm_wmo_triangles_load) on the corpus:
 * they line up with the mesh wm_mesh_load makes with the same options, WMO records equal the
 * group files' raw MOPY bytes (test_wmo_raw.h; MOPY = {u8 flags, u8 material} per triangle,
 * FORMAT-NOTES section 3), NWN2 tiles and
 * islands stay in the file's ranges; damaged and cut files fail cleanly. (Tiles and islands are
 * compared with nwn-lib-d's dump in tools/python/tests/test_tables.py.) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "test_wmo_raw.h"

static const char *const WMO_SUFFIXES[] = {".wmo", NULL};
static const char *const NWN2_SUFFIXES[] = {".trx", ".trn", NULL};

/* The raw MOPY records of a group file (NULL with *count 0 when it has none: LOD groups). */
static const uint8_t *raw_mopy(const uint8_t *file, size_t size, uint32_t *count)
{
    size_t begin = 0, end = 0, at = 0;
    uint32_t bytes = 0;
    assert_true(raw_group_range(file, size, &begin, &end));
    int found = raw_find(file, begin, end, "MOPY", &at, &bytes);
    *count = found ? bytes / 2 : 0;
    return found ? file + at : NULL;
}

/* Group file i of a WMO read: "X_NNN.wmo" beside a root, or the file itself. */
static char *group_path(const char *path, const uint8_t *file, size_t size, uint32_t i, uint32_t *groups)
{
    size_t mohd = 0;
    uint32_t mohd_size = 0;
    int root = raw_find(file, 0, size, "MOHD", &mohd, &mohd_size);
    *groups = root ? raw_u32(file + mohd + 4) : 1;
    char *out = malloc(strlen(path) + 8);
    if (root)
        sprintf(out, "%.*s_%03u.wmo", (int)(strlen(path) - 4), path, i);
    else
        strcpy(out, path);
    return out;
}

static void check_wmo(const char *path, const char *rule)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_options opts;
    wm_options_init(&opts);
    assert_int_equal(wm_option_set(&ctx, &opts, "collision-rule", rule), WM_OK);
    wm_wmo_triangles tables;
    wm_mesh mesh;
    assert_int_equal(wm_wmo_triangles_load(&ctx, path, &opts, &tables), WM_OK);
    assert_int_equal(wm_mesh_load(&ctx, path, "wmo", &opts, &mesh), WM_OK);
    assert_int_equal(tables.count, mesh.triangle_count);
    size_t size = 0;
    uint8_t *file = wmt_read_file(path, &size);
    uint32_t groups = 1;
    for (uint32_t g = 0; g < groups; g++) {
        char *group = group_path(path, file, size, g, &groups);
        size_t group_size = 0;
        uint8_t *bytes = wmt_read_file(group, &group_size);
        uint32_t records = 0, next = 0;
        const uint8_t *mopy = raw_mopy(bytes, group_size, &records);
        for (uint32_t t = 0; t < mesh.triangle_count; t++) {
            if (mesh.objects[t] != g)
                continue;
            uint32_t i = tables.index[t];
            assert_true(i < records && (next == 0 || i >= next)); /* in range, in the group's order */
            if (strcmp(rule, "all") == 0)
                assert_int_equal(i, next); /* every triangle */
            assert_int_equal(tables.flags[t], mopy[2 * i]);
            assert_int_equal(tables.material[t], mopy[2 * i + 1]);
            next = i + 1;
        }
        free(bytes);
        free(group);
    }
    free(file);
    wm_mesh_free(&ctx, &mesh);
    wm_wmo_triangles_free(&ctx, &tables);
}

static void test_wmo_records_equal_raw_mopy(void **state)
{
    (void)state;
    char **files = NULL;
    size_t n = wmt_corpus_list("wmo", WMO_SUFFIXES, &files);
    for (size_t i = 0; i < n; i++) {
        check_wmo(files[i], "server");
        check_wmo(files[i], "all");
    }
    assert_true(n >= 10);
    wmt_free_list(files, n);
}

static void check_nwn2(const char *path, const char *option)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_options opts;
    wm_options_init(&opts);
    if (option)
        assert_int_equal(wm_option_set(&ctx, &opts, option, "1"), WM_OK);
    size_t size = 0;
    uint8_t *data = wmt_read_file(path, &size);
    wm_nwn2_triangles tables;
    wm_mesh mesh;
    assert_int_equal(wm_nwn2_triangles_read(&ctx, data, size, path, &opts, &tables), WM_OK);
    assert_int_equal(wm_mesh_load(&ctx, path, "nwn2", &opts, &mesh), WM_OK);
    assert_int_equal(tables.count, mesh.triangle_count);
    for (uint32_t t = 0; t < tables.count; t++) {
        assert_true(t == 0 || tables.file_triangle[t] > tables.file_triangle[t - 1]);
        if (option && strcmp(option, "keep-border") == 0)
            assert_int_equal(tables.file_triangle[t], t);
        assert_true(tables.tile[t] == WM_NWN2_NONE || tables.tile[t] < tables.grid_width * tables.grid_height);
        /* a TRN's triangles name islands it has no table for yet (island count 0) */
        assert_true(tables.island[t] == WM_NWN2_NONE || tables.island_count == 0 ||
                    tables.island[t] < tables.island_count);
        if (option && strcmp(option, "walkable-only") == 0)
            assert_true(mesh.walkable[t]);
    }
    wm_mesh_free(&ctx, &mesh);
    wm_nwn2_triangles_free(&ctx, &tables);
    free(data);
}

static void test_nwn2_tables_line_up_with_the_mesh(void **state)
{
    (void)state;
    char **files = NULL;
    size_t n = wmt_corpus_list("nwn2", NWN2_SUFFIXES, &files);
    for (size_t i = 0; i < n; i++) {
        check_nwn2(files[i], NULL);
        check_nwn2(files[i], "keep-border");
        check_nwn2(files[i], "walkable-only");
    }
    assert_true(n >= 10);
    wmt_free_list(files, n);
}

static void test_damaged_and_cut_files_fail_cleanly(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_nwn2_triangles tables;
    static const uint8_t empty[] = {'N', 'W', 'N', '2', 2, 0, 3, 0, 0, 0, 0, 0}; /* no packet */
    assert_int_equal(wm_nwn2_triangles_read(&ctx, empty, sizeof empty, "empty.trx", NULL, &tables), WM_ERR_CORRUPT);
    wm_nwn2_triangles_free(&ctx, &tables);
    assert_int_equal(wm_nwn2_triangles_read(&ctx, (const uint8_t *)"BWM V1.0", 8, "x.trx", NULL, &tables),
                     WM_ERR_NOT_FORMAT);
    wm_nwn2_triangles_free(&ctx, &tables);
    char *path = wmt_corpus_path_or_skip("nwn2/CSLMordMansion.TRX");
    size_t size = 0;
    uint8_t *data = wmt_read_file(path, &size);
    uint32_t failed = 0, cuts = 0;
    for (size_t cut = 0; cut < size; cut += size / 97 + 1, cuts++) { /* every cut fails, none crashes or leaks */
        failed += wm_nwn2_triangles_read(&ctx, data, cut, "cut.trx", NULL, &tables) != WM_OK;
        wm_nwn2_triangles_free(&ctx, &tables);
    }
    assert_int_equal(failed, cuts);
    wm_wmo_triangles wmo;
    assert_int_equal(wm_wmo_triangles_load(&ctx, path, NULL, &wmo), WM_ERR_NOT_FORMAT);
    wm_wmo_triangles_free(&ctx, &wmo);
    free(data);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wmo_records_equal_raw_mopy),
        cmocka_unit_test(test_nwn2_tables_line_up_with_the_mesh),
        cmocka_unit_test(test_damaged_and_cut_files_fail_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
