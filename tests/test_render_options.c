/* `walkmesh render` options and bad input: --select by tile range, surface and WMO group,
 * --floors, --roofs, --liquids, --git cutters, refusals; a truncated file is a clean error,
 * non-finite coordinates and tables pointing nowhere still draw valid SVG in every view.
 * Expected counts come from the files' bytes and the format notes. */
#define _GNU_SOURCE
#include "test_support.h"
#include "svg_inspect.h"
#include "test_wmo_raw.h"
#include "nwn2/bake.h"
#include "nwn2/nwn2.h"
#include "nwn2/wm_nwn2_route.h"
#include "wm_picture.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const views[] = {"top", "front", "side", "iso"};

static char *render_ok(const char *dir, const char *const *extra)
{
    char *out = wmt_join(dir, "opt.svg");
    const char *args[16] = {"render"};
    int n = 1;
    for (; extra[n - 1]; n++)
        args[n] = extra[n - 1];
    args[n++] = "-o";
    args[n++] = out;
    args[n++] = "--force";
    args[n] = NULL;
    char *err = NULL;
    int code = wmt_run_cli(NULL, &err, args);
    if (code != 0)
        fail_msg("render failed (%d): %s", code, err);
    free(err);
    char *svg = svgt_load(out);
    free(out);
    return svg;
}

/* A WMO's roofs over floors are cut away (outlined) from above, so the
 * interior's plan shows; every floor is still drawn, as floor or outline.
 * The lumber mill has a roof over its floor; --roofs fills them again. */
static void wmo_roofs_cut_away(void **state)
{
    (void)state;
    char *wmo = wmt_corpus_path_or_skip("wmo/warcraftnet__duskwood_lumbermill.wmo");
    char *dir = wmt_make_temp_dir();
    const char *cut[] = {wmo, NULL}, *roofs[] = {wmo, "--roofs", NULL}, *front[] = {wmo, "--view", "front", NULL};
    char *a = render_ok(dir, cut), *b = render_ok(dir, roofs), *c = render_ok(dir, front);
    uint32_t outlined = svgt_class_faces(a, "rf");
    assert_true(outlined > 0);
    assert_non_null(strstr(a, ">roof over a floor, cut away ("));
    assert_int_equal(svgt_class_faces(a, "gf0") + outlined, svgt_class_faces(b, "gf0"));
    assert_int_equal(svgt_class_faces(b, "rf"), 0);
    assert_int_equal(svgt_class_faces(c, "rf"), 0); /* from the side nothing hides the floors */
    print_message("lumber mill: %u of %u floor triangles are roofs, cut away from above\n", outlined,
                  svgt_class_faces(b, "gf0"));
    free(a);
    free(b);
    free(c);
    wmt_remove_tree(dir);
    free(dir);
    free(wmo);
}

static void options(void **state)
{
    (void)state;
    char *trx = wmt_corpus_path_or_skip("nwn2/condemned_caves.trx");
    char *wok = wmt_corpus_path_or_skip("bwm/k1cp-m10ac_30a.wok");
    char *wmo = wmt_corpus_path_or_skip("wmo/warcraftnet__duskwood_lumbermill.wmo");
    char *trn = wmt_corpus_path_or_skip("nwn2/CSLMordMansion.TRN");
    char *git = wmt_corpus_path_or_skip("nwn2/CSLMordMansion.GIT");
    char *dir = wmt_make_temp_dir();

    /* an NWN2 tile range: exactly those tile numbers */
    const char *tiles[] = {trx, "--select", "100-123", NULL};
    char *svg = render_ok(dir, tiles);
    char *labels = svgt_texts_in_group(svg, "tn");
    char expected[512] = "";
    for (int t = 100; t <= 123; t++)
        snprintf(expected + strlen(expected), sizeof expected - strlen(expected), "%d\n", t);
    assert_string_equal(labels, expected);
    free(labels);
    free(svg);

    /* a KotOR surface: only metal faces (39 in the file, `walkmesh info`), no blocking ones */
    const char *metal[] = {wok, "--select", "metal", NULL};
    svg = render_ok(dir, metal);
    assert_non_null(strstr(svg, "metal (39)"));
    assert_null(strstr(svg, "blocking"));
    free(svg);

    /* WMO floors: no wall faces; walls without it */
    const char *all[] = {wmo, NULL}, *floors[] = {wmo, "--floors", NULL};
    svg = render_ok(dir, all);
    assert_non_null(strstr(svg, "<path class=\"gw0\""));
    free(svg);
    svg = render_ok(dir, floors);
    assert_null(strstr(svg, "<path class=\"gw0\""));
    assert_non_null(strstr(svg, "<path class=\"gf0\""));
    free(svg);

    /* cutters of a GIT: one outline per walkmesh cutter the GIT holds */
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_cutter_set set;
    assert_int_equal(nwn2_bake_read_git(&ctx, git, &set), WM_OK);
    const char *cut[] = {trn, "--git", git, NULL};
    svg = render_ok(dir, cut);
    assert_int_equal(svgt_count_in_group(svg, "ct", "path"), set.count);
    print_message("CSLMordMansion.GIT: %u walkmesh cutters drawn\n", set.count);
    nwn2_cutter_set_free(&ctx, &set);
    free(svg);

    /* refusals: an option for another format, a bad view, an existing output */
    char *out = wmt_join(dir, "x.svg");
    const char *wrong[] = {"render", wok, "-o", out, "--git", "area.git", NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, wrong), 1);
    assert_non_null(strstr(err, "--git applies to nwn2 files only"));
    free(err);
    const char *view[] = {"render", wok, "-o", out, "--view", "below", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, view), 1);
    assert_false(wm_file_exists(out));
    const char *first[] = {"render", wok, "-o", out, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, first), 0);
    assert_int_equal(wmt_run_cli(NULL, NULL, first), 3);
    const char *help[] = {"render", "--help", NULL};
    char *text = NULL;
    assert_int_equal(wmt_run_cli(&text, NULL, help), 0);
    assert_non_null(strstr(text, "--view"));
    free(text);
    free(out);
    wmt_remove_tree(dir);
    free(dir);
    free(trx);
    free(wok);
    free(wmo);
    free(trn);
    free(git);
}

