#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char wmt_warnings[8192];

char *wmt_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    assert_non_null(path);
    snprintf(path, n, "%s/%s", dir, name);
    return path;
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The corpus folder: WALKMESH_CORPUS_DIR as set when the test runs, else the
 * fallback ctest passes (the configure-time folder, or ../shared/corpus beside the
 * source); NULL when neither names an existing folder. */
static const char *corpus_dir(void)
{
    const char *names[] = {"WALKMESH_CORPUS_DIR", "WALKMESH_CORPUS_FALLBACK"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *dir = getenv(names[i]);
        struct stat st;
        if (dir && *dir)
            return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? dir : NULL;
    }
    return NULL;
}

char *wmt_corpus_path(const char *relative)
{
    const char *dir = corpus_dir();
    if (!dir)
        return NULL;
    char *path = wmt_join(dir, relative);
    if (!is_file(path)) {
        free(path);
        return NULL;
    }
    return path;
}

char *wmt_corpus_path_or_skip(const char *relative)
{
    char *path = wmt_corpus_path(relative);
    if (!path) {
        print_message("corpus file %s not available: skipping\n", relative);
        skip();
    }
    return path;
}

void wmt_require_recast(void)
{
#ifndef WALKMESH_HAVE_RECAST
    print_message("walkmesh was built without Recast/Detour (librecast-dev): skipping\n");
    skip();
#endif
}

void wmt_require_all(char **paths, size_t count)
{
    size_t missing = 0;
    for (size_t i = 0; i < count; i++)
        missing += paths[i] == NULL;
    if (missing == 0)
        return;
    for (size_t i = 0; i < count; i++)
        free(paths[i]);
    print_message("%zu corpus file(s) not available: skipping\n", missing);
    skip();
}

static int has_suffix(const char *name, const char *const *suffixes)
{
    size_t n = strlen(name);
    for (; *suffixes; suffixes++) {
        size_t s = strlen(*suffixes);
        if (n >= s && strcasecmp(name + n - s, *suffixes) == 0)
            return 1;
    }
    return 0;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t wmt_corpus_list(const char *subfolder, const char *const *suffixes, char ***out)
{
    *out = NULL;
    const char *dir = corpus_dir();
    char *folder = dir ? wmt_join(dir, subfolder) : NULL;
    DIR *d = folder ? opendir(folder) : NULL;
    if (!d) {
        free(folder);
        print_message("corpus folder %s not available: skipping\n", subfolder);
        skip();
        return 0;
    }
    size_t count = 0, capacity = 16;
    char **list = malloc(capacity * sizeof *list);
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (entry->d_name[0] == '.' || !has_suffix(entry->d_name, suffixes))
            continue;
        if (count == capacity)
            list = realloc(list, (capacity *= 2) * sizeof *list);
        list[count++] = wmt_join(folder, entry->d_name);
    }
    closedir(d);
    free(folder);
    qsort(list, count, sizeof *list, compare_strings);
    *out = list;
    return count;
}

void wmt_free_list(char **list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(list[i]);
    free(list);
}

static char *env_path(const char *variable, const char *fallback, const char *relative)
{
    const char *dir = getenv(variable);
    return wmt_join(dir && *dir ? dir : fallback, relative);
}

char *wmt_sample_path(const char *relative)
{
    return env_path("WALKMESH_SAMPLES", "corpus", relative);
}

char *wmt_test_data_path(const char *relative)
{
    return env_path("WALKMESH_TEST_DATA", "tests/data", relative);
}

uint8_t *wmt_read_file(const char *path, size_t *out_size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
    assert_non_null(data);
    size_t got = fread(data, 1, (size_t)size, f);
    fclose(f);
    assert_int_equal(got, (size_t)size);
    *out_size = (size_t)size;
    return data;
}

void wmt_write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot create %s", path);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
}

/* Scratch space: WALKMESH_TEST_SCRATCH (a folder in the build tree, set by ctest), else
 * the current folder; never /tmp. Folders still there when the program ends (a test
 * skipped or failed before removing its own) are removed then. */
static const char *scratch_dir(void)
{
    const char *dir = getenv("WALKMESH_TEST_SCRATCH");
    return dir && *dir ? dir : ".";
}

static char *made_dirs[256];
static size_t made_dir_count;

static void remove_made_dirs(void)
{
    for (size_t i = 0; i < made_dir_count; i++) {
        wmt_remove_tree(made_dirs[i]);
        free(made_dirs[i]);
    }
    made_dir_count = 0;
}

