/* All-or-nothing output under faults: a full disk and SIGTERM during a multi-file --force
 * write (WMO root + groups, OBJ + MTL, glTF + BIN) or a write into an archive leave either
 * every old file or every new one and no temporary. SIGKILL cannot be caught, and it can land between two renames: then
 * every target is still whole (old or new), the main output is new only once every side
 * output is, and the only extra files are named temporaries holding a whole new file. Two
 * writers without --force racing for the same outputs: exactly one succeeds. The old and new
 * file sets are made by the CLI from two real NWN2 areas; what is compared is the bytes on
 * disk. */
#define _GNU_SOURCE
#include "test_support.h"

#include "archive_test_writer.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILES 64

typedef struct file_set {
    char *names[MAX_FILES];
    uint8_t *data[MAX_FILES];
    size_t sizes[MAX_FILES];
    size_t count;
} file_set;

static void set_read(file_set *set, const char *dir)
{
    memset(set, 0, sizeof *set);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL && set->count < MAX_FILES) {
        if (e->d_name[0] == '.')
            continue;
        char *path = wmt_join(dir, e->d_name);
        set->names[set->count] = strdup(e->d_name);
        set->data[set->count] = wmt_read_file(path, &set->sizes[set->count]);
        set->count++;
        free(path);
    }
    closedir(d);
}

static void set_free(file_set *set)
{
    for (size_t i = 0; i < set->count; i++) {
        free(set->names[i]);
        free(set->data[i]);
    }
    set->count = 0;
}

static int set_equal(const file_set *a, const file_set *b)
{
    if (a->count != b->count)
        return 0;
    for (size_t i = 0; i < a->count; i++) {
        size_t j = 0;
        while (j < b->count && strcmp(a->names[i], b->names[j]) != 0)
            j++;
        if (j == b->count || a->sizes[i] != b->sizes[j] || memcmp(a->data[i], b->data[j], a->sizes[i]) != 0)
            return 0;
    }
    return 1;
}

static const uint8_t *set_find(const file_set *set, const char *name, size_t name_length, size_t *size)
{
    for (size_t i = 0; i < set->count; i++)
        if (strlen(set->names[i]) == name_length && memcmp(set->names[i], name, name_length) == 0) {
            *size = set->sizes[i];
            return set->data[i];
        }
    return NULL;
}

static int file_is(const uint8_t *data, size_t size, const uint8_t *expected, size_t expected_size)
{
    return expected && size == expected_size && memcmp(data, expected, size) == 0;
}

/* What a SIGKILL between two renames may leave (see the top of this file); main is the
 * output named on the command line. Returns 1 when the folder is such a state. */
static int whole_files_only(const file_set *now, const file_set *old_set, const file_set *new_set, const char *main)
{
    int main_is_new = 0, every_side_new = 1;
    for (size_t i = 0; i < now->count; i++) {
        const char *name = now->names[i];
        const char *temp = strstr(name, ".tmp-");
        size_t base_length = temp ? (size_t)(temp - name) : strlen(name), old_size = 0, new_size = 0;
        const uint8_t *old_data = set_find(old_set, name, base_length, &old_size);
        const uint8_t *new_data = set_find(new_set, name, base_length, &new_size);
        int is_new = file_is(now->data[i], now->sizes[i], new_data, new_size);
        if (temp ? !is_new : !is_new && !file_is(now->data[i], now->sizes[i], old_data, old_size))
            return 0;
        if (temp)
            continue;
        if (strcmp(name, main) == 0)
            main_is_new = is_new && !file_is(now->data[i], now->sizes[i], old_data, old_size);
        else
            every_side_new &= is_new;
    }
    for (size_t i = 0; i < new_set->count; i++) { /* a new side output not there yet */
        size_t size = 0;
        if (strcmp(new_set->names[i], main) != 0 &&
            !set_find(now, new_set->names[i], strlen(new_set->names[i]), &size))
            every_side_new = 0;
    }
    return !main_is_new || every_side_new;
}

static int run_cli_in(const char *dir, const char *const *args)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        execv(getenv("WALKMESH_CLI"), (char *const *)args);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

typedef struct scenario {
    const char *output;
    const char *extra; /* one more option, or NULL */
    const char *extra_value;
} scenario;

static const scenario scenarios[] = {
    {"out.wmo", "--max-group-triangles", "4000"}, /* a root and several groups */
    {"out.obj", NULL, NULL},                      /* OBJ + MTL */
    {"out.gltf", NULL, NULL},                     /* glTF + BIN */
};

