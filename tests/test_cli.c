/* The walkmesh command line: help, exit codes, one-line errors, no partial
 * or surprise output files, batch conversion. */
#define _GNU_SOURCE
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

static void every_command_has_help(void **state)
{
    (void)state;
    char *out = NULL;
    const char *top[] = {"--help", NULL};
    assert_int_equal(wmt_run_cli(&out, NULL, top), 0);
    /* Commands are listed as "  name   summary" after "Commands:". */
    char *list = strstr(out, "Commands:\n");
    assert_non_null(list);
    int commands = 0;
    for (char *line = strchr(list, '\n') + 1; line && strncmp(line, "  ", 2) == 0; line = strchr(line, '\n') + 1) {
        char name[32];
        assert_int_equal(sscanf(line, " %31s", name), 1);
        const char *argv[] = {name, "--help", NULL};
        char *help = NULL;
        if (wmt_run_cli(&help, NULL, argv) != 0 || !strcasestr(help, "usage: walkmesh"))
            fail_msg("'walkmesh %s --help' did not print usage", name);
        free(help);
        commands++;
    }
    assert_true(commands >= 4);
    free(out);
    const char *unknown[] = {"frobnicate", NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, unknown), 1);
    assert_non_null(strstr(err, "frobnicate"));
    free(err);
    const char *none[] = {NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, none), 1);
}

/* Runs convert IN OUT and checks the exit code, a single stderr line naming
 * IN, and that OUT was not created. */
static void expect_input_failure(const char *in, const char *out, int code)
{
    const char *argv[] = {"convert", in, out, NULL};
    char *err = NULL;
    int got = wmt_run_cli(NULL, &err, argv);
    if (got != code)
        fail_msg("convert %s: exit %d, expected %d (%s)", in, got, code, err);
    assert_int_equal(count_lines(err), 1);
    assert_non_null(strstr(err, in));
    assert_false(access(out, F_OK) == 0);
    free(err);
}

static void bad_inputs_get_one_line_and_no_output(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *out = wmt_join(dir, "out.gltf");
    char *missing = wmt_join(dir, "missing.obj");
    expect_input_failure(missing, out, 2);

    char *unknown = wmt_join(dir, "mesh.xyz");
    wmt_write_file(unknown, "some text that is no mesh\n", 26);
    expect_input_failure(unknown, out, 4);

    size_t size;
    char *sample = wmt_sample_path("courtyard.obj");
    uint8_t *obj = wmt_read_file(sample, &size);
    char *truncated = wmt_join(dir, "truncated.obj");
    /* Cut inside the face list: the last face line loses vertices. */
    const char *last_f = NULL;
    for (const char *p = (const char *)obj; (p = memmem(p, size - (size_t)(p - (const char *)obj), "\nf ", 3)); p++)
        last_f = p;
    assert_non_null(last_f);
    wmt_write_file(truncated, obj, (size_t)(last_f - (const char *)obj) + 5);
    expect_input_failure(truncated, out, 2);
    /* Cut inside the vertex list: a vertex with fewer than three coordinates. */
    const char *second_v = memmem(obj, size, "\nv ", 3);
    wmt_write_file(truncated, obj, (size_t)(second_v - (const char *)obj) + 5);
    expect_input_failure(truncated, out, 2);

    char *random_bytes = wmt_join(dir, "random.obj");
    uint8_t noise[2048];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof noise; i++) {
        x = x * 1103515245u + 12345u;
        noise[i] = (uint8_t)(x >> 16);
    }
    wmt_write_file(random_bytes, noise, sizeof noise);
    expect_input_failure(random_bytes, out, 2);

    /* Random bytes with an extension nobody claims and no recognisable content. */
    char *random_unknown = wmt_join(dir, "random.bin");
    wmt_write_file(random_unknown, noise, sizeof noise);
    expect_input_failure(random_unknown, out, 4);

    wmt_remove_tree(dir);
    free(obj);
    free(sample);
    free(truncated);
    free(random_bytes);
    free(random_unknown);
    free(unknown);
    free(missing);
    free(out);
    free(dir);
}

