/* ASCII walkmeshes written and read back: binary -> ASCII -> binary over
 * every corpus walkmesh (vertices bit-exact, faces, materials, links, hooks,
 * position, and the AABB tree the text lists), ASCII -> binary -> ASCII on
 * the KOTORMax exports, and the form other tools read (counted rows). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"

static int same_tree(const bwm_file *a, const bwm_file *b)
{
    if (a->aabb_count != b->aabb_count) return 0;
    for (uint32_t i = 0; i < a->aabb_count; i++) {
        const bwm_aabb_node *p = &a->aabb[i], *q = &b->aabb[i];
        if (p->face != q->face || p->left != q->left || p->right != q->right ||
            memcmp(p->min, q->min, sizeof p->min) || memcmp(p->max, q->max, sizeof p->max))
            return 0;
    }
    return 1;
}

static const char *same_or_not(const void *a, uint32_t a_count, const void *b, uint32_t b_count, size_t elem)
{
    if (a_count != b_count) return "differ";
    return a_count == 0 || memcmp(a, b, elem * a_count) == 0 ? "same" : "differ";
}

/* Which derived sections differ: the reason a file is not byte-identical. */
static void why_different(const bwm_file *a, const bwm_file *b, char *out, size_t size)
{
    uint32_t planes = 0;
    for (uint32_t i = 0; i < a->aabb_count && i < b->aabb_count; i++) planes += a->aabb[i].plane != b->aabb[i].plane;
    snprintf(out, size, "normals %s, distances %s, plane flags %u, adjacency %s, edges %s, perimeters %s",
             same_or_not(a->normals, a->face_count, b->normals, b->face_count, 12),
             same_or_not(a->distances, a->face_count, b->distances, b->face_count, 4), planes,
             same_or_not(a->adjacency, a->adjacency_count, b->adjacency, b->adjacency_count, 12),
             same_or_not(a->edges, a->edge_count, b->edges, b->edge_count, 8),
             same_or_not(a->perimeters, a->perimeter_count, b->perimeters, b->perimeter_count, 4));
}

static void test_binary_ascii_binary(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".wok", ".pwk", ".dwk", NULL};
    char **list = NULL;
    size_t n = wmt_corpus_list("bwm", suffixes, &list);
    uint32_t identical = 0, trees = 0;
    for (size_t i = 0; i < n; i++) {
        wm_ctx ctx;
        bwm_file a, b;
        wm_buffer text, image;
        wmt_ctx_init(&ctx);
        size_t size = 0;
        uint8_t *data = wmt_read_file(list[i], &size);
        if (bwm_parse(&ctx, data, size, list[i], &a)) fail_msg("%s", wm_ctx_message(&ctx));
        assert_int_equal(bwm_ascii_serialize(&ctx, &a, 0, "room", &text), WM_OK);
        if (bwm_ascii_read_file(&ctx, (const char *)text.data, text.size, list[i], a.type, &b))
            fail_msg("%s: %s", list[i], wm_ctx_message(&ctx));
        assert_int_equal(a.vertex_count, b.vertex_count);
        assert_memory_equal(a.vertices, b.vertices, 12 * (size_t)a.vertex_count);
        assert_int_equal(a.face_count, b.face_count);
        assert_memory_equal(a.faces, b.faces, 12 * (size_t)a.face_count);
        assert_memory_equal(a.materials, b.materials, 4 * (size_t)a.face_count);
        assert_memory_equal(a.position, b.position, sizeof a.position);
        assert_memory_equal(a.rel_hook, b.rel_hook, sizeof a.rel_hook);
        assert_memory_equal(a.abs_hook, b.abs_hook, sizeof a.abs_hook);
        if (a.type == BWM_TYPE_AREA) { /* the links, on the same edges */
            int32_t *ta = NULL, *tb = NULL;
            assert_int_equal(bwm_face_transitions(&ctx, &a, &ta), WM_OK);
            assert_int_equal(bwm_face_transitions(&ctx, &b, &tb), WM_OK);
            assert_memory_equal(ta, tb, 12 * (size_t)a.face_count);
            wm_free(&ctx, ta);
            wm_free(&ctx, tb);
        }
        trees += same_tree(&a, &b);
        assert_int_equal(bwm_serialize(&ctx, &b, &image), WM_OK);
        int same = image.size == size && memcmp(image.data, data, size) == 0;
        identical += same;
        char why[256] = "";
        if (!same) why_different(&a, &b, why, sizeof why);
        print_message("%s: tree %s, %s %s\n", wm_path_file_name(list[i]), same_tree(&a, &b) ? "same" : "differs",
                      same ? "byte-identical" : "differs:", why);
        wm_buffer_free(&image);
        wm_buffer_free(&text);
        bwm_file_free(&ctx, &a);
        bwm_file_free(&ctx, &b);
        free(data);
    }
    print_message("%u of %zu byte-identical, %u with the same AABB tree\n", identical, n, trees);
    wmt_free_list(list, n);
}

