/* The guard for names that become paths (core/wm_names.h): every trick a layout room, an archive
 * member or a key's BIF name can play is refused; every name real files hold passes; lookups
 * agree with a direct search under the games' comparison (ASCII case folded, '/' = '\\'). */
#include "test_support.h"

#include "wm_names.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void refused(wm_name_rule rule, const char *name, size_t length)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    if (wm_name_check(&ctx, name, length, rule, "room 7") != WM_ERR_CORRUPT)
        fail_msg("accepted an unsafe name of %zu bytes: %.*s", length, (int)length, name);
    assert_non_null(strstr(wm_ctx_message(&ctx), "room 7"));
}

static void path_tricks_are_refused(void **state)
{
    (void)state;
    static const char *const both[] = {
        "..",       ".",          "../x",       "a/../../b", "..\\x",    "/etc/passwd", "\\x",      "C:x",
        "c:\\x",    "x:",         "a::$DATA",   "con",       "CON.wok",  "nul",         "com1",     "LPT9.txt",
        "aux.mdl",  "room.",      "room ",      "a//b",      "a/",       "a\\",         "x\r",      "x\n",
        "tab\there", "del\x7f",   "a|b",        "a?b",       "a*b",      "a<b",         "a>b",      "a\"b",
    };
    for (size_t i = 0; i < sizeof both / sizeof both[0]; i++) {
        refused(WM_NAME_COMPONENT, both[i], strlen(both[i]));
        refused(WM_NAME_RELATIVE, both[i], strlen(both[i]));
    }
    refused(WM_NAME_COMPONENT, "", 0);
    refused(WM_NAME_COMPONENT, "ab\0cd", 5); /* a NUL inside the counted name */
    refused(WM_NAME_COMPONENT, "World/wmo/x.wmo", 15);
    refused(WM_NAME_COMPONENT, "data\\models.bif", 15);
    char long_name[300];
    memset(long_name, 'a', sizeof long_name);
    refused(WM_NAME_COMPONENT, long_name, 256);
    refused(WM_NAME_RELATIVE, long_name, 256);
}

static void ordinary_names_pass(void **state)
{
    (void)state;
    static const char *const component[] = {"m10aa_01c", "M10AA_01C", "paz_holo", "a.b.c", "com10", "console",
                                             "nulls.wok", "Garden of Terror (72).StormReplay", "lpt", "x..y"};
    static const char *const relative[] = {"data\\models.bif", "World/wmo/Dungeons/X.wmo", "World\\wmo\\a_000.wmo"};
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    for (size_t i = 0; i < sizeof component / sizeof component[0]; i++)
        assert_int_equal(wm_name_check(&ctx, component[i], strlen(component[i]), WM_NAME_COMPONENT, "n"), WM_OK);
    for (size_t i = 0; i < sizeof relative / sizeof relative[0]; i++)
        assert_int_equal(wm_name_check(&ctx, relative[i], strlen(relative[i]), WM_NAME_RELATIVE, "n"), WM_OK);
    char long_name[256];
    memset(long_name, 'a', 255);
    assert_int_equal(wm_name_check(&ctx, long_name, 255, WM_NAME_COMPONENT, "n"), WM_OK);
}

/* Every file name in the real corpus is a name some tool or game wrote: the guard takes them all. */
static void every_corpus_file_name_passes(void **state)
{
    (void)state;
    char *root = wmt_corpus_path("README.md");
    if (!root) skip();
    *strrchr(root, '/') = '\0';
    static const char *const folders[] = {"archives", "bwm", "bwm-models", "nwn2", "nwn2-areas", "wmo",
                                          "assimp-models"};
    size_t checked = 0;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    for (size_t f = 0; f < sizeof folders / sizeof folders[0]; f++) {
        char *folder = wmt_join(root, folders[f]);
        DIR *dir = opendir(folder);
        free(folder);
        if (!dir) continue;
        for (struct dirent *e; (e = readdir(dir)) != NULL;) {
            if (e->d_name[0] == '.') continue;
            if (wm_name_check(&ctx, e->d_name, strlen(e->d_name), WM_NAME_COMPONENT, "corpus file") != WM_OK)
                fail_msg("%s", wm_ctx_message(&ctx));
            checked++;
        }
        closedir(dir);
    }
    free(root);
    assert_true(checked > 0);
    print_message("corpus file names accepted: %zu of %zu\n", checked, checked);
}

