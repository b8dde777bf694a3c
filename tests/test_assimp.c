#define _GNU_SOURCE
/* Assimp import/export: usemtl groups, node transforms, axes, material
 * mapping and the glTF -> OBJ -> glTF round trip, against values computed
 * by hand from the sample files (see corpus/README.md). */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const wm_format *assimp(void)
{
    const wm_format *f = wm_format_by_name("assimp");
    assert_non_null(f);
    return f;
}

static uint32_t count_surface(const wm_mesh *m, const char *name, uint32_t *walkable)
{
    uint16_t s = wm_surface_from_name(wm_surfaces_default(), name);
    uint32_t n = 0, w = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++)
        if (m->surfaces[t] == s) {
            n++;
            w += m->walkable[t];
        }
    if (walkable)
        *walkable = w;
    return n;
}

static void read_sample(wm_ctx *ctx, const char *name, const wm_options *opts, wm_mesh *m)
{
    char *path = wmt_sample_path(name);
    wm_result r = wm_mesh_load(ctx, path, assimp()->name, opts, m);
    if (r)
        fail_msg("%s: %s", path, ctx->message);
    free(path);
}

static void obj_usemtl_groups_become_surfaces(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    read_sample(&ctx, "courtyard.obj", NULL, &m);
    /* 5x5 cells of 2 m minus the pillar cell = 24 cells = 48 floor triangles: the two
     * western columns (10 cells) grass, 14 stone; 4 pillar walls of 2 triangles. */
    assert_int_equal(m.triangle_count, 56);
    uint32_t walkable;
    assert_int_equal(count_surface(&m, "grass", &walkable), 20);
    assert_int_equal(walkable, 20);
    assert_int_equal(count_surface(&m, "stone", &walkable), 28);
    assert_int_equal(walkable, 28);
    assert_int_equal(count_surface(&m, "nonwalk", &walkable), 8);
    assert_int_equal(walkable, 0);
    /* 6x6 floor grid points + 4 pillar tops; Z-up game axes. */
    assert_int_equal(m.vertex_count, 40);
    float lo[3], hi[3];
    wm_mesh_bounds(&m, lo, hi);
    assert_true(lo[0] == 0 && lo[1] == 0 && lo[2] == 0 && hi[0] == 10 && hi[1] == 10 && hi[2] == 3);
    assert_int_equal(m.object_count, 2);
    wm_mesh_free(&ctx, &m);

    wmt_ctx_init(&ctx);
    char *mixed = wmt_test_data_path("mixed_materials.obj");
    assert_int_equal(wm_mesh_load(&ctx, mixed, assimp()->name, NULL, &m), WM_OK);
    assert_int_equal(count_surface(&m, "grass", NULL), 2); /* wok_Grass */
    assert_int_equal(count_surface(&m, "lava", &walkable), 2); /* "15" is the KotOR lava row */
    assert_int_equal(walkable, 0);
    assert_int_equal(count_surface(&m, "stone", NULL), 2); /* Material.001: fallback */
    assert_non_null(strstr(wmt_warnings, "Material.001"));
    assert_int_equal(ctx.warning_count, 1);
    wm_mesh_free(&ctx, &m);
    free(mixed);
}

