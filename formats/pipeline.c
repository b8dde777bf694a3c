/* The high-level calls of wm_pipeline.h: the one path every conversion takes.
 * core/ reads the input once (wm_input_load), the registry picks the format once, the
 * module decodes the bytes, and the writer fills a sink that core/ commits all or nothing.
 * A writer gets the source's bytes and format in its options, never a path to re-read. */
#include "wm_pipeline.h"
#include "wm_geometry.h"
#include "wm_io.h"
#include "walk_findings.h"

#include <math.h>
#include <string.h>

static wm_result named_format(wm_ctx *ctx, const char *name, int for_writing, const wm_format **out)
{
    *out = wm_format_by_name(name);
    if (!*out)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "no format named '%s' (see 'walkmesh formats')", name);
    if (for_writing ? !(*out)->write : !(*out)->read)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "the %s format cannot be %s", name, for_writing ? "written" : "read");
    return WM_OK;
}

static wm_result writer_for(wm_ctx *ctx, const char *format, const char *path, const wm_format **out)
{
    if (!path)
        return wm_error(ctx, WM_ERR_INVALID, "no output path given");
    if (format)
        return named_format(ctx, format, 1, out);
    if (strcmp(path, "-") == 0)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "standard output has no extension: name the format");
    return wm_format_by_extension(ctx, path, 1, out);
}

wm_result wm_mesh_read_input(wm_ctx *ctx, const wm_input *in, const char *format, const wm_options *opts, wm_mesh *out,
                        wm_report *facts, const wm_format **used)
{
    const wm_format *f = NULL;
    wm_options defaults;
    wm_mesh_init(out);
    wm_result r = format ? named_format(ctx, format, 0, &f) : wm_format_detect(ctx, in, &f);
    if (r)
        return r;
    if (!opts) {
        wm_options_init(&defaults);
        opts = &defaults;
    }
    r = f->read(ctx, in, opts, out, facts);
    if (!r && (r = wm_mesh_check_finite(ctx, out)) != WM_OK) /* any format: an input error, before any processing */
        wm_mesh_free(ctx, out);
    if (r) {
        wm_error_prefix(ctx, in->name);
        return r;
    }
    if (used)
        *used = f;
    return WM_OK;
}

wm_result wm_mesh_load(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts, wm_mesh *out)
{
    return wm_info_format(ctx, path, format, opts, out, NULL, NULL);
}

wm_result wm_mesh_load_memory(wm_ctx *ctx, const void *data, size_t size, const char *name, const char *format,
                              const wm_options *opts, wm_mesh *out)
{
    wm_input in;
    wm_input_borrow(&in, data, size, name);
    return wm_mesh_read_input(ctx, &in, format, opts, out, NULL, NULL);
}

static uint32_t transition_edges(const wm_mesh *mesh)
{
    uint32_t n = 0;
    for (size_t i = 0; i < 3 * (size_t)mesh->triangle_count; i++)
        n += mesh->transitions[i] != WM_NO_TRANSITION;
    return n;
}

/* The guard before every writer: a coordinate beyond WM_COORD_LIMIT (or not finite), in a
 * vertex or a named point (hooks, positions), is refused, so that no format writes what its
 * validate rejects; a reader that let one through is caught here, naming it. */
static wm_result check_writable(wm_ctx *ctx, const wm_mesh *mesh)
{
    for (uint32_t v = 0; v < mesh->vertex_count; v++) {
        const float *p = mesh->positions + 3 * (size_t)v;
        if (!(fabsf(p[0]) <= WM_COORD_LIMIT && fabsf(p[1]) <= WM_COORD_LIMIT && fabsf(p[2]) <= WM_COORD_LIMIT))
            return wm_error(ctx, WM_ERR_INVALID, "vertex %u at (%g, %g, %g) is beyond the bound of 1e7 game units: "
                            "nothing written", v, (double)p[0], (double)p[1], (double)p[2]);
    }
    for (uint32_t i = 0; i < mesh->point_count; i++) {
        const float *p = mesh->points[i].xyz;
        if (!(fabsf(p[0]) <= WM_COORD_LIMIT && fabsf(p[1]) <= WM_COORD_LIMIT && fabsf(p[2]) <= WM_COORD_LIMIT))
            return wm_error(ctx, WM_ERR_INVALID, "point %s at (%g, %g, %g) is beyond the bound of 1e7 game units: "
                            "nothing written", mesh->points[i].name, (double)p[0], (double)p[1], (double)p[2]);
    }
    return WM_OK;
}

/* Writes into an open sink with a writer already chosen, and commits; opts is not NULL.
 * In a conversion (opts->source set) a format that declares no place for transitions
 * gets the source's transitions named as lost: decided from the descriptor, not by
 * reading the output back. */
static wm_result save_into(wm_ctx *ctx, const wm_format *f, const wm_mesh *mesh, wm_sink *sink,
                           const wm_options *opts)
{
    const char *path = wm_sink_path(sink);
    wm_result r = check_writable(ctx, mesh);
    if (!r)
        r = f->write(ctx, mesh, sink, opts);
    if (!r)
        r = wm_sink_commit(sink);
    if (r) {
        wm_error_prefix(ctx, path);
        return r;
    }
    int lost = !(f->capabilities & WM_CAN_TRANSITIONS) || (wm_sink_lacking(sink) & WM_CAN_TRANSITIONS);
    uint32_t edges = opts->source && lost ? transition_edges(mesh) : 0;
    if (edges) {
        const char *dot = strrchr(wm_path_file_name(path), '.');
        wm_warn(ctx, "%s: the %u transition edge(s) of %s did not survive: %s%s files cannot hold them", path, edges,
                opts->source->name, dot ? "" : f->name, dot ? dot : "");
    }
    return WM_OK;
}

