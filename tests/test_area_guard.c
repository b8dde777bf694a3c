/* `walkmesh area` where room names become paths (issue 27, points 1, 2, 6, 7, 8): a room name
 * from a layout (or an area object) never leads a read out of the layout's folder nor a write
 * out of OUTDIR; a refused split leaves OUTDIR as it was, byte for byte; names are compared
 * without case as the games compare them; long folders give whole file names. The facts are
 * the file system's: every tree is listed (names, sizes, bytes) before and after. Also edits
 * and layout positions bounded by WM_COORD_LIMIT (9), a model room with no faces warned about
 * (10). Point 5 (one room limit) is test_area_limits.c. */
#define _DEFAULT_SOURCE /* lstat, strdup */
#include "test_support.h"
#include "mdl/mdl.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct area_dir {
    char *root, *lyt_dir, *lyt, *obj, *out;
} area_dir;

/* A room file the way the game has them: two walkable triangles, a square at x0. */
static void write_room(const char *dir, const char *name, float x0)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    wm_mesh_init(&m);
    uint32_t v[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(wm_mesh_add_vertex(&ctx, &m, x0 + (float)(i & 1), (float)(i >> 1), 0, &v[i]), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(&ctx, &m, v[0], v[1], v[3], 1, 1), WM_OK);
    assert_int_equal(wm_mesh_add_triangle(&ctx, &m, v[0], v[3], v[2], 1, 1), WM_OK);
    char *file = malloc(strlen(name) + 5);
    sprintf(file, "%s.wok", name);
    char *path = wmt_join(dir, file);
    if (wm_room_save_exact(&ctx, &m, path, 1))
        fail_msg("%s", wm_ctx_message(&ctx));
    wm_mesh_free(&ctx, &m);
    free(path);
    free(file);
}

/* An area in OBJ text: object k a square at x = 10k. */
static void write_area_obj(const char *path, const char *const *objects, int count)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (int k = 0; k < count; k++) {
        fprintf(f, "o %s\n", objects[k]);
        for (int i = 0; i < 4; i++)
            fprintf(f, "v %d %d 0\n", 10 * k + (i & 1), i >> 1);
        fprintf(f, "f %d %d %d\nf %d %d %d\n", 4 * k + 1, 4 * k + 2, 4 * k + 4, 4 * k + 1, 4 * k + 4, 4 * k + 3);
    }
    fclose(f);
}

/* root/lay/area.lyt naming the rooms, room "good" beside it, root/outside/secret.wok (a room
 * outside the layout's folder), root/out/keep.txt (OUTDIR not empty), root/area.obj. */
static void make_area_dir(area_dir *d, const char *const *rooms, const size_t *lengths, int count)
{
    d->root = wmt_make_temp_dir();
    d->lyt_dir = wmt_join(d->root, "lay");
    d->lyt = wmt_join(d->lyt_dir, "area.lyt");
    d->obj = wmt_join(d->root, "area.obj");
    d->out = wmt_join(d->root, "out");
    char *outside = wmt_join(d->root, "outside"), *keep = wmt_join(d->out, "keep.txt");
    mkdir(d->lyt_dir, 0777);
    mkdir(outside, 0777);
    mkdir(d->out, 0777);
    write_room(d->lyt_dir, "good", 0);
    write_room(outside, "secret", 5);
    wmt_write_file(keep, "kept\n", 5);
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "beginlayout\nroomcount %d\n", count);
    for (int i = 0; i < count; i++) {
        memcpy(text + n, rooms[i], lengths[i]);
        n += lengths[i];
        n += (size_t)snprintf(text + n, sizeof text - n, " %d 0 0\n", 10 * i);
    }
    n += (size_t)snprintf(text + n, sizeof text - n, "donelayout\n");
    wmt_write_file(d->lyt, text, n);
    free(outside);
    free(keep);
}

static void free_area_dir(area_dir *d)
{
    wmt_remove_tree(d->root);
    free(d->root), free(d->lyt_dir), free(d->lyt), free(d->obj), free(d->out);
}

