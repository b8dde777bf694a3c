/* The SVG picture: one filled path per triangle in the surface's colour,
 * a legend with the hand-counted surfaces of the courtyard sample. */
#define _GNU_SOURCE
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t count_occurrences(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
        n++;
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
    assert_int_equal(reader->read(&ctx, sample, NULL, &mesh), WM_OK);
    mesh.transitions[0] = 3; /* one edge links to room 3 */
    char *dir = wmt_make_temp_dir();
    char *out = wmt_join(dir, "court.svg");
    assert_int_equal(svg->write(&ctx, &mesh, out, NULL, 0), WM_OK);
    assert_int_equal(svg->write(&ctx, &mesh, out, NULL, 0), WM_ERR_EXISTS);
    size_t size;
    char *text = (char *)wmt_read_file(out, &size);
    text = realloc(text, size + 1);
    text[size] = '\0';
    assert_int_equal(count_occurrences(text, "<path "), 56);
    assert_non_null(strstr(text, "grass (20)"));
    assert_non_null(strstr(text, "stone (28)"));
    assert_non_null(strstr(text, "nonwalk (8)"));
    /* grass is 43a047 and nonwalk e53935 in core/surfaces.txt; the 8 walls are faded */
    assert_int_equal(count_occurrences(text, "fill=\"#43a047\" fill-opacity=\"1\""), 20 + 1);
    assert_int_equal(count_occurrences(text, "fill=\"#e53935\" fill-opacity=\"0.45\""), 8 + 1);
    assert_int_equal(count_occurrences(text, "<title>transition 3</title>"), 1);
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
    assert_int_equal(wm_format_by_name("assimp")->read(&ctx, sample, NULL, &mesh), WM_OK);
    snprintf(mesh.name, sizeof mesh.name, "%s", "caf\xc3\xa9 n\xe9\x01x");
    char *dir = wmt_make_temp_dir();
    char *out = wmt_join(dir, "names.svg");
    assert_int_equal(wm_format_by_name("svg")->write(&ctx, &mesh, out, NULL, 0), WM_OK);
    size_t size;
    char *text = (char *)wmt_read_file(out, &size);
    text = realloc(text, size + 1);
    text[size] = '\0';
    assert_non_null(strstr(text, "caf\xc3\xa9 n&#xFFFD;&#xFFFD;x"));
    assert_null(memchr(text, '\x01', size));
    free(text);
    wm_mesh_free(&ctx, &mesh);
    wmt_remove_tree(dir);
    free(out);
    free(dir);
    free(sample);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(courtyard_picture),
        cmocka_unit_test(names_are_well_formed_xml),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