wm_result wm_mesh_save(wm_ctx *ctx, const wm_mesh *mesh, const char *path, const char *format,
                       const wm_options *opts, int overwrite)
{
    const wm_format *f = NULL;
    wm_result r = writer_for(ctx, format, path, &f);
    if (r)
        return r;
    wm_options defaults;
    if (!opts) {
        wm_options_init(&defaults);
        opts = &defaults;
    }
    wm_sink *sink = NULL;
    if (!(r = wm_sink_open(ctx, path, overwrite, &sink)))
        r = save_into(ctx, f, mesh, sink, opts);
    wm_sink_close(sink);
    return r;
}

wm_result wm_convert(wm_ctx *ctx, const char *in, const char *out, const char *from, const char *to,
                     const wm_options *opts, int overwrite)
{
    const wm_format *target = NULL, *source_format = NULL;
    wm_result r = writer_for(ctx, to, out, &target);
    if (r)
        return r;
    wm_sink *sink = NULL; /* opened first: an existing output is refused before any work */
    if ((r = wm_sink_open(ctx, out, overwrite, &sink)))
        return r;
    wm_options local;
    if (opts)
        local = *opts;
    else
        wm_options_init(&local);
    wm_input source;
    wm_mesh mesh;
    wm_mesh_init(&mesh);
    r = wm_input_load(ctx, in, &source);
    if (!r)
        r = wm_mesh_read_input(ctx, &source, from, &local, &mesh, NULL, &source_format);
    if (!r) {
        if (source_format != target) /* only a writer of the source's own format reads its bytes */
            wm_input_drop_bytes(ctx, &source);
        local.source = &source;
        local.source_format = source_format;
        r = save_into(ctx, target, &mesh, sink, &local);
    }
    wm_sink_close(sink);
    wm_mesh_free(ctx, &mesh);
    wm_input_free(ctx, &source);
    return r;
}

wm_result wm_info(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts, wm_mesh *mesh_or_NULL,
                  wm_report *report)
{
    wm_mesh local;
    wm_result r = wm_info_format(ctx, path, format, opts, mesh_or_NULL ? mesh_or_NULL : &local, report, NULL);
    if (!mesh_or_NULL)
        wm_mesh_free(ctx, &local);
    return r;
}

wm_result wm_info_format(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts, wm_mesh *mesh,
                         wm_report *report, const wm_format **used)
{
    wm_input in;
    wm_mesh_init(mesh);
    wm_result r = wm_input_load(ctx, path, &in);
    if (!r)
        r = wm_mesh_read_input(ctx, &in, format, opts, mesh, report, used);
    wm_input_free(ctx, &in);
    return r;
}

wm_result wm_validate(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts, wm_report *report)
{
    return wm_validate_format(ctx, path, format, opts, report, NULL);
}

/* Walkable ground boxed in by blocking faces, in a file its format found sound. */
static wm_result validate_walkable_regions(wm_ctx *ctx, const wm_input *in, const wm_format *f,
                                           const wm_options *opts, wm_report *report)
{
    wm_mesh mesh;
    wm_result r = wm_mesh_read_input(ctx, in, f->name, opts, &mesh, NULL, NULL);
    if (!r) {
        r = wm_walk_findings(ctx, &mesh, report);
        wm_mesh_free(ctx, &mesh);
    }
    if (r)
        wm_error_prefix(ctx, in->name);
    return r;
}

wm_result wm_validate_format(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts,
                             wm_report *report, const wm_format **used)
{
    const wm_format *f = NULL;
    wm_options defaults;
    if (!opts) {
        wm_options_init(&defaults);
        opts = &defaults;
    }
    wm_input in;
    wm_result r = wm_input_load(ctx, path, &in);
    if (!r && format && !(f = wm_format_by_name(format)))
        r = wm_error(ctx, WM_ERR_UNSUPPORTED, "no format named '%s' (see 'walkmesh formats')", format);
    else if (!r && !format)
        r = wm_format_detect(ctx, &in, &f);
    if (!r && f->validate) {
        if ((r = f->validate(ctx, &in, opts, report)) != WM_OK)
            wm_error_prefix(ctx, in.name);
        /* KotOR areas (the formats with room links): an NWN2 bake's boxed-in islands are mostly the
         * tops of placeables, 20 of the 83 corpus TRX would warn */
        unsigned kotor_area = WM_IS_WALKMESH | WM_CAN_TRANSITIONS;
        if (!r && (f->capabilities & kotor_area) == kotor_area && f->read && !report->errors)
            r = validate_walkable_regions(ctx, &in, f, opts, report);
    } else if (!r) {
        wm_mesh mesh;
        r = wm_mesh_read_input(ctx, &in, f->name, opts, &mesh, NULL, NULL);
        if (!r) {
            if (wm_mesh_validate(ctx, &mesh))
                wm_report_finding(report, WM_SEV_ERROR, "mesh", "%s", ctx->message);
            wm_mesh_free(ctx, &mesh);
        }
    }
    wm_input_free(ctx, &in);
    if (!r && used)
        *used = f;
    return r ? r : report->status;
}
