/* One check for every writer that takes --base (see base_format.h). */
#include "base_format.h"

wm_result wm_base_load(wm_ctx *ctx, const char *base_path, const wm_format *expected, wm_input *out)
{
    wm_result r = wm_input_load(ctx, base_path, out);
    if (r) {
        wm_error_prefix(ctx, "--base");
        return r;
    }
    if (expected->probe && expected->probe(out) > 0) return WM_OK;

    wm_ctx quiet = *ctx; /* what the file is instead only shapes the sentence */
    const wm_format *found = NULL;
    int known = wm_format_probe(&quiet, out, NULL, 0, &found) == WM_OK;
    wm_input_free(ctx, out);
    if (known)
        return wm_error(ctx, WM_ERR_NOT_FORMAT, "--base %s: the output needs a base of format %s, and this file is %s",
                        base_path, expected->name, found->name);
    return wm_error(ctx, WM_ERR_NOT_FORMAT,
                    "--base %s: the output needs a base of format %s, and this file is no format walkmesh reads",
                    base_path, expected->name);
}