static void gltf_node_transform_is_baked(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    char *path = wmt_test_data_path("rotated_quad.gltf");
    wm_mesh m;
    assert_int_equal(wm_mesh_load(&ctx, path, assimp()->name, NULL, &m), WM_OK);
    /* Node: rotate 90 degrees about +Y ((x,y,z) -> (z,y,-x)), then translate (10,0,5);
     * then glTF Y-up to game Z-up ((x,y,z) -> (x,-z,y)). The quad's corners
     * (0,0,0) (1,0,0) (1,0,-1) (0,0,-1) land on: */
    const float expected[4][3] = {{10, -5, 0}, {10, -4, 0}, {9, -4, 0}, {9, -5, 0}};
    assert_int_equal(m.vertex_count, 4);
    for (int e = 0; e < 4; e++) {
        int found = 0;
        for (uint32_t v = 0; v < m.vertex_count; v++) {
            const float *p = m.positions + 3 * v;
            if (fabsf(p[0] - expected[e][0]) < 1e-5f && fabsf(p[1] - expected[e][1]) < 1e-5f &&
                fabsf(p[2] - expected[e][2]) < 1e-5f)
                found = 1;
        }
        if (!found)
            fail_msg("expected vertex (%g, %g, %g) missing", expected[e][0], expected[e][1], expected[e][2]);
    }
    assert_int_equal(count_surface(&m, "dirt", NULL), 2); /* material "Dirt" */
    /* The floor faces up after the transform. */
    float n[3];
    wm_mesh_triangle_normal(&m, 0, n);
    assert_true(n[2] > 0.999f);
    assert_string_equal(m.object_names[m.objects[0]], "turned_quad");
    wm_mesh_free(&ctx, &m);
    free(path);
}

/* Matches each triangle of a to a triangle of b with the same surface and
 * the same corners (any rotation of the corner order) within tol. */
static void assert_same_triangles(const wm_mesh *a, const wm_mesh *b, float tol)
{
    assert_int_equal(a->triangle_count, b->triangle_count);
    uint8_t *used = calloc(b->triangle_count, 1);
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        int matched = 0;
        for (uint32_t u = 0; u < b->triangle_count && !matched; u++) {
            if (used[u] || a->surfaces[t] != b->surfaces[u] || a->walkable[t] != b->walkable[u])
                continue;
            for (int rot = 0; rot < 3 && !matched; rot++) {
                int same = 1;
                for (int k = 0; k < 3 && same; k++) {
                    const float *p = a->positions + 3 * a->indices[3 * t + k];
                    const float *q = b->positions + 3 * b->indices[3 * u + (k + rot) % 3];
                    for (int c = 0; c < 3; c++)
                        same &= fabsf(p[c] - q[c]) <= tol;
                }
                matched = same;
            }
            if (matched)
                used[u] = 1;
        }
        if (!matched)
            fail_msg("triangle %u has no counterpart within %g", t, (double)tol);
    }
    free(used);
}

static void gltf_obj_gltf_round_trip(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    char *dir = wmt_make_temp_dir();
    char *obj = wmt_join(dir, "court.obj"), *gltf = wmt_join(dir, "court.gltf");
    wm_mesh source, via_obj, back;
    read_sample(&ctx, "courtyard.gltf", NULL, &source);
    assert_int_equal(wm_mesh_save(&ctx, &source, obj, assimp()->name, NULL, 0), WM_OK);
    assert_int_equal(wm_mesh_load(&ctx, obj, assimp()->name, NULL, &via_obj), WM_OK);
    assert_int_equal(wm_mesh_save(&ctx, &via_obj, gltf, assimp()->name, NULL, 0), WM_OK);
    assert_int_equal(wm_mesh_load(&ctx, gltf, assimp()->name, NULL, &back), WM_OK);
    assert_same_triangles(&source, &via_obj, 1e-5f);
    assert_same_triangles(&source, &back, 1e-5f);
    float lo[3], hi[3], lo2[3], hi2[3];
    wm_mesh_bounds(&source, lo, hi);
    wm_mesh_bounds(&back, lo2, hi2);
    for (int k = 0; k < 3; k++)
        assert_true(fabsf(lo[k] - lo2[k]) < 1e-5f && fabsf(hi[k] - hi2[k]) < 1e-5f);
    /* The node moved the courtyard 100 m east and turned it: x spans 90..100 in game axes. */
    assert_true(fabsf(lo[0] - 90) < 1e-4f && fabsf(hi[0] - 100) < 1e-4f);
    /* The MTL beside the OBJ carries one coloured material per surface. */
    char *mtl = wmt_join(dir, "court.mtl");
    size_t size;
    char *text = (char *)wmt_read_file(mtl, &size);
    text = realloc(text, size + 1);
    text[size] = '\0';
    assert_non_null(strstr(text, "newmtl grass"));
    assert_non_null(strstr(text, "newmtl nonwalk"));
    /* nonwalk is e53935 in core/surfaces.txt */
    const char *nonwalk = strstr(text, "newmtl nonwalk\n");
    float rgb[3];
    assert_non_null(nonwalk);
    assert_int_equal(sscanf(strstr(nonwalk, "Kd "), "Kd %f %f %f", &rgb[0], &rgb[1], &rgb[2]), 3);
    assert_true(fabsf(rgb[0] - 0xe5 / 255.0f) < 1e-4f && fabsf(rgb[1] - 0x39 / 255.0f) < 1e-4f &&
                fabsf(rgb[2] - 0x35 / 255.0f) < 1e-4f);
    free(text);
    char *obj_text = (char *)wmt_read_file(obj, &size);
    assert_non_null(memmem(obj_text, size, "mtllib court.mtl", 16));
    free(obj_text);
    wm_mesh_free(&ctx, &source);
    wm_mesh_free(&ctx, &via_obj);
    wm_mesh_free(&ctx, &back);
    wmt_remove_tree(dir);
    free(mtl);
    free(obj);
    free(gltf);
    free(dir);
}

