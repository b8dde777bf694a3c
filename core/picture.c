/* The drawing model's storage: styles, faces, marks, labels, legend rows. */
#include "picture.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

wm_result wm_picture_init(wm_picture *plot, wm_ctx *ctx, wm_view view, const char *path_or_name, const char *unit)
{
    memset(plot, 0, sizeof *plot);
    plot->ctx = ctx;
    plot->view = view;
    plot->unit = unit;
    snprintf(plot->title, sizeof plot->title, "%s", path_or_name ? wm_path_file_name(path_or_name) : "walkmesh");
    plot->styles = wm_alloc_array(ctx, WM_PIC_MAX_STYLES, sizeof *plot->styles);
    return plot->styles ? WM_OK : WM_ERR_NOMEM;
}

void wm_picture_free(wm_picture *plot)
{
    wm_free(plot->ctx, plot->styles);
    wm_free(plot->ctx, plot->faces);
    wm_free(plot->ctx, plot->marks);
    wm_free(plot->ctx, plot->points);
    wm_free(plot->ctx, plot->text);
    wm_free(plot->ctx, plot->desc);
    memset(plot, 0, sizeof *plot);
}

/* Room for `more` elements in an array that doubles. */
static int grow(wm_picture *plot, void **array, uint32_t *capacity, uint32_t used, uint32_t more, size_t elem)
{
    if (plot->status)
        return 0;
    if ((uint64_t)used + more <= *capacity)
        return 1;
    uint64_t want = *capacity ? *capacity : 256;
    while (want < (uint64_t)used + more)
        want *= 2;
    if (want > UINT32_MAX) {
        plot->status = wm_error(plot->ctx, WM_ERR_LIMIT, "picture too large");
        return 0;
    }
    void *bigger = wm_realloc_array(plot->ctx, *array, (size_t)want, elem);
    if (!bigger) {
        plot->status = wm_error(plot->ctx, WM_ERR_NOMEM, "out of memory while drawing");
        return 0;
    }
    *array = bigger;
    *capacity = (uint32_t)want;
    return 1;
}

uint16_t wm_picture_style(wm_picture *plot, const char *name, const char *css_fmt, ...)
{
    for (uint32_t i = 0; i < plot->style_count; i++)
        if (strcmp(plot->styles[i].name, name) == 0)
            return (uint16_t)i;
    if (plot->style_count >= WM_PIC_MAX_STYLES) {
        if (!plot->status)
            plot->status = wm_error(plot->ctx, WM_ERR_LIMIT, "picture needs more than %u styles", WM_PIC_MAX_STYLES);
        return 0;
    }
    wm_pic_style *s = &plot->styles[plot->style_count];
    snprintf(s->name, sizeof s->name, "%s", name);
    va_list args;
    va_start(args, css_fmt);
    vsnprintf(s->css, sizeof s->css, css_fmt, args);
    va_end(args);
    return (uint16_t)plot->style_count++;
}

void wm_picture_face(wm_picture *plot, const float *a, const float *b, const float *c, uint16_t style)
{
    if (!grow(plot, (void **)&plot->faces, &plot->face_capacity, plot->face_count, 1, sizeof *plot->faces))
        return;
    wm_pic_face *f = &plot->faces[plot->face_count++];
    memcpy(f->p, a, 3 * sizeof(float));
    memcpy(f->p + 3, b, 3 * sizeof(float));
    memcpy(f->p + 6, c, 3 * sizeof(float));
    f->style = style;
}

static wm_pic_mark *add_mark(wm_picture *plot, wm_pic_mark_kind kind, uint16_t style, const float *points, uint32_t count)
{
    if (!grow(plot, (void **)&plot->marks, &plot->mark_capacity, plot->mark_count, 1, sizeof *plot->marks) ||
        !grow(plot, (void **)&plot->points, &plot->point_capacity, plot->point_count * 3, count * 3, sizeof(float)))
        return NULL;
    wm_pic_mark *m = &plot->marks[plot->mark_count++];
    memset(m, 0, sizeof *m);
    m->kind = (uint8_t)kind;
    m->style = style;
    m->first_point = plot->point_count;
    m->point_count = count;
    memcpy(plot->points + 3 * (size_t)plot->point_count, points, 3 * sizeof(float) * count);
    plot->point_count += count;
    return m;
}

void wm_picture_line(wm_picture *plot, uint16_t style, const float *points, uint32_t count, int closed)
{
    if (count >= 2)
        add_mark(plot, closed ? WM_PIC_MARK_LOOP : WM_PIC_MARK_LINE, style, points, count);
}