/* Converts input into dir/<output> with --force (and the scenario's option). */
static const char **convert_args(const char *input, const scenario *s, const char *args[10])
{
    size_t n = 0;
    args[n++] = getenv("WALKMESH_CLI");
    args[n++] = "convert";
    args[n++] = input;
    args[n++] = s->output;
    args[n++] = "--force";
    args[n++] = "-q";
    if (s->extra) {
        args[n++] = s->extra;
        args[n++] = s->extra_value;
    }
    args[n] = NULL;
    return args;
}

/* The file set a finished conversion leaves in an empty folder. */
static void reference_set(const char *input, const scenario *s, file_set *out)
{
    char *dir = wmt_make_temp_dir();
    const char *args[10];
    assert_int_equal(run_cli_in(dir, convert_args(input, s, args)), 0);
    set_read(out, dir);
    assert_true(out->count >= 2);
    wmt_remove_tree(dir);
    free(dir);
}

static void write_set(const char *dir, const file_set *set)
{
    for (size_t i = 0; i < set->count; i++) {
        char *path = wmt_join(dir, set->names[i]);
        wmt_write_file(path, set->data[i], set->sizes[i]);
        free(path);
    }
}

/* Starts the conversion over the old set, signals it after delay_us, and checks the folder. */
static int interrupted_write(const char *input, const scenario *s, const file_set *old_set,
                             const file_set *new_set, int sig, long delay_us)
{
    char *dir = wmt_make_temp_dir();
    write_set(dir, old_set);
    const char *args[10];
    convert_args(input, s, args);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        execv(args[0], (char *const *)args);
        _exit(127);
    }
    struct timespec wait = {delay_us / 1000000, (delay_us % 1000000) * 1000};
    nanosleep(&wait, NULL);
    kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    file_set now;
    set_read(&now, dir);
    int old = set_equal(&now, old_set), fresh = set_equal(&now, new_set);
    if (!old && !fresh && !(sig == SIGKILL && whole_files_only(&now, old_set, new_set, s->output))) {
        for (size_t i = 0; i < now.count; i++)
            print_error("  %s (%zu bytes)\n", now.names[i], now.sizes[i]);
        fail_msg("%s after signal %d at %ld us: neither all old nor all new files (nor whole files after SIGKILL)",
                 s->output, sig, delay_us);
    }
    set_free(&now);
    wmt_remove_tree(dir);
    free(dir);
    return fresh;
}