static void up_axis_and_walkability_overrides(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_options opts;
    wm_options_init(&opts);
    opts.up = WM_UP_Z;
    wm_mesh m;
    read_sample(&ctx, "courtyard.obj", &opts, &m);
    float lo[3], hi[3];
    wm_mesh_bounds(&m, lo, hi);
    /* Raw OBJ axes: x 0..10, y (height) 0..3, z -10..0. */
    assert_true(lo[1] == 0 && hi[1] == 3 && lo[2] == -10 && hi[2] == 0);
    /* Stone marked not walkable is written as "stone__nowalk" and read back the same. */
    m.walkable[0] = (uint8_t)!m.walkable[0];
    char *dir = wmt_make_temp_dir();
    char *out = wmt_join(dir, "o.obj");
    assert_int_equal(wm_mesh_save(&ctx, &m, out, assimp()->name, &opts, 0), WM_OK);
    wm_mesh back;
    assert_int_equal(wm_mesh_load(&ctx, out, assimp()->name, &opts, &back), WM_OK);
    assert_same_triangles(&m, &back, 0);
    wm_mesh_free(&ctx, &back);
    wm_mesh_free(&ctx, &m);

    /* The ramp has no materials: 45 degrees keeps the floors and the 26.6-degree ramp, not the wall. */
    wm_options_init(&opts);
    opts.walkable_slope = 45.0f;
    read_sample(&ctx, "ramp.obj", &opts, &m);
    uint32_t walkable = 0;
    for (uint32_t t = 0; t < m.triangle_count; t++)
        walkable += m.walkable[t];
    assert_int_equal(m.triangle_count, 8);
    assert_int_equal(walkable, 6);
    assert_int_equal(count_surface(&m, "nonwalk", NULL), 2);
    wm_mesh_free(&ctx, &m);
    opts.walkable_slope = 20.0f; /* the ramp is now too steep */
    read_sample(&ctx, "ramp.obj", &opts, &m);
    walkable = 0;
    for (uint32_t t = 0; t < m.triangle_count; t++)
        walkable += m.walkable[t];
    assert_int_equal(walkable, 4);
    wm_mesh_free(&ctx, &m);
    wmt_remove_tree(dir);
    free(out);
    free(dir);
}

