/* Assimp crashes or allocates without bound on some inputs (12 of its own
 * 494 test models did). The import therefore runs in a forked child with a
 * CPU-time limit and an address-space limit, watched by the parent for wall
 * time and resident memory; the child sends the finished neutral mesh (and
 * its warnings) back through a pipe. A child that dies becomes an input
 * error naming the file. Windows has no fork: the import runs in process. */
#ifndef _WIN32
#define _XOPEN_SOURCE 700 /* fork, pipe, poll, setrlimit, SIGXCPU, clock_gettime */
#endif
#include "assimp_module.h"

#ifdef _WIN32

wm_result wm_assimp_read(wm_ctx *ctx, const char *path, const wm_options *opts, wm_mesh *out)
{
    return wm_assimp_read_in_process(ctx, path, opts, out);
}

#else

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define WM_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WM_UNDER_ASAN 1
#endif
#endif

enum {
    CHILD_MEMORY_MB = 1024, /* address space of the importing child */
    CHILD_RESIDENT_MB = 768, /* the parent's watch on its resident size (polled: well below 1 GB) */
    CHILD_CPU_SECONDS = 20,
    CHILD_WALL_SECONDS = 25,
};
static const uint32_t reply_magic = 0x484d4d57u; /* "WMMH" */

/* ---- child: import, then serialise result, message, warnings and mesh ---- */

static void collect_warning(void *user, const char *message)
{
    wm_buffer *warnings = user;
    uint32_t n = (uint32_t)strlen(message);
    wm_put_u32(warnings, n);
    wm_put_bytes(warnings, message, n);
}

static void put_string(wm_buffer *b, const char *s)
{
    uint32_t n = (uint32_t)strlen(s);
    wm_put_u32(b, n);
    wm_put_bytes(b, s, n);
}

static int write_all(int fd, const uint8_t *data, size_t size)
{
    while (size) {
        ssize_t n = write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        data += n;
        size -= (size_t)n;
    }
    return 0;
}

/* A mesh's named points: count, then name (fixed size) and position each. */
static void put_points(wm_buffer *reply, const wm_mesh *mesh)
{
    wm_put_u32(reply, mesh->point_count);
    wm_put_bytes(reply, mesh->points, sizeof mesh->points[0] * (size_t)mesh->point_count);
}

static void run_child(wm_ctx *parent_ctx, const char *path, const wm_options *opts, int fd)
{
    /* The library never prints: glibc's abort reports and sanitizer reports
     * about Assimp's own faults must not reach the user either. */
    int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0)
        dup2(null_fd, STDERR_FILENO);
    struct rlimit cpu = {CHILD_CPU_SECONDS, CHILD_CPU_SECONDS + 1};
    setrlimit(RLIMIT_CPU, &cpu);
#ifndef WM_UNDER_ASAN /* AddressSanitizer reserves terabytes of address space up front */
    struct rlimit as = {(rlim_t)CHILD_MEMORY_MB << 20, (rlim_t)CHILD_MEMORY_MB << 20};
    setrlimit(RLIMIT_AS, &as);
#endif
    wm_ctx ctx = *parent_ctx;
    wm_buffer warnings, reply;
    wm_buffer_init(&warnings, &ctx);
    ctx.warn = collect_warning;
    ctx.warn_user = &warnings;
    ctx.warning_count = 0;
    wm_mesh mesh;
    wm_result r = wm_assimp_read_in_process(&ctx, path, opts, &mesh);
    wm_buffer_init(&reply, &ctx);
    wm_put_u32(&reply, reply_magic);
    wm_put_u32(&reply, (uint32_t)r);
    put_string(&reply, ctx.message);
    wm_put_u32(&reply, ctx.warning_count);
    wm_put_bytes(&reply, warnings.data, warnings.size);
    if (r == WM_OK) {
        put_string(&reply, mesh.name);
        wm_put_u32(&reply, mesh.vertex_count);
        wm_put_u32(&reply, mesh.triangle_count);
        wm_put_u32(&reply, mesh.object_count);
        for (uint32_t o = 0; o < mesh.object_count; o++)
            put_string(&reply, mesh.object_names[o]);
        /* the same machine reads it back: arrays go as they are in memory */
        wm_put_bytes(&reply, mesh.positions, 3 * sizeof(float) * (size_t)mesh.vertex_count);
        wm_put_bytes(&reply, mesh.indices, 3 * sizeof(uint32_t) * (size_t)mesh.triangle_count);
        wm_put_bytes(&reply, mesh.surfaces, sizeof(uint16_t) * (size_t)mesh.triangle_count);
        wm_put_bytes(&reply, mesh.walkable, (size_t)mesh.triangle_count);
        wm_put_bytes(&reply, mesh.objects, sizeof(uint16_t) * (size_t)mesh.triangle_count);
        wm_put_bytes(&reply, mesh.transitions, 3 * sizeof(int32_t) * (size_t)mesh.triangle_count);
        put_points(&reply, &mesh);
    }
    int ok = reply.status == WM_OK && write_all(fd, reply.data, reply.size) == 0;
    _exit(ok ? 0 : 3); /* no atexit handlers, no stdio flush of the parent's buffers */
}

