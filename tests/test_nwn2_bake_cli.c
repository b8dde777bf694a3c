/* walkmesh bake on the command line: help, exit codes, no surprise
 * overwrite, byte-identical output run to run and across thread counts,
 * cutters from a GIT, and the output validating. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static int run(char **out, char **err, const char *const *argv)
{
    int code = wmt_run_cli(out, err, argv);
    assert_int_not_equal(code, -1); /* never a crash */
    return code;
}

static void test_help_and_usage(void **state)
{
    (void)state;
    char *out = NULL, *err = NULL;
    const char *help[] = {"bake", "--help", NULL};
    assert_int_equal(run(&out, &err, help), 0);
    const char *options[] = {"-o OUT.trx", "--keep-borders", "--git AREA.git", "--cut-whole", "--threads N", "--force",
                             "127"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (!strstr(out, options[i]))
            fail_msg("bake --help lacks \"%s\"", options[i]);
    free(out);
    free(err);

    const char *no_output[] = {"bake", "in.trx", NULL};
    assert_int_equal(run(NULL, &err, no_output), 1);
    assert_non_null(strstr(err, "-o"));
    free(err);
    const char *bad_threads[] = {"bake", "in.trx", "-o", "x.trx", "--threads", "0", NULL};
    assert_int_equal(run(NULL, &err, bad_threads), 1);
    assert_non_null(strstr(err, "--threads"));
    free(err);
    const char *missing[] = {"bake", "/nonexistent/in.trx", "-o", "/nonexistent/out.trx", NULL};
    assert_int_equal(run(NULL, &err, missing), 2);
    assert_non_null(strstr(err, "/nonexistent/in.trx"));
    free(err);
}

static uint8_t *bake_to(const char *dir, const char *name, const char *in, const char *threads, const char *git,
                        size_t *size)
{
    char *out = wmt_join(dir, name);
    const char *argv[12] = {"bake", in, "-o", out, "--force", "--threads", threads, NULL};
    if (git) {
        argv[7] = "--git";
        argv[8] = git;
        argv[9] = NULL;
    }
    char *err = NULL;
    int code = run(NULL, &err, argv);
    if (code != 0)
        fail_msg("bake %s: exit %d: %s", in, code, err);
    free(err);
    uint8_t *data = wmt_read_file(out, size);
    free(out);
    return data;
}

static void test_deterministic_and_valid(void **state)
{
    (void)state;
    char *in = wmt_corpus_path_or_skip("nwn2/enter_world.trn");
    char *git = wmt_corpus_path_or_skip("nwn2/enter_world.GIT");
    char *dir = wmt_make_temp_dir();
    size_t s1, s2, s3;
    uint8_t *a = bake_to(dir, "a.trx", in, "1", git, &s1);
    uint8_t *b = bake_to(dir, "b.trx", in, "1", git, &s2);
    uint8_t *c = bake_to(dir, "c.trx", in, "2", git, &s3);
    assert_int_equal(s1, s2);
    assert_int_equal(s1, s3);
    assert_memory_equal(a, b, s1);
    assert_memory_equal(a, c, s1);
    free(a);
    free(b);
    free(c);

    char *out = wmt_join(dir, "a.trx"), *text = NULL;
    const char *validate[] = {"validate", out, NULL};
    assert_int_equal(run(&text, NULL, validate), 0);
    assert_non_null(strstr(text, "valid: 0 errors"));
    free(text);

    /* no surprise overwrite */
    char *err = NULL;
    const char *again[] = {"bake", in, "-o", out, NULL};
    assert_int_equal(run(NULL, &err, again), 3);
    assert_non_null(strstr(err, "--force"));
    free(err);
    free(out);
    wmt_remove_tree(dir);
    free(dir);
    free(in);
    free(git);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_usage),
        cmocka_unit_test(test_deterministic_and_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
