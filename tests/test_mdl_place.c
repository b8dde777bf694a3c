/* Where a room model's walkmesh lands: the ASCII form of a model (a node
 * position and vertices in the node's own frame, with the binary's AABB
 * tree as its `aabb` list) gives the walkmesh the binary gives, at the same
 * place, for every corpus model; `--layout` puts each room where its shipped
 * .wok is; without placement the reader warns once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#include "test_support.h"
#include "test_mdl_raw.h"
#include "bwm/bwm.h"
#include "mdl/mdl.h"

/* The walkmesh node as a decompiler prints it: node position and
 * axis-angle orientation from the header, stored vertices and faces, and the
 * binary's AABB root box as the first `aabb` row. */
static void write_ascii_model(const raw_model *r, const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    uint32_t n = r->walkmesh;
    double w = raw_f32(r, n + 28), q[3] = {raw_f32(r, n + 32), raw_f32(r, n + 36), raw_f32(r, n + 40)};
    double s = sqrt(fmax(0.0, 1.0 - w * w)), angle = 2.0 * acos(fmin(1.0, fmax(-1.0, w)));
    double axis[3] = {1, 0, 0};
    if (s > 1e-9)
        for (int k = 0; k < 3; k++) axis[k] = q[k] / s;
    uint32_t root = r->nodes[0];
    fprintf(f, "newmodel %s\nsetsupermodel %s NULL\nbeginmodelgeom %s\nnode dummy %s\n  parent NULL\n  position %.9g "
            "%.9g %.9g\nendnode\n", r->name, r->name, r->name, raw_node_name(r, root), raw_f32(r, root + 16),
            raw_f32(r, root + 20), raw_f32(r, root + 24));
    fprintf(f, "node aabb %s\n  parent %s\n  position %.9g %.9g %.9g\n  orientation %.9g %.9g %.9g %.9g\n",
            raw_node_name(r, n), raw_node_name(r, root), raw_f32(r, n + 16), raw_f32(r, n + 20), raw_f32(r, n + 24),
            axis[0], axis[1], axis[2], angle);
    fprintf(f, "  verts %u\n", raw_vertex_count(r));
    for (uint32_t i = 0; i < raw_vertex_count(r); i++) {
        float v[3];
        raw_vertex(r, i, v);
        fprintf(f, "    %.9g %.9g %.9g\n", v[0], v[1], v[2]);
    }
    fprintf(f, "  faces %u\n", raw_face_count(r));
    for (uint32_t i = 0; i < raw_face_count(r); i++) {
        uint32_t v[3], material = raw_face(r, i, v);
        fprintf(f, "    %u %u %u 1 0 0 0 %u\n", v[0], v[1], v[2], material);
    }
    float box[6];
    raw_root_box(r, box);
    fprintf(f, "  aabb %.9g %.9g %.9g %.9g %.9g %.9g -1\nendnode\nendmodelgeom %s\ndonemodel %s\n", box[0], box[1],
            box[2], box[3], box[4], box[5], r->name, r->name);
    fclose(f);
}

static double corner_gap(const wm_mesh *a, const wm_mesh *b)
{
    double gap = 0;
    assert_int_equal(a->triangle_count, b->triangle_count);
    for (uint32_t i = 0; i < 3 * a->triangle_count; i++)
        for (int k = 0; k < 3; k++)
            gap = fmax(gap, fabs(a->positions[3 * (size_t)a->indices[i] + k] - b->positions[3 * (size_t)b->indices[i] + k]));
    return gap;
}

/* Issue 26.5: KOTORMax compiles a model's walkmesh node as vertices plus the
 * node's position whatever its aabb list says; the binary's tree is in the
 * node's frame, so an aabb list enclosing the stored vertices is the rule, not
 * a sign of absolute vertices. */
