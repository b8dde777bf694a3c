/* BWM reading: every corpus binary reads with the counts the corpus README
 * lists, re-serializes byte-identical, validates as the README describes;
 * truncated and hostile inputs fail cleanly. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"

/* Counts from ../shared/corpus/README.md (v, f, aabb, adjacency, edges, perimeters). */
typedef struct expected_counts {
    const char *name;
    uint32_t type, v, f, aabb, adj, edges, perims;
} expected_counts;

static const expected_counts EXPECTED[] = {
    {"k1cp-m10ac_30a.wok", 1, 64, 97, 193, 39, 37, 1},
    {"k1cp-m12aa_01f.wok", 1, 86, 127, 253, 51, 47, 3},
    {"k1cp-m13aa_04a.wok", 1, 289, 570, 1139, 257, 83, 4},
    {"k1cp-m22ab_09a.wok", 1, 108, 151, 301, 44, 46, 1},
    {"k1cp-plc_fccage2.pwk", 0, 18, 16, 0, 0, 0, 0},
    {"pykotor-generated_kit-blackvulkar-m10aa_01c.wok", 1, 52, 68, 135, 24, 26, 1},
    {"pykotor-generated_kit-blackvulkar-m10aa_03a.wok", 1, 80, 123, 245, 43, 43, 2},
    {"pykotor-generated_kit-blackvulkar-m10aa_05a.wok", 1, 96, 128, 255, 46, 48, 1},
    {"pykotor-generated_kit-blackvulkar-m10aa_08b.wok", 1, 60, 86, 171, 28, 30, 1},
    {"pykotor-kits-blackvulkar-hallway_1.wok", 1, 108, 160, 319, 60, 54, 1},
    {"pykotor-kits-endarspire-bridge_1.wok", 1, 188, 332, 663, 146, 140, 5},
    {"pykotor-kits-endarspire-hallway_3.wok", 1, 8, 6, 11, 2, 4, 1},
    {"pykotor-kits-hiddenbek-large_room_1.wok", 1, 158, 233, 465, 87, 87, 2},
    {"pykotor-kits-old-enclavesurface-hangar_01.wok", 1, 409, 670, 1339, 156, 108, 2},
    {"pykotor-kits-old-sithbase-control_2.wok", 1, 179, 303, 605, 166, 72, 3},
    {"pykotor-kits_v2-floor_plain.wok", 1, 4, 2, 3, 2, 4, 0},
    {"pykotor-models-203tell.wok", 1, 677, 1209, 2417, 211, 209, 7},
    {"pykotor-models-203tell_rebuilt.wok", 1, 677, 1209, 2417, 211, 205, 0},
    {"pykotor-root-out.wok", 1, 694, 1242, 2475, 1237, 274, 0},
    {"pykotor-tests-test.wok", 1, 114, 195, 389, 79, 73, 3},
    {"pykotor-tests-zio006j.wok", 1, 190, 276, 551, 116, 84, 2},
};
#define N_EXPECTED (sizeof EXPECTED / sizeof EXPECTED[0])

/* Vanilla (BioWare-compiled) and K1CP files: validate must pass them. */
static const char *const MUST_PASS[] = {
    "pykotor-generated_kit-blackvulkar-m10aa_01c.wok", "pykotor-generated_kit-blackvulkar-m10aa_03a.wok",
    "pykotor-generated_kit-blackvulkar-m10aa_05a.wok", "pykotor-generated_kit-blackvulkar-m10aa_08b.wok",
    "pykotor-models-203tell.wok", "pykotor-tests-test.wok", "pykotor-tests-zio006j.wok",
    "k1cp-m10ac_30a.wok", "k1cp-m12aa_01f.wok", "k1cp-m13aa_04a.wok", "k1cp-m22ab_09a.wok",
    "k1cp-plc_fccage2.pwk"};

static char *corpus_file(const char *name)
{
    char rel[256];
    snprintf(rel, sizeof rel, "bwm/%s", name);
    return wmt_corpus_path_or_skip(rel);
}

static void test_reads_with_readme_counts(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_EXPECTED; i++) {
        const expected_counts *e = &EXPECTED[i];
        char *path = corpus_file(e->name);
        wm_ctx ctx;
        bwm_file f;
        wmt_ctx_init(&ctx);
        wm_result r = bwm_read_file(&ctx, path, &f);
        if (r) fail_msg("%s: %s", e->name, wm_ctx_message(&ctx));
        assert_int_equal(f.type, e->type);
        assert_int_equal(f.vertex_count, e->v);
        assert_int_equal(f.face_count, e->f);
        assert_int_equal(f.aabb_count, e->aabb);
        assert_int_equal(f.adjacency_count, e->adj);
        assert_int_equal(f.edge_count, e->edges);
        assert_int_equal(f.perimeter_count, e->perims);
        bwm_file_free(&ctx, &f);
        free(path);
    }
}

