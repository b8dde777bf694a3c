/* OBJ import at scale (issue 20): `walkmesh convert` of generated grid OBJs
 * of 100k, 1M and 5M triangles to WOK, each beside a parse floor run on
 * the same file in the same round (a process that only reads the file and
 * parses its numbers, with the same plain-decimal loop walkmesh uses), and
 * at 5M the conversion to glTF, WOK, TRX (--base) and WMO with its peak
 * memory against the bound 1.5 x output + neutral mesh. Beside them, what no
 * conversion avoids: an output floor (the parse floor, then a file of the
 * WOK's byte count written through the library's sink as the WOK writer
 * writes it) and, at 1M, the tree's share (every face read once a level, and
 * a compact median partitioning). Every figure is a ratio from this one run;
 * CPU is user + system time of each child.
 *
 *   bench_import_scale [WALKMESH_CLI [BASE.trx [BEFORE_CLI]]]   (files go to $TMPDIR)
 *
 * With BEFORE_CLI (an earlier build), each round also converts with it, so
 * that both builds' figures come from the same rounds, side by side.
 */
#define _GNU_SOURCE
#include "bench_support.h"
#include "wm_format.h"

#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A grid of n x n vertices, 2 (n - 1)^2 triangles, Y-up as Blender writes it. */
static int generate(const char *path, int n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "# %d x %d grid, %d triangles\no floor\n", n, n, 2 * (n - 1) * (n - 1));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
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
    double cpu; /* user + system of the child */
    double sys; /* the system part of cpu (page faults, the page cache) */
    long peak_kb;
    int status;
} measure;

