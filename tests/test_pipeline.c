/* The high-level calls (wm_pipeline.h): load, save, convert, info and validate by path and
 * from memory, checked against the numbers in the files' own headers (FORMAT-NOTES.md:
 * BWM header, vertex count at 0x48, face count at 0x50). */
#include "test_support.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static const char kit_room[] = "bwm/pykotor-generated_kit-blackvulkar-m10aa_01c.wok";

static void load_matches_header(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip(kit_room);
    size_t size = 0;
    uint8_t *bytes = wmt_read_file(path, &size);
    assert_true(size > 0x54);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh mesh;
    assert_int_equal(wm_mesh_load(&ctx, path, NULL, NULL, &mesh), WM_OK);
    assert_int_equal(mesh.triangle_count, le32(bytes + 0x50));
    wm_mesh from_memory;
    assert_int_equal(wm_mesh_load_memory(&ctx, bytes, size, "room.wok", NULL, NULL, &from_memory), WM_OK);
    assert_int_equal(from_memory.triangle_count, mesh.triangle_count);
    assert_int_equal(from_memory.vertex_count, mesh.vertex_count);
    assert_memory_equal(from_memory.positions, mesh.positions, 3 * sizeof(float) * mesh.vertex_count);
    wm_mesh_free(&ctx, &from_memory);
    wm_mesh_free(&ctx, &mesh);
    free(bytes);
    free(path);
}

/* An unchanged WOK converted WOK -> WOK is the same file, byte for byte. */
static void convert_same_format_is_identical(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip(kit_room);
    char *dir = wmt_make_temp_dir();
    char *out = wmt_join(dir, "copy.wok");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    assert_int_equal(wm_convert(&ctx, path, out, NULL, NULL, NULL, 0), WM_OK);
    assert_int_equal(wm_convert(&ctx, path, out, NULL, NULL, NULL, 0), WM_ERR_EXISTS);
    size_t a_size = 0, b_size = 0;
    uint8_t *a = wmt_read_file(path, &a_size), *b = wmt_read_file(out, &b_size);
    assert_int_equal(a_size, b_size);
    assert_memory_equal(a, b, a_size);
    free(a);
    free(b);
    wmt_remove_tree(dir);
    free(out);
    free(dir);
    free(path);
}

static uint32_t transition_edges(const wm_mesh *mesh)
{
    uint32_t n = 0;
    for (size_t i = 0; i < 3 * (size_t)mesh->triangle_count; i++)
        n += mesh->transitions[i] != WM_NO_TRANSITION;
    return n;
}

/* WOK -> OBJ -> WOK keeps every transition and says nothing is lost; WOK -> WMO, which has no
 * place for them, says so (decided from the descriptors, not by reading the output back). */
static void lost_transitions_only_when_lost(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip("bwm/k1cp-m12aa_01f.wok");
    char *dir = wmt_make_temp_dir();
    char *obj = wmt_join(dir, "room.obj"), *wok = wmt_join(dir, "room.wok"), *wmo = wmt_join(dir, "room.wmo");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh source, back;
    assert_int_equal(wm_mesh_load(&ctx, path, NULL, NULL, &source), WM_OK);
    assert_true(transition_edges(&source) > 0);
    wmt_warnings[0] = '\0';
    assert_int_equal(wm_convert(&ctx, path, obj, NULL, NULL, NULL, 0), WM_OK);
    assert_int_equal(wm_convert(&ctx, obj, wok, NULL, NULL, NULL, 0), WM_OK);
    assert_null(strstr(wmt_warnings, "did not survive"));
    assert_int_equal(wm_mesh_load(&ctx, wok, NULL, NULL, &back), WM_OK);
    assert_int_equal(transition_edges(&back), transition_edges(&source));
    assert_int_equal(wm_convert(&ctx, path, wmo, NULL, NULL, NULL, 0), WM_OK);
    assert_non_null(strstr(wmt_warnings, "did not survive"));
    wm_mesh_free(&ctx, &source);
    wm_mesh_free(&ctx, &back);
    wmt_remove_tree(dir);
    free(obj);
    free(wok);
    free(wmo);
    free(dir);
    free(path);
}

static void info_and_validate(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip(kit_room);
    size_t size = 0;
    uint8_t *bytes = wmt_read_file(path, &size);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_report report;
    wm_report_init(&report, &ctx);
    wm_mesh mesh;
    assert_int_equal(wm_info(&ctx, path, "bwm", NULL, &mesh, &report), WM_OK);
    assert_true(report.count > 0);
    assert_int_equal(mesh.vertex_count, le32(bytes + 0x48));
    wm_mesh_free(&ctx, &mesh);
    wm_report_free(&report);
    wm_report_init(&report, &ctx);
    assert_int_equal(wm_validate(&ctx, path, NULL, NULL, &report), WM_OK);
    assert_int_equal(report.errors, 0);
    wm_report_free(&report);
    free(bytes);
    free(path);
}