static void test_byte_exact_round_trip(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".wok", ".pwk", ".dwk", NULL};
    char **list = NULL;
    size_t n = wmt_corpus_list("bwm", suffixes, &list);
    assert_true(n >= N_EXPECTED);
    for (size_t i = 0; i < n; i++) {
        size_t size = 0;
        uint8_t *data = wmt_read_file(list[i], &size);
        wm_ctx ctx;
        bwm_file f;
        wm_buffer out;
        wmt_ctx_init(&ctx);
        if (bwm_parse(&ctx, data, size, list[i], &f)) fail_msg("%s", wm_ctx_message(&ctx));
        assert_int_equal(bwm_serialize(&ctx, &f, &out), WM_OK);
        if (out.size != size || memcmp(out.data, data, size) != 0) fail_msg("%s: not byte-identical", list[i]);
        wm_buffer_free(&out);
        bwm_file_free(&ctx, &f);
        free(data);
    }
    wmt_free_list(list, n);
}

/* Runs validate and returns the report (caller frees). */
static void validate_file(const char *path, wm_ctx *ctx, wm_report *report)
{
    size_t size = 0;
    uint8_t *data = wmt_read_file(path, &size);
    bwm_file f;
    if (bwm_parse(ctx, data, size, path, &f)) fail_msg("%s", wm_ctx_message(ctx));
    wm_report_init(report, ctx);
    assert_int_equal(bwm_validate(ctx, &f, size, report), WM_OK);
    bwm_file_free(ctx, &f);
    free(data);
}

static int report_has(const wm_report *report, wm_severity sev, const char *location_prefix, const char *text)
{
    for (uint32_t i = 0; i < report->count; i++) {
        const wm_report_item *it = &report->items[i];
        if (it->severity == sev && strncmp(it->key, location_prefix, strlen(location_prefix)) == 0 &&
            strstr(it->value, text))
            return 1;
    }
    return 0;
}

static void test_validate_passes_vanilla_and_k1cp(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof MUST_PASS / sizeof MUST_PASS[0]; i++) {
        char *path = corpus_file(MUST_PASS[i]);
        wm_ctx ctx;
        wm_report report;
        wmt_ctx_init(&ctx);
        validate_file(path, &ctx, &report);
        for (uint32_t k = 0; k < report.count && report.errors; k++)
            print_message("%s: %s: %s\n", MUST_PASS[i], report.items[k].key, report.items[k].value);
        assert_int_equal(report.errors, 0);
        wm_report_free(&report);
        free(path);
    }
}

static void test_validate_flags_broken_pykotor_output(void **state)
{
    (void)state;
    char *path = corpus_file("pykotor-root-out.wok");
    wm_ctx ctx;
    wm_report report;
    wmt_ctx_init(&ctx);
    validate_file(path, &ctx, &report);
    assert_true(report.errors > 0);
    /* the corpus README's description of the file: boxes z-inverted, leaves miss faces, adjacency not reciprocal */
    assert_true(report_has(&report, WM_SEV_ERROR, "AABB node 0", "box inverted"));
    assert_true(report_has(&report, WM_SEV_ERROR, "AABB", "2475 nodes, expected 2*faces-1 = 2483"));
    assert_true(report_has(&report, WM_SEV_ERROR, "face ", "in no AABB leaf"));
    assert_true(report_has(&report, WM_SEV_ERROR, "face ", "not reciprocal"));
    assert_true(report_has(&report, WM_SEV_ERROR, "perimeters", "no perimeter loops"));
    wm_report_free(&report);
    free(path);

    /* floor_plain: 3 z-inverted boxes and no perimeters */
    path = corpus_file("pykotor-kits_v2-floor_plain.wok");
    wmt_ctx_init(&ctx);
    validate_file(path, &ctx, &report);
    assert_true(report_has(&report, WM_SEV_ERROR, "AABB node 2", "box inverted"));
    assert_true(report_has(&report, WM_SEV_ERROR, "perimeters", "4 boundary edges but no perimeter loops"));
    wm_report_free(&report);
    free(path);
}

