/* Layouts (.lyt) and areas: the corpus layouts read, written and read back
 * identical; every prefix refused cleanly; the four vanilla m10aa rooms
 * assembled into one area and split back into their .wok files with their
 * transitions; rooms moved, turned and mirrored with links on their edges. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"
#include "lyt/lyt.h"

static void parse_text(const uint8_t *data, size_t size, wm_layout *out)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (wm_layout_parse(&ctx, data, size, "layout", out)) fail_msg("%s", wm_ctx_message(&ctx));
}

static void assert_places_equal(const wm_layout_place *a, const wm_layout_place *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        assert_string_equal(a[i].name, b[i].name);
        assert_memory_equal(a[i].position, b[i].position, sizeof a[i].position);
    }
}

static void assert_layouts_equal(const wm_layout *a, const wm_layout *b)
{
    assert_string_equal(a->dependency, b->dependency);
    assert_int_equal(a->room_count, b->room_count);
    assert_int_equal(a->track_count, b->track_count);
    assert_int_equal(a->obstacle_count, b->obstacle_count);
    assert_int_equal(a->doorhook_count, b->doorhook_count);
    assert_places_equal(a->rooms, b->rooms, a->room_count);
    assert_places_equal(a->tracks, b->tracks, a->track_count);
    assert_places_equal(a->obstacles, b->obstacles, a->obstacle_count);
    for (uint32_t i = 0; i < a->doorhook_count; i++) {
        const wm_layout_doorhook *p = &a->doorhooks[i], *q = &b->doorhooks[i];
        assert_string_equal(p->room, q->room);
        assert_string_equal(p->door, q->door);
        assert_int_equal(p->unknown, q->unknown);
        assert_memory_equal(p->position, q->position, sizeof p->position);
        assert_memory_equal(p->orientation, q->orientation, sizeof p->orientation);
    }
}

/* Counts as the corpus README describes the files, and a write -> read round trip. */
static void test_corpus_layouts_round_trip(void **state)
{
    (void)state;
    static const struct { const char *file; uint32_t rooms, tracks, obstacles, doors; } files[] = {
        {"bwm-models/k1cp-m40ad.lyt", 13, 0, 0, 13},
        {"bwm-models/pykotor-test.lyt", 2, 2, 2, 2},
    };
    for (size_t i = 0; i < 2; i++) {
        char *path = wmt_corpus_path_or_skip(files[i].file);
        size_t size = 0;
        uint8_t *data = wmt_read_file(path, &size);
        wm_layout a, b;
        wm_buffer text;
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        parse_text(data, size, &a);
        assert_int_equal(a.room_count, files[i].rooms);
        assert_int_equal(a.track_count, files[i].tracks);
        assert_int_equal(a.obstacle_count, files[i].obstacles);
        assert_int_equal(a.doorhook_count, files[i].doors);
        assert_int_equal(wm_layout_serialize(&ctx, &a, &text), WM_OK);
        parse_text(text.data, text.size, &b);
        assert_layouts_equal(&a, &b);
        wm_buffer_free(&text);
        wm_layout_free(&ctx, &b);
        /* NULs padding the end (an archive's member), even on donelayout's line: the same layout */
        size_t kept = size;
        while (kept && (data[kept - 1] == '\n' || data[kept - 1] == '\r')) kept--;
        uint8_t *padded = calloc(kept + 16, 1);
        memcpy(padded, data, kept);
        parse_text(padded, kept + 16, &b);
        assert_layouts_equal(&a, &b);
        free(padded);
        wm_layout_free(&ctx, &a);
        wm_layout_free(&ctx, &b);
        free(data);
        free(path);
    }
}

/* Every prefix short of `donelayout` is refused with its line named. */
static void test_truncation_sweep(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip("bwm-models/k1cp-m40ad.lyt");
    size_t size = 0;
    uint8_t *data = wmt_read_file(path, &size);
    const uint8_t *done = NULL;
    for (size_t i = 0; i + 10 <= size && !done; i++)
        if (memcmp(data + i, "donelayout", 10) == 0) done = data + i + 10;
    assert_non_null(done);
    for (size_t n = 0; n < (size_t)(done - data); n++) {
        wm_ctx ctx;
        wm_layout l;
        wmt_ctx_init(&ctx);
        assert_int_not_equal(wm_layout_parse(&ctx, data, n, "cut.lyt", &l), WM_OK);
        assert_non_null(strstr(wm_ctx_message(&ctx), "cut.lyt"));
    }
    free(data);
    free(path);
}

