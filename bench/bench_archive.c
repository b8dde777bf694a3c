/* Listing and extracting every member of a large archive against reading the same bytes once.
 *   bench_archive erf|bif SIZE_MB DIR
 * writes a synthetic archive of SIZE_MB (members of 256 KiB; for bif a chitin.key beside
 * data/bench.bif) into DIR once, reads the whole file once to warm the cache, then, best of three
 * each, alternating: the floor (read() of the file front to back into one 256 KiB buffer, summing
 * the bytes) and walkmesh (wm_archive_open, then every member: wm_archive_member_input, sum its
 * bytes, wm_archive_release). Best of five, alternating; prints wall and CPU times, the ratios, and
 * the process's peak resident memory (run one size per process). On a loaded machine the CPU
 * ratio is the steadier figure. */
#define _POSIX_C_SOURCE 200809L
#include "bench_support.h"
#include "wm_archive.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { MEMBER = 256 * 1024 };

static void put32(FILE *f, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    fwrite(b, 1, 4, f);
}

static void put_name(FILE *f, uint32_t i)
{
    char name[16] = {0};
    snprintf(name, sizeof name, "room%05u", i);
    fwrite(name, 1, 16, f);
}

static void put_members(FILE *f, uint32_t count)
{
    uint8_t *block = malloc(MEMBER);
    for (uint32_t i = 0; i < count; i++) {
        memset(block, (int)(i * 7 + 1), MEMBER);
        fwrite(block, 1, MEMBER, f);
    }
    free(block);
}

/* An ERF's header, key list and resource list for count members of member_size bytes, each
 * named room%05u, of type 2016. */
static void put_erf_tables(FILE *f, const char *kind, uint32_t count, uint32_t member_size)
{
    uint32_t keys = 160, resources = keys + 24 * count, data = resources + 8 * count;
    fwrite(kind, 1, 8, f);
    uint32_t header[9] = {0, 0, count, 160, keys, resources, 125, 1, 0xFFFFFFFFu};
    for (int i = 0; i < 9; i++)
        put32(f, header[i]);
    static const uint8_t reserved[116];
    fwrite(reserved, 1, sizeof reserved, f);
    for (uint32_t i = 0; i < count; i++) {
        put_name(f, i);
        put32(f, i);
        put32(f, 2016); /* type 2016 and the unused u16 */
    }
    for (uint32_t i = 0; i < count; i++) {
        put32(f, data + i * member_size);
        put32(f, member_size);
    }
}

static void write_erf(const char *path, uint32_t count)
{
    FILE *f = fopen(path, "wb");
    put_erf_tables(f, "ERF V1.0", count, MEMBER);
    put_members(f, count);
    fclose(f);
}

static void write_key_bif(const char *dir, uint32_t count)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/chitin.key", dir);
    FILE *f = fopen(path, "wb");
    static const char bif_name[] = "data\\bench.bif";
    uint32_t files = 64, keys = files + 12 + sizeof bif_name;
    fwrite("KEY V1  ", 1, 8, f);
    uint32_t header[6] = {1, count, files, keys, 125, 1};
    for (int i = 0; i < 6; i++)
        put32(f, header[i]);
    static const uint8_t reserved[32];
    fwrite(reserved, 1, sizeof reserved, f);
    put32(f, 0);
    put32(f, files + 12);
    uint8_t length_drives[4] = {sizeof bif_name, 0, 1, 0};
    fwrite(length_drives, 1, 4, f);
    fwrite(bif_name, 1, sizeof bif_name, f);
    for (uint32_t i = 0; i < count; i++) {
        put_name(f, i);
        uint8_t type[2] = {2016 & 0xFF, 2016 >> 8};
        fwrite(type, 1, 2, f);
        put32(f, i);
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/data", dir);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/data/bench.bif", dir);
    f = fopen(path, "wb");
    fwrite("BIFFV1  ", 1, 8, f);
    put32(f, count);
    put32(f, 0);
    put32(f, 20);
    for (uint32_t i = 0; i < count; i++) {
        put32(f, i);
        put32(f, 20 + 16 * count + i * MEMBER);
        put32(f, MEMBER);
        put32(f, 2016);
    }
    put_members(f, count);
    fclose(f);
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Both passes touch every byte once with this one function, and both sums are checked: a floor
 * whose sum nobody read was compiled away (the compiler saw the function had no effect), and
 * the floor then measured the copy alone, a third of the work. */
__attribute__((noinline)) static uint64_t sum_bytes(const uint8_t *data, size_t size)
{
    uint64_t total = 0;
    for (size_t i = 0; i < size; i++)
        total += data[i];
    return total;
}

