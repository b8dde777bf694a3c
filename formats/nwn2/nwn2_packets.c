/* Read-only summaries of the TRRN and WATR packets for `info`; the packets
 * themselves are always kept byte-for-byte. */
#include "nwn2.h"

#include <string.h>

#define WATR_COUNTS_OFFSET 320u  /* name 32, unknown 96, colour 12, ripple 8, 5 floats, 3 textures of 48, uv 8 */
#define WATR_VERTEX_SIZE 28u
#define WATR_TRIANGLE_SIZE 10u   /* u16[3] + u32 flag per triangle */
#define TRRN_COUNTS_OFFSET 392u  /* name 128, 6 texture names of 32, 6 colours of 12 */
#define TRRN_VERTEX_SIZE 44u
#define TRRN_TRIANGLE_SIZE 6u

static wm_result skip_array(wm_cursor *cur, uint32_t count, size_t elem, const char *what)
{
    wm_result r = wm_cursor_check_array(cur, count, elem, cur->ctx->limits.max_bytes, what);
    return r ? r : wm_cursor_skip(cur, (size_t)count * elem, what);
}

static wm_result read_sized_blob(wm_cursor *cur, uint32_t *out_size, const char *what)
{
    wm_result r = wm_read_u32(cur, out_size, what);
    return r ? r : skip_array(cur, *out_size, 1, what);
}

wm_result nwn2_watr_summarise(wm_ctx *ctx, const uint8_t *payload, size_t size, const char *source,
                              nwn2_watr_summary *out)
{
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, payload, size, source);
    memset(out, 0, sizeof *out);
    wm_result r;
    if ((r = wm_cursor_seek(&cur, 128, "WATR colour")))
        return r;
    for (int k = 0; k < 3; k++)
        if ((r = wm_read_f32(&cur, &out->colour[k], "WATR colour")))
            return r;
    if ((r = wm_cursor_seek(&cur, WATR_COUNTS_OFFSET, "WATR counts")) ||
        (r = wm_read_u32(&cur, &out->vertex_count, "WATR vertex count")) ||
        (r = wm_read_u32(&cur, &out->triangle_count, "WATR triangle count")) ||
        (r = skip_array(&cur, out->vertex_count, WATR_VERTEX_SIZE, "WATR vertices")) ||
        (r = skip_array(&cur, out->triangle_count, WATR_TRIANGLE_SIZE, "WATR triangles")) ||
        (r = read_sized_blob(&cur, &out->dds_size, "WATR DDS")) ||
        (r = wm_read_u32(&cur, &out->megatile_x, "WATR megatile x")) ||
        (r = wm_read_u32(&cur, &out->megatile_y, "WATR megatile y")))
        return r;
    if (wm_cursor_remaining(&cur))
        return wm_cursor_error(&cur, WM_ERR_CORRUPT, "WATR: %zu bytes after the megatile position",
                               wm_cursor_remaining(&cur));
    return WM_OK;
}

wm_result nwn2_trrn_summarise(wm_ctx *ctx, const uint8_t *payload, size_t size, const char *source,
                              nwn2_trrn_summary *out)
{
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, payload, size, source);
    memset(out, 0, sizeof *out);
    wm_result r = wm_read_bytes(&cur, out->name, 128, "TRRN name");
    if (r)
        return r;
    out->name[128] = '\0';
    for (size_t i = 0; out->name[i]; i++)
        if ((unsigned char)out->name[i] < 0x20 || (unsigned char)out->name[i] > 0x7e)
            out->name[i] = '?';
    if ((r = wm_cursor_seek(&cur, TRRN_COUNTS_OFFSET, "TRRN counts")) ||
        (r = wm_read_u32(&cur, &out->vertex_count, "TRRN vertex count")) ||
        (r = wm_read_u32(&cur, &out->triangle_count, "TRRN triangle count")) ||
        (r = skip_array(&cur, out->vertex_count, TRRN_VERTEX_SIZE, "TRRN vertices")) ||
        (r = skip_array(&cur, out->triangle_count, TRRN_TRIANGLE_SIZE, "TRRN triangles")) ||
        (r = read_sized_blob(&cur, &out->dds_a_size, "TRRN DDS A")) ||
        (r = read_sized_blob(&cur, &out->dds_b_size, "TRRN DDS B")) ||
        (r = wm_read_u32(&cur, &out->grass_count, "TRRN grass count")))
        return r;
    return WM_OK;
}