/* "-" reads standard input and writes standard output: the same mesh and the same bytes
 * as through files. */
static void standard_input_and_output(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip(kit_room);
    char *dir = wmt_make_temp_dir();
    char *piped = wmt_join(dir, "piped.wok"), *named = wmt_join(dir, "named.wok");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh from_file, from_stdin;
    assert_int_equal(wm_mesh_load(&ctx, path, NULL, NULL, &from_file), WM_OK);
    int saved_in = dup(0), saved_out = dup(1), in = open(path, O_RDONLY);
    int out = open(piped, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved_in >= 0 && saved_out >= 0 && in >= 0 && out >= 0);
    dup2(in, 0);
    wm_result loaded = wm_mesh_load(&ctx, "-", "bwm", NULL, &from_stdin);
    dup2(out, 1);
    wm_result saved = loaded ? loaded : wm_mesh_save(&ctx, &from_stdin, "-", "bwm", NULL, 0);
    dup2(saved_in, 0);
    dup2(saved_out, 1);
    close(in);
    close(out);
    close(saved_in);
    close(saved_out);
    assert_int_equal(loaded, WM_OK);
    assert_int_equal(saved, WM_OK);
    assert_int_equal(from_stdin.triangle_count, from_file.triangle_count);
    assert_int_equal(wm_mesh_save(&ctx, &from_file, named, NULL, NULL, 0), WM_OK);
    size_t a_size = 0, b_size = 0;
    uint8_t *a = wmt_read_file(piped, &a_size), *b = wmt_read_file(named, &b_size);
    assert_int_equal(a_size, b_size);
    assert_memory_equal(a, b, a_size);
    /* a format with side files cannot go to standard output */
    assert_int_equal(wm_mesh_save(&ctx, &from_file, "-", "assimp", NULL, 0), WM_ERR_UNSUPPORTED);
    free(a);
    free(b);
    wm_mesh_free(&ctx, &from_file);
    wm_mesh_free(&ctx, &from_stdin);
    wmt_remove_tree(dir);
    free(piped);
    free(named);
    free(dir);
    free(path);
}

static void missing_file_is_named(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh mesh;
    assert_int_not_equal(wm_mesh_load(&ctx, "no/such/file.wok", NULL, NULL, &mesh), WM_OK);
    assert_non_null(strstr(wm_ctx_message(&ctx), "no/such/file.wok"));
}

/* A binding's None reaches the library as a NULL path: an error naming what is missing, never a
 * crash (the Python package ended the interpreter with SIGSEGV on read(None)). */
static void null_paths_are_refused(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip(kit_room);
    char *dir = wmt_make_temp_dir();
    char *out = wmt_join(dir, "out.obj");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh mesh;
    wm_report report;
    assert_int_equal(wm_mesh_load(&ctx, NULL, NULL, NULL, &mesh), WM_ERR_INVALID);
    assert_non_null(strstr(wm_ctx_message(&ctx), "no input path"));
    assert_int_equal(wm_info(&ctx, NULL, NULL, NULL, NULL, (wm_report_init(&report, &ctx), &report)), WM_ERR_INVALID);
    wm_report_free(&report);
    wm_report_init(&report, &ctx);
    assert_int_equal(wm_validate(&ctx, NULL, NULL, NULL, &report), WM_ERR_INVALID);
    wm_report_free(&report);
    assert_int_equal(wm_convert(&ctx, NULL, out, NULL, NULL, NULL, 0), WM_ERR_INVALID);
    assert_int_equal(wm_convert(&ctx, path, NULL, NULL, NULL, NULL, 0), WM_ERR_INVALID);
    assert_non_null(strstr(wm_ctx_message(&ctx), "no output path"));
    assert_int_equal(wm_mesh_load(&ctx, path, NULL, NULL, &mesh), WM_OK);
    assert_int_equal(wm_mesh_save(&ctx, &mesh, NULL, "bwm", NULL, 0), WM_ERR_INVALID);
    assert_int_equal(wm_mesh_save(&ctx, &mesh, NULL, NULL, NULL, 0), WM_ERR_INVALID);
    assert_false(wm_file_exists(out)); /* the convert with no input wrote nothing */
    wm_mesh_free(&ctx, &mesh);
    wmt_remove_tree(dir);
    free(out);
    free(dir);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(load_matches_header),
        cmocka_unit_test(convert_same_format_is_identical),
        cmocka_unit_test(lost_transitions_only_when_lost),
        cmocka_unit_test(info_and_validate),
        cmocka_unit_test(standard_input_and_output),
        cmocka_unit_test(missing_file_is_named),
        cmocka_unit_test(null_paths_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
