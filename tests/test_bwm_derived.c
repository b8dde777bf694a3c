/* A WOK built for writing (bwm_from_mesh_for_writing: planes, tree and
 * adjacency derived as the writer reaches them, bwm_derived) must write the
 * same bytes as the builder that keeps every array, whose output the other
 * BWM tests hold against the game's files; and the bytes must parse back
 * with a sound tree. Sources: every corpus walkmesh as a mesh (welded
 * again like an imported OBJ), in both plane styles, and a small mesh with
 * the builder's warning cases and transitions. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"

static void serialize(wm_ctx *ctx, const bwm_file *f, wm_buffer *out)
{
    if (bwm_serialize(ctx, f, out)) fail_msg("%s", wm_ctx_message(ctx));
}

/* A copy of the mesh's positions and indices, to show a build left them as they were. */
typedef struct geometry_copy {
    float *positions;
    uint32_t *indices;
} geometry_copy;

static geometry_copy copy_of(const wm_mesh *mesh)
{
    geometry_copy c = {malloc((size_t)mesh->vertex_count * 12 + 1), malloc((size_t)mesh->triangle_count * 12 + 1)};
    assert_non_null(c.positions);
    assert_non_null(c.indices);
    memcpy(c.positions, mesh->positions, (size_t)mesh->vertex_count * 12);
    memcpy(c.indices, mesh->indices, (size_t)mesh->triangle_count * 12);
    return c;
}

static void assert_unchanged(const wm_mesh *mesh, geometry_copy c, const char *what)
{
    if (memcmp(c.positions, mesh->positions, (size_t)mesh->vertex_count * 12) != 0 ||
        memcmp(c.indices, mesh->indices, (size_t)mesh->triangle_count * 12) != 0)
        fail_msg("%s: building for writing changed the mesh", what);
    free(c.positions);
    free(c.indices);
}

/* Both builds of the mesh, written; the derived one also parsed back. The
 * derived one may use the mesh's own arrays (bwm_build_borrowing), but only
 * those that hold what the kept build copied, and never writes to them. */
static void assert_same_bytes(wm_ctx *ctx, const wm_mesh *mesh, bwm_plane_style planes, const char *what)
{
    bwm_file kept, derived, back;
    wm_buffer a, b;
    geometry_copy before = copy_of(mesh);
    static char kept_said[sizeof wmt_warnings];
    wmt_warnings[0] = '\0';
    assert_int_equal(bwm_from_mesh(ctx, mesh, BWM_TYPE_AREA, -1.0f, planes, &kept), WM_OK);
    memcpy(kept_said, wmt_warnings, sizeof kept_said);
    wmt_warnings[0] = '\0';
    assert_int_equal(bwm_from_mesh_for_writing(ctx, mesh, BWM_TYPE_AREA, -1.0f, planes, &derived), WM_OK);
    assert_string_equal(wmt_warnings, kept_said); /* the same warnings, in the same order */
    if (derived.borrowed & BWM_BORROWED_VERTICES) {
        assert_ptr_equal(derived.vertices, mesh->positions);
        assert_int_equal(kept.vertex_count, mesh->vertex_count);
        assert_memory_equal(kept.vertices, mesh->positions, (size_t)mesh->vertex_count * 12);
    }
    if (derived.borrowed & BWM_BORROWED_FACES) {
        assert_ptr_equal(derived.faces, mesh->indices);
        assert_memory_equal(kept.faces, mesh->indices, (size_t)mesh->triangle_count * 12);
    }
    assert_true(mesh->triangle_count == 0 || derived.derived.work != NULL);
    assert_null(derived.aabb);
    serialize(ctx, &kept, &a);
    serialize(ctx, &derived, &b);
    if (a.size != b.size || memcmp(a.data, b.data, a.size) != 0)
        fail_msg("%s: derived WOK differs (%zu vs %zu bytes)", what, b.size, a.size);
    /* the parser checks every tree link (bwm_check_aabb_links) */
    assert_int_equal(bwm_parse(ctx, b.data, b.size, what, &back), WM_OK);
    assert_int_equal(back.aabb_count, mesh->triangle_count ? 2 * back.face_count - 1 : 0);
    bwm_file_free(ctx, &back);
    wm_buffer_free(&a);
    wm_buffer_free(&b);
    bwm_file_free(ctx, &kept);
    bwm_file_free(ctx, &derived);
    assert_unchanged(mesh, before, what);
}

/* Whether each vertex of the mesh is in a triangle and no two are within d of each other on every axis. */
static int distinct_and_used(const wm_mesh *mesh, float d)
{
    for (uint32_t v = 0; v < mesh->vertex_count; v++) {
        int used = 0;
        for (size_t i = 0; i < 3 * (size_t)mesh->triangle_count; i++) used |= mesh->indices[i] == v;
        if (!used) return 0;
        for (uint32_t w = 0; w < v; w++) {
            const float *p = mesh->positions + 3 * (size_t)v, *q = mesh->positions + 3 * (size_t)w;
            if (fabsf(p[0] - q[0]) <= d && fabsf(p[1] - q[1]) <= d && fabsf(p[2] - q[2]) <= d) return 0;
        }
    }
    return 1;
}