#define M10AA_ROOMS 4
static const char *const m10aa[M10AA_ROOMS] = {"m10aa_01c", "m10aa_03a", "m10aa_05a", "m10aa_08b"};

typedef struct room_set {
    bwm_file files[M10AA_ROOMS];
} room_set;

static wm_result load_from_set(wm_ctx *ctx, void *user, const char *room, const float position[3], wm_mesh *out)
{
    room_set *set = user;
    (void)position;
    for (int i = 0; i < M10AA_ROOMS; i++)
        if (strcmp(room, m10aa[i]) == 0) return bwm_to_mesh(ctx, &set->files[i], room, out);
    return wm_error(ctx, WM_ERR_IO, "not in the test set");
}

static int same_points(const bwm_file *f, uint32_t code, const bwm_file *g, uint32_t code2)
{
    const float *a = &f->vertices[3 * (size_t)f->faces[code]], *b = &f->vertices[3 * (size_t)f->faces[code - code % 3 + (code % 3 + 1) % 3]];
    const float *c = &g->vertices[3 * (size_t)g->faces[code2]], *d = &g->vertices[3 * (size_t)g->faces[code2 - code2 % 3 + (code2 % 3 + 1) % 3]];
    float e = 1e-3f;
    int ac = fabsf(a[0] - c[0]) < e && fabsf(a[1] - c[1]) < e && fabsf(a[2] - c[2]) < e;
    int bd = fabsf(b[0] - d[0]) < e && fabsf(b[1] - d[1]) < e && fabsf(b[2] - d[2]) < e;
    int ad = fabsf(a[0] - d[0]) < e && fabsf(a[1] - d[1]) < e && fabsf(a[2] - d[2]) < e;
    int bc = fabsf(b[0] - c[0]) < e && fabsf(b[1] - c[1]) < e && fabsf(b[2] - c[2]) < e;
    return (ac && bd) || (ad && bc);
}

/* The rooms' places in the area's layout (not public) read off the files: a
 * room's transition that lies on another room's edge is that room's index.
 * A room no other links to takes the smallest index no transition uses. */
static uint32_t layout_indices(const room_set *set, int32_t index[M10AA_ROOMS])
{
    uint8_t used[256] = {0};
    uint32_t count = 0;
    for (int i = 0; i < M10AA_ROOMS; i++) index[i] = -1;
    for (int a = 0; a < M10AA_ROOMS; a++)
        for (uint32_t e = 0; e < set->files[a].edge_count; e++) {
            const bwm_edge *edge = &set->files[a].edges[e];
            if (edge->transition < 0 || edge->transition > 255) continue;
            used[edge->transition] = 1;
            for (int b = 0; b < M10AA_ROOMS; b++)
                for (uint32_t k = 0; b != a && k < set->files[b].edge_count; k++)
                    if (same_points(&set->files[a], edge->code, &set->files[b], set->files[b].edges[k].code))
                        index[b] = edge->transition;
        }
    for (int i = 0; i < M10AA_ROOMS; i++) {
        if (index[i] >= 0) continue;
        int32_t free_index = 0;
        while (used[free_index]) free_index++;
        index[i] = free_index;
        used[free_index] = 1;
    }
    for (int i = 0; i < 256; i++)
        if (used[i]) count = (uint32_t)i + 1;
    return count;
}

static void assert_same_walkmesh(const bwm_file *a, const bwm_file *b)
{
    assert_int_equal(a->vertex_count, b->vertex_count);
    assert_memory_equal(a->vertices, b->vertices, 12 * (size_t)a->vertex_count);
    assert_int_equal(a->face_count, b->face_count);
    assert_memory_equal(a->faces, b->faces, 12 * (size_t)a->face_count);
    assert_memory_equal(a->materials, b->materials, 4 * (size_t)a->face_count);
    assert_int_equal(a->adjacency_count, b->adjacency_count);
    assert_memory_equal(a->adjacency, b->adjacency, 12 * (size_t)a->adjacency_count);
    assert_int_equal(a->edge_count, b->edge_count);
    assert_memory_equal(a->edges, b->edges, 8 * (size_t)a->edge_count);
    assert_int_equal(a->perimeter_count, b->perimeter_count);
    assert_memory_equal(a->perimeters, b->perimeters, 4 * (size_t)a->perimeter_count);
}

/* Assemble the four rooms, drop their transitions, split: each room's .wok
 * comes back, links between the four computed where they meet, links to
 * rooms outside the set (which meet nothing here) kept from the area mesh. */