static void test_ascii_model_lands_where_the_binary_does(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".mdl", NULL};
    char **models;
    size_t count = wmt_corpus_list("bwm-models", suffixes, &models);
    char *dir = wmt_make_temp_dir();
    uint32_t pairs = 0, agree = 0, moved = 0;
    for (size_t i = 0; i < count; i++) {
        size_t size;
        uint8_t *data = wmt_read_file(models[i], &size);
        raw_model raw;
        raw_open(&raw, data);
        if (!raw.walkmesh) { /* a model without a walkmesh node */
            free(data);
            continue;
        }
        char *text_path = wmt_join(dir, "room.mdl.ascii");
        write_ascii_model(&raw, text_path);
        size_t text_size;
        char *text = (char *)wmt_read_file(text_path, &text_size);
        wm_ctx ctx;
        wm_mesh binary, ascii;
        mdl_walkmesh w;
        wmt_ctx_init(&ctx);
        wm_mesh_init(&ascii);
        if (mdl_parse_walkmesh(&ctx, data, size, models[i], &w) || mdl_walkmesh_to_mesh(&ctx, &w, NULL, &binary) ||
            bwm_ascii_parse(&ctx, text, text_size, text_path, NULL, &ascii))
            fail_msg("%s", wm_ctx_message(&ctx));
        double gap = corner_gap(&binary, &ascii);
        assert_memory_equal(binary.surfaces, ascii.surfaces, binary.triangle_count * sizeof *binary.surfaces);
        float p[3] = {raw_f32(&raw, raw.walkmesh + 16), raw_f32(&raw, raw.walkmesh + 20), raw_f32(&raw, raw.walkmesh + 24)};
        moved += fabs(p[0]) + fabs(p[1]) + fabs(p[2]) > 0.05; /* where the old guess put it off by the position */
        print_message("%s: node %s at %g %g %g, %u faces, largest corner gap %.3g\n", raw.name,
                      raw_node_name(&raw, raw.walkmesh), p[0], p[1], p[2], binary.triangle_count, gap);
        pairs++;
        agree += gap <= 1e-4;
        assert_true(gap <= 1e-4);
        wm_mesh_free(&ctx, &binary);
        wm_mesh_free(&ctx, &ascii);
        mdl_walkmesh_free(&ctx, &w);
        free(text);
        free(text_path);
        free(data);
    }
    print_message("%u of %u model pairs agree in place (%u with a node position off the origin)\n", agree, pairs, moved);
    assert_true(pairs >= 10);
    wmt_free_list(models, count);
    wmt_remove_tree(dir);
    free(dir);
}

/* An ASCII model places its walkmesh node through the parent chain, as the
 * binary does: node walk at (2, 0, 0) inside dummy turn at (10, 20, 0) turned
 * 90 degrees about z puts the node's (1, 0, 0) at (10, 23, 0) and the .wok's
 * position at (10, 22, 0); an animation's node of the same name moves nothing;
 * a parent chain that loops is refused. */
static void test_ascii_model_parent_chain(void **state)
{
    (void)state;
    static const char model[] =
        "newmodel room\nbeginmodelgeom room\nnode dummy room\n  parent NULL\nendnode\n"
        "node dummy turn\n  parent room\n  position 10 20 0\n  orientation 0 0 1 1.5707963267948966\nendnode\n"
        "node aabb walk\n  parent turn\n  position 2 0 0\n  orientation 1 0 0 0\n  verts 3\n    1 0 0\n    1 1 0\n"
        "    0 1 0\n  faces 1\n    0 1 2 1 0 0 0 4\nendnode\nendmodelgeom room\n"
        "newanim idle room\nnode dummy turn\n  parent room\n  position 500 500 500\nendnode\ndoneanim idle room\n"
        "donemodel room\n";
    wm_ctx ctx;
    wm_mesh mesh;
    wmt_ctx_init(&ctx);
    wm_mesh_init(&mesh);
    if (bwm_ascii_parse(&ctx, model, sizeof model - 1, "chain.mdl.ascii", NULL, &mesh)) fail_msg("%s", wm_ctx_message(&ctx));
    /* Rz(90) (x, y, z) = (-y, x, z), then the dummy's position */
    const double expected[3][3] = {{10, 23, 0}, {9, 23, 0}, {9, 22, 0}};
    for (int v = 0; v < 3; v++)
        for (int k = 0; k < 3; k++) assert_true(fabs(mesh.positions[3 * mesh.indices[v] + k] - expected[v][k]) < 1e-5);
    const wm_mesh_point *position = wm_mesh_find_point(&mesh, BWM_POINT_POSITION);
    assert_non_null(position);
    assert_true(fabs(position->xyz[0] - 10) < 1e-5 && fabs(position->xyz[1] - 22) < 1e-5);
    wm_mesh_free(&ctx, &mesh);
    char looped[sizeof model];
    memcpy(looped, model, sizeof model);
    memcpy(strstr(looped, "parent room\n  position 10"), "parent walk", 11); /* turn's parent: walk, walk's: turn */
    wm_mesh_init(&mesh);
    assert_int_equal(bwm_ascii_parse(&ctx, looped, sizeof looped - 1, "loop.mdl.ascii", NULL, &mesh), WM_ERR_CORRUPT);
    assert_non_null(strstr(wm_ctx_message(&ctx), "loops"));
    wm_mesh_free(&ctx, &mesh);
}

