/* --base: the existing file whose other content a writer keeps. */
#ifndef WM_BASE_FORMAT_H
#define WM_BASE_FORMAT_H

#include "wm_format.h"

/* The base must be a file of the format being written, decided by its
 * content (the modules' probes), so a .wok renamed .trx is caught too.
 * WM_ERR_UNSUPPORTED (the CLI's exit 4) with one sentence naming the file,
 * what it is and what was needed; WM_ERR_IO when it cannot be opened. */
wm_result wm_base_check_format(wm_ctx *ctx, const char *base_path, const wm_format *expected);

#endif
