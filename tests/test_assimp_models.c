#define _GNU_SOURCE
/* Every file of Assimp's own test models (../shared/corpus/assimp-models,
 * malformed ones included: see its README) must end with exit 0, 2 or 4
 * within 30 s and 1 GB, and a refusal must be one line naming the file.
 * Assimp itself crashes or exhausts memory on some of them, so this checks
 * the contained importer from outside: the CLI's exit status and the
 * resource use the kernel reports for it and its import process. */
#include "test_support.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char **files;
static size_t file_count, file_capacity;

static int collect(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type != FTW_F)
        return 0;
    if (file_count == file_capacity) {
        file_capacity = file_capacity ? 2 * file_capacity : 256;
        files = realloc(files, file_capacity * sizeof *files);
    }
    files[file_count++] = strdup(path);
    return 0;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct running {
    pid_t pid;
    size_t file;
    int err_fd;
    struct timespec start;
} running;

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

static running start_one(const char *cli, size_t file)
{
    running r = {0};
    char err_template[] = "/tmp/walkmesh-models-err-XXXXXX";
    r.err_fd = mkstemp(err_template);
    assert_true(r.err_fd >= 0);
    unlink(err_template);
    r.file = file;
    clock_gettime(CLOCK_MONOTONIC, &r.start);
    r.pid = fork();
    assert_true(r.pid >= 0);
    if (r.pid == 0) {
        int null_fd = open("/dev/null", O_RDWR);
        dup2(null_fd, STDIN_FILENO);
        dup2(null_fd, STDOUT_FILENO);
        dup2(r.err_fd, STDERR_FILENO);
        execl(cli, cli, "info", files[file], (char *)NULL);
        _exit(127);
    }
    return r;
}

static char *read_stderr(int fd)
{
    off_t size = lseek(fd, 0, SEEK_END);
    char *text = calloc((size_t)size + 1, 1);
    if (size > 0 && pread(fd, text, (size_t)size, 0) != size)
        text[0] = '\0';
    return text;
}

static int one_error_line_naming(const char *err, const char *path)
{
    int lines = 0, named = 0;
    for (const char *line = err; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (strncmp(line, "walkmesh: warning: ", 19) != 0) {
            lines++;
            named = strncmp(line, "walkmesh: ", 10) == 0 && memmem(line, len, path, strlen(path)) != NULL;
        }
        line += len + (end != NULL);
    }
    return lines == 1 && named;
}

static void every_model_ends_cleanly(void **state)
{
    (void)state;
    /* the folder of the corpus README that describes these models */
    char *root = wmt_corpus_path_or_skip("assimp-models/README-walkmesh.md");
    *strrchr(root, '/') = '\0';
    const char *cli = getenv("WALKMESH_CLI");
    assert_non_null(cli);
    file_count = 0;
    assert_int_equal(nftw(root, collect, 16, FTW_PHYS), 0);
    qsort(files, file_count, sizeof *files, compare_strings);
    print_message("%zu files under %s\n", file_count, root);
    assert_true(file_count > 600); /* the README names 634 */

    enum { PARALLEL = 2 };
    running slots[PARALLEL];
    size_t next = 0, done = 0, outcome[3] = {0, 0, 0}, failures = 0;
    double slowest = 0;
    long biggest_kb = 0;
    int used = 0;
    while (done < file_count) {
        while (used < PARALLEL && next < file_count)
            slots[used++] = start_one(cli, next++);
        int status;
        struct rusage usage;
        pid_t pid = wait4(-1, &status, 0, &usage);
        assert_true(pid > 0);
        int k = 0;
        while (k < used && slots[k].pid != pid)
            k++;
        assert_true(k < used);
        running r = slots[k];
        slots[k] = slots[--used];
        done++;
        double seconds = seconds_since(&r.start);
        /* ru_maxrss (KiB) covers the CLI and the import process it waited for */
        long kb = usage.ru_maxrss;
        char *err = read_stderr(r.err_fd);
        close(r.err_fd);
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
        const char *path = files[r.file];
        int ok = code == 0 || code == 2 || code == 4;
        if (ok && code != 0) /* besides warnings, one line naming the file */
            ok = one_error_line_naming(err, path);
        if (seconds > 30.0 || kb > 1024L * 1024L)
            ok = 0;
        if (!ok) {
            print_error("%s: exit %d after %.1f s, %ld MB: %s\n", path, code, seconds, kb / 1024, err);
            failures++;
        } else {
            outcome[code == 0 ? 0 : code == 2 ? 1 : 2]++;
        }
        if (seconds > slowest)
            slowest = seconds;
        if (kb > biggest_kb)
            biggest_kb = kb;
        free(err);
    }
    print_message("exit 0: %zu, exit 2: %zu, exit 4: %zu, failing: %zu; slowest %.1f s, largest %ld MB\n",
                  outcome[0], outcome[1], outcome[2], failures, slowest, biggest_kb / 1024);
    for (size_t i = 0; i < file_count; i++)
        free(files[i]);
    free(files);
    files = NULL;
    free(root);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_model_ends_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
