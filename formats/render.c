/* The render entry (wm_picture.h): picks the file's format, starts the
 * picture (core/picture.h), lets the format's `picture` hook draw the file's
 * own facts (the neutral mesh when it has none) and writes the SVG. It sits
 * beside the registry because it chooses among the formats; it knows none
 * of them. */
#include "picture.h"

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
        if (strcmp(name, "view") == 0 || strcmp(name, "select") == 0 || declares(format, name))
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

static wm_result draw_neutral(wm_ctx *ctx, const char *path, const wm_format *format, const wm_options *opts,
                              wm_picture *plot)
{
    if (!path)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "the %s format is drawn from a file, not from memory", format->name);
    wm_mesh mesh;
    wm_result r = format->read(ctx, path, opts, &mesh);
    if (r) {
        wm_error_prefix(ctx, path);
        return r;
    }
    r = wm_picture_mesh(plot, &mesh);
    wm_mesh_free(ctx, &mesh);
    return r;
}

/* data/size: the file image; path: its name on disk (NULL from memory). */
static wm_result render_image(wm_ctx *ctx, const uint8_t *data, size_t size, const char *path, const char *name,
                              const wm_format *format, const wm_options *opts, wm_buffer *svg)
{
    wm_result r = WM_OK;
    if (!format) {
        size_t count;
        const wm_format *const *all = wm_formats(&count);
        r = wm_format_probe_memory(ctx, data, size < 4096 ? size : 4096, size, name, all, count, &format);
    }
    if (!r && !format->read && !format->picture)
        r = wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: the %s format cannot be read", name, format->name);
    if (!r)
        r = refuse_foreign_options(ctx, opts, format);
    wm_picture plot;
    if (!r)
        r = wm_picture_start(ctx, opts, name, &plot);
    if (r)
        return r;
    if (format->picture)
        r = format->picture(ctx, data, size, path, opts, &plot);
    else
        r = draw_neutral(ctx, path, format, opts, &plot);
    return wm_picture_finish(&plot, name, r, svg);
}

wm_result wm_render(wm_ctx *ctx, const char *in_path, const wm_format *format, const wm_options *opts, wm_buffer *svg)
{
    wm_result r = format ? WM_OK : wm_format_detect(ctx, in_path, &format);
    uint8_t *data = NULL;
    size_t size = 0;
    if (!r && format->picture) /* read once here; formats drawn from the neutral mesh read it themselves */
        r = wm_file_read(ctx, in_path, &data, &size);
    if (!r)
        r = render_image(ctx, data, size, in_path, in_path, format, opts, svg);
    wm_free(ctx, data);
    return r;
}

wm_result wm_render_memory(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name, const wm_format *format,
                           const wm_options *opts, wm_buffer *svg)
{
    return render_image(ctx, data, size, NULL, name ? name : "walkmesh", format, opts, svg);
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
