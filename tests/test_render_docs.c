/* The README's pictures are what its documented command makes: running
 * docs/pictures/make_pictures.sh with this build's CLI into a scratch
 * folder gives the committed SVGs byte for byte, and they are valid SVG 1.1. */
#define _GNU_SOURCE
#include "test_support.h"
#include "svg_inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const pictures[] = {"courtyard-wok.svg", "ramp-pwk-iso.svg", "courtyard-trx-path.svg",
                                       "courtyard-wmo-iso.svg"};

static void readme_pictures_are_current(void **state)
{
    (void)state;
    if (!svgt_have("python3")) { /* the NWN2 base is written by a Python script */
        print_message("python3 missing: skipped\n");
        skip();
    }
    const char *cli = getenv("WALKMESH_CLI");
    char *samples = wmt_sample_path(".");
    assert_non_null(cli);
    char *dir = wmt_make_temp_dir();
    /* the checkout is the samples folder's parent */
    char command[4096];
    snprintf(command, sizeof command, "cd '%s/..' && WALKMESH='%s' OUT='%s' sh docs/pictures/make_pictures.sh", samples,
             cli, dir);
    assert_int_equal(system(command), 0);
    char *made[4];
    for (int i = 0; i < 4; i++) {
        char committed_name[256];
        snprintf(committed_name, sizeof committed_name, "%s/../docs/pictures/%s", samples, pictures[i]);
        made[i] = wmt_join(dir, pictures[i]);
        char *fresh = svgt_load(made[i]), *committed = svgt_load(committed_name);
        if (strcmp(fresh, committed) != 0)
            fail_msg("docs/pictures/%s differs from what make_pictures.sh makes now: run it and commit", pictures[i]);
        free(fresh);
        free(committed);
    }
    if (svgt_have("xmllint"))
        assert_int_equal(svgt_validate((const char *const *)made, 4), 0);
    for (int i = 0; i < 4; i++)
        free(made[i]);
    wmt_remove_tree(dir);
    free(dir);
    free(samples);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(readme_pictures_are_current),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
