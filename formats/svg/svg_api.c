/* The public picture call (wm_render.h) over the render module. */
#include "svg_render.h"
#include "wm_render.h"

wm_result wm_render_file(wm_ctx *ctx, const char *in_path, const wm_format *format, const char *out_path,
                         const wm_options *opts, int overwrite)
{
    return svg_render_file(ctx, in_path, format, out_path, opts, overwrite);
}
