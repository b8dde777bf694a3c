/* `walkmesh convert` with BWM files: byte-identical WOK -> WOK, --rebuild,
 * --plane-style, OBJ -> WOK -> OBJ on the project's samples, WOK -> OBJ -> WOK
 * (transitions back through --base), PWK hooks from options. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"

static int run(const char *const *argv)
{
    char *out = NULL, *err = NULL;
    int rc = wmt_run_cli(&out, &err, argv);
    if (rc != 0) print_message("walkmesh %s: rc %d\n%s%s", argv[0], rc, out ? out : "", err ? err : "");
    free(out);
    free(err);
    return rc;
}

static void read_bwm(const char *path, bwm_file *f)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (bwm_read_file(&ctx, path, f)) fail_msg("%s", wm_ctx_message(&ctx));
}

static void test_wok_to_wok_is_byte_identical(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".wok", ".pwk", NULL};
    char **list = NULL;
    size_t n = wmt_corpus_list("bwm", suffixes, &list);
    char *dir = wmt_make_temp_dir();
    for (size_t i = 0; i < n; i++) {
        const char *ext = strrchr(list[i], '.');
        char name[32];
        snprintf(name, sizeof name, "copy%s", ext);
        char *out = wmt_join(dir, name);
        const char *argv[] = {"convert", list[i], out, "--force", "--quiet", NULL};
        assert_int_equal(run(argv), 0);
        size_t a_size, b_size;
        uint8_t *a = wmt_read_file(list[i], &a_size), *b = wmt_read_file(out, &b_size);
        if (a_size != b_size || memcmp(a, b, a_size) != 0) fail_msg("%s: convert changed the bytes", list[i]);
        free(a);
        free(b);
        free(out);
    }
    wmt_remove_tree(dir);
    free(dir);
    wmt_free_list(list, n);
}

static void test_rebuild_and_plane_style(void **state)
{
    (void)state;
    /* corpus files first: a skip must not leave anything allocated behind */
    char *files[] = {wmt_corpus_path("bwm/pykotor-models-203tell.wok"), wmt_corpus_path("bwm/k1cp-m13aa_04a.wok")};
    wmt_require_all(files, 2);
    char *vanilla = files[0], *k1cp = files[1];
    char *dir = wmt_make_temp_dir();
    char *out = wmt_join(dir, "rebuilt.wok");
    const char *rebuild[] = {"convert", vanilla, out, "--rebuild", "--quiet", NULL};
    assert_int_equal(run(rebuild), 0);
    const char *validate[] = {"validate", out, NULL};
    assert_int_equal(run(validate), 0);
    bwm_file a, b;
    read_bwm(vanilla, &a);
    read_bwm(out, &b);
    /* same geometry, order, links and transitions; tree shape and leaves kept (tie order of the file) */
    assert_int_equal(a.face_count, b.face_count);
    assert_memory_equal(a.faces, b.faces, a.face_count * 12);
    assert_memory_equal(a.adjacency, b.adjacency, a.adjacency_count * 12);
    assert_int_equal(a.edge_count, b.edge_count);
    assert_memory_equal(a.edges, b.edges, a.edge_count * sizeof(bwm_edge));
    assert_memory_equal(a.position, b.position, sizeof a.position);
    for (uint32_t i = 0; i < a.aabb_count; i++) assert_int_equal(a.aabb[i].face, b.aabb[i].face);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    bwm_file_free(&ctx, &a);
    bwm_file_free(&ctx, &b);
    free(out);
    free(vanilla);

    /* K1CP files were compiled with planes {1,2,4}: --plane-style kotormax gives them back */
    out = wmt_join(dir, "k1cp.wok");
    const char *kotormax[] = {"convert", k1cp, out, "--plane-style", "kotormax", "--quiet", NULL};
    assert_int_equal(run(kotormax), 0);
    read_bwm(k1cp, &a);
    read_bwm(out, &b);
    assert_int_equal(a.aabb_count, b.aabb_count);
    for (uint32_t i = 0; i < a.aabb_count; i++) {
        assert_int_equal(a.aabb[i].plane, b.aabb[i].plane);
        assert_int_equal(a.aabb[i].face, b.aabb[i].face);
    }
    bwm_file_free(&ctx, &a);
    bwm_file_free(&ctx, &b);
    const char *bad_style[] = {"convert", k1cp, out, "--plane-style", "sideways", "--force", "--quiet", NULL};
    assert_int_not_equal(run(bad_style), 0);
    free(out);
    free(k1cp);
    wmt_remove_tree(dir);
    free(dir);
}