static void split_and_compare(room_set *set, const wm_layout *layout, const int32_t *index, int drop_inner)
{
    wm_ctx ctx;
    wm_mesh area, rooms[256];
    wmt_ctx_init(&ctx);
    if (wm_area_assemble(&ctx, layout, load_from_set, set, &area)) fail_msg("%s", wm_ctx_message(&ctx));
    assert_int_equal(area.object_count, layout->room_count);
    if (drop_inner) /* links between rooms of the set are what the split must find again */
        for (size_t i = 0; i < 3 * (size_t)area.triangle_count; i++)
            for (int r = 0; r < M10AA_ROOMS; r++)
                if (area.transitions[i] == index[r]) area.transitions[i] = WM_NO_TRANSITION;
    if (wm_area_split(&ctx, &area, layout, 1e-3f, rooms)) fail_msg("%s", wm_ctx_message(&ctx));
    for (int r = 0; r < M10AA_ROOMS; r++) {
        bwm_file built;
        if (bwm_from_mesh_exact(&ctx, &rooms[index[r]], BWM_TYPE_AREA, BWM_PLANES_BIOWARE, NULL, &built))
            fail_msg("%s", wm_ctx_message(&ctx));
        assert_same_walkmesh(&built, &set->files[r]);
        bwm_file_free(&ctx, &built);
    }
    for (uint32_t i = 0; i < layout->room_count; i++) wm_mesh_free(&ctx, &rooms[i]);
    wm_mesh_free(&ctx, &area);
}

static void test_m10aa_area_split(void **state)
{
    (void)state;
    room_set set;
    int32_t index[M10AA_ROOMS];
    for (int i = 0; i < M10AA_ROOMS; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "bwm/pykotor-generated_kit-blackvulkar-%s.wok", m10aa[i]);
        char *path = wmt_corpus_path_or_skip(rel);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        if (bwm_read_file(&ctx, path, &set.files[i])) fail_msg("%s", wm_ctx_message(&ctx));
        free(path);
    }
    uint32_t count = layout_indices(&set, index);
    print_message("m10aa rooms at layout indices 01c %d, 03a %d, 05a %d, 08b %d (of %u)\n", index[0], index[1],
                  index[2], index[3], count);
    wm_layout layout;
    wm_layout_init(&layout);
    layout.room_count = count;
    layout.rooms = calloc(count, sizeof *layout.rooms);
    for (uint32_t i = 0; i < count; i++) snprintf(layout.rooms[i].name, WM_LAYOUT_NAME, "other_%u", i);
    for (int r = 0; r < M10AA_ROOMS; r++) snprintf(layout.rooms[index[r]].name, WM_LAYOUT_NAME, "%s", m10aa[r]);
    split_and_compare(&set, &layout, index, 0);
    split_and_compare(&set, &layout, index, 1);
    free(layout.rooms);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    for (int i = 0; i < M10AA_ROOMS; i++) bwm_file_free(&ctx, &set.files[i]);
}

