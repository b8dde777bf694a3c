/* OBJ -> WOK of a 1,000,000-triangle OBJ: `walkmesh convert` (the CLI, as
 * a user runs it) beside Assimp's bare import of the same file (no
 * post-processing), each in its own process so wall time and peak memory
 * are measured the same way (wait4). Best of three runs.
 *
 *   bench_import [WALKMESH_CLI [FILE.obj]]
 *
 * Without FILE the OBJ is generated in $TMPDIR: a 708 x 708 grid of
 * vertices (999,698 triangles) with a little height noise, Y-up as Blender
 * writes it, one object and one material. */
#define _GNU_SOURCE
#include "bench_support.h"

#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static int generate(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    const int n = 708;
    fprintf(f, "# %d x %d grid, %d triangles\no floor\n", n, n, 2 * (n - 1) * (n - 1));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) /* Y-up: x east, y height, -z north */
            fprintf(f, "v %.4f %.4f %.4f\n", i * 0.5, ((i * 7 + j * 13) % 17) * 0.01, -j * 0.5);
    fprintf(f, "usemtl stone\n");
    for (int j = 0; j + 1 < n; j++)
        for (int i = 0; i + 1 < n; i++) {
            int a = j * n + i + 1, b = a + 1, c = a + n, d = c + 1;
            fprintf(f, "f %d %d %d\nf %d %d %d\n", a, b, d, a, d, c);
        }
    return fclose(f);
}

typedef struct measure {
    double seconds;
    double cpu; /* user + system: what one core spends, whatever else the machine runs */
    long peak_kb;
    int status;
} measure;

/* Runs fn(arg) in a child; wall time from fork to exit, peak RSS from wait4. */
static measure in_child(int (*fn)(const char *const *), const char *const *arg)
{
    measure m = {0, 0, 0, -1};
    double start = bench_now();
    pid_t pid = fork();
    if (pid == 0)
        _exit(fn(arg));
    int status;
    struct rusage usage;
    if (pid < 0 || wait4(pid, &status, 0, &usage) != pid)
        return m;
    m.seconds = bench_now() - start;
    m.cpu = (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec +
            usage.ru_stime.tv_usec / 1e6;
    m.peak_kb = usage.ru_maxrss;
    m.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return m;
}

static int run_cli(const char *const *argv)
{
    int null_fd = open("/dev/null", O_WRONLY);
    dup2(null_fd, 1);
    dup2(null_fd, 2);
    execv(argv[0], (char *const *)argv);
    return 127;
}

static int assimp_import(const char *const *argv)
{
    const struct aiScene *scene = aiImportFile(argv[0], 0);
    if (!scene)
        return 1;
    unsigned faces = 0;
    for (unsigned i = 0; i < scene->mNumMeshes; i++)
        faces += scene->mMeshes[i]->mNumFaces;
    aiReleaseImport(scene);
    return faces > 0 ? 0 : 2;
}

static measure best_of_three(int (*fn)(const char *const *), const char *const *arg)
{
    measure best = {1e30, 1e30, 0, 0};
    for (int i = 0; i < 3; i++) {
        measure m = in_child(fn, arg);
        if (m.status != 0)
            return m;
        if (m.seconds < best.seconds)
            best.seconds = m.seconds;
        if (m.cpu < best.cpu)
            best.cpu = m.cpu;
        if (m.peak_kb > best.peak_kb)
            best.peak_kb = m.peak_kb;
    }
    return best;
}

int main(int argc, char **argv)
{
    char cli[4096];
    if (argc > 1) {
        snprintf(cli, sizeof cli, "%s", argv[1]);
    } else { /* beside this program: build/bench/ -> build/tools/walkmesh */
        ssize_t n = readlink("/proc/self/exe", cli, sizeof cli - 32);
        if (n <= 0)
            return 1;
        cli[n] = '\0';
        char *slash = strrchr(cli, '/');
        snprintf(slash, 32, "/../tools/walkmesh");
    }
    const char *tmp = getenv("TMPDIR");
    char obj[4096], wok[4096];
    snprintf(wok, sizeof wok, "%s/walkmesh-bench-import.wok", tmp && *tmp ? tmp : "/tmp");
    if (argc > 2) {
        snprintf(obj, sizeof obj, "%s", argv[2]);
    } else {
        snprintf(obj, sizeof obj, "%s/walkmesh-bench-1m.obj", tmp && *tmp ? tmp : "/tmp");
        if (access(obj, R_OK) != 0 && generate(obj) != 0) {
            fprintf(stderr, "cannot write %s\n", obj);
            return 1;
        }
    }
    const char *convert[] = {cli, "convert", obj, wok, "--force", "--quiet", NULL};
    const char *info[] = {cli, "info", obj, "--quiet", NULL};
    const char *import[] = {obj, NULL};
    measure ours = best_of_three(run_cli, convert);
    measure read_only = best_of_three(run_cli, info);
    measure theirs = best_of_three(assimp_import, import);
    if (ours.status != 0 || theirs.status != 0 || read_only.status != 0) {
        fprintf(stderr, "failed: walkmesh exit %d, Assimp import exit %d\n", ours.status, theirs.status);
        return 1;
    }
    printf("%s (best of 3; CPU = user + system time)\n", obj);
    printf("walkmesh convert OBJ -> WOK   %.2f s wall  %.2f s CPU  %ld MB\n", ours.seconds, ours.cpu, ours.peak_kb / 1024);
    printf("walkmesh info (import only)   %.2f s wall  %.2f s CPU  %ld MB\n", read_only.seconds, read_only.cpu,
           read_only.peak_kb / 1024);
    printf("Assimp import alone (flags 0) %.2f s wall  %.2f s CPU  %ld MB\n", theirs.seconds, theirs.cpu,
           theirs.peak_kb / 1024);
    printf("ratio walkmesh convert / Assimp import: %.2f x CPU time, %.2f x memory\n", ours.cpu / theirs.cpu,
           (double)ours.peak_kb / (double)theirs.peak_kb);
    printf("ratio walkmesh import / Assimp import:  %.2f x CPU time, %.2f x memory\n", read_only.cpu / theirs.cpu,
           (double)read_only.peak_kb / (double)theirs.peak_kb);
    remove(wok);
    return 0;
}