/* "relative-path size fnv-of-bytes" for every file and folder under dir, sorted. */
static void list_into(const char *dir, const char *relative, char ***lines, size_t *count)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *path = wmt_join(dir, e->d_name), *rel = wmt_join(relative, e->d_name);
        struct stat st;
        assert_int_equal(lstat(path, &st), 0);
        uint64_t hash = 14695981039346656037ull;
        size_t size = 0;
        if (S_ISREG(st.st_mode)) {
            uint8_t *bytes = wmt_read_file(path, &size);
            for (size_t i = 0; i < size; i++)
                hash = (hash ^ bytes[i]) * 1099511628211ull;
            free(bytes);
        }
        *lines = realloc(*lines, (*count + 1) * sizeof **lines);
        (*lines)[*count] = malloc(strlen(rel) + 64);
        sprintf((*lines)[(*count)++], "%s%s %zu %016llx", rel, S_ISDIR(st.st_mode) ? "/" : "", size,
                (unsigned long long)hash);
        if (S_ISDIR(st.st_mode))
            list_into(path, rel, lines, count);
        free(path);
        free(rel);
    }
    closedir(d);
}

static int compare_lines(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *tree_listing(const char *dir)
{
    char **lines = NULL;
    size_t count = 0, total = 1;
    list_into(dir, ".", &lines, &count);
    qsort(lines, count, sizeof *lines, compare_lines);
    for (size_t i = 0; i < count; i++)
        total += strlen(lines[i]) + 1;
    char *text = malloc(total);
    text[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        strcat(strcat(text, lines[i]), "\n");
        free(lines[i]);
    }
    free(lines);
    return text;
}

/* Runs the CLI and checks it refused (an input error, 2) and the tree is as it was. */
static void refused_leaving_tree(const char *root, const char *const *argv, const char *expect_in_message)
{
    char *before = tree_listing(root), *err = NULL;
    int code = wmt_run_cli(NULL, &err, argv);
    char *after = tree_listing(root);
    if (code != 2)
        fail_msg("walkmesh %s %s: exit %d, not 2 (refused input): %s", argv[0], argv[1], code, err);
    if (expect_in_message && !strstr(err, expect_in_message))
        fail_msg("the message does not name %s: %s", expect_in_message, err);
    assert_string_equal(before, after);
    free(before);
    free(after);
    free(err);
}

/* Split and assemble (with and without --force) of a layout holding room `trick` beside "good":
 * both refused, nothing read or written anywhere under the scratch root, nor at /tmp/pwned. */
static void trick_refused(const char *trick, size_t length, const char *shown)
{
    const char *rooms[] = {"good", trick};
    size_t lengths[] = {4, length};
    area_dir d;
    make_area_dir(&d, rooms, lengths, 2);
    int plain = memchr(trick, '\0', length) == NULL && strcspn(trick, " \t") == length;
    const char *objects[] = {"good", trick};
    write_area_obj(d.obj, objects, plain ? 2 : 1);
    char *assembled = wmt_join(d.root, "area_out.obj");
    for (int force = 0; force < 2; force++) {
        const char *split[] = {"area", "split", d.obj, d.lyt, d.out, force ? "-f" : "-q", NULL};
        const char *assemble[] = {"area", "assemble", d.lyt, assembled, force ? "-f" : "-q", NULL};
        refused_leaving_tree(d.root, split, shown);
        refused_leaving_tree(d.root, assemble, shown);
    }
    struct stat st;
    assert_int_not_equal(stat("/tmp/pwned.wok", &st), 0);
    free(assembled);
    free_area_dir(&d);
}

static void path_tricks_are_refused_whole(void **state)
{
    (void)state;
    static const char *const tricks[] = {"../outside/secret", "../../../../../../../../../tmp/pwned",
                                         "..\\outside\\secret", "/tmp/pwned", "C:pwned", "c:\\pwned", "..",
                                         "./good", "GOOD", "good.", "con", "sub/good"};
    for (size_t i = 0; i < sizeof tricks / sizeof tricks[0]; i++)
        trick_refused(tricks[i], strlen(tricks[i]), "room 1");
    /* a NUL would cut the name, the text after it read as another: refused, its column named */
    trick_refused("good\0../../tmp/pwned", 20, "line 4: a NUL byte at column 5");
    /* longer than a layout name (63 bytes) or a file name (255): refused by its length */
    static const size_t lengths[] = {64, 256, 300};
    char long_name[301], shown[64];
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        memset(long_name, 'r', lengths[i]);
        long_name[lengths[i]] = '\0';
        snprintf(shown, sizeof shown, "rrrr...\" is %zu bytes, longer than", lengths[i]);
        trick_refused(long_name, lengths[i], shown);
    }
    print_message("%zu path tricks refused by split and assemble, trees unchanged\n",
                  sizeof tricks / sizeof tricks[0] + 1 + sizeof lengths / sizeof lengths[0]);
}

