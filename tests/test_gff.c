/* The bounded GFF reader and the GIT walkmesh cutters: facts of the corpus
 * GIT files (counted with an independent GFF dump), a GIT written by hand
 * here, every prefix of a real GIT failing cleanly, and hostile counts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "nwn2/bake.h"
#include "nwn2/gff.h"

typedef struct git_fact {
    const char *file;
    uint32_t triggers, cutters, points;
    uint32_t first_index, first_points;
    double first_x, first_y;
} git_fact;

static const git_fact facts[] = {
    {"nwn2/CSLMordMansion.GIT", 20, 13, 187, 7, 26, 42.53055953979492, 52.6226692199707},
    {"nwn2/enter_world.GIT", 7, 6, 29, 0, 4, 19.567319869995117, 30.077730178833008},
    {"nwn2/fh_settlement.GIT", 35, 33, 262, 1, 4, 13.665679931640625, 62.493370056152344},
    {"nwn2/md_fancy_fox_fashions_rlg.GIT", 34, 34, 143, 0, 4, 42.28105926513672, 9.64463996887207},
};

static void test_corpus_git_cutters(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++) {
        char *path = wmt_corpus_path_or_skip(facts[i].file);
        size_t size = 0;
        uint8_t *data = wmt_read_file(path, &size);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        nwn2_gff g;
        assert_int_equal(nwn2_gff_open(&ctx, data, size, path, &g), WM_OK);
        assert_string_equal(g.file_type, "GIT ");
        nwn2_gff_field list;
        int found = 0;
        uint32_t count = 0;
        assert_int_equal(nwn2_gff_find(&g, 0, "TriggerList", &list, &found), WM_OK);
        assert_true(found);
        assert_int_equal(nwn2_gff_list_count(&g, &list, &count), WM_OK);
        assert_int_equal(count, facts[i].triggers);

        nwn2_cutter_set set;
        assert_int_equal(nwn2_bake_cutters_from_git(&ctx, data, size, path, &set), WM_OK);
        assert_int_equal(set.count, facts[i].cutters);
        uint32_t points = 0;
        for (uint32_t c = 0; c < set.count; c++)
            points += set.cutters[c].point_count;
        assert_int_equal(points, facts[i].points);
        assert_int_equal(set.cutters[0].source_index, facts[i].first_index);
        assert_int_equal(set.cutters[0].point_count, facts[i].first_points);
        assert_true(fabs(set.cutters[0].points[0] - facts[i].first_x) < 1e-4);
        assert_true(fabs(set.cutters[0].points[1] - facts[i].first_y) < 1e-4);
        nwn2_cutter_set_free(&ctx, &set);
        free(data);
        free(path);
    }
}

/* ---- a GIT written here field by field (GFF V3.2 layout) ---- */

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* One trigger of Type `type` at (10, 20) with points (0,0), (4,0), (0,2). */
static uint8_t *small_git(size_t *size, uint32_t type)
{
    static const char *labels[] = {"TriggerList", "Type", "XPosition", "YPosition", "Geometry", "PointX", "PointY"};
    const uint32_t structs[5][3] = {{0, 0, 1}, {1, 0, 4}, {2, 16, 2}, {3, 24, 2}, {4, 32, 2}};
    const float px[3] = {0, 4, 0}, py[3] = {0, 0, 2};
    uint32_t fields[11][3] = {{15, 0, 0}, {5, 1, type}, {8, 2, float_bits(10)}, {8, 3, float_bits(20)}, {15, 4, 8}};
    for (int i = 0; i < 3; i++) {
        fields[5 + 2 * i][0] = 8;
        fields[5 + 2 * i][1] = 5;
        fields[5 + 2 * i][2] = float_bits(px[i]);
        fields[6 + 2 * i][0] = 8;
        fields[6 + 2 * i][1] = 6;
        fields[6 + 2 * i][2] = float_bits(py[i]);
    }
    const uint32_t field_indices[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const uint32_t list_indices[6] = {1, 1, 3, 2, 3, 4};
    uint32_t so = 56, fo = so + 5 * 12, lo = fo + 11 * 12, fdo = lo + 7 * 16, fio = fdo, lio = fio + 40;
    *size = lio + 24;
    uint8_t *d = calloc(1, *size);
    memcpy(d, "GIT V3.2", 8);
    const uint32_t header[12] = {so, 5, fo, 11, lo, 7, fdo, 0, fio, 40, lio, 24};
    for (int i = 0; i < 12; i++)
        put32(d + 8 + 4 * i, header[i]);
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < 3; k++)
            put32(d + so + 12 * i + 4 * k, structs[i][k]);
    for (int i = 0; i < 11; i++)
        for (int k = 0; k < 3; k++)
            put32(d + fo + 12 * i + 4 * k, fields[i][k]);
    for (int i = 0; i < 7; i++)
        memcpy(d + lo + 16 * i, labels[i], strlen(labels[i]));
    for (int i = 0; i < 10; i++)
        put32(d + fio + 4 * i, field_indices[i]);
    for (int i = 0; i < 6; i++)
        put32(d + lio + 4 * i, list_indices[i]);
    return d;
}

