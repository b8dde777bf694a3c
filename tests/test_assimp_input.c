#define _GNU_SOURCE
/* Bad numbers and safe defaults on import: non-finite coordinates are input
 * errors found before any processing (exit 2), info --json is valid JSON
 * (checked by Python's json module) with typed numbers, vectors as arrays
 * and one warning per condition; faces without a known material are
 * classified by slope; formats Debian's Assimp cannot read are refused
 * with advice. Expected values come from the inputs written here, the
 * samples' descriptions (corpus/README.md) and real files. */
#include "test_support.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void write_text(const char *path, const char *text)
{
    wmt_write_file(path, text, strlen(text));
}

static void base64(const uint8_t *data, size_t size, char *out)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < size; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < size ? (uint32_t)data[i + 1] << 8 : 0) |
                     (i + 2 < size ? data[i + 2] : 0);
        out[o++] = digits[v >> 18 & 63];
        out[o++] = digits[v >> 12 & 63];
        out[o++] = i + 1 < size ? digits[v >> 6 & 63] : '=';
        out[o++] = i + 2 < size ? digits[v & 63] : '=';
    }
    out[o] = '\0';
}

/* A one-triangle glTF whose third vertex has an infinite x. */
static void write_infinite_gltf(const char *path)
{
    float positions[9] = {0, 0, 0, 1, 0, 0, INFINITY, 0, 1};
    char encoded[64], text[1024];
    base64((const uint8_t *)positions, sizeof positions, encoded);
    snprintf(text, sizeof text,
             "{\"asset\": {\"version\": \"2.0\"}, \"buffers\": [{\"byteLength\": 36, \"uri\": "
             "\"data:application/octet-stream;base64,%s\"}], \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 36}], "
             "\"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\"}], "
             "\"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 0}}]}], \"nodes\": [{\"mesh\": 0}], "
             "\"scenes\": [{\"nodes\": [0]}], \"scene\": 0}",
             encoded);
    write_text(path, text);
}

