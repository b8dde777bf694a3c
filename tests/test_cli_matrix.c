/* Every command with every common option, against the matrix in docs/cli.md: help lists what
 * the command takes, -h equals --help, -V prints the version, -q leaves standard error empty,
 * --json parses, -f is needed to replace an output, and a missing file, an existing output
 * and an unknown option are worded the same by every command, with the documented exit
 * status. */
#define _GNU_SOURCE
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { COL_HELP, COL_VERSION, COL_QUIET, COL_OUTPUT, COL_FORCE, COL_JSON, COL_JOBS, COL_MANY, COL_STDIO, COLS };

typedef struct row {
    char command[32];
    int yes[COLS];
} row;

/* The rows of the matrix table in docs/cli.md ("| info | yes | ... |"). */
static int read_matrix(row *rows, int capacity)
{
    char *path = wmt_sample_path("../docs/cli.md"); /* the samples folder sits beside docs/ */
    size_t size;
    char *text = (char *)wmt_read_file(path, &size);
    assert_non_null(text);
    int n = 0;
    for (char *line = strtok(text, "\n"); line && n < capacity; line = strtok(NULL, "\n")) {
        row r = {{0}, {0}};
        char cells[COLS][32];
        if (sscanf(line, "| %31[a-z] | %31[^|]| %31[^|]| %31[^|]| %31[^|]| %31[^|]| %31[^|]| %31[^|]| %31[^|]| %31[^|]|",
                   r.command, cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6], cells[7],
                   cells[8]) != 1 + COLS)
            continue;
        for (int c = 0; c < COLS; c++)
            r.yes[c] = strncmp(cells[c], "yes", 3) == 0;
        if (strcmp(r.command, "command") != 0)
            rows[n++] = r;
    }
    free(text);
    free(path);
    return n;
}

/* ---- a JSON checker (RFC 8259 grammar), independent of the CLI's printer */
static const char *json_value_end(const char *p, int depth);
static const char *skip_space(const char *p)
{
    return p + strspn(p, " \t\r\n");
}
static const char *json_string_end(const char *p)
{
    for (p++; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p == '\\' && !*++p)
            return NULL;
    }
    return *p == '"' ? p + 1 : NULL;
}
static const char *json_items_end(const char *p, char close, int depth, int keyed)
{
    p = skip_space(p + 1);
    if (*p == close)
        return p + 1;
    for (;;) {
        if (keyed) {
            if (*p != '"' || !(p = json_string_end(p)) || *(p = skip_space(p)) != ':')
                return NULL;
            p = skip_space(p + 1);
        }
        if (!(p = json_value_end(p, depth + 1)))
            return NULL;
        p = skip_space(p);
        if (*p == close)
            return p + 1;
        if (*p != ',')
            return NULL;
        p = skip_space(p + 1);
    }
}
static const char *json_value_end(const char *p, int depth)
{
    p = skip_space(p);
    if (depth > 64)
        return NULL;
    if (*p == '{' || *p == '[')
        return json_items_end(p, *p == '{' ? '}' : ']', depth, *p == '{');
    if (*p == '"')
        return json_string_end(p);
    for (const char *word = "true\0false\0null\0"; *word; word += strlen(word) + 1)
        if (strncmp(p, word, strlen(word)) == 0)
            return p + strlen(word);
    char *end;
    strtod(p, &end);
    return end != p && (*p == '-' || (*p >= '0' && *p <= '9')) ? end : NULL;
}
static void assert_json(const char *text, const char *what)
{
    const char *end = json_value_end(text, 0);
    if (!end || *skip_space(end))
        fail_msg("%s: not one JSON value:\n%s", what, text);
}

/* ---- one valid invocation per command; OUT is written, IN read */
typedef struct fixture {
    char *dir, *wok, *wok2, *lyt, *trx, *out_obj, *out_svg, *out_trx;
} fixture;

static fixture fx;

/* argv of a run of `command` on its usual inputs, with extra words appended. */
static int build_argv(const char *command, const char *in, const char **extra, const char **argv)
{
    int n = 0;
    argv[n++] = command;
    if (strcmp(command, "area") == 0) { /* a layout of one room, court.wok beside it */
        argv[n++] = "assemble";
        argv[n++] = in ? in : fx.lyt;
    } else if (strcmp(command, "formats") != 0)
        argv[n++] = in ? in : strcmp(command, "bake") == 0 ? fx.trx : fx.wok;
    if (strcmp(command, "query") == 0) {
        argv[n++] = "height";
        argv[n++] = "0";
        argv[n++] = "0";
    } else if (strcmp(command, "path") == 0 || strcmp(command, "reach") == 0) {
        argv[n++] = "1,1"; /* on the courtyard's walkable ground */
        if (strcmp(command, "path") == 0)
            argv[n++] = "3,2";
    } else if (strcmp(command, "convert") == 0 || strcmp(command, "area") == 0 || strcmp(command, "navmesh") == 0 ||
               strcmp(command, "generate") == 0)
        argv[n++] = fx.out_obj;
    else if (strcmp(command, "render") == 0 || strcmp(command, "bake") == 0) {
        argv[n++] = "-o";
        argv[n++] = strcmp(command, "bake") == 0 ? fx.out_trx : fx.out_svg;
    }
    for (; extra && *extra; extra++)
        argv[n++] = *extra;
    argv[n] = NULL;
    return n;
}