/* Triangles as sorted (surface, 9 coordinates) rows for an order-free comparison. */
typedef struct tri_row {
    uint16_t surface;
    float p[9];
} tri_row;

static int tri_row_cmp(const void *pa, const void *pb)
{
    const tri_row *a = pa, *b = pb;
    if (a->surface != b->surface) return a->surface < b->surface ? -1 : 1;
    for (int k = 0; k < 9; k++) {
        float d = a->p[k] - b->p[k];
        if (fabsf(d) > 1e-3f) return d < 0 ? -1 : 1;
    }
    return 0;
}

static tri_row *mesh_rows(const wm_mesh *m)
{
    tri_row *rows = calloc(m->triangle_count, sizeof(tri_row));
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        /* rotate so the corner with the smallest (x, y, z) comes first; winding kept */
        int first = 0;
        for (int c = 1; c < 3; c++) {
            const float *p = &m->positions[3 * m->indices[3 * t + c]], *q = &m->positions[3 * m->indices[3 * t + first]];
            if (p[0] < q[0] || (p[0] == q[0] && (p[1] < q[1] || (p[1] == q[1] && p[2] < q[2])))) first = c;
        }
        rows[t].surface = m->surfaces[t];
        for (int c = 0; c < 3; c++)
            memcpy(&rows[t].p[3 * c], &m->positions[3 * m->indices[3 * t + (first + c) % 3]], 12);
    }
    qsort(rows, m->triangle_count, sizeof(tri_row), tri_row_cmp);
    return rows;
}

static void load_mesh(const char *path, wm_mesh *m)
{
    wm_ctx ctx;
    wm_options opts;
    wmt_ctx_init(&ctx);
    wm_options_init(&opts);
    wm_mesh_init(m);
    if (wm_mesh_load(&ctx, path, NULL, &opts, m)) fail_msg("%s", wm_ctx_message(&ctx));
}

static void test_obj_to_wok_to_obj_on_samples(void **state)
{
    (void)state;
    static const char *const samples[] = {"two_rooms.obj", "courtyard.obj", "ramp.obj"};
    char *dir = wmt_make_temp_dir();
    for (size_t s = 0; s < sizeof samples / sizeof samples[0]; s++) {
        char *obj = wmt_sample_path(samples[s]);
        char *wok = wmt_join(dir, "sample.wok"), *back = wmt_join(dir, "back.obj");
        const char *to_wok[] = {"convert", obj, wok, "--force", "--quiet", NULL};
        assert_int_equal(run(to_wok), 0);
        const char *validate[] = {"validate", wok, NULL};
        assert_int_equal(run(validate), 0);
        const char *to_obj[] = {"convert", wok, back, "--force", "--quiet", NULL};
        assert_int_equal(run(to_obj), 0);
        wm_mesh a, b;
        load_mesh(obj, &a);
        load_mesh(back, &b);
        assert_int_equal(a.triangle_count, b.triangle_count);
        tri_row *ra = mesh_rows(&a), *rb = mesh_rows(&b);
        for (uint32_t t = 0; t < a.triangle_count; t++)
            if (tri_row_cmp(&ra[t], &rb[t]) != 0) fail_msg("%s: triangle %u differs after OBJ -> WOK -> OBJ", samples[s], t);
        free(ra);
        free(rb);
        wm_ctx ctx;
        wm_ctx_init(&ctx);
        wm_mesh_free(&ctx, &a);
        wm_mesh_free(&ctx, &b);
        free(obj);
        free(wok);
        free(back);
    }
    wmt_remove_tree(dir);
    free(dir);
}

static uint32_t count_transitions(const bwm_file *f)
{
    uint32_t n = 0;
    for (uint32_t e = 0; e < f->edge_count; e++) n += f->edges[e].transition >= 0;
    return n;
}