static void non_finite_coordinates_are_input_errors(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *gltf = wmt_join(dir, "inf.gltf"), *huge = wmt_join(dir, "huge.obj"), *nan = wmt_join(dir, "nan.obj"),
         *out = wmt_join(dir, "out.wok");
    write_infinite_gltf(gltf);
    write_text(huge, "v 0 0 0\nv 1 0 0\nv 1e39 0 1\nf 1 2 3\n"); /* beyond float range */
    write_text(nan, "v 0 0 0\nv 1 0 0\nv nan 0 1\nf 1 2 3\n");
    const char *inputs[3] = {gltf, huge, nan}, *where[3] = {"vertex 2", "line 3", "line 3"};
    for (int i = 0; i < 3; i++) {
        char *err = NULL;
        const char *convert[] = {"convert", inputs[i], out, NULL};
        assert_int_equal(wmt_run_cli(NULL, &err, convert), 2);
        if (!strstr(err, inputs[i]) || !strstr(err, where[i]) || !strstr(err, "finite"))
            fail_msg("%s: message should name the file, %s and finiteness: %s", inputs[i], where[i], err);
        free(err);
        assert_int_equal(access(out, F_OK), -1); /* no partial output */
    }
    /* Any format: a WOK whose first vertex is NaN (patched copy of a corpus file) is an input error. */
    char *wok = wmt_corpus_path("bwm/k1cp-m12aa_01f.wok");
    if (wok) {
        size_t size;
        uint8_t *bytes = wmt_read_file(wok, &size);
        uint32_t vertex_offset = (uint32_t)bytes[76] | (uint32_t)bytes[77] << 8 | (uint32_t)bytes[78] << 16 |
                                 (uint32_t)bytes[79] << 24; /* header: vertex offset at 0x4c */
        assert_true(vertex_offset + 4 <= size);
        float not_a_number = NAN;
        memcpy(bytes + vertex_offset, &not_a_number, 4);
        char *patched = wmt_join(dir, "patched.wok"), *obj = wmt_join(dir, "patched.obj"), *err = NULL;
        wmt_write_file(patched, bytes, size);
        const char *convert[] = {"convert", patched, obj, NULL};
        assert_int_equal(wmt_run_cli(NULL, &err, convert), 2);
        assert_non_null(strstr(err, "vertex 0"));
        assert_int_equal(access(obj, F_OK), -1);
        free(err);
        free(obj);
        free(patched);
        free(bytes);
        free(wok);
    }
    /* The weld refuses them too, before hashing a cell (no overflow under UBSan). */
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    wm_mesh_init(&m);
    assert_int_equal(wm_mesh_add_vertex(&ctx, &m, 0, 0, 0, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(&ctx, &m, 3e38f, -3e38f, 0, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_vertex(&ctx, &m, 3e38f, -3e38f, 0, NULL), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(&ctx, &m, 0, 1, 2, 4, 1), WM_OK);
    uint32_t merged = 0;
    assert_int_equal(wm_mesh_weld(&ctx, &m, 1e-6f, &merged), WM_OK); /* huge but finite: welds */
    assert_int_equal(merged, 1);
    assert_int_equal(wm_mesh_add_vertex(&ctx, &m, NAN, 0, 0, NULL), WM_OK);
    assert_int_equal(wm_mesh_weld(&ctx, &m, 1e-6f, &merged), WM_ERR_CORRUPT);
    assert_non_null(strstr(ctx.message, "vertex 2"));
    wm_mesh_free(&ctx, &m);
    wmt_remove_tree(dir);
    free(gltf);
    free(huge);
    free(nan);
    free(out);
    free(dir);
}

/* The largest float printed to 8 significant digits (printf's %.8g: 3.4028235e+38)
 * is above FLT_MAX as a decimal but rounds to it (the C library's strtof says so):
 * the reader keeps it as FLT_MAX, not as a non-finite error; a decimal that rounds past
 * it is refused. Beyond WM_COORD_LIMIT (1e7), no writer takes it (issue 27.9): the
 * conversion refuses to write it, naming the vertex. */
static void largest_float_printed_short_is_a_coordinate(void **state)
{
    (void)state;
    char printed[32], past[] = "3.4028236e38";
    snprintf(printed, sizeof printed, "%.8g", (double)FLT_MAX);
    assert_true(strtod(printed, NULL) > (double)FLT_MAX);
    assert_true(strtof(printed, NULL) == FLT_MAX);
    assert_true(isinf(strtof(past, NULL)));
    char *dir = wmt_make_temp_dir();
    char *in = wmt_join(dir, "largest.obj"), *out = wmt_join(dir, "out.obj"), text[256];
    snprintf(text, sizeof text, "v 0 0 0\nv 1 0 0\nv %s 0 -%s\nf 1 2 3\n", printed, printed);
    write_text(in, text);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_mesh read;
    assert_int_equal(wm_mesh_load(&ctx, in, NULL, NULL, &read), WM_OK);
    assert_int_equal(read.vertex_count, 3);
    /* x stays, the file's z is the game's y (OBJ is Y-up): both the largest float */
    assert_true(read.positions[6] == FLT_MAX && fabsf(read.positions[7]) == FLT_MAX);
    wm_mesh_free(&ctx, &read);
    const char *convert[] = {"convert", in, out, "--quiet", "--force", NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, convert), 3);
    assert_non_null(strstr(err, "vertex 2"));
    assert_non_null(strstr(err, "beyond the bound"));
    assert_false(wm_file_exists(out));
    free(err);
    snprintf(text, sizeof text, "v 0 0 0\nv 1 0 0\nv %s 0 1\nf 1 2 3\n", past);
    write_text(in, text);
    err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, convert), 2);
    assert_non_null(strstr(err, "line 3"));
    assert_non_null(strstr(err, "finite"));
    free(err);
    wmt_remove_tree(dir);
    free(in);
    free(out);
    free(dir);
}

/* Runs python3 on a script with the file as argument; -1 when python3 is absent or cannot run. */
static int run_python(const char *script, const char *arg)
{
    char *python = wmt_find_working_program("python3", "--version", NULL);
    free(python);
    if (!python)
        return -1;
    char command[4096];
    snprintf(command, sizeof command, "python3 -c '%s' '%s'", script, arg);
    return system(command);
}

