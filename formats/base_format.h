/* --base: the existing file whose other content a writer keeps. */
#ifndef WM_BASE_FORMAT_H
#define WM_BASE_FORMAT_H

#include "wm_format.h"

/* Reads --base into *out (free with wm_input_free) when its content is of the format
 * being written, decided by the modules' probes, so a .wok renamed .trx is caught too.
 * Else WM_ERR_NOT_FORMAT (the CLI's exit 4) with one sentence naming the file, what it
 * is and what was needed, and *out is left empty; WM_ERR_IO when it cannot be read. */
wm_result wm_base_load(wm_ctx *ctx, const char *base_path, const wm_format *expected, wm_input *out);

#endif