/* Point 1: a room (and area object) named ../../x/pwned made split write outside OUTDIR. */
static void split_writes_nothing_outside_outdir(void **state)
{
    (void)state;
    trick_refused("../planted/pwned", 16, "../planted/pwned");
}

/* Point 2: assemble, info and the library's reader loaded ../outside/secret.wok. */
static void assemble_reads_nothing_outside_the_layout_folder(void **state)
{
    (void)state;
    const char *rooms[] = {"good", "../outside/secret"};
    size_t lengths[] = {4, 17};
    area_dir d;
    make_area_dir(&d, rooms, lengths, 2);
    const char *info[] = {"info", d.lyt, NULL};
    refused_leaving_tree(d.root, info, "../outside/secret");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    assert_int_equal(wm_mesh_load(&ctx, d.lyt, NULL, NULL, &m), WM_ERR_CORRUPT);
    assert_non_null(strstr(wm_ctx_message(&ctx), "unsafe name"));
    free_area_dir(&d);
}

/* Point 6: m10aa_01c and M10AA_01C are one room to the game: refused by both, naming both. */
static void rooms_differing_in_case_are_one_room(void **state)
{
    (void)state;
    const char *rooms[] = {"good", "Good"};
    size_t lengths[] = {4, 4};
    area_dir d;
    make_area_dir(&d, rooms, lengths, 2);
    write_area_obj(d.obj, rooms, 2);
    char *assembled = wmt_join(d.root, "area_out.obj");
    const char *split[] = {"area", "split", d.obj, d.lyt, d.out, NULL};
    const char *assemble[] = {"area", "assemble", d.lyt, assembled, NULL};
    refused_leaving_tree(d.root, split, "room 1 (Good) is room 0 (good)");
    refused_leaving_tree(d.root, assemble, "room 1 (Good) is room 0 (good)");
    free(assembled);
    free_area_dir(&d);
}

/* Point 7: paths were cut at 1,024 bytes. A layout and OUTDIR 1,300 bytes deep give whole names
 * (and a room file named in other case than its room is found, as the game finds it). */
