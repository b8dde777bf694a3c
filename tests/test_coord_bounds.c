/* Coordinates beyond WM_COORD_LIMIT (issue 27.9): 1e7 game units, where a float still has
 * steps of one unit (2^24 = 16,777,216 is the first float whose step is 2). `position 1e39`
 * in a .wok.ascii became an infinite header position that validate passed. The ASCII reader
 * refuses such values naming the line; BWM validate flags non-finite and out-of-bound header
 * points (FORMAT-NOTES 1: hooks at 0x0C-0x3B, position at 0x3C) and vertices; and no writer
 * gets a mesh beyond the bound. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"

static wm_result parse(const char *text, wm_ctx *ctx, const double *room_offset)
{
    wm_mesh mesh;
    wm_mesh_init(&mesh);
    wmt_ctx_init(ctx);
    wm_result r = bwm_ascii_parse(ctx, text, strlen(text), "room.wok.ascii", room_offset, &mesh);
    wm_mesh_free(ctx, &mesh);
    return r;
}

static void expect_refused(const char *text, const char *naming)
{
    wm_ctx ctx;
    assert_int_equal(parse(text, &ctx, NULL), WM_ERR_CORRUPT);
    if (!strstr(wm_ctx_message(&ctx), naming)) fail_msg("expected \"%s\" in: %s", naming, wm_ctx_message(&ctx));
}

static void test_ascii_values_beyond_the_bound_name_their_line(void **state)
{
    (void)state;
    expect_refused("node trimesh w\n  position 1e39 0 0\n  verts 3\n 0 0 0\n 1 0 0\n 0 1 0\n  faces 1\n"
                   " 0 1 2 1 0 0 0 4\nendnode\n",
                   "line 2: position coordinate 1e39 beyond the bound");
    expect_refused("node trimesh w\n  verts 3\n 0 0 0\n 1 -2e7 0\n 0 1 0\n  faces 1\n 0 1 2 1 0 0 0 4\nendnode\n",
                   "line 4: vertex row coordinate -2e7 beyond the bound");
    expect_refused("node dummy w_use01\n  position 0 0 1.5e7\nendnode\nnode trimesh w\n  verts 3\n 0 0 0\n 1 0 0\n"
                   " 0 1 0\n  faces 1\n 0 1 2 1 0 0 0 4\nendnode\n",
                   "line 2: position coordinate 1.5e7");
    /* within the bound each, beyond it once placed: named at the node's end */
    expect_refused("node trimesh w\n  position 9e6 0 0\n  verts 3\n 0 0 0\n 2e6 0 0\n 0 1 0\n  faces 1\n"
                   " 0 1 2 1 0 0 0 4\nendnode\n",
                   "line 9: the node's vertex 1 placed at (1.1e+07, 0, 0)");
    /* the bound itself is allowed */
    wm_ctx ctx;
    assert_int_equal(parse("node trimesh w\n  position 0 0 0\n  verts 3\n 0 0 0\n 1e7 0 0\n 0 -1e7 0\n  faces 1\n"
                           " 0 1 2 1 0 0 0 4\nendnode\n",
                           &ctx, NULL),
                     WM_OK);
    wm_options opts;
    wm_options_init(&opts);
    assert_int_equal(wm_option_set(&ctx, &opts, "room-offset", "0,2e7,0"), WM_OK);
    double offset[3];
    int given = 0;
    assert_int_equal(bwm_room_offset_option(&ctx, &opts, offset, &given), WM_ERR_OPTION);
    assert_non_null(strstr(wm_ctx_message(&ctx), "--room-offset"));
}

