/* Format lookup by name, extension and content, including ties. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

static int probe_magic_abcd(const wm_input *in)
{
    return in->size >= 4 && memcmp(in->data, "ABCD", 4) == 0 ? 80 : 0;
}

static int probe_magic_ab(const wm_input *in)
{
    return in->size >= 2 && memcmp(in->data, "AB", 2) == 0 ? 80 : 0;
}

static int probe_magic_abc_weaker(const wm_input *in)
{
    return in->size >= 3 && memcmp(in->data, "ABC", 3) == 0 ? 50 : 0;
}

static wm_result dummy_read(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out, wm_report *facts)
{
    (void)ctx;
    (void)in;
    (void)opts;
    (void)facts;
    wm_mesh_init(out);
    return WM_OK;
}

static const wm_format fmt_abcd = {.name = "abcd", .probe = probe_magic_abcd, .read = dummy_read};
static const wm_format fmt_ab = {.name = "ab", .probe = probe_magic_ab, .read = dummy_read};
static const wm_format fmt_abc = {.name = "abc", .probe = probe_magic_abc_weaker, .read = dummy_read};

static wm_result probe_bytes(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name,
                             const wm_format *const *candidates, const wm_format **found)
{
    wm_input in;
    wm_input_borrow(&in, data, size, name);
    return wm_format_probe(ctx, &in, candidates, 2, found);
}

static wm_result detect_file(wm_ctx *ctx, const char *path, const wm_format **found)
{
    wm_input in;
    wm_result r = wm_input_load(ctx, path, &in);
    if (!r)
        r = wm_format_detect(ctx, &in, found);
    wm_input_free(ctx, &in);
    return r;
}

static void probing_picks_the_best_score(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    const wm_format *candidates[] = {&fmt_abc, &fmt_abcd};
    const wm_format *found = NULL;
    const uint8_t data[] = "ABCDxyz";
    assert_int_equal(probe_bytes(&ctx, data, 7, "x.bin", candidates, &found), WM_OK);
    assert_ptr_equal(found, &fmt_abcd);
    const uint8_t other[] = "ABCzzz";
    assert_int_equal(probe_bytes(&ctx, other, 6, "x.bin", candidates, &found), WM_OK);
    assert_ptr_equal(found, &fmt_abc);
    const uint8_t none[] = "zzzz";
    assert_int_equal(probe_bytes(&ctx, none, 4, "x.bin", candidates, &found), WM_ERR_NOT_FORMAT);
    assert_non_null(strstr(ctx.message, "x.bin"));
}

static void a_tie_is_ambiguous(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    const wm_format *candidates[] = {&fmt_abcd, &fmt_ab};
    const wm_format *found = &fmt_abc;
    const uint8_t data[] = "ABCD";
    assert_int_equal(probe_bytes(&ctx, data, 4, "tie.bin", candidates, &found), WM_ERR_AMBIGUOUS);
    assert_null(found);
    assert_non_null(strstr(ctx.message, "abcd"));
    assert_non_null(strstr(ctx.message, "'ab'"));
    assert_non_null(strstr(ctx.message, "--from"));
}

static void lookup_by_name_and_extension(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    const wm_format *f = wm_format_by_name("ASSIMP");
    assert_non_null(f);
    assert_string_equal(f->name, "assimp");
    assert_null(wm_format_by_name("nosuch"));
    const wm_format *by_ext = NULL;
    assert_int_equal(wm_format_by_extension(&ctx, "dir.v2/Model.GLTF", 1, &by_ext), WM_OK);
    assert_ptr_equal(by_ext, f);
    assert_int_equal(wm_format_by_extension(&ctx, "a/b.xyz", 0, &by_ext), WM_ERR_UNSUPPORTED);
    assert_non_null(strstr(ctx.message, "a/b.xyz"));
    assert_int_equal(wm_format_by_extension(&ctx, "noext", 0, &by_ext), WM_ERR_UNSUPPORTED);
    /* Every registered module has a name, a description and at least read or write. */
    size_t count;
    const wm_format *const *all = wm_formats(&count);
    assert_true(count >= 1);
    for (size_t i = 0; i < count; i++) {
        assert_non_null(all[i]->name);
        assert_non_null(all[i]->description);
        assert_true(all[i]->read || all[i]->write);
    }
}

static void detect_falls_back_to_probing(void **state)
{
    (void)state;
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    char *dir = wmt_make_temp_dir();
    char *path = wmt_join(dir, "mesh.unknownext");
    wmt_write_file(path, "hello", 5);
    const wm_format *f = NULL;
    assert_int_equal(detect_file(&ctx, path, &f), WM_ERR_NOT_FORMAT);
    char *sample = wmt_sample_path("courtyard.obj");
    assert_int_equal(detect_file(&ctx, sample, &f), WM_OK);
    assert_string_equal(f->name, "assimp");
    wmt_remove_tree(dir);
    free(sample);
    free(path);
    free(dir);
}

/* Every module's read fills the mesh it is given, whatever that memory held
 * before (the README's library example passes an uninitialised wm_mesh). */
static void every_reader_fills_an_uninitialised_mesh(void **state)
{
    (void)state;
    static const struct {
        const char *format, *corpus_file, *sample;
    } inputs[] = {
        {"bwm", "bwm/k1cp-m13aa_04a.wok", NULL},
        {"bwm-ascii", "bwm/tslcp-101peri-kotormax.wok.ascii", NULL},
        {"nwn2", "nwn2/enter_world.trx", NULL},
        {"wmo", "wmo/warcraftnet__prisonHQ_Redridge_002.wmo", NULL},
        {"assimp", NULL, "courtyard.obj"},
    };
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        char *path = inputs[i].sample ? wmt_sample_path(inputs[i].sample) : wmt_corpus_path(inputs[i].corpus_file);
        if (!path)
            continue;
        const wm_format *format = wm_format_by_name(inputs[i].format);
        assert_non_null(format);
        wm_ctx ctx;
        wm_ctx_init(&ctx);
        ctx.warn = NULL;
        wm_mesh clean, dirty;
        wm_mesh_init(&clean);
        assert_int_equal(wm_mesh_load(&ctx, path, format->name, NULL, &clean), WM_OK);
        memset(&dirty, 0xA5, sizeof dirty);
        if (wm_mesh_load(&ctx, path, format->name, NULL, &dirty) != WM_OK)
            fail_msg("%s: reading %s into an uninitialised mesh failed: %s", inputs[i].format, path,
                     wm_ctx_message(&ctx));
        assert_true(clean.triangle_count > 0);
        assert_int_equal(dirty.vertex_count, clean.vertex_count);
        assert_int_equal(dirty.triangle_count, clean.triangle_count);
        assert_int_equal(dirty.object_count, clean.object_count);
        wm_mesh_free(&ctx, &clean);
        wm_mesh_free(&ctx, &dirty);
        free(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(probing_picks_the_best_score),
        cmocka_unit_test(a_tie_is_ambiguous),
        cmocka_unit_test(lookup_by_name_and_extension),
        cmocka_unit_test(detect_falls_back_to_probing),
        cmocka_unit_test(every_reader_fills_an_uninitialised_mesh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
