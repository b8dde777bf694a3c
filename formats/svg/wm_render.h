/* Pictures of walkmeshes, public: one SVG drawn from a file's own format (see docs/render.md). */
#ifndef WM_RENDER_PUBLIC_H
#define WM_RENDER_PUBLIC_H

#include "wm_api.h"
#include "wm_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Draws the file in_path (format NULL: detected) as an SVG picture into out_path, replacing an
 * existing file only when overwrite is set. opts carries the picture's module options of the
 * "svg" format ("view", "select", "path", "git", "floors", "liquids") and the reading options. */
WM_API wm_result wm_render_file(wm_ctx *ctx, const char *in_path, const wm_format *format, const char *out_path,
                                const wm_options *opts, int overwrite);

#ifdef __cplusplus
}
#endif
#endif
