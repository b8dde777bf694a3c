/* Transitions through WOK -> OBJ -> WOK (issue 26.4): the builder warns about lost transitions
 * only when the written file lacks them. The OBJ reader puts a transition line on every face
 * edge it lies on, so a door edge shared by the walkable door face and a non-walkable face
 * comes back on both; the walkable face's edge keeps it and nothing is lost. A transition on an
 * edge that the import weld joins to another walkable face is lost for real and still warned.
 * "Lost" is decided here from the files alone: a transition of the source (its two end points
 * and room) that no edge of the written file carries. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"

static const char lost_warning[] = "are on edges that are not walkable boundary edges";

static void read_bwm(const char *path, bwm_file *f)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (bwm_read_file(&ctx, path, f)) fail_msg("%s: %s", path, wm_ctx_message(&ctx));
}

static const float *corner(const bwm_file *f, uint32_t code, int end)
{
    uint32_t face = code / 3, e = code % 3;
    return &f->vertices[3 * (size_t)f->faces[3 * (size_t)face + (end ? (e + 1) % 3 : e)]];
}

static int same_point(const float *a, const float *b)
{
    return fabsf(a[0] - b[0]) < 1e-4f && fabsf(a[1] - b[1]) < 1e-4f && fabsf(a[2] - b[2]) < 1e-4f;
}

/* Transitions of `from` (distinct end points and room) that no edge of `to` carries. */
static uint32_t missing_transitions(const bwm_file *from, const bwm_file *to, uint32_t *total)
{
    uint32_t missing = 0;
    *total = 0;
    for (uint32_t i = 0; i < from->edge_count; i++) {
        if (from->edges[i].transition < 0) continue;
        const float *a = corner(from, from->edges[i].code, 0), *b = corner(from, from->edges[i].code, 1);
        int repeated = 0, found = 0;
        for (uint32_t k = 0; k < i && !repeated; k++)
            repeated = from->edges[k].transition == from->edges[i].transition &&
                       ((same_point(corner(from, from->edges[k].code, 0), a) &&
                         same_point(corner(from, from->edges[k].code, 1), b)) ||
                        (same_point(corner(from, from->edges[k].code, 0), b) &&
                         same_point(corner(from, from->edges[k].code, 1), a)));
        if (repeated) continue;
        (*total)++;
        for (uint32_t k = 0; k < to->edge_count && !found; k++) {
            const float *c = corner(to, to->edges[k].code, 0), *d = corner(to, to->edges[k].code, 1);
            found = to->edges[k].transition == from->edges[i].transition &&
                    ((same_point(a, c) && same_point(b, d)) || (same_point(a, d) && same_point(b, c)));
        }
        missing += !found;
    }
    return missing;
}

/* WOK -> OBJ -> WOK in dir; returns the warnings of the second conversion (static buffer). */
static const char *round_trip(const char *wok, const char *dir, const char *back)
{
    char *obj = wmt_join(dir, "trip.obj"), *mtl = wmt_join(dir, "trip.mtl");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    remove(obj);
    remove(mtl);
    if (wm_convert(&ctx, wok, obj, NULL, NULL, NULL, 0)) fail_msg("%s: %s", wok, wm_ctx_message(&ctx));
    wmt_warnings[0] = '\0';
    if (wm_convert(&ctx, obj, back, NULL, NULL, NULL, 1)) fail_msg("%s: %s", wok, wm_ctx_message(&ctx));
    free(obj);
    free(mtl);
    static char saved[sizeof wmt_warnings]; /* the next wmt_ctx_init clears wmt_warnings */
    snprintf(saved, sizeof saved, "%s", wmt_warnings);
    return saved;
}

/* The warning says lost transitions iff the written file lacks some, and how many. */
static void assert_warning_tells_the_truth(const char *name, const bwm_file *source, const bwm_file *written,
                                           const char *warnings, uint32_t *out_missing)
{
    uint32_t total = 0, missing = missing_transitions(source, written, &total);
    const char *warning = strstr(warnings, lost_warning);
    print_message("%s: %u transitions, %u missing from the written file; warning: %s\n", name, total, missing,
                  warning ? "yes" : "no");
    if (!missing && warning) fail_msg("%s: warns of lost transitions, but the written file has all %u", name, total);
    if (missing && !warning) fail_msg("%s: %u transitions lost without a warning", name, missing);
    if (missing) {
        char expected[128];
        snprintf(expected, sizeof expected, "%u transitions %s", missing, lost_warning);
        if (!strstr(warnings, expected)) fail_msg("%s: expected \"%s\" in: %s", name, expected, warnings);
    }
    *out_missing = missing;
}

/* A kit room's shape: a walkable floor of two faces and two doors, each door a walkable face
 * whose two outer edges lead to the next room (two transitions per door, rooms 20 and 21), one
 * of them shared with a non-walkable face (the door frame). With weld = 0 the second door's
 * face takes copies of the floor's corners: coincident, distinct, not linked in the WOK; its
 * transition on that seam is lost when the OBJ import welds the seam shut. */
