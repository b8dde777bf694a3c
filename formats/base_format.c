/* One check for every writer that takes --base (see base_format.h). */
#include "base_format.h"

#include "wm_platform.h"

#include <stdio.h>

wm_result wm_base_check_format(wm_ctx *ctx, const char *base_path, const wm_format *expected)
{
    FILE *f = wm_platform_fopen(base_path, "rb");
    if (!f) return wm_error(ctx, WM_ERR_IO, "--base %s: cannot open", base_path);
    uint8_t head[4096];
    size_t got = fread(head, 1, sizeof head, f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    uint64_t file_size = size > 0 ? (uint64_t)size : 0;
    if (expected->probe && expected->probe(head, got, file_size, base_path) > 0) return WM_OK;

    wm_ctx quiet = *ctx; /* what the file is instead only shapes the sentence */
    const wm_format *found = NULL;
    size_t count = 0;
    const wm_format *const *all = wm_formats(&count);
    if (wm_format_probe_memory(&quiet, head, got, file_size, base_path, all, count, &found) == WM_OK)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "--base %s: the output needs a base of format %s, and this file is %s",
                        base_path, expected->name, found->name);
    return wm_error(ctx, WM_ERR_UNSUPPORTED,
                    "--base %s: the output needs a base of format %s, and this file is no format walkmesh reads",
                    base_path, expected->name);
}