/* Each room link of `orig` lands on an edge of `other` between the same two points. */
static void assert_links_on_same_edges(const bwm_file *origp, const bwm_file *otherp)
{
    const bwm_file orig = *origp, b = *otherp;
    for (uint32_t e = 0; e < orig.edge_count; e++) {
        if (orig.edges[e].transition < 0) continue;
        uint32_t f0 = orig.edges[e].code / 3, e0 = orig.edges[e].code % 3;
        const float *a = &orig.vertices[3 * orig.faces[3 * f0 + e0]], *c = &orig.vertices[3 * orig.faces[3 * f0 + (e0 + 1) % 3]];
        int found = 0;
        for (uint32_t k = 0; k < b.edge_count; k++) {
            if (b.edges[k].transition != orig.edges[e].transition) continue;
            uint32_t f1 = b.edges[k].code / 3, e1 = b.edges[k].code % 3;
            const float *p0 = &b.vertices[3 * b.faces[3 * f1 + e1]], *p1 = &b.vertices[3 * b.faces[3 * f1 + (e1 + 1) % 3]];
            float d = 0;
            for (int j = 0; j < 3; j++) d = fmaxf(d, fmaxf(fabsf(p0[j] - a[j]), fabsf(p1[j] - c[j])));
            found |= d < 1e-3f;
        }
        assert_true(found);
    }
}

/* WOK -> interchange -> WOK: geometry, materials and transitions survive (OBJ and glTF carry
 * transitions as transition_<room> line objects); with --base the original's position comes back. */
static void interchange_round_trip(const char *interchange_name)
{
    char *wok = wmt_corpus_path_or_skip("bwm/pykotor-models-203tell.wok");
    char *dir = wmt_make_temp_dir();
    char *mid = wmt_join(dir, interchange_name), *plain = wmt_join(dir, "plain.wok"), *based = wmt_join(dir, "based.wok");
    const char *to_mid[] = {"convert", wok, mid, "--quiet", NULL};
    assert_int_equal(run(to_mid), 0);
    const char *back[] = {"convert", mid, plain, "--quiet", NULL};
    assert_int_equal(run(back), 0);
    const char *with_base[] = {"convert", mid, based, "--base", wok, "--quiet", NULL};
    assert_int_equal(run(with_base), 0);
    bwm_file orig, p, b;
    read_bwm(wok, &orig);
    read_bwm(plain, &p);
    read_bwm(based, &b);
    assert_int_equal(p.face_count, orig.face_count);
    assert_int_equal(p.adjacency_count, orig.adjacency_count);
    assert_int_equal(count_transitions(&orig), 4);
    assert_int_equal(count_transitions(&p), 4);
    assert_int_equal(count_transitions(&b), 4);
    assert_memory_equal(b.position, orig.position, sizeof b.position);
    assert_links_on_same_edges(&orig, &p);
    assert_links_on_same_edges(&orig, &b);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    bwm_file_free(&ctx, &orig);
    bwm_file_free(&ctx, &p);
    bwm_file_free(&ctx, &b);
    free(wok);
    free(mid);
    free(plain);
    free(based);
    wmt_remove_tree(dir);
    free(dir);
}

static void test_wok_to_obj_to_wok_transitions(void **state)
{
    (void)state;
    interchange_round_trip("room.obj");
}

static void test_wok_to_gltf_to_wok_transitions(void **state)
{
    (void)state;
    interchange_round_trip("room.gltf");
}