static void existing_outputs_need_force(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *out = wmt_join(dir, "court.gltf");
    wmt_write_file(out, "keep me", 7);
    char *sample = wmt_sample_path("courtyard.obj");
    const char *argv[] = {"convert", sample, out, NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, argv), 3);
    assert_non_null(strstr(err, "--force"));
    size_t size;
    uint8_t *kept = wmt_read_file(out, &size);
    assert_int_equal(size, 7);
    free(kept);
    free(err);
    const char *forced[] = {"convert", sample, out, "--force", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, forced), 0);
    kept = wmt_read_file(out, &size);
    assert_true(size > 7);
    free(kept);
    const char *bad_option[] = {"convert", sample, out, "--no-such-option", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, bad_option), 1);
    wmt_remove_tree(dir);
    free(sample);
    free(out);
    free(dir);
}

/* Extracts a JSON number after "key": in text (no full parser needed for our own flat output). */
static double json_number(const char *text, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\": ", key);
    const char *p = strstr(text, pattern);
    assert_non_null(p);
    return strtod(p + strlen(pattern), NULL);
}

static void info_agrees_across_a_conversion(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *obj = wmt_join(dir, "court.obj");
    char *sample = wmt_sample_path("courtyard.gltf");
    const char *convert[] = {"convert", sample, obj, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, convert), 0);
    const char *info_src[] = {"info", sample, "--json", NULL};
    const char *info_obj[] = {"info", obj, "--json", NULL};
    char *a = NULL, *b = NULL;
    assert_int_equal(wmt_run_cli(&a, NULL, info_src), 0);
    assert_int_equal(wmt_run_cli(&b, NULL, info_obj), 0);
    assert_true(json_number(a, "triangles") == 56 && json_number(b, "triangles") == 56);
    assert_true(json_number(a, "walkable") == json_number(b, "walkable"));
    const char *sa = strstr(a, "\"surfaces\""), *sb = strstr(b, "\"surfaces\"");
    assert_non_null(sa);
    assert_non_null(sb);
    assert_memory_equal(sa, sb, (size_t)(strstr(sa, "}}") - sa));
    /* bounds within 1e-5 */
    const char *ba = strstr(a, "\"bounds\""), *bb = strstr(b, "\"bounds\"");
    float va[6], vb[6];
    assert_int_equal(sscanf(ba, "\"bounds\": {\"min\": [%f, %f, %f], \"max\": [%f, %f, %f]", &va[0], &va[1], &va[2],
                            &va[3], &va[4], &va[5]), 6);
    assert_int_equal(sscanf(bb, "\"bounds\": {\"min\": [%f, %f, %f], \"max\": [%f, %f, %f]", &vb[0], &vb[1], &vb[2],
                            &vb[3], &vb[4], &vb[5]), 6);
    for (int k = 0; k < 6; k++)
        assert_true(va[k] - vb[k] < 1e-5f && vb[k] - va[k] < 1e-5f);
    free(a);
    free(b);
    wmt_remove_tree(dir);
    free(sample);
    free(obj);
    free(dir);
}

static void batch_conversion_reports_progress(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *court = wmt_sample_path("courtyard.obj"), *rooms = wmt_sample_path("two_rooms.obj");
    const char *argv[] = {"convert", court, rooms, "-o", dir, "--to", "glb", NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, argv), 0);
    assert_non_null(strstr(err, "[1/2]"));
    assert_non_null(strstr(err, "[2/2]"));
    char *a = wmt_join(dir, "courtyard.glb"), *b = wmt_join(dir, "two_rooms.glb");
    assert_true(access(a, F_OK) == 0 && access(b, F_OK) == 0);
    free(err);
    const char *no_to[] = {"convert", court, "-o", dir, NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, no_to), 1);
    wmt_remove_tree(dir);
    free(a);
    free(b);
    free(court);
    free(rooms);
    free(dir);
}

/* In batch mode a failing input does not stop the others, and the summary
 * counts only the files actually written. */