static measure in_child(int (*fn)(char *const *), char *const *arg)
{
    measure m = {0, 0, 0, -1};
    sync(); /* the previous child's writes reach the disk first: its writeback does not run beside this one */
    pid_t pid = fork();
    if (pid == 0)
        _exit(fn(arg));
    int status;
    struct rusage u;
    if (pid < 0 || wait4(pid, &status, 0, &u) != pid)
        return m;
    m.cpu = (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
    m.sys = (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
    m.peak_kb = u.ru_maxrss;
    m.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return m;
}

static int run_cli(char *const *argv)
{
    int null_fd = open("/dev/null", O_WRONLY);
    dup2(null_fd, 1);
    dup2(null_fd, 2);
    execv(argv[0], argv);
    return 127;
}

/* The floor: read the file, parse every number of its v and f lines. Returns
 * the sum of the numbers (keeps the work alive), NAN when the file is unreadable. */
static double parse_numbers(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NAN;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size)
        return NAN;
    fclose(f);
    double sum = 0;
    for (const char *p = text, *end = text + size; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        if (eol - p > 2 && (p[0] == 'v' || p[0] == 'f') && p[1] == ' ')
            for (const char *q = p + 2; q < eol;) {
                while (q < eol && *q == ' ')
                    q++;
                double sign = q < eol && *q == '-' ? -1 : 1, v = 0, scale = 1;
                q += q < eol && *q == '-';
                while (q < eol && *q >= '0' && *q <= '9')
                    v = v * 10 + (*q++ - '0');
                if (q < eol && *q == '.')
                    for (q++; q < eol && *q >= '0' && *q <= '9'; scale *= 10)
                        v = v * 10 + (*q++ - '0');
                sum += sign * v / scale;
                while (q < eol && *q != ' ')
                    q++;
            }
        p = eol + 1;
    }
    free(text);
    return sum;
}

static int parse_floor(char *const *argv)
{
    double sum = parse_numbers(argv[0]);
    return isnan(sum) ? 1 : sum == 12345.678 ? 2 : 0; /* keeps the sum alive */
}

/* The output floor: the parse floor, then a file of the WOK's byte count (argv[2])
 * written through the library's output sink (temporary, sync, rename) in blocks of
 * the WOK writer's size, as `convert` writes it: what no converter can avoid. */
static int output_floor(char *const *argv)
{
    double sum = parse_numbers(argv[0]);
    size_t left = (size_t)strtoull(argv[2], NULL, 10), block = (size_t)256 << 10;
    uint8_t *data = aligned_alloc(4096, block); /* as the WOK writer aligns its block */
    wm_ctx ctx;
    wm_sink *sink = NULL;
    wm_ctx_init(&ctx);
    if (isnan(sum) || !data || wm_sink_open(&ctx, argv[1], 1, &sink))
        return 1;
    for (size_t i = 0; i < block; i++)
        data[i] = (uint8_t)(i * 7 + (size_t)sum);
    wm_result r = WM_OK;
    for (size_t n; left > 0 && !r; left -= n)
        r = wm_sink_write(sink, NULL, data, n = left < block ? left : block);
    if (!r)
        r = wm_sink_commit(sink);
    wm_sink_close(sink);
    free(data);
    return r ? 3 : 0;
}

/* The tree's partitioning minimum: a top-down median split over compact 16-byte
 * records (centroid as 3 floats, face index) of the grid's triangles, each node one
 * pass for its centroid box (longest axis) and one selection (Hoare partitions, median
 * of three): the least any top-down median tree touches, every face once or twice a
 * level. The WOK tree also needs the faces' boxes, so its real cost is higher. */
typedef struct centroid {
    float c[3];
    uint32_t face;
} centroid;

static int centroid_less(const centroid *a, const centroid *b, int axis)
{
    return a->c[axis] < b->c[axis] || (a->c[axis] == b->c[axis] && a->face < b->face);
}

static void select_median(centroid *r, long lo, long hi, long kth, int axis)
{
    while (hi > lo) {
        long mid = lo + (hi - lo) / 2, i = lo, j = hi;
        const centroid *a = &r[lo], *b = &r[mid], *c = &r[hi];
        centroid pivot = centroid_less(a, b, axis) ? (centroid_less(b, c, axis)   ? *b
                                                      : centroid_less(a, c, axis) ? *c
                                                                                  : *a)
                                                   : (centroid_less(a, c, axis)   ? *a
                                                      : centroid_less(b, c, axis) ? *c
                                                                                  : *b);
        while (i <= j) {
            while (centroid_less(&r[i], &pivot, axis))
                i++;
            while (centroid_less(&pivot, &r[j], axis))
                j--;
            if (i <= j) {
                centroid t = r[i];
                r[i++] = r[j];
                r[j--] = t;
            }
        }
        if (kth <= j)
            hi = j;
        else if (kth >= i)
            lo = i;
        else
            return;
    }
}

static void split_node(centroid *r, size_t lo, size_t hi)
{
    if (hi - lo < 2)
        return;
    float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = lo; i < hi; i++)
        for (int k = 0; k < 3; k++) {
            mn[k] = r[i].c[k] < mn[k] ? r[i].c[k] : mn[k];
            mx[k] = r[i].c[k] > mx[k] ? r[i].c[k] : mx[k];
        }
    int axis = 0;
    for (int k = 1; k < 3; k++)
        axis = mx[k] - mn[k] > mx[axis] - mn[axis] ? k : axis;
    size_t half = (hi - lo) / 2;
    select_median(r, (long)lo, (long)hi - 1, (long)(lo + half), axis);
    split_node(r, lo, lo + half);
    split_node(r, lo + half, hi);
}

static double thread_cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The lower bound of any top-down median tree: every face's record read once a level
 * (here a pass taking the box of all keys), ceil(log2 n) levels, nothing moved. */
static float touch_levels(const centroid *r, size_t count)
{
    float sum = 0;
    for (size_t level = 1; level < count; level *= 2) {
        float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (size_t i = 0; i < count; i++)
            for (int k = 0; k < 3; k++) {
                mn[k] = r[i].c[k] < mn[k] ? r[i].c[k] : mn[k];
                mx[k] = r[i].c[k] > mx[k] ? r[i].c[k] : mx[k];
            }
        sum += mx[0] - mn[0] + mx[1] - mn[1] + mx[2] - mn[2];
    }
    return sum;
}