static void test_placeable_hooks_from_options(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *obj = wmt_sample_path("ramp.obj");
    char *pwk = wmt_join(dir, "ramp.pwk"), *dwk = wmt_join(dir, "ramp0.dwk");
    const char *argv[] = {"convert", obj, pwk, "--hook1", "1,2,3", "--hook2", "-4,5.5,0", "--quiet", NULL};
    assert_int_equal(run(argv), 0);
    bwm_file f;
    read_bwm(pwk, &f);
    assert_int_equal(f.type, 0);
    assert_int_equal(f.aabb_count, 0);
    assert_int_equal(f.edge_count, 0);
    assert_true(f.rel_hook[0][0] == 1 && f.rel_hook[0][1] == 2 && f.rel_hook[0][2] == 3);
    assert_true(f.rel_hook[1][0] == -4 && f.rel_hook[1][1] == 5.5f && f.rel_hook[1][2] == 0);
    /* PWK -> DWK keeps the hooks of the source */
    const char *again[] = {"convert", pwk, dwk, "--quiet", NULL};
    assert_int_equal(run(again), 0);
    bwm_file g;
    read_bwm(dwk, &g);
    assert_memory_equal(g.rel_hook, f.rel_hook, sizeof f.rel_hook);
    const char *bad[] = {"convert", obj, pwk, "--hook1", "1,2", "--force", "--quiet", NULL};
    assert_int_not_equal(run(bad), 0);
    /* a hook must be finite: nan or a value past float range is a usage error */
    const char *not_finite[][2] = {{"--hook1", "nan,0,0"}, {"--hook2", "0,1e39,0"}};
    for (int i = 0; i < 2; i++) {
        const char *argv_nf[] = {"convert", obj, dwk, not_finite[i][0], not_finite[i][1], "--force", "--quiet", NULL};
        assert_int_equal(run(argv_nf), 1);
    }
    /* --base must be a readable BWM: a missing one is an input error (exit 2),
     * another format is refused (exit 4); neither is silently ignored */
    char *missing_base = wmt_join(dir, "missing.wok");
    const char *base_missing[] = {"convert", obj, dwk, "--base", missing_base, "--force", "--quiet", NULL};
    assert_int_equal(run(base_missing), 2);
    const char *base_not_bwm[] = {"convert", obj, dwk, "--base", obj, "--force", "--quiet", NULL};
    assert_int_equal(run(base_not_bwm), 4);
    free(missing_base);
    /* the text reader's --room-offset too */
    char *text = wmt_join(dir, "room.wok.ascii"), *text_out = wmt_join(dir, "room.obj");
    const char ascii[] = "node trimesh room\nverts 3\n0 0 0\n1 0 0\n0 1 0\nfaces 1\n0 1 2 1 0 0 0 4\nendnode\n";
    wmt_write_file(text, ascii, sizeof ascii - 1);
    const char *offset_nan[] = {"convert", text, text_out, "--room-offset", "nan,0,0", "--quiet", NULL};
    assert_int_equal(run(offset_nan), 1);
    free(text);
    free(text_out);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    bwm_file_free(&ctx, &f);
    bwm_file_free(&ctx, &g);
    free(obj);
    free(pwk);
    free(dwk);
    wmt_remove_tree(dir);
    free(dir);
}

static void test_info_and_validate_cli(void **state)
{
    (void)state;
    char *files[] = {wmt_corpus_path("bwm/pykotor-models-203tell.wok"), wmt_corpus_path("bwm/pykotor-root-out.wok")};
    wmt_require_all(files, 2);
    char *wok = files[0], *broken = files[1];
    bwm_file f;
    read_bwm(wok, &f);
    char *out = NULL, *err = NULL;
    const char *info[] = {"info", wok, NULL};
    assert_int_equal(wmt_run_cli(&out, &err, info), 0);
    /* median splits of 1209 faces: depth ceil(log2(1209)) + 1 = 12; the README lists 7 perimeters */
    assert_non_null(strstr(out, "aabb depth: 12"));
    assert_non_null(strstr(out, "perimeters: 7"));
    char expected[64];
    snprintf(expected, sizeof expected, "transitions: %u edges", count_transitions(&f));
    assert_non_null(strstr(out, expected));
    assert_non_null(strstr(out, "-> room "));
    free(out);
    free(err);
    const char *ok[] = {"validate", wok, NULL};
    assert_int_equal(wmt_run_cli(&out, &err, ok), 0);
    free(out);
    free(err);
    const char *bad[] = {"validate", broken, NULL};
    assert_int_equal(wmt_run_cli(&out, &err, bad), 5);
    assert_true(strstr(out ? out : "", "box inverted") || strstr(err ? err : "", "box inverted"));
    free(out);
    free(err);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    bwm_file_free(&ctx, &f);
    free(wok);
    free(broken);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wok_to_wok_is_byte_identical),
        cmocka_unit_test(test_rebuild_and_plane_style),
        cmocka_unit_test(test_obj_to_wok_to_obj_on_samples),
        cmocka_unit_test(test_wok_to_obj_to_wok_transitions),
        cmocka_unit_test(test_wok_to_gltf_to_wok_transitions),
        cmocka_unit_test(test_placeable_hooks_from_options),
        cmocka_unit_test(test_info_and_validate_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
