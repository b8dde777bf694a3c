#include "wm_io.h"
#include "wm_platform.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int wm_file_exists(const char *path)
{
    return wm_platform_path_kind(path) != WM_PATH_MISSING;
}

wm_result wm_file_read(wm_ctx *ctx, const char *path, uint8_t **out_data, size_t *out_size)
{
    *out_data = NULL;
    *out_size = 0;
    int fd = wm_platform_open_read(path);
    if (fd < 0)
        return wm_error(ctx, WM_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
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

static wm_result write_failed(wm_ctx *ctx, const char *path, const char *what, char *tmp)
{
    wm_result r = wm_error(ctx, WM_ERR_IO, "%s: %s: %s", path, what, strerror(errno));
    wm_platform_remove(tmp);
    wm_free(ctx, tmp);
    return r;
}

wm_result wm_file_sink_write(wm_file_sink *sink, const void *data, size_t size)
{
    const uint8_t *p = data;
    while (sink->status == WM_OK && size > 0) {
        ptrdiff_t n = wm_platform_write(sink->fd, p, size);
        if (n <= 0) {
            sink->error = errno;
            sink->status = WM_ERR_IO;
            break;
        }
        p += n;
        size -= (size_t)n;
    }
    return sink->status;
}

wm_result wm_file_write_atomic_with(wm_ctx *ctx, const char *path, int overwrite, wm_file_producer produce,
                                    void *user)
{
    if (!overwrite && wm_file_exists(path))
        return wm_error(ctx, WM_ERR_EXISTS, "%s: exists already (use --force to overwrite)", path);
    size_t plen = strlen(path);
    char *tmp = wm_realloc_array(ctx, NULL, plen + 16, 1);
    if (!tmp)
        return WM_ERR_NOMEM;
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp-XXXXXX", 12);
    wm_file_sink sink = {wm_platform_create_temp(tmp), WM_OK, 0};
    if (sink.fd < 0) {
        wm_result r = wm_error(ctx, WM_ERR_IO, "%s: cannot create a temporary file beside it: %s", path, strerror(errno));
        wm_free(ctx, tmp);
        return r;
    }
    wm_result r = produce(ctx, user, &sink);
    if (r || sink.status) {
        wm_platform_close(sink.fd);
        if (sink.status) {
            errno = sink.error;
            return write_failed(ctx, path, "write failed", tmp);
        }
        wm_platform_remove(tmp);
        wm_free(ctx, tmp);
        return r;
    }
    if (wm_platform_finish_temp(sink.fd) != 0)
        return write_failed(ctx, path, "cannot finish the temporary file", tmp);
    if (!overwrite && wm_file_exists(path)) {
        wm_platform_remove(tmp);
        wm_free(ctx, tmp);
        return wm_error(ctx, WM_ERR_EXISTS, "%s: exists already (use --force to overwrite)", path);
    }
    if (wm_platform_replace(tmp, path) != 0)
        return write_failed(ctx, path, "cannot move the temporary file into place", tmp);
    wm_free(ctx, tmp);
    return WM_OK;
}

typedef struct bytes_view {
    const void *data;
    size_t size;
} bytes_view;

static wm_result produce_bytes(wm_ctx *ctx, void *user, wm_file_sink *sink)
{
    const bytes_view *v = user;
    (void)ctx;
    return wm_file_sink_write(sink, v->data, v->size);
}

wm_result wm_file_write_atomic(wm_ctx *ctx, const char *path, const void *data, size_t size, int overwrite)
{
    bytes_view v = {data, size};
    return wm_file_write_atomic_with(ctx, path, overwrite, produce_bytes, &v);
}

