/* The render entry (wm_picture.h): picks the file's format, starts the
 * picture (core/picture.h), lets the format's `picture` hook draw the file's
 * own facts (the neutral mesh when it has none) and writes the SVG. It sits
 * beside the registry because it chooses among the formats; it knows none
 * of them. */
#include "picture.h"
#include "render_route.h"

#include <string.h>

static int declares(const wm_format *format, const char *name)
{
    for (const wm_option_desc *d = format->options; d && d->name; d++)
        if (strcmp(d->name, name) == 0)
            return 1;
    return 0;
}

/* An option only another format takes is refused, so a picture never
 * silently lacks what was asked for. */
static wm_result refuse_foreign_options(wm_ctx *ctx, const wm_options *opts, const wm_format *format)
{
    for (unsigned i = 0; opts && i < opts->count; i++) {
        const char *name = opts->names[i];
        if (strcmp(name, "view") == 0 || strcmp(name, "select") == 0 || strcmp(name, "path") == 0 ||
            declares(format, name))
            continue;
        size_t count;
        const wm_format *const *all = wm_formats(&count), *owner = NULL;
        for (size_t f = 0; f < count && !owner; f++)
            owner = declares(all[f], name) ? all[f] : NULL;
        return wm_error(ctx, WM_ERR_OPTION, "--%s applies to %s files only (this is %s)", name,
                        owner ? owner->name : "other", format->name);
    }
    return WM_OK;
}

static wm_result draw_neutral(wm_ctx *ctx, const wm_input *in, const wm_format *format, const wm_options *opts,
                              wm_picture *plot)
{
    wm_mesh mesh;
    wm_result r = format->read(ctx, in, opts, &mesh, NULL);
    if (r)
        return r;
    r = wm_picture_mesh(plot, &mesh);
    wm_mesh_free(ctx, &mesh);
    return r;
}

static wm_result render_input(wm_ctx *ctx, const wm_input *in, const wm_format *format, const wm_options *opts,
                              wm_buffer *svg)
{
    wm_result r = format ? WM_OK : wm_format_detect(ctx, in, &format);
    if (!r && !format->read && !format->picture)
        r = wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: the %s format cannot be read", in->name, format->name);
    if (!r)
        r = refuse_foreign_options(ctx, opts, format);
    wm_picture plot;
    if (!r)
        r = wm_picture_start(ctx, opts, in->name, &plot);
    if (r)
        return r;
    if (format->picture)
        r = format->picture(ctx, in, opts, &plot);
    else
        r = draw_neutral(ctx, in, format, opts, &plot);
    if (!r)
        r = wm_render_route(ctx, in, format, opts, &plot);
    return wm_picture_finish(&plot, in->name, r, svg);
}

wm_result wm_render(wm_ctx *ctx, const char *in_path, const wm_format *format, const wm_options *opts, wm_buffer *svg)
{
    wm_input in;
    wm_result r = wm_input_load(ctx, in_path, &in);
    if (r)
        return r;
    r = render_input(ctx, &in, format, opts, svg);
    wm_input_free(ctx, &in);
    return r;
}

wm_result wm_render_memory(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name, const wm_format *format,
                           const wm_options *opts, wm_buffer *svg)
{
    wm_input in;
    wm_input_borrow(&in, data, size, name ? name : "walkmesh");
    return render_input(ctx, &in, format, opts, svg);
}

wm_result wm_render_file(wm_ctx *ctx, const char *in_path, const wm_format *format, const char *out_path,
                         const wm_options *opts, int overwrite)
{
    wm_buffer svg;
    wm_buffer_init(&svg, ctx);
    wm_result r = wm_render(ctx, in_path, format, opts, &svg);
    if (!r)
        r = wm_file_write_atomic(ctx, out_path, svg.data, svg.size, overwrite);
    wm_buffer_free(&svg);
    return r;
}
