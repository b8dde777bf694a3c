/* ASCII walkmesh reader: KOTORMax and PyKotor text against the counts in the
 * corpus README and against the binary files compiled from the same rooms. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"

static void parse_corpus(const char *name, const double *room_offset, wm_ctx *ctx, wm_mesh *mesh)
{
    char rel[256];
    snprintf(rel, sizeof rel, "bwm/%s", name);
    char *path = wmt_corpus_path_or_skip(rel);
    size_t size = 0;
    uint8_t *text = wmt_read_file(path, &size);
    wmt_ctx_init(ctx);
    wm_mesh_init(mesh);
    if (bwm_ascii_parse(ctx, (const char *)text, size, name, room_offset, mesh)) fail_msg("%s", wm_ctx_message(ctx));
    free(text);
    free(path);
}

static void read_binary(const char *name, bwm_file *f)
{
    char rel[256];
    snprintf(rel, sizeof rel, "bwm/%s", name);
    char *path = wmt_corpus_path_or_skip(rel);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (bwm_read_file(&ctx, path, f)) fail_msg("%s", wm_ctx_message(&ctx));
    free(path);
}

static void test_kotormax_counts(void **state)
{
    (void)state;
    static const struct { const char *name; uint32_t v, f; } files[] = {
        {"tslcp-101peri-kotormax.wok.ascii", 283, 471},
        {"tslcp-104pera-kotormax.wok.ascii", 252, 385},
        {"tslcp-151har14-kotormax.wok.ascii", 16, 22},
        {"pykotor-203tel.wok.ascii", 677, 1209},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        wm_ctx ctx;
        wm_mesh m;
        parse_corpus(files[i].name, NULL, &ctx, &m);
        assert_int_equal(m.vertex_count, files[i].v);
        assert_int_equal(m.triangle_count, files[i].f);
        wm_mesh_free(&ctx, &m);
    }
}

static int cmp_float3(const void *a, const void *b)
{
    const float *p = a, *q = b;
    for (int k = 0; k < 3; k++)
        if (p[k] != q[k]) return p[k] < q[k] ? -1 : 1;
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* PyKotor's text of 203tell holds the binary's vertices (absolute, beside a position) and materials. */
static void test_pykotor_text_matches_binary(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_mesh m;
    bwm_file f;
    parse_corpus("pykotor-203tel.wok.ascii", NULL, &ctx, &m);
    read_binary("pykotor-models-203tell.wok", &f);
    assert_int_equal(m.vertex_count, f.vertex_count);
    float *a = malloc(12 * (size_t)m.vertex_count), *b = malloc(12 * (size_t)m.vertex_count);
    memcpy(a, m.positions, 12 * (size_t)m.vertex_count);
    memcpy(b, f.vertices, 12 * (size_t)m.vertex_count);
    qsort(a, m.vertex_count, 12, cmp_float3);
    qsort(b, m.vertex_count, 12, cmp_float3);
    for (uint32_t i = 0; i < 3 * m.vertex_count; i++) assert_true(fabsf(a[i] - b[i]) < 1e-4f);
    uint32_t *ma = malloc(4 * (size_t)m.triangle_count), *mb = malloc(4 * (size_t)f.face_count);
    for (uint32_t t = 0; t < m.triangle_count; t++)
        ma[t] = (uint32_t)bwm_material_of_surface(wm_surfaces(&ctx), m.surfaces[t]);
    memcpy(mb, f.materials, 4 * (size_t)f.face_count);
    qsort(ma, m.triangle_count, 4, cmp_u32);
    qsort(mb, f.face_count, 4, cmp_u32);
    assert_memory_equal(ma, mb, 4 * (size_t)f.face_count);
    free(a);
    free(b);
    free(ma);
    free(mb);
    wm_mesh_free(&ctx, &m);
    bwm_file_free(&ctx, &f);
}

/* The KOTORMax model of m13aa_04a: node position plus the room's LYT offset gives the
 * binary's coordinates, and its roomlinks become the binary's transition edges. */