static void write_kit_room(const char *path, int seam)
{
    static const float v[][3] = {{0, 0, 0}, {4, 0, 0}, {4, 4, 0}, {0, 4, 0}, {6, 2, 0}, {8, 0, 0},
                                 {-2, 2, 0}, {-4, 0, 0}, {0, 0, 0}, {0, 4, 0}};
    static const uint32_t faces[][3] = {{0, 1, 2}, {0, 2, 3}, {1, 4, 2}, {3, 6, 0}, {1, 5, 4}, {0, 6, 7}};
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    wm_mesh_init(&m);
    for (int i = 0; i < 10; i++) assert_int_equal(wm_mesh_add_vertex(&ctx, &m, v[i][0], v[i][1], v[i][2], NULL), WM_OK);
    for (int t = 0; t < 6; t++) {
        uint32_t a = faces[t][0], b = faces[t][1], c = faces[t][2];
        if (seam && t == 3) a = 9, c = 8; /* the second door on copies of the floor's corners */
        int walkable = t < 4;
        assert_int_equal(wm_mesh_add_triangle(&ctx, &m, a, b, c, walkable ? WM_SURF_STONE : WM_SURF_NONWALK, walkable),
                         WM_OK);
    }
    m.transitions[3 * 2 + 0] = m.transitions[3 * 2 + 1] = 20; /* door 1: 1-4 (on the frame 1 5 4) and 4-2 */
    m.transitions[3 * 3 + 0] = m.transitions[3 * 3 + 1] = 21; /* door 2: 3-6 and 6-0 (on the frame 0 6 7) */
    if (seam) m.transitions[3 * 3 + 2] = 22;                  /* 0-3 of door 2: the seam to the floor */
    wm_options opts;
    wm_options_init(&opts);
    opts.weld_tolerance = 0;
    if (wm_mesh_save(&ctx, &m, path, NULL, &opts, 1)) fail_msg("%s", wm_ctx_message(&ctx));
    wm_mesh_free(&ctx, &m);
}

static void kit_room_case(int seam, uint32_t expect_missing)
{
    char *dir = wmt_make_temp_dir();
    char *wok = wmt_join(dir, "kit.wok"), *back = wmt_join(dir, "back.wok");
    write_kit_room(wok, seam);
    const char *warnings = round_trip(wok, dir, back);
    bwm_file source, written;
    read_bwm(wok, &source);
    read_bwm(back, &written);
    uint32_t sourced = 0, missing = 0;
    for (uint32_t e = 0; e < source.edge_count; e++) sourced += source.edges[e].transition >= 0;
    assert_int_equal(sourced, seam ? 5 : 4); /* the source holds them all: they are boundary edges there */
    assert_warning_tells_the_truth(seam ? "kit room with a seam" : "kit room", &source, &written, warnings, &missing);
    assert_int_equal(missing, expect_missing);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    bwm_file_free(&ctx, &source);
    bwm_file_free(&ctx, &written);
    wmt_remove_tree(dir);
    free(wok);
    free(back);
    free(dir);
}

static void test_kit_room_round_trip_warns_nothing(void **state)
{
    (void)state;
    kit_room_case(0, 0);
}

static void test_lost_transition_still_warned(void **state)
{
    (void)state;
    kit_room_case(1, 1);
}

/* Every corpus WOK with transitions, WOK -> OBJ -> WOK: the warning matches the written file. */
static void test_corpus_round_trips(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".wok", NULL};
    char **list = NULL;
    size_t n = wmt_corpus_list("bwm", suffixes, &list);
    char *dir = wmt_make_temp_dir(), *back = wmt_join(dir, "back.wok");
    uint32_t files = 0, transitions = 0, missing_total = 0;
    for (size_t i = 0; i < n; i++) {
        bwm_file source, written;
        read_bwm(list[i], &source);
        uint32_t count = 0, missing = 0;
        for (uint32_t e = 0; e < source.edge_count; e++) count += source.edges[e].transition >= 0;
        if (count) {
            const char *warnings = round_trip(list[i], dir, back);
            read_bwm(back, &written);
            assert_warning_tells_the_truth(strrchr(list[i], '/') + 1, &source, &written, warnings, &missing);
            files++;
            transitions += count;
            missing_total += missing;
            wm_ctx ctx;
            wmt_ctx_init(&ctx);
            bwm_file_free(&ctx, &written);
        }
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        bwm_file_free(&ctx, &source);
    }
    print_message("%u corpus WOKs with %u transition edges; %u transitions missing after the round trip\n", files,
                  transitions, missing_total);
    assert_true(files > 0);
    wmt_remove_tree(dir);
    free(back);
    free(dir);
    wmt_free_list(list, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kit_room_round_trip_warns_nothing),
        cmocka_unit_test(test_lost_transition_still_warned),
        cmocka_unit_test(test_corpus_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
