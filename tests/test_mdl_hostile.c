/* Hostile binary models (issue 27): values a float walkmesh cannot hold are
 * refused naming the node or option, an error names the node that is bad,
 * a cut model is truncated (exit 2), and whatever converts validates. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "test_mdl_raw.h"
#include "mdl/mdl.h"

#define ROOM "pykotor-generated_kit-blackvulkar-m10aa_08b"

typedef struct hostile {
    char *dir, *model, *out;
    uint8_t *data;
    size_t size;
    raw_model raw;
} hostile;

static void open_room(hostile *h)
{
    char *path = wmt_corpus_path_or_skip("bwm-models/" ROOM ".mdl");
    h->data = wmt_read_file(path, &h->size);
    free(path);
    raw_open(&h->raw, h->data);
    h->dir = wmt_make_temp_dir();
    h->model = wmt_join(h->dir, "room.mdl");
    h->out = wmt_join(h->dir, "room.wok");
}

static void close_room(hostile *h)
{
    wmt_remove_tree(h->dir);
    free(h->dir);
    free(h->model);
    free(h->out);
    free(h->data);
}

static void put_f32(hostile *h, uint32_t model_offset, float value)
{
    memcpy(h->data + 12 + model_offset, &value, 4);
}

/* convert, expecting `code`; stderr must hold every word given; a refusal leaves no file. */
static void convert_expect(hostile *h, int code, const char *const *words, const char *option, const char *value)
{
    wmt_write_file(h->model, h->data, h->size);
    const char *argv[] = {"convert", h->model, h->out, "--force", option, value, NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, argv), code);
    for (size_t i = 0; words && words[i]; i++)
        if (!strstr(err, words[i])) fail_msg("\"%s\" not in: %s", words[i], err);
    if (code) assert_false(wm_file_exists(h->out));
    free(err);
}

/* The first data value of the walkmesh node's position controller (type 8). */
static uint32_t position_key(const raw_model *r)
{
    uint32_t n = r->walkmesh, keys = raw_u32(r, n + 56);
    for (uint32_t i = 0; i < raw_u32(r, n + 60); i++)
        if (raw_u32(r, keys + 16 * i) == 8) return raw_u32(r, n + 68) + 4 * raw_u16(r, keys + 16 * i + 10);
    fail_msg("no position controller");
    return 0;
}

static void test_node_position_past_the_limit(void **state)
{
    (void)state;
    hostile h;
    open_room(&h);
    put_f32(&h, h.raw.walkmesh + 16, 3e38f);
    const char *words[] = {raw_node_name(&h.raw, h.raw.walkmesh), "node position", "beyond the bound", NULL};
    convert_expect(&h, 2, words, NULL, NULL);
    close_room(&h);
}

static void test_controller_position_past_the_limit(void **state)
{
    (void)state;
    hostile h;
    open_room(&h);
    put_f32(&h, position_key(&h.raw), 3.4e38f);
    const char *words[] = {raw_node_name(&h.raw, h.raw.walkmesh), "position key", "beyond the bound", NULL};
    convert_expect(&h, 2, words, NULL, NULL);
    close_room(&h);
}

/* Just past the limit the option is refused; at the limit, where a float
 * steps by 1, the room's corners would merge: refused as the input's fault;
 * an area's usual distances convert. */
static void test_room_offset_past_the_limit(void **state)
{
    (void)state;
    hostile h;
    open_room(&h);
    const char *option[] = {"--room-offset", "beyond the bound", NULL}, *merged[] = {"too far out", NULL};
    convert_expect(&h, 1, option, "--room-offset", "0,-10000001,0");
    convert_expect(&h, 2, merged, "--room-offset", "9999000,-9999000,9999000");
    convert_expect(&h, 0, NULL, "--room-offset", "-900,900,90");
    close_room(&h);
}

/* A node whose header is bad is named, not the node read before it. */
static void test_error_names_the_bad_node(void **state)
{
    (void)state;
    hostile h;
    open_room(&h);
    uint32_t bad = h.raw.nodes[2], before = h.raw.nodes[1];
    assert_string_not_equal(raw_node_name(&h.raw, bad), raw_node_name(&h.raw, before));
    put_f32(&h, bad + 28, NAN); /* orientation w */
    wm_ctx ctx;
    mdl_walkmesh w;
    wmt_ctx_init(&ctx);
    assert_int_equal(mdl_parse_walkmesh(&ctx, h.data, h.size, "room.mdl", &w), WM_ERR_CORRUPT);
    char expected[64];
    snprintf(expected, sizeof expected, "%s: node orientation", raw_node_name(&h.raw, bad));
    if (!strstr(wm_ctx_message(&ctx), expected)) fail_msg("\"%s\" not in: %s", expected, wm_ctx_message(&ctx));
    close_room(&h);
}