/* ---- parent: read the reply with a deadline and a memory watch ---- */

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Resident size of the child in MiB (Linux /proc; 0 elsewhere, where RLIMIT_AS alone bounds it). */
static long resident_mb(pid_t pid)
{
    char name[64];
    snprintf(name, sizeof name, "/proc/%ld/statm", (long)pid);
    FILE *f = fopen(name, "r");
    if (!f)
        return 0;
    long size = 0, resident = 0;
    int n = fscanf(f, "%ld %ld", &size, &resident);
    fclose(f);
    return n == 2 ? resident * (sysconf(_SC_PAGESIZE) / 1024) / 1024 : 0;
}

typedef enum watch_verdict { WATCH_DONE, WATCH_TIME, WATCH_MEMORY, WATCH_TOO_BIG, WATCH_NOMEM } watch_verdict;

static watch_verdict read_reply(wm_ctx *ctx, pid_t pid, int fd, wm_buffer *reply)
{
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    uint8_t chunk[65536];
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        int ready = poll(&p, 1, 10);
        if (ready > 0) {
            ssize_t n = read(fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return WATCH_DONE;
            if (reply->size + (size_t)n > ctx->limits.max_bytes)
                return WATCH_TOO_BIG;
            wm_put_bytes(reply, chunk, (size_t)n);
            if (reply->status)
                return WATCH_NOMEM;
        } else if (ready < 0 && errno != EINTR) {
            return WATCH_DONE;
        }
        if (seconds_since(&start) > CHILD_WALL_SECONDS)
            return WATCH_TIME;
        if (resident_mb(pid) > CHILD_RESIDENT_MB)
            return WATCH_MEMORY;
    }
}

static wm_result read_string(wm_cursor *cur, char *out, size_t out_size, const char *what)
{
    uint32_t n;
    const uint8_t *bytes;
    wm_result r = wm_read_u32(cur, &n, what);
    if (!r)
        r = wm_read_view(cur, &bytes, n, what);
    if (r)
        return r;
    size_t keep = n < out_size ? n : out_size - 1;
    memcpy(out, bytes, keep);
    out[keep] = '\0';
    return WM_OK;
}

static wm_result read_array(wm_cursor *cur, void *out, size_t size, const char *what)
{
    return size ? wm_read_bytes(cur, out, size, what) : WM_OK;
}

static wm_result read_points(wm_cursor *cur, wm_mesh *out)
{
    uint32_t count;
    wm_result r = wm_read_u32(cur, &count, "point count");
    if (!r && count > WM_MESH_MAX_POINTS)
        r = wm_cursor_error(cur, WM_ERR_CORRUPT, "%u named points", count);
    if (!r)
        r = wm_read_bytes(cur, out->points, sizeof out->points[0] * (size_t)count, "named points");
    for (uint32_t i = 0; !r && i < count; i++)
        out->points[i].name[WM_MESH_POINT_NAME - 1] = 0;
    if (!r)
        out->point_count = count;
    return r;
}

static wm_result decode_mesh(wm_ctx *ctx, wm_cursor *cur, wm_mesh *out)
{
    uint32_t vertices, triangles, objects;
    wm_result r = read_string(cur, out->name, sizeof out->name, "mesh name");
    if (!r)
        r = wm_read_u32(cur, &vertices, "vertex count");
    if (!r)
        r = wm_read_u32(cur, &triangles, "triangle count");
    if (!r)
        r = wm_read_u32(cur, &objects, "object count");
    if (!r)
        r = wm_cursor_check_array(cur, vertices, 12, 0, "vertices");
    if (!r)
        r = wm_cursor_check_array(cur, triangles, 29, 0, "triangles"); /* 12 + 2 + 1 + 2 + 12 bytes */
    if (!r && objects > 65536)
        r = wm_cursor_error(cur, WM_ERR_CORRUPT, "%u objects", objects);
    if (!r && objects) { /* names as they are: long ones may share a prefix */
        out->object_names = wm_alloc_array(ctx, objects, sizeof(char *));
        if (!out->object_names)
            return WM_ERR_NOMEM;
    }
    for (uint32_t o = 0; !r && o < objects; o++) {
        uint32_t n;
        const uint8_t *bytes;
        r = wm_read_u32(cur, &n, "object name");
        if (!r)
            r = wm_read_view(cur, &bytes, n, "object name");
        if (!r && !(out->object_names[o] = wm_alloc_array(ctx, (size_t)n + 1, 1)))
            r = WM_ERR_NOMEM;
        if (!r) {
            memcpy(out->object_names[o], bytes, n);
            out->object_count = o + 1;
        }
    }
    if (!r)
        r = wm_mesh_reserve(ctx, out, vertices, triangles);
    if (!r)
        r = read_array(cur, out->positions, 12 * (size_t)vertices, "positions");
    if (!r)
        r = read_array(cur, out->indices, 12 * (size_t)triangles, "indices");
    if (!r)
        r = read_array(cur, out->surfaces, 2 * (size_t)triangles, "surfaces");
    if (!r)
        r = read_array(cur, out->walkable, triangles, "walkable flags");
    if (!r)
        r = read_array(cur, out->objects, 2 * (size_t)triangles, "objects");
    if (!r)
        r = read_array(cur, out->transitions, 12 * (size_t)triangles, "transitions");
    if (!r)
        r = read_points(cur, out);
    if (r)
        return r;
    out->vertex_count = vertices;
    out->triangle_count = triangles;
    for (size_t i = 0; i < 3 * (size_t)triangles; i++)
        if (out->indices[i] >= vertices)
            return wm_cursor_error(cur, WM_ERR_CORRUPT, "triangle %zu refers to vertex %u of %u", i / 3,
                                   out->indices[i], vertices);
    for (uint32_t t = 0; t < triangles; t++)
        if (out->objects[t] >= (objects ? objects : 1))
            return wm_cursor_error(cur, WM_ERR_CORRUPT, "triangle %u in object %u of %u", t, out->objects[t],
                                   objects);
    return WM_OK;
}

