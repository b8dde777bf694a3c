#include "wm_format.h"

#include <string.h>

void wm_options_init(wm_options *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->walkable_slope = -1.0f;
    opts->weld_tolerance = -1.0f;
}

const char *wm_option_get(const wm_options *opts, const char *name)
{
    if (!opts)
        return NULL;
    for (unsigned i = opts->count; i-- > 0;)
        if (strcmp(opts->names[i], name) == 0)
            return opts->values[i];
    return NULL;
}

int wm_option_flag(const wm_options *opts, const char *name)
{
    const char *v = wm_option_get(opts, name);
    return v && strcmp(v, "0") != 0 && strcmp(v, "no") != 0 && strcmp(v, "false") != 0;
}

wm_result wm_option_set(wm_ctx *ctx, wm_options *opts, const char *name, const char *value)
{
    for (unsigned i = 0; i < opts->count; i++)
        if (strcmp(opts->names[i], name) == 0) {
            opts->values[i] = value;
            return WM_OK;
        }
    if (opts->count >= WM_MAX_OPTIONS)
        return wm_error(ctx, WM_ERR_INVALID, "too many options (at most %d)", WM_MAX_OPTIONS);
    opts->names[opts->count] = name;
    opts->values[opts->count] = value;
    opts->count++;
    return WM_OK;
}
