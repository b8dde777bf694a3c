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

wm_result wm_input_load(wm_ctx *ctx, const char *path, wm_input *out)
{
    memset(out, 0, sizeof *out);
    uint8_t *data = NULL;
    size_t size = 0;
    wm_result r;
    if (strcmp(path, "-") == 0) {
        out->name = "(standard input)";
        r = read_stream(ctx, wm_platform_standard_stream(0), out->name, &data, &size);
    } else {
        out->name = out->path = path;
        r = wm_file_read(ctx, path, &data, &size);
    }
    if (r)
        return r;
    out->data = out->owned = data;
    out->size = size;
    return WM_OK;
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
    wm_free(ctx, in->owned);
    memset(in, 0, sizeof *in);
}

void wm_input_drop_bytes(wm_ctx *ctx, wm_input *in)
{
    wm_free(ctx, in->owned);
    in->owned = NULL;
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
