/* The render meshes of room models (--geometry render): every corpus binary
 * model's drawn meshes against the test's own reading of the file, their
 * place against the room's walkmesh, the KOTORMax ASCII model against the
 * facts measured on it (FORMAT-NOTES 5), and the command line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "test_support.h"
#include "test_mdl_raw.h"
#include "bwm/bwm.h"
#include "mdl/mdl.h"

/* What the test reads itself: mesh nodes (0x20) that are not walkmesh (0x200)
 * or saber (0x800) nodes; drawn when the render byte (+313 of the mesh
 * header) is set and the texture (+88) is not NULL. */
static void expected_meshes(const raw_model *r, uint32_t *drawn, uint32_t *hidden, uint64_t *faces, uint64_t *vertices)
{
    *drawn = *hidden = 0;
    *faces = *vertices = 0;
    for (uint32_t i = 0; i < r->node_count; i++) {
        uint32_t n = r->nodes[i], type = raw_u16(r, n);
        if (!(type & 0x20) || (type & 0xA00)) continue;
        const char *texture = (const char *)r->m + n + 80 + 88;
        if (r->m[n + 80 + 313] == 0 || strncasecmp(texture, "NULL", 5) == 0) {
            (*hidden)++;
            continue;
        }
        (*drawn)++;
        *faces += raw_u32(r, n + 80 + 12);
        *vertices += raw_u16(r, n + 80 + 304);
    }
}

/* Where the reader should put each drawn mesh's first vertex, where every node
 * of its chain is unturned (w = 1): the stored vertex plus the chain's header
 * positions. Walks the tree in the reader's order, counting drawn vertices. */
typedef struct chain_check {
    const raw_model *r;
    const wm_mesh *mesh;
    uint32_t base, checked;
    double gap;
} chain_check;

static int drawn(const raw_model *r, uint32_t n)
{
    uint32_t type = raw_u16(r, n);
    return (type & 0x20) && !(type & 0xA00) && r->m[n + 80 + 313] &&
           strncasecmp((const char *)r->m + n + 80 + 88, "NULL", 5) != 0;
}

static void check_chain(chain_check *c, uint32_t n, const double at[3], int unturned)
{
    double here[3];
    for (int k = 0; k < 3; k++) here[k] = at[k] + raw_f32(c->r, n + 16 + 4 * (uint32_t)k);
    unturned &= fabs(raw_f32(c->r, n + 28) - 1.0f) < 1e-6f;
    if (drawn(c->r, n)) {
        uint32_t count = raw_u16(c->r, n + 80 + 304);
        if (unturned && count) {
            uint32_t stored = raw_u32(c->r, n + 80 + (c->r->kotor2 ? 340u : 332u) - 4);
            for (int k = 0; k < 3; k++)
                c->gap = fmax(c->gap, fabs(c->mesh->positions[3 * (size_t)c->base + k] -
                                           (raw_f32(c->r, stored + 4 * (uint32_t)k) + here[k])));
            c->checked++;
        }
        c->base += count;
    }
    for (uint32_t i = 0; i < raw_u32(c->r, n + 48); i++)
        check_chain(c, raw_u32(c->r, raw_u32(c->r, n + 44) + 4 * i), here, unturned);
}

/* The share of the walkmesh's xy box that the drawn geometry's xy box covers. */
static double covered(const double walk[4], const double drawn_box[4])
{
    double w = fmin(walk[2], drawn_box[2]) - fmax(walk[0], drawn_box[0]);
    double h = fmin(walk[3], drawn_box[3]) - fmax(walk[1], drawn_box[1]);
    return fmax(0, w) * fmax(0, h) / ((walk[2] - walk[0]) * (walk[3] - walk[1]));
}

static void xy_box(const wm_mesh *m, double box[4])
{
    float mn[3], mx[3];
    wm_mesh_bounds(m, mn, mx);
    box[0] = mn[0], box[1] = mn[1], box[2] = mx[0], box[3] = mx[1];
}

static void test_binary_render_meshes(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".mdl", NULL};
    char **models;
    size_t count = wmt_corpus_list("bwm-models", suffixes, &models);
    uint32_t total = 0, with_walkmesh = 0, checked = 0;
    for (size_t i = 0; i < count; i++) {
        size_t size;
        uint8_t *data = wmt_read_file(models[i], &size);
        raw_model raw;
        raw_open(&raw, data);
        uint32_t drawn, hidden;
        uint64_t faces, vertices;
        expected_meshes(&raw, &drawn, &hidden, &faces, &vertices);
        wm_ctx ctx;
        wm_mesh mesh;
        mdl_walkmesh info;
        wmt_ctx_init(&ctx);
        wm_mesh_init(&mesh);
        mdl_render render = {&mesh, 0, 0};
        if (mdl_parse_render(&ctx, data, size, models[i], &render, &info)) fail_msg("%s", wm_ctx_message(&ctx));
        print_message("%s: %u meshes drawn (%u objects), %u left out, %u triangles, %u vertices\n", raw.name,
                      render.meshes, mesh.object_count, render.hidden, mesh.triangle_count, mesh.vertex_count);
        assert_int_equal(render.meshes, drawn);
        assert_int_equal(render.hidden, hidden);
        assert_int_equal(mesh.triangle_count, faces);
        assert_int_equal(mesh.vertex_count, vertices);
        total += render.meshes;
        chain_check chain = {&raw, &mesh, 0, 0, 0};
        static const double origin[3] = {0, 0, 0};
        check_chain(&chain, raw.nodes[0], origin, 1);
        print_message("  first vertices placed by hand: %u meshes, largest gap %.3g\n", chain.checked, chain.gap);
        assert_int_equal(chain.base, mesh.vertex_count);
        assert_true(chain.gap < 1e-4);
        checked += chain.checked;
        if (raw.walkmesh) { /* the drawn room covers (nearly all of) its walkmesh's box */
            wm_mesh walk;
            mdl_walkmesh w;
            double a[4], b[4];
            if (mdl_parse_walkmesh(&ctx, data, size, models[i], &w) || mdl_walkmesh_to_mesh(&ctx, &w, NULL, &walk))
                fail_msg("%s", wm_ctx_message(&ctx));
            xy_box(&walk, a);
            xy_box(&mesh, b);
            print_message("  walkmesh x %.2f..%.2f y %.2f..%.2f, drawn x %.2f..%.2f y %.2f..%.2f: %.1f%% covered\n", a[0],
                          a[2], a[1], a[3], b[0], b[2], b[1], b[3], 100 * covered(a, b));
            assert_true(covered(a, b) > 0.9);
            with_walkmesh++;
            wm_mesh_free(&ctx, &walk);
            mdl_walkmesh_free(&ctx, &w);
        }
        wm_mesh_free(&ctx, &mesh);
        mdl_walkmesh_free(&ctx, &info);
        free(data);
    }
    print_message("%zu models, %u drawn meshes (%u first vertices placed by hand); %u rooms' drawn geometry covers "
                  "their walkmesh's box\n", count, total, checked, with_walkmesh);
    wmt_free_list(models, count);
}