/* small_git's cutter with its Geometry list holding `points` entries, all
 * naming the same point struct: a tiny file with as many corners as wanted. */
static uint8_t *many_point_git(size_t *size, uint32_t points)
{
    size_t small = 0;
    uint8_t *d = small_git(&small, 3);
    uint32_t lio = (uint32_t)small - 24; /* list indices come last */
    *size = lio + 12 + 4 * (size_t)points;
    d = realloc(d, *size);
    put32(d + 8 + 4 * 11, 12 + 4 * points); /* list indices byte count */
    put32(d + lio + 8, points);
    for (uint32_t i = 0; i < points; i++)
        put32(d + lio + 12 + 4 * i, 2);
    return d;
}

/* Every corner costs a pass over the walkmesh, so a GIT listing a huge
 * number of them would hang the bake: real cutters have a few dozen (262 in
 * the largest corpus GIT, all cutters together); beyond the limit the GIT is
 * refused, naming the trigger. */
static void test_cutter_point_limit(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_cutter_set set;
    size_t size = 0;
    uint8_t *d = many_point_git(&size, 1000);
    assert_int_equal(nwn2_bake_cutters_from_git(&ctx, d, size, "busy.git", &set), WM_OK);
    assert_int_equal(set.cutters[0].point_count, 1000);
    nwn2_cutter_set_free(&ctx, &set);
    free(d);
    d = many_point_git(&size, 200000);
    assert_int_equal(nwn2_bake_cutters_from_git(&ctx, d, size, "hostile.git", &set), WM_ERR_LIMIT);
    assert_non_null(strstr(wm_ctx_message(&ctx), "hostile.git"));
    assert_non_null(strstr(wm_ctx_message(&ctx), "trigger 0"));
    free(d);
}

static void test_hand_written_git(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *d = small_git(&size, 3);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_cutter_set set;
    assert_int_equal(nwn2_bake_cutters_from_git(&ctx, d, size, "small.git", &set), WM_OK);
    assert_int_equal(set.count, 1);
    assert_int_equal(set.cutters[0].point_count, 3);
    const float want[6] = {10, 20, 14, 20, 10, 22};
    assert_memory_equal(set.cutters[0].points, want, sizeof want);
    nwn2_cutter_set_free(&ctx, &set);
    free(d);

    d = small_git(&size, 0); /* a generic trigger: no cutter */
    assert_int_equal(nwn2_bake_cutters_from_git(&ctx, d, size, "small.git", &set), WM_OK);
    assert_int_equal(set.count, 0);
    nwn2_cutter_set_free(&ctx, &set);
    free(d);
}

static void expect_corrupt(uint8_t *d, size_t size, const char *needle)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_cutter_set set;
    wm_result r = nwn2_bake_cutters_from_git(&ctx, d, size, "hostile.git", &set);
    if (r == WM_OK)
        fail_msg("hostile GIT accepted (expected \"%s\")", needle);
    if (!strstr(wm_ctx_message(&ctx), needle))
        fail_msg("message \"%s\" lacks \"%s\"", wm_ctx_message(&ctx), needle);
    assert_non_null(strstr(wm_ctx_message(&ctx), "hostile.git"));
}

static void test_hostile_counts(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *d = small_git(&size, 3);
    uint8_t *copy = malloc(size);

    memcpy(copy, d, size);
    put32(copy + 12, 0xFFFFFFFFu); /* struct count */
    expect_corrupt(copy, size, "struct table");

    memcpy(copy, d, size);
    put32(copy + 20, 0x40000000u); /* field count */
    expect_corrupt(copy, size, "field table");

    memcpy(copy, d, size);
    put32(copy + size - 24 + 8, 0xFFFFFFF0u); /* Geometry list element count */
    expect_corrupt(copy, size, "list claims");

    memcpy(copy, d, size);
    put32(copy + size - 24 + 12, 77); /* Geometry element naming struct 77 */
    expect_corrupt(copy, size, "struct 77");

    memcpy(copy, d, size);
    put32(copy + 56 + 12 + 4, 1000); /* trigger's field indices offset */
    expect_corrupt(copy, size, "field indices");

    memcpy(copy, d, size);
    put32(copy + 56 + 60 + 12 * 1 + 4, 99); /* Type's label index */
    expect_corrupt(copy, size, "label index");

    memcpy(copy, d, size);
    put32(copy + 56 + 60 + 12 * 2, 4); /* XPosition typed DWORD */
    expect_corrupt(copy, size, "XPosition");

    memcpy(copy, d, size);
    memcpy(copy + 4, "V3.3", 4);
    expect_corrupt(copy, size, "V3.2");
    free(copy);
    free(d);
}