/* Least CPU of three partitionings of the grid of n x n vertices (as generate() writes
 * it) into *partition, and of three touch-once passes (touch_levels) into *touch. */
static void partition_minimum(int n, double *partition, double *touch)
{
    size_t count = 2 * (size_t)(n - 1) * (size_t)(n - 1);
    centroid *fresh = malloc(count * sizeof *fresh), *work = malloc(count * sizeof *work);
    *partition = *touch = NAN;
    if (!fresh || !work)
        return;
    for (int j = 0, f = 0; j + 1 < n; j++)
        for (int i = 0; i + 1 < n; i++)
            for (int half = 0; half < 2; half++, f++) {
                int corner[2][3][2] = {{{0, 0}, {1, 0}, {1, 1}}, {{0, 0}, {1, 1}, {0, 1}}};
                float c[3] = {0, 0, 0};
                for (int v = 0; v < 3; v++) {
                    int x = i + corner[half][v][0], y = j + corner[half][v][1];
                    c[0] += x * 0.5f / 3;
                    c[1] += y * 0.5f / 3;
                    c[2] += ((x * 7 + y * 13) % 17) * 0.01f / 3;
                }
                fresh[f] = (centroid){{c[0], c[1], c[2]}, (uint32_t)f};
            }
    *partition = *touch = INFINITY;
    volatile float keep = 0;
    for (int round = 0; round < 3; round++) {
        memcpy(work, fresh, count * sizeof *work);
        double start = thread_cpu();
        split_node(work, 0, count);
        double middle = thread_cpu();
        keep += touch_levels(fresh, count);
        double end = thread_cpu();
        *partition = middle - start < *partition ? middle - start : *partition;
        *touch = end - middle < *touch ? end - middle : *touch;
    }
    (void)keep;
    free(fresh);
    free(work);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : 0;
}

/* Bytes of the files written beside <stem>.gltf (<stem>.bin) or <stem>.wmo
 * (its groups <stem>_000.wmo...); removed when `remove_them`. */
static long side_files(const char *stem, int gltf, int remove_them)
{
    char side[4200];
    long bytes = 0;
    for (int group = 0; group < 100000; group++) {
        if (gltf && group > 0)
            break;
        if (gltf)
            snprintf(side, sizeof side, "%s.bin", stem);
        else
            snprintf(side, sizeof side, "%s_%03d.wmo", stem, group);
        long size = file_size(side);
        if (!size && !gltf)
            break;
        bytes += size;
        if (remove_them)
            remove(side);
    }
    return bytes;
}

typedef struct size_point {
    int grid;
    long triangles;
    char obj[4096];
    long wok_bytes;
    measure convert, floor, before; /* before: the earlier build's conversion, when given */
    measure output;                 /* the output floor: parse, then write wok_bytes through the sink */
} size_point;

/* Keeps the run of least CPU in *best, the highest peak over all runs. */
static void keep_least(measure *best, measure m)
{
    if (m.cpu < best->cpu) {
        best->cpu = m.cpu;
        best->sys = m.sys;
    }
    best->peak_kb = m.peak_kb > best->peak_kb ? m.peak_kb : best->peak_kb;
}

/* Alternates convert (and the earlier build's, when given) and floor
 * `rounds` times; keeps the least CPU of each (the least disturbed). */
