/* The tests' rule for outside programs (blender, node, python3, xmllint, rsvg-convert): one that
 * is absent, not executable, or exits 126 or 127 when started (the shell's and the dynamic
 * loader's "cannot run", as a program missing a library does) counts as absent, so the tests that
 * need it skip instead of failing; one that starts is used, whatever its exit code. The fake
 * programs are shell scripts written here into a scratch folder. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *fake_program(const char *dir, const char *name, const char *body, mode_t mode)
{
    char *path = wmt_join(dir, name);
    char script[512];
    int n = snprintf(script, sizeof script, "#!/bin/sh\n%s\n", body);
    wmt_write_file(path, script, (size_t)n);
    assert_int_equal(chmod(path, mode), 0);
    return path;
}

static void check(const char *program, int expect_found, const char *expect_why)
{
    const char *why = NULL;
    char *found = wmt_find_working_program(program, "--version", &why);
    if (expect_found) {
        assert_non_null(found);
        assert_null(why);
    } else {
        assert_null(found);
        assert_non_null(why);
        if (!strstr(why, expect_why))
            fail_msg("%s: \"%s\" does not say \"%s\"", program, why, expect_why);
    }
    free(found);
}

static void programs_that_cannot_run_count_as_absent(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *loader = fake_program(dir, "needs-a-library",
                                "echo 'needs-a-library: error while loading shared libraries: libgone.so.1' >&2; exit 127",
                                0755);
    char *refused = fake_program(dir, "refused", "exit 126", 0755);
    char *plain = fake_program(dir, "not-executable", "exit 0", 0644);
    char *fails = fake_program(dir, "starts-then-fails", "exit 1", 0755);
    char *missing = wmt_join(dir, "no-such-program");
    check(loader, 0, "exit 127");
    check(refused, 0, "exit 126");
    check(plain, 0, "not installed");
    check(missing, 0, "not installed");
    check(fails, 1, NULL);
    /* by name, through PATH, as the tests look programs up */
    const char *saved = getenv("PATH");
    char *old_path = saved ? strdup(saved) : NULL;
    setenv("PATH", dir, 1);
    check("needs-a-library", 0, "exit 127");
    check("starts-then-fails", 1, NULL);
    check("no-such-program", 0, "not installed");
    if (old_path)
        setenv("PATH", old_path, 1);
    free(old_path);
    wmt_remove_tree(dir);
    free(loader), free(refused), free(plain), free(fails), free(missing), free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(programs_that_cannot_run_count_as_absent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