/* Every prefix of a real file must fail cleanly (no crash, no leak under ASan). */
static void sweep_prefixes(const char *name)
{
    char *path = corpus_file(name);
    size_t size = 0;
    uint8_t *data = wmt_read_file(path, &size);
    wm_ctx ctx;
    bwm_file f;
    wmt_ctx_init(&ctx);
    assert_int_equal(bwm_parse(&ctx, data, size, name, &f), WM_OK);
    /* all prefixes near the start and around every section boundary, a stride elsewhere */
    uint32_t bounds[BWM_SEC_COUNT];
    memcpy(bounds, f.offsets, sizeof bounds);
    bwm_file_free(&ctx, &f);
    size_t stride = size > 50000 ? 61 : 1;
    for (size_t len = 0; len < size; len++) {
        int near_boundary = len < 512;
        for (int s = 0; s < BWM_SEC_COUNT; s++)
            if (bounds[s] && len + 16 >= bounds[s] && len <= (size_t)bounds[s] + 16) near_boundary = 1;
        if (!near_boundary && len % stride != 0 && len + 64 < size) continue;
        uint8_t *copy = malloc(len ? len : 1); /* exact size so ASan sees any overread */
        memcpy(copy, data, len);
        wm_result r = bwm_parse(&ctx, copy, len, name, &f);
        if (r == WM_OK) fail_msg("%s: prefix of %zu bytes parsed", name, len);
        assert_true(strlen(wm_ctx_message(&ctx)) > 0);
        free(copy);
    }
    free(data);
    free(path);
}

static void test_truncation_sweep(void **state)
{
    (void)state;
    sweep_prefixes("pykotor-kits-endarspire-hallway_3.wok");
    sweep_prefixes("k1cp-plc_fccage2.pwk");
    sweep_prefixes("pykotor-tests-test.wok");
    sweep_prefixes("pykotor-models-203tell.wok");
}

/* Allocator that records the largest single request. */
static size_t largest_request;
static void *counting_realloc(void *user, void *ptr, size_t size)
{
    (void)user;
    if (size > largest_request) largest_request = size;
    return realloc(ptr, size);
}
static void counting_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void test_huge_counts_refused_before_allocation(void **state)
{
    (void)state;
    /* a valid 136-byte header followed by 64 bytes, then each count field set huge in turn */
    static const unsigned count_fields[] = {0x48, 0x50, 0x64, 0x70, 0x78, 0x80};
    for (size_t i = 0; i < sizeof count_fields / sizeof count_fields[0]; i++) {
        for (int variant = 0; variant < 2; variant++) {
            uint8_t img[200];
            memset(img, 0, sizeof img);
            memcpy(img, "BWM V1.0", 8);
            put32(img + 8, 1);
            for (unsigned off = 0x4C; off <= 0x84; off += 4) put32(img + off, 136);
            put32(img + count_fields[i], variant ? 0xFFFFFFFFu : 0x00FFFFFFu);
            wm_ctx ctx;
            bwm_file f;
            wmt_ctx_init(&ctx);
            ctx.alloc.realloc_fn = counting_realloc;
            ctx.alloc.free_fn = counting_free;
            largest_request = 0;
            wm_result r = bwm_parse(&ctx, img, sizeof img, "huge.wok", &f);
            assert_true(r == WM_ERR_LIMIT || r == WM_ERR_TRUNCATED);
            assert_true(largest_request <= sizeof img);
            assert_non_null(strstr(wm_ctx_message(&ctx), "huge.wok"));
        }
    }
}

static void test_bad_magic_and_face_index(void **state)
{
    (void)state;
    char *path = corpus_file("pykotor-kits-endarspire-hallway_3.wok");
    size_t size = 0;
    uint8_t *data = wmt_read_file(path, &size);
    wm_ctx ctx;
    bwm_file f;
    wmt_ctx_init(&ctx);
    data[0] = 'X';
    assert_int_equal(bwm_parse(&ctx, data, size, "x.wok", &f), WM_ERR_NOT_FORMAT);
    assert_non_null(strstr(wm_ctx_message(&ctx), "magic"));
    data[0] = 'B';
    uint32_t face_offset = wm_le32(data + 0x54);
    put32(data + face_offset + 4 * 4, 1000); /* face 1 vertex 1 */
    assert_int_equal(bwm_parse(&ctx, data, size, "x.wok", &f), WM_ERR_CORRUPT);
    assert_non_null(strstr(wm_ctx_message(&ctx), "face 1 vertex 1"));
    free(data);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_with_readme_counts),
        cmocka_unit_test(test_byte_exact_round_trip),
        cmocka_unit_test(test_validate_passes_vanilla_and_k1cp),
        cmocka_unit_test(test_validate_flags_broken_pykotor_output),
        cmocka_unit_test(test_truncation_sweep),
        cmocka_unit_test(test_huge_counts_refused_before_allocation),
        cmocka_unit_test(test_bad_magic_and_face_index),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
