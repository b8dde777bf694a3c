#define _GNU_SOURCE
/* MPQ archives through StormLib: MPQs written by Debian's smpq (StormLib's own tool, an
 * independent writer) from every corpus WMO, named as WoW names them ("World\wmo\..."), read
 * back byte-identical by member path with '/' or '\' in any case; a WMO root's groups come from
 * the same archive; the corpus MPQ (a replay: user-data header first) lists; every cut of a
 * valid MPQ is refused or read, never a crash; and StormLib is loaded only when an MPQ is read. */
#include "test_support.h"

#include "game_find_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *smpq_or_skip(void)
{
    char *smpq = wmt_find_program("smpq");
    if (!smpq)
        skip();
    return smpq;
}

static const char *const wmo_suffix[] = {".wmo", NULL};

/* An MPQ of every corpus WMO under World/wmo/Dungeons, written by smpq in the given version. */
static char *build_wmo_mpq(const char *dir, int version, char ***out_files, size_t *out_count)
{
    *out_count = wmt_corpus_list("wmo", wmo_suffix, out_files);
    if (!*out_count)
        skip();
    char command[8192];
    snprintf(command, sizeof command, "mkdir -p '%s/src/World/wmo/Dungeons'", dir);
    assert_int_equal(system(command), 0);
    for (size_t i = 0; i < *out_count; i++) {
        snprintf(command, sizeof command, "cp '%s' '%s/src/World/wmo/Dungeons/'", (*out_files)[i], dir);
        assert_int_equal(system(command), 0);
    }
    char name[32];
    snprintf(name, sizeof name, "patch-%d.MPQ", version);
    char *mpq = wmt_join(dir, name);
    snprintf(command, sizeof command, "cd '%s/src' && smpq -q -c -M %d '%s' World/wmo/Dungeons/*.wmo", dir, version,
             mpq);
    assert_int_equal(system(command), 0);
    return mpq;
}

/* Skips, before anything is allocated, when the corpus has no WMO folder to build MPQs of. */
static void wmo_corpus_or_skip(void)
{
    static const char *const wmo[] = {".wmo", NULL};
    char **list = NULL;
    size_t count = wmt_corpus_list("wmo", wmo, &list);
    wmt_free_list(list, count);
}

/* A fresh folder holding an smpq-built MPQ of every corpus WMO (skips without smpq or WMOs). */
typedef struct wmo_mpq {
    char *dir, *path;
    char **files;
    size_t count;
} wmo_mpq;

static wmo_mpq wmo_mpq_make(int version)
{
    free(smpq_or_skip());
    wmo_corpus_or_skip();
    wmo_mpq m = {0};
    m.dir = wmt_make_temp_dir();
    m.path = build_wmo_mpq(m.dir, version, &m.files, &m.count);
    return m;
}

static void wmo_mpq_free(wmo_mpq *m)
{
    wmt_remove_tree(m->dir);
    wmt_free_list(m->files, m->count);
    free(m->dir), free(m->path);
}

static void smpq_archives_read_back_byte_identical(void **state)
{
    (void)state;
    for (int version = 1; version <= 4; version++) {
        wmo_mpq made = wmo_mpq_make(version);
        char *mpq = made.path, **files = made.files;
        size_t count = made.count;
        wm_ctx ctx;
        wm_ctx_init(&ctx);
        wm_archive *archive = NULL;
        assert_int_equal(wm_archive_open(&ctx, mpq, &archive), WM_OK);
        assert_string_equal(wm_archive_kind(archive)->name, "mpq");
        assert_int_equal(wm_archive_member_count(archive), count);
        wm_archive_close(&ctx, archive);
        for (size_t i = 0; i < count; i++) {
            char member[1024];
            snprintf(member, sizeof member, "%s/%s%s", mpq, i % 2 ? "world/WMO/dungeons/" : "WORLD\\wmo\\Dungeons\\",
                     wm_path_file_name(files[i]));
            size_t size = 0;
            uint8_t *expected = wmt_read_file(files[i], &size);
            wm_input in;
            if (wm_input_load(&ctx, member, &in) != WM_OK)
                fail_msg("%s: %s", member, ctx.message);
            assert_int_equal(in.size, size);
            assert_memory_equal(in.data, expected, size);
            wm_input_free(&ctx, &in);
            free(expected);
        }
        print_message("MPQ v%d from smpq: %zu corpus WMO files read back byte-identical\n", version, count);
        wmo_mpq_free(&made);
    }
}

