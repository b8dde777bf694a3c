/* KotOR binary room models: the walkmesh node of every corpus model against
 * the room's .wok compiled by BioWare or KOTORMax (and, for KotOR II, the
 * KOTORMax ASCII export of the same room); other games' models refused;
 * truncated and looping models fail cleanly. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"
#include "mdl/mdl.h"

static void read_model(const char *name, mdl_walkmesh *w)
{
    char rel[256];
    snprintf(rel, sizeof rel, "bwm-models/%s.mdl", name);
    char *path = wmt_corpus_path_or_skip(rel);
    size_t size = 0;
    uint8_t *data = wmt_read_file(path, &size);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (mdl_parse_walkmesh(&ctx, data, size, path, w)) fail_msg("%s", wm_ctx_message(&ctx));
    free(data);
    free(path);
}

static void read_twin(const char *name, bwm_file *f)
{
    char rel[256];
    snprintf(rel, sizeof rel, "bwm/%s.wok", name);
    char *path = wmt_corpus_path_or_skip(rel);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (bwm_read_file(&ctx, path, f)) fail_msg("%s", wm_ctx_message(&ctx));
    free(path);
}

/* Index of the first walkable face of the model (the .wok's face 0). */
static uint32_t first_walkable(const wm_ctx *ctx, const mdl_walkmesh *w)
{
    for (uint32_t f = 0; f < w->face_count; f++)
        if (bwm_material_walkable(ctx, w->materials[f])) return f;
    fail_msg("%s: no walkable face", w->model_name);
    return 0;
}

typedef struct comparison {
    uint32_t corners, corners_close; /* face corners, and those within 1e-4 */
    double max_diff;
    int materials_equal, adjacency_equal, edges_equal, perimeters_equal, indices_equal;
} comparison;

/* The file numbers its vertices in the order its faces first use them. */
static int numbered_by_first_use(const bwm_file *f)
{
    uint32_t next = 0;
    for (uint32_t i = 0; i < 3 * f->face_count; i++) {
        if (f->faces[i] > next) return 0;
        next += f->faces[i] == next;
    }
    return next == f->vertex_count;
}

static void compare_files(const bwm_file *a, const bwm_file *b, comparison *c)
{
    memset(c, 0, sizeof *c);
    assert_int_equal(a->face_count, b->face_count);
    c->materials_equal = memcmp(a->materials, b->materials, a->face_count * sizeof(uint32_t)) == 0;
    c->indices_equal = memcmp(a->faces, b->faces, 12 * (size_t)a->face_count) == 0;
    for (uint32_t f = 0; f < a->face_count; f++)
        for (int k = 0; k < 3; k++) {
            const float *p = &a->vertices[3 * (size_t)a->faces[3 * f + k]], *q = &b->vertices[3 * (size_t)b->faces[3 * f + k]];
            double d = fmax(fabs(p[0] - q[0]), fmax(fabs(p[1] - q[1]), fabs(p[2] - q[2])));
            c->max_diff = fmax(c->max_diff, d);
            c->corners++;
            c->corners_close += d <= 1e-4;
        }
    c->adjacency_equal = a->adjacency_count == b->adjacency_count &&
                         memcmp(a->adjacency, b->adjacency, 3 * sizeof(int32_t) * a->adjacency_count) == 0;
    c->edges_equal = a->edge_count == b->edge_count && memcmp(a->edges, b->edges, sizeof(bwm_edge) * a->edge_count) == 0;
    c->perimeters_equal = a->perimeter_count == b->perimeter_count &&
                          memcmp(a->perimeters, b->perimeters, sizeof(uint32_t) * a->perimeter_count) == 0;
}

/* The model's walkmesh as the compilers build the .wok: placed by the node,
 * moved by the room's layout offset, welded, built. The layouts of these
 * areas are not public: the offset is the one translation that takes the
 * model's first walkable corner onto the .wok's face 0. */
static void build_from_model(const char *name, const bwm_file *twin, bwm_file *out, double offset_out[3])
{
    mdl_walkmesh w;
    wm_ctx ctx;
    wm_mesh mesh;
    wmt_ctx_init(&ctx);
    read_model(name, &w);
    uint32_t f0 = first_walkable(&ctx, &w);
    double offset[3] = {0, 0, 0};
    if (twin)
        for (int k = 0; k < 3; k++)
            offset[k] = (double)twin->vertices[3 * (size_t)twin->faces[0] + k] - w.vertices[3 * (size_t)w.faces[3 * f0] + k];
    if (mdl_walkmesh_to_mesh(&ctx, &w, offset, &mesh)) fail_msg("%s", wm_ctx_message(&ctx));
    if (bwm_from_mesh(&ctx, &mesh, BWM_TYPE_AREA, -1.0f, BWM_PLANES_BIOWARE, out)) fail_msg("%s", wm_ctx_message(&ctx));
    bwm_points_from_mesh(&mesh, out);
    if (offset_out) memcpy(offset_out, offset, sizeof offset);
    wm_mesh_free(&ctx, &mesh);
    mdl_walkmesh_free(&ctx, &w);
}

