/* --game DIR: a fake game folder built here (Override/, chitin.key + data/walkmesh.bif,
 * modules/NAME.mod and NAME.rim, by the tests' own writer) resolves bare names in the games' order:
 * override first, then the module (its .mod, else its .rim and _s.rim), then the key's BIFs.
 * --which names the winner; the bytes read are the winner's. */
#include "test_support.h"

#include "archive_test_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct game {
    char *dir;
    uint8_t *bytes[4]; /* four distinct corpus walkmeshes: 0 override, 1 key, 2 module, 3 rim */
    size_t sizes[4];
} game;

static void write_archive(const char *dir, const char *name, atw_kind kind, const atw_member *m, size_t count)
{
    size_t size;
    uint8_t *data = atw_build(kind, m, count, &size);
    char *path = wmt_join(dir, name);
    wmt_write_file(path, data, size);
    free(path);
    free(data);
}

static void make_game(game *g)
{
    static const char *const files[4] = {"bwm/k1cp-m10ac_30a.wok", "bwm/k1cp-m12aa_01f.wok", "bwm/k1cp-m22ab_09a.wok",
                                         "bwm/k1cp-m13aa_04a.wok"};
    char *paths[4];
    for (int i = 0; i < 4; i++)
        paths[i] = wmt_corpus_path(files[i]);
    wmt_require_all(paths, 4);
    for (int i = 0; i < 4; i++) {
        g->bytes[i] = wmt_read_file(paths[i], &g->sizes[i]);
        free(paths[i]);
    }
    g->dir = wmt_make_temp_dir();
    char *override = wmt_join(g->dir, "Override"), *modules = wmt_join(g->dir, "modules");
    assert_int_equal(mkdir(override, 0777), 0);
    assert_int_equal(mkdir(modules, 0777), 0);
    char *a = wmt_join(override, "A.wok"); /* another case than asked */
    wmt_write_file(a, g->bytes[0], g->sizes[0]);
    atw_member key[3] = {{.name = "a", .type = 2016}, {.name = "b", .type = 2016}, {.name = "c", .type = 2016}};
    for (int i = 0; i < 3; i++) {
        key[i].data = g->bytes[1];
        key[i].size = g->sizes[1];
    }
    free(atw_write(g->dir, ATW_KEY, key, 3));
    atw_member in_mod[1] = {{.name = "b", .type = 2016, .data = g->bytes[2], .size = g->sizes[2]}};
    write_archive(modules, "m01.MOD", ATW_ERF_V10, in_mod, 1);
    atw_member in_rim[1] = {{.name = "c", .type = 2016, .data = g->bytes[3], .size = g->sizes[3]}};
    write_archive(modules, "m02.rim", ATW_RIM, in_mod, 1);    /* the module's first RIM: b */
    write_archive(modules, "m02_s.rim", ATW_RIM, in_rim, 1);  /* its _s.rim: c */
    write_archive(modules, "m01_s.rim", ATW_RIM, in_rim, 1);  /* beside a .mod: never read */
    free(a);
    free(override);
    free(modules);
}

static void free_game(game *g)
{
    wmt_remove_tree(g->dir);
    free(g->dir);
    for (int i = 0; i < 4; i++)
        free(g->bytes[i]);
}

/* name resolves to a path ending in `where`, whose bytes are source's. */
static void assert_found(const game *g, const char *module, const char *name, const char *where, int source)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    char *path = NULL;
    if (wm_game_find(&ctx, g->dir, module, name, &path))
        fail_msg("%s: %s", name, ctx.message);
    size_t n = strlen(path), w = strlen(where);
    if (n < w || strcmp(path + n - w, where) != 0)
        fail_msg("%s found at %s, not %s", name, path, where);
    wm_input in;
    assert_int_equal(wm_input_load(&ctx, path, &in), WM_OK);
    assert_int_equal(in.size, g->sizes[source]);
    assert_memory_equal(in.data, g->bytes[source], in.size);
    wm_input_free(&ctx, &in);
    wm_free(&ctx, path);
}

static void test_game_order(void **state)
{
    (void)state;
    game g;
    make_game(&g);
    assert_found(&g, NULL, "a.wok", "/Override/A.wok", 0);        /* override before everything */
    assert_found(&g, "m01", "a.wok", "/Override/A.wok", 0);
    assert_found(&g, NULL, "b.wok", "/chitin.key/b.wok", 1);      /* no module: the key */
    assert_found(&g, "M01", "B.WOK", "/modules/m01.MOD/b.wok", 2); /* the module before the key */
    assert_found(&g, "m01", "c.wok", "/chitin.key/c.wok", 1);     /* a .mod hides the module's RIMs */
    assert_found(&g, "m02", "c.wok", "/modules/m02_s.rim/c.wok", 3);
    assert_found(&g, "m02", "b.wok", "/modules/m02.rim/b.wok", 2);
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    char *path = NULL;
    assert_int_equal(wm_game_find(&ctx, g.dir, NULL, "d.wok", &path), WM_ERR_IO);
    assert_non_null(strstr(ctx.message, "d.wok"));
    assert_int_equal(wm_game_find(&ctx, g.dir, NULL, "../x.wok", &path), WM_ERR_CORRUPT); /* names only */
    assert_int_equal(wm_game_find(&ctx, g.dir, "../m01", "b.wok", &path), WM_ERR_CORRUPT);
    free_game(&g);
}

static int count_of_lines_with(const char *text, const char *needle)
{
    int n = 0;
    for (const char *at = text; (at = strstr(at, needle)) != NULL; at += strlen(needle))
        n++;
    return n;
}

/* The CLI: --which prints each name and where it came from; the command reads the winner. */
static void test_cli_which(void **state)
{
    (void)state;
    game g;
    make_game(&g);
    char *out = NULL, *err = NULL;
    const char *info[] = {"info", "--game", g.dir, "--module", "m02", "a.wok", "b.wok", "c.wok", "--which", "--json", NULL};
    assert_int_equal(wmt_run_cli(&out, &err, info), 0);
    const char *expected[3][2] = {{"a.wok", "/Override/A.wok"}, {"b.wok", "/modules/m02.rim/b.wok"},
                                  {"c.wok", "/modules/m02_s.rim/c.wok"}};
    for (int i = 0; i < 3; i++) {
        char line[512];
        snprintf(line, sizeof line, "%s: %s%s\n", expected[i][0], g.dir, expected[i][1]);
        if (!strstr(err, line))
            fail_msg("no '%s' in: %s", line, err);
    }
    assert_int_equal(count_of_lines_with(out, "\"file\": "), 3);
    free(out);
    free(err);
    const char *missing[] = {"info", "--game", g.dir, "nothing.wok", NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, missing), 2);
    assert_non_null(strstr(err, "nothing.wok"));
    free(err);
    const char *without_game[] = {"info", "--which", "a.wok", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, without_game), 1);
    free_game(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_game_order),
        cmocka_unit_test(test_cli_which),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