/* "render patch.MPQ/World/wmo/.../X.wmo": the root's groups are members of the same archive. */
static void wmo_root_renders_with_its_groups_from_the_archive(void **state)
{
    (void)state;
    wmo_mpq made = wmo_mpq_make(2);
    char *dir = made.dir, *mpq = made.path;
    char *root = wmt_join(mpq, "World/wmo/Dungeons/warcraftnet__duskwood_lumbermill.wmo");
    char *svg = wmt_join(dir, "x.svg"), *loose_svg = wmt_join(dir, "loose.svg");
    char *loose = wmt_corpus_path_or_skip("wmo/warcraftnet__duskwood_lumbermill.wmo");
    const char *from_mpq[] = {"render", root, "-o", svg, NULL};
    const char *from_disk[] = {"render", loose, "-o", loose_svg, NULL};
    char *err = NULL;
    if (wmt_run_cli(NULL, &err, from_mpq) != 0)
        fail_msg("%s", err);
    free(err);
    assert_int_equal(wmt_run_cli(NULL, NULL, from_disk), 0);
    size_t a = 0, b = 0;
    uint8_t *in_mpq = wmt_read_file(svg, &a), *beside = wmt_read_file(loose_svg, &b);
    in_mpq = realloc(in_mpq, a + 1), beside = realloc(beside, b + 1);
    in_mpq[a] = beside[b] = 0;
    /* the same groups drawn, wherever they were read from: only the title's name differs */
    const char *prefix = "World\\wmo\\Dungeons\\";
    size_t titles = 2;
    assert_int_equal(a, b + titles * strlen(prefix));
    const char *draw_mpq = strstr((char *)in_mpq, "<path"), *draw_disk = strstr((char *)beside, "<path");
    assert_non_null(draw_mpq);
    assert_non_null(draw_disk);
    assert_int_equal(draw_mpq - (char *)in_mpq, draw_disk - (char *)beside + (ptrdiff_t)strlen(prefix));
    const char *text_mpq = strstr(draw_mpq, "<text"), *text_disk = strstr(draw_disk, "<text");
    assert_non_null(text_mpq);
    assert_int_equal(text_mpq - draw_mpq, text_disk - draw_disk);
    assert_memory_equal(draw_mpq, draw_disk, (size_t)(text_mpq - draw_mpq)); /* every triangle drawn alike */
    wmo_mpq_free(&made);
    free(root), free(svg), free(loose_svg), free(loose), free(in_mpq), free(beside);
}

/* The corpus MPQ (a Heroes replay, user-data header before the MPQ header) lists, and each
 * member smpq lists reads. */
static void corpus_replay_lists_and_reads(void **state)
{
    (void)state;
    char *replay = wmt_corpus_path_or_skip("archives/mpq-aarondl-GardenOfTerror72.StormReplay");
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_archive *archive = NULL;
    assert_int_equal(wm_archive_open(&ctx, replay, &archive), WM_OK);
    uint32_t count = wm_archive_member_count(archive);
    assert_true(count >= 10);
    uint32_t found = wm_archive_find(archive, "replay.details", 14);
    assert_int_not_equal(found, UINT32_MAX);
    wm_input in;
    assert_int_equal(wm_archive_member_input(&ctx, archive, found, &in), WM_OK);
    assert_int_equal(in.size, 1217); /* smpq -l lists replay.details at 1217 bytes */
    wm_input_free(&ctx, &in);
    for (uint32_t i = 0; i < count; i++) {
        if (wm_archive_member_input(&ctx, archive, i, &in) != WM_OK)
            fail_msg("member %u: %s", i, ctx.message);
        wm_input_free(&ctx, &in);
    }
    print_message("the corpus replay lists %u members, each read\n", count);
    wm_archive_close(&ctx, archive);
    free(replay);
}

