/* Writes a plot as one SVG 1.1 document: stylesheet (one class per style,
 * so a triangle costs only its coordinates), frame under the drawing,
 * faces in painter's order (runs of one style merged into one path),
 * marks, frame over the drawing. Same input, same bytes. */
#include "picture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char base_css[] =
    ".bg{fill:#fafafa}\n.pl{fill:#fff;stroke:#999;stroke-width:1}\n"
    ".g{fill:none;stroke:#d4d4d4;stroke-width:0.7}\n"
    ".gl{font-family:sans-serif;font-size:11px;fill:#555}\n"
    ".gt{font-family:sans-serif;font-size:12px;font-weight:bold;fill:#333}\n"
    ".gm{text-anchor:middle}\n.ge{text-anchor:end}\n.gs{text-anchor:start}\n"
    ".ti{font-family:sans-serif;font-size:18px;font-weight:bold;fill:#111}\n"
    ".st{font-family:sans-serif;font-size:13px;fill:#333}\n"
    ".lg{font-family:sans-serif;font-size:13px;fill:#222}\n"
    ".sb{fill:none;stroke:#111;stroke-width:2}\n.ax{fill:none;stroke:#111;stroke-width:2}\n.ah{fill:#111}\n"
    ".al{font-family:sans-serif;font-size:12px;font-weight:bold;fill:#111}\n";

typedef struct face_order {
    double depth;
    uint32_t face;
} face_order;

static int farthest_first(const void *a, const void *b)
{
    const face_order *x = a, *y = b;
    if (x->depth != y->depth)
        return x->depth > y->depth ? -1 : 1;
    return x->face < y->face ? -1 : x->face > y->face;
}

static void put_point(wm_buffer *out, const wm_picture *plot, const wm_pic_layout *lay, const float *p, char command)
{
    double s[2];
    wm_pic_to_screen(plot, lay, p, s);
    if (command)
        wm_put_u8(out, (uint8_t)command);
    wm_pic_put_number(out, s[0]);
    wm_put_u8(out, ' ');
    wm_pic_put_number(out, s[1]);
}

/* Faces seen edge-on (walls from above) cover no pixels: they are written
 * after the marks as outlines in their style, so a wall under a perimeter
 * line still shows. */
static int edge_on(const wm_picture *plot, const wm_pic_layout *lay, const float *p)
{
    double a[2], b[2], c[2];
    wm_pic_to_screen(plot, lay, p, a);
    wm_pic_to_screen(plot, lay, p + 3, b);
    wm_pic_to_screen(plot, lay, p + 6, c);
    return !(fabs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) >= 1.0); /* 0.5 px², or NaN */
}

static void write_runs(wm_buffer *out, const wm_picture *plot, const wm_pic_layout *lay, const face_order *order,
                       uint32_t count)
{
    for (uint32_t i = 0; i < count;) {
        uint16_t style = plot->faces[order[i].face].style;
        wm_put_text(out, "<path class=\"%s\" d=\"", plot->styles[style].name);
        for (; i < count && plot->faces[order[i].face].style == style; i++) {
            const float *p = plot->faces[order[i].face].p;
            put_point(out, plot, lay, p, 'M');
            put_point(out, plot, lay, p + 3, 'L');
            put_point(out, plot, lay, p + 6, 'L');
            wm_put_u8(out, 'Z');
        }
        wm_put_text(out, "\"/>\n");
    }
}

/* Painter's order (the farthest faces first, so nearer ones cover them);
 * *edge_on_first: where the edge-on faces begin in *out. */
static wm_result order_faces(const wm_picture *plot, const wm_pic_layout *lay, face_order **out,
                             uint32_t *edge_on_first)
{
    face_order *order = wm_alloc_array(plot->ctx, plot->face_count ? plot->face_count : 1, sizeof *order);
    if (!order)
        return WM_ERR_NOMEM;
    uint32_t front = 0, back = plot->face_count;
    for (uint32_t f = 0; f < plot->face_count; f++) {
        double depth = 0, q[3];
        for (int k = 0; k < 3; k++) {
            wm_pic_project(plot->view, plot->faces[f].p + 3 * k, q);
            depth += q[2];
        }
        face_order *slot = edge_on(plot, lay, plot->faces[f].p) ? &order[--back] : &order[front++];
        slot->depth = isfinite(depth) ? depth : 0; /* a total order even for corrupt files */
        slot->face = f;
    }
    qsort(order, front, sizeof *order, farthest_first);
    qsort(order + front, plot->face_count - front, sizeof *order, farthest_first);
    *out = order;
    *edge_on_first = front;
    return WM_OK;
}

