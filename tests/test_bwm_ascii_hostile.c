/* Hostile numbers in ASCII walkmesh text (issue 27, acceptance: every `convert` output over
 * the hostile ASCII files validates, or the conversion is refused). Each corpus text walkmesh
 * (KotOR .wok.ascii, NWN1 text behind .wok/.pwk) up to 32 KiB: each of its first numbers in
 * turn (positions, vertices, face rows: indices, materials, links) replaced by a value a float
 * walkmesh cannot hold or an index no table has, converted to a .wok as `walkmesh convert`
 * does, then checked as `walkmesh validate` does. The verdict is the validator's: no error,
 * else the conversion must have been refused, naming the file and writing nothing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"

#define LARGEST_TEXT (32 * 1024)
#define NUMBERS_PER_FILE 120

static const char *const hostile_values[] = {"3e38", "-3.4e38", "1e39", "10000001", "-1e7", "inf", "nan", "1e-40",
                                             "4294967295"};

typedef struct tally {
    unsigned refused, valid;
} tally;

/* The next whitespace-delimited number at or after *at outside '#' comment lines, as [start, end). */
static int next_number(const char *text, size_t size, size_t *at, size_t *start, size_t *end)
{
    size_t i = *at;
    while (i < size) {
        if (text[i] == '#' && (i == 0 || text[i - 1] == '\n' || text[i - 1] == ' ' || text[i - 1] == '\t')) {
            while (i < size && text[i] != '\n') i++;
            continue;
        }
        if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') {
            i++;
            continue;
        }
        size_t s = i;
        while (i < size && text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '\n') i++;
        char word[64];
        if (i - s >= sizeof word) continue;
        memcpy(word, text + s, i - s);
        word[i - s] = '\0';
        char *stop;
        (void)strtod(word, &stop);
        if (stop != word && *stop == '\0') {
            *start = s, *end = i, *at = i;
            return 1;
        }
    }
    return 0;
}

/* The text with [start, end) replaced by value, converted and validated. */
static void convert_one(const char *text, size_t size, size_t start, size_t end, const char *value,
                        const char *in, const char *out, tally *t)
{
    size_t n = strlen(value), total = size - (end - start) + n;
    char *edited = malloc(total);
    assert_non_null(edited);
    memcpy(edited, text, start);
    memcpy(edited + start, value, n);
    memcpy(edited + start + n, text + end, size - end);
    wmt_write_file(in, edited, total);
    free(edited);
    remove(out);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (wm_convert(&ctx, in, out, NULL, NULL, NULL, 1) != WM_OK) {
        if (wm_file_exists(out)) fail_msg("offset %zu = %s: refused (%s) but wrote %s", start, value, wm_ctx_message(&ctx), out);
        if (!strstr(wm_ctx_message(&ctx), in)) fail_msg("offset %zu = %s: the message names no file: %s", start, value, wm_ctx_message(&ctx));
        t->refused++;
        return;
    }
    wm_report report;
    wm_report_init(&report, &ctx);
    assert_int_equal(wm_validate(&ctx, out, NULL, NULL, &report), WM_OK);
    if (report.errors) fail_msg("offset %zu = %s: converted, but validate finds %u errors", start, value, report.errors);
    wm_report_free(&report);
    t->valid++;
}

static void sweep_file(const char *path, const char *dir, tally *t)
{
    size_t size;
    uint8_t *data = wmt_read_file(path, &size);
    if (size > LARGEST_TEXT || !bwm_is_text(data, size)) {
        free(data);
        return;
    }
    const char *ext = strstr(path, ".pwk") ? "in.pwk" : strstr(path, ".ascii") ? "in.wok.ascii" : "in.wok";
    char *in = wmt_join(dir, ext), *out = wmt_join(dir, "out.wok");
    size_t at = 0, start, end;
    for (int k = 0; k < NUMBERS_PER_FILE && next_number((const char *)data, size, &at, &start, &end); k++)
        for (size_t v = 0; v < sizeof hostile_values / sizeof hostile_values[0]; v++)
            convert_one((const char *)data, size, start, end, hostile_values[v], in, out, t);
    free(in), free(out), free(data);
}

/* The folder listed first: a corpus without it skips before anything is held. */
static void sweep_folder(const char *folder)
{
    static const char *const suffixes[] = {".ascii", ".wok", ".pwk", ".dwk", NULL};
    char **files = NULL;
    size_t count = wmt_corpus_list(folder, suffixes, &files);
    char *dir = wmt_make_temp_dir();
    tally t = {0, 0};
    for (size_t i = 0; i < count; i++) sweep_file(files[i], dir, &t);
    wmt_free_list(files, count);
    wmt_remove_tree(dir);
    free(dir);
    print_message("%s: %u hostile texts: %u refused, %u converted to a .wok that validates\n", folder,
                  t.refused + t.valid, t.refused, t.valid);
    assert_true(t.refused > 0 && t.valid > 0);
}

/* KotOR's .wok.ascii (KOTORMax, PyKotor) */
static void test_kotor_texts_refused_or_valid(void **state)
{
    (void)state;
    sweep_folder("bwm");
}

/* NWN1's text behind .wok and .pwk */
static void test_nwn1_texts_refused_or_valid(void **state)
{
    (void)state;
    sweep_folder("bwm-models");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kotor_texts_refused_or_valid),
        cmocka_unit_test(test_nwn1_texts_refused_or_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
