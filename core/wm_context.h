/* Result codes, the error/warning context and allocation helpers.
 * The library never prints or exits: every fallible call returns a
 * wm_result and leaves a one-line message in the context. */
#ifndef WM_CONTEXT_H
#define WM_CONTEXT_H

#include "wm_api.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum wm_result {
    WM_OK = 0,
    WM_ERR_IO,          /* file could not be opened, read or written */
    WM_ERR_TRUNCATED,   /* data ends before a structure it announces */
    WM_ERR_CORRUPT,     /* data of the format contradicts it (index out of range, sizes, ...) */
    WM_ERR_LIMIT,       /* a count or size exceeds the context's limits */
    WM_ERR_NOMEM,       /* allocation failed */
    WM_ERR_UNSUPPORTED, /* valid but not handled (version, operation not offered by the format) */
    WM_ERR_AMBIGUOUS,   /* several formats claim the input equally */
    WM_ERR_INVALID,     /* bad argument or invalid mesh given by the caller */
    WM_ERR_EXISTS,      /* output exists and overwriting was not allowed */
    WM_ERR_OPTION,      /* a module option has a value the module does not accept */
    WM_ERR_NOT_FORMAT   /* the data is not this format at all (wrong magic, no format recognises it) */
} wm_result;

typedef struct wm_allocator {
    void *(*realloc_fn)(void *user, void *ptr, size_t size); /* size 0 never passed */
    void (*free_fn)(void *user, void *ptr);
    void *user;
} wm_allocator;

typedef struct wm_limits {
    uint64_t max_bytes;     /* largest input file or decompressed packet */
    uint64_t max_triangles; /* largest triangle (and vertex) count accepted */
} wm_limits;

typedef void (*wm_warning_fn)(void *user, const char *message);

struct wm_surface_table;

typedef struct wm_ctx {
    char message[1024];
    wm_warning_fn warn;   /* NULL: warnings are only counted */
    void *warn_user;
    unsigned warning_count;
    wm_limits limits;
    wm_allocator alloc;
    const struct wm_surface_table *surfaces; /* NULL: the built-in table */
} wm_ctx;

/* Default limits: 1 GiB of input, 16 million triangles. */
#define WM_DEFAULT_MAX_BYTES (1024ull * 1024ull * 1024ull)
#define WM_DEFAULT_MAX_TRIANGLES (16ull * 1024ull * 1024ull)

WM_API void wm_ctx_init(wm_ctx *ctx);
WM_API const char *wm_ctx_message(const wm_ctx *ctx);
WM_API const char *wm_result_name(wm_result result);

/* Sets the context message (printf-style) and returns code, so callers can
 * write `return wm_error(ctx, WM_ERR_CORRUPT, "...")`. */
WM_API wm_result wm_error(wm_ctx *ctx, wm_result code, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(3, 4)
#endif
    ;

/* Prefixes the current message with "prefix: " (e.g. the file name). */
WM_API void wm_error_prefix(wm_ctx *ctx, const char *prefix);

WM_API void wm_warn(wm_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(2, 3)
#endif
    ;

/* Overflow-checked, zero-filled array allocation through the context's
 * allocator; on failure sets WM_ERR_NOMEM in ctx and returns NULL.
 * count == 0 returns a valid minimal allocation. */
WM_API void *wm_alloc_array(wm_ctx *ctx, size_t count, size_t elem_size);
/* Grows or shrinks; new tail bytes are NOT zeroed. Returns NULL on failure
 * (old block stays valid). */
WM_API void *wm_realloc_array(wm_ctx *ctx, void *ptr, size_t count, size_t elem_size);
WM_API void wm_free(const wm_ctx *ctx, void *ptr);
WM_API char *wm_strdup(wm_ctx *ctx, const char *s);

/* Checks a count read from a file against the triangle limit. */
WM_API wm_result wm_check_count(wm_ctx *ctx, uint64_t count, const char *what);

#ifdef __cplusplus
}
#endif
#endif