static void test_kotormax_model_against_its_binary(void **state)
{
    (void)state;
    const double room_offset[3] = {95.25, 48.75, 5.0};
    wm_ctx ctx;
    wm_mesh m;
    bwm_file f, built;
    parse_corpus("k1cp-m13aa_04a-kotormax.mdl.ascii", room_offset, &ctx, &m);
    read_binary("k1cp-m13aa_04a.wok", &f);
    float mn[3], mx[3], bmn[3] = {INFINITY, INFINITY, INFINITY}, bmx[3] = {-INFINITY, -INFINITY, -INFINITY};
    wm_mesh_bounds(&m, mn, mx);
    for (uint32_t v = 0; v < f.vertex_count; v++)
        for (int k = 0; k < 3; k++) {
            bmn[k] = fminf(bmn[k], f.vertices[3 * v + k]);
            bmx[k] = fmaxf(bmx[k], f.vertices[3 * v + k]);
        }
    for (int k = 0; k < 3; k++) {
        assert_true(fabsf(mn[k] - bmn[k]) < 1e-3f);
        assert_true(fabsf(mx[k] - bmx[k]) < 1e-3f);
    }
    /* the text's "roomlinks 2": rows "6 3" and "84 14" */
    assert_int_equal(m.transitions[6], 3);
    assert_int_equal(m.transitions[84], 14);
    assert_int_equal(bwm_from_mesh(&ctx, &m, BWM_TYPE_AREA, -1.0f, BWM_PLANES_KOTORMAX, &built), WM_OK);
    uint32_t links = 0;
    for (uint32_t e = 0; e < f.edge_count; e++) {
        if (f.edges[e].transition < 0) continue;
        int found = 0;
        for (uint32_t k = 0; k < built.edge_count; k++)
            found |= built.edges[k].code == f.edges[e].code && built.edges[k].transition == f.edges[e].transition;
        assert_true(found);
        links++;
    }
    assert_int_equal(links, 2);
    wm_report report;
    wm_report_init(&report, &ctx);
    assert_int_equal(bwm_validate(&ctx, &built, 0, &report), WM_OK);
    assert_int_equal(report.errors, 0);
    wm_report_free(&report);
    bwm_file_free(&ctx, &built);
    bwm_file_free(&ctx, &f);
    wm_mesh_free(&ctx, &m);
}

static void test_hostile_text(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "node trimesh w\n  verts 4000000000\n",
        "node trimesh w\n  verts 1000000\n 0 0 0\nendnode\n",
        "node trimesh w\n  verts 1\n 0 0 0\n  faces 1\n 0 0 5 1 0 0 0 4\nendnode\n",
        "node trimesh w\n  verts 3\n 0 0 0\n 1 0 0\n 0 1 0\n  faces 1\n 0 1 2 1 0 0 0 4\n  roomlinks 1\n 9 2\nendnode\n",
        "node trimesh w\n  verts 3\n 0 0 0\n 1 0 x\n",
        "node trimesh w\n  verts 0\n",
        "no walkmesh here\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        wm_ctx ctx;
        wm_mesh m;
        wmt_ctx_init(&ctx);
        wm_mesh_init(&m);
        assert_int_not_equal(bwm_ascii_parse(&ctx, bad[i], strlen(bad[i]), "bad.wok.ascii", NULL, &m), WM_OK);
        assert_non_null(strstr(wm_ctx_message(&ctx), "bad.wok.ascii"));
        wm_mesh_free(&ctx, &m);
    }
    /* every prefix of a real file: clean success or clean failure */
    char *path = wmt_corpus_path_or_skip("bwm/tslcp-151har14-kotormax.wok.ascii");
    size_t size = 0;
    uint8_t *text = wmt_read_file(path, &size);
    for (size_t len = 0; len < size; len++) {
        char *copy = malloc(len ? len : 1);
        memcpy(copy, text, len);
        wm_ctx ctx;
        wm_mesh m;
        wmt_ctx_init(&ctx);
        wm_mesh_init(&m);
        if (bwm_ascii_parse(&ctx, copy, len, "prefix", NULL, &m) != WM_OK) assert_true(strlen(wm_ctx_message(&ctx)) > 0);
        wm_mesh_free(&ctx, &m);
        free(copy);
    }
    free(text);
    free(path);
}

/* validate on a text walkmesh (no module checks: the neutral mesh checks)
 * runs cleanly on every corpus ASCII file and prints valid JSON facts. */
static void test_validate_cli_on_text(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".ascii", NULL};
    char **files = NULL;
    size_t count = wmt_corpus_list("bwm", suffixes, &files);
    assert_true(count > 0);
    for (size_t i = 0; i < count; i++) {
        const char *argv[] = {"validate", files[i], "--json", NULL};
        char *out = NULL, *err = NULL;
        int code = wmt_run_cli(&out, &err, argv);
        if (code != 0) fail_msg("validate %s: exit %d: %s", files[i], code, err);
        assert_non_null(strstr(out, "\"format\": \"bwm-ascii\""));
        assert_non_null(strstr(out, "\"errors\": 0"));
        free(out);
        free(err);
    }
    wmt_free_list(files, count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kotormax_counts),
        cmocka_unit_test(test_pykotor_text_matches_binary),
        cmocka_unit_test(test_kotormax_model_against_its_binary),
        cmocka_unit_test(test_hostile_text),
        cmocka_unit_test(test_validate_cli_on_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
