#define _GNU_SOURCE
/* Assimp (and with it the C++ runtime and its codecs) is loaded only when a
 * format that needs it is read or written (issue 20), and Recast/Detour
 * (the walkmesh-recast module) only when a navmesh is built or queried
 * (issue 30): the CLI runs under the dynamic loader's own report
 * (LD_DEBUG=libs, glibc), which names every library it initialises. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A sanitizer runtime brings the C++ runtime along by itself. */
#if defined(__SANITIZE_ADDRESS__)
#define CXX_RUNTIME_EXPECTED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CXX_RUNTIME_EXPECTED 1
#endif
#endif
#ifndef CXX_RUNTIME_EXPECTED
#define CXX_RUNTIME_EXPECTED 0
#endif

typedef struct loaded {
    int assimp, cxx, recast;
} loaded;

static loaded run_and_watch(const char *const *argv)
{
#ifndef __GLIBC__
    skip();
#endif
    setenv("LD_DEBUG", "libs", 1);
    char *err = NULL;
    int rc = wmt_run_cli(NULL, &err, argv);
    unsetenv("LD_DEBUG");
    loaded seen = {0, 0, 0};
    for (char *line = err; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (!strstr(line, "calling init:"))
            continue;
        char *eol = strchr(line, '\n');
        size_t n = eol ? (size_t)(eol - line) : strlen(line);
        seen.assimp |= memmem(line, n, "libassimp", 9) != NULL;
        seen.cxx |= memmem(line, n, "libstdc++", 9) != NULL;
        seen.recast |= memmem(line, n, "walkmesh-recast", 15) || memmem(line, n, "libRecast", 9) ||
                       memmem(line, n, "libDetour", 9);
    }
    if (rc != 0)
        fail_msg("%s %s exit %d: %s", argv[0], argv[1], rc, err);
    free(err);
    return seen;
}

static void game_formats_and_our_obj_load_no_assimp(void **state)
{
    (void)state;
    char *trx = wmt_corpus_path_or_skip("nwn2/Defenders_Barracks.trx");
    char *obj = wmt_sample_path("courtyard.obj");
    char *dir = wmt_make_temp_dir();
    char *wok = wmt_join(dir, "courtyard.wok"), *copy = wmt_join(dir, "copy.obj");
    const char *info_trx[] = {"info", trx, NULL};
    const char *obj_to_wok[] = {"convert", obj, wok, "--quiet", NULL};
    const char *wok_to_obj[] = {"convert", wok, copy, "--quiet", NULL};
    const char *const *runs[] = {info_trx, obj_to_wok, wok_to_obj};
    for (size_t i = 0; i < 3; i++) {
        loaded seen = run_and_watch(runs[i]);
        print_message("%s %s: Assimp %s, C++ runtime %s\n", runs[i][0], wm_path_file_name(runs[i][1]),
                      seen.assimp ? "loaded" : "not loaded", seen.cxx ? "loaded" : "not loaded");
        assert_false(seen.assimp);
        assert_false(seen.recast);
        assert_int_equal(seen.cxx, CXX_RUNTIME_EXPECTED);
    }
    wmt_remove_tree(dir);
    free(trx), free(obj), free(dir), free(wok), free(copy);
}

/* glTF is written by walkmesh itself; DAE still through Assimp's exporter. */
static void gltf_output_needs_no_assimp_dae_loads_it(void **state)
{
    (void)state;
    char *obj = wmt_sample_path("courtyard.obj");
    char *dir = wmt_make_temp_dir();
    char *glb = wmt_join(dir, "courtyard.glb"), *dae = wmt_join(dir, "courtyard.dae");
    const char *obj_to_glb[] = {"convert", obj, glb, "--quiet", NULL};
    const char *obj_to_dae[] = {"convert", obj, dae, "--quiet", NULL};
    loaded seen = run_and_watch(obj_to_glb);
    assert_false(seen.assimp);
    assert_int_equal(seen.cxx, CXX_RUNTIME_EXPECTED);
    seen = run_and_watch(obj_to_dae);
    assert_true(seen.assimp);
    assert_true(seen.cxx);
    wmt_remove_tree(dir);
    free(obj), free(dir), free(glb), free(dae);
}

/* A WMO converted loads neither; the navmesh of the same WMO loads the module, Recast and
 * Detour, and the C++ runtime with them. */
static void only_a_navmesh_loads_recast(void **state)
{
    (void)state;
    wmt_require_recast();
    char *wmo = wmt_corpus_path_or_skip("wmo/warcraftnet__prisonHQ_Redridge.wmo");
    char *dir = wmt_make_temp_dir();
    char *obj = wmt_join(dir, "prison.obj"), *nav = wmt_join(dir, "prison.navmesh");
    const char *wmo_to_obj[] = {"convert", wmo, obj, "--quiet", NULL};
    const char *wmo_to_navmesh[] = {"navmesh", wmo, nav, "--quiet", NULL};
    loaded seen = run_and_watch(wmo_to_obj);
    assert_false(seen.recast);
    assert_int_equal(seen.cxx, CXX_RUNTIME_EXPECTED);
    seen = run_and_watch(wmo_to_navmesh);
    print_message("navmesh: Recast %s, C++ runtime %s\n", seen.recast ? "loaded" : "not loaded",
                  seen.cxx ? "loaded" : "not loaded");
    assert_true(seen.recast);
    assert_true(seen.cxx);
    assert_false(seen.assimp);
    wmt_remove_tree(dir);
    free(wmo), free(dir), free(obj), free(nav);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(game_formats_and_our_obj_load_no_assimp),
        cmocka_unit_test(gltf_output_needs_no_assimp_dae_loads_it),
        cmocka_unit_test(only_a_navmesh_loads_recast),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