static void broken_inputs_fail_with_the_line(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    char *dir = wmt_make_temp_dir();
    char *path = wmt_join(dir, "bad.obj");
    wm_mesh m;
    const char *cut_vertex = "v 0 0 0\nv 1 0 0\nv 1 0";
    wmt_write_file(path, cut_vertex, strlen(cut_vertex));
    assert_int_equal(wm_mesh_load(&ctx, path, assimp()->name, NULL, &m), WM_ERR_CORRUPT);
    assert_non_null(strstr(ctx.message, "line 3"));
    assert_non_null(strstr(ctx.message, path));
    const char *bad_index = "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 4\n";
    wmt_write_file(path, bad_index, strlen(bad_index));
    assert_int_equal(wm_mesh_load(&ctx, path, assimp()->name, NULL, &m), WM_ERR_CORRUPT);
    assert_non_null(strstr(ctx.message, "line 4: face refers to vertex 4 but only 3 are defined"));
    const char *no_faces = "v 0 0 0\n";
    wmt_write_file(path, no_faces, strlen(no_faces));
    assert_int_equal(wm_mesh_load(&ctx, path, assimp()->name, NULL, &m), WM_ERR_CORRUPT);
    wmt_remove_tree(dir);
    free(path);
    free(dir);
}

/* Transitions ride along as "transition_<value>" line meshes: every edge
 * that had one gets it back after OBJ and glTF, and no other edge does. */
static void transitions_survive_obj_and_gltf(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    read_sample(&ctx, "two_rooms.obj", NULL, &m);
    /* Mark every edge on the line x = 6 (room A's side of the doorway) with room 1, and x = 8 with room 2. */
    uint32_t marked = 0;
    for (uint32_t t = 0; t < m.triangle_count; t++)
        for (int e = 0; e < 3; e++) {
            const float *a = m.positions + 3 * m.indices[3 * t + e];
            const float *b = m.positions + 3 * m.indices[3 * t + (e + 1) % 3];
            if (a[0] == b[0] && (a[0] == 6 || a[0] == 8) && m.walkable[t]) {
                m.transitions[3 * t + e] = a[0] == 6 ? 1 : 2;
                marked++;
            }
        }
    /* x = 6 and x = 8 each run 0..6 in three 2 m room edges (one triangle each), and the
     * doorway (y 2..4) also has its own triangle on that line: 4 triangle edges per line. */
    assert_int_equal(marked, 8);
    const char *names[] = {"rooms.obj", "rooms.gltf"};
    char *dir = wmt_make_temp_dir();
    for (int i = 0; i < 2; i++) {
        char *path = wmt_join(dir, names[i]);
        assert_int_equal(wm_mesh_save(&ctx, &m, path, assimp()->name, NULL, 0), WM_OK);
        wm_mesh back;
        assert_int_equal(wm_mesh_load(&ctx, path, assimp()->name, NULL, &back), WM_OK);
        assert_int_equal(back.triangle_count, m.triangle_count);
        uint32_t found = 0;
        for (uint32_t t = 0; t < back.triangle_count; t++)
            for (int e = 0; e < 3; e++) {
                const float *a = back.positions + 3 * back.indices[3 * t + e];
                const float *b = back.positions + 3 * back.indices[3 * t + (e + 1) % 3];
                int32_t expected = a[0] == b[0] && a[0] == 6 ? 1 : a[0] == b[0] && a[0] == 8 ? 2 : -1;
                if (back.transitions[3 * t + e] != expected)
                    fail_msg("%s: triangle %u edge %d has transition %d, expected %d", names[i], t, e,
                             back.transitions[3 * t + e], expected);
                found += expected >= 0;
            }
        assert_int_equal(found, 8);
        /* The line meshes create no extra object and no warning. */
        assert_int_equal(back.object_count, m.object_count);
        wm_mesh_free(&ctx, &back);
        free(path);
    }
    assert_int_equal(ctx.warning_count, 0);
    wm_mesh_free(&ctx, &m);
    wmt_remove_tree(dir);
    free(dir);
}

/* STL holds triangles only: a mesh with transitions must still give an STL
 * that reads back with all its triangles (the transition lines were written
 * as two-vertex facets, which no STL reader accepts). */
