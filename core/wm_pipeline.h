/* The high-level calls: load, save, convert, info and validate a file in one call each.
 * They pick the format (by name, else from the extension, else from the content), read the
 * input once, write every output all or nothing, and leave a message naming the file on
 * failure. "-" as a path is standard input (load) or standard output (save, single-file
 * formats only). Implemented beside the format registry (formats/pipeline*.c). */
#ifndef WM_PIPELINE_H
#define WM_PIPELINE_H

#include "wm_api.h"

#include "wm_format.h"
#include "wm_mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads path ("-": standard input) as format (a name from wm_formats(); NULL: detect)
 * into *out (initialised here; free with wm_mesh_free). opts may be NULL. */
WM_API wm_result wm_mesh_load(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts,
                              wm_mesh *out);
/* The same from bytes in memory; name (may be NULL) is used in messages and, with no
 * format given, its extension helps detection. Formats whose files come with side
 * files (WMO groups) read only what the bytes hold. */
WM_API wm_result wm_mesh_load_memory(wm_ctx *ctx, const void *data, size_t size, const char *name,
                                     const char *format, const wm_options *opts, wm_mesh *out);
/* Writes mesh to path ("-": standard output) as format (NULL: from the path's extension).
 * Without overwrite an existing output is never replaced (WM_ERR_EXISTS). With
 * opts->source set (a conversion: the input and its format), a writer of the input's own
 * format keeps what the mesh cannot hold, and transitions the format cannot hold are
 * named in a warning. */
WM_API wm_result wm_mesh_save(wm_ctx *ctx, const wm_mesh *mesh, const char *path, const char *format,
                              const wm_options *opts, int overwrite);
/* Reads in (format from, NULL: detect) and writes out (format to, NULL: from out's
 * extension). A writer of the input's own format keeps what the neutral mesh cannot hold
 * (a WOK's AABB tree, a TRX's other packets), so an unchanged file stays byte-identical. */
WM_API wm_result wm_convert(wm_ctx *ctx, const char *in, const char *out, const char *from, const char *to,
                            const wm_options *opts, int overwrite);
/* Reads path and fills report (initialised by the caller with wm_report_init) with the
 * format's own facts; mesh_or_NULL, when given, receives the mesh (free with wm_mesh_free). */
WM_API wm_result wm_info(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts,
                         wm_mesh *mesh_or_NULL, wm_report *report);
/* Checks path against the format's invariants (or the neutral mesh checks when the format
 * has none); findings go to report. WM_OK when the check ran, whatever it found. */
WM_API wm_result wm_validate(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts,
                             wm_report *report);

/* The read step on an input already in memory (wm_input_load, wm_input_borrow): format
 * NULL detects; facts (may be NULL) gets the format's own facts from the same decoding;
 * *used (may be NULL) the format that read it. */
WM_API wm_result wm_mesh_read_input(wm_ctx *ctx, const wm_input *in, const char *format, const wm_options *opts,
                                    wm_mesh *out, wm_report *facts, const wm_format **used);
/* wm_info and wm_validate that also say which format read the file (*used may be NULL). */
WM_API wm_result wm_info_format(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts,
                                wm_mesh *mesh, wm_report *report, const wm_format **used);
WM_API wm_result wm_validate_format(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts,
                                    wm_report *report, const wm_format **used);

#ifdef __cplusplus
}
#endif
#endif