static void read_text_file(const char *rel, bwm_file *out, uint32_t type)
{
    char *path = wmt_corpus_path_or_skip(rel);
    size_t size = 0;
    uint8_t *text = wmt_read_file(path, &size);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (bwm_ascii_read_file(&ctx, (const char *)text, size, path, type, out)) fail_msg("%s", wm_ctx_message(&ctx));
    free(text);
    free(path);
}

static void assert_same_content(const bwm_file *a, const bwm_file *b)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    assert_int_equal(a->vertex_count, b->vertex_count);
    assert_memory_equal(a->vertices, b->vertices, 12 * (size_t)a->vertex_count);
    assert_int_equal(a->face_count, b->face_count);
    assert_memory_equal(a->faces, b->faces, 12 * (size_t)a->face_count);
    assert_memory_equal(a->materials, b->materials, 4 * (size_t)a->face_count);
    assert_int_equal(a->edge_count, b->edge_count);
    assert_memory_equal(a->edges, b->edges, 8 * (size_t)a->edge_count);
}

/* KOTORMax and PyKotor text -> binary -> text (both forms) -> binary: the same walkmesh. */
static void test_ascii_binary_ascii(void **state)
{
    (void)state;
    static const char *const files[] = {
        "bwm/tslcp-101peri-kotormax.wok.ascii", "bwm/tslcp-104pera-kotormax.wok.ascii",
        "bwm/tslcp-151har14-kotormax.wok.ascii", "bwm/pykotor-203tel.wok.ascii",
        "bwm/k1cp-m13aa_04a-kotormax.mdl.ascii"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        for (int model_form = 0; model_form < 2; model_form++) {
            bwm_file a, b;
            wm_buffer text;
            wm_ctx ctx;
            wmt_ctx_init(&ctx);
            read_text_file(files[i], &a, BWM_TYPE_AREA);
            assert_int_equal(bwm_ascii_serialize(&ctx, &a, model_form, "room", &text), WM_OK);
            if (bwm_ascii_read_file(&ctx, (const char *)text.data, text.size, "again", BWM_TYPE_AREA, &b))
                fail_msg("%s", wm_ctx_message(&ctx));
            if (model_form) { /* node-relative vertices come back within a float step of the position's size */
                for (uint32_t v = 0; v < 3 * a.vertex_count; v++)
                    assert_true(fabsf(a.vertices[v] - b.vertices[v]) <= 1e-5f * (1 + fabsf(a.vertices[v])));
                memcpy(b.vertices, a.vertices, 12 * (size_t)a.vertex_count);
            }
            assert_same_content(&a, &b);
            wm_buffer_free(&text);
            bwm_file_free(&ctx, &a);
            bwm_file_free(&ctx, &b);
        }
}

/* The keywords of a KOTORMax .wok.ascii export, in its order, are those this writer writes. */
static void test_written_form_follows_kotormax(void **state)
{
    (void)state;
    static const char *const keywords[] = {"node trimesh", "parent", "position", "orientation", "verts", "faces", "endnode"};
    char *path = wmt_corpus_path_or_skip("bwm/tslcp-151har14-kotormax.wok.ascii");
    size_t size = 0;
    char *theirs = (char *)wmt_read_file(path, &size);
    bwm_file file;
    wm_buffer ours;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    read_text_file("bwm/tslcp-151har14-kotormax.wok.ascii", &file, BWM_TYPE_AREA);
    assert_int_equal(bwm_ascii_serialize(&ctx, &file, 0, "151har14", &ours), WM_OK);
    wm_put_u8(&ours, 0);
    const char *p = theirs, *q = (const char *)ours.data;
    for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++) {
        p = strstr(p, keywords[k]);
        q = strstr(q, keywords[k]);
        assert_non_null(p);
        assert_non_null(q);
    }
    assert_non_null(strstr(theirs, "# WOKMESH  ASCII"));
    assert_non_null(strstr((const char *)ours.data, "# WOKMESH  ASCII"));
    wm_buffer_free(&ours);
    bwm_file_free(&ctx, &file);
    free(theirs);
    free(path);
}

