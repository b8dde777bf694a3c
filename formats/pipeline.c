/* The high-level calls of wm_pipeline.h on the format descriptors. */
#include "wm_pipeline.h"
#include "wm_io.h"

#include <string.h>

static wm_result pick_format(wm_ctx *ctx, const char *name, const char *path, int for_writing,
                             const wm_format **out)
{
    if (name) {
        *out = wm_format_by_name(name);
        if (!*out)
            return wm_error(ctx, WM_ERR_UNSUPPORTED, "no format named '%s' (see 'walkmesh formats')", name);
        if (for_writing ? !(*out)->write : !(*out)->read)
            return wm_error(ctx, WM_ERR_UNSUPPORTED, "the %s format cannot be %s", name,
                            for_writing ? "written" : "read");
        return WM_OK;
    }
    return for_writing ? wm_format_by_extension(ctx, path, 1, out) : wm_format_detect(ctx, path, out);
}

static wm_result refuse_stream(wm_ctx *ctx, const char *path)
{
    return wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: standard input and output are not supported yet", path);
}

static wm_result load_with(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts,
                           wm_mesh *out, wm_report *report, const wm_format **used)
{
    const wm_format *f = NULL;
    wm_mesh_init(out);
    if (strcmp(path, "-") == 0)
        return refuse_stream(ctx, path);
    if (!format && !wm_file_exists(path))
        return wm_error(ctx, WM_ERR_IO, "%s: no such file", path);
    wm_result r = pick_format(ctx, format, path, 0, &f);
    if (r)
        return r;
    wm_options defaults;
    if (!opts) {
        wm_options_init(&defaults);
        opts = &defaults;
    }
    r = report && f->read_info ? f->read_info(ctx, path, opts, out, report) : f->read(ctx, path, opts, out);
    if (!r && (r = wm_mesh_check_finite(ctx, out)) != WM_OK)
        wm_mesh_free(ctx, out);
    if (r) {
        wm_error_prefix(ctx, path);
        return r;
    }
    if (report && !f->read_info && f->info && (r = f->info(ctx, path, opts, report)) != WM_OK)
        wm_mesh_free(ctx, out);
    if (used)
        *used = f;
    return r;
}

wm_result wm_mesh_load(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts, wm_mesh *out)
{
    return load_with(ctx, path, format, opts, out, NULL, NULL);
}

wm_result wm_mesh_load_memory(wm_ctx *ctx, const void *data, size_t size, const char *name, const char *format,
                              const wm_options *opts, wm_mesh *out)
{
    (void)data;
    (void)size;
    (void)format;
    (void)opts;
    wm_mesh_init(out);
    return refuse_stream(ctx, name ? name : "<memory>");
}

wm_result wm_mesh_save(wm_ctx *ctx, const wm_mesh *mesh, const char *path, const char *format,
                       const wm_options *opts, int overwrite)
{
    const wm_format *f = NULL;
    if (strcmp(path, "-") == 0)
        return refuse_stream(ctx, path);
    wm_result r = pick_format(ctx, format, path, 1, &f);
    if (r)
        return r;
    wm_options defaults;
    if (!opts) {
        wm_options_init(&defaults);
        opts = &defaults;
    }
    r = f->write(ctx, mesh, path, opts, overwrite);
    if (r)
        wm_error_prefix(ctx, path);
    return r;
}

wm_result wm_convert(wm_ctx *ctx, const char *in, const char *out, const char *from, const char *to,
                     const wm_options *opts, int overwrite)
{
    const wm_format *target = NULL;
    wm_result r = pick_format(ctx, to, out, 1, &target);
    if (r)
        return r;
    if (!overwrite && wm_file_exists(out))
        return wm_error(ctx, WM_ERR_EXISTS, "%s: exists already (use --force to overwrite)", out);
    wm_options local;
    if (opts)
        local = *opts;
    else
        wm_options_init(&local);
    wm_mesh mesh;
    r = wm_mesh_load(ctx, in, from, &local, &mesh);
    if (r)
        return r;
    local.source_path = in;
    r = target->write(ctx, &mesh, out, &local, overwrite);
    if (r)
        wm_error_prefix(ctx, out);
    wm_mesh_free(ctx, &mesh);
    return r;
}

wm_result wm_info(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts, wm_mesh *mesh_or_NULL,
                  wm_report *report)
{
    wm_mesh local;
    wm_mesh *mesh = mesh_or_NULL ? mesh_or_NULL : &local;
    wm_result r = load_with(ctx, path, format, opts, mesh, report, NULL);
    if (!mesh_or_NULL && !r)
        wm_mesh_free(ctx, &local);
    return r;
}

wm_result wm_validate(wm_ctx *ctx, const char *path, const char *format, const wm_options *opts, wm_report *report)
{
    const wm_format *f = NULL;
    if (strcmp(path, "-") == 0)
        return refuse_stream(ctx, path);
    if (!format && !wm_file_exists(path))
        return wm_error(ctx, WM_ERR_IO, "%s: no such file", path);
    wm_result r = format ? ((f = wm_format_by_name(format)) ? WM_OK
                                                             : wm_error(ctx, WM_ERR_UNSUPPORTED,
                                                                        "no format named '%s'", format))
                         : wm_format_detect(ctx, path, &f);
    if (r)
        return r;
    wm_options defaults;
    if (!opts) {
        wm_options_init(&defaults);
        opts = &defaults;
    }
    if (f->validate) {
        if ((r = f->validate(ctx, path, opts, report)) != WM_OK)
            wm_error_prefix(ctx, path);
    } else {
        wm_mesh mesh;
        r = load_with(ctx, path, f->name, opts, &mesh, NULL, NULL);
        if (!r) {
            if (wm_mesh_validate(ctx, &mesh))
                wm_report_finding(report, WM_SEV_ERROR, "mesh", "%s", ctx->message);
            wm_mesh_free(ctx, &mesh);
        }
    }
    return r ? r : report->status;
}