static const char *const k1_rooms[] = {
    "pykotor-generated_kit-blackvulkar-m10aa_01c", "pykotor-generated_kit-blackvulkar-m10aa_03a",
    "pykotor-generated_kit-blackvulkar-m10aa_05a", "pykotor-generated_kit-blackvulkar-m10aa_08b",
    "k1cp-m10ac_30a", "k1cp-m12aa_01f", "k1cp-m22ab_09a",
};

static char *corpus_file(const char *folder, const char *name, const char *ext)
{
    char rel[256];
    snprintf(rel, sizeof rel, "%s/%s%s", folder, name, ext);
    return wmt_corpus_path_or_skip(rel);
}

static void read_wok(const char *path, bwm_file *f)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (bwm_read_file(&ctx, path, f)) fail_msg("%s", wm_ctx_message(&ctx));
}

/* The layout position the twin shows: the translation that takes the model's
 * first walkable face (placed by the node, from the raw file) onto a face of
 * the twin, the twin's first such face (face 0 but where K1CP reordered it). */
static int same_shape(const bwm_file *twin, uint32_t g, const float corners[3][3], double out[3])
{
    double d[3][3];
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++) d[c][k] = (double)twin->vertices[3 * (size_t)twin->faces[3 * g + (uint32_t)c] + k] - corners[c][k];
    for (int c = 1; c < 3; c++)
        for (int k = 0; k < 3; k++)
            if (fabs(d[c][k] - d[0][k]) > 2e-3) return 0;
    memcpy(out, d[0], sizeof d[0]);
    return 1;
}

static void twin_offset(const char *model_path, const bwm_file *twin, char *room, size_t room_size, double out[3])
{
    size_t size;
    uint8_t *data = wmt_read_file(model_path, &size);
    raw_model raw;
    raw_open(&raw, data);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    uint32_t f = 0, v[3];
    while (!bwm_material_walkable(&ctx, raw_face(&raw, f, v))) f++;
    float corners[3][3];
    for (int c = 0; c < 3; c++) {
        raw_vertex(&raw, v[c], corners[c]);
        for (int k = 0; k < 3; k++) corners[c][k] += raw_f32(&raw, raw.walkmesh + 16 + 4 * (uint32_t)k);
    }
    uint32_t g = 0;
    while (g < twin->face_count && !same_shape(twin, g, (const float(*)[3])corners, out)) g++;
    assert_true(g < twin->face_count);
    /* the layout names the room in upper case: rooms are found case-insensitively */
    size_t i = 0;
    for (; raw.name[i] && i + 1 < room_size; i++) room[i] = (char)toupper((unsigned char)raw.name[i]);
    room[i] = 0;
    free(data);
}

static double corners_apart(const bwm_file *a, uint32_t f, const bwm_file *b, uint32_t g)
{
    double d = 0;
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 3; k++)
            d = fmax(d, fabs(a->vertices[3 * (size_t)a->faces[3 * f + (uint32_t)c] + k] -
                             b->vertices[3 * (size_t)b->faces[3 * g + (uint32_t)c] + k]));
    return d;
}