static void stl_of_a_mesh_with_transitions_reads_back(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    read_sample(&ctx, "two_rooms.obj", NULL, &m);
    m.transitions[0] = 3;
    char *dir = wmt_make_temp_dir();
    char *stl = wmt_join(dir, "rooms.stl");
    assert_int_equal(wm_mesh_save(&ctx, &m, stl, assimp()->name, NULL, 0), WM_OK);
    wm_mesh back;
    if (wm_mesh_load(&ctx, stl, assimp()->name, NULL, &back) != WM_OK)
        fail_msg("the STL written does not read back: %s", wm_ctx_message(&ctx));
    assert_int_equal(back.triangle_count, m.triangle_count);
    wm_mesh_free(&ctx, &back);
    wm_mesh_free(&ctx, &m);
    wmt_remove_tree(dir);
    free(stl);
    free(dir);
}

/* glTF is JSON and must be UTF-8: an object name that is not (a Latin-1 OBJ
 * name) is written with U+FFFD, a UTF-8 one unchanged. */
static void gltf_names_are_utf8(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    read_sample(&ctx, "courtyard.obj", NULL, &m);
    assert_true(m.object_count >= 2);
    wm_free(&ctx, m.object_names[0]);
    wm_free(&ctx, m.object_names[1]);
    m.object_names[0] = wm_alloc_array(&ctx, 16, 1);
    m.object_names[1] = wm_alloc_array(&ctx, 16, 1);
    strcpy(m.object_names[0], "bad\xe9name");
    strcpy(m.object_names[1], "caf\xc3\xa9");
    char *dir = wmt_make_temp_dir();
    char *gltf = wmt_join(dir, "names.gltf");
    assert_int_equal(wm_mesh_save(&ctx, &m, gltf, assimp()->name, NULL, 0), WM_OK);
    size_t size;
    char *text = (char *)wmt_read_file(gltf, &size);
    text = realloc(text, size + 1);
    text[size] = '\0';
    for (size_t i = 0; i < size;) {
        int n = wm_utf8_length(text + i);
        if (n == 0)
            fail_msg("byte 0x%02x at %zu is not UTF-8", (unsigned char)text[i], i);
        i += (size_t)n;
    }
    assert_non_null(strstr(text, "bad\xef\xbf\xbdname"));
    assert_non_null(strstr(text, "caf\xc3\xa9"));
    free(text);
    wm_mesh_free(&ctx, &m);
    wmt_remove_tree(dir);
    free(gltf);
    free(dir);
}

/* When the main file cannot be put in place (here a folder of that name),
 * the side file (.mtl, .bin) this write created is removed again, also
 * with overwriting allowed: no partial output. */
static void failed_main_file_leaves_no_side_file(void **state)
{
    (void)state;
    static const char *const names[][2] = {{"c.obj", "c.mtl"}, {"c.gltf", "c.bin"}};
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    read_sample(&ctx, "courtyard.obj", NULL, &m);
    for (size_t i = 0; i < 2; i++) {
        char *dir = wmt_make_temp_dir();
        char *main_path = wmt_join(dir, names[i][0]), *side_path = wmt_join(dir, names[i][1]);
        assert_int_equal(mkdir(main_path, 0755), 0);
        assert_int_not_equal(wm_mesh_save(&ctx, &m, main_path, assimp()->name, NULL, 1), WM_OK);
        if (wm_file_exists(side_path))
            fail_msg("%s left behind after %s failed", names[i][1], names[i][0]);
        wmt_remove_tree(dir);
        free(main_path);
        free(side_path);
        free(dir);
    }
    wm_mesh_free(&ctx, &m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(obj_usemtl_groups_become_surfaces),
        cmocka_unit_test(gltf_node_transform_is_baked),
        cmocka_unit_test(gltf_obj_gltf_round_trip),
        cmocka_unit_test(up_axis_and_walkability_overrides),
        cmocka_unit_test(broken_inputs_fail_with_the_line),
        cmocka_unit_test(transitions_survive_obj_and_gltf),
        cmocka_unit_test(failed_main_file_leaves_no_side_file),
        cmocka_unit_test(gltf_names_are_utf8),
        cmocka_unit_test(stl_of_a_mesh_with_transitions_reads_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
