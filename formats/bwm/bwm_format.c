/* The "bwm" format descriptor: CLI hooks for read, write, info and validate. */
#include "bwm/bwm.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const bwm_extensions[] = {"wok", "pwk", "dwk", NULL};

static const wm_option_desc bwm_options[] = {
    {"rebuild", NULL, "recompute all derived data (order, normals, AABB, adjacency, edges, perimeters)"},
    {"plane-style", "bioware|kotormax", "AABB plane flags: signed 1..32 (BioWare, default) or 1,2,4 (KOTORMax)"},
    {"hook1", "X,Y,Z", "PWK/DWK relative use hook 1"},
    {"hook2", "X,Y,Z", "PWK/DWK relative use hook 2"},
    {"abs-hook1", "X,Y,Z", "PWK/DWK absolute use hook 1"},
    {"abs-hook2", "X,Y,Z", "PWK/DWK absolute use hook 2"},
    {"position", "X,Y,Z", "header position"},
    {NULL, NULL, NULL}};

static int bwm_probe(const wm_input *in)
{
    if (in->size < 12 || memcmp(in->data, "BWM V1.0", 8) != 0) return 0;
    return in->size >= BWM_HEADER_SIZE ? 100 : 60;
}

static void base_name(const char *path, char *out, size_t size)
{
    const char *start = wm_path_file_name(path);
    snprintf(out, size, "%s", start);
    char *dot = strrchr(out, '.');
    if (dot && dot != out) *dot = 0;
}

/* ASCII content behind .wok/.pwk/.dwk (NWN1 files, KotOR text) goes to the ASCII reader. */
static wm_result read_text(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out)
{
    double offset[3];
    int given = 0;
    wm_result r = bwm_room_offset_option(ctx, opts, offset, &given);
    if (!r) r = bwm_ascii_parse_joined(ctx, (const char *)in->data, in->size, in->name, given ? offset : NULL,
                                       bwm_ascii_join_tolerance(opts), out);
    if (r) wm_mesh_free(ctx, out);
    return r;
}

static wm_result bwm_read_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out,
                               wm_report *facts)
{
    bwm_file file;
    char name[128];
    wm_mesh_init(out);
    if (bwm_is_text(in->data, in->size)) return read_text(ctx, in, opts, out);
    wm_result r = bwm_parse(ctx, in->data, in->size, in->name, &file);
    if (r) return r;
    base_name(in->name, name, sizeof name);
    r = bwm_to_mesh(ctx, &file, name, out);
    if (r) wm_error_prefix(ctx, in->name);
    if (!r && facts) {
        bwm_info(&file, ctx, facts);
        r = facts->status;
    }
    bwm_file_free(ctx, &file);
    if (r) wm_mesh_free(ctx, out);
    return r;
}

static wm_result bwm_write_hook(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, const wm_options *opts)
{
    bwm_file file;
    wm_result r = bwm_file_for_writing(ctx, mesh, bwm_type_for_path(wm_sink_path(sink)), opts, &file);
    if (r) return r;
    r = bwm_write_sink(ctx, &file, sink);
    bwm_file_free(ctx, &file);
    return r;
}

static wm_result bwm_validate_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_report *report)
{
    bwm_file file;
    size_t size = 0;
    (void)opts;
    wm_result r = bwm_parse_any(ctx, in->data, in->size, in->name, &file, &size);
    if (r) return r;
    r = bwm_validate(ctx, &file, size, report);
    bwm_file_free(ctx, &file);
    return r ? r : report->status;
}

const wm_format wm_format_bwm = {
    .name = "bwm",
    .description = "KotOR binary walkmesh (.wok area, .pwk placeable, .dwk door); ASCII content behind these "
                   "extensions (NWN1) is read by the ASCII reader",
    .extensions = bwm_extensions,
    .capabilities = WM_CAN_TRANSITIONS | WM_IS_WALKMESH,
    .probe = bwm_probe,
    .read = bwm_read_hook,
    .write = bwm_write_hook,
    .validate = bwm_validate_hook,
    .options = bwm_options,
    .picture = bwm_picture,
};