static int measure_point(const char *cli, const char *before, size_point *s, int rounds)
{
    char wok[4200], floor_out[4200], bytes[32];
    snprintf(wok, sizeof wok, "%s.wok", s->obj);
    snprintf(floor_out, sizeof floor_out, "%s.floor.wok", s->obj);
    char *convert[] = {(char *)cli, "convert", s->obj, wok, "--force", "--quiet", NULL};
    char *convert_before[] = {(char *)before, "convert", s->obj, wok, "--force", "--quiet", NULL};
    char *floor_arg[] = {s->obj, NULL};
    char *output_arg[] = {s->obj, floor_out, bytes, NULL};
    s->convert.cpu = s->floor.cpu = s->before.cpu = s->output.cpu = 1e30;
    for (int i = 0; i < rounds; i++) {
        measure c = in_child(run_cli, convert), f = in_child(parse_floor, floor_arg);
        s->wok_bytes = file_size(wok);
        snprintf(bytes, sizeof bytes, "%ld", s->wok_bytes);
        measure b = before ? in_child(run_cli, convert_before) : c;
        measure o = in_child(output_floor, output_arg);
        if (c.status || f.status || b.status || o.status || file_size(floor_out) != s->wok_bytes) {
            fprintf(stderr, "%s: convert exit %d, floor exit %d, before exit %d, output floor exit %d\n", s->obj,
                    c.status, f.status, b.status, o.status);
            return -1;
        }
        keep_least(&s->convert, c);
        keep_least(&s->floor, f);
        keep_least(&s->before, b);
        keep_least(&s->output, o);
    }
    remove(wok);
    remove(floor_out);
    return 0;
}

/* What no conversion avoids, as ratios to the parse floor: writing the output, the tree's partitioning. */
static void floors_table(const size_point *points)
{
    printf("\n| triangles | WOK bytes | output floor CPU (system) | output floor / parse floor | convert / output "
           "floor |\n|---|---|---|---|---|\n");
    for (int i = 0; i < 3; i++) {
        const size_point *s = &points[i];
        printf("| %ld | %ld | %.3f s (%.3f s) | %.2f x | %.2f x |\n", s->triangles, s->wok_bytes, s->output.cpu,
               s->output.sys, s->output.cpu / s->floor.cpu, s->convert.cpu / s->output.cpu);
    }
    double partition, touch;
    partition_minimum(points[1].grid, &partition, &touch);
    printf("tree at %ld triangles: every face's 16-byte record read once a level (the lower bound of any top-down "
           "median tree) %.3f s, %.2f x the parse floor; a compact median partitioning (a centroid box pass and a "
           "selection a node) %.3f s, %.2f x\n",
           points[1].triangles, touch, touch / points[1].floor.cpu, partition, partition / points[1].floor.cpu);
}

/* Growth exponent of CPU (user time alone when `user`) from points[0] to points[2]. */
static double exponent(const size_point *points, size_t field, int user)
{
    const measure *a = (const measure *)((const char *)&points[0] + field);
    const measure *b = (const measure *)((const char *)&points[2] + field);
    double ratio = user ? (b->cpu - b->sys) / (a->cpu - a->sys) : b->cpu / a->cpu;
    return log(ratio) / log((double)points[2].triangles / (double)points[0].triangles);
}

/* The earlier build's conversion beside this one's, from the same rounds. */
static void before_table(const size_point *points)
{
    printf("\n| triangles | before: convert CPU (system) | after | ratio to floor before / after | peak before / "
           "after | bytes a triangle before / after |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i < 3; i++) {
        const size_point *s = &points[i];
        printf("| %ld | %.3f s (%.3f s) | %.3f s (%.3f s) | %.2f x / %.2f x | %.0f / %.0f MB | %.0f / %.0f |\n",
               s->triangles, s->before.cpu, s->before.sys, s->convert.cpu, s->convert.sys, s->before.cpu / s->floor.cpu,
               s->convert.cpu / s->floor.cpu, s->before.peak_kb / 1024.0, s->convert.peak_kb / 1024.0,
               s->before.peak_kb * 1024.0 / (double)s->triangles, s->convert.peak_kb * 1024.0 / (double)s->triangles);
    }
    printf("growth exponent before: %.3f (user time %.3f); after: %.3f (user time %.3f)\n",
           exponent(points, offsetof(size_point, before), 0), exponent(points, offsetof(size_point, before), 1),
           exponent(points, offsetof(size_point, convert), 0), exponent(points, offsetof(size_point, convert), 1));
}

