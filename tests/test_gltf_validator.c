/* walkmesh's glTF and GLB output checked by the Khronos glTF validator (npm
 * package gltf-validator, run by node): no errors, for the shipped sample and
 * one real file of each game format. CI installs the package into the build
 * tree (WALKMESH_GLTF_VALIDATOR); without node or the package the test skips. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs node on the validation script over the files; returns its exit code, output in *log. */
static int run_validator(const char *node, const char *prefix, const char *dir, char **files, size_t count,
                         char **log)
{
    char *script = wmt_test_data_path("gltf_validate.js");
    char *log_path = wmt_join(dir, "validator.log");
    const char *argv[32] = {node, script, prefix};
    size_t argc = 3;
    for (size_t i = 0; i < count && argc < 31; i++)
        argv[argc++] = files[i];
    argv[argc] = NULL;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        execv(node, (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    size_t size;
    uint8_t *bytes = wmt_read_file(log_path, &size);
    *log = calloc(size + 1, 1); /* text for strstr */
    memcpy(*log, bytes, size);
    free(bytes);
    free(script);
    free(log_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Converts each source that is present to <i>.gltf (+ .bin) and <i>.glb in dir. */
static size_t convert_sources(const char *dir, char **sources, size_t count, char **outputs)
{
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        if (!sources[i])
            continue;
        for (int binary = 0; binary < 2; binary++) {
            char name[32];
            snprintf(name, sizeof name, "out%zu.%s", i, binary ? "glb" : "gltf");
            char *out = wmt_join(dir, name);
            const char *argv[] = {"convert", sources[i], out, "--quiet", NULL};
            if (wmt_run_cli(NULL, NULL, argv) != 0)
                fail_msg("convert %s %s failed", sources[i], out);
            outputs[n++] = out;
        }
    }
    return n;
}

static void outputs_pass_the_khronos_validator(void **state)
{
    (void)state;
    const char *prefix = getenv("WALKMESH_GLTF_VALIDATOR");
    if (!prefix) {
        print_message("WALKMESH_GLTF_VALIDATOR not set (run the tests through ctest): skipping\n");
        skip();
    }
    char *node = wmt_working_program_or_skip("node", "--version");
    char *sources[] = {wmt_sample_path("courtyard.obj"), wmt_corpus_path("bwm/k1cp-m12aa_01f.wok"),
                       wmt_corpus_path("nwn2/abandoned_house.trx"),
                       wmt_corpus_path("wmo/blizzardry__trolltent.wmo")};
    size_t count = sizeof sources / sizeof sources[0];
    char *dir = wmt_make_temp_dir();
    char *outputs[8];
    size_t n = convert_sources(dir, sources, count, outputs);
    char *log = NULL;
    int code = run_validator(node, prefix, dir, outputs, n, &log);
    print_message("%s", log);
    if (code == 2) {
        print_message("the npm package gltf-validator is not installed: skipping\n");
    } else {
        assert_int_equal(code, 0);
        assert_non_null(strstr(log, "out0.glb: 0 errors"));
    }
    for (size_t i = 0; i < n; i++)
        free(outputs[i]);
    for (size_t i = 0; i < count; i++)
        free(sources[i]);
    wmt_remove_tree(dir);
    free(dir), free(log), free(node);
    if (code == 2)
        skip();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(outputs_pass_the_khronos_validator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