/* A strip of four faces: the mesh's arrays are borrowed exactly when welding
 * and compaction would change nothing and (faces) the walkable faces come
 * first already, and the bytes are the kept build's in every case. */
static void test_borrowed_arrays(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    for (int shape = 0; shape < 4; shape++) { /* plain, first face nonwalk, a duplicate vertex, an unused vertex */
        wm_mesh mesh;
        wm_mesh_init(&mesh);
        for (uint32_t v = 0; v < 6; v++)
            assert_int_equal(wm_mesh_add_vertex(&ctx, &mesh, (float)v, (float)(v % 2), 0.0f, NULL), WM_OK);
        if (shape >= 2) assert_int_equal(wm_mesh_add_vertex(&ctx, &mesh, shape == 2 ? 5.0f : 9.0f, 1.0f, 0.0f, NULL), WM_OK);
        for (uint32_t f = 0; f < 4; f++) {
            uint32_t c = shape == 2 && f == 3 ? 6 : f + 2;
            int walkable = !(shape == 1 && f == 0);
            assert_int_equal(wm_mesh_add_triangle(&ctx, &mesh, f, f + 1, c, walkable ? WM_SURF_STONE : WM_SURF_NONWALK,
                                                  walkable), WM_OK);
        }
        bwm_file derived;
        assert_int_equal(bwm_from_mesh_for_writing(&ctx, &mesh, BWM_TYPE_AREA, -1.0f, BWM_PLANES_BIOWARE, &derived),
                         WM_OK);
        int expect_vertices = distinct_and_used(&mesh, 1e-4f);
        assert_int_equal(expect_vertices, shape < 2);
        assert_int_equal((derived.borrowed & BWM_BORROWED_VERTICES) != 0, expect_vertices);
        assert_int_equal((derived.borrowed & BWM_BORROWED_FACES) != 0, expect_vertices && shape != 1);
        bwm_file_free(&ctx, &derived);
        assert_same_bytes(&ctx, &mesh, BWM_PLANES_BIOWARE, "strip");
        wm_mesh_free(&ctx, &mesh);
    }
}

static void test_corpus_walkmeshes_write_the_same_bytes(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".wok", NULL};
    const char *folders[] = {"bwm", "bwm-models"};
    uint32_t compared = 0;
    for (int d = 0; d < 2; d++) {
        char **list;
        size_t n = wmt_corpus_list(folders[d], suffixes, &list);
        for (size_t i = 0; i < n; i++) {
            wm_ctx ctx;
            wmt_ctx_init(&ctx);
            bwm_file file;
            wm_mesh mesh;
            wm_mesh_init(&mesh);
            if (bwm_read_file(&ctx, list[i], &file)) continue; /* the reader's own tests cover refusals */
            assert_int_equal(bwm_to_mesh(&ctx, &file, NULL, &mesh), WM_OK);
            assert_same_bytes(&ctx, &mesh, BWM_PLANES_BIOWARE, list[i]);
            assert_same_bytes(&ctx, &mesh, BWM_PLANES_KOTORMAX, list[i]);
            compared++;
            wm_mesh_free(&ctx, &mesh);
            bwm_file_free(&ctx, &file);
        }
        wmt_free_list(list, n);
    }
    assert_true(compared >= 20);
}

/* Three walkable faces on one edge, one facing down, one degenerate, a
 * transition on a boundary edge and one on an inner edge: the derived build
 * warns once about each, as the other build does, and writes its bytes. */
