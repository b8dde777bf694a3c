/* Writes a plot as one SVG 1.1 document: stylesheet (one class per style,
 * so a triangle costs only its coordinates), frame under the drawing,
 * faces in painter's order (runs of one style merged into one path),
 * marks, frame over the drawing. Same input, same bytes. */
#include "svg/svg_plot.h"

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

static void put_point(wm_buffer *out, const svg_plot *plot, const svg_layout *lay, const float *p, char command)
{
    double s[2];
    svg_to_screen(plot, lay, p, s);
    if (command)
        wm_put_u8(out, (uint8_t)command);
    svg_put_number(out, s[0]);
    wm_put_u8(out, ' ');
    svg_put_number(out, s[1]);
}

static wm_result write_faces(wm_buffer *out, const svg_plot *plot, const svg_layout *lay)
{
    if (plot->face_count == 0)
        return WM_OK;
    face_order *order = wm_alloc_array(plot->ctx, plot->face_count, sizeof *order);
    if (!order)
        return WM_ERR_NOMEM;
    for (uint32_t f = 0; f < plot->face_count; f++) {
        double depth = 0, q[3];
        for (int k = 0; k < 3; k++) {
            svg_project(plot->view, plot->faces[f].p + 3 * k, q);
            depth += q[2];
        }
        order[f].depth = isfinite(depth) ? depth : 0; /* a total order even for corrupt files */
        order[f].face = f;
    }
    /* Painter's order: the farthest faces first, so nearer ones cover them. */
    qsort(order, plot->face_count, sizeof *order, farthest_first);
    wm_put_text(out, "<g id=\"faces\">\n");
    for (uint32_t i = 0; i < plot->face_count;) {
        uint16_t style = plot->faces[order[i].face].style;
        wm_put_text(out, "<path class=\"%s\" d=\"", plot->styles[style].name);
        for (; i < plot->face_count && plot->faces[order[i].face].style == style; i++) {
            const float *p = plot->faces[order[i].face].p;
            put_point(out, plot, lay, p, 'M');
            put_point(out, plot, lay, p + 3, 'L');
            put_point(out, plot, lay, p + 6, 'L');
            wm_put_u8(out, 'Z');
        }
        wm_put_text(out, "\"/>\n");
    }
    wm_put_text(out, "</g>\n");
    wm_free(plot->ctx, order);
    return WM_OK;
}

static void write_mark(wm_buffer *out, const svg_plot *plot, const svg_layout *lay, const svg_mark *m)
{
    const float *p = plot->points + 3 * (size_t)m->first_point;
    double s[2];
    svg_to_screen(plot, lay, p, s);
    switch (m->kind) {
    case SVG_MARK_LINE:
    case SVG_MARK_LOOP:
        wm_put_text(out, "<path d=\"");
        for (uint32_t k = 0; k < m->point_count; k++)
            put_point(out, plot, lay, p + 3 * (size_t)k, k ? 'L' : 'M');
        wm_put_text(out, "%s\"/>\n", m->kind == SVG_MARK_LOOP ? "Z" : "");
        break;
    case SVG_MARK_DOT:
        wm_put_text(out, "<circle cx=\"");
        svg_put_number(out, s[0]);
        wm_put_text(out, "\" cy=\"");
        svg_put_number(out, s[1]);
        wm_put_text(out, "\" r=\"");
        svg_put_number(out, m->size);
        wm_put_text(out, "\"/>\n");
        break;
    case SVG_MARK_CROSS:
        wm_put_text(out, "<path d=\"M");
        svg_put_number(out, s[0] - m->size);
        wm_put_u8(out, ' ');
        svg_put_number(out, s[1] - m->size);
        wm_put_text(out, "l%.0f %.0fm0 %.0fl%.0f %.0f\"/>\n", 2.0 * m->size, 2.0 * m->size, -2.0 * m->size,
                    -2.0 * m->size, 2.0 * m->size);
        break;
    default:
        wm_put_text(out, "<text x=\"");
        svg_put_number(out, s[0] + m->size);
        wm_put_text(out, "\" y=\"");
        svg_put_number(out, s[1]);
        wm_put_text(out, "\" dy=\"0.35em\">");
        svg_put_escaped(out, plot->text + m->text, 64);
        wm_put_text(out, "</text>\n");
        break;
    }
}

static void write_marks(wm_buffer *out, const svg_plot *plot, const svg_layout *lay)
{
    for (uint32_t i = 0; i < plot->mark_count;) {
        uint16_t style = plot->marks[i].style;
        wm_put_text(out, "<g class=\"%s\">\n", plot->styles[style].name);
        for (; i < plot->mark_count && plot->marks[i].style == style; i++)
            write_mark(out, plot, lay, &plot->marks[i]);
        wm_put_text(out, "</g>\n");
    }
}

wm_result svg_plot_write_sink(svg_plot *plot, wm_sink *sink)
{
    if (plot->status)
        return plot->status;
    svg_layout lay;
    svg_frame_layout(plot, &lay);
    wm_buffer out;
    wm_buffer_init(&out, plot->ctx);
    wm_put_text(&out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"");
    svg_put_number(&out, lay.width);
    wm_put_text(&out, "\" height=\"");
    svg_put_number(&out, lay.height);
    wm_put_text(&out, "\" viewBox=\"0 0 ");
    svg_put_number(&out, lay.width);
    wm_put_u8(&out, ' ');
    svg_put_number(&out, lay.height);
    wm_put_text(&out, "\">\n<title>");
    svg_put_escaped(&out, plot->title, sizeof plot->title);
    wm_put_text(&out, "</title>\n<desc>");
    svg_put_escaped(&out, plot->subtitle, sizeof plot->subtitle);
    if (plot->desc) {
        wm_put_u8(&out, '\n');
        svg_put_escaped(&out, plot->desc, (size_t)-1);
    }
    wm_put_text(&out, "</desc>\n<style type=\"text/css\"><![CDATA[\n%s", base_css);
    for (uint32_t s = 0; s < plot->style_count; s++)
        wm_put_text(&out, ".%s{%s}\n", plot->styles[s].name, plot->styles[s].css);
    wm_put_text(&out, "]]></style>\n");
    svg_frame_under(&out, plot, &lay);
    wm_result r = write_faces(&out, plot, &lay);
    write_marks(&out, plot, &lay);
    svg_frame_over(&out, plot, &lay);
    wm_put_text(&out, "</svg>\n");
    if (!r)
        r = out.status ? out.status : wm_sink_write(sink, NULL, out.data, out.size);
    wm_buffer_free(&out);
    return r;
}

wm_result svg_plot_write(svg_plot *plot, const char *path, int overwrite)
{
    wm_sink *sink = NULL;
    wm_result r = wm_sink_open(plot->ctx, path, overwrite, &sink);
    if (!r && !(r = svg_plot_write_sink(plot, sink)))
        r = wm_sink_commit(sink);
    wm_sink_close(sink);
    return r;
}