static void sanitised_names_are_safe_single_components(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    char *out;
    assert_int_equal(wm_name_sanitise(&ctx, "World\\wmo\\X.wmo", 15, "member", &out), WM_OK);
    assert_string_equal(out, "World_wmo_X.wmo");
    wm_free(&ctx, out);
    assert_int_equal(wm_name_sanitise(&ctx, "a:b\x01", 4, "member", &out), WM_OK);
    assert_string_equal(out, "a_b_");
    wm_free(&ctx, out);
    assert_int_equal(wm_name_sanitise(&ctx, "..", 2, "member", &out), WM_ERR_CORRUPT);
    assert_null(out);
    assert_int_equal(wm_name_sanitise(&ctx, "nul", 3, "member", &out), WM_ERR_CORRUPT);
    assert_int_equal(wm_name_sanitise(&ctx, "", 0, "member", &out), WM_ERR_CORRUPT);
}

static void joined_paths_have_no_length_limit(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    size_t n = 5000;
    char *folder = malloc(n + 1);
    memset(folder, 'd', n);
    folder[n] = '\0';
    char *path;
    assert_int_equal(wm_path_join(&ctx, folder, "room", "wok", &path), WM_OK);
    assert_int_equal(strlen(path), n + strlen("/room.wok"));
    assert_string_equal(path + n, "/room.wok");
    wm_free(&ctx, path);
    assert_int_equal(wm_path_join(&ctx, "out/", "room", NULL, &path), WM_OK);
    assert_string_equal(path, "out/room");
    wm_free(&ctx, path);
    assert_int_equal(wm_path_join(&ctx, "", "room", "wok", &path), WM_OK);
    assert_string_equal(path, "room.wok");
    wm_free(&ctx, path);
    free(folder);
}

typedef struct names {
    char (*text)[12];
} names;

static const char *name_at(const void *user, uint32_t item, size_t *out_length)
{
    const names *n = user;
    *out_length = strlen(n->text[item]);
    return n->text[item];
}

/* The index against a direct search with strcasecmp (the C library's own case folding, with
 * separators made one first): the same item for every name, and the first case-twin found. */
static void index_agrees_with_a_direct_search(void **state)
{
    (void)state;
    enum { count = 20000 };
    names n = {malloc(sizeof(*n.text) * count)};
    srand(7);
    for (uint32_t i = 0; i < count; i++) {
        int length = 1 + rand() % 4; /* short names over few letters: many case twins */
        for (int k = 0; k < length; k++) {
            static const char alphabet[] = "aAbB/\\_";
            n.text[i][k] = alphabet[rand() % 7];
        }
        n.text[i][length] = '\0';
    }
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_name_index index;
    uint32_t duplicate[2];
    assert_int_equal(wm_name_index_build(&ctx, &index, count, name_at, &n, duplicate), WM_OK);
    assert_true(duplicate[0] < duplicate[1]);
    for (uint32_t i = 0; i < count; i += 37) {
        char folded[12];
        size_t length = strlen(n.text[i]);
        for (size_t k = 0; k <= length; k++) folded[k] = n.text[i][k] == '\\' ? '/' : n.text[i][k];
        uint32_t first = UINT32_MAX;
        for (uint32_t j = 0; j < count && first == UINT32_MAX; j++) {
            char other[12];
            for (size_t k = 0; k <= strlen(n.text[j]); k++) other[k] = n.text[j][k] == '\\' ? '/' : n.text[j][k];
            if (strcasecmp(folded, other) == 0) first = j;
        }
        assert_int_equal(wm_name_index_find(&index, n.text[i], length), first);
    }
    assert_int_equal(wm_name_index_find(&index, "zzz", 3), UINT32_MAX);
    wm_name_index_free(&ctx, &index);
    free(n.text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(path_tricks_are_refused),
        cmocka_unit_test(ordinary_names_pass),
        cmocka_unit_test(every_corpus_file_name_passes),
        cmocka_unit_test(sanitised_names_are_safe_single_components),
        cmocka_unit_test(joined_paths_have_no_length_limit),
        cmocka_unit_test(index_agrees_with_a_direct_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
