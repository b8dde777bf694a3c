#include "wm_io.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void wm_buffer_init(wm_buffer *buf, wm_ctx *ctx)
{
    memset(buf, 0, sizeof *buf);
    buf->ctx = ctx;
}

void wm_buffer_free(wm_buffer *buf)
{
    wm_free(buf->ctx, buf->data);
    buf->data = NULL;
    buf->size = buf->capacity = 0;
}

wm_result wm_buffer_reserve(wm_buffer *buf, size_t extra)
{
    if (buf->status)
        return buf->status;
    if (extra <= buf->capacity - buf->size)
        return WM_OK;
    if (extra > SIZE_MAX / 2 - buf->size)
        return buf->status = wm_error(buf->ctx, WM_ERR_NOMEM, "output buffer too large");
    size_t capacity = buf->capacity ? buf->capacity : 4096;
    while (capacity - buf->size < extra)
        capacity *= 2;
    uint8_t *data = wm_realloc_array(buf->ctx, buf->data, capacity, 1);
    if (!data)
        return buf->status = WM_ERR_NOMEM;
    buf->data = data;
    buf->capacity = capacity;
    return WM_OK;
}

void wm_put_bytes(wm_buffer *buf, const void *data, size_t n)
{
    if (n == 0 || wm_buffer_reserve(buf, n))
        return;
    memcpy(buf->data + buf->size, data, n);
    buf->size += n;
}

void wm_put_zeros(wm_buffer *buf, size_t n)
{
    if (n == 0 || wm_buffer_reserve(buf, n))
        return;
    memset(buf->data + buf->size, 0, n);
    buf->size += n;
}

void wm_put_u8(wm_buffer *buf, uint8_t v)
{
    wm_put_bytes(buf, &v, 1);
}

void wm_put_u16(wm_buffer *buf, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    wm_put_bytes(buf, b, 2);
}

void wm_put_i16(wm_buffer *buf, int16_t v)
{
    uint16_t u;
    memcpy(&u, &v, sizeof u);
    wm_put_u16(buf, u);
}

void wm_put_u32(wm_buffer *buf, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    wm_put_bytes(buf, b, 4);
}

void wm_put_i32(wm_buffer *buf, int32_t v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    wm_put_u32(buf, u);
}

void wm_put_f32(wm_buffer *buf, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    wm_put_u32(buf, u);
}

void wm_put_text(wm_buffer *buf, const char *fmt, ...)
{
    char small[512];
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(small, sizeof small, fmt, args);
    va_end(args);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        wm_put_bytes(buf, small, (size_t)n);
        return;
    }
    if (wm_buffer_reserve(buf, (size_t)n + 1))
        return;
    va_start(args, fmt);
    vsnprintf((char *)buf->data + buf->size, (size_t)n + 1, fmt, args);
    va_end(args);
    buf->size += (size_t)n;
}

void wm_patch_u32(wm_buffer *buf, size_t offset, uint32_t v)
{
    if (buf->status || offset > buf->size || buf->size - offset < 4)
        return;
    uint8_t *p = buf->data + offset;
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
