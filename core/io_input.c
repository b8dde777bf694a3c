/* Inputs in memory: files and standard input read once by core/, and side files beside them. */
#include "wm_format.h"
#include "wm_io.h"
#include "wm_platform.h"

#include <errno.h>
#include <string.h>

/* Standard input to its end (a pipe has no size to ask for), bounded by the byte limit. */
static wm_result read_stream(wm_ctx *ctx, int fd, const char *name, uint8_t **out_data, size_t *out_size)
{
    wm_buffer buf;
    wm_buffer_init(&buf, ctx);
    for (;;) {
        if (wm_buffer_reserve(&buf, 1 << 16)) {
            wm_buffer_free(&buf);
            return WM_ERR_NOMEM;
        }
        ptrdiff_t n = wm_platform_read(fd, buf.data + buf.size, buf.capacity - buf.size);
        if (n < 0) {
            wm_buffer_free(&buf);
            return wm_error(ctx, WM_ERR_IO, "%s: read failed: %s", name, strerror(errno));
        }
        if (n == 0)
            break;
        buf.size += (size_t)n;
        if (buf.size > ctx->limits.max_bytes) {
            wm_buffer_free(&buf);
            return wm_error(ctx, WM_ERR_LIMIT, "%s: more than the limit of %llu bytes", name,
                            (unsigned long long)ctx->limits.max_bytes);
        }
    }
    *out_data = buf.data;
    *out_size = buf.size;
    return WM_OK;
}

/* The bytes of a file open for reading (fd, closed on return); errors name path. */
static wm_result read_open_file(wm_ctx *ctx, int fd, const char *path, uint8_t **out_data, size_t *out_size)
{
    *out_data = NULL;
    *out_size = 0;
    int regular = 0;
    uint64_t file_size = 0;
    if (wm_platform_file_info(fd, &regular, &file_size) != 0 || !regular) {
        wm_platform_close(fd);
        return wm_error(ctx, WM_ERR_IO, "%s: not a regular file", path);
    }
    if (file_size > ctx->limits.max_bytes) {
        wm_platform_close(fd);
        return wm_error(ctx, WM_ERR_LIMIT, "%s: file of %llu bytes is over the limit of %llu bytes", path,
                        (unsigned long long)file_size, (unsigned long long)ctx->limits.max_bytes);
    }
    size_t size = (size_t)file_size;
    uint8_t *data = wm_realloc_array(ctx, NULL, size ? size : 1, 1);
    if (!data) {
        wm_platform_close(fd);
        return WM_ERR_NOMEM;
    }
    size_t got = 0;
    while (got < size) {
        ptrdiff_t n = wm_platform_read(fd, data + got, size - got);
        if (n <= 0) {
            wm_free(ctx, data);
            wm_platform_close(fd);
            return wm_error(ctx, WM_ERR_IO, "%s: read failed at byte %zu", path, got);
        }
        got += (size_t)n;
    }
    wm_platform_close(fd);
    *out_data = data;
    *out_size = size;
    return WM_OK;
}

