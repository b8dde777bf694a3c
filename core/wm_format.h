/* Format descriptors, conversion options and reports.
 * Each module under formats/ exports one const wm_format listed in the
 * registry array (formats/registry.c). */
#ifndef WM_FORMAT_H
#define WM_FORMAT_H

#include "wm_api.h"

#include "wm_mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A module-specific option, declared by the module so the CLI can accept
 * and document it ("--plane-style kotormax"). arg == NULL: a flag. */
typedef struct wm_option_desc {
    const char *name; /* without dashes */
    const char *arg;  /* placeholder shown in help, NULL for flags */
    const char *help;
} wm_option_desc;

#define WM_MAX_OPTIONS 32

typedef enum wm_up_axis { WM_UP_DEFAULT = 0, WM_UP_Y, WM_UP_Z } wm_up_axis;

typedef struct wm_options {
    wm_up_axis up;            /* axis convention of an interchange file (OBJ/glTF...) */
    float walkable_slope;     /* degrees; < 0: not used */
    float weld_tolerance;     /* < 0: module default */
    const char *base_path;    /* --base: existing file whose other content is kept */
    const char *source_path;  /* convert: the input file; a writer of the same format may
                                 re-read it natively to keep what the neutral mesh cannot hold
                                 (hooks, untouched derived data) */
    /* module-specific options as name/value pairs (value "1" for flags) */
    const char *names[WM_MAX_OPTIONS];
    const char *values[WM_MAX_OPTIONS];
    unsigned count;
} wm_options;

WM_API void wm_options_init(wm_options *opts);
/* NULL when absent. */
WM_API const char *wm_option_get(const wm_options *opts, const char *name);
WM_API int wm_option_flag(const wm_options *opts, const char *name);
WM_API wm_result wm_option_set(wm_ctx *ctx, wm_options *opts, const char *name, const char *value);

/* Reports filled by info and validate: ordered key/value facts and findings. */
typedef enum wm_severity { WM_SEV_INFO = 0, WM_SEV_WARNING = 1, WM_SEV_ERROR = 2 } wm_severity;

typedef struct wm_report_item {
    wm_severity severity; /* facts are WM_SEV_INFO */
    char *key;            /* fact name, or the finding's location ("face 12 edge 1") */
    char *value;          /* fact value, or the finding's message */
} wm_report_item;

typedef struct wm_report {
    wm_report_item *items;
    uint32_t count, capacity;
    uint32_t errors, warnings;
    wm_ctx *ctx;
    wm_result status; /* sticky allocation error */
} wm_report;

WM_API void wm_report_init(wm_report *report, wm_ctx *ctx);
WM_API void wm_report_free(wm_report *report);
WM_API void wm_report_fact(wm_report *report, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(3, 4)
#endif
    ;
WM_API void wm_report_finding(wm_report *report, wm_severity severity, const char *location, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(4, 5)
#endif
    ;

struct wm_picture; /* a picture being drawn (core/picture.h, library-internal) */

typedef struct wm_format {
    const char *name;            /* short id: "bwm", "nwn2", "wmo", "assimp" */
    const char *description;
    const char *const *extensions; /* NULL-terminated, lower case, no dot */
    /* 0..100: how sure the module is that these bytes (first up to 4 KiB,
     * whole size given separately) are its format. NULL: never probes. */
    int (*probe)(const uint8_t *head, size_t head_size, uint64_t file_size, const char *path);
    wm_result (*read)(wm_ctx *ctx, const char *path, const wm_options *opts, wm_mesh *out);
    wm_result (*write)(wm_ctx *ctx, const wm_mesh *mesh, const char *path, const wm_options *opts, int overwrite);
    /* Format-specific facts (counts, trees, packets...). NULL: none. */
    wm_result (*info)(wm_ctx *ctx, const char *path, const wm_options *opts, wm_report *report);
    /* Invariant checks; findings go to the report. Returns WM_OK when the
     * check ran (even with findings). NULL: not offered. */
    wm_result (*validate)(wm_ctx *ctx, const char *path, const wm_options *opts, wm_report *report);
    const wm_option_desc *options; /* terminated by a {NULL} entry; may be NULL */
    /* read and info in one pass, the file read and decoded once (what `walkmesh info`
     * needs). NULL: read, then info. On error *out is left empty. */
    wm_result (*read_info)(wm_ctx *ctx, const char *path, const wm_options *opts, wm_mesh *out, wm_report *report);
    /* Draws the file's own facts into a picture (wm_render): data/size the whole file,
     * path where it is (for files it names; NULL when drawn from memory).
     * NULL: pictures show the neutral mesh. */
    wm_result (*picture)(wm_ctx *ctx, const uint8_t *data, size_t size, const char *path, const wm_options *opts,
                         struct wm_picture *picture);
} wm_format;

/* Registry (formats/registry.c). */
WM_API const wm_format *const *wm_formats(size_t *out_count);
WM_API const wm_format *wm_format_by_name(const char *name);
/* Matches the path's extension (after the last '.', case-insensitive).
 * Several matches -> WM_ERR_AMBIGUOUS; none -> WM_ERR_UNSUPPORTED. */
WM_API wm_result wm_format_by_extension(wm_ctx *ctx, const char *path, int for_writing, const wm_format **out);
/* Probes a file's content with every module that can read; the single best
 * score wins, a tie at the top is WM_ERR_AMBIGUOUS. */
WM_API wm_result wm_format_probe(wm_ctx *ctx, const char *path, const wm_format **out);
/* Same on bytes already in memory. */
WM_API wm_result wm_format_probe_memory(wm_ctx *ctx, const uint8_t *head, size_t head_size, uint64_t file_size,
                                 const char *path, const wm_format *const *candidates, size_t candidate_count,
                                 const wm_format **out);
/* For reading: extension first (probing among the extension's formats when
 * several share it), then probing. */
WM_API wm_result wm_format_detect(wm_ctx *ctx, const char *path, const wm_format **out);

#ifdef __cplusplus
}
#endif
#endif