static const char *const k1_rooms[] = {
    "pykotor-generated_kit-blackvulkar-m10aa_01c", "pykotor-generated_kit-blackvulkar-m10aa_03a",
    "pykotor-generated_kit-blackvulkar-m10aa_05a", "pykotor-generated_kit-blackvulkar-m10aa_08b",
    "k1cp-m10ac_30a", "k1cp-m12aa_01f", "k1cp-m22ab_09a",
};

static void test_models_equal_their_wok(void **state)
{
    (void)state;
    uint32_t equal = 0;
    for (size_t i = 0; i < sizeof k1_rooms / sizeof k1_rooms[0]; i++) {
        bwm_file twin, built;
        comparison c;
        wm_ctx ctx;
        uint32_t unmatched = 0;
        wmt_ctx_init(&ctx);
        read_twin(k1_rooms[i], &twin);
        build_from_model(k1_rooms[i], &twin, &built, NULL);
        /* binary models hold no room links: they come from the .wok */
        if (bwm_transfer_transitions(&ctx, &twin, &built, 1e-3f, &unmatched)) fail_msg("%s", wm_ctx_message(&ctx));
        compare_files(&built, &twin, &c);
        print_message("%s: %u faces (vertex indices equal %d), corners within 1e-4: %u/%u (max %.2g), materials %d "
                      "adjacency %d edges %d perimeters %d, position %d, links unmatched %u\n",
                      k1_rooms[i], built.face_count, c.indices_equal, c.corners_close, c.corners, c.max_diff, c.materials_equal,
                      c.adjacency_equal, c.edges_equal, c.perimeters_equal,
                      memcmp(built.position, twin.position, sizeof built.position) == 0, unmatched);
        equal += c.materials_equal && c.adjacency_equal && c.edges_equal && c.perimeters_equal;
        assert_memory_equal(built.position, twin.position, sizeof built.position);
        assert_int_equal(unmatched, 0);
        /* Where the .wok is the model compiled (same materials) with one vertex per
         * position, everything matches; BioWare's own vertices stray up to 1.3e-3
         * from its model's (compiled from the source scene). */
        if (c.materials_equal && built.vertex_count == twin.vertex_count) {
            assert_true(c.adjacency_equal && c.edges_equal && c.perimeters_equal);
            assert_true(c.max_diff < 2e-3);
            if (numbered_by_first_use(&twin)) /* KOTORMax's numbering, which the reader follows */
                assert_true(c.indices_equal);
        }
        bwm_file_free(&ctx, &twin);
        bwm_file_free(&ctx, &built);
    }
    print_message("%u of %zu models equal their .wok\n", equal, sizeof k1_rooms / sizeof k1_rooms[0]);
}

static void build_from_ascii(const char *name, bwm_file *out)
{
    char rel[256];
    snprintf(rel, sizeof rel, "bwm/%s-kotormax.wok.ascii", name);
    char *path = wmt_corpus_path_or_skip(rel);
    size_t size = 0;
    uint8_t *text = wmt_read_file(path, &size);
    wm_ctx ctx;
    wm_mesh mesh;
    wmt_ctx_init(&ctx);
    wm_mesh_init(&mesh);
    if (bwm_ascii_parse(&ctx, (const char *)text, size, path, NULL, &mesh)) fail_msg("%s", wm_ctx_message(&ctx));
    if (bwm_from_mesh(&ctx, &mesh, BWM_TYPE_AREA, -1.0f, BWM_PLANES_BIOWARE, out)) fail_msg("%s", wm_ctx_message(&ctx));
    wm_mesh_free(&ctx, &mesh);
    free(text);
    free(path);
}

/* KotOR II: the binary model and KOTORMax's .wok.ascii of the same room (whose
 * vertices hold the node position already) give the same walkmesh. */
static void test_kotor2_models_equal_their_ascii(void **state)
{
    (void)state;
    static const char *const rooms[] = {"tslcp-101peri", "tslcp-104pera", "tslcp-151har14"};
    for (size_t i = 0; i < sizeof rooms / sizeof rooms[0]; i++) {
        bwm_file text, built;
        comparison c;
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        build_from_ascii(rooms[i], &text);
        build_from_model(rooms[i], NULL, &built, NULL);
        compare_files(&built, &text, &c);
        print_message("%s: %u faces, corners within 1e-4: %u/%u (max %.2g), materials %d adjacency %d edges %d "
                      "perimeters %d\n", rooms[i], built.face_count, c.corners_close, c.corners, c.max_diff,
                      c.materials_equal, c.adjacency_equal, c.edges_equal, c.perimeters_equal);
        /* KOTORMax prints 6 significant digits: up to 5e-4 at these coordinates */
        assert_true(c.max_diff < 5e-4);
        assert_true(c.materials_equal && c.adjacency_equal && c.edges_equal && c.perimeters_equal);
        bwm_file_free(&ctx, &text);
        bwm_file_free(&ctx, &built);
    }
}