static const char *output_of(const char *command)
{
    return strcmp(command, "convert") == 0 || strcmp(command, "area") == 0 || strcmp(command, "navmesh") == 0 ||
               strcmp(command, "generate") == 0
               ? fx.out_obj : strcmp(command, "render") == 0 ? fx.out_svg : fx.out_trx;
}

static void remove_outputs(void)
{
    unlink(fx.out_obj);
    unlink(fx.out_svg);
    unlink(fx.out_trx);
    char *mtl = wmt_join(fx.dir, "out.mtl");
    unlink(mtl);
    free(mtl);
}

static int run(const char *command, const char *in, const char **extra, char **out, char **err)
{
    const char *argv[32];
    build_argv(command, in, extra, argv);
    return wmt_run_cli(out, err, argv);
}

static int setup(void **state)
{
    (void)state;
    fx.dir = wmt_make_temp_dir();
    fx.wok = wmt_join(fx.dir, "court.wok");
    fx.wok2 = wmt_join(fx.dir, "second.wok");
    fx.lyt = wmt_join(fx.dir, "court.lyt");
    static const char layout[] = "beginlayout\nroomcount 1\ncourt 0 0 0\ndonelayout\n";
    wmt_write_file(fx.lyt, layout, sizeof layout - 1);
    fx.out_obj = wmt_join(fx.dir, "out.obj");
    fx.out_svg = wmt_join(fx.dir, "out.svg");
    fx.out_trx = wmt_join(fx.dir, "out.trx");
    fx.trx = wmt_corpus_path("nwn2/enter_world.trx");
    char *obj = wmt_sample_path("courtyard.obj");
    const char *make[] = {"convert", obj, fx.wok, "-q", NULL};
    const char *copy[] = {"convert", obj, fx.wok2, "-q", NULL};
    int ok = wmt_run_cli(NULL, NULL, make) == 0 && wmt_run_cli(NULL, NULL, copy) == 0;
    free(obj);
    return ok ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    wmt_remove_tree(fx.dir);
    free(fx.dir);
    free(fx.wok);
    free(fx.wok2);
    free(fx.lyt);
    free(fx.trx);
    free(fx.out_obj);
    free(fx.out_svg);
    free(fx.out_trx);
    return 0;
}

static int runnable(const row *r)
{
#ifndef WALKMESH_HAVE_RECAST
    if (strcmp(r->command, "navmesh") == 0) {
        print_message("built without Recast/Detour: the navmesh row skipped\n");
        return 0;
    }
#endif
    if (strcmp(r->command, "bake") == 0 && !fx.trx) {
        print_message("corpus file nwn2/enter_world.trx not available: bake rows skipped\n");
        return 0;
    }
    return 1;
}

static void check_help(const row *r)
{
    char *help = NULL, *short_help = NULL, usage[64];
    const char *long_argv[] = {r->command, "--help", NULL}, *short_argv[] = {r->command, "-h", NULL};
    assert_int_equal(wmt_run_cli(&help, NULL, long_argv), 0);
    assert_int_equal(wmt_run_cli(&short_help, NULL, short_argv), 0);
    assert_string_equal(help, short_help);
    snprintf(usage, sizeof usage, "Usage: walkmesh %.31s", r->command);
    assert_non_null(strstr(help, usage));
    static const char *const spelled[COLS] = {"-h, --help", "-V, --version", "-q, --quiet", "-o, --output",
                                              "-f, --force", "--json", "-j, --jobs N", NULL, NULL};
    for (int c = 0; c < COLS; c++)
        if (spelled[c] && r->yes[c] != (strstr(help, spelled[c]) != NULL))
            fail_msg("'walkmesh %s --help' %s \"%s\", docs/cli.md says %s", r->command,
                     r->yes[c] ? "lacks" : "lists", spelled[c], r->yes[c] ? "yes" : "no");
    free(help);
    free(short_help);
    char *version = NULL;
    const char *version_argv[] = {r->command, "-V", NULL};
    assert_int_equal(wmt_run_cli(&version, NULL, version_argv), 0);
    assert_string_equal(version, "walkmesh " WALKMESH_VERSION "\n");
    free(version);
}

static void check_unknown_options(const row *r)
{
    char *err = NULL, expected[256];
    const char *bogus[] = {"--no-such-option", NULL}, *near[] = {"--qiet", NULL};
    assert_int_equal(run(r->command, NULL, bogus, NULL, &err), 1);
    snprintf(expected, sizeof expected, "walkmesh: %.31s: unknown option '--no-such-option' (see 'walkmesh %.31s --help')\n",
             r->command, r->command);
    assert_string_equal(err, expected);
    free(err);
    assert_int_equal(run(r->command, NULL, near, NULL, &err), 1);
    snprintf(expected, sizeof expected,
             "walkmesh: %.31s: unknown option '--qiet'; did you mean '--quiet'? (see 'walkmesh %.31s --help')\n", r->command,
             r->command);
    assert_string_equal(err, expected);
    free(err);
}

