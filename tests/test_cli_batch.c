/* The command line's batches, standard input and output, and refusals: a batch writes the
 * files one-at-a-time runs write, whatever --jobs; '-' reads standard input and writes
 * standard output; an extension walkmesh cannot write is an error that writes nothing. */
#define _GNU_SOURCE
#include "test_support.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs the CLI with standard input from in_file and standard output into out_file. */
static int run_piped(const char *in_file, const char *out_file, const char *const *argv)
{
    const char *cli = getenv("WALKMESH_CLI");
    assert_non_null(cli);
    char *full[32] = {(char *)cli};
    for (int i = 0; argv[i] && i < 30; i++)
        full[i + 1] = (char *)argv[i];
    pid_t pid = fork();
    if (pid == 0) {
        int in = open(in_file, O_RDONLY), out = open(out_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0)
            _exit(126);
        dup2(in, STDIN_FILENO);
        dup2(out, STDOUT_FILENO);
        execv(cli, full);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void assert_same_file(const char *a, const char *b)
{
    size_t size_a, size_b;
    uint8_t *da = wmt_read_file(a, &size_a), *db = wmt_read_file(b, &size_b);
    if (!da || !db || size_a != size_b || memcmp(da, db, size_a) != 0)
        fail_msg("%s and %s differ", a, b);
    free(da);
    free(db);
}

/* DIR/NAME */
static char *in_dir(const char *dir, const char *name)
{
    return wmt_join(dir, name);
}

static void convert_batch_equals_single_runs(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir(), *obj = wmt_sample_path("courtyard.obj"), *two = wmt_sample_path("two_rooms.obj");
    char *serial = in_dir(dir, "serial"), *parallel = in_dir(dir, "parallel/nested");
    const char *j1[] = {"convert", obj, two, "-o", serial, "--to", "wok", "-j", "1", "-q", NULL};
    const char *j2[] = {"convert", obj, two, "-o", parallel, "--to", "wok", "--jobs=2", "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, j1), 0);
    assert_int_equal(wmt_run_cli(NULL, NULL, j2), 0); /* nested folder created */
    const char *names[] = {"courtyard.wok", "two_rooms.wok"};
    const char *inputs[] = {obj, two};
    for (int i = 0; i < 2; i++) {
        char *single = in_dir(dir, names[i]), *a = in_dir(serial, names[i]), *b = in_dir(parallel, names[i]);
        const char *one[] = {"convert", inputs[i], single, "-q", NULL};
        assert_int_equal(wmt_run_cli(NULL, NULL, one), 0);
        assert_same_file(single, a);
        assert_same_file(single, b);
        free(single);
        free(a);
        free(b);
    }
    /* the batch's JSON summary: one object per input, in input order */
    char *out = NULL, *again = in_dir(dir, "again");
    const char *json[] = {"convert", obj, two, "-o", again, "--to", "obj", "--json", NULL};
    assert_int_equal(wmt_run_cli(&out, NULL, json), 0);
    char *first = strstr(out, "courtyard.obj"), *second = strstr(out, "two_rooms.obj");
    assert_true(out[0] == '[' && first && second && first < second);
    free(out);
    free(again);
    wmt_remove_tree(dir);
    free(serial);
    free(parallel);
    free(obj);
    free(two);
    free(dir);
}

static void bake_batch_equals_single_runs(void **state)
{
    (void)state;
    char *paths[] = {wmt_corpus_path("nwn2/enter_world.trx"), wmt_corpus_path("nwn2/condemned_caves.trx"),
                     wmt_corpus_path("nwn2/arcanevault_entry.trx")};
    wmt_require_all(paths, 3);
    char *dir = wmt_make_temp_dir(), *batch = in_dir(dir, "batch");
    const char *argv[] = {"bake", paths[0], paths[1], paths[2], "-o", batch, "-j2", NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, argv), 0);
    /* a progress line per file, unless -q */
    assert_non_null(strstr(err, "[3/3]"));
    free(err);
    const char *names[] = {"enter_world.trx", "condemned_caves.trx", "arcanevault_entry.trx"};
    for (int i = 0; i < 3; i++) {
        char *single = in_dir(dir, names[i]), *batched = in_dir(batch, names[i]);
        /* alone on three threads, where the batch baked each file on one (condemned_caves has
         * over 1 MiB of walkmesh to deflate after its first changed byte: deflated in pieces) */
        const char *one[] = {"bake", paths[i], "-o", single, "--threads", "3", "-q", NULL};
        assert_int_equal(wmt_run_cli(NULL, NULL, one), 0);
        assert_same_file(single, batched);
        free(single);
        free(batched);
    }
    /* standard input to standard output: the same bytes */
    char *piped = in_dir(dir, "piped.trx"), *single = in_dir(dir, names[0]);
    const char *stream[] = {"bake", "-", "-o", "-", "-q", NULL};
    assert_int_equal(run_piped(paths[0], piped, stream), 0);
    assert_same_file(single, piped);
    free(piped);
    free(single);
    wmt_remove_tree(dir);
    free(batch);
    free(dir);
    for (int i = 0; i < 3; i++)
        free(paths[i]);
}

static void query_reads_standard_input(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir(), *obj = wmt_sample_path("courtyard.obj"), *wok = in_dir(dir, "court.wok");
    const char *make[] = {"convert", obj, wok, "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, make), 0);
    char *from_file = NULL;
    const char *direct[] = {"query", wok, "raycast", "0", "0", "100", "0", "0", "-1", NULL};
    assert_int_equal(wmt_run_cli(&from_file, NULL, direct), 0);
    char *piped = in_dir(dir, "piped.txt");
    const char *stream[] = {"query", "-", "raycast", "0", "0", "100", "0", "0", "-1", NULL};
    assert_int_equal(run_piped(wok, piped, stream), 0);
    size_t size;
    char *from_stdin = (char *)wmt_read_file(piped, &size);
    assert_int_equal(size, strlen(from_file));
    assert_memory_equal(from_stdin, from_file, size);
    /* info and convert read standard input too; convert writes a WOK to standard output */
    char *info_piped = in_dir(dir, "info.txt"), *direct_info = NULL;
    const char *info_stream[] = {"info", "-", NULL}, *info_file[] = {"info", wok, NULL};
    assert_int_equal(run_piped(wok, info_piped, info_stream), 0);
    assert_int_equal(wmt_run_cli(&direct_info, NULL, info_file), 0);
    char *streamed_info = (char *)wmt_read_file(info_piped, &size); /* not NUL-terminated */
    const char *streamed_rest = memchr(streamed_info, '\n', size), *direct_rest = strchr(direct_info, '\n');
    size_t rest = size - (size_t)(streamed_rest - streamed_info); /* all but "file: ..." */
    assert_int_equal(rest, strlen(direct_rest));
    assert_memory_equal(streamed_rest, direct_rest, rest);
    free(streamed_info);
    free(direct_info);
    free(info_piped);
    char *wok_piped = in_dir(dir, "piped.wok");
    const char *to_stdout[] = {"convert", obj, "-", "--to", "wok", NULL};
    assert_int_equal(run_piped(wok, wok_piped, to_stdout), 0);
    assert_same_file(wok, wok_piped);
    free(wok_piped);
    /* nothing there: exit status 6, the JSON says found: false */
    char *out = NULL;
    const char *nothing[] = {"query", wok, "height", "-9999", "9999", "--json", NULL};
    assert_int_equal(wmt_run_cli(&out, NULL, nothing), 6);
    assert_non_null(strstr(out, "\"found\": false"));
    free(out);
    free(from_stdin);
    free(from_file);
    free(piped);
    wmt_remove_tree(dir);
    free(wok);
    free(obj);
    free(dir);
}

/* An output extension walkmesh cannot write: exit 4, nothing written (render -o x.png once
 * wrote an SVG named x.png). */
static void unwritable_extensions_write_nothing(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir(), *obj = wmt_sample_path("courtyard.obj"), *png = in_dir(dir, "x.png");
    const char *render[] = {"render", obj, "-o", png, NULL};
    const char *convert[] = {"convert", obj, png, NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, render), 4);
    assert_non_null(strstr(err, "cannot write .png"));
    free(err);
    assert_int_equal(wmt_run_cli(NULL, NULL, convert), 4);
    const char *named[] = {"convert", obj, png, "--to", "svg", NULL}; /* --to does not make x.png an SVG */
    assert_int_equal(wmt_run_cli(NULL, NULL, named), 4);
    assert_false(access(png, F_OK) == 0);
    /* several files: a folder of SVG pictures */
    char *pictures = in_dir(dir, "pictures"), *two = wmt_sample_path("two_rooms.obj");
    const char *many[] = {"render", obj, two, "-o", pictures, "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, many), 0);
    char *a = in_dir(pictures, "courtyard.svg"), *b = in_dir(pictures, "two_rooms.svg");
    assert_true(access(a, F_OK) == 0 && access(b, F_OK) == 0);
    free(a);
    free(b);
    free(two);
    free(pictures);
    wmt_remove_tree(dir);
    free(png);
    free(obj);
    free(dir);
}

static void near_misses_get_a_suggestion(void **state)
{
    (void)state;
    char *err = NULL;
    const char *command[] = {"infp", NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, command), 1);
    assert_string_equal(err, "walkmesh: unknown command 'infp'; did you mean 'info'? (see 'walkmesh --help')\n");
    free(err);
    const char *far[] = {"frobnicate", NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, far), 1);
    assert_null(strstr(err, "did you mean"));
    free(err);
    const char *jobs[] = {"bake", "x.trx", "-o", "y.trx", "--jbos", "2", NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, jobs), 1);
    assert_non_null(strstr(err, "did you mean '--jobs'?"));
    free(err);
    const char *zero[] = {"convert", "a.wok", "-o", "d", "--to", "obj", "-j", "0", NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, zero), 1);
    assert_non_null(strstr(err, "-j 0"));
    free(err);
    char *version = NULL;
    const char *short_version[] = {"-V", NULL};
    assert_int_equal(wmt_run_cli(&version, NULL, short_version), 0);
    assert_string_equal(version, "walkmesh " WALKMESH_VERSION "\n");
    free(version);
}

