/* The render module's drawing model, shared by its files: a format layer
 * adds faces, lines, dots and labels in world coordinates (Z-up game
 * units) with a style class and legend rows; svg_plot_write projects them
 * for the chosen view and writes the frame (title, grid, scale bar, axis
 * arrows, legend) around them. Internal to formats/svg. */
#ifndef WM_SVG_PLOT_H
#define WM_SVG_PLOT_H

#include "svg/svg_render.h"

#define SVG_MAX_STYLES 512u
#define SVG_LEGEND_MAX 40u /* rows; more are summarised in one "... more" row */

typedef struct svg_style {
    char name[12]; /* CSS class */
    char css[120]; /* declarations */
} svg_style;

typedef enum svg_mark_kind {
    SVG_MARK_LINE,  /* open polyline */
    SVG_MARK_LOOP,  /* closed polyline */
    SVG_MARK_DOT,   /* circle of `size` pixels at the point */
    SVG_MARK_CROSS, /* x of `size` pixels at the point */
    SVG_MARK_LABEL  /* text centred on the point */
} svg_mark_kind;

typedef struct svg_mark {
    uint8_t kind;
    uint16_t style;
    uint32_t first_point, point_count; /* into svg_plot.points (3 floats each) */
    uint32_t text;                     /* offset into svg_plot.text; labels only */
    float size;
} svg_mark;

typedef struct svg_face {
    float p[9];
    uint16_t style;
} svg_face;

typedef enum svg_legend_kind {
    SVG_LEGEND_SWATCH, /* filled square in the style */
    SVG_LEGEND_LINE,   /* stroke in the style */
    SVG_LEGEND_DOT,    /* circle in the style */
    SVG_LEGEND_TEXT,   /* text only */
    SVG_LEGEND_RAMP    /* the height ramp: swatches of styles style..style+ramp-1 */
} svg_legend_kind;

typedef struct svg_legend_row {
    uint8_t kind;
    uint16_t style;
    uint8_t ramp;
    char text[72];
} svg_legend_row;

typedef struct svg_plot {
    wm_ctx *ctx;
    svg_view view;
    char title[160];
    char subtitle[200];
    const char *unit; /* "m", "yd", "units" */
    svg_style *styles;
    uint32_t style_count;
    svg_face *faces;
    uint32_t face_count, face_capacity;
    svg_mark *marks;
    uint32_t mark_count, mark_capacity;
    float *points;
    uint32_t point_count, point_capacity;
    char *text;
    uint32_t text_size, text_capacity;
    svg_legend_row legend[SVG_LEGEND_MAX + 1];
    uint32_t legend_count, legend_dropped;
    char *desc; /* machine-readable facts (<desc>), owned */
    wm_result status; /* sticky allocation error */
} svg_plot;

wm_result svg_plot_init(svg_plot *plot, wm_ctx *ctx, svg_view view, const char *path_or_name, const char *unit);
void svg_plot_free(svg_plot *plot);

/* Index of the class `name`, added with the CSS when new. */
uint16_t svg_plot_style(svg_plot *plot, const char *name, const char *css_fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(3, 4)
#endif
    ;
void svg_plot_face(svg_plot *plot, const float *a, const float *b, const float *c, uint16_t style);
void svg_plot_line(svg_plot *plot, uint16_t style, const float *points, uint32_t count, int closed);
void svg_plot_segment(svg_plot *plot, uint16_t style, const float *a, const float *b);
void svg_plot_dot(svg_plot *plot, uint16_t style, const float *p, float pixels, svg_mark_kind kind);
void svg_plot_label(svg_plot *plot, uint16_t style, const float *p, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(4, 5)
#endif
    ;
/* Moves the last label right by that many pixels (beside a marker). */
void svg_plot_offset_last(svg_plot *plot, float pixels);
void svg_plot_legend(svg_plot *plot, svg_legend_kind kind, uint16_t style, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(4, 5)
#endif
    ;
/* Appends a line to the picture's <desc> (facts for scripts and tests). */
void svg_plot_describe(svg_plot *plot, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(2, 3)
#endif
    ;

/* Projects, orders and writes the whole picture atomically. */
wm_result svg_plot_write(svg_plot *plot, const char *path, int overwrite);
/* The same into a sink's main output (the caller commits). */
wm_result svg_plot_write_sink(svg_plot *plot, wm_sink *sink);

/* Fill colour scaled by shade (0..1 keeps it, lower darkens) as "#rrggbb". */
void svg_colour(const uint8_t rgb[3], double shade, char out[8]);
/* One of a fixed set of well-separated colours. */
const uint8_t *svg_palette(uint32_t index);
#define SVG_PALETTE_SIZE 12u

/* Projection of a world point for the view: out = {u right, v up, depth
 * (larger = farther from the viewer)}, in world units. */
void svg_project(svg_view view, const float p[3], double out[3]);
/* 1, 2 or 5 times a power of ten, near range / parts. */
double svg_nice_step(double range, int parts);
/* Number with at most two decimals, trailing zeros dropped. */
void svg_put_number(wm_buffer *out, double v);
/* XML-escaped UTF-8 text (invalid bytes and controls become U+FFFD), cut
 * after max_chars characters with an ellipsis. */
void svg_put_escaped(wm_buffer *out, const char *s, size_t max_chars);
/* The frame: background, title, grid, scale bar, axis arrows, legend.
 * Writes the parts under the drawing (before) or over it (after). */
typedef struct svg_layout {
    double scale;              /* pixels per world unit */
    double umin, umax, vmin, vmax;
    double left, top, plot_w, plot_h, width, height, legend_x;
    float world_lo[3], world_hi[3];
} svg_layout;
void svg_frame_layout(const svg_plot *plot, svg_layout *lay);
void svg_frame_under(wm_buffer *out, const svg_plot *plot, const svg_layout *lay);
void svg_frame_over(wm_buffer *out, const svg_plot *plot, const svg_layout *lay);
/* World point to pixels. */
void svg_to_screen(const svg_plot *plot, const svg_layout *lay, const float p[3], double out[2]);

/* Styles and marks several layers share. A surface fill: walkable ones
 * solid (shade < 1 darkens, band tells the shade classes apart), blocking
 * ones faded. */
uint16_t svg_surface_style(svg_plot *plot, uint16_t surface, int walkable, double shade, unsigned band);
/* A transition edge (KotOR room link) with its room number as a label. */
void svg_draw_transition(svg_plot *plot, const float *a, const float *b, int32_t room);
/* Legend rows for the surfaces counted in counts[surface] (walkable and not). */
void svg_legend_surfaces(svg_plot *plot, const uint32_t *walk_counts, const uint32_t *block_counts);
/* Surface named by --select, or WM_SURFACE_NONE with an error in ctx. */
wm_result svg_select_surface(wm_ctx *ctx, const char *select, uint16_t *out);

/* Per-format layers: each reads the file natively and fills the plot. */
wm_result svg_layer_mesh(svg_plot *plot, const wm_mesh *mesh, const svg_render_options *opts);
wm_result svg_layer_bwm(svg_plot *plot, const char *path, int ascii, const svg_render_options *opts,
                        const wm_options *mesh_opts);
wm_result svg_layer_nwn2(svg_plot *plot, const char *path, const svg_render_options *opts);
wm_result svg_layer_wmo(svg_plot *plot, const char *path, const svg_render_options *opts,
                        const wm_options *mesh_opts);

#endif
