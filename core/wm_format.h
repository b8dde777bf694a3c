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
    /* convert: the input's bytes and format. A writer whose own format is source_format
     * may decode source natively to keep what the neutral mesh cannot hold (hooks,
     * untouched derived data); it never reads files for it. NULL: no source. */
    const struct wm_input *source;
    const struct wm_format *source_format;
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

/* Where the companions of an input come from when it is not a file of its own (an archive's
 * member: its .mdx, its layout's rooms come from the same archive). wm_input_beside asks it,
 * wm_input_free releases it; a format module never sees more than that. */
typedef struct wm_input_source {
    wm_result (*beside)(wm_ctx *ctx, struct wm_input_source *source, const char *file_name, char **out_path,
                        uint8_t **out_data, size_t *out_size);
    void (*release)(wm_ctx *ctx, struct wm_input_source *source);
    /* The names of the files beside the input, one per index (NULL past the last): a model
     * finds its module's layout among them. */
    const char *(*name_at)(struct wm_input_source *source, uint32_t index);
} wm_input_source;

/* An input in memory: what every read, info and validate hook gets. core/ reads files and
 * standard input (wm_input_load); a module never opens its main input itself. */
typedef struct wm_input {
    const uint8_t *data;
    size_t size;
    const char *name; /* for messages and the extension: the path, "-", or a caller's name */
    const char *path; /* the file the bytes came from (side files sit beside it); NULL: memory or stdin */
    uint8_t *owned;   /* the buffer wm_input_free releases (NULL: the caller's bytes) */
    size_t mapped;    /* owned is a read-only mapping of the file, this many bytes (0: memory) */
    wm_input_source *source; /* an archive member's archive (NULL: a file, memory or stdin) */
} wm_input;

/* Reads path ("-": standard input) into *out; free with wm_input_free. Errors name the path.
 * A path into an archive ("mod.mod/room.wok", wm_archive.h) reads that member. */
WM_API wm_result wm_input_load(wm_ctx *ctx, const char *path, wm_input *out);
/* The same for a file alone (no archive members): what wm_input_load does for a file. */
WM_API wm_result wm_input_load_file(wm_ctx *ctx, const char *path, wm_input *out);
/* A file mapped (or read, when small or where files are not mapped) whatever its size: an
 * archive, whose members are bounded by the limits instead. */
WM_API wm_result wm_input_load_archive(wm_ctx *ctx, const char *path, wm_input *out);
/* A reader that will not need the bytes before `upto` again soon: a large file mapped by
 * wm_input_load lets their pages leave memory (reading them again reads the file again),
 * any other input ignores it. The bytes stay valid either way. */
WM_API void wm_input_release(const wm_input *in, size_t upto);
/* Borrows bytes held by the caller (nothing is copied; name may be NULL). */
WM_API void wm_input_borrow(wm_input *out, const void *data, size_t size, const char *name);
WM_API void wm_input_free(wm_ctx *ctx, wm_input *in);
/* Frees the bytes early but keeps name and path (a conversion whose writer is another
 * format needs only the source's name): data becomes NULL, size 0. */
WM_API void wm_input_drop_bytes(wm_ctx *ctx, wm_input *in);
/* A side file that sits beside the input (a WMO root's groups, a group's root): reads the
 * file named file_name (no folder) in the input's folder, or the archive's member of that name
 * for a member. *out_path (may be NULL) gets its
 * path and *out_data its bytes, both freed with wm_free. WM_ERR_UNSUPPORTED when the input
 * has no folder (memory, standard input), WM_ERR_IO when the file is missing or unreadable. */
WM_API wm_result wm_input_beside(wm_ctx *ctx, const wm_input *in, const char *file_name, char **out_path,
                                 uint8_t **out_data, size_t *out_size);

/* Where a write hook puts its bytes: one main output and, for multi-file formats (OBJ +
 * MTL, glTF + BIN, WMO root + groups), side outputs named after the main one. core/ owns
 * the files: every output goes to a temporary beside its target, and all are moved into
 * place together, or none (wm_sink_commit). */
typedef struct wm_sink wm_sink;
/* The main output's path as given ("-": standard output); a writer takes the stem for
 * references inside the file (mtllib, buffer uri) and for the file kind (.pwk). */
WM_API const char *wm_sink_path(const wm_sink *sink);
/* Appends bytes to the main output (suffix NULL) or to the side output named <stem><suffix>
 * beside it ("<stem>" = the main file name without its extension; suffix e.g. ".mtl" or
 * "_000.wmo"). Side outputs are refused for standard output. */
WM_API wm_result wm_sink_write(wm_sink *sink, const char *suffix, const void *data, size_t size);
/* Overwrites size bytes at offset of the main output, all of which was written
 * before (a size known only at the end). WM_ERR_UNSUPPORTED on standard output,
 * which cannot go back: a writer asks wm_sink_can_write_at first. */
WM_API wm_result wm_sink_write_at(wm_sink *sink, uint64_t offset, const void *data, size_t size);
WM_API int wm_sink_can_write_at(const wm_sink *sink);
/* A writer whose format usually holds something (WM_CAN_*) but whose output this time
 * does not (PLY and STL through the interchange module: no transition lines) says so;
 * the convert driver then names what was lost. */