/* The largest distance from a face of `got` to its nearest face of the twin
 * (the same face index first: where the orders agree, the answer at once). */
static double face_gap(const bwm_file *got, const bwm_file *twin, uint32_t *apart)
{
    double gap = 0;
    *apart = 0;
    for (uint32_t f = 0; f < got->face_count; f++) {
        double best = f < twin->face_count ? corners_apart(got, f, twin, f) : INFINITY;
        for (uint32_t g = 0; best > 2e-3 && g < twin->face_count; g++) best = fmin(best, corners_apart(got, f, twin, g));
        gap = fmax(gap, best);
        *apart += best > 2e-3;
    }
    return gap;
}

/* Issue 26.6: `convert room.mdl room.wok --layout area.lyt` is the shipped .wok:
 * faces, materials, every corner within 2e-3; --room-offset writes the same bytes. */
static void test_layout_places_every_room_on_its_wok(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof k1_rooms / sizeof k1_rooms[0]; i++) { /* skip before allocating */
        free(corpus_file("bwm-models", k1_rooms[i], ".mdl"));
        free(corpus_file("bwm", k1_rooms[i], ".wok"));
    }
    char *dir = wmt_make_temp_dir(), *lyt = wmt_join(dir, "area.lyt");
    char *by_layout = wmt_join(dir, "layout.wok"), *by_offset = wmt_join(dir, "offset.wok");
    uint32_t equal = 0;
    for (size_t i = 0; i < sizeof k1_rooms / sizeof k1_rooms[0]; i++) {
        char *model = corpus_file("bwm-models", k1_rooms[i], ".mdl"), *wok = corpus_file("bwm", k1_rooms[i], ".wok");
        bwm_file twin, got;
        read_wok(wok, &twin);
        char room[40], text[512], offset[128];
        double at[3] = {0, 0, 0};
        twin_offset(model, &twin, room, sizeof room, at);
        snprintf(text, sizeof text, "beginlayout\nroomcount 2\n  other 1 2 3\n  %s %.9g %.9g %.9g\ndonelayout\n", room,
                 (float)at[0], (float)at[1], (float)at[2]);
        wmt_write_file(lyt, text, strlen(text));
        /* a layout holds floats: the same floats as --room-offset */
        snprintf(offset, sizeof offset, "%.17g,%.17g,%.17g", (float)at[0], (float)at[1], (float)at[2]);
        const char *place[] = {"convert", model, by_layout, "--layout", lyt, "--force", NULL};
        const char *shift[] = {"convert", model, by_offset, "--room-offset", offset, "--force", NULL};
        char *err = NULL;
        assert_int_equal(wmt_run_cli(NULL, &err, place), 0);
        assert_null(strstr(err, "own space")); /* placed: no warning */
        free(err);
        assert_int_equal(wmt_run_cli(NULL, NULL, shift), 0);
        read_wok(by_layout, &got);
        assert_int_equal(got.face_count, twin.face_count);
        uint32_t apart;
        double gap = face_gap(&got, &twin, &apart);
        int materials = memcmp(got.materials, twin.materials, got.face_count * sizeof(uint32_t)) == 0;
        print_message("%s: %s at %s, %u faces, materials equal %d, largest corner gap %.3g (%u faces apart)\n",
                      k1_rooms[i], room, offset, got.face_count, materials, gap, apart);
        /* K1CP edited m12aa_01f.wok after its model (docs/kotor-areas.md): a few faces
         * have other materials or corners; the rest (at least 95%) lie on the .wok's */
        if (strcmp(k1_rooms[i], "k1cp-m12aa_01f") == 0) {
            assert_true(apart * 20 <= got.face_count);
        } else {
            assert_true(gap < 2e-3);
            assert_true(materials);
        }
        equal += materials && gap < 2e-3;
        size_t a_size, b_size;
        uint8_t *a = wmt_read_file(by_layout, &a_size), *b = wmt_read_file(by_offset, &b_size);
        assert_int_equal(a_size, b_size);
        assert_memory_equal(a, b, a_size);
        free(a);
        free(b);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        bwm_file_free(&ctx, &twin);
        bwm_file_free(&ctx, &got);
        free(model);
        free(wok);
    }
    print_message("%u of %zu rooms placed by --layout equal their .wok in faces and materials\n", equal,
                  sizeof k1_rooms / sizeof k1_rooms[0]);
    free(lyt);
    free(by_layout);
    free(by_offset);
    wmt_remove_tree(dir);
    free(dir);
}