/* A square room of two walkable faces with a link on each outer edge. */
static void square_room(wm_mesh *m)
{
    wm_ctx ctx;
    uint16_t object;
    wmt_ctx_init(&ctx);
    wm_mesh_init(m);
    assert_int_equal(wm_mesh_add_object(&ctx, m, "room", &object), WM_OK);
    static const float v[4][3] = {{0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {0, 1, 0}};
    for (int i = 0; i < 4; i++) assert_int_equal(wm_mesh_add_vertex(&ctx, m, v[i][0], v[i][1], v[i][2], NULL), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(&ctx, m, 0, 1, 2, WM_SURF_DIRT, 1), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(&ctx, m, 0, 2, 3, WM_SURF_DIRT, 1), WM_OK);
    m->transitions[0] = 5, m->transitions[1] = 6, m->transitions[4] = 7, m->transitions[5] = 8;
}

/* Each link's edge as its two end points, for every face edge with a link. */
static int link_at(const wm_mesh *m, int32_t link, float ends[2][3])
{
    for (uint32_t t = 0; t < m->triangle_count; t++)
        for (int e = 0; e < 3; e++)
            if (m->transitions[3 * t + e] == link) {
                memcpy(ends[0], &m->positions[3 * m->indices[3 * t + e]], 12);
                memcpy(ends[1], &m->positions[3 * m->indices[3 * t + (e + 1) % 3]], 12);
                return 1;
            }
    return 0;
}

/* Mirror then rotate: faces still face up, each link on the image of its edge. */
static void test_room_edits_keep_links_on_their_edges(void **state)
{
    (void)state;
    wm_mesh m, before;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    square_room(&m);
    square_room(&before);
    const float pivot[2] = {1, 0}, delta[3] = {10, 20, 3};
    assert_int_equal(wm_room_mirror(&ctx, &m, 0, 0, 1.5f), WM_OK);     /* x -> 3 - x */
    assert_int_equal(wm_room_rotate_z(&ctx, &m, 0, 90.0, pivot), WM_OK); /* (x,y) -> (1 - y, x - 1) */
    assert_int_equal(wm_room_move(&ctx, &m, 0, delta), WM_OK);
    for (uint32_t t = 0; t < m.triangle_count; t++) {
        float n[3];
        wm_mesh_triangle_normal(&m, t, n);
        assert_true(n[2] > 0.99f);
    }
    for (int32_t link = 5; link <= 8; link++) {
        float a[2][3], b[2][3];
        assert_true(link_at(&before, link, a));
        assert_true(link_at(&m, link, b));
        for (int end = 0; end < 2; end++) { /* the same edge mapped, either direction */
            float x = 3 - a[end][0], y = a[end][1];
            float want[3] = {1 - y + 10, x - 1 + 20, a[end][2] + 3};
            int same0 = fabsf(want[0] - b[0][0]) < 1e-5f && fabsf(want[1] - b[0][1]) < 1e-5f;
            int same1 = fabsf(want[0] - b[1][0]) < 1e-5f && fabsf(want[1] - b[1][1]) < 1e-5f;
            assert_true(same0 || same1);
            assert_true(fabsf(want[2] - b[0][2]) < 1e-5f);
        }
    }
    int32_t map[9] = {0, 1, 2, 3, 4, 50, 6, 7, 8};
    wm_room_remap_links(&m, WM_ALL_ROOMS, map, 9);
    float ends[2][3];
    assert_false(link_at(&m, 5, ends));
    assert_true(link_at(&m, 50, ends));
    wm_mesh_free(&ctx, &m);
    wm_mesh_free(&ctx, &before);
}

/* `walkmesh area assemble` then `area split` through OBJ: m10aa_01c comes back
 * with its faces, materials and links (its transitions to 03a and 05a found
 * again after --remap dropped them from the area). */
static void test_cli_assemble_and_split(void **state)
{
    (void)state;
    char *rooms[M10AA_ROOMS]; /* looked up before anything is allocated: the skip path leaks nothing */
    for (int i = 0; i < M10AA_ROOMS; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "bwm/pykotor-generated_kit-blackvulkar-%s.wok", m10aa[i]);
        rooms[i] = wmt_corpus_path(rel);
    }
    wmt_require_all(rooms, M10AA_ROOMS);
    char *dir = wmt_make_temp_dir(), *out = wmt_make_temp_dir(), *lyt = wmt_join(dir, "m10aa.lyt");
    char *obj = wmt_join(dir, "area.obj");
    static const char layout[] = "beginlayout\nroomcount 8\nother0 0 0 0\nother1 0 0 0\nm10aa_08b 0 0 0\n"
                                 "m10aa_05a 0 0 0\nother4 0 0 0\nother5 0 0 0\nm10aa_01c 0 0 0\nm10aa_03a 0 0 0\n"
                                 "donelayout\n";
    wmt_write_file(lyt, layout, sizeof layout - 1);
    for (int i = 0; i < M10AA_ROOMS; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s.wok", m10aa[i]);
        char *to = wmt_join(dir, name);
        size_t size;
        uint8_t *data = wmt_read_file(rooms[i], &size);
        wmt_write_file(to, data, size);
        free(data);
        free(rooms[i]);
        free(to);
    }
    const char *assemble[] = {"area", "assemble", lyt, obj, "--remap", "3=-1,7=-1", "--quiet", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, assemble), 0);
    const char *split[] = {"area", "split", obj, lyt, out, "--quiet", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, split), 0);
    char *back = wmt_join(out, "m10aa_01c.wok"), *orig = wmt_join(dir, "m10aa_01c.wok");
    bwm_file a, b;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (bwm_read_file(&ctx, back, &a) || bwm_read_file(&ctx, orig, &b)) fail_msg("%s", wm_ctx_message(&ctx));
    assert_int_equal(a.face_count, b.face_count);
    assert_memory_equal(a.materials, b.materials, 4 * (size_t)a.face_count);
    assert_int_equal(a.edge_count, b.edge_count);
    assert_memory_equal(a.edges, b.edges, 8 * (size_t)a.edge_count);
    bwm_file_free(&ctx, &a);
    bwm_file_free(&ctx, &b);
    wmt_remove_tree(dir);
    wmt_remove_tree(out);
    free(back), free(orig), free(obj), free(lyt), free(out), free(dir);
}

