#include "wm_format.h"
#include "wm_io.h"
#include "wm_platform.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int wm_file_exists(const char *path)
{
    return path && wm_platform_path_kind(path) != WM_PATH_MISSING;
}

wm_result wm_file_write_atomic(wm_ctx *ctx, const char *path, const void *data, size_t size, int overwrite)
{
    wm_sink *sink = NULL;
    wm_result r = wm_sink_open(ctx, path, overwrite, &sink);
    if (!r && !(r = wm_sink_write(sink, NULL, data, size)))
        r = wm_sink_commit(sink);
    wm_sink_close(sink);
    return r;
}