/* One walkable face with its second corner at (x, 0, 0). */
static void one_face(wm_ctx *ctx, wm_mesh *m, float x)
{
    wm_mesh_init(m);
    assert_int_equal(wm_mesh_add_vertex(ctx, m, 0, 0, 0, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(ctx, m, x, 0, 0, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(ctx, m, 0, 4, 0, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(ctx, m, 0, 1, 2, WM_SURF_STONE, 1), WM_OK);
}

/* A WOK written here (one walkable face), then its header patched. */
static void write_patched_wok(const char *path, size_t offset, float value)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    one_face(&ctx, &m, 4);
    assert_int_equal(wm_mesh_save(&ctx, &m, path, NULL, NULL, 1), WM_OK);
    wm_mesh_free(&ctx, &m);
    size_t size = 0;
    uint8_t *bytes = wmt_read_file(path, &size);
    assert_true(size > offset + 4);
    memcpy(bytes + offset, &value, sizeof value); /* little-endian float, as the file's */
    wmt_write_file(path, bytes, size);
    free(bytes);
}

static uint32_t validate_errors(const char *path, const char *naming)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_report report;
    wm_report_init(&report, &ctx);
    wm_result r = wm_validate(&ctx, path, NULL, NULL, &report);
    uint32_t errors = report.errors;
    int named = 0;
    for (uint32_t i = 0; i < report.count; i++)
        named |= report.items[i].severity == WM_SEV_ERROR && strstr(report.items[i].key, naming) != NULL;
    if (errors) assert_true(named);
    assert_int_equal(r, WM_OK); /* the findings are in the report */
    wm_report_free(&report);
    return errors;
}

static void test_validate_flags_header_points_and_writers_refuse_them(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *ok = wmt_join(dir, "ok.wok"), *inf = wmt_join(dir, "inf.wok"), *far = wmt_join(dir, "far.wok");
    char *out = wmt_join(dir, "out.wok"), *obj = wmt_join(dir, "out.obj");
    write_patched_wok(ok, 0x3C, 1.0f);
    write_patched_wok(inf, 0x3C, INFINITY);
    write_patched_wok(far, 0x0C, 3e7f);
    assert_int_equal(validate_errors(ok, "header"), 0);
    assert_int_equal(validate_errors(inf, "header 0x3C"), 1);
    assert_int_equal(validate_errors(far, "header 0x0C"), 1);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    assert_int_equal(wm_convert(&ctx, inf, out, NULL, NULL, NULL, 0), WM_ERR_INVALID);
    assert_non_null(strstr(wm_ctx_message(&ctx), "bwm_position"));
    assert_int_equal(wm_convert(&ctx, far, out, NULL, NULL, NULL, 0), WM_ERR_INVALID); /* kept byte for byte else */
    assert_non_null(strstr(wm_ctx_message(&ctx), "relative use hook 1 (0x0C)"));
    assert_false(wm_file_exists(out));
    /* an OBJ has no place for a WOK's hooks: what it writes is within the bound */
    assert_int_equal(wm_convert(&ctx, far, obj, NULL, NULL, NULL, 0), WM_OK);
    /* what convert writes passes validate */
    assert_int_equal(wm_convert(&ctx, ok, out, NULL, NULL, NULL, 0), WM_OK);
    assert_int_equal(validate_errors(out, "header"), 0);
    wmt_remove_tree(dir);
    free(ok);
    free(inf);
    free(far);
    free(out);
    free(obj);
    free(dir);
}

/* Any writer, any format: a vertex or a point beyond the bound is refused, named, unwritten. */
static void test_no_writer_gets_a_mesh_beyond_the_bound(void **state)
{
    (void)state;
    static const char *const names[] = {"m.wok", "m.obj", "m.trx", "m.wok.ascii"};
    char *dir = wmt_make_temp_dir();
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    one_face(&ctx, &m, 2e7f);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *path = wmt_join(dir, names[i]);
        assert_int_equal(wm_mesh_save(&ctx, &m, path, NULL, NULL, 0), WM_ERR_INVALID);
        assert_non_null(strstr(wm_ctx_message(&ctx), "vertex 1 at (2e+07, 0, 0)"));
        assert_false(wm_file_exists(path));
        free(path);
    }
    m.positions[3] = 4;
    const float far_point[3] = {0, 0, -1e8f};
    assert_int_equal(wm_mesh_set_point(&ctx, &m, BWM_POINT_HOOK1, far_point), WM_OK);
    char *path = wmt_join(dir, "m.pwk");
    assert_int_equal(wm_mesh_save(&ctx, &m, path, NULL, NULL, 0), WM_ERR_INVALID);
    assert_non_null(strstr(wm_ctx_message(&ctx), BWM_POINT_HOOK1));
    assert_false(wm_file_exists(path));
    free(path);
    wm_mesh_free(&ctx, &m);
    wmt_remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ascii_values_beyond_the_bound_name_their_line),
        cmocka_unit_test(test_validate_flags_header_points_and_writers_refuse_them),
        cmocka_unit_test(test_no_writer_gets_a_mesh_beyond_the_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