static size_t occurrences(const char *text, const char *word)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, word)) != NULL; p += strlen(word)) n++;
    return n;
}

/* Without --layout or --room-offset the binary and the ASCII model each warn
 * once, naming both options; `info` states the placement instead. */
static void test_unplaced_room_warns_once(void **state)
{
    (void)state;
    char *binary = corpus_file("bwm-models", "k1cp-m10ac_30a", ".mdl");
    char *ascii = corpus_file("bwm", "k1cp-m13aa_04a-kotormax", ".mdl.ascii");
    char *dir = wmt_make_temp_dir(), *out = wmt_join(dir, "room.wok");
    const char *inputs[] = {binary, ascii};
    for (int i = 0; i < 2; i++) {
        const char *argv[] = {"convert", inputs[i], out, "--force", NULL};
        char *err = NULL;
        assert_int_equal(wmt_run_cli(NULL, &err, argv), 0);
        assert_int_equal(occurrences(err, "own space"), 1);
        assert_non_null(strstr(err, "--layout"));
        assert_non_null(strstr(err, "--room-offset"));
        free(err);
    }
    const char *info[] = {"info", binary, NULL};
    char *text = NULL, *err = NULL;
    assert_int_equal(wmt_run_cli(&text, &err, info), 0);
    assert_non_null(strstr(text, "placed at: the room's own space"));
    assert_null(strstr(err, "own space"));
    free(text);
    free(err);
    free(out);
    wmt_remove_tree(dir);
    free(dir);
    free(binary);
    free(ascii);
}

/* Both options at once is a usage error; a layout without the room, or no
 * layout file at all, an input error naming what is missing. */
static void test_placement_errors(void **state)
{
    (void)state;
    char *model = corpus_file("bwm-models", "k1cp-m10ac_30a", ".mdl");
    char *dir = wmt_make_temp_dir(), *out = wmt_join(dir, "room.wok"), *lyt = wmt_join(dir, "area.lyt");
    char *missing = wmt_join(dir, "missing.lyt");
    static const char layout[] = "beginlayout\nroomcount 1\n  m10ac_31a 1 2 3\ndonelayout\n";
    wmt_write_file(lyt, layout, sizeof layout - 1);
    const char *both[] = {"convert", model, out, "--layout", lyt, "--room-offset", "1,2,3", NULL};
    const char *absent[] = {"convert", model, out, "--layout", lyt, NULL};
    const char *no_file[] = {"convert", model, out, "--layout", missing, NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, both), 1);
    free(err);
    assert_int_equal(wmt_run_cli(NULL, &err, absent), 2);
    assert_non_null(strstr(err, "no room named M10ac_30a"));
    free(err);
    assert_int_equal(wmt_run_cli(NULL, &err, no_file), 2);
    assert_non_null(strstr(err, "missing.lyt"));
    free(err);
    assert_false(wm_file_exists(out));
    /* area assemble places rooms by its LAYOUT: the options would be ignored, so they are refused */
    char *area = wmt_join(dir, "area.obj");
    const char *assemble[] = {"area", "assemble", lyt, area, "--room-offset", "1,2,3", NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, assemble), 1);
    assert_non_null(strstr(err, "--room-offset"));
    free(err);
    free(area);
    free(missing);
    free(lyt);
    free(out);
    wmt_remove_tree(dir);
    free(dir);
    free(model);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ascii_model_lands_where_the_binary_does),
        cmocka_unit_test(test_ascii_model_parent_chain),
        cmocka_unit_test(test_layout_places_every_room_on_its_wok),
        cmocka_unit_test(test_unplaced_room_warns_once),
        cmocka_unit_test(test_placement_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
