/* Pictures of walkmeshes: one SVG per file, drawn by the file's own format
 * module (its descriptor's `picture` hook) on a format-independent frame:
 * the file name as title, a coordinate grid in game units, a scale bar,
 * axis arrows and a legend listing only what is drawn. A format without a
 * hook is drawn as the neutral mesh. See docs/render.md. */
#ifndef WM_PICTURE_H
#define WM_PICTURE_H

#include "wm_api.h"

#include "wm_format.h"
#include "wm_io.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum wm_view {
    WM_VIEW_TOP = 0, /* looking down -Z: x right, y up (north) */
    WM_VIEW_FRONT,   /* looking along +Y: x right, z up */
    WM_VIEW_SIDE,    /* looking along -X: y right, z up */
    WM_VIEW_ISO      /* fixed isometric view from the -X -Y +Z corner */
} wm_view;

/* Options come as module options in opts: "view" (top, front, side, iso),
 * "select" (a part, as the format understands it), and each module's own
 * (see `walkmesh formats`). An option the file's format does not take is
 * WM_ERR_OPTION, so a picture never silently lacks what was asked for.
 * format NULL: detected from the name and the bytes. */

/* Draws the file at in_path; the SVG document is appended to svg. */
WM_API wm_result wm_render(wm_ctx *ctx, const char *in_path, const wm_format *format, const wm_options *opts,
                           wm_buffer *svg);
/* The same from a file image in memory; name is its title (and, for a
 * format whose file names others, such as a WMO root, where they are). */
WM_API wm_result wm_render_memory(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name,
                                  const wm_format *format, const wm_options *opts, wm_buffer *svg);
/* wm_render into out_path, replaced atomically (only with overwrite). */
WM_API wm_result wm_render_file(wm_ctx *ctx, const char *in_path, const wm_format *format, const char *out_path,
                                const wm_options *opts, int overwrite);
/* The neutral mesh by surface (what `convert X out.svg` writes). */
WM_API wm_result wm_render_mesh(wm_ctx *ctx, const wm_mesh *mesh, const char *title, const wm_options *opts,
                                wm_buffer *svg);

#ifdef __cplusplus
}
#endif
#endif
