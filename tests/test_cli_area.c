/* `walkmesh area` on the four vanilla m10aa rooms of the corpus: assembled from a layout and
 * split back, every room's .wok has the original's faces and transitions (the links between
 * the four dropped with --remap, so the split must find them again where the rooms meet);
 * --move, --rotate and --mirror place a room where the same transform applied here to the
 * original file's vertices puts it. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROOMS 4
static const char *const rooms[ROOMS] = {"m10aa_01c", "m10aa_03a", "m10aa_05a", "m10aa_08b"};
/* Layout indices 2, 3, 6 and 7: the indices the rooms' own transitions use for each other
 * (test_lyt reads them off the files); the other rooms of the area are not in the corpus. */
static const char layout_text[] = "beginlayout\nroomcount 8\nother0 0 0 0\nother1 0 0 0\nm10aa_08b 0 0 0\n"
                                  "m10aa_05a 0 0 0\nother4 0 0 0\nother5 0 0 0\nm10aa_01c 1.5 -2 0\n"
                                  "m10aa_03a 0.5 4 0\ndonelayout\n";

typedef struct scratch {
    char *dir, *lyt;
} scratch;

/* The layout and the four rooms' .wok under the names the layout gives them. */
static void make_scratch(scratch *s)
{
    s->dir = wmt_make_temp_dir();
    s->lyt = wmt_join(s->dir, "m10aa.lyt");
    for (int i = 0; i < ROOMS; i++) {
        char rel[128], name[64];
        snprintf(rel, sizeof rel, "bwm/pykotor-generated_kit-blackvulkar-%s.wok", rooms[i]);
        snprintf(name, sizeof name, "%s.wok", rooms[i]);
        char *from = wmt_corpus_path(rel), *to = wmt_join(s->dir, name);
        if (!from) {
            free(to);
            wmt_remove_tree(s->dir);
            free(s->dir);
            free(s->lyt);
            skip();
            return; /* skip() does not return; gcc's use-after-free analysis does not know that */
        }
        size_t size;
        uint8_t *data = wmt_read_file(from, &size);
        wmt_write_file(to, data, size);
        free(data);
        free(from);
        free(to);
    }
    wmt_write_file(s->lyt, layout_text, sizeof layout_text - 1);
}

static void free_scratch(scratch *s)
{
    wmt_remove_tree(s->dir);
    free(s->dir);
    free(s->lyt);
}

static void load(const char *path, wm_mesh *out)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (wm_mesh_load(&ctx, path, NULL, NULL, out))
        fail_msg("%s", wm_ctx_message(&ctx));
}

static void assemble_and_split_give_back_every_room(void **state)
{
    (void)state;
    scratch s;
    make_scratch(&s);
    char *obj = wmt_join(s.dir, "area.obj"), *out = wmt_join(s.dir, "split");
    const char *assemble[] = {"area", "assemble", s.lyt, obj, "--remap", "2=-1,3=-1,6=-1,7=-1", "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, assemble), 0);
    const char *split[] = {"area", "split", obj, s.lyt, out, "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, split), 0);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    for (int i = 0; i < ROOMS; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s.wok", rooms[i]);
        char *orig_path = wmt_join(s.dir, name), *back_path = wmt_join(out, name);
        wm_mesh orig, back;
        load(orig_path, &orig);
        load(back_path, &back);
        assert_int_equal(back.triangle_count, orig.triangle_count);
        int links = 0;
        for (size_t k = 0; k < 3 * (size_t)orig.triangle_count; k++) {
            assert_int_equal(back.transitions[k], orig.transitions[k]);
            links += orig.transitions[k] != WM_NO_TRANSITION;
        }
        print_message("%s: %u faces, %d edges with a transition, all back\n", rooms[i], orig.triangle_count, links);
        wm_mesh_free(&ctx, &orig);
        wm_mesh_free(&ctx, &back);
        free(orig_path);
        free(back_path);
    }
    free(obj);
    free(out);
    free_scratch(&s);
}

/* The bounds of an object's triangles' vertices. */
static void object_bounds(const wm_mesh *m, int32_t object, double min[3], double max[3])
{
    for (int k = 0; k < 3; k++)
        min[k] = INFINITY, max[k] = -INFINITY;
    for (uint32_t t = 0; t < m->triangle_count; t++)
        for (int c = 0; object >= 0 && m->objects[t] == (uint16_t)object && c < 3; c++)
            for (int k = 0; k < 3; k++) {
                double v = m->positions[3 * (size_t)m->indices[3 * t + c] + k];
                min[k] = v < min[k] ? v : min[k];
                max[k] = v > max[k] ? v : max[k];
            }
}

typedef struct edit {
    const char *option, *value;
    double move[3], degrees; /* degrees about the pivot, then the move */
    int mirror;              /* -1: none, 0: x, 1: y */
} edit;

/* One edit of room m10aa_01c (layout position (1.5, -2)), predicted from the original file. */
static void check_edit(const scratch *s, const edit *e)
{
    const double pivot[2] = {1.5, -2};
    char *obj = wmt_join(s->dir, "edited.obj"), *wok = wmt_join(s->dir, "m10aa_01c.wok");
    const char *argv[] = {"area", "assemble", s->lyt, obj, e->option, e->value, "-q", "-f", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, argv), 0);
    wm_mesh orig, area;
    load(wok, &orig);
    load(obj, &area);
    double want_min[3] = {INFINITY, INFINITY, INFINITY}, want_max[3] = {-INFINITY, -INFINITY, -INFINITY};
    double c = cos(e->degrees * 3.14159265358979323846 / 180), sn = sin(e->degrees * 3.14159265358979323846 / 180);
    for (uint32_t v = 0; v < orig.vertex_count; v++) {
        const float *p = &orig.positions[3 * (size_t)v];
        double x = p[0] - pivot[0], y = p[1] - pivot[1], q[3];
        if (e->mirror == 0)
            x = -x;
        if (e->mirror == 1)
            y = -y;
        q[0] = pivot[0] + x * c - y * sn + e->move[0];
        q[1] = pivot[1] + x * sn + y * c + e->move[1];
        q[2] = p[2] + e->move[2];
        for (int k = 0; k < 3; k++) {
            want_min[k] = q[k] < want_min[k] ? q[k] : want_min[k];
            want_max[k] = q[k] > want_max[k] ? q[k] : want_max[k];
        }
    }
    double min[3], max[3];
    object_bounds(&area, wm_mesh_find_object(&area, "m10aa_01c"), min, max);
    for (int k = 0; k < 3; k++) {
        assert_true(fabs(min[k] - want_min[k]) < 1e-3);
        assert_true(fabs(max[k] - want_max[k]) < 1e-3);
    }
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh_free(&ctx, &orig);
    wm_mesh_free(&ctx, &area);
    free(obj);
    free(wok);
}

static void room_edits_place_the_room_as_predicted(void **state)
{
    (void)state;
    scratch s;
    make_scratch(&s);
    const edit edits[] = {
        {"--move", "m10aa_01c=10,-20,3", {10, -20, 3}, 0, -1},
        {"--rotate", "m10aa_01c=30", {0, 0, 0}, 30, -1},
        {"--mirror", "m10aa_01c=x", {0, 0, 0}, 0, 0},
        {"--mirror", "m10aa_01c=y", {0, 0, 0}, 0, 1},
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++)
        check_edit(&s, &edits[i]);
    free_scratch(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(assemble_and_split_give_back_every_room),
        cmocka_unit_test(room_edits_place_the_room_as_predicted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