static void test_warning_cases_write_the_same_bytes(void **state)
{
    (void)state;
    const float verts[][3] = {{0, 0, 0}, {1, 0, 0}, {0.5f, 1, 0}, {0.5f, -1, 0}, {0.5f, 0.5f, 1},
                              {5, 5, 0}, {6, 5, 0},  {5, 6, 0},    {7, 5, 0}};
    const uint32_t faces[][3] = {{0, 1, 2}, {1, 0, 3}, {0, 1, 4}, {5, 7, 6}, {5, 6, 8}};
    wm_ctx ctx;
    wm_mesh mesh;
    wmt_ctx_init(&ctx);
    wm_mesh_init(&mesh);
    for (int v = 0; v < 9; v++) assert_int_equal(wm_mesh_add_vertex(&ctx, &mesh, verts[v][0], verts[v][1], verts[v][2], NULL), WM_OK);
    for (int f = 0; f < 5; f++)
        assert_int_equal(wm_mesh_add_triangle(&ctx, &mesh, faces[f][0], faces[f][1], faces[f][2], WM_SURF_STONE, 1),
                         WM_OK);
    mesh.transitions[3 * 0 + 1] = 2; /* edge 1-2 of face 0: a boundary */
    mesh.transitions[3 * 0 + 0] = 3; /* edge 0-1: shared, BWM cannot keep it */
    wmt_warnings[0] = '\0';
    bwm_file derived;
    assert_int_equal(bwm_from_mesh_for_writing(&ctx, &mesh, BWM_TYPE_AREA, -1.0f, BWM_PLANES_BIOWARE, &derived),
                     WM_OK);
    const char *said[] = {"shared by 3 faces", "walkable face faces down", "degenerate",
                          "transitions are on edges that are not walkable boundary edges"};
    for (int i = 0; i < 4; i++) {
        const char *at = strstr(wmt_warnings, said[i]);
        assert_non_null(at);
        assert_null(strstr(at + 1, said[i])); /* once: writing derives again quietly */
    }
    wm_buffer b;
    serialize(&ctx, &derived, &b);
    for (int i = 0; i < 4; i++) assert_null(strstr(strstr(wmt_warnings, said[i]) + 1, said[i]));
    wm_buffer_free(&b);
    bwm_file_free(&ctx, &derived);
    assert_same_bytes(&ctx, &mesh, BWM_PLANES_BIOWARE, "warning cases");
    wm_mesh_free(&ctx, &mesh);
}

/* Seven faces of each kind the plane warnings name (degenerate: a line and
 * a point; facing down; standing upright, not named) among upward ones: the
 * derived build says what the kept build says, the "more" lines included. */
static void test_many_plane_warnings(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_mesh mesh;
    wmt_ctx_init(&ctx);
    wm_mesh_init(&mesh);
    for (uint32_t k = 0; k < 7; k++) {
        float x = 10.0f * (float)k;
        const float corners[][3] = {{x, 0, 0}, {x + 1, 0, 0}, {x, 1, 0},          /* up */
                                    {x, 5, 0}, {x + 1, 5, 0}, {x + 2, 5, 0},      /* a line */
                                    {x, 7, 1}, {x, 7, 1},     {x, 7, 1},          /* a point */
                                    {x, 9, 0}, {x, 10, 0},    {x + 1, 9, 0},      /* down */
                                    {x, 12, 0}, {x + 1, 12, 0}, {x, 12, 1}};      /* upright */
        for (uint32_t c = 0; c < 15; c++)
            assert_int_equal(wm_mesh_add_vertex(&ctx, &mesh, corners[c][0], corners[c][1], corners[c][2], NULL), WM_OK);
        for (uint32_t t = 0; t < 5; t++) {
            uint32_t v = 15 * k + 3 * t;
            assert_int_equal(wm_mesh_add_triangle(&ctx, &mesh, v, v + 1, v + 2, WM_SURF_STONE, 1), WM_OK);
        }
    }
    bwm_file kept;
    wmt_warnings[0] = '\0';
    assert_int_equal(bwm_from_mesh(&ctx, &mesh, BWM_TYPE_AREA, -1.0f, BWM_PLANES_BIOWARE, &kept), WM_OK);
    assert_non_null(strstr(wmt_warnings, "2 more downward-facing walkable faces"));
    assert_non_null(strstr(wmt_warnings, "more degenerate faces"));
    bwm_file_free(&ctx, &kept);
    assert_same_bytes(&ctx, &mesh, BWM_PLANES_BIOWARE, "plane warnings");
    wm_mesh_free(&ctx, &mesh);
}

/* Edge shapes: one face (a tree of one leaf), no walkable face (no adjacency rows). */
static void test_small_meshes_write_the_same_bytes(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    for (int walkable = 0; walkable < 2; walkable++)
        for (uint32_t faces = 1; faces <= 3; faces++) {
            wm_mesh mesh;
            wm_mesh_init(&mesh);
            for (uint32_t v = 0; v < faces + 2; v++)
                assert_int_equal(wm_mesh_add_vertex(&ctx, &mesh, (float)v, (float)(v % 2), 0.0f, NULL), WM_OK);
            for (uint32_t f = 0; f < faces; f++)
                assert_int_equal(wm_mesh_add_triangle(&ctx, &mesh, f, f + 1, f + 2,
                                                      walkable ? WM_SURF_STONE : WM_SURF_NONWALK, walkable),
                                 WM_OK);
            assert_same_bytes(&ctx, &mesh, BWM_PLANES_BIOWARE, walkable ? "walkable strip" : "nonwalk strip");
            wm_mesh_free(&ctx, &mesh);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_walkmeshes_write_the_same_bytes),
        cmocka_unit_test(test_warning_cases_write_the_same_bytes),
        cmocka_unit_test(test_small_meshes_write_the_same_bytes),
        cmocka_unit_test(test_borrowed_arrays),
        cmocka_unit_test(test_many_plane_warnings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