static void batch_conversion_continues_past_a_bad_input(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *bad = wmt_join(dir, "bad.obj");
    wmt_write_file(bad, "garbage\n", 8);
    char *court = wmt_sample_path("courtyard.obj");
    char *out_dir = wmt_join(dir, "out");
    assert_int_equal(mkdir(out_dir, 0755), 0);
    const char *argv[] = {"convert", bad, court, "-o", out_dir, "--to", "wok", NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, argv), 2);
    char *written = wmt_join(out_dir, "courtyard.wok"), *not_written = wmt_join(out_dir, "bad.wok");
    assert_true(access(written, F_OK) == 0);
    assert_false(access(not_written, F_OK) == 0);
    assert_non_null(strstr(err, "1 of 2 files done, 1 failed"));
    free(err);
    /* A missing output folder is created; one that cannot be (a file is in the way) converts
     * nothing and claims nothing. */
    char *missing_dir = wmt_join(dir, "missing/deeper");
    const char *created[] = {"convert", court, "-o", missing_dir, "--to", "wok", "-q", NULL};
    assert_int_equal(wmt_run_cli(NULL, NULL, created), 0);
    char *created_file = wmt_join(missing_dir, "courtyard.wok");
    assert_true(access(created_file, F_OK) == 0);
    free(created_file);
    char *blocked = wmt_join(written, "sub");
    const char *no_dir[] = {"convert", court, "-o", blocked, "--to", "wok", NULL};
    err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, no_dir), 3);
    assert_non_null(strstr(err, "cannot create the output folder"));
    assert_null(strstr(err, "files done"));
    free(err);
    free(blocked);
    wmt_remove_tree(dir);
    free(missing_dir);
    free(written);
    free(not_written);
    free(out_dir);
    free(court);
    free(bad);
    free(dir);
}

/* validate --from a module that cannot read (svg) is refused like convert's --from. */
static void validate_from_a_write_only_module(void **state)
{
    (void)state;
    char *sample = wmt_sample_path("courtyard.obj");
    const char *argv[] = {"validate", sample, "--from", "svg", NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, argv), 4);
    assert_int_equal(count_lines(err), 1);
    assert_non_null(strstr(err, "svg"));
    free(err);
    free(sample);
}

/* Surface names come from the user's --materials file: info --json escapes
 * them like every other string. */
static void info_json_escapes_surface_names(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *table = wmt_join(dir, "materials.txt"), *mesh = wmt_join(dir, "tri.obj");
    const char table_text[] = "quo\"te\\ 1 4 0x20 78a8a0 -\n";
    wmt_write_file(table, table_text, sizeof table_text - 1);
    const char mesh_text[] = "v 0 0 0\nv 1 0 0\nv 0 0 -1\nusemtl quote\nf 1 2 3\n";
    wmt_write_file(mesh, mesh_text, sizeof mesh_text - 1);
    const char *argv[] = {"info", mesh, "--materials", table, "--json", NULL};
    char *out = NULL;
    assert_int_equal(wmt_run_cli(&out, NULL, argv), 0);
    assert_non_null(strstr(out, "\"quo\\\"te\\\\\": {\"triangles\": 1"));
    free(out);
    wmt_remove_tree(dir);
    free(table);
    free(mesh);
    free(dir);
}

/* Two inputs with the same stem would write the same DIR/<name>.<ext>: even
 * with --force the batch refuses before writing, instead of letting the
 * second silently replace the first. */
static void batch_refuses_two_inputs_with_one_output(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *obj = wmt_sample_path("courtyard.obj"), *gltf = wmt_sample_path("courtyard.gltf");
    const char *argv[] = {"convert", obj, gltf, "-o", dir, "--to", "wok", "--force", NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, argv), 3);
    assert_non_null(strstr(err, "courtyard.wok"));
    char *out = wmt_join(dir, "courtyard.wok");
    assert_false(access(out, F_OK) == 0);
    free(err);
    free(out);
    wmt_remove_tree(dir);
    free(obj);
    free(gltf);
    free(dir);
}

/* A FIFO given as input is refused as "not a regular file" instead of
 * blocking forever in open(). Should the CLI block anyway, the alarm opens
 * the FIFO's write end, which releases it, and the test fails. */
static const char *fifo_to_release;
static volatile sig_atomic_t fifo_was_blocked;

static void release_fifo(int sig)
{
    (void)sig;
    fifo_was_blocked = 1;
    int fd = open(fifo_to_release, O_WRONLY | O_NONBLOCK);
    if (fd >= 0)
        close(fd);
}

static void fifo_input_does_not_hang(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    static const char *const names[] = {"pipe.wok", "pipe.xyz"};
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_handler = release_fifo;
    sigaction(SIGALRM, &act, NULL);
    for (size_t i = 0; i < 2; i++) {
        char *fifo = wmt_join(dir, names[i]);
        assert_int_equal(mkfifo(fifo, 0600), 0);
        fifo_to_release = fifo;
        fifo_was_blocked = 0;
        alarm(5);
        const char *argv[] = {"info", fifo, NULL};
        char *err = NULL;
        int code = wmt_run_cli(NULL, &err, argv);
        alarm(0);
        if (fifo_was_blocked)
            fail_msg("info %s blocked on the FIFO", names[i]);
        assert_int_equal(code, 2);
        assert_non_null(strstr(err, "not a regular file"));
        free(err);
        free(fifo);
    }
    signal(SIGALRM, SIG_DFL);
    wmt_remove_tree(dir);
    free(dir);
}