/* The layouts packed in an ERF/MOD (key entries of 24 bytes) or a RIM (32 bytes), read here
 * from the header described in FORMAT-NOTES, independently of the library: type 3000. */
static uint32_t u32_at(const uint8_t *d, size_t size, size_t at)
{
    uint32_t v = 0;
    if (at + 4 <= size) memcpy(&v, d + at, 4);
    return v;
}

static void archive_layouts(const uint8_t *d, size_t size, void (*each)(const uint8_t *, size_t, void *), void *user)
{
    int rim = size >= 8 && memcmp(d, "RIM V1.0", 8) == 0;
    int erf = size >= 8 && memcmp(d + 4, "V1.0", 4) == 0 && !rim;
    if (!rim && !erf) return;
    uint32_t count = u32_at(d, size, rim ? 12 : 16), keys = u32_at(d, size, rim ? 16 : 24);
    uint32_t resources = rim ? 0 : u32_at(d, size, 28);
    for (uint32_t i = 0; i < count && (size_t)keys + (i + 1) * (rim ? 32u : 24u) <= size; i++) {
        size_t key = keys + (size_t)i * (rim ? 32 : 24);
        uint32_t type = rim ? u32_at(d, size, key + 16) : (uint32_t)(u32_at(d, size, key + 20) & 0xFFFF);
        size_t entry = rim ? key + 24 : resources + (size_t)i * 8;
        uint32_t offset = u32_at(d, size, entry), length = u32_at(d, size, entry + 4);
        if (type == 3000 && (uint64_t)offset + length <= size) each(d + offset, length, user);
    }
}

typedef struct room_census {
    unsigned layouts, unreadable, rooms;
} room_census;

static void check_rooms_of(const uint8_t *text, size_t size, void *user)
{
    room_census *c = user;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_layout layout;
    wm_name_index index;
    if (wm_layout_parse(&ctx, text, size, "layout", &layout)) {
        c->unreadable++;
        return;
    }
    if (wm_layout_check_rooms(&ctx, &layout, &index)) fail_msg("a real layout refused: %s", wm_ctx_message(&ctx));
    for (uint32_t i = 0; i < layout.room_count; i++) /* every room found again by its name in upper case */
        for (char *p = layout.rooms[i].name; *p; p++) *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
    for (uint32_t i = 0; i < layout.room_count; i++)
        assert_int_equal(wm_name_index_find(&index, layout.rooms[i].name, strlen(layout.rooms[i].name)), i);
    c->layouts++;
    c->rooms += layout.room_count;
    wm_name_index_free(&ctx, &index);
    wm_layout_free(&ctx, &layout);
}

/* Every layout of the corpus, loose or in an archive: its room names are safe file names,
 * distinct without case (wm_layout_check_rooms), so the guard refuses no real area. */
static void test_corpus_room_names_pass_the_guard(void **state)
{
    (void)state;
    static const char *const loose[] = {".lyt", NULL}, *const packed[] = {".mod", ".erf", ".rim", ".MOD", NULL};
    room_census c = {0, 0, 0};
    char **paths;
    size_t n = wmt_corpus_list("bwm-models", loose, &paths);
    for (size_t i = 0; i < n; i++) {
        size_t size;
        uint8_t *data = wmt_read_file(paths[i], &size);
        check_rooms_of(data, size, &c);
        free(data);
    }
    wmt_free_list(paths, n);
    n = wmt_corpus_list("archives", packed, &paths);
    for (size_t i = 0; i < n; i++) {
        size_t size;
        uint8_t *data = wmt_read_file(paths[i], &size);
        archive_layouts(data, size, check_rooms_of, &c);
        free(data);
    }
    wmt_free_list(paths, n);
    print_message("corpus layouts: %u read, %u rooms, all passed the name guard (%u not layouts the reader takes)\n",
                  c.layouts, c.rooms, c.unreadable);
    assert_true(c.layouts >= 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_layouts_round_trip),
        cmocka_unit_test(test_corpus_room_names_pass_the_guard),
        cmocka_unit_test(test_truncation_sweep),
        cmocka_unit_test(test_m10aa_area_split),
        cmocka_unit_test(test_room_edits_keep_links_on_their_edges),
        cmocka_unit_test(test_cli_assemble_and_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
