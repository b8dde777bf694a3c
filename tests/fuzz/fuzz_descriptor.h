/* The way every caller of the library reaches a reader (issue 16): the format
 * descriptor's read hook, with the facts report, then its validate hook where it
 * has one, on the fuzz bytes borrowed as an in-memory wm_input (no path: side
 * files are unavailable, as for standard input). The targets go deeper into the
 * module afterwards; this keeps the glue between descriptor and parser fuzzed. */
#ifndef FUZZ_DESCRIPTOR_H
#define FUZZ_DESCRIPTOR_H

#include "wm_format.h"

#include <stddef.h>
#include <stdint.h>

static inline void fuzz_descriptor(wm_ctx *ctx, const wm_format *format, const uint8_t *data, size_t size,
                                   const char *name)
{
    wm_input in;
    wm_input_borrow(&in, data, size, name);
    wm_options opts;
    wm_options_init(&opts);
    if (format->probe) (void)format->probe(&in);
    wm_mesh mesh;
    wm_report report;
    wm_report_init(&report, ctx);
    if (format->read(ctx, &in, &opts, &mesh, &report) == WM_OK) {
        (void)wm_mesh_validate(ctx, &mesh);
        wm_mesh_free(ctx, &mesh);
    }
    wm_report_free(&report);
    if (!format->validate) return;
    wm_report_init(&report, ctx);
    (void)format->validate(ctx, &in, &opts, &report);
    wm_report_free(&report);
}

#endif