/* JSON is UTF-8: names that are not (a Latin-1 OBJ object name here; WMO
 * group names and file names can be too) become U+FFFD, valid UTF-8 stays. */
static void info_json_is_valid_utf8(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *mesh = wmt_join(dir, "names.obj");
    const char text[] = "o bad\xe9name\nv 0 0 0\nv 1 0 0\nv 0 0 -1\nf 1 2 3\n"
                        "o caf\xc3\xa9\nv 0 0 0\nv 2 0 0\nv 0 0 -2\nf 4 5 6\n";
    wmt_write_file(mesh, text, sizeof text - 1);
    const char *argv[] = {"info", mesh, "--json", NULL};
    char *out = NULL;
    assert_int_equal(wmt_run_cli(&out, NULL, argv), 0);
    assert_non_null(strstr(out, "\"bad\xef\xbf\xbdname\"")); /* U+FFFD in UTF-8 */
    assert_non_null(strstr(out, "\"caf\xc3\xa9\""));
    free(out);
    wmt_remove_tree(dir);
    free(mesh);
    free(dir);
}

static void formats_lists_every_module(void **state)
{
    (void)state;
    char *out = NULL;
    const char *argv[] = {"formats", NULL};
    assert_int_equal(wmt_run_cli(&out, NULL, argv), 0);
    size_t count;
    const wm_format *const *all = wm_formats(&count);
    for (size_t i = 0; i < count; i++)
        assert_non_null(strstr(out, all[i]->name));
    free(out);
}

/* A module option with a value its module refuses is a usage error (exit 1), not an output error. */
static void bad_module_option_values_are_usage_errors(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *out = wmt_join(dir, "court.wok");
    char *sample = wmt_sample_path("courtyard.obj");
    const char *argv[] = {"convert", sample, out, "--plane-style", "sideways", NULL};
    char *err = NULL;
    assert_int_equal(wmt_run_cli(NULL, &err, argv), 1);
    assert_non_null(strstr(err, "sideways"));
    assert_int_equal(count_lines(err), 1);
    assert_false(access(out, F_OK) == 0);
    free(err);
    wmt_remove_tree(dir);
    free(sample);
    free(out);
    free(dir);
}

/* validate takes the common options: a --materials table that makes metal
 * blocking turns 203tell's 211 walkable metal faces (corpus README: adj=211)
 * into a file whose adjacency no longer matches its walkable faces. */
static void validate_honours_materials(void **state)
{
    (void)state;
    char *wok = wmt_corpus_path_or_skip("bwm/pykotor-models-203tell.wok");
    char *dir = wmt_make_temp_dir();
    char *table = wmt_join(dir, "blocking_metal.txt");
    const char *text = "metal 0 10 0x100 5c6bc0 -\n";
    wmt_write_file(table, text, strlen(text));
    const char *plain[] = {"validate", wok, NULL};
    const char *with_table[] = {"validate", wok, "--materials", table, NULL};
    char *out = NULL;
    assert_int_equal(wmt_run_cli(NULL, NULL, plain), 0);
    assert_int_equal(wmt_run_cli(&out, NULL, with_table), 5);
    assert_non_null(strstr(out, "211 rows, expected one per walkable face (0)"));
    free(out);
    wmt_remove_tree(dir);
    free(table);
    free(dir);
    free(wok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_command_has_help),
        cmocka_unit_test(bad_inputs_get_one_line_and_no_output),
        cmocka_unit_test(existing_outputs_need_force),
        cmocka_unit_test(info_agrees_across_a_conversion),
        cmocka_unit_test(batch_conversion_reports_progress),
        cmocka_unit_test(batch_conversion_continues_past_a_bad_input),
        cmocka_unit_test(formats_lists_every_module),
        cmocka_unit_test(info_json_is_valid_utf8),
        cmocka_unit_test(fifo_input_does_not_hang),
        cmocka_unit_test(batch_refuses_two_inputs_with_one_output),
        cmocka_unit_test(info_json_escapes_surface_names),
        cmocka_unit_test(validate_from_a_write_only_module),
        cmocka_unit_test(bad_module_option_values_are_usage_errors),
        cmocka_unit_test(validate_honours_materials),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
