#include "wm_context.h"
#include "wm_platform.h"
#include "wm_surface.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wm_ctx_init(wm_ctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->limits.max_bytes = WM_DEFAULT_MAX_BYTES;
    ctx->limits.max_triangles = WM_DEFAULT_MAX_TRIANGLES;
    ctx->alloc.realloc_fn = wm_platform_realloc;
    ctx->alloc.free_fn = wm_platform_free;
}

const char *wm_ctx_message(const wm_ctx *ctx)
{
    return ctx->message;
}

const char *wm_result_name(wm_result result)
{
    switch (result) {
    case WM_OK: return "ok";
    case WM_ERR_IO: return "i/o error";
    case WM_ERR_TRUNCATED: return "truncated";
    case WM_ERR_CORRUPT: return "corrupt";
    case WM_ERR_LIMIT: return "over limit";
    case WM_ERR_NOMEM: return "out of memory";
    case WM_ERR_UNSUPPORTED: return "unsupported";
    case WM_ERR_AMBIGUOUS: return "ambiguous";
    case WM_ERR_INVALID: return "invalid";
    case WM_ERR_EXISTS: return "exists";
    case WM_ERR_OPTION: return "bad option";
    case WM_ERR_NOT_FORMAT: return "not this format";
    }
    return "unknown";
}

wm_result wm_error(wm_ctx *ctx, wm_result code, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(ctx->message, sizeof ctx->message, fmt, args);
    va_end(args);
    return code;
}

void wm_error_prefix(wm_ctx *ctx, const char *prefix)
{
    char old[sizeof ctx->message];
    size_t plen = strlen(prefix);
    int keep;
    /* Already prefixed (e.g. a cursor message naming the same file). */
    if (strncmp(ctx->message, prefix, plen) == 0 && (ctx->message[plen] == ':' || ctx->message[plen] == ' '))
        return;
    memcpy(old, ctx->message, sizeof old);
    keep = (int)(plen + 2 < sizeof old ? sizeof old - plen - 2 : 0);
    snprintf(ctx->message, sizeof ctx->message, "%s: %.*s", prefix, keep, old);
}

void wm_warn(wm_ctx *ctx, const char *fmt, ...)
{
    char text[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    ctx->warning_count++;
    if (ctx->warn)
        ctx->warn(ctx->warn_user, text);
}

void *wm_realloc_array(wm_ctx *ctx, void *ptr, size_t count, size_t elem_size)
{
    if (elem_size != 0 && count > SIZE_MAX / elem_size) {
        wm_error(ctx, WM_ERR_NOMEM, "allocation of %zu x %zu bytes overflows", count, elem_size);
        return NULL;
    }
    size_t bytes = count * elem_size;
    void *p = ctx->alloc.realloc_fn(ctx->alloc.user, ptr, bytes ? bytes : 1);
    if (!p)
        wm_error(ctx, WM_ERR_NOMEM, "out of memory allocating %zu bytes", bytes);
    return p;
}

void *wm_alloc_array(wm_ctx *ctx, size_t count, size_t elem_size)
{
    void *p = wm_realloc_array(ctx, NULL, count, elem_size);
    if (p)
        memset(p, 0, count * elem_size > 0 ? count * elem_size : 1);
    return p;
}

void wm_free(const wm_ctx *ctx, void *ptr)
{
    if (ptr)
        ctx->alloc.free_fn(ctx->alloc.user, ptr);
}

char *wm_strdup(wm_ctx *ctx, const char *s)
{
    size_t n = strlen(s) + 1;
    char *copy = wm_realloc_array(ctx, NULL, n, 1);
    if (copy)
        memcpy(copy, s, n);
    return copy;
}

wm_result wm_check_count(wm_ctx *ctx, uint64_t count, const char *what)
{
    if (count > ctx->limits.max_triangles)
        return wm_error(ctx, WM_ERR_LIMIT, "%s: %llu is over the limit of %llu", what, (unsigned long long)count,
                        (unsigned long long)ctx->limits.max_triangles);
    return WM_OK;
}