/* The header's size field past the end: truncated (exit 2), not "not a model". */
static void test_cut_model_is_truncated(void **state)
{
    (void)state;
    hostile h;
    open_room(&h);
    h.size /= 2;
    const char *words[] = {"truncated", NULL};
    convert_expect(&h, 2, words, NULL, NULL);
    close_room(&h);
}

/* The ASCII model's walkmesh node: a position past the limit names its line;
 * one within it but too far out for the room's 0.25 m triangle is refused; a
 * usual one converts and validates. */
static void test_ascii_model_positions(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir(), *text = wmt_join(dir, "room.mdl.ascii"), *out = wmt_join(dir, "room.wok");
    static const char *const positions[] = {"3e38 0 0", "9999000 -9999000 9999000", "90 -90 9"};
    static const int codes[] = {2, 2, 0};
    static const char *const words[] = {"line 5", "too far out", "own space"};
    for (int i = 0; i < 3; i++) {
        char model[512];
        snprintf(model, sizeof model, "newmodel room\nbeginmodelgeom room\nnode aabb walk\n  parent room\n  position %s\n"
                 "  verts 3\n    0 0 0\n    0.25 0 0\n    0 0.25 0\n  faces 1\n    0 1 2 1 0 0 0 4\nendnode\n"
                 "endmodelgeom room\ndonemodel room\n", positions[i]);
        wmt_write_file(text, model, strlen(model));
        const char *argv[] = {"convert", text, out, "--force", NULL}, *check[] = {"validate", out, NULL};
        char *err = NULL;
        assert_int_equal(wmt_run_cli(NULL, &err, argv), codes[i]);
        if (!strstr(err, words[i])) fail_msg("\"%s\" not in: %s", words[i], err);
        free(err);
        if (codes[i] == 0) assert_int_equal(wmt_run_cli(NULL, NULL, check), 0);
    }
    free(out);
    free(text);
    wmt_remove_tree(dir);
    free(dir);
}

/* Every float of every node header, every controller value and the first
 * vertices, set to each hostile value: the model is refused, or the walkmesh
 * it makes (built and checked as `validate` does) has no error. */
static void test_hostile_values_refused_or_valid(void **state)
{
    (void)state;
    hostile h;
    open_room(&h);
    static const float values[] = {3e38f, -3.4e38f, 10000001.0f, 9.99e6f, -1e7f, INFINITY, NAN, 1e-40f};
    uint32_t places[2048], count = 0, refused = 0, valid = 0;
    for (uint32_t i = 0; i < h.raw.node_count; i++) {
        uint32_t n = h.raw.nodes[i];
        for (uint32_t k = 0; k < 7; k++) places[count++] = n + 16 + 4 * k;
        for (uint32_t k = 0; k < raw_u32(&h.raw, n + 72) && count < 1900; k++) places[count++] = raw_u32(&h.raw, n + 68) + 4 * k;
    }
    for (uint32_t k = 0; k < 12; k++) places[count++] = raw_u32(&h.raw, raw_mesh_field(&h.raw, 0) - 4) + 4 * k;
    uint8_t *original = malloc(h.size);
    memcpy(original, h.data, h.size);
    for (uint32_t p = 0; p < count; p++)
        for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
            memcpy(h.data, original, h.size);
            put_f32(&h, places[p], values[v]);
            wm_ctx ctx;
            wm_input in;
            wm_report report;
            wmt_ctx_init(&ctx);
            wm_input_borrow(&in, h.data, h.size, "room.mdl");
            wm_report_init(&report, &ctx);
            wm_result r = wm_format_mdl.validate(&ctx, &in, NULL, &report);
            if (r == WM_OK || report.errors) {
                if (report.errors) fail_msg("model offset %u = %g: the walkmesh has %u errors", places[p], (double)values[v], report.errors);
                valid++;
            } else {
                refused++;
            }
            wm_report_free(&report);
        }
    print_message("%u hostile models: %u refused, %u made a valid walkmesh\n", refused + valid, refused, valid);
    assert_true(refused > 0 && valid > 0);
    free(original);
    close_room(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_node_position_past_the_limit),
        cmocka_unit_test(test_controller_position_past_the_limit),
        cmocka_unit_test(test_room_offset_past_the_limit),
        cmocka_unit_test(test_error_names_the_bad_node),
        cmocka_unit_test(test_cut_model_is_truncated),
        cmocka_unit_test(test_ascii_model_positions),
        cmocka_unit_test(test_hostile_values_refused_or_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