static void long_folders_give_whole_names(void **state)
{
    (void)state;
    const char *rooms[] = {"good", "other_room_with_a_long_name"};
    size_t lengths[] = {4, 27};
    area_dir d;
    make_area_dir(&d, rooms, lengths, 2);
    char *deep = strdup(d.root), part[201];
    memset(part, 'd', 200);
    part[200] = '\0';
    while (strlen(deep) < 1300) {
        char *next = wmt_join(deep, part);
        free(deep);
        deep = next;
        mkdir(deep, 0777);
    }
    write_room(deep, "good", 0);
    write_room(deep, "Other_Room_With_A_Long_NAME", 10);
    char *lyt = wmt_join(deep, "area.lyt"), *obj = wmt_join(deep, "area.obj"), *out = wmt_join(deep, "out");
    size_t size;
    uint8_t *text = wmt_read_file(d.lyt, &size);
    wmt_write_file(lyt, text, size);
    free(text);
    const char *assemble[] = {"area", "assemble", lyt, obj, "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, assemble), 0);
    const char *split[] = {"area", "split", obj, lyt, out, "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, split), 0);
    char *listing = tree_listing(out);
    assert_non_null(strstr(listing, "./good.wok "));
    assert_non_null(strstr(listing, "./other_room_with_a_long_name.wok "));
    assert_int_equal(strchr(strchr(listing, '\n') + 1, '\n')[1], '\0'); /* those two and nothing else */
    free(listing);
    free(lyt), free(obj), free(out), free(deep);
    free_area_dir(&d);
}

/* Point 8: a split that fails leaves OUTDIR as it was, also when the failure is found only
 * at the last room's placing (a folder where its .wok would go, with --force). */
static void failed_split_leaves_outdir_as_it_was(void **state)
{
    (void)state;
    const char *rooms[] = {"good", "zz_last"};
    size_t lengths[] = {4, 7};
    area_dir d;
    make_area_dir(&d, rooms, lengths, 2);
    write_area_obj(d.obj, rooms, 2);
    char *blocker = wmt_join(d.out, "zz_last.wok");
    mkdir(blocker, 0777);
    char *before = tree_listing(d.root), *err = NULL;
    const char *split[] = {"area", "split", d.obj, d.lyt, d.out, "-f", NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, split), 3);
    char *after = tree_listing(d.root);
    assert_string_equal(before, after);
    assert_non_null(strstr(err, "zz_last.wok"));
    free(before), free(after), free(err), free(blocker);
    free_area_dir(&d);
}

/* Point 9: --move ROOM=nan,0,0 wrote a layout the reader refused. Results beyond
 * WM_COORD_LIMIT (1e7) are refused by option; layout positions beyond it by line. */
static void edits_and_positions_beyond_the_limit_are_refused(void **state)
{
    (void)state;
    const char *rooms[] = {"good"};
    size_t lengths[] = {4};
    area_dir d;
    make_area_dir(&d, rooms, lengths, 1);
    char *obj = wmt_join(d.root, "moved.obj"), *lyt = wmt_join(d.root, "moved.lyt");
    static const char *const edits[][2] = {{"--move", "good=nan,0,0"}, {"--move", "good=2e7,0,0"},
                                           {"--move", "good=0,0,inf"}, {"--rotate", "good=nan"}};
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        const char *argv[] = {"area", "assemble", d.lyt, obj, edits[i][0], edits[i][1], "--layout-out", lyt, NULL};
        char *before = tree_listing(d.root), *err = NULL;
        assert_int_equal(wmt_run_cli(NULL, &err, argv), 1);
        assert_non_null(strstr(err, edits[i][1]));
        char *after = tree_listing(d.root);
        assert_string_equal(before, after);
        free(before), free(after), free(err);
    }
    const char *argv[] = {"area", "assemble", d.lyt, obj, "--move", "good=1e6,-2,3", "--layout-out", lyt, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, argv), 0);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_layout back;
    assert_int_equal(wm_layout_load(&ctx, lyt, &back), WM_OK);
    assert_true(back.rooms[0].position[0] == 1e6f && back.rooms[0].position[1] == -2 && back.rooms[0].position[2] == 3);
    wm_layout_free(&ctx, &back);
    static const char pivot[] = "beginlayout\nroomcount 1\ngood 9000000 0 0\ndonelayout\n"; /* vertices at 0..1 */
    wmt_write_file(d.lyt, pivot, sizeof pivot - 1);
    const char *mirror[] = {"area", "assemble", d.lyt, obj, "--mirror", "good=x", "-f", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, mirror), 1); /* mirrored to x = 1.8e7 */
    static const char far[] = "beginlayout\nroomcount 1\ngood 0 20000000 0\ndonelayout\n";
    wmt_write_file(lyt, far, sizeof far - 1);
    assert_int_equal(wm_layout_load(&ctx, lyt, &back), WM_ERR_CORRUPT);
    assert_non_null(strstr(wm_ctx_message(&ctx), "line 3"));
    free(obj), free(lyt);
    free_area_dir(&d);
}

