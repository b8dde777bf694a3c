/* The ASCII reader joins the nodes of a text into one walkmesh (issue 27.4): a vertex of a
 * later node on a vertex of an earlier one becomes that vertex, so faces of two nodes meeting
 * on an edge are linked as every other reader's welded faces are; within a node the indices
 * stay the file's own (FORMAT-NOTES 1: coincident vertices with distinct indices are not
 * linked). Checked on a text written here against positions, and on every corpus text. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"

/* Node a: faces 0 1 2 and 4 3 0, whose vertex 3 lies on vertex 1 (the same edge by position,
 * distinct indices: not linked). Node b: one face on a's edge (4,0)-(0,4), its first vertex on
 * a's vertices 1 and 3 both. */
static const char two_nodes[] = "# WOKMESH  ASCII\n"
                                "node trimesh a\n  position 0 0 0\n  verts 5\n    0 0 0\n    4 0 0\n    0 4 0\n"
                                "    4 0 0\n    0 -4 0\n  faces 2\n    0 1 2 1 0 0 0 4\n    4 3 0 1 0 0 0 4\nendnode\n"
                                "node trimesh b\n  position 0 0 0\n  verts 3\n    4 0 0\n    4 4 0\n    0 4 0\n"
                                "  faces 1\n    0 1 2 1 0 0 0 4\nendnode\n";

/* The face edge of f joining positions p and q (either direction), or -1. */
static int edge_between(const bwm_file *f, uint32_t face, const float *p, const float *q)
{
    for (int e = 0; e < 3; e++) {
        const float *a = &f->vertices[3 * (size_t)f->faces[3 * (size_t)face + e]];
        const float *b = &f->vertices[3 * (size_t)f->faces[3 * (size_t)face + (e + 1) % 3]];
        if ((!memcmp(a, p, 12) && !memcmp(b, q, 12)) || (!memcmp(a, q, 12) && !memcmp(b, p, 12))) return e;
    }
    return -1;
}

static void test_nodes_are_joined_and_a_node_keeps_its_indices(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh mesh;
    wm_mesh_init(&mesh);
    assert_int_equal(bwm_ascii_parse(&ctx, two_nodes, sizeof two_nodes - 1, "two.wok.ascii", NULL, &mesh), WM_OK);
    assert_int_equal(mesh.vertex_count, 8 - 2); /* b's (4,0,0) and (0,4,0) are a's */
    assert_int_equal(mesh.triangle_count, 3);
    wm_mesh_free(&ctx, &mesh);

    bwm_file f;
    assert_int_equal(bwm_ascii_read_file(&ctx, two_nodes, sizeof two_nodes - 1, "two.wok.ascii", BWM_TYPE_AREA, &f),
                     WM_OK);
    const float x4[3] = {4, 0, 0}, y4[3] = {0, 4, 0}, origin[3] = {0, 0, 0};
    int a_edge = edge_between(&f, 0, x4, y4), b_edge = edge_between(&f, 2, x4, y4);
    assert_true(a_edge >= 0 && b_edge >= 0);
    assert_int_equal(f.adjacency[a_edge], 2 * 3 + b_edge); /* across the nodes: linked */
    assert_int_equal(f.adjacency[2 * 3 + b_edge], a_edge);
    int first = edge_between(&f, 0, origin, x4), second = edge_between(&f, 1, origin, x4);
    assert_true(first >= 0 && second >= 0);
    assert_int_equal(f.adjacency[first], -1); /* within node a, distinct indices: not linked */
    assert_int_equal(f.adjacency[3 + second], -1);
    bwm_file_free(&ctx, &f);
}

/* The reader honours --weld as the builder's weld does: 0 joins nothing. */
static void test_weld_option_sets_the_join(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_options opts;
    wm_options_init(&opts);
    wm_mesh mesh;
    assert_int_equal(wm_mesh_load_memory(&ctx, two_nodes, sizeof two_nodes - 1, "two.wok.ascii", NULL, &opts, &mesh),
                     WM_OK);
    assert_int_equal(mesh.vertex_count, 6);
    wm_mesh_free(&ctx, &mesh);
    opts.weld_tolerance = 0;
    assert_int_equal(wm_mesh_load_memory(&ctx, two_nodes, sizeof two_nodes - 1, "two.wok.ascii", NULL, &opts, &mesh),
                     WM_OK);
    assert_int_equal(mesh.vertex_count, 8);
    wm_mesh_free(&ctx, &mesh);
}

/* Every ASCII walkmesh of the corpus has one walkmesh node, so joining leaves it as it was:
 * as many vertices as its `verts` rows. */
static void test_corpus_texts_keep_every_vertex(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".ascii", NULL};
    char **files = NULL;
    size_t count = wmt_corpus_list("bwm", suffixes, &files), checked = 0;
    for (size_t i = 0; i < count; i++) {
        size_t size = 0;
        uint8_t *bytes = wmt_read_file(files[i], &size);
        char *text = malloc(size + 1); /* NUL-terminated for strstr */
        assert_non_null(text);
        memcpy(text, bytes, size);
        text[size] = '\0';
        free(bytes);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        wm_mesh mesh;
        wm_mesh_init(&mesh);
        if (bwm_ascii_parse(&ctx, text, size, files[i], NULL, &mesh)) fail_msg("%s", wm_ctx_message(&ctx));
        /* the rows of the walkmesh nodes: `node aabb` when there is one, else `node trimesh` */
        const char *wanted = strstr(text, "node aabb") ? "node aabb" : "node trimesh";
        unsigned long rows = 0, nodes = 0;
        for (const char *p = strstr(text, wanted); p; p = strstr(p + 1, wanted)) {
            const char *verts = strstr(p, "verts ");
            if (verts) rows += strtoul(verts + 6, NULL, 10);
            nodes++;
        }
        print_message("%s: %lu walkmesh node(s), %lu vertex rows, %u vertices read\n", files[i], nodes, rows,
                      mesh.vertex_count);
        assert_int_equal(nodes, 1);
        assert_int_equal(mesh.vertex_count, rows);
        checked++;
        wm_mesh_free(&ctx, &mesh);
        free(text);
    }
    assert_int_equal(checked, count);
    wmt_free_list(files, count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nodes_are_joined_and_a_node_keeps_its_indices),
        cmocka_unit_test(test_weld_option_sets_the_join),
        cmocka_unit_test(test_corpus_texts_keep_every_vertex),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