static void check_missing_input(const row *r)
{
    if (strcmp(r->command, "formats") == 0)
        return;
    char *missing = wmt_join(fx.dir, strcmp(r->command, "bake") == 0 ? "missing.trx" : "missing.wok"), *err = NULL;
    char expected[512];
    assert_int_equal(run(r->command, missing, NULL, NULL, &err), 2);
    snprintf(expected, sizeof expected, "walkmesh: %s: no such file\n", missing);
    assert_string_equal(err, expected);
    free(err);
    free(missing);
}

/* -q: nothing on standard error; a command that writes prints nothing at all. */
static void check_quiet(const row *r)
{
    remove_outputs();
    char *out = NULL, *err = NULL;
    const char *quiet[] = {"-q", NULL};
    assert_int_equal(run(r->command, NULL, quiet, &out, &err), 0);
    if (err[0] || (r->yes[COL_OUTPUT] && out[0]))
        fail_msg("'walkmesh %s -q' printed:\n%s%s", r->command, out, err);
    free(out);
    free(err);
}

static void check_force(const row *r)
{
    if (!r->yes[COL_FORCE])
        return;
    const char *output = output_of(r->command);
    size_t before_size, after_size;
    uint8_t *before = wmt_read_file(output, &before_size); /* written by check_quiet */
    assert_non_null(before);
    char *err = NULL, expected[512];
    assert_int_equal(run(r->command, NULL, NULL, NULL, &err), 3);
    snprintf(expected, sizeof expected, "walkmesh: %s: exists already (use --force to overwrite)\n", output);
    assert_string_equal(err, expected);
    free(err);
    const char *forced[] = {"-f", "-q", NULL};
    assert_int_equal(run(r->command, NULL, forced, NULL, NULL), 0);
    uint8_t *after = wmt_read_file(output, &after_size);
    assert_int_equal(before_size, after_size); /* the same input gives the same file */
    assert_memory_equal(before, after, before_size);
    free(before);
    free(after);
}

static void check_json(const row *r)
{
    if (!r->yes[COL_JSON])
        return;
    remove_outputs();
    char *out = NULL, label[64];
    const char *json[] = {"--json", NULL};
    assert_int_equal(run(r->command, NULL, json, &out, NULL), 0);
    snprintf(label, sizeof label, "walkmesh %.31s --json", r->command);
    assert_json(out, label);
    free(out);
    if (!r->yes[COL_MANY] || r->yes[COL_OUTPUT])
        return;
    const char *two[] = {fx.wok2, "--json", NULL};
    assert_int_equal(run(r->command, NULL, two, &out, NULL), 0);
    assert_json(out, label);
    assert_int_equal(out[0], '[');
    assert_non_null(strstr(out, "court.wok"));
    assert_non_null(strstr(out, "second.wok"));
    free(out);
}

static void every_command_follows_the_matrix(void **state)
{
    (void)state;
    row rows[16];
    int n = read_matrix(rows, 16);
    assert_true(n >= 7);
    for (int i = 0; i < n; i++) {
        if (!runnable(&rows[i]))
            continue;
        for (int c = COL_HELP; c <= COL_QUIET; c++)
            if (!rows[i].yes[c])
                fail_msg("docs/cli.md: %s must take -h, -V and -q", rows[i].command);
        check_help(&rows[i]);
        check_unknown_options(&rows[i]);
        check_missing_input(&rows[i]);
        check_quiet(&rows[i]);
        check_force(&rows[i]);
        check_json(&rows[i]);
    }
    remove_outputs();
}

/* Every command of `walkmesh --help` has a row, and every row is a command. */
static void the_matrix_lists_every_command(void **state)
{
    (void)state;
    row rows[16];
    int n = read_matrix(rows, 16);
    char *top = NULL;
    const char *help[] = {"--help", NULL};
    assert_int_equal(wmt_run_cli(&top, NULL, help), 0);
    char *list = strstr(top, "Commands:\n");
    assert_non_null(list);
    int commands = 0;
    for (char *line = strchr(list, '\n') + 1; strncmp(line, "  ", 2) == 0; line = strchr(line, '\n') + 1) {
        char name[32];
        assert_int_equal(sscanf(line, " %31s", name), 1);
        int found = 0;
        for (int i = 0; i < n; i++)
            found |= strcmp(rows[i].command, name) == 0;
        if (!found)
            fail_msg("docs/cli.md has no row for '%s'", name);
        commands++;
    }
    assert_int_equal(commands, n);
    free(top);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_matrix_lists_every_command),
        cmocka_unit_test(every_command_follows_the_matrix),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
