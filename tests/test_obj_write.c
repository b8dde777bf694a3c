#define _GNU_SOURCE
/* Our own OBJ + MTL writer and the tidied glTF: what the files say, checked
 * against the OBJ and glTF specifications and the inputs' own facts (the
 * samples' descriptions, the transition edges a WOK holds). That Blender
 * keeps it all is checked by test_blender. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_text(const char *path, size_t *out_size)
{
    size_t size;
    char *text = (char *)wmt_read_file(path, &size);
    text = realloc(text, size + 1);
    text[size] = '\0';
    if (out_size)
        *out_size = size;
    return text;
}

/* two_rooms.obj: objects room_a, room_b and doorway (corpus/README.md). Each
 * becomes an `o` object whose faces use only vertices written after its
 * `o` line, so a modelling tool splits it off as its own mesh. */
static void objects_become_o_objects_with_their_own_vertices(void **state)
{
    (void)state;
    char *sample = wmt_sample_path("two_rooms.obj");
    char *dir = wmt_make_temp_dir();
    char *obj = wmt_join(dir, "rooms.obj");
    const char *convert[] = {"convert", sample, obj, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, convert), 0);
    char *text = read_text(obj, NULL);
    assert_null(strstr(text, "\ng ")); /* groups would merge into one object */
    const char *names[] = {"room_a", "room_b", "doorway"};
    for (int i = 0; i < 3; i++) {
        char line[32];
        snprintf(line, sizeof line, "\no %s\n", names[i]);
        assert_non_null(strstr(text, line));
    }
    unsigned vertices = 0, first_of_object = 1, faces = 0, objects = 0;
    for (char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        unsigned a, b, c;
        if (strncmp(line, "o ", 2) == 0) {
            objects++;
            first_of_object = vertices + 1;
        } else if (strncmp(line, "v ", 2) == 0) {
            vertices++;
        } else if (sscanf(line, "f %u %u %u", &a, &b, &c) == 3) {
            faces++;
            assert_true(a >= first_of_object && b >= first_of_object && c >= first_of_object);
            assert_true(a <= vertices && b <= vertices && c <= vertices);
        }
    }
    assert_int_equal(objects, 3);
    assert_int_equal(faces, 38); /* 36 stone + 2 door triangles */
    assert_non_null(strstr(text, "mtllib rooms.mtl\n"));
    free(text);
    char *mtl = wmt_join(dir, "rooms.mtl");
    text = read_text(mtl, NULL);
    assert_non_null(strstr(text, "newmtl stone\n"));
    assert_non_null(strstr(text, "newmtl door\n"));
    free(text);
    free(mtl);
    wmt_remove_tree(dir);
    free(obj);
    free(dir);
    free(sample);
}

/* k1cp-m12aa_01f.wok: every transition edge the bwm module lists comes out
 * as one `l` element in an object named transition_<room>. */
static void transitions_become_named_edge_objects(void **state)
{
    (void)state;
    char *wok = wmt_corpus_path_or_skip("bwm/k1cp-m12aa_01f.wok");
    char *info = NULL;
    const char *info_args[] = {"info", wok, NULL};
    assert_int_equal(wmt_run_cli(&info, NULL, info_args), 0);
    unsigned listed = 0, rooms[16], room_count = 0;
    for (char *line = strstr(info, "transition edge "); line; line = strstr(line + 1, "transition edge ")) {
        const char *arrow = strstr(line, "-> room ");
        assert_non_null(arrow);
        unsigned room = (unsigned)atoi(arrow + 8);
        int seen = 0;
        for (unsigned i = 0; i < room_count; i++)
            seen |= rooms[i] == room;
        if (!seen && room_count < 16)
            rooms[room_count++] = room;
        listed++;
    }
    assert_true(listed > 0);
    char *dir = wmt_make_temp_dir();
    char *obj = wmt_join(dir, "room.obj");
    const char *convert[] = {"convert", wok, obj, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, convert), 0);
    char *text = read_text(obj, NULL);
    unsigned lines = 0, vertices = 0;
    int in_transition = 0; /* point_<name> objects (header position) hold an edge too */
    for (char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        unsigned a, b;
        vertices += strncmp(line, "v ", 2) == 0;
        if (strncmp(line, "o ", 2) == 0) in_transition = strncmp(line, "o transition_", 13) == 0;
        if (sscanf(line, "l %u %u", &a, &b) == 2) {
            assert_true(a >= 1 && a <= vertices && b >= 1 && b <= vertices && a != b);
            lines += in_transition;
        }
    }
    assert_int_equal(lines, listed);
    for (unsigned i = 0; i < room_count; i++) {
        char name[48];
        snprintf(name, sizeof name, "\no transition_%u\nusemtl transition\n", rooms[i]);
        assert_non_null(strstr(text, name));
    }
    free(text);
    wmt_remove_tree(dir);
    free(obj);
    free(dir);
    free(info);
    free(wok);
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* glTF 2.0: extensionsUsed lists only extensions the file uses (we use none),
 * the asset names its generator; a GLB's header length is the file size and
 * its JSON chunk is padded to 4 bytes. */