char *wmt_make_temp_dir(void)
{
    char *path = wmt_join(scratch_dir(), "walkmesh-test-XXXXXX");
    if (!mkdtemp(path))
        fail_msg("cannot create a temporary folder in %s", scratch_dir());
    if (made_dir_count == 0)
        atexit(remove_made_dirs);
    if (made_dir_count < sizeof made_dirs / sizeof *made_dirs)
        made_dirs[made_dir_count++] = strdup(path);
    return path;
}

void wmt_remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *entry;
        while ((entry = readdir(d)) != NULL) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
                continue;
            char *child = wmt_join(path, entry->d_name);
            wmt_remove_tree(child);
            free(child);
        }
        closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static char *slurp_fd(int fd)
{
    size_t size = 0, capacity = 4096;
    char *text = malloc(capacity);
    for (;;) {
        if (size + 1 >= capacity)
            text = realloc(text, capacity *= 2);
        ssize_t n = read(fd, text + size, capacity - size - 1);
        if (n <= 0)
            break;
        size += (size_t)n;
    }
    text[size] = '\0';
    return text;
}

int wmt_run_cli(char **out_stdout, char **out_stderr, const char *const *argv)
{
    const char *cli = getenv("WALKMESH_CLI");
    if (!cli || !*cli)
        fail_msg("WALKMESH_CLI is not set (run the tests through ctest)");
    char *out_template = wmt_join(scratch_dir(), "walkmesh-cli-out-XXXXXX");
    char *err_template = wmt_join(scratch_dir(), "walkmesh-cli-err-XXXXXX");
    int out_fd = mkstemp(out_template), err_fd = mkstemp(err_template);
    assert_true(out_fd >= 0 && err_fd >= 0);
    unlink(out_template);
    unlink(err_template);
    free(out_template);
    free(err_template);
    size_t argc = 0;
    while (argv[argc])
        argc++;
    char **full = calloc(argc + 2, sizeof *full);
    full[0] = (char *)cli;
    for (size_t i = 0; i < argc; i++)
        full[i + 1] = (char *)argv[i];
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out_fd, STDOUT_FILENO);
        dup2(err_fd, STDERR_FILENO);
        int null_fd = open("/dev/null", O_RDONLY);
        if (null_fd >= 0)
            dup2(null_fd, STDIN_FILENO);
        execv(cli, full);
        _exit(127);
    }
    free(full);
    int status = 0;
    waitpid(pid, &status, 0);
    lseek(out_fd, 0, SEEK_SET);
    lseek(err_fd, 0, SEEK_SET);
    char *out_text = slurp_fd(out_fd), *err_text = slurp_fd(err_fd);
    close(out_fd);
    close(err_fd);
    if (out_stdout)
        *out_stdout = out_text;
    else
        free(out_text);
    if (out_stderr)
        *out_stderr = err_text;
    else
        free(err_text);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void collect_warning(void *user, const char *message)
{
    (void)user;
    size_t used = strlen(wmt_warnings);
    snprintf(wmt_warnings + used, sizeof wmt_warnings - used, "%s\n", message);
}

int wmt_inside_polygon(const float *points, uint32_t count, double x, double y)
{
    int in = 0;
    for (uint32_t i = 0, j = count - 1; i < count; j = i++) {
        double xi = points[2 * i], yi = points[2 * i + 1], xj = points[2 * j], yj = points[2 * j + 1];
        if ((yi > y) != (yj > y) && x < xj + (y - yj) * (xi - xj) / (yi - yj))
            in = !in;
    }
    return in;
}

void wmt_ctx_init(wm_ctx *ctx)
{
    wm_ctx_init(ctx);
    wmt_warnings[0] = '\0';
    ctx->warn = collect_warning;
}

char *wmt_find_program(const char *name)
{
    const char *path = getenv("PATH");
    if (!path)
        return NULL;
    char *copy = strdup(path), *save = NULL;
    char *found = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char *candidate = wmt_join(dir, name);
        if (access(candidate, X_OK) == 0)
            found = candidate;
        else
            free(candidate);
    }
    free(copy);
    return found;
}

static const wm_mesh *wmt_sorting_mesh;