/* Batch outputs are named by the name guard: two inputs whose outputs differ only in case are
 * one file where names ignore case (refused before anything is written, naming both); a file
 * name holding a backslash or ':' (a plain character on Linux) becomes '_', not a folder;
 * an input named like a Windows device is refused. */
static void batch_output_names_pass_the_guard(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir(), *obj = wmt_sample_path("courtyard.obj");
    char *a = in_dir(dir, "a"), *b = in_dir(dir, "b"), *out = in_dir(dir, "out");
    mkdir(a, 0777), mkdir(b, 0777);
    char *upper = in_dir(a, "Room.obj"), *lower = in_dir(b, "room.obj"), *odd = in_dir(a, "x\\y:z.obj");
    char *device = in_dir(b, "con.obj");
    size_t size;
    uint8_t *data = wmt_read_file(obj, &size);
    const char *copies[] = {upper, lower, odd, device};
    for (int i = 0; i < 4; i++)
        wmt_write_file(copies[i], data, size);
    free(data);
    char *err = NULL;
    const char *twins[] = {"convert", upper, lower, "-o", out, "--to", "wok", "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, &err, twins), 3);
    assert_true(strstr(err, upper) && strstr(err, lower));
    struct stat st;
    char *written = in_dir(out, "Room.wok");
    assert_int_not_equal(stat(written, &st), 0); /* nothing written */
    free(written), free(err);
    const char *odd_name[] = {"convert", odd, "-o", out, "--to", "wok", "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, odd_name), 0);
    char *flat = in_dir(out, "x_y_z.wok");
    assert_int_equal(stat(flat, &st), 0);
    const char *dev[] = {"convert", device, "-o", out, "--to", "wok", "-q", NULL};
    err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, dev), 3);
    assert_non_null(strstr(err, "device"));
    free(err), free(flat), free(upper), free(lower), free(odd), free(device);
    wmt_remove_tree(dir);
    free(a), free(b), free(out), free(obj), free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(convert_batch_equals_single_runs),
        cmocka_unit_test(bake_batch_equals_single_runs),
        cmocka_unit_test(query_reads_standard_input),
        cmocka_unit_test(unwritable_extensions_write_nothing),
        cmocka_unit_test(near_misses_get_a_suggestion),
        cmocka_unit_test(batch_output_names_pass_the_guard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
