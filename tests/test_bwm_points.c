/* What a .wok holds beyond triangles (header position, PWK/DWK use hooks)
 * through OBJ and glTF without --base: every corpus walkmesh converted out
 * and back with the CLI keeps its position and hooks bit-exact. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"

static void round_trip(const char *path, const char *dir, const char *ext, uint32_t *kept, uint32_t *total)
{
    char name[64], back_name[64];
    const char *dot = strrchr(path, '.');
    snprintf(name, sizeof name, "mesh.%s", ext);
    snprintf(back_name, sizeof back_name, "back%s", dot);
    char *mid = wmt_join(dir, name), *back = wmt_join(dir, back_name);
    const char *out[] = {"convert", path, mid, "--force", "--quiet", NULL};
    const char *in[] = {"convert", mid, back, "--force", "--quiet", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, out), 0);
    assert_int_equal(wmt_run_cli(NULL, NULL, in), 0);
    bwm_file a, b;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    if (bwm_read_file(&ctx, path, &a) || bwm_read_file(&ctx, back, &b)) fail_msg("%s", wm_ctx_message(&ctx));
    int same = !memcmp(a.position, b.position, sizeof a.position) && !memcmp(a.rel_hook, b.rel_hook, sizeof a.rel_hook) &&
               !memcmp(a.abs_hook, b.abs_hook, sizeof a.abs_hook);
    if (!same) print_message("%s through %s: position or hooks lost\n", wm_path_file_name(path), ext);
    *kept += same;
    (*total)++;
    bwm_file_free(&ctx, &a);
    bwm_file_free(&ctx, &b);
    free(mid);
    free(back);
}

static void test_position_and_hooks_survive_interchange(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".wok", ".pwk", ".dwk", NULL};
    static const char *const exts[] = {"obj", "glb"};
    char **list = NULL;
    size_t n = wmt_corpus_list("bwm", suffixes, &list);
    char *dir = wmt_make_temp_dir();
    for (size_t e = 0; e < 2; e++) {
        uint32_t kept = 0, total = 0;
        for (size_t i = 0; i < n; i++) round_trip(list[i], dir, exts[e], &kept, &total);
        print_message("%s: %u of %u keep position and hooks\n", exts[e], kept, total);
        assert_int_equal(kept, total);
    }
    wmt_remove_tree(dir);
    free(dir);
    wmt_free_list(list, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_position_and_hooks_survive_interchange),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