/* Replays the child's warnings, then its result (message, mesh). */
static wm_result decode_reply(wm_ctx *ctx, const char *path, const wm_buffer *reply, wm_mesh *out)
{
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, reply->data, reply->size, "importer reply");
    uint32_t magic, result, warnings;
    char message[sizeof ctx->message];
    wm_result r = wm_read_u32(&cur, &magic, "magic");
    if (!r && magic != reply_magic)
        r = wm_cursor_error(&cur, WM_ERR_CORRUPT, "not an importer reply");
    if (!r)
        r = wm_read_u32(&cur, &result, "result");
    if (!r)
        r = read_string(&cur, message, sizeof message, "message");
    if (!r)
        r = wm_read_u32(&cur, &warnings, "warning count");
    for (uint32_t i = 0; !r && i < warnings; i++) {
        char warning[sizeof ctx->message];
        r = read_string(&cur, warning, sizeof warning, "warning");
        if (!r)
            wm_warn(ctx, "%s", warning);
    }
    if (r)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: the import process sent a broken reply", path);
    if (result != WM_OK)
        return wm_error(ctx, (wm_result)result, "%s", message);
    if (decode_mesh(ctx, &cur, out)) {
        char detail[sizeof ctx->message];
        memcpy(detail, ctx->message, sizeof detail);
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: the import process sent a broken mesh (%.400s)", path, detail);
    }
    return WM_OK;
}

wm_result wm_assimp_read(wm_ctx *ctx, const char *path, const wm_options *opts, wm_mesh *out)
{
    wm_mesh_init(out);
    char ext[16];
    wm_assimp_extension(path, ext, sizeof ext);
    if (strcmp(ext, "obj") == 0) /* read by our own bounded code, not Assimp */
        return wm_assimp_read_in_process(ctx, path, opts, out);
    int fds[2];
    if (pipe(fds) != 0)
        return wm_assimp_read_in_process(ctx, path, opts, out);
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return wm_assimp_read_in_process(ctx, path, opts, out);
    }
    if (pid == 0) {
        close(fds[0]);
        run_child(ctx, path, opts, fds[1]);
    }
    close(fds[1]);
    wm_buffer reply;
    wm_buffer_init(&reply, ctx);
    watch_verdict verdict = read_reply(ctx, pid, fds[0], &reply);
    if (verdict != WATCH_DONE)
        kill(pid, SIGKILL);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    wm_result r;
    if (verdict == WATCH_TIME)
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: the importer (Assimp) took more than %d s on this file: refused",
                     path, CHILD_WALL_SECONDS);
    else if (verdict == WATCH_MEMORY)
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: the importer (Assimp) used more than %d MB on this file: refused",
                     path, CHILD_RESIDENT_MB);
    else if (verdict == WATCH_TOO_BIG)
        r = wm_error(ctx, WM_ERR_LIMIT, "%s: the imported mesh is larger than the input limit", path);
    else if (verdict == WATCH_NOMEM)
        r = wm_error(ctx, WM_ERR_NOMEM, "%s: out of memory receiving the imported mesh", path);
    else if (WIFSIGNALED(status))
        r = wm_error(ctx, WM_ERR_CORRUPT,
                     "%s: the importer (Assimp) %s on this file (signal %d): it cannot be read; export it again "
                     "as glTF or OBJ",
                     path,
                     WTERMSIG(status) == SIGXCPU ? "ran out of CPU time"
                     : WTERMSIG(status) == SIGKILL ? "was stopped"
                                                   : "crashed",
                     WTERMSIG(status));
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        r = wm_error(ctx, WM_ERR_CORRUPT,
                     "%s: the importer (Assimp) failed on this file (a fault, or more than %d MB): it cannot be "
                     "read; export it again as glTF or OBJ",
                     path, CHILD_MEMORY_MB);
    else
        r = decode_reply(ctx, path, &reply, out);
    wm_buffer_free(&reply);
    if (r)
        wm_mesh_free(ctx, out);
    return r;
}

#endif
