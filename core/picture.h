/* The drawing model pictures are made of (library-internal; the public
 * entry is wm_picture.h). A format module's `picture` hook adds faces,
 * lines, dots and labels in world coordinates (Z-up game units) with a
 * style class and legend rows; wm_picture_write projects them for the
 * chosen view and writes the frame (title, grid, scale bar, axis arrows,
 * legend) around them. Nothing here knows a game format. */
#ifndef WM_PICTURE_INTERNAL_H
#define WM_PICTURE_INTERNAL_H

#include "wm_picture.h"
#include "wm_surface.h"

#define WM_PIC_MAX_STYLES 512u
#define WM_PIC_LEGEND_MAX 40u
#define WM_PIC_RAMP_MAX 8u /* rows; more are summarised in one "... more" row */

typedef struct wm_pic_style {
    char name[12]; /* CSS class */
    char css[120]; /* declarations */
} wm_pic_style;

typedef enum wm_pic_mark_kind {
    WM_PIC_MARK_LINE,  /* open polyline */
    WM_PIC_MARK_LOOP,  /* closed polyline */
    WM_PIC_MARK_DOT,   /* circle of `size` pixels at the point */
    WM_PIC_MARK_CROSS, /* x of `size` pixels at the point */
    WM_PIC_MARK_LABEL  /* text centred on the point */
} wm_pic_mark_kind;

typedef struct wm_pic_mark {
    uint8_t kind;
    uint16_t style;
    uint32_t first_point, point_count; /* into wm_picture.points (3 floats each) */
    uint32_t text;                     /* offset into wm_picture.text; labels only */
    float size;
} wm_pic_mark;

typedef struct wm_pic_face {
    float p[9];
    uint16_t style;
} wm_pic_face;

typedef enum wm_pic_legend_kind {
    WM_PIC_LEGEND_SWATCH, /* filled square in the style */
    WM_PIC_LEGEND_LINE,   /* stroke in the style */
    WM_PIC_LEGEND_DOT,    /* circle in the style */
    WM_PIC_LEGEND_TEXT,   /* text only */
    WM_PIC_LEGEND_RAMP    /* a ramp: swatches of ramp_style[0..ramp-1] */
} wm_pic_legend_kind;

typedef struct wm_pic_legend_row {
    uint8_t kind;
    uint16_t style;
    uint8_t ramp;
    uint16_t ramp_style[WM_PIC_RAMP_MAX];
    char text[72];
} wm_pic_legend_row;

typedef struct wm_picture {
    wm_ctx *ctx;
    wm_view view;
    const char *select; /* --select as given (the module interprets it), NULL: all */
    char title[160];
    char subtitle[200];
    const char *unit; /* "m", "yd", "units" */
    wm_pic_style *styles;
    uint32_t style_count;
    wm_pic_face *faces;
    uint32_t face_count, face_capacity;
    wm_pic_mark *marks;
    uint32_t mark_count, mark_capacity;
    float *points;
    uint32_t point_count, point_capacity;
    char *text;
    uint32_t text_size, text_capacity;
    wm_pic_legend_row legend[WM_PIC_LEGEND_MAX + 1];
    uint32_t legend_count, legend_dropped;
    char *desc; /* machine-readable facts (<desc>), owned */
    wm_result status; /* sticky allocation error */
} wm_picture;

wm_result wm_picture_init(wm_picture *plot, wm_ctx *ctx, wm_view view, const char *path_or_name, const char *unit);
void wm_picture_free(wm_picture *plot);