static void info_json_is_valid_and_typed(void **state)
{
    (void)state;
    char *pwk = wmt_corpus_path_or_skip("bwm/k1cp-plc_fccage2.pwk");
    char *text = NULL, *json = NULL;
    const char *info_text[] = {"info", pwk, NULL}, *info_json[] = {"info", pwk, "--json", NULL};
    assert_int_equal(wmt_run_cli(&text, NULL, info_text), 0);
    assert_int_equal(wmt_run_cli(&json, NULL, info_json), 0);
    /* the text form's display string, from the file's own hook fields */
    float hook[3];
    const char *line = strstr(text, "relative use hook 1: ");
    assert_non_null(line);
    assert_int_equal(sscanf(line, "relative use hook 1: %f %f %f", &hook[0], &hook[1], &hook[2]), 3);
    char *dir = wmt_make_temp_dir();
    char *path = wmt_join(dir, "info.json");
    write_text(path, json);
    char script[1024];
    snprintf(script, sizeof script,
             "import json, sys\n"
             "d = json.load(open(sys.argv[1]))\n"
             "h = d[\"details\"][\"relative use hook 1\"]\n"
             "assert isinstance(h, list) and len(h) == 3, h\n"
             "assert all(abs(a - b) < 1e-5 for a, b in zip(h, [%.9g, %.9g, %.9g])), h\n"
             "assert isinstance(d[\"vertices\"], int) and d[\"vertices\"] == 18\n"
             "assert all(isinstance(v, (int, float)) for v in d[\"bounds\"][\"min\"] + d[\"bounds\"][\"max\"])\n",
             (double)hook[0], (double)hook[1], (double)hook[2]);
    /* JSON has no infinity or NaN: a mesh never reaches info with them, and
     * the writer turns any that a module reports into null */
    assert_null(strstr(json, "inf"));
    assert_null(strstr(json, "nan"));
    int status = run_python(script, path);
    wmt_remove_tree(dir);
    free(dir);
    free(path);
    free(pwk);
    free(text);
    free(json);
    if (status < 0) {
        print_message("python3 is not installed or does not run: skipping the JSON parse\n");
        skip();
    }
    assert_int_equal(status, 0);
}

/* A WMO LOD group has no collision: the reader says so once, although info reads the file twice. */
static void each_warning_prints_once(void **state)
{
    (void)state;
    char *wmo = wmt_corpus_path_or_skip("wmo/warcraftnet__8or_pvp_warsongbg_tower01_000_lod1.wmo");
    char *err = NULL;
    const char *info[] = {"info", wmo, NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, info), 0);
    const char *first = strstr(err, "no collision triangles");
    assert_non_null(first);
    assert_null(strstr(first + 1, "no collision triangles"));
    free(err);
    free(wmo);
}

/* ramp.obj has no materials: floor, 26.6-degree ramp, platform, vertical wall (corpus/README.md). */
static void faces_without_material_are_classified_by_slope(void **state)
{
    (void)state;
    char *ramp = wmt_sample_path("ramp.obj");
    char *err = NULL, *out = NULL;
    const char *info[] = {"info", ramp, NULL};
    assert_int_equal(wmt_run_cli(&out, &err, info), 0);
    assert_non_null(strstr(out, "walkable: 6\n")); /* 6 walkable at 45 degrees: the wall is not */
    assert_non_null(strstr(err, "8 face(s) without a material classified by slope: 6 walkable"));
    free(err);
    free(out);
    const char *steep[] = {"info", ramp, "--walkable-slope", "20", NULL};
    assert_int_equal(wmt_run_cli(&out, NULL, steep), 0);
    assert_non_null(strstr(out, "walkable: 4\n")); /* 4 at 20 degrees: the ramp is not */
    free(out);
    free(ramp);

    /* mixed_materials.obj: 'Material.001' (2 flat faces) names no surface: counted by name */
    char *mixed = wmt_test_data_path("mixed_materials.obj");
    const char *info_mixed[] = {"info", mixed, NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, info_mixed), 0);
    assert_non_null(strstr(err, "material 'Material.001' names no known surface: its 2 face(s)"));
    free(err);
    free(mixed);
}

static void unreadable_formats_are_refused_with_advice(void **state)
{
    (void)state;
    const char *files[] = {"assimp-models/USD/MotionCaptureROM.usdc", "assimp-models/M3D/suzanne.m3d"};
    for (int i = 0; i < 2; i++) {
        char *path = wmt_corpus_path_or_skip(files[i]);
        char *err = NULL;
        const char *info[] = {"info", path, NULL};
        assert_int_equal(wmt_run_cli(NULL, &err, info), 4);
        if (!strstr(err, path) || !strstr(err, "glTF") || !strstr(err, ".obj"))
            fail_msg("%s: no advice naming glTF and OBJ: %s", path, err);
        free(err);
        free(path);
    }
}

