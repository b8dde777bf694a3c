/* Bounded little-endian binary I/O and atomic file output.
 * Every binary read in the library goes through wm_cursor: a read past the
 * end fails with WM_ERR_TRUNCATED and a message naming the source, the
 * offset and what was being read. */
#ifndef WM_IO_H
#define WM_IO_H

#include "wm_api.h"

#include "wm_context.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wm_cursor {
    const uint8_t *data;
    size_t size;
    size_t pos;
    wm_ctx *ctx;
    const char *source; /* file name (or "<memory>") used in messages */
} wm_cursor;

WM_API void wm_cursor_init(wm_cursor *cur, wm_ctx *ctx, const void *data, size_t size, const char *source);
WM_API size_t wm_cursor_remaining(const wm_cursor *cur);

WM_API wm_result wm_read_u8(wm_cursor *cur, uint8_t *out, const char *what);
WM_API wm_result wm_read_u16(wm_cursor *cur, uint16_t *out, const char *what);
WM_API wm_result wm_read_i16(wm_cursor *cur, int16_t *out, const char *what);
WM_API wm_result wm_read_u32(wm_cursor *cur, uint32_t *out, const char *what);
WM_API wm_result wm_read_i32(wm_cursor *cur, int32_t *out, const char *what);
WM_API wm_result wm_read_f32(wm_cursor *cur, float *out, const char *what);
WM_API wm_result wm_read_bytes(wm_cursor *cur, void *out, size_t n, const char *what);
/* Returns a pointer into the data (no copy). */
WM_API wm_result wm_read_view(wm_cursor *cur, const uint8_t **out, size_t n, const char *what);
WM_API wm_result wm_cursor_seek(wm_cursor *cur, size_t pos, const char *what);
WM_API wm_result wm_cursor_skip(wm_cursor *cur, size_t n, const char *what);

/* Checks that count elements of elem_size bytes fit in the remaining data
 * and that count <= limit (0 = use ctx->limits.max_triangles). Call before
 * allocating anything sized by count. */
WM_API wm_result wm_cursor_check_array(wm_cursor *cur, uint64_t count, size_t elem_size, uint64_t limit,
                                const char *what);

/* Formats "source: offset 0xNN: message" into the context. */
WM_API wm_result wm_cursor_error(wm_cursor *cur, wm_result code, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(3, 4)
#endif
    ;

/* Little-endian decoding of raw bytes (for callers that already hold a view). */
WM_API uint16_t wm_le16(const uint8_t *p);
WM_API uint32_t wm_le32(const uint8_t *p);
WM_API float wm_lef32(const uint8_t *p);
/* Stores v little-endian at p (a field patched in a header already in memory). */
WM_API void wm_store_le32(uint8_t *p, uint32_t v);

/* Growable little-endian writer with a sticky error: check status once at the end. */
typedef struct wm_buffer {
    uint8_t *data;
    size_t size;
    size_t capacity;
    wm_ctx *ctx;
    wm_result status;
} wm_buffer;

WM_API void wm_buffer_init(wm_buffer *buf, wm_ctx *ctx);
WM_API void wm_buffer_free(wm_buffer *buf);
WM_API wm_result wm_buffer_reserve(wm_buffer *buf, size_t extra);
WM_API void wm_put_u8(wm_buffer *buf, uint8_t v);
WM_API void wm_put_u16(wm_buffer *buf, uint16_t v);
WM_API void wm_put_i16(wm_buffer *buf, int16_t v);
WM_API void wm_put_u32(wm_buffer *buf, uint32_t v);
WM_API void wm_put_i32(wm_buffer *buf, int32_t v);
WM_API void wm_put_f32(wm_buffer *buf, float v);
WM_API void wm_put_bytes(wm_buffer *buf, const void *data, size_t n);
WM_API void wm_put_zeros(wm_buffer *buf, size_t n);
WM_API void wm_put_text(wm_buffer *buf, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(2, 3)
#endif
    ;
/* Overwrites 4 bytes at an earlier offset (for sizes known later). */
WM_API void wm_patch_u32(wm_buffer *buf, size_t offset, uint32_t v);

/* Reads a whole file, refusing files over ctx->limits.max_bytes.
 * Free *out_data with wm_free. Errors name the path. */
WM_API wm_result wm_file_read(wm_ctx *ctx, const char *path, uint8_t **out_data, size_t *out_size);
/* Writes one file all or nothing (a wm_sink with one output, see wm_format.h). With
 * overwrite == 0 an existing path is refused (WM_ERR_EXISTS), also one that appears
 * meanwhile. On any failure path is untouched and no temporary remains. */
WM_API wm_result wm_file_write_atomic(wm_ctx *ctx, const char *path, const void *data, size_t size, int overwrite);
/* Whether something exists at path (a file, folder or other); 0 for a NULL path. */
WM_API int wm_file_exists(const char *path);
/* The file name part of a path: after the last '/' (on Windows also '\\' or a drive's ':'). */
WM_API const char *wm_path_file_name(const char *path);

/* Length (1-4) of the well-formed UTF-8 sequence that starts text, or 0 when
 * the bytes there are not one (Latin-1, overlong, surrogate...). text is
 * NUL-terminated; a NUL at text[0] counts as length 1. */
WM_API int wm_utf8_length(const char *text);
/* text as a JSON string, quotes included: quotes, backslashes and control
 * characters escaped, bytes that are not UTF-8 written as U+FFFD. */
WM_API void wm_put_json_string(wm_buffer *buf, const char *text);

#ifdef __cplusplus
}
#endif
#endif