/* Every prefix of a real GIT fails cleanly: all of the first 1024 bytes,
 * the bytes around every table boundary, then a stride. */
static void test_truncation_sweep(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip("nwn2/md_fancy_fox_fashions_rlg.GIT");
    size_t size = 0;
    uint8_t *data = wmt_read_file(path, &size);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_gff g;
    assert_int_equal(nwn2_gff_open(&ctx, data, size, path, &g), WM_OK);
    /* the list index table ends the file, so any shorter prefix lacks bytes it needs */
    assert_int_equal((size_t)g.list_indices_offset + g.list_indices_size, size);
    size_t marks[12] = {g.struct_offset, g.field_offset, g.label_offset, g.field_data_offset,
                        g.field_indices_offset, g.list_indices_offset, (size_t)g.struct_offset + 12ull * g.struct_count,
                        (size_t)g.field_offset + 12ull * g.field_count, (size_t)g.label_offset + 16ull * g.label_count,
                        (size_t)g.field_data_offset + g.field_data_size,
                        (size_t)g.field_indices_offset + g.field_indices_size, size};
    for (size_t n = 0; n < size; n++) {
        int near_mark = 0;
        for (int m = 0; m < 12; m++)
            near_mark |= n + 4 >= marks[m] && n <= marks[m] + 4;
        if (n >= 1024 && !near_mark && n % 997 != 0)
            continue;
        uint8_t *prefix = malloc(n ? n : 1);
        memcpy(prefix, data, n);
        nwn2_cutter_set set;
        wm_result r = nwn2_bake_cutters_from_git(&ctx, prefix, n, "prefix.git", &set);
        if (r == WM_OK)
            fail_msg("prefix of %zu bytes accepted", n);
        assert_non_null(strstr(wm_ctx_message(&ctx), "prefix.git"));
        free(prefix);
    }
    free(data);
    free(path);
}

/* A GIT whose trigger list names one struct `entries` times, that struct
 * holding `fields` fields (none is "Type"): each entry's lookup once scanned
 * every field, entries x fields in all (1e10 here, minutes). A GFF is a
 * tree (each struct has one parent), so such a file is no GIT: it is
 * refused after a number of comparisons proportional to its size. */
static uint8_t *shared_struct_git(size_t *size, uint32_t entries, uint32_t fields)
{
    const uint32_t so = 56, fo = so + 2 * 12, lo = fo + 12 * (fields + 1), fio = lo + 2 * 16,
                   lio = fio + 4 * fields;
    *size = lio + 4 + 4 * (size_t)entries;
    uint8_t *d = calloc(1, *size);
    memcpy(d, "GIT V3.2", 8);
    const uint32_t header[12] = {so, 2, fo, fields + 1, lo, 2, fio, 0, fio, 4 * fields, lio, 4 + 4 * entries};
    for (int i = 0; i < 12; i++)
        put32(d + 8 + 4 * i, header[i]);
    put32(d + so + 8, 1);               /* struct 0: field 0 */
    put32(d + so + 12, 1);              /* struct 1: type 1, */
    put32(d + so + 20, fields);         /* its fields from field index 0 */
    put32(d + fo, 15);                  /* field 0: the list, at list index 0 */
    for (uint32_t i = 1; i <= fields; i++) {
        put32(d + fo + 12 * i, 5);      /* INT */
        put32(d + fo + 12 * i + 4, 1);  /* "Tag" */
        put32(d + fio + 4 * (i - 1), i);
    }
    memcpy(d + lo, "TriggerList", 11);
    memcpy(d + lo + 16, "Tag", 3);
    put32(d + lio, entries);
    for (uint32_t i = 0; i < entries; i++)
        put32(d + lio + 4 + 4 * i, 1);
    return d;
}

static void test_shared_struct_lookups_bounded(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *d = shared_struct_git(&size, 4, 3); /* small: read, no cutter */
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_cutter_set set;
    assert_int_equal(nwn2_bake_cutters_from_git(&ctx, d, size, "small.git", &set), WM_OK);
    assert_int_equal(set.count, 0);
    nwn2_cutter_set_free(&ctx, &set);
    free(d);
    d = shared_struct_git(&size, 100000, 100000);
    expect_corrupt(d, size, "field lookups");
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus_git_cutters),
        cmocka_unit_test(test_hand_written_git),
        cmocka_unit_test(test_cutter_point_limit),
        cmocka_unit_test(test_hostile_counts),
        cmocka_unit_test(test_truncation_sweep),
        cmocka_unit_test(test_shared_struct_lookups_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