/* The corpus model with its walkmesh node's face count (u32 offset, count, count in the mesh
 * header) made 0: found by the model's own face count, confirmed by reading it back. */
static uint8_t *faceless_model(size_t *size)
{
    char *path = wmt_corpus_path_or_skip("bwm-models/pykotor-generated_kit-blackvulkar-m10aa_01c.mdl");
    uint8_t *data = wmt_read_file(path, size);
    free(path);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    mdl_walkmesh w;
    assert_int_equal(mdl_parse_walkmesh(&ctx, data, *size, "model", &w), WM_OK);
    uint32_t faces = w.face_count, vertices = w.vertex_count;
    mdl_walkmesh_free(&ctx, &w);
    for (size_t at = 12; at + 12 <= *size; at++) { /* a node need not be 4-aligned */
        uint32_t word[3];
        memcpy(word, data + at, sizeof word);
        if (word[1] != faces || word[2] != faces || (uint64_t)word[0] + 12 + 32ull * faces > *size)
            continue;
        memset(data + at + 4, 0, 8);
        if (mdl_parse_walkmesh(&ctx, data, *size, "model", &w) == WM_OK && w.face_count == 0 &&
            w.vertex_count == vertices) {
            mdl_walkmesh_free(&ctx, &w);
            return data;
        }
        memcpy(data + at, word, sizeof word);
    }
    fail_msg("no face count of %u found in the model", faces);
    return NULL;
}

/* Point 10: a model room whose walkmesh node has no faces was dropped without the warning a
 * missing room gets. */
static void faceless_model_room_is_warned_about(void **state)
{
    (void)state;
    size_t size;
    uint8_t *model = faceless_model(&size);
    const char *rooms[] = {"good", "faceless"};
    size_t lengths[] = {4, 8};
    area_dir d;
    make_area_dir(&d, rooms, lengths, 2);
    char *mdl = wmt_join(d.lyt_dir, "faceless.mdl"), *obj = wmt_join(d.root, "a.obj"), *err = NULL;
    wmt_write_file(mdl, model, size);
    const char *argv[] = {"area", "assemble", d.lyt, obj, NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, argv), 0);
    if (!strstr(err, "room 1 (faceless): its walkmesh has no faces"))
        fail_msg("no warning: %s", err);
    free(model), free(mdl), free(obj), free(err);
    free_area_dir(&d);
}

/* Two room files beside the layout whose names differ only in case (possible on a case-sensitive
 * file system; the game, which compares without case, sees one): the first in byte order is
 * used, and a warning names both. */
static void room_files_differing_in_case_are_warned_about(void **state)
{
    (void)state;
    const char *rooms[] = {"good"};
    size_t lengths[] = {4};
    area_dir d;
    make_area_dir(&d, rooms, lengths, 1);
    write_room(d.lyt_dir, "GOOD", 7);
    char *obj = wmt_join(d.root, "a.obj"), *err = NULL;
    const char *argv[] = {"area", "assemble", d.lyt, obj, NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, argv), 0);
    if (!strstr(err, "GOOD.wok and good.wok differ only in case") || !strstr(err, "GOOD.wok is used"))
        fail_msg("no warning naming both files: %s", err);
    size_t size;
    char *text = (char *)wmt_read_file(obj, &size);
    assert_non_null(strstr(text, "v 7 ")); /* GOOD.wok's square, at x 7: first in byte order */
    free(text), free(obj), free(err);
    free_area_dir(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(path_tricks_are_refused_whole),
        cmocka_unit_test(split_writes_nothing_outside_outdir),
        cmocka_unit_test(assemble_reads_nothing_outside_the_layout_folder),
        cmocka_unit_test(rooms_differing_in_case_are_one_room),
        cmocka_unit_test(long_folders_give_whole_names),
        cmocka_unit_test(failed_split_leaves_outdir_as_it_was),
        cmocka_unit_test(edits_and_positions_beyond_the_limit_are_refused),
        cmocka_unit_test(faceless_model_room_is_warned_about),
        cmocka_unit_test(room_files_differing_in_case_are_warned_about),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