/* Draws INPUT in every view (with the --path ROUTE when given and a walkable
 * triangle lies under both points) and checks every picture is valid SVG. */
static void render_every_view_valid(wm_ctx *ctx, const char *dir, const char *input, const char *route)
{
    char *paths[4];
    for (int v = 0; v < 4; v++) {
        char name[16];
        snprintf(name, sizeof name, "%d.svg", v);
        paths[v] = wmt_join(dir, name);
        wm_options opts;
        wm_options_init(&opts);
        wm_option_set(ctx, &opts, "view", views[v]);
        if (route)
            wm_option_set(ctx, &opts, "path", route);
        wm_result r = wm_render_file(ctx, input, NULL, paths[v], &opts, 1);
        if (route && r == WM_ERR_OPTION) { /* no walkable triangle under a point: draw without the route */
            wm_options_init(&opts);
            wm_option_set(ctx, &opts, "view", views[v]);
            r = wm_render_file(ctx, input, NULL, paths[v], &opts, 1);
        }
        assert_int_equal(r, WM_OK);
    }
    assert_int_equal(svgt_validate((const char *const *)paths, 4), 0);
    for (int v = 0; v < 4; v++)
        free(paths[v]);
}

/* Corrupt input: a truncated file is a clean error and leaves no picture;
 * infinite and NaN coordinates still give a valid picture, quickly. */
static void corrupt_files(void **state)
{
    (void)state;
    svgt_need_validator();
    char *wok = wmt_corpus_path_or_skip("bwm/k1cp-m10ac_30a.wok");
    char *dir = wmt_make_temp_dir();
    size_t size;
    uint8_t *data = wmt_read_file(wok, &size);
    char *cut = wmt_join(dir, "cut.wok"), *odd = wmt_join(dir, "odd.wok"), *out = wmt_join(dir, "out.svg");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    for (size_t length = 0; length < size; length += size / 16 + 1) {
        wmt_write_file(cut, data, length);
        assert_int_not_equal(wm_render_file(&ctx, cut, NULL, out, NULL, 1), WM_OK);
        assert_false(wm_file_exists(out));
    }
    uint32_t vertices = raw_u32(data + 0x4C);
    const uint8_t inf[4] = {0x00, 0x00, 0x80, 0x7f}, nan[4] = {0x00, 0x00, 0xc0, 0x7f};
    memcpy(data + vertices, inf, 4);     /* vertex 0 x */
    memcpy(data + vertices + 16, nan, 4); /* vertex 1 y */
    wmt_write_file(odd, data, size);
    render_every_view_valid(&ctx, dir, odd, NULL);
    free(data);
    free(cut);
    free(odd);
    free(out);
    wmt_remove_tree(dir);
    free(dir);
    free(wok);
}

/* A TRX whose tables point nowhere (tile ranges past the triangles, vertex,
 * island and adjacency indices out of range) still draws, in every view. */