WM_API void wm_sink_set_lacking(wm_sink *sink, unsigned capabilities);
WM_API unsigned wm_sink_lacking(const wm_sink *sink);
/* Opens a sink for path ("-": standard output). Without overwrite an existing target is
 * refused here and never replaced at commit (WM_ERR_EXISTS). A path into an archive
 * ("mod.mod/room.wok", wm_archive.h) adds or replaces that member: the whole archive is
 * written to a temporary and placed at commit, all or nothing. */
WM_API wm_result wm_sink_open(wm_ctx *ctx, const char *path, int overwrite, wm_sink **out);
/* A sink over a folder (created beforehand): no main output, only whole files put in it by
 * name with wm_sink_write_file, all placed at commit or none (a split area's rooms). */
WM_API wm_result wm_sink_open_folder(wm_ctx *ctx, const char *folder, int overwrite, wm_sink **out);
/* One whole file in a folder sink, named `name` (one file name: wm_name_check's component
 * rule). Synced and closed at once, so thousands of files hold no descriptors open; placed
 * at commit. A name that is another's under wm_name_compare (the same file where names
 * ignore case) is refused, WM_ERR_EXISTS, naming both. */
WM_API wm_result wm_sink_write_file(wm_sink *sink, const char *name, const void *data, size_t size);
/* The same for files only (what wm_sink_open does for a path that is not into an archive). */
WM_API wm_result wm_sink_open_file(wm_ctx *ctx, const char *path, int overwrite, wm_sink **out);
/* A sink that keeps the main output in memory (side outputs refused) and hands the bytes to
 * finish at commit, whose result is the commit's; release(user) runs at close. path names it
 * in messages. For outputs that go into another file (an archive's member). */
typedef wm_result (*wm_sink_finish_fn)(wm_ctx *ctx, void *user, const uint8_t *data, size_t size);
WM_API wm_result wm_sink_open_memory(wm_ctx *ctx, const char *path, wm_sink_finish_fn finish,
                                     void (*release)(wm_ctx *ctx, void *user), void *user, wm_sink **out);
/* Syncs every output and moves them all into place, with SIGINT/SIGTERM held off. */
WM_API wm_result wm_sink_commit(wm_sink *sink);
/* Frees the sink; an uncommitted sink's temporaries are removed, the targets untouched. */
WM_API void wm_sink_close(wm_sink *sink);

/* What the neutral mesh carries into a format (declared by each descriptor). */
enum {
    WM_CAN_TRANSITIONS = 1u << 0, /* the written file keeps edge transitions */
    WM_IS_WALKMESH = 1u << 1      /* its walkable faces are a game's own ground (routes, reach take them as
                                     they are); a collision mesh needs a navmesh built over it first */
};

struct wm_picture; /* a picture being drawn (core/picture.h, library-internal) */

typedef struct wm_format {
    const char *name;            /* short id: "bwm", "nwn2", "wmo", "assimp" */
    const char *description;
    const char *const *extensions; /* NULL-terminated, lower case, no dot */
    unsigned capabilities;        /* WM_CAN_* */
    /* 0..100: how sure the module is that the input (whole, in memory; its name for the
     * extension) is its format. NULL: never probes. */
    int (*probe)(const wm_input *in);
    /* The mesh; facts (may be NULL) also gets the format's own facts (counts, trees,
     * packets...) from the same decoding. On error *out is left empty. */
    wm_result (*read)(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out, wm_report *facts);
    /* Writes the mesh into the sink (the caller commits it). */
    wm_result (*write)(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, const wm_options *opts);
    /* Invariant checks; findings go to the report. Returns WM_OK when the
     * check ran (even with findings). NULL: not offered. */
    wm_result (*validate)(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_report *report);
    const wm_option_desc *options; /* terminated by a {NULL} entry; may be NULL */
    /* Draws the input's own facts into a picture (wm_render; core/picture.h). NULL:
     * pictures show the neutral mesh. */
    wm_result (*picture)(wm_ctx *ctx, const wm_input *in, const wm_options *opts, struct wm_picture *picture);
} wm_format;

/* Registry (formats/registry.c). */
WM_API const wm_format *const *wm_formats(size_t *out_count);
WM_API const wm_format *wm_format_by_name(const char *name);
/* Matches the path's extension (after the last '.', case-insensitive).
 * Several matches -> WM_ERR_AMBIGUOUS; none -> WM_ERR_UNSUPPORTED. */
WM_API wm_result wm_format_by_extension(wm_ctx *ctx, const char *path, int for_writing, const wm_format **out);
/* Probes an input with the candidates (NULL: every module that can read); the single
 * best score wins, a tie at the top is WM_ERR_AMBIGUOUS, none WM_ERR_NOT_FORMAT. */
WM_API wm_result wm_format_probe(wm_ctx *ctx, const wm_input *in, const wm_format *const *candidates,
                                 size_t candidate_count, const wm_format **out);
/* For reading: the input name's extension first (probing among the extension's formats
 * when several share it), then probing. */
WM_API wm_result wm_format_detect(wm_ctx *ctx, const wm_input *in, const wm_format **out);

#ifdef __cplusplus
}
#endif
#endif