static void gltf_has_no_unused_extensions(void **state)
{
    (void)state;
    char *sample = wmt_sample_path("courtyard.obj");
    char *dir = wmt_make_temp_dir();
    char *gltf = wmt_join(dir, "c.gltf"), *glb = wmt_join(dir, "c.glb");
    const char *to_gltf[] = {"convert", sample, gltf, NULL}, *to_glb[] = {"convert", sample, glb, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, to_gltf), 0);
    assert_int_equal(wmt_run_cli(NULL, NULL, to_glb), 0);
    char *text = read_text(gltf, NULL);
    assert_null(strstr(text, "extensionsUsed"));
    assert_null(strstr(text, "KHR_materials_volume"));
    assert_non_null(strstr(text, "\"generator\":\"walkmesh "));
    free(text);
    size_t size;
    uint8_t *bin = wmt_read_file(glb, &size);
    assert_true(size > 28);
    assert_memory_equal(bin, "glTF", 4);
    assert_int_equal(le32(bin + 4), 2);
    assert_int_equal(le32(bin + 8), size);
    uint32_t json_size = le32(bin + 12);
    assert_memory_equal(bin + 16, "JSON", 4);
    assert_int_equal(json_size % 4, 0);
    assert_true(20 + json_size + 8 <= size);
    assert_memory_equal(bin + 20 + json_size + 4, "BIN\0", 4);
    assert_int_equal(20 + json_size + 8 + le32(bin + 20 + json_size), size);
    assert_null(memmem(bin + 20, json_size, "extensionsUsed", 14));
    free(bin);
    wmt_remove_tree(dir);
    free(gltf);
    free(glb);
    free(dir);
    free(sample);
}

/* k1cp-m12aa_01f.wok has transitions: OBJ keeps them silently, a WMO and a PLY cannot and say so. */
static void lost_transitions_are_announced(void **state)
{
    (void)state;
    char *wok = wmt_corpus_path_or_skip("bwm/k1cp-m12aa_01f.wok");
    char *dir = wmt_make_temp_dir();
    const char *names[3] = {"room.obj", "room.wmo", "room.ply"};
    for (int i = 0; i < 3; i++) {
        char *out = wmt_join(dir, names[i]), *err = NULL;
        const char *convert[] = {"convert", wok, out, NULL};
        assert_int_equal(wmt_run_cli(NULL, &err, convert), 0);
        int warned = strstr(err, "transition edge(s)") != NULL && strstr(err, "did not survive") != NULL;
        if (warned != (i > 0))
            fail_msg("%s: %s", names[i], err);
        free(err);
        free(out);
    }
    wmt_remove_tree(dir);
    free(dir);
    free(wok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(objects_become_o_objects_with_their_own_vertices),
        cmocka_unit_test(transitions_become_named_edge_objects),
        cmocka_unit_test(gltf_has_no_unused_extensions),
        cmocka_unit_test(lost_transitions_are_announced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