static void corrupt_nwn2(void **state)
{
    (void)state;
    svgt_need_validator();
    char *trx = wmt_corpus_path_or_skip("nwn2/castle_krag_tower.trx");
    char *dir = wmt_make_temp_dir();
    char *odd = wmt_join(dir, "odd.trx");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_file file;
    assert_int_equal(nwn2_file_read(&ctx, trx, &file), WM_OK);
    nwn2_aswm *a = &file.aswm;
    a->tiles[0].triangle_count = UINT32_MAX;
    a->tiles[1].triangle_offset = UINT32_MAX - 5;
    a->triangles[0].v[0] = 0xFFFFFFF0u;
    a->triangles[1].island = 60000;
    a->triangles[2].neighbour[0] = 0xFFFFFF00u;
    for (uint32_t i = 0; i < a->island_count; i++)
        if (a->islands[i].adjacent_count) {
            a->islands[i].adjacent[0] = 99999;
            a->islands[i].exit[0] = 0xFFFFFFF0u;
        }
    assert_int_equal(nwn2_file_write(&ctx, &file, odd, 1), WM_OK);
    nwn2_file_free(&ctx, &file);
    render_every_view_valid(&ctx, dir, odd, "3,3 60,60");
    free(odd);
    wmt_remove_tree(dir);
    free(dir);
    free(trx);
}

/* --select on a WMO root: that group only. */
static void wmo_group_selection(void **state)
{
    (void)state;
    char *root = wmt_corpus_path_or_skip("wmo/warcraftnet__prisonHQ_Redridge.wmo");
    char *dir = wmt_make_temp_dir();
    const char *one[] = {root, "--select", "1", NULL};
    char *svg = render_ok(dir, one);
    assert_int_equal(svgt_legend_group(svg, 0), -1);
    assert_int_equal(svgt_legend_group(svg, 2), -1);
    size_t n = strlen(root);
    char *group_path = malloc(n + 8);
    snprintf(group_path, n + 8, "%.*s_001.wmo", (int)(n - 4), root);
    assert_int_equal(svgt_legend_group(svg, 1), raw_group_collision_file(group_path));
    assert_null(strstr(svg, "class=\"gf0\""));
    free(group_path);
    free(svg);
    const char *none[] = {"render", root, "-o", "unused.svg", "--select", "7", NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, none), 1);
    assert_non_null(strstr(err, "--select 7"));
    free(err);
    wmt_remove_tree(dir);
    free(dir);
    free(root);
}

/* --liquids: a real group given a 2 x 2 tile MLIQ (FORMAT-NOTES section 3),
 * one tile dry (low nibble 0x0F): 3 wet tiles, 2 triangles each. */
static void wmo_liquids(void **state)
{
    (void)state;
    char *source = wmt_corpus_path_or_skip("wmo/blizzardry__trolltent_000.wmo");
    size_t size, off;
    uint32_t mogp_size;
    uint8_t *data = wmt_read_file(source, &size);
    assert_true(raw_find(data, 0, size, "MOGP", &off, &mogp_size));
    uint8_t mliq[8 + 30 + 9 * 8 + 4];
    memset(mliq, 0, sizeof mliq);
    memcpy(mliq, "QILM", 4);
    const uint32_t header[4] = {3, 3, 2, 2}; /* x/y vertices, x/y tiles */
    const float corner[3] = {0.0f, 0.0f, 10.0f}, height = 10.0f;
    uint32_t payload = sizeof mliq - 8;
    memcpy(mliq + 4, &payload, 4);
    memcpy(mliq + 8, header, sizeof header);
    memcpy(mliq + 24, corner, sizeof corner);
    for (int v = 0; v < 9; v++)
        memcpy(mliq + 38 + 8 * v + 4, &height, 4);
    const uint8_t tiles[4] = {0x00, 0x0F, 0x05, 0x01};
    memcpy(mliq + 38 + 72, tiles, 4);
    size_t end = off + mogp_size, patched_size = size + sizeof mliq;
    uint8_t *patched = malloc(patched_size);
    memcpy(patched, data, end);
    memcpy(patched + end, mliq, sizeof mliq);
    memcpy(patched + end + sizeof mliq, data + end, size - end);
    uint32_t grown = mogp_size + (uint32_t)sizeof mliq, flags = raw_u32(patched + off + 8) | 0x1000u;
    memcpy(patched + off - 4, &grown, 4);
    memcpy(patched + off + 8, &flags, 4);
    char *dir = wmt_make_temp_dir();
    char *pool = wmt_join(dir, "pool_000.wmo");
    wmt_write_file(pool, patched, patched_size);
    const char *wet[] = {pool, "--liquids", NULL}, *dry[] = {pool, NULL};
    char *svg = render_ok(dir, wet);
    assert_non_null(strstr(svg, ">liquid, MLIQ (6)<"));
    assert_int_equal(svgt_class_faces(svg, "lq"), 6);
    free(svg);
    svg = render_ok(dir, dry);
    assert_null(strstr(svg, "MLIQ"));
    assert_int_equal(svgt_class_faces(svg, "lq"), 0);
    free(svg);
    free(pool);
    wmt_remove_tree(dir);
    free(dir);
    free(patched);
    free(data);
    free(source);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(options),
        cmocka_unit_test(corrupt_files),
        cmocka_unit_test(corrupt_nwn2),
        cmocka_unit_test(wmo_group_selection),
        cmocka_unit_test(wmo_liquids),
        cmocka_unit_test(wmo_roofs_cut_away),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