/* Every cut of an MPQ (at 64 points and every byte of its first 600): refused naming the
 * archive, or read; never a crash or a hang (the tables' bounds are StormLib's). */
static void cut_archives_are_refused_cleanly(void **state)
{
    (void)state;
    wmo_mpq made = wmo_mpq_make(1);
    char *dir = made.dir, *mpq = made.path;
    size_t size = 0;
    uint8_t *bytes = wmt_read_file(mpq, &size);
    char *cut = wmt_join(dir, "cut.mpq");
    size_t refused = 0, tried = 0;
    for (size_t n = 0; n < size; n += n < 600 ? 1 : size / 64) {
        wmt_write_file(cut, bytes, n);
        wm_ctx ctx;
        wm_ctx_init(&ctx);
        wm_archive *archive = NULL;
        tried++;
        if (wm_archive_open(&ctx, cut, &archive) != WM_OK) {
            assert_non_null(strstr(ctx.message, "cut.mpq"));
            refused++;
            continue;
        }
        for (uint32_t i = 0; i < wm_archive_member_count(archive); i++) {
            wm_input in;
            if (wm_archive_member_input(&ctx, archive, i, &in) == WM_OK)
                wm_input_free(&ctx, &in);
            else
                assert_non_null(strstr(ctx.message, "cut.mpq"));
        }
        wm_archive_close(&ctx, archive);
    }
    print_message("%zu of %zu cuts refused at open; the rest read or refused member by member\n", refused, tried);
    assert_true(refused > 0);
    wmo_mpq_free(&made);
    free(bytes), free(cut);
}

/* smpq extracts the member into dir/x and the bytes are compared with the expected file's. */
static void assert_smpq_extracts(const char *dir, const char *mpq, const char *member, const char *expected_path)
{
    char command[4096];
    snprintf(command, sizeof command, "rm -rf '%s/x' && mkdir '%s/x' && cd '%s/x' && smpq -q -x '%s' '%s'", dir, dir,
             dir, mpq, member);
    assert_int_equal(system(command), 0);
    char extracted[2048];
    snprintf(extracted, sizeof extracted, "%s/x/%s", dir, member);
    for (char *c = extracted + strlen(dir) + 3; *c; c++)
        if (*c == '\\')
            *c = '/';
    size_t a = 0, b = 0;
    uint8_t *got = wmt_read_file(extracted, &a), *want = wmt_read_file(expected_path, &b);
    assert_int_equal(a, b);
    assert_memory_equal(got, want, a);
    free(got), free(want);
}

/* walkmesh writes a member into an smpq-built MPQ (added, then replaced with --force); smpq
 * reads the result: every untouched member byte-identical, the new one equal to the same
 * conversion written loose. Without --force an existing member is refused, the archive as it was. */
static void members_written_into_an_mpq_read_back_by_smpq(void **state)
{
    (void)state;
    wmo_mpq made = wmo_mpq_make(4);
    char *dir = made.dir, *mpq = made.path, **files = made.files;
    size_t count = made.count;
    char *obj = wmt_sample_path("courtyard.obj"), *loose = wmt_join(dir, "loose.wok");
    char *inside = wmt_join(mpq, "World/wmo/new/courtyard.wok");
    const char *convert_loose[] = {"convert", obj, loose, "--quiet", NULL};
    const char *convert_in[] = {"convert", obj, inside, "--quiet", NULL};
    const char *convert_again[] = {"convert", obj, inside, "--quiet", "--force", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, convert_loose), 0);
    char *err = NULL;
    if (wmt_run_cli(NULL, &err, convert_in) != 0)
        fail_msg("%s", err);
    free(err);
    size_t before_size = 0, after_size = 0;
    uint8_t *before = wmt_read_file(mpq, &before_size);
    assert_int_equal(wmt_run_cli(NULL, NULL, convert_in), 3); /* exists: refused, untouched */
    uint8_t *after = wmt_read_file(mpq, &after_size);
    assert_int_equal(before_size, after_size);
    assert_memory_equal(before, after, after_size);
    assert_int_equal(wmt_run_cli(NULL, NULL, convert_again), 0);
    assert_smpq_extracts(dir, mpq, "World\\wmo\\new\\courtyard.wok", loose);
    for (size_t i = 0; i < count; i++) {
        char member[512];
        snprintf(member, sizeof member, "World\\wmo\\Dungeons\\%s", wm_path_file_name(files[i]));
        assert_smpq_extracts(dir, mpq, member, files[i]);
    }
    print_message("written into an MPQ v4: smpq reads the new member and %zu untouched ones back\n", count);
    wmo_mpq_free(&made);
    free(obj), free(loose), free(inside), free(before), free(after);
}

