#include "wm_io.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void wm_cursor_init(wm_cursor *cur, wm_ctx *ctx, const void *data, size_t size, const char *source)
{
    cur->data = data;
    cur->size = size;
    cur->pos = 0;
    cur->ctx = ctx;
    cur->source = source ? source : "<memory>";
}

size_t wm_cursor_remaining(const wm_cursor *cur)
{
    return cur->size - cur->pos;
}

wm_result wm_cursor_error(wm_cursor *cur, wm_result code, const char *fmt, ...)
{
    char text[768];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    return wm_error(cur->ctx, code, "%s: offset 0x%zx: %s", cur->source, cur->pos, text);
}

static wm_result need(wm_cursor *cur, size_t n, const char *what)
{
    if (n > cur->size - cur->pos)
        return wm_cursor_error(cur, WM_ERR_TRUNCATED, "file ends while reading %s (%zu bytes needed, %zu left)",
                               what, n, cur->size - cur->pos);
    return WM_OK;
}

uint16_t wm_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

uint32_t wm_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

void wm_store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

float wm_lef32(const uint8_t *p)
{
    uint32_t bits = wm_le32(p);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

wm_result wm_read_u8(wm_cursor *cur, uint8_t *out, const char *what)
{
    wm_result r = need(cur, 1, what);
    if (r)
        return r;
    *out = cur->data[cur->pos++];
    return WM_OK;
}

wm_result wm_read_u16(wm_cursor *cur, uint16_t *out, const char *what)
{
    wm_result r = need(cur, 2, what);
    if (r)
        return r;
    *out = wm_le16(cur->data + cur->pos);
    cur->pos += 2;
    return WM_OK;
}

wm_result wm_read_i16(wm_cursor *cur, int16_t *out, const char *what)
{
    uint16_t v;
    wm_result r = wm_read_u16(cur, &v, what);
    if (!r)
        memcpy(out, &v, sizeof v);
    return r;
}

wm_result wm_read_u32(wm_cursor *cur, uint32_t *out, const char *what)
{
    wm_result r = need(cur, 4, what);
    if (r)
        return r;
    *out = wm_le32(cur->data + cur->pos);
    cur->pos += 4;
    return WM_OK;
}

wm_result wm_read_i32(wm_cursor *cur, int32_t *out, const char *what)
{
    uint32_t v;
    wm_result r = wm_read_u32(cur, &v, what);
    if (!r)
        memcpy(out, &v, sizeof v);
    return r;
}

wm_result wm_read_f32(wm_cursor *cur, float *out, const char *what)
{
    uint32_t v;
    wm_result r = wm_read_u32(cur, &v, what);
    if (!r)
        memcpy(out, &v, sizeof v);
    return r;
}

wm_result wm_read_bytes(wm_cursor *cur, void *out, size_t n, const char *what)
{
    wm_result r = need(cur, n, what);
    if (r)
        return r;
    if (n)
        memcpy(out, cur->data + cur->pos, n);
    cur->pos += n;
    return WM_OK;
}

wm_result wm_read_view(wm_cursor *cur, const uint8_t **out, size_t n, const char *what)
{
    wm_result r = need(cur, n, what);
    if (r)
        return r;
    *out = cur->data + cur->pos;
    cur->pos += n;
    return WM_OK;
}

wm_result wm_cursor_seek(wm_cursor *cur, size_t pos, const char *what)
{
    if (pos > cur->size)
        return wm_cursor_error(cur, WM_ERR_TRUNCATED, "%s at offset 0x%zx lies past the end (size 0x%zx)", what, pos,
                               cur->size);
    cur->pos = pos;
    return WM_OK;
}

wm_result wm_cursor_skip(wm_cursor *cur, size_t n, const char *what)
{
    wm_result r = need(cur, n, what);
    if (r)
        return r;
    cur->pos += n;
    return WM_OK;
}

wm_result wm_cursor_check_array(wm_cursor *cur, uint64_t count, size_t elem_size, uint64_t limit, const char *what)
{
    if (limit == 0)
        limit = cur->ctx->limits.max_triangles;
    if (count > limit)
        return wm_cursor_error(cur, WM_ERR_LIMIT, "%s count %llu is over the limit of %llu", what,
                               (unsigned long long)count, (unsigned long long)limit);
    uint64_t left = cur->size - cur->pos;
    if (elem_size != 0 && count > left / elem_size)
        return wm_cursor_error(cur, WM_ERR_TRUNCATED, "%s count %llu needs %llu bytes but only %llu are left", what,
                               (unsigned long long)count, (unsigned long long)(count * (uint64_t)elem_size),
                               (unsigned long long)left);
    return WM_OK;
}
