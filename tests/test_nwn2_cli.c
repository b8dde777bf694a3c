/* NWN2 through the command line, on midwood_caverns_level_2.trx: TRX -> OBJ keeps the
 * corpus README's 2,046 walkable triangles, OBJ -> TRX with --base validates, TRX -> TRX
 * is byte-identical, `info` finds the 127-walkable tile, a broken neighbour makes
 * `validate` exit 5 naming the triangle, and OBJ -> TRX without --base is refused.
 * A bake's progress written to a log (not a terminal) names each stage's steps as the
 * file's tile and island counts, in at most eleven lines a stage. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "nwn2/nwn2.h"

static void test_cli_round_trip(void **state)
{
    (void)state;
    char *trx = wmt_corpus_path_or_skip("nwn2/midwood_caverns_level_2.trx");
    char *dir = wmt_make_temp_dir();
    char *obj = wmt_join(dir, "m.obj");
    char *out = wmt_join(dir, "m.trx");
    char *same = wmt_join(dir, "same.trx");
    char *text = NULL;
    const char *to_obj[] = {"convert", trx, obj, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, to_obj), 0);
    const char *info_obj[] = {"info", obj, NULL};
    assert_int_equal(wmt_run_cli(&text, NULL, info_obj), 0);
    assert_non_null(strstr(text, "walkable: 2046")); /* README: walk 2046 */
    free(text);
    const char *to_trx[] = {"convert", obj, out, "--base", trx, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, to_trx), 0);
    const char *validate[] = {"validate", out, NULL};
    assert_int_equal(wmt_run_cli(&text, NULL, validate), 0);
    free(text);
    const char *copy[] = {"convert", trx, same, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, copy), 0);
    size_t a_size, b_size;
    uint8_t *a = wmt_read_file(trx, &a_size), *b = wmt_read_file(same, &b_size);
    assert_int_equal(a_size, b_size);
    assert_memory_equal(a, b, a_size);
    free(a);
    free(b);
    const char *info[] = {"info", trx, NULL};
    assert_int_equal(wmt_run_cli(&text, NULL, info), 0);
    assert_non_null(strstr(text, "max walkable per tile: 127"));
    free(text);
    /* a broken walkmesh: validate exits 5 (EXIT_INVALID) and names the triangle */
    {
        wm_ctx ctx;
        nwn2_file f;
        wmt_ctx_init(&ctx);
        assert_int_equal(nwn2_file_read(&ctx, trx, &f), WM_OK);
        f.aswm.triangles[10].neighbour[1] = 3; /* no longer the other side of its edge */
        char *bad = wmt_join(dir, "bad.trx");
        assert_int_equal(nwn2_file_write(&ctx, &f, bad, 0), WM_OK);
        nwn2_file_free(&ctx, &f);
        const char *check[] = {"validate", bad, NULL};
        char *err = NULL;
        assert_int_equal(wmt_run_cli(&text, &err, check), 5);
        assert_true(strstr(text, "triangle 10") != NULL || (err && strstr(err, "triangle 10") != NULL));
        free(text);
        free(err);
        free(bad);
    }
    /* no --base and no NWN2 source: refused, nothing written */
    char *nobase = wmt_join(dir, "nobase.trx");
    const char *refused[] = {"convert", obj, nobase, NULL};
    assert_true(wmt_run_cli(NULL, NULL, refused) != 0);
    FILE *fp = fopen(nobase, "rb");
    assert_null(fp);
    free(nobase);
    wmt_remove_tree(dir);
    free(obj);
    free(out);
    free(same);
    free(dir);
    free(trx);
}

static unsigned count_lines_with(const char *text, const char *label)
{
    unsigned n = 0;
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *end = strchr(line, '\n');
        const char *hit = strstr(line, label);
        n += hit && (!end || hit < end);
    }
    return n;
}

static void test_bake_progress_in_a_log(void **state)
{
    (void)state;
    char *trx = wmt_corpus_path_or_skip("nwn2/midwood_caverns_level_2.trx");
    wm_ctx ctx;
    nwn2_file f;
    wmt_ctx_init(&ctx);
    assert_int_equal(nwn2_file_read(&ctx, trx, &f), WM_OK);
    const unsigned tiles = f.aswm.grid_width * f.aswm.grid_height;
    nwn2_file_free(&ctx, &f);
    char *dir = wmt_make_temp_dir();
    char *out = wmt_join(dir, "baked.trx");
    const char *bake[] = {"bake", trx, "-o", out, "--threads", "1", NULL};
    char *text = NULL, *err = NULL;
    assert_int_equal(wmt_run_cli(&text, &err, bake), 0);
    assert_non_null(err);
    char last[64];
    snprintf(last, sizeof last, "[%u/%u] tile path tables", tiles, tiles);
    assert_non_null(strstr(err, last));
    assert_non_null(strstr(err, "[1/"));
    const unsigned tile_lines = count_lines_with(err, "tile path tables");
    const unsigned island_lines = count_lines_with(err, "island path table");
    print_message("%u tiles: %u progress lines; islands: %u lines\n", tiles, tile_lines, island_lines);
    assert_true(tile_lines >= 2 && tile_lines <= 11);
    assert_true(island_lines >= 1 && island_lines <= 11);
    free(text);
    free(err);
    wmt_remove_tree(dir);
    free(out);
    free(dir);
    free(trx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_round_trip),
        cmocka_unit_test(test_bake_progress_in_a_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