void wm_picture_segment(wm_picture *plot, uint16_t style, const float *a, const float *b)
{
    float both[6] = {a[0], a[1], a[2], b[0], b[1], b[2]};
    add_mark(plot, WM_PIC_MARK_LINE, style, both, 2);
}

void wm_picture_dot(wm_picture *plot, uint16_t style, const float *p, float pixels, wm_pic_mark_kind kind)
{
    wm_pic_mark *m = add_mark(plot, kind, style, p, 1);
    if (m)
        m->size = pixels;
}

void wm_picture_label(wm_picture *plot, uint16_t style, const float *p, const char *fmt, ...)
{
    char text[128];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    uint32_t length = (uint32_t)strlen(text) + 1;
    if (!grow(plot, (void **)&plot->text, &plot->text_capacity, plot->text_size, length, 1))
        return;
    wm_pic_mark *m = add_mark(plot, WM_PIC_MARK_LABEL, style, p, 1);
    if (!m)
        return;
    m->text = plot->text_size;
    memcpy(plot->text + plot->text_size, text, length);
    plot->text_size += length;
}

void wm_picture_offset_last(wm_picture *plot, float pixels)
{
    if (plot->mark_count && plot->marks[plot->mark_count - 1].kind == WM_PIC_MARK_LABEL)
        plot->marks[plot->mark_count - 1].size = pixels;
}

void wm_picture_legend(wm_picture *plot, wm_pic_legend_kind kind, uint16_t style, const char *fmt, ...)
{
    if (plot->legend_count >= WM_PIC_LEGEND_MAX) {
        plot->legend_dropped++;
        return;
    }
    wm_pic_legend_row *row = &plot->legend[plot->legend_count++];
    row->kind = (uint8_t)kind;
    row->style = style;
    row->ramp = 0;
    va_list args;
    va_start(args, fmt);
    vsnprintf(row->text, sizeof row->text, fmt, args);
    va_end(args);
}

void wm_pic_legend_ramp(wm_picture *plot, const uint16_t *styles, unsigned count, const char *fmt, ...)
{
    if (plot->legend_count >= WM_PIC_LEGEND_MAX) {
        plot->legend_dropped++;
        return;
    }
    wm_pic_legend_row *row = &plot->legend[plot->legend_count++];
    row->kind = WM_PIC_LEGEND_RAMP;
    row->style = count ? styles[0] : 0;
    row->ramp = (uint8_t)(count < WM_PIC_RAMP_MAX ? count : WM_PIC_RAMP_MAX);
    memcpy(row->ramp_style, styles, row->ramp * sizeof *styles);
    va_list args;
    va_start(args, fmt);
    vsnprintf(row->text, sizeof row->text, fmt, args);
    va_end(args);
}

void wm_picture_describe(wm_picture *plot, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(NULL, 0, fmt, args);
    va_end(args);
    if (n < 0 || plot->status)
        return;
    size_t have = plot->desc ? strlen(plot->desc) : 0;
    char *bigger = wm_realloc_array(plot->ctx, plot->desc, have + (size_t)n + 2, 1);
    if (!bigger) {
        plot->status = wm_error(plot->ctx, WM_ERR_NOMEM, "out of memory while drawing");
        return;
    }
    va_start(args, fmt);
    vsnprintf(bigger + have, (size_t)n + 1, fmt, args);
    va_end(args);
    bigger[have + (size_t)n] = '\n';
    bigger[have + (size_t)n + 1] = '\0';
    plot->desc = bigger;
}

void wm_pic_colour(const uint8_t rgb[3], double shade, char out[8])
{
    int c[3];
    for (int k = 0; k < 3; k++) {
        double v = rgb[k] * shade;
        c[k] = v < 0 ? 0 : v > 255 ? 255 : (int)(v + 0.5);
    }
    snprintf(out, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

const uint8_t *wm_pic_palette(uint32_t index)
{
    /* Distinct hues at similar lightness (colour-blind friendly order first). */
    static const uint8_t colours[WM_PIC_PALETTE_SIZE][3] = {
        {0x1f, 0x77, 0xb4}, {0xff, 0x7f, 0x0e}, {0x2c, 0xa0, 0x2c}, {0xd6, 0x27, 0x28},
        {0x94, 0x67, 0xbd}, {0x8c, 0x56, 0x4b}, {0xe3, 0x77, 0xc2}, {0x7f, 0x7f, 0x7f},
        {0xbc, 0xbd, 0x22}, {0x17, 0xbe, 0xcf}, {0x39, 0x3b, 0x79}, {0xad, 0x49, 0x4a}};
    return colours[index % WM_PIC_PALETTE_SIZE];
}