/* FORMAT-NOTES 5: the KOTORMax model of m13aa_04a has 55 trimesh nodes, one
 * textured NULL (an invisible plane larger than the room); the rest, placed
 * through their parents, span the walkmesh node's bounds within 0.8 m in x and y. */
static void test_ascii_render_meshes(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip("bwm/k1cp-m13aa_04a-kotormax.mdl.ascii");
    size_t size;
    char *text = (char *)wmt_read_file(path, &size);
    wm_ctx ctx;
    wm_mesh render, walk;
    uint32_t meshes, hidden;
    wmt_ctx_init(&ctx);
    wm_mesh_init(&render);
    wm_mesh_init(&walk);
    if (bwm_ascii_render(&ctx, text, size, path, &render, &meshes, &hidden) ||
        bwm_ascii_parse(&ctx, text, size, path, NULL, &walk))
        fail_msg("%s", wm_ctx_message(&ctx));
    double a[4], b[4];
    xy_box(&walk, a);
    xy_box(&render, b);
    print_message("%u meshes drawn, %u left out; walkmesh x %.2f..%.2f y %.2f..%.2f, drawn x %.2f..%.2f y %.2f..%.2f\n",
                  meshes, hidden, a[0], a[2], a[1], a[3], b[0], b[2], b[1], b[3]);
    assert_int_equal(meshes + hidden, 55);
    assert_int_equal(hidden, 1);
    assert_int_equal(render.object_count, 54);
    for (int k = 0; k < 4; k++) assert_true(fabs(a[k] - b[k]) <= 0.8);
    wm_mesh_free(&ctx, &render);
    wm_mesh_free(&ctx, &walk);
    free(text);
    free(path);
}

static unsigned count_lines_starting(const char *text, const char *head)
{
    unsigned n = 0;
    size_t len = strlen(head);
    for (const char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        n += strncmp(line, head, len) == 0;
    return n;
}

/* `convert room.mdl room.obj --geometry render`: an OBJ object per drawn mesh,
 * the left-out meshes and the room's own space said once each; placed by
 * --layout without that warning; --geometry takes walkmesh or render only. */
static void test_cli_render_geometry(void **state)
{
    (void)state;
    char *ascii = wmt_corpus_path_or_skip("bwm/k1cp-m13aa_04a-kotormax.mdl.ascii");
    char *binary = wmt_corpus_path_or_skip("bwm-models/kotor-kotornet-m14aa_01c.mdl");
    char *dir = wmt_make_temp_dir(), *obj = wmt_join(dir, "room.obj"), *lyt = wmt_join(dir, "area.lyt");
    static const char layout[] = "beginlayout\nroomcount 1\n  m13aa_04a 95.25 48.75 5.0\ndonelayout\n";
    wmt_write_file(lyt, layout, sizeof layout - 1);
    const char *placed[] = {"convert", ascii, obj, "--geometry", "render", "--layout", lyt, "--force", NULL};
    const char *unplaced[] = {"convert", binary, obj, "--geometry", "render", "--force", NULL};
    const char *bad[] = {"convert", binary, obj, "--geometry", "floor", "--force", NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, placed), 0);
    assert_non_null(strstr(err, "1 of 55 meshes left out"));
    assert_null(strstr(err, "own space"));
    free(err);
    size_t size;
    char *text = (char *)wmt_read_file(obj, &size);
    text = realloc(text, size + 1);
    text[size] = 0;
    print_message("OBJ: %u objects\n", count_lines_starting(text, "o "));
    assert_int_equal(count_lines_starting(text, "o "), 54);
    free(text);
    assert_int_equal(wmt_run_cli(NULL, &err, unplaced), 0);
    assert_non_null(strstr(err, "own space"));
    free(err);
    assert_int_equal(wmt_run_cli(NULL, &err, bad), 1);
    assert_non_null(strstr(err, "--geometry"));
    free(err);
    free(lyt);
    free(obj);
    wmt_remove_tree(dir);
    free(dir);
    free(ascii);
    free(binary);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary_render_meshes),
        cmocka_unit_test(test_ascii_render_meshes),
        cmocka_unit_test(test_cli_render_geometry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
