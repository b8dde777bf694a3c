/* Hostile input (issue 19): empty meshes, corrupt AABB trees, a --base of the
 * wrong format and "nothing to write" each end with the README's exit code
 * (2 input error, 4 wrong format), and the library takes no NULL shortcuts
 * (the sanitizer build aborts on memcpy/memcmp with a NULL pointer). The
 * walkmeshes are built from the shipped sample corpus/courtyard.obj, so the
 * tests run without the shared corpus. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "test_support.h"
#include "bwm/bwm.h"

/* The BWM header (FORMAT-NOTES section 1): 8 magic, type, 15 floats, then 16 counts/offsets. */
#define BWM_COUNTS 72
#define BWM_AABB_COUNT (BWM_COUNTS + 7 * 4)
#define BWM_AABB_OFFSET (BWM_COUNTS + 8 * 4)
#define AABB_NODE_SIZE 44
#define AABB_LEFT 36
#define AABB_RIGHT 40

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* corpus/courtyard.obj converted to DIR/courtyard.wok by the CLI; returns its path. */
static char *sample_wok(const char *dir)
{
    char *obj = wmt_sample_path("courtyard.obj");
    char *wok = wmt_join(dir, "courtyard.wok");
    const char *argv[] = {"convert", obj, wok, "--force", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, argv), 0);
    free(obj);
    return wok;
}

/* An area header announcing nothing at all: a valid, empty .wok. */
static char *empty_wok(const char *dir)
{
    uint8_t header[BWM_COUNTS + 64] = "BWM V1.0";
    put32(header + 8, 1);
    char *path = wmt_join(dir, "empty.wok");
    wmt_write_file(path, header, sizeof header);
    return path;
}

static void run_expect(const char *const *argv, int code, const char *in_stderr)
{
    char *err = NULL;
    int got = wmt_run_cli(NULL, &err, argv);
    if (got != code || (in_stderr && !strstr(err, in_stderr)))
        fail_msg("walkmesh %s %s: exit %d (expected %d), stderr: %s", argv[0], argv[1], got, code, err);
    free(err);
}

static void empty_mesh_takes_no_null_pointer(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh mesh;
    wm_mesh_init(&mesh); /* no arrays at all */
    bwm_file file;
    assert_int_equal(bwm_from_mesh(&ctx, &mesh, BWM_TYPE_AREA, -1, BWM_PLANES_BIOWARE, &file), WM_OK);
    assert_int_equal(file.face_count, 0);
    assert_true(bwm_matches_mesh(&ctx, &file, &mesh));
    bwm_file_free(&ctx, &file);
    assert_int_equal(bwm_from_mesh(&ctx, &mesh, BWM_TYPE_PLACEABLE, -1, BWM_PLANES_BIOWARE, &file), WM_OK);
    bwm_file_free(&ctx, &file);

    static const char text[] = "node trimesh empty\n  verts 0\n  faces 0\nendnode\n";
    assert_int_equal(bwm_ascii_parse(&ctx, text, sizeof text - 1, "empty.wok.ascii", NULL, &mesh), WM_OK);
    assert_int_equal(mesh.triangle_count, 0);
    wm_mesh_free(&ctx, &mesh);
}

/* Node 0 of the sample's tree rewritten: `field` set to `value`. */
static char *broken_tree(const char *dir, const char *name, unsigned field, uint32_t value)
{
    char *wok = sample_wok(dir);
    size_t size;
    uint8_t *data = wmt_read_file(wok, &size);
    uint32_t nodes = get32(data + BWM_AABB_COUNT), offset = get32(data + BWM_AABB_OFFSET);
    assert_true(nodes > 2 && offset + (size_t)nodes * AABB_NODE_SIZE <= size);
    put32(data + offset + field, value == UINT32_MAX ? nodes + 1000 : value);
    char *path = wmt_join(dir, name);
    wmt_write_file(path, data, size);
    free(data);
    free(wok);
    return path;
}

static void corrupt_aabb_tree_is_an_input_error_for_every_command(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *paths[2] = {broken_tree(dir, "cycle.wok", AABB_RIGHT, 0), broken_tree(dir, "range.wok", AABB_LEFT, UINT32_MAX)};
    char *svg = wmt_join(dir, "out.svg"), *obj = wmt_join(dir, "out.obj");
    for (int i = 0; i < 2; i++) {
        const char *query[] = {"query", paths[i], "height", "0", "0", NULL};
        const char *info[] = {"info", paths[i], NULL};
        const char *convert[] = {"convert", paths[i], obj, "--force", NULL};
        const char *render[] = {"render", paths[i], "-o", svg, NULL};
        const char *validate[] = {"validate", paths[i], NULL};
        const char *const *commands[] = {query, info, convert, render, validate};
        for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) run_expect(commands[c], 2, "AABB node 0");
    }
    /* the library's own walk refuses a tree broken in memory too, instead of answering "no face" */
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    char *wok = sample_wok(dir);
    bwm_file f;
    assert_int_equal(bwm_read_file(&ctx, wok, &f), WM_OK);
    float z;
    const float *v = f.vertices;
    assert_int_equal(bwm_height_at(&ctx, &f, v[0], v[1], HUGE_VALF, &z), WM_OK);
    f.aabb[0].right = 0;
    assert_int_equal(bwm_height_at(&ctx, &f, v[0], v[1], HUGE_VALF, &z), WM_ERR_CORRUPT);
    assert_non_null(strstr(wm_ctx_message(&ctx), "AABB node 0"));
    bwm_file_free(&ctx, &f);
    free(wok);
    free(svg);
    free(obj);
    free(paths[0]);
    free(paths[1]);
    wmt_remove_tree(dir);
    free(dir);
}

static void base_of_the_wrong_format_is_exit_4(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *obj = wmt_sample_path("courtyard.obj");
    char *wok = sample_wok(dir);
    const char *outputs[] = {"out.trx", "out.wmo", "out.wok"};
    const char *bases[] = {wok, wok, obj};
    for (int i = 0; i < 3; i++) {
        char *out = wmt_join(dir, outputs[i]);
        const char *argv[] = {"convert", obj, out, "--base", bases[i], "--force", NULL};
        run_expect(argv, 4, "needs a base of format");
        free(out);
    }
    free(obj);
    free(wok);
    wmt_remove_tree(dir);
    free(dir);
}

static void nothing_to_write_is_an_input_error(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *empty = empty_wok(dir);
    const char *outputs[] = {"out.obj", "out.wok", "out.pwk", "out.wmo", "out.stl"};
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
        char *out = wmt_join(dir, outputs[i]);
        const char *argv[] = {"convert", empty, out, "--force", NULL};
        run_expect(argv, 2, "nothing to write");
        free(out);
    }
    free(empty);
    wmt_remove_tree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_mesh_takes_no_null_pointer),
        cmocka_unit_test(corrupt_aabb_tree_is_an_input_error_for_every_command),
        cmocka_unit_test(base_of_the_wrong_format_is_exit_4),
        cmocka_unit_test(nothing_to_write_is_an_input_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