/* Index of the class `name`, added with the CSS when new. */
uint16_t wm_picture_style(wm_picture *plot, const char *name, const char *css_fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(3, 4)
#endif
    ;
void wm_picture_face(wm_picture *plot, const float *a, const float *b, const float *c, uint16_t style);
void wm_picture_line(wm_picture *plot, uint16_t style, const float *points, uint32_t count, int closed);
void wm_picture_segment(wm_picture *plot, uint16_t style, const float *a, const float *b);
void wm_picture_dot(wm_picture *plot, uint16_t style, const float *p, float pixels, wm_pic_mark_kind kind);
void wm_picture_label(wm_picture *plot, uint16_t style, const float *p, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(4, 5)
#endif
    ;
/* Moves the last label right by that many pixels (beside a marker). */
void wm_picture_offset_last(wm_picture *plot, float pixels);
void wm_picture_legend(wm_picture *plot, wm_pic_legend_kind kind, uint16_t style, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(4, 5)
#endif
    ;
/* A ramp row: one swatch per style (at most WM_PIC_RAMP_MAX), then the text. */
void wm_pic_legend_ramp(wm_picture *plot, const uint16_t *styles, unsigned count, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(4, 5)
#endif
    ;
/* Appends a line to the picture's <desc> (facts for scripts and tests). */
void wm_picture_describe(wm_picture *plot, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(2, 3)
#endif
    ;

/* Pixels per world unit on the page, as the faces drawn so far lay it out
 * (the picture is cropped to its faces). Lets a module leave out details
 * that would not be readable. */
double wm_picture_pixels_per_unit(const wm_picture *plot);
/* Projects, orders and appends the whole SVG document to out. */
wm_result wm_picture_write(wm_picture *plot, wm_buffer *out);

/* Fill colour scaled by shade (0..1 keeps it, lower darkens) as "#rrggbb". */
void wm_pic_colour(const uint8_t rgb[3], double shade, char out[8]);
/* One of a fixed set of well-separated colours. */
const uint8_t *wm_pic_palette(uint32_t index);
#define WM_PIC_PALETTE_SIZE 12u

/* Projection of a world point for the view: out = {u right, v up, depth
 * (larger = farther from the viewer)}, in world units. */
void wm_pic_project(wm_view view, const float p[3], double out[3]);
/* 1, 2 or 5 times a power of ten, near range / parts. */
double wm_pic_nice_step(double range, int parts);
/* Number with at most two decimals, trailing zeros dropped. */
void wm_pic_put_number(wm_buffer *out, double v);
/* XML-escaped UTF-8 text (invalid bytes and controls become U+FFFD), cut
 * after max_chars characters with an ellipsis. */
void wm_pic_put_escaped(wm_buffer *out, const char *s, size_t max_chars);
/* The frame: background, title, grid, scale bar, axis arrows, legend.
 * Writes the parts under the drawing (before) or over it (after). */
typedef struct wm_pic_layout {
    double scale;              /* pixels per world unit */
    double umin, umax, vmin, vmax;
    double left, top, plot_w, plot_h, width, height, legend_x;
    float world_lo[3], world_hi[3];
} wm_pic_layout;
/* <rect class="cls" .../> */
void wm_pic_put_rect(wm_buffer *out, const char *cls, double x, double y, double width, double height);
void wm_pic_frame_layout(const wm_picture *plot, wm_pic_layout *lay);
void wm_pic_frame_under(wm_buffer *out, const wm_picture *plot, const wm_pic_layout *lay);
void wm_pic_frame_over(wm_buffer *out, const wm_picture *plot, const wm_pic_layout *lay);
/* World point to pixels. */
void wm_pic_to_screen(const wm_picture *plot, const wm_pic_layout *lay, const float p[3], double out[2]);

/* Styles and marks several layers share. A surface fill: walkable ones
 * solid (shade < 1 darkens, band tells the shade classes apart), blocking
 * ones faded. */
uint16_t wm_pic_surface_style(wm_picture *plot, uint16_t surface, int walkable, double shade, unsigned band);
/* Transition edges (links to other rooms) as lines, with one label per
 * transition: a run of edges to one room sharing vertices. Returns the
 * number of transitions; adds the legend row and the facts to <desc>. */
typedef struct wm_pic_edge {
    uint32_t v[2]; /* vertex indices into positions (3 floats each) */
    int32_t room;
} wm_pic_edge;
uint32_t wm_pic_draw_transitions(wm_picture *plot, const float *positions, const wm_pic_edge *edges, uint32_t count);
/* Legend rows for the surfaces counted in counts[surface] (walkable and not). */
void wm_pic_legend_surfaces(wm_picture *plot, const uint32_t *walk_counts, const uint32_t *block_counts);
/* Surface named by --select, or WM_SURFACE_NONE with an error in ctx. */
wm_result wm_pic_select_surface(wm_ctx *ctx, const char *select, uint16_t *out);

/* A picture with the view ("view" in opts), the title, and the selection
 * ("select"), in units until the module says otherwise. */
wm_result wm_picture_start(wm_ctx *ctx, const wm_options *opts, const char *title, wm_picture *plot);
/* After drawing (r: how it went): "nothing to draw" when no face was drawn,
 * else the SVG into svg; frees the picture either way. */
wm_result wm_picture_finish(wm_picture *plot, const char *name, wm_result r, wm_buffer *svg);
/* The neutral mesh by surface, with transitions (formats without a hook). */
wm_result wm_picture_mesh(wm_picture *plot, const wm_mesh *mesh);

#endif