/* --game over a WoW client's MPQs: patch-2.MPQ's member wins over common.MPQ's of the same
 * name, and names are WoW's paths with '\\' or '/'. */
static void game_folder_patch_chain_last_wins(void **state)
{
    (void)state;
    free(smpq_or_skip());
    char *base = wmt_corpus_path_or_skip("wmo/blizzardry__trolltent_000.wmo");
    char *patched = wmt_corpus_path_or_skip("wmo/warcraftnet__duskwood_lumbermill_000.wmo");
    char *game = wmt_make_temp_dir();
    char command[4096];
    snprintf(command, sizeof command,
             "cd '%s' && mkdir -p Data a/World/wmo b/World/wmo && cp '%s' a/World/wmo/x_000.wmo && "
             "cp '%s' a/World/wmo/only_common_000.wmo && cp '%s' b/World/wmo/x_000.wmo && "
             "(cd a && smpq -q -c -M 2 ../Data/common.MPQ World/wmo/*) && "
             "(cd b && smpq -q -c -M 2 ../Data/patch-2.MPQ World/wmo/*)",
             game, base, base, patched);
    assert_int_equal(system(command), 0);
    const char *names[] = {"World\\wmo\\x_000.wmo", "world/WMO/only_common_000.wmo"};
    const char *files[] = {patched, base}, *holders[] = {"patch-2.MPQ", "common.MPQ"};
    for (size_t i = 0; i < 2; i++)
        assert_game_finds(game, names[i], holders[i], files[i]);
    wmt_remove_tree(game);
    free(base), free(patched), free(game);
}

/* Whether the CLI run initialised StormLib (the dynamic loader's own report, glibc). */
static int loads_storm(const char *const *argv)
{
#ifndef __GLIBC__
    skip();
#endif
    setenv("LD_DEBUG", "libs", 1);
    char *err = NULL;
    int rc = wmt_run_cli(NULL, &err, argv);
    unsetenv("LD_DEBUG");
    int seen = strstr(err, "libstorm") != NULL;
    if (rc != 0)
        fail_msg("%s exit %d", argv[0], rc);
    free(err);
    return seen;
}

static void storm_is_loaded_only_for_an_mpq(void **state)
{
    (void)state;
    char *wok = wmt_sample_path("courtyard.obj");
    char *dir = wmt_make_temp_dir(), *out = wmt_join(dir, "c.wok");
    const char *convert[] = {"convert", wok, out, "--quiet", NULL};
    assert_false(loads_storm(convert));
    char *replay = wmt_corpus_path("archives/mpq-aarondl-GardenOfTerror72.StormReplay");
    if (!replay) { /* the first half holds without the corpus; free before skipping */
        wmt_remove_tree(dir);
        free(wok), free(dir), free(out);
        skip();
    }
    const char *info[] = {"info", replay, NULL};
    assert_true(loads_storm(info));
    wmt_remove_tree(dir);
    free(wok), free(dir), free(out), free(replay);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(smpq_archives_read_back_byte_identical),
        cmocka_unit_test(wmo_root_renders_with_its_groups_from_the_archive),
        cmocka_unit_test(corpus_replay_lists_and_reads),
        cmocka_unit_test(cut_archives_are_refused_cleanly),
        cmocka_unit_test(members_written_into_an_mpq_read_back_by_smpq),
        cmocka_unit_test(game_folder_patch_chain_last_wins),
        cmocka_unit_test(storm_is_loaded_only_for_an_mpq),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