static void signals_during_multi_file_writes(void **state)
{
    (void)state;
    char *a = wmt_corpus_path("nwn2/condemned_caves.trx"), *b = wmt_corpus_path("nwn2/abandoned_house.trx");
    char *paths[2] = {a, b};
    wmt_require_all(paths, 2);
    static const int sigs[2] = {SIGTERM, SIGKILL};
    for (size_t k = 0; k < sizeof scenarios / sizeof scenarios[0]; k++) {
        file_set old_set, new_set;
        reference_set(b, &scenarios[k], &old_set);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        reference_set(a, &scenarios[k], &new_set);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        long duration_us = (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000;
        int differ = !set_equal(&old_set, &new_set);
        /* delays from the start of the process to twice its measured length (this machine,
         * this build): every phase gets hit, so both outcomes must show up */
        int fresh = 0, runs = 0;
        for (int sig = 0; differ && sig < 2; sig++)
            for (long step = 0; step < 8; step++, runs++)
                fresh += interrupted_write(a, &scenarios[k], &old_set, &new_set, sigs[sig], duration_us * step / 4);
        set_free(&old_set);
        set_free(&new_set);
        assert_true(differ);
        assert_true(fresh > 0 && fresh < runs);
    }
    free(a);
    free(b);
}

/* Writers started together without --force: one wins, the others are refused, and the
 * outputs are the winner's complete set. */
static void racing_writers_without_force(void **state)
{
    (void)state;
    char *a = wmt_corpus_path_or_skip("nwn2/abandoned_house.trx");
    const scenario *s = &scenarios[1];
    file_set expected;
    reference_set(a, s, &expected);
    for (int round = 0; round < 6; round++) {
        char *dir = wmt_make_temp_dir();
        int gate[2];
        assert_int_equal(pipe(gate), 0);
        pid_t pids[4];
        for (int w = 0; w < 4; w++) {
            pids[w] = fork();
            assert_true(pids[w] >= 0);
            if (pids[w] == 0) {
                char byte;
                close(gate[1]);
                if (read(gate[0], &byte, 1) < 0 || chdir(dir) != 0)
                    _exit(126);
                execl(getenv("WALKMESH_CLI"), "walkmesh", "convert", a, s->output, "-q", (char *)NULL);
                _exit(127);
            }
        }
        close(gate[0]);
        close(gate[1]); /* all four start now */
        int succeeded = 0, refused = 0;
        for (int w = 0; w < 4; w++) {
            int status = 0;
            waitpid(pids[w], &status, 0);
            succeeded += WIFEXITED(status) && WEXITSTATUS(status) == 0;
            refused += WIFEXITED(status) && WEXITSTATUS(status) == 3;
        }
        assert_int_equal(succeeded, 1);
        assert_int_equal(refused, 3);
        file_set now;
        set_read(&now, dir);
        assert_true(set_equal(&now, &expected));
        set_free(&now);
        wmt_remove_tree(dir);
        free(dir);
    }
    set_free(&expected);
    free(a);
}

/* A tmpfs too small for the new outputs: the write fails, the old ones stay whole. */
static void full_disk_keeps_old_outputs(void **state)
{
    (void)state;
    char *a = wmt_corpus_path("nwn2/condemned_caves.trx"), *b = wmt_corpus_path("nwn2/abandoned_house.trx");
    char *paths[2] = {a, b};
    wmt_require_all(paths, 2);
    char *dir = wmt_make_temp_dir();
    if (mount("walkmesh-test", dir, "tmpfs", 0, "size=256k") != 0) {
        wmt_remove_tree(dir);
        free(dir);
        free(a);
        free(b);
        skip(); /* mounting needs privileges this run does not have */
    }
    for (size_t k = 0; k < sizeof scenarios / sizeof scenarios[0]; k++) {
        file_set old_set;
        reference_set(b, &scenarios[k], &old_set);
        write_set(dir, &old_set);
        const char *args[10];
        int code = run_cli_in(dir, convert_args(a, &scenarios[k], args));
        file_set now;
        set_read(&now, dir);
        assert_int_equal(code, 3); /* the output could not be written */
        assert_true(set_equal(&now, &old_set));
        for (size_t i = 0; i < now.count; i++) {
            char *path = wmt_join(dir, now.names[i]);
            unlink(path);
            free(path);
        }
        set_free(&now);
        set_free(&old_set);
    }
    umount(dir);
    wmt_remove_tree(dir);
    free(dir);
    free(a);
    free(b);
}

/* Writing into an archive: the archive is one output, whole old or whole new after SIGTERM or
 * SIGKILL at any moment, and untouched when the disk is full. The old archive holds a small NWN2
 * area's TRX; the new one the large area's in its place. */
static const scenario in_archive = {"a.mod/area.trx", NULL, NULL};

static long archive_sets(const char *small, const char *large, file_set *old_set, file_set *new_set)
{
    atw_member m[1] = {{.name = "area", .extension = "trx", .type = 3035}};
    m[0].data = wmt_read_file(small, &m[0].size);
    char *dir = wmt_make_temp_dir();
    free(atw_write(dir, ATW_ERF_V10, m, 1));
    char *erf = wmt_join(dir, "test.erf"), *mod = wmt_join(dir, "a.mod");
    assert_int_equal(rename(erf, mod), 0);
    set_read(old_set, dir);
    const char *args[10];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(run_cli_in(dir, convert_args(large, &in_archive, args)), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    set_read(new_set, dir);
    free(erf);
    free(mod);
    free(m[0].data);
    wmt_remove_tree(dir);
    free(dir);
    return (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000;
}

static void archive_writes_under_faults(void **state)
{
    (void)state;
    char *a = wmt_corpus_path("nwn2/condemned_caves.trx"), *b = wmt_corpus_path("nwn2/abandoned_house.trx");
    char *paths[2] = {a, b};
    wmt_require_all(paths, 2);
    file_set old_set, new_set;
    long duration_us = archive_sets(b, a, &old_set, &new_set);
    assert_false(set_equal(&old_set, &new_set));
    static const int sigs[2] = {SIGTERM, SIGKILL};
    int fresh = 0, runs = 0;
    for (int sig = 0; sig < 2; sig++)
        for (long step = 0; step < 8; step++, runs++)
            fresh += interrupted_write(a, &in_archive, &old_set, &new_set, sigs[sig], duration_us * step / 4);
    assert_true(fresh > 0 && fresh < runs);
    char *dir = wmt_make_temp_dir();
    if (mount("walkmesh-test", dir, "tmpfs", 0, "size=256k") == 0) { /* else: no privilege to mount */
        write_set(dir, &old_set);
        const char *args[10];
        assert_int_equal(run_cli_in(dir, convert_args(a, &in_archive, args)), 3);
        file_set now;
        set_read(&now, dir);
        assert_true(set_equal(&now, &old_set));
        set_free(&now);
        umount(dir);
    }
    wmt_remove_tree(dir);
    free(dir);
    set_free(&old_set);
    set_free(&new_set);
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(racing_writers_without_force),
        cmocka_unit_test(full_disk_keeps_old_outputs),
        cmocka_unit_test(signals_during_multi_file_writes),
        cmocka_unit_test(archive_writes_under_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
