/* Area assemble and split against the room count (issue 27, point 5).
 *   bench_area [--write] [SCRATCH] [ROOMS...]
 * For each room count: a folder of rooms on a square grid, each a .wok of two walkable
 * triangles meeting its neighbours edge to edge, one room in eight missing (a hole: the
 * missing-room path), and a layout naming them all. Times, in CPU and wall seconds (best of
 * three; the write once): assemble from the files (layout read, folder listed, rooms read),
 * split in memory (links found where rooms meet), and with --write the split's rooms written
 * as one output transaction (a synced file per room: wall time is mostly the disk's, some
 * milliseconds a file on a busy disk, so it is asked for, not run by default). Prints the
 * growth exponent log(t2/t1) / log(n2/n1) from the first size to the last: linear is 1.
 * Defaults: SCRATCH "bench-area" (created, removed after), 4096 8192 16384 32768 65535 rooms. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_support.h"
#include "bwm/bwm.h"
#include "walkmesh.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct timing {
    double cpu, wall;
} timing;

static void keep_best(timing *best, double cpu0, double wall0)
{
    double cpu = cpu_now() - cpu0, wall = bench_now() - wall0;
    if (best->cpu == 0 || cpu < best->cpu)
        best->cpu = cpu;
    if (best->wall == 0 || wall < best->wall)
        best->wall = wall;
}

static int write_bytes(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, size, f) == size;
    return (f && fclose(f) != 0) || !ok;
}

/* Room k: the unit square at grid cell (k % side, k / side), as .wok bytes. */
static int write_room(wm_ctx *ctx, const char *dir, uint32_t k, uint32_t side)
{
    wm_mesh m;
    wm_mesh_init(&m);
    float x = (float)(k % side), y = (float)(k / side);
    for (int i = 0; i < 4; i++)
        wm_mesh_add_vertex(ctx, &m, x + (float)(i & 1), y + (float)(i >> 1), 0, NULL);
    wm_mesh_add_triangle(ctx, &m, 0, 1, 3, 1, 1);
    wm_mesh_add_triangle(ctx, &m, 0, 3, 2, 1, 1);
    bwm_file file;
    wm_buffer bytes;
    char path[512];
    snprintf(path, sizeof path, "%s/room%05u.wok", dir, k);
    int failed = bwm_from_mesh_exact(ctx, &m, BWM_TYPE_AREA, BWM_PLANES_BIOWARE, NULL, &file) != WM_OK;
    if (!failed) {
        failed = bwm_serialize(ctx, &file, &bytes) != WM_OK || write_bytes(path, bytes.data, bytes.size);
        wm_buffer_free(&bytes);
        bwm_file_free(ctx, &file);
    }
    wm_mesh_free(ctx, &m);
    return failed;
}

static int make_area(wm_ctx *ctx, const char *dir, uint32_t rooms)
{
    uint32_t side = (uint32_t)ceil(sqrt((double)rooms));
    char path[512];
    snprintf(path, sizeof path, "%s/area.lyt", dir);
    FILE *lyt = fopen(path, "wb");
    if (!lyt)
        return 1;
    fprintf(lyt, "beginlayout\nroomcount %u\n", rooms);
    int failed = 0;
    for (uint32_t k = 0; k < rooms && !failed; k++) {
        fprintf(lyt, "room%05u 0 0 0\n", k);
        if (k % 8 != 7)
            failed = write_room(ctx, dir, k, side);
    }
    fprintf(lyt, "donelayout\n");
    return fclose(lyt) != 0 || failed;
}

static void remove_folder_files(const char *dir, uint32_t rooms)
{
    char path[512];
    for (uint32_t k = 0; k < rooms; k++) {
        snprintf(path, sizeof path, "%s/room%05u.wok", dir, k);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/area.lyt", dir);
    unlink(path);
    rmdir(dir);
}

static void quiet(void *user, const char *message)
{
    (void)user, (void)message;
}

/* Times for one room count: [0] assemble, [1] split, [2] write. */
static int measure(const char *scratch, uint32_t rooms, int write, timing t[3])
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.warn = quiet;
    char dir[400], out[420], lyt[440];
    snprintf(dir, sizeof dir, "%s/rooms%u", scratch, rooms);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(lyt, sizeof lyt, "%s/area.lyt", dir);
    mkdir(dir, 0777);
    if (make_area(&ctx, dir, rooms))
        return fprintf(stderr, "cannot make the rooms in %s\n", dir), 1;
    wm_layout layout;
    wm_mesh area, *split = calloc(rooms, sizeof *split);
    memset(t, 0, 3 * sizeof *t);
    int failed = !split;
    for (int round = 0; round < 3 && !failed; round++) {
        double cpu0 = cpu_now(), wall0 = bench_now();
        failed = wm_layout_load(&ctx, lyt, &layout) || wm_area_assemble_files(&ctx, &layout, lyt, NULL, &area);
        keep_best(&t[0], cpu0, wall0);
        if (failed)
            break;
        cpu0 = cpu_now(), wall0 = bench_now();
        failed = wm_area_split(&ctx, &area, &layout, 1e-3f, split) != WM_OK;
        keep_best(&t[1], cpu0, wall0);
        if (!failed && write && round == 2) {
            mkdir(out, 0777);
            cpu0 = cpu_now(), wall0 = bench_now();
            failed = wm_area_save_rooms(&ctx, &layout, split, out, 1) != WM_OK;
            keep_best(&t[2], cpu0, wall0);
            remove_folder_files(out, rooms);
        }
        for (uint32_t i = 0; !failed && i < rooms; i++)
            wm_mesh_free(&ctx, &split[i]);
        wm_mesh_free(&ctx, &area);
        wm_layout_free(&ctx, &layout);
    }
    if (failed)
        fprintf(stderr, "%u rooms: %s\n", rooms, wm_ctx_message(&ctx));
    free(split);
    remove_folder_files(dir, rooms);
    return failed;
}

int main(int argc, char **argv)
{
    int write = argc > 1 && strcmp(argv[1], "--write") == 0;
    argc -= write, argv += write;
    const char *scratch = argc > 1 ? argv[1] : "bench-area";
    uint32_t sizes[16] = {4096, 8192, 16384, 32768, 65535};
    int count = 5;
    if (argc > 2)
        for (count = 0; count + 2 < argc && count < 16; count++)
            sizes[count] = (uint32_t)strtoul(argv[count + 2], NULL, 10);
    mkdir(scratch, 0777);
    static const char *const names[3] = {"assemble", "split", "write"};
    timing first[3], last[3];
    printf("rooms    assemble cpu/wall s   split cpu/wall s   write cpu/wall s\n");
    for (int s = 0; s < count; s++) {
        timing t[3];
        if (measure(scratch, sizes[s], write, t))
            return 1;
        printf("%6u   %8.3f %8.3f   %8.3f %8.3f   %8.3f %8.3f\n", sizes[s], t[0].cpu, t[0].wall, t[1].cpu,
               t[1].wall, t[2].cpu, t[2].wall);
        fflush(stdout);
        memcpy(s == 0 ? first : last, t, sizeof t);
    }
    rmdir(scratch);
    if (count < 2)
        return 0;
    double span = log((double)sizes[count - 1] / sizes[0]);
    printf("growth exponent %u -> %u rooms (target <= 1.2):", sizes[0], sizes[count - 1]);
    for (int k = 0; k < 2 + write; k++)
        printf(" %s %.2f cpu, %.2f wall;", names[k], log(last[k].cpu / first[k].cpu) / span,
               log(last[k].wall / first[k].wall) / span);
    printf("\n");
    return 0;
}