wm_result wm_file_read(wm_ctx *ctx, const char *path, uint8_t **out_data, size_t *out_size)
{
    *out_data = NULL;
    *out_size = 0;
    int fd = wm_platform_open_read(path);
    if (fd < 0)
        return wm_error(ctx, WM_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    return read_open_file(ctx, fd, path, out_data, out_size);
}

/* Files from this size on are mapped rather than read, when the context uses the default
 * allocator (a caller's allocator is asked for their memory as before): the bytes are not
 * copied into fresh memory, and a reader can let the pages it has read go (wm_input_release). */
#define WM_MAP_FROM ((uint64_t)16 << 20)

/* Maps the open file fd when that applies; fd stays open either way. An archive is mapped
 * whatever its size and allocator: its members, not the archive, are what the limits bound. */
static int map_file(const wm_ctx *ctx, int fd, int archive, wm_input *out)
{
    if (ctx->alloc.realloc_fn != wm_platform_realloc && !archive)
        return 0;
    int regular = 0;
    uint64_t size = 0;
    void *data = NULL;
    /* anything odd (not a regular file, over the limit) is left to read_open_file's messages */
    if (wm_platform_file_info(fd, &regular, &size) == 0 && regular && size >= WM_MAP_FROM &&
        (size <= ctx->limits.max_bytes || archive) && size <= SIZE_MAX)
        data = wm_platform_map_file(fd, (size_t)size);
    if (!data)
        return 0;
    out->data = out->owned = data;
    out->size = out->mapped = (size_t)size;
    return 1;
}

static void free_bytes(wm_ctx *ctx, wm_input *in)
{
    if (in->mapped)
        wm_platform_unmap_file(in->owned, in->mapped);
    else
        wm_free(ctx, in->owned);
    in->owned = NULL;
    in->mapped = 0;
}

void wm_input_release(const wm_input *in, size_t upto)
{
    if (in && in->mapped && in->data == in->owned)
        wm_platform_release_pages(in->data, upto < in->mapped ? upto : in->mapped);
}

static wm_result load_file(wm_ctx *ctx, const char *path, int archive, wm_input *out)
{
    memset(out, 0, sizeof *out);
    uint8_t *data = NULL;
    size_t size = 0;
    wm_result r;
    if (!path) /* a binding's None: refused, not dereferenced */
        return wm_error(ctx, WM_ERR_INVALID, "no input path given");
    if (strcmp(path, "-") == 0) {
        out->name = "(standard input)";
        r = read_stream(ctx, wm_platform_standard_stream(0), out->name, &data, &size);
    } else {
        out->name = out->path = path;
        int fd = wm_platform_open_read(path);
        if (fd < 0)
            return wm_error(ctx, WM_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        if (map_file(ctx, fd, archive, out)) {
            wm_platform_close(fd);
            return WM_OK;
        }
        r = read_open_file(ctx, fd, path, &data, &size);
    }
    if (r)
        return r;
    out->data = out->owned = data;
    out->size = size;
    return WM_OK;
}

wm_result wm_input_load_file(wm_ctx *ctx, const char *path, wm_input *out)
{
    return load_file(ctx, path, 0, out);
}

wm_result wm_input_load_archive(wm_ctx *ctx, const char *path, wm_input *out)
{
    return load_file(ctx, path, 1, out);
}

void wm_input_borrow(wm_input *out, const void *data, size_t size, const char *name)
{
    memset(out, 0, sizeof *out);
    out->data = data;
    out->size = size;
    out->name = name ? name : "(memory)";
}

void wm_input_free(wm_ctx *ctx, wm_input *in)
{
    free_bytes(ctx, in);
    if (in->source && in->source->release)
        in->source->release(ctx, in->source);
    memset(in, 0, sizeof *in);
}

void wm_input_drop_bytes(wm_ctx *ctx, wm_input *in)
{
    free_bytes(ctx, in);
    in->data = NULL;
    in->size = 0;
}

wm_result wm_input_beside(wm_ctx *ctx, const wm_input *in, const char *file_name, char **out_path,
                          uint8_t **out_data, size_t *out_size)
{
    *out_data = NULL;
    *out_size = 0;
    if (out_path)
        *out_path = NULL;
    if (in->source && in->source->beside)
        return in->source->beside(ctx, in->source, file_name, out_path, out_data, out_size);
    if (!in->path)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: %s would sit beside the file, but the input is not a file",
                        in->name, file_name);
    size_t dir = (size_t)(wm_path_file_name(in->path) - in->path), name = strlen(file_name);
    char *path = wm_alloc_array(ctx, dir + name + 1, 1);
    if (!path)
        return WM_ERR_NOMEM;
    memcpy(path, in->path, dir);
    memcpy(path + dir, file_name, name + 1);
    wm_result r = wm_platform_path_kind(path) == WM_PATH_MISSING
                      ? wm_error(ctx, WM_ERR_IO, "%s: no such file", path)
                      : wm_file_read(ctx, path, out_data, out_size);
    if (r || !out_path)
        wm_free(ctx, path);
    else
        *out_path = path;
    return r;
}