/* A model whose only meshes are render geometry is not read as a walkmesh. */
static void test_model_without_walkmesh_refused(void **state)
{
    (void)state;
    static const char text[] = "newmodel crate\nbeginmodelgeom crate\nnode trimesh box\n  parent crate\n"
                               "  verts 3\n    0 0 0\n    1 0 0\n    0 1 0\n  faces 1\n    0 1 2 1 0 0 0 1\nendnode\n"
                               "endmodelgeom crate\ndonemodel crate\n";
    wm_ctx ctx;
    wm_mesh mesh;
    wmt_ctx_init(&ctx);
    wm_mesh_init(&mesh);
    assert_int_equal(bwm_ascii_parse(&ctx, text, sizeof text - 1, "crate.mdl.ascii", NULL, &mesh), WM_ERR_CORRUPT);
    assert_non_null(strstr(wm_ctx_message(&ctx), "without a walkmesh node"));
    wm_mesh_free(&ctx, &mesh);
}

/* NWN1's ASCII .wok/.pwk go to the ASCII reader by their content. */
static void test_nwn1_text_behind_binary_extensions(void **state)
{
    (void)state;
    static const char *const files[] = {"bwm-models/nwn1-completerc-tw010_h01_14.wok",
                                        "bwm-models/nwn1-completerc-PLA_Blocks.pwk"};
    for (size_t i = 0; i < 2; i++) {
        char *path = wmt_corpus_path_or_skip(files[i]), *out = NULL;
        const char *argv[] = {"info", path, NULL};
        assert_int_equal(wmt_run_cli(&out, NULL, argv), 0);
        assert_non_null(strstr(out, "triangles:"));
        free(out);
        free(path);
    }
}

/* Every prefix of a KOTORMax text and of a written one either reads (the cut
 * fell after the walkmesh) or fails with a message naming the text and line. */
static void test_truncation_sweep(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip("bwm/tslcp-151har14-kotormax.wok.ascii");
    size_t size = 0;
    uint8_t *kotormax = wmt_read_file(path, &size);
    bwm_file file;
    wm_buffer ours;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    read_text_file("bwm/tslcp-151har14-kotormax.wok.ascii", &file, BWM_TYPE_AREA);
    assert_int_equal(bwm_ascii_serialize(&ctx, &file, 1, "room", &ours), WM_OK);
    const uint8_t *texts[2] = {kotormax, ours.data};
    size_t sizes[2] = {size, ours.size};
    uint32_t refused = 0;
    for (int t = 0; t < 2; t++)
        for (size_t n = 0; n < sizes[t]; n++) {
            bwm_file cut;
            wmt_ctx_init(&ctx);
            if (bwm_ascii_read_file(&ctx, (const char *)texts[t], n, "cut.wok.ascii", BWM_TYPE_AREA, &cut) == WM_OK) {
                assert_true(cut.face_count <= file.face_count);
                bwm_file_free(&ctx, &cut);
                continue;
            }
            refused++;
            assert_non_null(strstr(wm_ctx_message(&ctx), "cut.wok.ascii"));
        }
    print_message("prefixes refused: %u of %zu\n", refused, sizes[0] + sizes[1]);
    assert_true(refused > 0);
    wm_buffer_free(&ours);
    bwm_file_free(&ctx, &file);
    free(kotormax);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary_ascii_binary),
        cmocka_unit_test(test_ascii_binary_ascii),
        cmocka_unit_test(test_written_form_follows_kotormax),
        cmocka_unit_test(test_model_without_walkmesh_refused),
        cmocka_unit_test(test_truncation_sweep),
        cmocka_unit_test(test_nwn1_text_behind_binary_extensions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