/* Outputs at 5M: peak memory against 1.5 x output + the neutral mesh. */
static void memory_table(const char *cli, const size_point *s, const char *base_trx)
{
    static const char *const kinds[] = {"gltf", "wok", "trx", "wmo"};
    /* neutral mesh: 12 B a vertex; indices 12, transitions 12, surface 2, object 2, walkable 1 B a triangle */
    double vertices = (double)s->grid * s->grid;
    double mesh = 12 * vertices + 29.0 * (double)s->triangles;
    printf("\n| output (%ld triangles) | peak memory | output size | neutral mesh | bound 1.5 x output + mesh | "
           "within |\n|---|---|---|---|---|---|\n",
           s->triangles);
    for (int k = 0; k < 4; k++) {
        char out[4200];
        snprintf(out, sizeof out, "%s.%s", s->obj, kinds[k]);
        char *argv[10] = {(char *)cli, "convert", (char *)s->obj, out, "--force", "--quiet", NULL};
        if (k == 2) {
            if (!base_trx) {
                printf("| trx | (no base TRX given) | | | | |\n");
                continue;
            }
            argv[6] = "--base";
            argv[7] = (char *)base_trx;
            argv[8] = NULL;
        }
        measure m = in_child(run_cli, argv);
        long bytes = file_size(out) + side_files(s->obj, k == 0, 0);
        double bound = 1.5 * (double)bytes + mesh;
        if (m.status)
            printf("| %s | failed (exit %d) | | | | |\n", kinds[k], m.status);
        else
            printf("| %s | %.0f MB | %.0f MB | %.0f MB | %.0f MB | %s (%.2f x) |\n", kinds[k], m.peak_kb / 1024.0,
                   bytes / 1048576.0, mesh / 1048576.0, bound / 1048576.0, m.peak_kb * 1024.0 <= bound ? "yes" : "no",
                   m.peak_kb * 1024.0 / bound);
        remove(out);
        side_files(s->obj, k == 0, 1);
    }
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
        snprintf(strrchr(cli, '/'), 32, "/../tools/walkmesh");
    }
    const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    size_point points[3] = {{.grid = 225}, {.grid = 708}, {.grid = 1582}};
    for (int i = 0; i < 3; i++) {
        size_point *s = &points[i];
        s->triangles = 2L * (s->grid - 1) * (s->grid - 1);
        snprintf(s->obj, sizeof s->obj, "%s/walkmesh-bench-grid-%d.obj", tmp, s->grid);
        if (access(s->obj, R_OK) != 0 && generate(s->obj, s->grid) != 0) {
            fprintf(stderr, "cannot write %s\n", s->obj);
            return 1;
        }
        if (measure_point(cli, argc > 3 ? argv[3] : NULL, s, 5))
            return 1;
    }
    printf("| triangles | OBJ size | convert to WOK CPU (system) | parse floor CPU | ratio | peak memory | bytes per "
           "triangle |\n|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < 3; i++) {
        const size_point *s = &points[i];
        printf("| %ld | %.0f MB | %.3f s (%.3f s) | %.3f s | %.2f x | %.0f MB | %.0f |\n", s->triangles,
               file_size(s->obj) / 1048576.0, s->convert.cpu, s->convert.sys, s->floor.cpu, s->convert.cpu / s->floor.cpu,
               s->convert.peak_kb / 1024.0, s->convert.peak_kb * 1024.0 / (double)s->triangles);
    }
    printf("\ngrowth exponent of convert CPU, 100k -> 5M triangles: %.3f (target <= 1.05); user time alone: %.3f\n",
           exponent(points, offsetof(size_point, convert), 0), exponent(points, offsetof(size_point, convert), 1));
    printf("convert / parse floor at 1M: %.2f x (target <= 3)\n", points[1].convert.cpu / points[1].floor.cpu);
    printf("bytes per triangle at peak at 5M: %.0f (target <= 120)\n",
           points[2].convert.peak_kb * 1024.0 / (double)points[2].triangles);
    floors_table(points);
    if (argc > 3)
        before_table(points);
    memory_table(cli, &points[2], argc > 2 && *argv[2] ? argv[2] : NULL);
    return 0;
}