static void write_mark(wm_buffer *out, const wm_picture *plot, const wm_pic_layout *lay, const wm_pic_mark *m)
{
    const float *p = plot->points + 3 * (size_t)m->first_point;
    double s[2];
    wm_pic_to_screen(plot, lay, p, s);
    switch (m->kind) {
    case WM_PIC_MARK_LINE:
    case WM_PIC_MARK_LOOP:
        wm_put_text(out, "<path d=\"");
        for (uint32_t k = 0; k < m->point_count; k++)
            put_point(out, plot, lay, p + 3 * (size_t)k, k ? 'L' : 'M');
        wm_put_text(out, "%s\"/>\n", m->kind == WM_PIC_MARK_LOOP ? "Z" : "");
        break;
    case WM_PIC_MARK_DOT:
        wm_put_text(out, "<circle cx=\"");
        wm_pic_put_number(out, s[0]);
        wm_put_text(out, "\" cy=\"");
        wm_pic_put_number(out, s[1]);
        wm_put_text(out, "\" r=\"");
        wm_pic_put_number(out, m->size);
        wm_put_text(out, "\"/>\n");
        break;
    case WM_PIC_MARK_CROSS:
        wm_put_text(out, "<path d=\"M");
        wm_pic_put_number(out, s[0] - m->size);
        wm_put_u8(out, ' ');
        wm_pic_put_number(out, s[1] - m->size);
        wm_put_text(out, "l%.0f %.0fm0 %.0fl%.0f %.0f\"/>\n", 2.0 * m->size, 2.0 * m->size, -2.0 * m->size,
                    -2.0 * m->size, 2.0 * m->size);
        break;
    default:
        wm_put_text(out, "<text x=\"");
        wm_pic_put_number(out, s[0] + m->size);
        wm_put_text(out, "\" y=\"");
        wm_pic_put_number(out, s[1]);
        wm_put_text(out, "\" dy=\"0.35em\">");
        wm_pic_put_escaped(out, plot->text + m->text, 64);
        wm_put_text(out, "</text>\n");
        break;
    }
}

static void write_marks(wm_buffer *out, const wm_picture *plot, const wm_pic_layout *lay)
{
    for (uint32_t i = 0; i < plot->mark_count;) {
        uint16_t style = plot->marks[i].style;
        wm_put_text(out, "<g class=\"%s\">\n", plot->styles[style].name);
        for (; i < plot->mark_count && plot->marks[i].style == style; i++)
            write_mark(out, plot, lay, &plot->marks[i]);
        wm_put_text(out, "</g>\n");
    }
}

wm_result wm_picture_write(wm_picture *plot, wm_buffer *sink)
{
    if (plot->status)
        return plot->status;
    wm_pic_layout lay;
    wm_pic_frame_layout(plot, &lay);
    wm_buffer out; /* the whole document first: the sink gets all of it or nothing */
    wm_buffer_init(&out, plot->ctx);
    wm_put_text(&out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"");
    wm_pic_put_number(&out, lay.width);
    wm_put_text(&out, "\" height=\"");
    wm_pic_put_number(&out, lay.height);
    wm_put_text(&out, "\" viewBox=\"0 0 ");
    wm_pic_put_number(&out, lay.width);
    wm_put_u8(&out, ' ');
    wm_pic_put_number(&out, lay.height);
    wm_put_text(&out, "\">\n<title>");
    wm_pic_put_escaped(&out, plot->title, sizeof plot->title);
    wm_put_text(&out, "</title>\n<desc>");
    wm_pic_put_escaped(&out, plot->subtitle, sizeof plot->subtitle);
    if (plot->desc) {
        wm_put_u8(&out, '\n');
        wm_pic_put_escaped(&out, plot->desc, (size_t)-1);
    }
    wm_put_text(&out, "</desc>\n<style type=\"text/css\"><![CDATA[\n%s", base_css);
    for (uint32_t s = 0; s < plot->style_count; s++)
        wm_put_text(&out, ".%s{%s}\n", plot->styles[s].name, plot->styles[s].css);
    wm_put_text(&out, "]]></style>\n");
    wm_pic_frame_under(&out, plot, &lay);
    wm_put_text(&out, "<clipPath id=\"plot\">");
    wm_pic_put_rect(&out, "pl", lay.left, lay.top, lay.plot_w, lay.plot_h);
    wm_put_text(&out, "</clipPath>\n<g clip-path=\"url(#plot)\">\n");
    face_order *order = NULL;
    uint32_t edge_on_first = 0;
    wm_result r = order_faces(plot, &lay, &order, &edge_on_first);
    if (!r) {
        wm_put_text(&out, "<g id=\"faces\">\n");
        write_runs(&out, plot, &lay, order, edge_on_first);
        wm_put_text(&out, "</g>\n");
        write_marks(&out, plot, &lay);
        wm_put_text(&out, "<g id=\"faces-edge-on\">\n");
        write_runs(&out, plot, &lay, order + edge_on_first, plot->face_count - edge_on_first);
        wm_put_text(&out, "</g>\n");
    }
    wm_free(plot->ctx, order);
    wm_put_text(&out, "</g>\n");
    wm_pic_frame_over(&out, plot, &lay);
    wm_put_text(&out, "</svg>\n");
    if (!r)
        r = out.status;
    if (!r)
        wm_put_bytes(sink, out.data, out.size);
    if (!r)
        r = sink->status;
    wm_buffer_free(&out);
    return r;
}
