/* The frame around the drawing: page layout, title, coordinate grid in
 * game units, scale bar, axis arrows and the legend. Nothing here measures
 * text: the legend has a fixed width and row height, and every text is cut
 * to a character count that fits that width in any sans-serif font. */
#include "picture.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define PLOT_MAX 960.0    /* longest side of the drawing, pixels */
#define PLOT_MIN 260.0    /* shortest side (flat views of flat meshes) */
#define MARGIN_LEFT 84.0  /* grid labels */
#define MARGIN_TOP 86.0   /* title and subtitle */
#define MARGIN_BOTTOM 104.0 /* grid labels, axis title, scale bar */
#define LEGEND_GAP 40.0
#define LEGEND_WIDTH 380.0
#define LEGEND_ROW 22.0
#define LEGEND_FIRST_ROW 150.0 /* below the axis arrows */
#define LEGEND_CHARS 40u   /* 40 x 13 px x 0.62 em < LEGEND_WIDTH - 40 */
#define TITLE_EM 0.62      /* generous average advance of a sans-serif character, in em */
#define GRID_MAX_LINES 64  /* a grid step is about 1/8 of the extent; this bounds rounding surprises */

/* Non-finite coordinates (a corrupt file) are left out of the frame. */
static void widen(double *lo, double *hi, double v)
{
    if (!isfinite(v))
        return;
    if (v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

static void ground_corners(const wm_pic_layout *lay, float corners[4][3])
{
    for (int k = 0; k < 4; k++) {
        corners[k][0] = (k & 1) ? lay->world_hi[0] : lay->world_lo[0];
        corners[k][1] = (k & 2) ? lay->world_hi[1] : lay->world_lo[1];
        corners[k][2] = lay->world_lo[2];
    }
}

void wm_pic_frame_layout(const wm_picture *plot, wm_pic_layout *lay)
{
    memset(lay, 0, sizeof *lay);
    double lo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, hi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
    double ulo = DBL_MAX, uhi = -DBL_MAX, vlo = DBL_MAX, vhi = -DBL_MAX;
    /* Cropped to the mesh and its points (hooks, route ends): lines and labels
     * beyond them (a tile grid wider than the mesh, cutters) are clipped. */
    uint32_t total = plot->face_count * 3 + plot->mark_count;
    for (uint32_t i = 0; i < total; i++) {
        const wm_pic_mark *m = i < plot->face_count * 3 ? NULL : &plot->marks[i - plot->face_count * 3];
        if (m && m->kind != WM_PIC_MARK_DOT && m->kind != WM_PIC_MARK_CROSS)
            continue;
        const float *p = m ? plot->points + 3 * (size_t)m->first_point : plot->faces[i / 3].p + 3 * (i % 3);
        double q[3];
        wm_pic_project(plot->view, p, q);
        widen(&ulo, &uhi, q[0]);
        widen(&vlo, &vhi, q[1]);
        for (int k = 0; k < 3; k++)
            widen(&lo[k], &hi[k], p[k]);
    }
    if (ulo > uhi || vlo > vhi || lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2]) { /* nothing finite */
        ulo = vlo = lo[0] = lo[1] = lo[2] = 0;
        uhi = vhi = hi[0] = hi[1] = hi[2] = 1;
    }
    for (int k = 0; k < 3; k++) {
        lay->world_lo[k] = (float)lo[k];
        lay->world_hi[k] = (float)hi[k];
    }
    if (plot->view == WM_VIEW_ISO) { /* the ground grid's corners are drawn too */
        float corners[4][3];
        ground_corners(lay, corners);
        for (int k = 0; k < 4; k++) {
            double q[3];
            wm_pic_project(plot->view, corners[k], q);
            widen(&ulo, &uhi, q[0]);
            widen(&vlo, &vhi, q[1]);
        }
    }
    double du = uhi - ulo, dv = vhi - vlo, extent = du > dv ? du : dv;
    if (!(extent > 1e-3))
        extent = 1e-3;
    double pad = extent * 0.03;
    ulo -= pad, uhi += pad, vlo -= pad, vhi += pad;
    extent += 2 * pad;
    lay->scale = PLOT_MAX / extent;
    double min_range = PLOT_MIN / lay->scale;
    if (uhi - ulo < min_range) {
        double grow = (min_range - (uhi - ulo)) / 2;
        ulo -= grow, uhi += grow;
    }
    if (vhi - vlo < min_range) {
        double grow = (min_range - (vhi - vlo)) / 2;
        vlo -= grow, vhi += grow;
    }
    lay->umin = ulo, lay->umax = uhi, lay->vmin = vlo, lay->vmax = vhi;
    lay->left = MARGIN_LEFT;
    lay->top = MARGIN_TOP;
    lay->plot_w = (uhi - ulo) * lay->scale;
    lay->plot_h = (vhi - vlo) * lay->scale;
    lay->legend_x = lay->left + lay->plot_w + LEGEND_GAP;
    lay->width = lay->legend_x + LEGEND_WIDTH;
    uint32_t rows = plot->legend_count + (plot->legend_dropped ? 1 : 0);
    double legend_bottom = lay->top + LEGEND_FIRST_ROW + rows * LEGEND_ROW + 20;
    lay->height = lay->top + lay->plot_h + MARGIN_BOTTOM;
    if (lay->height < legend_bottom)
        lay->height = legend_bottom;
}

double wm_picture_pixels_per_unit(const wm_picture *plot)
{
    wm_pic_layout lay;
    wm_pic_frame_layout(plot, &lay);
    return lay.scale;
}

void wm_pic_to_screen(const wm_picture *plot, const wm_pic_layout *lay, const float p[3], double out[2])
{
    double q[3];
    wm_pic_project(plot->view, p, q);
    out[0] = lay->left + (q[0] - lay->umin) * lay->scale;
    out[1] = lay->top + (lay->vmax - q[1]) * lay->scale;
}

static void put_xy(wm_buffer *out, double x, double y)
{
    wm_pic_put_number(out, x);
    wm_put_u8(out, ' ');
    wm_pic_put_number(out, y);
}

void wm_pic_put_rect(wm_buffer *out, const char *cls, double x, double y, double width, double height)
{
    wm_put_text(out, "<rect class=\"%s\" x=\"", cls);
    wm_pic_put_number(out, x);
    wm_put_text(out, "\" y=\"");
    wm_pic_put_number(out, y);
    wm_put_text(out, "\" width=\"");
    wm_pic_put_number(out, width);
    wm_put_text(out, "\" height=\"");
    wm_pic_put_number(out, height);
    wm_put_text(out, "\"/>\n");
}

static void put_text_at(wm_buffer *out, const char *cls, double x, double y, const char *text, size_t max_chars)
{
    wm_put_text(out, "<text class=\"%s\" x=\"", cls);
    wm_pic_put_number(out, x);
    wm_put_text(out, "\" y=\"");
    wm_pic_put_number(out, y);
    wm_put_text(out, "\">");
    wm_pic_put_escaped(out, text, max_chars);
    wm_put_text(out, "</text>\n");
}

static void put_number_text(wm_buffer *out, const char *cls, double x, double y, const char *prefix, double value,
                            const char *suffix)
{
    wm_put_text(out, "<text class=\"%s\" x=\"", cls);
    wm_pic_put_number(out, x);
    wm_put_text(out, "\" y=\"");
    wm_pic_put_number(out, y);
    wm_put_text(out, "\">%s", prefix);
    wm_pic_put_number(out, value);
    wm_put_text(out, "%s</text>\n", suffix);
}

/* The view's two world axes: 0 x, 1 y, 2 z. */
static void view_axes(wm_view view, int *u, int *v)
{
    *u = view == WM_VIEW_SIDE ? 1 : 0;
    *v = view == WM_VIEW_TOP ? 1 : 2;
}

static void flat_grid(wm_buffer *out, const wm_picture *plot, const wm_pic_layout *lay)
{
    static const char names[3] = {'x', 'y', 'z'};
    int ua, va;
    view_axes(plot->view, &ua, &va);
    double step = wm_pic_nice_step(fmax(lay->umax - lay->umin, lay->vmax - lay->vmin), 8);
    double bottom = lay->top + lay->plot_h, right = lay->left + lay->plot_w;
    wm_put_text(out, "<path class=\"g\" d=\"");
    for (double k = ceil(lay->umin / step), n = 0; k * step <= lay->umax && n < GRID_MAX_LINES; k++, n++) {
        double x = lay->left + (k * step - lay->umin) * lay->scale;
        wm_put_u8(out, 'M');
        put_xy(out, x, lay->top);
        wm_put_text(out, "V");
        wm_pic_put_number(out, bottom);
    }
    for (double k = ceil(lay->vmin / step), n = 0; k * step <= lay->vmax && n < GRID_MAX_LINES; k++, n++) {
        double y = lay->top + (lay->vmax - k * step) * lay->scale;
        wm_put_u8(out, 'M');
        put_xy(out, lay->left, y);
        wm_put_text(out, "H");
        wm_pic_put_number(out, right);
    }
    wm_put_text(out, "\"/>\n");
    for (double k = ceil(lay->umin / step), n = 0; k * step <= lay->umax && n < GRID_MAX_LINES; k++, n++)
        put_number_text(out, "gl gm", lay->left + (k * step - lay->umin) * lay->scale, bottom + 16, "",
                        k * step + 0.0, "");
    for (double k = ceil(lay->vmin / step), n = 0; k * step <= lay->vmax && n < GRID_MAX_LINES; k++, n++)
        put_number_text(out, "gl ge", lay->left - 6, lay->top + (lay->vmax - k * step) * lay->scale + 4, "",
                        k * step + 0.0, "");
    char title[32];
    snprintf(title, sizeof title, "%c (%s)", names[ua], plot->unit);
    put_text_at(out, "gt gm", lay->left + lay->plot_w / 2, bottom + 36, title, 16);
    snprintf(title, sizeof title, "%c (%s)", names[va], plot->unit);
    put_text_at(out, "gt ge", lay->left - 6, lay->top - 8, title, 16);
}

/* Isometric: the grid lies on the ground plane (lowest z), labelled at its near edges. */
static void ground_grid(wm_buffer *out, const wm_picture *plot, const wm_pic_layout *lay)
{
    const float *lo = lay->world_lo, *hi = lay->world_hi;
    double step = wm_pic_nice_step(fmax((double)hi[0] - lo[0], (double)hi[1] - lo[1]), 8);
    wm_put_text(out, "<path class=\"g\" d=\"");
    for (int axis = 0; axis < 2; axis++)
        for (double k = ceil(lo[axis] / step), n = 0; k * step <= hi[axis] && n < GRID_MAX_LINES; k++, n++) {
            float a[3] = {lo[0], lo[1], lo[2]}, b[3] = {hi[0], hi[1], lo[2]};
            a[axis] = b[axis] = (float)(k * step);
            double sa[2], sb[2];
            wm_pic_to_screen(plot, lay, a, sa);
            wm_pic_to_screen(plot, lay, b, sb);
            wm_put_u8(out, 'M');
            put_xy(out, sa[0], sa[1]);
            wm_put_u8(out, 'L');
            put_xy(out, sb[0], sb[1]);
        }
    wm_put_text(out, "\"/>\n");
    for (int axis = 0; axis < 2; axis++)
        for (double k = ceil(lo[axis] / step), n = 0; k * step <= hi[axis] && n < GRID_MAX_LINES; k++, n++) {
            float a[3] = {lo[0], lo[1], lo[2]};
            a[axis] = (float)(k * step);
            double s[2];
            wm_pic_to_screen(plot, lay, a, s);
            put_number_text(out, axis == 0 ? "gl gs" : "gl ge", s[0] + (axis == 0 ? 4 : -6), s[1] + 14,
                            axis == 0 ? "x " : "y ", k * step + 0.0, "");
        }
    char title[64];
    snprintf(title, sizeof title, "grid on the ground plane z = %.2f %s", (double)lo[2], plot->unit);
    put_text_at(out, "gt gs", lay->left, lay->top + lay->plot_h + 36, title, 48);
}

void wm_pic_frame_under(wm_buffer *out, const wm_picture *plot, const wm_pic_layout *lay)
{
    wm_pic_put_rect(out, "bg", 0, 0, lay->width, lay->height);
    wm_pic_put_rect(out, "pl", lay->left, lay->top, lay->plot_w, lay->plot_h);
    if (plot->view == WM_VIEW_ISO)
        ground_grid(out, plot, lay);
    else
        flat_grid(out, plot, lay);
}

static void scale_bar(wm_buffer *out, const wm_picture *plot, const wm_pic_layout *lay)
{
    double length = wm_pic_nice_step(lay->umax - lay->umin, 4);
    while (length * lay->scale > lay->plot_w && length > 1e-6)
        length /= 2;
    double x0 = lay->left, y0 = lay->top + lay->plot_h + 70, px = length * lay->scale;
    wm_put_text(out, "<path class=\"sb\" d=\"M");
    put_xy(out, x0, y0 - 6);
    wm_put_text(out, "v6h");
    wm_pic_put_number(out, px);
    wm_put_text(out, "v-6M");
    put_xy(out, x0 + px / 2, y0);
    wm_put_text(out, "v-4\"/>\n");
    put_text_at(out, "gl gm", x0, y0 + 16, "0", 4);
    char label[64];
    snprintf(label, sizeof label, " %s%s", plot->unit,
             plot->view == WM_VIEW_ISO ? " (true length left to right)" : "");
    put_number_text(out, "gl gs", x0 + px + 8, y0 + 4, "", length, label);
}

static void arrow(wm_buffer *out, double cx, double cy, double dx, double dy, const char *label)
{
    double length = hypot(dx, dy);
    if (length < 0.2) /* the axis points at the viewer */
        return;
    double ux = dx / length, uy = dy / length, tip_x = cx + dx * 44, tip_y = cy + dy * 44;
    wm_put_text(out, "<path class=\"ax\" d=\"M");
    put_xy(out, cx, cy);
    wm_put_u8(out, 'L');
    put_xy(out, tip_x, tip_y);
    wm_put_text(out, "\"/>\n<path class=\"ah\" d=\"M");
    put_xy(out, tip_x, tip_y);
    wm_put_u8(out, 'L');
    put_xy(out, tip_x - ux * 9 - uy * 4, tip_y - uy * 9 + ux * 4);
    wm_put_u8(out, 'L');
    put_xy(out, tip_x - ux * 9 + uy * 4, tip_y - uy * 9 - ux * 4);
    wm_put_text(out, "Z\"/>\n");
    put_text_at(out, ux < -0.3 ? "al ge" : ux > 0.3 ? "al gs" : "al gm", tip_x + ux * 10,
                tip_y + uy * 10 + (uy > 0.3 ? 10 : uy < -0.3 ? 0 : 4), label, 12);
}

static void axis_arrows(wm_buffer *out, const wm_picture *plot, const wm_pic_layout *lay)
{
    static const char *const labels[3] = {"+X east", "+Y north", "+Z up"};
    static const char *const captions[4] = {"top view, looking down", "front view, looking north (+Y)",
                                            "side view, looking west (-X)", "isometric view from south-west"};
    double cx = lay->legend_x + 70, cy = lay->top + 62;
    const float origin[3] = {0, 0, 0};
    double o[3];
    wm_pic_project(plot->view, origin, o);
    for (int a = 0; a < 3; a++) {
        float unit[3] = {0, 0, 0};
        unit[a] = 1;
        double q[3];
        wm_pic_project(plot->view, unit, q);
        arrow(out, cx, cy, q[0] - o[0], -(q[1] - o[1]), labels[a]);
    }
    put_text_at(out, "gl gs", lay->legend_x, lay->top + 128, captions[plot->view], LEGEND_CHARS);
}

static void legend(wm_buffer *out, const wm_picture *plot, const wm_pic_layout *lay)
{
    double x = lay->legend_x, y = lay->top + LEGEND_FIRST_ROW;
    for (uint32_t i = 0; i < plot->legend_count; i++, y += LEGEND_ROW) {
        const wm_pic_legend_row *row = &plot->legend[i];
        const char *cls = plot->styles[row->style].name;
        double text_x = x + 30;
        switch (row->kind) {
        case WM_PIC_LEGEND_SWATCH:
            wm_pic_put_rect(out, cls, x, y, 20, 14);
            break;
        case WM_PIC_LEGEND_LINE:
            wm_put_text(out, "<path class=\"%s\" d=\"M", cls);
            put_xy(out, x, y + 7);
            wm_put_text(out, "h20\"/>\n");
            break;
        case WM_PIC_LEGEND_DOT:
            wm_put_text(out, "<circle class=\"%s\" cx=\"", cls);
            wm_pic_put_number(out, x + 10);
            wm_put_text(out, "\" cy=\"");
            wm_pic_put_number(out, y + 7);
            wm_put_text(out, "\" r=\"5\"/>\n");
            break;
        case WM_PIC_LEGEND_RAMP:
            for (unsigned k = 0; k < row->ramp; k++) {
                wm_pic_put_rect(out, plot->styles[row->ramp_style[k]].name, x + 16.0 * k, y, 16, 14);
            }
            text_x = x + 16.0 * row->ramp + 8;
            break;
        default:
            text_x = x;
            break;
        }
        put_text_at(out, "lg", text_x, y + 12, row->text,
                    LEGEND_CHARS - (row->kind == WM_PIC_LEGEND_RAMP ? row->ramp : 0));
    }
    if (plot->legend_dropped) {
        char more[48];
        snprintf(more, sizeof more, "... and %u more", plot->legend_dropped);
        put_text_at(out, "lg", x, y + 12, more, LEGEND_CHARS);
    }
}

void wm_pic_frame_over(wm_buffer *out, const wm_picture *plot, const wm_pic_layout *lay)
{
    size_t title_chars = (size_t)((lay->width - 32) / (18 * TITLE_EM));
    size_t line_chars = (size_t)((lay->width - 32) / (13 * TITLE_EM));
    put_text_at(out, "ti", 16, 32, plot->title, title_chars);
    put_text_at(out, "st", 16, 56, plot->subtitle, line_chars);
    scale_bar(out, plot, lay);
    axis_arrows(out, plot, lay);
    legend(out, plot, lay);
}