static uint8_t *read_corpus_model(const char *name, size_t *size, char **path)
{
    char rel[256];
    snprintf(rel, sizeof rel, "bwm-models/%s.mdl", name);
    *path = wmt_corpus_path_or_skip(rel);
    return wmt_read_file(*path, size);
}

/* Every prefix (with the header's size field made to agree, so the parser
 * itself meets the end) fails with a message naming the file, or, when the
 * cut only removed bytes the walkmesh does not use, reads the same walkmesh. */
static void test_truncation_sweep(void **state)
{
    (void)state;
    char *path;
    size_t size;
    uint8_t *data = read_corpus_model("pykotor-generated_kit-blackvulkar-m10aa_08b", &size, &path);
    uint8_t *copy = malloc(size);
    uint32_t failed = 0, read = 0;
    for (size_t n = 0; n < size; n += n < 4096 ? 1 : 7) {
        mdl_walkmesh w;
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        memcpy(copy, data, n);
        if (n >= 8) {
            uint32_t body = (uint32_t)(n - 12 * (n >= 12));
            memcpy(copy + 4, &body, 4);
        }
        if (mdl_parse_walkmesh(&ctx, copy, n, "cut.mdl", &w) == WM_OK) {
            assert_int_equal(w.face_count, 86);
            read++;
            mdl_walkmesh_free(&ctx, &w);
            continue;
        }
        assert_non_null(strstr(wm_ctx_message(&ctx), "cut.mdl"));
        failed++;
    }
    print_message("prefixes: %u refused, %u read the whole walkmesh\n", failed, read);
    assert_true(failed > 4096);
    free(copy);
    free(data);
    free(path);
}

/* A child array that points back at the root: refused, no endless walk. */
static void test_node_loop_refused(void **state)
{
    (void)state;
    char *path;
    size_t size;
    uint8_t *data = read_corpus_model("pykotor-generated_kit-blackvulkar-m10aa_08b", &size, &path);
    uint32_t root = wm_le32(data + 12 + 40), children = wm_le32(data + 12 + root + 44);
    memcpy(data + 12 + children, &root, 4);
    mdl_walkmesh w;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    assert_int_equal(mdl_parse_walkmesh(&ctx, data, size, "loop.mdl", &w), WM_ERR_CORRUPT);
    assert_non_null(strstr(wm_ctx_message(&ctx), "loop"));
    free(data);
    free(path);
}

/* A Quake model named .mdl is refused as unsupported (exit 4), never handed to Assimp. */
static void test_other_models_refused(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir(), *quake = wmt_join(dir, "player.mdl");
    static const uint8_t head[64] = {'I', 'D', 'P', 'O', 6};
    wmt_write_file(quake, head, sizeof head);
    char *err = NULL;
    const char *argv[] = {"info", quake, NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, argv), 4);
    assert_non_null(strstr(err, "Quake"));
    free(err);
    wmt_remove_tree(dir);
    free(quake);
    free(dir);
}

/* `walkmesh convert room.mdl room.wok`: the room's faces, materials and header position. */
static void test_cli_converts_a_model(void **state)
{
    (void)state;
    const char *name = "k1cp-m10ac_30a";
    char *path;
    size_t size;
    free(read_corpus_model(name, &size, &path)); /* skips before the folder is made */
    char *dir = wmt_make_temp_dir(), *out = wmt_join(dir, "room.wok");
    const char *argv[] = {"convert", path, out, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, argv), 0);
    bwm_file got, twin;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (bwm_read_file(&ctx, out, &got)) fail_msg("%s", wm_ctx_message(&ctx));
    read_twin(name, &twin);
    assert_int_equal(got.face_count, twin.face_count);
    assert_memory_equal(got.materials, twin.materials, got.face_count * sizeof(uint32_t));
    assert_memory_equal(got.position, twin.position, sizeof got.position);
    char *svg = wmt_join(dir, "room.svg"), *out_text = NULL;
    const char *validate[] = {"validate", path, NULL}, *render[] = {"render", path, "-o", svg, NULL};
    assert_int_equal(wmt_run_cli(&out_text, NULL, validate), 0); /* the walkmesh the model makes passes */
    assert_non_null(strstr(out_text, "0 errors"));
    assert_int_equal(wmt_run_cli(NULL, NULL, render), 0);
    assert_true(wm_file_exists(svg));
    free(out_text);
    free(svg);
    bwm_file_free(&ctx, &got);
    bwm_file_free(&ctx, &twin);
    wmt_remove_tree(dir);
    free(out);
    free(dir);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_models_equal_their_wok),
        cmocka_unit_test(test_kotor2_models_equal_their_ascii),
        cmocka_unit_test(test_truncation_sweep),
        cmocka_unit_test(test_node_loop_refused),
        cmocka_unit_test(test_other_models_refused),
        cmocka_unit_test(test_cli_converts_a_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
