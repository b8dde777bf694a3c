/* Starting and finishing a picture (the view option, the "nothing to draw"
 * check, the document), and the neutral mesh's picture (wm_render_mesh).
 * The entry that picks a format and its hook is formats/render.c. */
#include "picture.h"

#include <strings.h>

static wm_result parse_view(wm_ctx *ctx, const wm_options *opts, wm_view *out)
{
    static const char *const views[] = {"top", "front", "side", "iso"};
    const char *view = opts ? wm_option_get(opts, "view") : NULL;
    *out = WM_VIEW_TOP;
    if (!view)
        return WM_OK;
    for (int v = 0; v < 4; v++)
        if (strcasecmp(view, views[v]) == 0) {
            *out = (wm_view)v;
            return WM_OK;
        }
    return wm_error(ctx, WM_ERR_OPTION, "--view %s: expected top, front, side or iso", view);
}

wm_result wm_picture_start(wm_ctx *ctx, const wm_options *opts, const char *title, wm_picture *plot)
{
    wm_view view;
    wm_result r = parse_view(ctx, opts, &view);
    if (!r)
        r = wm_picture_init(plot, ctx, view, title, "units");
    if (!r)
        plot->select = opts ? wm_option_get(opts, "select") : NULL;
    return r;
}

wm_result wm_picture_finish(wm_picture *plot, const char *name, wm_result r, wm_buffer *svg)
{
    if (!r && plot->face_count == 0)
        r = wm_error(plot->ctx, WM_ERR_INVALID, "%s: nothing to draw%s", name, plot->select ? " in the selection" : "");
    if (!r)
        r = wm_picture_write(plot, svg);
    wm_picture_free(plot);
    return r;
}

wm_result wm_render_mesh(wm_ctx *ctx, const wm_mesh *mesh, const char *title, const wm_options *opts, wm_buffer *svg)
{
    wm_result r = wm_mesh_validate(ctx, mesh);
    if (!r && mesh->triangle_count == 0)
        r = wm_error(ctx, WM_ERR_INVALID, "%s: nothing to draw: the mesh has no triangles", title);
    wm_picture plot;
    if (!r)
        r = wm_picture_start(ctx, opts, title, &plot);
    if (r)
        return r;
    return wm_picture_finish(&plot, title, wm_picture_mesh(&plot, mesh), svg);
}
