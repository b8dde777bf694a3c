/* The render entry: options, the choice of layer by format, and the "svg"
 * format descriptor (`convert X out.svg` draws the neutral mesh). */
#include "svg/svg_plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern const wm_format wm_format_bwm;
extern const wm_format wm_format_bwm_ascii;
extern const wm_format wm_format_nwn2;
extern const wm_format wm_format_wmo;

static int parse_pair(const char **text, float out[2])
{
    for (int k = 0; k < 2; k++) {
        char *end;
        errno = 0;
        double v = strtod(*text, &end);
        if (end == *text || errno || !isfinite(v))
            return 0;
        out[k] = (float)v;
        *text = end;
        if (k == 0) {
            if (**text != ',')
                return 0;
            ++*text;
        }
    }
    return 1;
}

wm_result svg_render_options_parse(wm_ctx *ctx, const wm_options *opts, svg_render_options *out)
{
    static const char *const views[] = {"top", "front", "side", "iso"};
    memset(out, 0, sizeof *out);
    const char *view = wm_option_get(opts, "view");
    if (view) {
        int found = 0;
        for (int v = 0; v < 4; v++)
            if (strcasecmp(view, views[v]) == 0) {
                out->view = (svg_view)v;
                found = 1;
            }
        if (!found)
            return wm_error(ctx, WM_ERR_OPTION, "--view %s: expected top, front, side or iso", view);
    }
    out->select = wm_option_get(opts, "select");
    out->git_path = wm_option_get(opts, "git");
    out->floors = wm_option_flag(opts, "floors");
    out->liquids = wm_option_flag(opts, "liquids");
    const char *path = wm_option_get(opts, "path");
    if (path) {
        const char *p = path;
        int ok = parse_pair(&p, out->path);
        while (ok && (*p == ' ' || *p == ':'))
            p++;
        ok = ok && parse_pair(&p, out->path + 2) && *p == '\0';
        if (!ok)
            return wm_error(ctx, WM_ERR_OPTION, "--path %s: expected X1,Y1 X2,Y2", path);
        out->has_path = 1;
    }
    return WM_OK;
}

/* Options that only one format understands are refused elsewhere, so a
 * picture never silently lacks what was asked for. */
static wm_result refuse_foreign_options(wm_ctx *ctx, const svg_render_options *o, const wm_format *format)
{
    if ((o->has_path || o->git_path) && format != &wm_format_nwn2)
        return wm_error(ctx, WM_ERR_OPTION, "--%s applies to NWN2 TRN/TRX files only (this is %s)",
                        o->has_path ? "path" : "git", format->name);
    if ((o->floors || o->liquids) && format != &wm_format_wmo)
        return wm_error(ctx, WM_ERR_OPTION, "--%s applies to WMO files only (this is %s)",
                        o->floors ? "floors" : "liquids", format->name);
    return WM_OK;
}

wm_result svg_render_file(wm_ctx *ctx, const char *in_path, const wm_format *format, const char *out_path,
                          const wm_options *opts, int overwrite)
{
    svg_render_options o;
    wm_result r = svg_render_options_parse(ctx, opts, &o);
    if (!r && !format) {
        wm_input in;
        if (!(r = wm_input_load(ctx, in_path, &in)))
            r = wm_format_detect(ctx, &in, &format);
        wm_input_free(ctx, &in);
    }
    if (!r && !format->read)
        r = wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: the %s format cannot be read", in_path, format->name);
    if (!r)
        r = refuse_foreign_options(ctx, &o, format);
    if (r)
        return r;
    int kotor = format == &wm_format_bwm || format == &wm_format_bwm_ascii;
    const char *unit = format == &wm_format_wmo ? "yd" : kotor || format == &wm_format_nwn2 ? "m" : "units";
    svg_plot plot;
    r = svg_plot_init(&plot, ctx, o.view, in_path, unit);
    if (!r && kotor)
        r = svg_layer_bwm(&plot, in_path, format == &wm_format_bwm_ascii, &o, opts);
    else if (!r && format == &wm_format_nwn2)
        r = svg_layer_nwn2(&plot, in_path, &o);
    else if (!r && format == &wm_format_wmo)
        r = svg_layer_wmo(&plot, in_path, &o, opts);
    else if (!r) {
        wm_mesh mesh;
        r = wm_mesh_load(ctx, in_path, format->name, opts, &mesh);
        if (!r) {
            r = svg_layer_mesh(&plot, &mesh, &o);
            wm_mesh_free(ctx, &mesh);
        }
    }
    if (!r && plot.face_count == 0)
        r = wm_error(ctx, WM_ERR_INVALID, "%s: nothing to draw%s", in_path, o.select ? " in the selection" : "");
    if (!r)
        r = svg_plot_write(&plot, out_path, overwrite);
    svg_plot_free(&plot);
    return r;
}

static wm_result svg_write(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, const wm_options *opts)
{
    const char *path = wm_sink_path(sink);
    svg_render_options o;
    wm_result r = wm_mesh_validate(ctx, mesh);
    if (!r)
        r = svg_render_options_parse(ctx, opts, &o);
    if (r)
        return r;
    if (mesh->triangle_count == 0)
        return wm_error(ctx, WM_ERR_INVALID, "%s: nothing to draw: the mesh has no triangles", path);
    if (o.has_path || o.git_path || o.floors)
        return wm_error(ctx, WM_ERR_OPTION, "%s: --path, --git and --floors need the game file: use 'walkmesh render'",
                        path);
    svg_plot plot;
    const char *title = opts && opts->source ? opts->source->name : mesh->name[0] ? mesh->name : "walkmesh";
    r = svg_plot_init(&plot, ctx, o.view, title, "units");
    if (!r)
        r = svg_layer_mesh(&plot, mesh, &o);
    if (!r)
        r = svg_plot_write_sink(&plot, sink);
    svg_plot_free(&plot);
    return r;
}

static const char *const svg_extensions[] = {"svg", NULL};

static const wm_option_desc svg_options[] = {
    {"view", "top|front|side|iso", "picture: view (default top; iso = fixed isometric from the south-west)"},
    {"select", "WHAT", "picture: only a KotOR surface (name or id), an NWN2 tile or tile range A-B, a WMO group"},
    {"path", "X1,Y1 X2,Y2", "render, NWN2: the route the file's path tables give between two points"},
    {"git", "AREA.git", "render, NWN2: draw the walkmesh cutters of the area's GIT"},
    {"floors", NULL, "render, WMO: only upward-facing (walkable by slope) collision"},
    {NULL, NULL, NULL}};

const wm_format wm_format_svg = {
    .name = "svg",
    .description = "picture (SVG) of the neutral mesh: surfaces, blocking faces faded, transitions with room "
                   "numbers, grid, scale and legend; write only ('walkmesh render' draws game files natively)",
    .extensions = svg_extensions,
    .capabilities = WM_CAN_TRANSITIONS, /* drawn, with their room numbers */
    .write = svg_write,
    .options = svg_options,
};