/* --up z writes raw game axes: the courtyard's 3 m pillar stands along the OBJ's third axis. */
static void up_axis_applies_to_the_output(void **state)
{
    (void)state;
    char *gltf = wmt_sample_path("courtyard.gltf");
    char *dir = wmt_make_temp_dir();
    char *y_obj = wmt_join(dir, "y.obj"), *z_obj = wmt_join(dir, "z.obj");
    const char *to_y[] = {"convert", gltf, y_obj, NULL}, *to_z[] = {"convert", gltf, z_obj, "--up", "z", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, to_y), 0);
    assert_int_equal(wmt_run_cli(NULL, NULL, to_z), 0);
    const char *paths[2] = {y_obj, z_obj};
    for (int i = 0; i < 2; i++) {
        size_t size;
        char *text = (char *)wmt_read_file(paths[i], &size);
        text = realloc(text, size + 1);
        text[size] = '\0';
        float hi[3] = {-1e30f, -1e30f, -1e30f};
        for (char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
            float v[3];
            if (sscanf(line, "v %f %f %f", &v[0], &v[1], &v[2]) == 3)
                for (int k = 0; k < 3; k++)
                    hi[k] = v[k] > hi[k] ? v[k] : hi[k];
        }
        /* game bounds (90,0,0)-(100,10,3): Y-up writes (x, z, -y), Z-up (x, y, z) */
        assert_true(fabsf(hi[0] - 100) < 1e-4f);
        assert_true(fabsf(hi[i ? 2 : 1] - 3) < 1e-4f);
        free(text);
    }
    wmt_remove_tree(dir);
    free(y_obj);
    free(z_obj);
    free(dir);
    free(gltf);
}

/* A 10 x 6 m floor wound clockwise seen from above points down: a warning names --up. */
static void floor_pointing_down_is_reported(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *path = wmt_join(dir, "down.obj");
    /* Y-up file: game (x, y) = (x, -z); corners (0,0) (0,6) (10,6) (10,0) go clockwise seen from +Z */
    const char *text = "v 0 0 0\nv 0 0 -6\nv 10 0 -6\nv 10 0 0\nusemtl stone\nf 1 2 3\nf 1 3 4\n";
    wmt_write_file(path, text, strlen(text));
    char *err = NULL;
    const char *info[] = {"info", path, NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, info), 0);
    if (!strstr(err, "point down") || !strstr(err, "--up"))
        fail_msg("no warning about a floor pointing down: %s", err);
    free(err);
    wmt_remove_tree(dir);
    free(path);
    free(dir);
}

/* --scale multiplies: ramp.obj spans (0,0,0)-(12,4,5) in game axes (corpus/README.md: 4 m floor,
 * 4 m ramp, 4 m platform, 4 m wide, 5 m top of the wall). */
static void scale_multiplies_imported_coordinates(void **state)
{
    (void)state;
    char *ramp = wmt_sample_path("ramp.obj");
    char *out = NULL;
    const char *info[] = {"info", ramp, "--scale", "2", NULL};
    assert_int_equal(wmt_run_cli(&out, NULL, info), 0);
    float lo[3], hi[3];
    const char *bounds = strstr(out, "bounds: ");
    assert_non_null(bounds);
    assert_int_equal(sscanf(bounds, "bounds: min %f %f %f  max %f %f %f", &lo[0], &lo[1], &lo[2], &hi[0], &hi[1], &hi[2]),
                     6);
    assert_true(lo[0] == 0 && lo[1] == 0 && lo[2] == 0 && hi[0] == 24 && hi[1] == 8 && hi[2] == 10);
    free(out);
    char *err = NULL;
    const char *bad[] = {"info", ramp, "--scale", "-1", NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, bad), 1);
    assert_non_null(strstr(err, "--scale"));
    free(err);
    free(ramp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(non_finite_coordinates_are_input_errors),
        cmocka_unit_test(largest_float_printed_short_is_a_coordinate),
        cmocka_unit_test(info_json_is_valid_and_typed),
        cmocka_unit_test(each_warning_prints_once),
        cmocka_unit_test(faces_without_material_are_classified_by_slope),
        cmocka_unit_test(unreadable_formats_are_refused_with_advice),
        cmocka_unit_test(up_axis_applies_to_the_output),
        cmocka_unit_test(scale_multiplies_imported_coordinates),
        cmocka_unit_test(floor_pointing_down_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
