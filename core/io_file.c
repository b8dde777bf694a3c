#include "wm_format.h"
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

wm_result wm_file_write_atomic(wm_ctx *ctx, const char *path, const void *data, size_t size, int overwrite)
{
    wm_sink *sink = NULL;
    wm_result r = wm_sink_open(ctx, path, overwrite, &sink);
    if (!r && !(r = wm_sink_write(sink, NULL, data, size)))
        r = wm_sink_commit(sink);
    wm_sink_close(sink);
    return r;
}