/* The floor: the file read once, front to back, every byte summed. */
static double read_once(const char *path, uint64_t *sum)
{
    double t0 = bench_now();
    int fd = open(path, O_RDONLY);
    uint8_t *buffer = malloc(MEMBER); /* the size the members are read in */
    ssize_t n;
    uint64_t total = 0;
    while ((n = read(fd, buffer, MEMBER)) > 0)
        total += sum_bytes(buffer, (size_t)n);
    *sum = total;
    close(fd);
    free(buffer);
    return bench_now() - t0;
}

static double extract_all(const char *path, uint64_t *sum, uint32_t *members)
{
    double t0 = bench_now();
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_archive *archive = NULL;
    if (wm_archive_open(&ctx, path, &archive)) {
        fprintf(stderr, "%s\n", ctx.message);
        exit(1);
    }
    *sum = 0;
    *members = wm_archive_member_count(archive);
    for (uint32_t m = 0; m < *members; m++) {
        wm_input in;
        if (wm_archive_member_input(&ctx, archive, m, &in)) {
            fprintf(stderr, "%s\n", ctx.message);
            exit(1);
        }
        *sum += sum_bytes(in.data, in.size);
        wm_input_free(&ctx, &in);
        wm_archive_release(archive, m);
    }
    wm_archive_close(&ctx, archive);
    return bench_now() - t0;
}

/* bench_archive rooms N FILE OUT.erf: an ERF of N copies of FILE named room0000.<ext of FILE>
 * (type 2016), for batch conversions of a module of N rooms (bench/archive_batch.sh). */
static int write_rooms(int argc, char **argv)
{
    uint32_t count = (uint32_t)atol(argv[2]);
    FILE *in = fopen(argv[3], "rb"), *f = fopen(argv[4], "wb");
    if (!in || !f || count == 0)
        return 1;
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    uint8_t *room = malloc((size_t)size);
    if (fread(room, 1, (size_t)size, in) != (size_t)size)
        return 1;
    fclose(in);
    put_erf_tables(f, "MOD V1.0", count, (uint32_t)size);
    for (uint32_t i = 0; i < count; i++)
        fwrite(room, 1, (size_t)size, f);
    fclose(f);
    free(room);
    (void)argc;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "rooms") == 0)
        return write_rooms(argc, argv);
    if (argc != 4 || (strcmp(argv[1], "erf") != 0 && strcmp(argv[1], "bif") != 0)) {
        fprintf(stderr, "usage: bench_archive erf|bif SIZE_MB DIR | bench_archive rooms N FILE.wok OUT.mod\n");
        return 1;
    }
    int bif = argv[1][0] == 'b';
    uint32_t count = (uint32_t)(atol(argv[2]) * (1024 * 1024 / MEMBER));
    char archive[4096], bytes[4096];
    snprintf(archive, sizeof archive, "%s/%s", argv[3], bif ? "chitin.key" : "bench.erf");
    snprintf(bytes, sizeof bytes, "%s/%s", argv[3], bif ? "data/bench.bif" : "bench.erf");
    struct stat st;
    if (stat(bytes, &st) != 0 || (uint64_t)st.st_size < (uint64_t)count * MEMBER) {
        if (bif)
            write_key_bif(argv[3], count);
        else
            write_erf(archive, count);
    }
    uint64_t floor_sum, sum;
    uint32_t members;
    read_once(bytes, &floor_sum); /* warm the cache */
    double floor_best = 1e9, best = 1e9, floor_cpu = 1e9, cpu = 1e9;
    for (int round = 0; round < 5; round++) {
        double c0 = cpu_now(), f = read_once(bytes, &floor_sum), c1 = cpu_now();
        double w = extract_all(archive, &sum, &members), c2 = cpu_now();
        floor_best = f < floor_best ? f : floor_best;
        best = w < best ? w : best;
        floor_cpu = c1 - c0 < floor_cpu ? c1 - c0 : floor_cpu;
        cpu = c2 - c1 < cpu ? c2 - c1 : cpu;
    }
    uint64_t expected = 0;
    for (uint32_t i = 0; i < count; i++)
        expected += (uint64_t)(uint8_t)(i * 7 + 1) * MEMBER;
    printf("%s %s MB: %u members; wall: read once %.3f s, list + extract %.3f s (%.2fx); CPU: %.3f s, %.3f s "
           "(%.2fx); peak %ld KiB; bytes %s\n",
           argv[1], argv[2], members, floor_best, best, best / floor_best, floor_cpu, cpu, cpu / floor_cpu,
           bench_peak_rss_kb(), members == count && sum == expected && floor_sum >= sum ? "checked" : "MISMATCH");
    return 0;
}