static int wmt_by_position(const void *x, const void *y)
{
    const float *a = wmt_sorting_mesh->positions + 3 * (size_t)*(const uint32_t *)x;
    const float *b = wmt_sorting_mesh->positions + 3 * (size_t)*(const uint32_t *)y;
    for (int k = 0; k < 3; k++)
        if (a[k] != b[k])
            return a[k] < b[k] ? -1 : 1;
    return 0;
}

/* For each vertex, the first vertex at exactly its position. */
static uint32_t *wmt_first_at_position(const wm_mesh *m)
{
    uint32_t *order = malloc(((size_t)m->vertex_count + 1) * sizeof *order);
    uint32_t *same = malloc(((size_t)m->vertex_count + 1) * sizeof *same);
    for (uint32_t v = 0; v < m->vertex_count; v++)
        order[v] = v;
    wmt_sorting_mesh = m;
    qsort(order, m->vertex_count, sizeof *order, wmt_by_position);
    for (uint32_t i = 0; i < m->vertex_count; i++)
        same[order[i]] = i && wmt_by_position(&order[i], &order[i - 1]) == 0 ? same[order[i - 1]] : order[i];
    free(order);
    return same;
}

static uint32_t wmt_find_root(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

static int wmt_by_edge_key(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    return a[0] < b[0] ? -1 : a[0] > b[0];
}

uint32_t *wmt_walkable_classes(const wm_mesh *m, int by_position)
{
    uint32_t *same = by_position ? wmt_first_at_position(m) : NULL;
    uint32_t n = m->triangle_count;
    uint32_t *parent = malloc(((size_t)n + 1) * sizeof *parent);
    for (uint32_t t = 0; t < n; t++)
        parent[t] = t;
    parent[n] = 0;
    /* every walkable edge keyed (lo, hi, face): sorted, equal keys share the edge */
    uint64_t(*keys)[2] = malloc(((size_t)3 * n + 1) * sizeof *keys);
    size_t count = 0;
    for (uint32_t t = 0; t < n; t++)
        for (int e = 0; m->walkable[t] && e < 3; e++) {
            uint32_t a = m->indices[3 * (size_t)t + e], b = m->indices[3 * (size_t)t + (e + 1) % 3];
            if (same)
                a = same[a], b = same[b];
            keys[count][0] = a < b ? ((uint64_t)a << 32 | b) : ((uint64_t)b << 32 | a);
            keys[count++][1] = t;
        }
    qsort(keys, count, sizeof *keys, wmt_by_edge_key);
    for (size_t i = 2; i < count; i++)
        if (keys[i][0] == keys[i - 2][0])
            parent[n] = 1; /* an edge of three walkable faces or more */
    for (size_t i = 1; i < count; i++)
        if (keys[i][0] == keys[i - 1][0])
            parent[wmt_find_root(parent, (uint32_t)keys[i][1])] = wmt_find_root(parent, (uint32_t)keys[i - 1][1]);
    free(keys);
    free(same);
    for (uint32_t t = 0; t < n; t++)
        parent[t] = m->walkable[t] ? wmt_find_root(parent, t) : UINT32_MAX;
    return parent;
}

/* The exit code of program run with one argument, output to /dev/null; -1 when killed. */
static int run_discarding_output(const char *program, const char *arg)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int null_fd = open("/dev/null", O_RDWR);
        if (null_fd >= 0) {
            dup2(null_fd, STDIN_FILENO);
            dup2(null_fd, STDOUT_FILENO);
            dup2(null_fd, STDERR_FILENO);
        }
        execl(program, program, arg, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

char *wmt_find_working_program(const char *program, const char *probe, const char **why)
{
    const char *reason = NULL;
    char *path = strchr(program, '/') ? (access(program, X_OK) == 0 ? strdup(program) : NULL) : wmt_find_program(program);
    if (!path) {
        reason = "not installed, or not executable";
    } else {
        int code = run_discarding_output(path, probe);
        if (code == 126 || code == 127)
            reason = code == 126 ? "does not run (exit 126: not executable)"
                                 : "does not run (exit 127: its loader or a library it needs is missing)";
        else if (code < 0)
            reason = "does not run (killed when started)";
    }
    if (why)
        *why = reason;
    if (reason) {
        free(path);
        return NULL;
    }
    return path;
}

char *wmt_working_program_or_skip(const char *program, const char *probe)
{
    const char *why = NULL;
    char *path = wmt_find_working_program(program, probe, &why);
    if (!path) {
        print_message("%s %s: skipping\n", program, why);
        skip();
    }
    return path;
}
