/* The "svg" writer (`convert X out.svg`): every triangle drawn in its
 * surface's colour, a legend with the hand-counted surfaces of the
 * courtyard sample, transitions labelled with their room, valid SVG 1.1,
 * the same bytes every time. */
#define _GNU_SOURCE
#include "test_support.h"
#include "svg_inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define count_occurrences svgt_count

/* Triangles in the faces group: one "M" per triangle. */
static size_t face_triangles(const char *text)
{
    const char *start = strstr(text, "<g id=\"faces\">"), *end = start ? strstr(start, "</g>") : NULL;
    assert_non_null(end);
    size_t n = 0;
    for (const char *p = start; p < end; p++)
        n += *p == 'M';
    return n;
}

static void courtyard_picture(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    char *sample = wmt_sample_path("courtyard.obj");
    const wm_format *reader = wm_format_by_name("assimp"), *svg = wm_format_by_name("svg");
    assert_non_null(svg);
    assert_null(svg->read);
    wm_mesh mesh;
    assert_int_equal(wm_mesh_load(&ctx, sample, reader->name, NULL, &mesh), WM_OK);
    mesh.transitions[0] = 3; /* one edge links to room 3 */
    char *dir = wmt_make_temp_dir();
    char *out = wmt_join(dir, "court.svg");
    assert_int_equal(wm_mesh_save(&ctx, &mesh, out, svg->name, NULL, 0), WM_OK);
    assert_int_equal(wm_mesh_save(&ctx, &mesh, out, svg->name, NULL, 0), WM_ERR_EXISTS);
    char *text = svgt_load(out);
    /* 56 triangles in the sample, counted by hand: 20 grass, 28 stone, 8 walls */
    assert_int_equal(face_triangles(text), 56);
    assert_non_null(strstr(text, "grass (20)"));
    assert_non_null(strstr(text, "stone (28)"));
    assert_non_null(strstr(text, "nonwalk, blocking (8)"));
    /* grass is 43a047 and nonwalk e53935 in core/surfaces.txt; walls are faded */
    assert_non_null(strstr(text, "{fill:#43a047;stroke"));
    assert_non_null(strstr(text, "{fill:#e53935;fill-opacity:0.4;"));
    char *rooms = svgt_texts_in_group(text, "trl");
    assert_string_equal(rooms, "room 3\n");
    free(rooms);
    /* only what is drawn: no rows for surfaces or marks the mesh lacks */
    assert_null(strstr(text, "dirt ("));
    assert_null(strstr(text, "perimeter"));
    /* the same bytes every time */
    char *again = wmt_join(dir, "again.svg");
    assert_int_equal(wm_mesh_save(&ctx, &mesh, again, svg->name, NULL, 0), WM_OK);
    char *second = svgt_load(again);
    assert_string_equal(text, second);
    free(second);
    free(again);
    free(text);
    wm_mesh_free(&ctx, &mesh);
    wmt_remove_tree(dir);
    free(out);
    free(dir);
    free(sample);
}

/* The SVG is UTF-8 XML: a name that is not UTF-8 (a Latin-1 file or node
 * name) or holds control characters is written with U+FFFD instead, so the
 * picture still opens; valid UTF-8 is kept. */
static void names_are_well_formed_xml(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    char *sample = wmt_sample_path("ramp.obj");
    wm_mesh mesh;
    assert_int_equal(wm_mesh_load(&ctx, sample, wm_format_by_name("assimp")->name, NULL, &mesh), WM_OK);
    snprintf(mesh.name, sizeof mesh.name, "%s", "caf\xc3\xa9 n\xe9\x01x");
    char *dir = wmt_make_temp_dir();
    char *out = wmt_join(dir, "names.svg");
    assert_int_equal(wm_mesh_save(&ctx, &mesh, out, wm_format_by_name("svg")->name, NULL, 0), WM_OK);
    char *text = svgt_load(out);
    assert_non_null(strstr(text, "caf\xc3\xa9 n&#xFFFD;&#xFFFD;x"));
    assert_null(strchr(text, '\x01'));
    free(text);
    wm_mesh_free(&ctx, &mesh);
    wmt_remove_tree(dir);
    free(out);
    free(dir);
    free(sample);
}

/* Every view of the sample is valid SVG 1.1 (xmllint, Debian's DTD); a
 * view the writer does not know is an option error. */
static void views_are_valid_svg(void **state)
{
    (void)state;
    svgt_need_validator();
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    char *sample = wmt_sample_path("two_rooms.obj");
    wm_mesh mesh;
    assert_int_equal(wm_mesh_load(&ctx, sample, wm_format_by_name("assimp")->name, NULL, &mesh), WM_OK);
    char *dir = wmt_make_temp_dir();
    static const char *const views[] = {"top", "front", "side", "iso"};
    char *paths[4];
    for (int v = 0; v < 4; v++) {
        char name[32];
        snprintf(name, sizeof name, "%s.svg", views[v]);
        paths[v] = wmt_join(dir, name);
        wm_options opts;
        wm_options_init(&opts);
        wm_option_set(&ctx, &opts, "view", views[v]);
        assert_int_equal(wm_mesh_save(&ctx, &mesh, paths[v], wm_format_by_name("svg")->name, &opts, 0), WM_OK);
    }
    assert_int_equal(svgt_validate((const char *const *)paths, 4), 0);
    wm_options opts;
    wm_options_init(&opts);
    wm_option_set(&ctx, &opts, "view", "diagonal");
    char *bad = wmt_join(dir, "bad.svg");
    assert_int_equal(wm_mesh_save(&ctx, &mesh, bad, wm_format_by_name("svg")->name, &opts, 0), WM_ERR_OPTION);
    assert_false(wm_file_exists(bad));
    free(bad);
    for (int v = 0; v < 4; v++)
        free(paths[v]);
    wm_mesh_free(&ctx, &mesh);
    wmt_remove_tree(dir);
    free(dir);
    free(sample);
}

/* `walkmesh render` of a file no game module reads: the neutral mesh,
 * titled with the file name. */
static void render_any_readable_file(void **state)
{
    (void)state;
    char *sample = wmt_sample_path("courtyard.obj");
    char *dir = wmt_make_temp_dir();
    char *out = wmt_join(dir, "court.svg");
    const char *args[] = {"render", sample, "-o", out, "--view", "iso", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, args), 0);
    char *text = svgt_load(out);
    assert_non_null(strstr(text, "<title>courtyard.obj</title>"));
    assert_int_equal(face_triangles(text), 56);
    assert_non_null(strstr(text, "grass (20)"));
    free(text);
    free(out);
    wmt_remove_tree(dir);
    free(dir);
    free(sample);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(courtyard_picture),
        cmocka_unit_test(names_are_well_formed_xml),
        cmocka_unit_test(views_are_valid_svg),
        cmocka_unit_test(render_any_readable_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
