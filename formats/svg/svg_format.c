/* The "svg" writer: `convert X out.svg` draws the neutral mesh (surfaces,
 * blocking faces faded, transitions with room numbers) through the core
 * picture. Game files are drawn natively by `walkmesh render` (wm_render),
 * through their own module's picture hook. */
#include "wm_picture.h"

static wm_result svg_write(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, const wm_options *opts)
{
    const char *title = opts && opts->source ? opts->source->name : mesh->name[0] ? mesh->name : "walkmesh";
    wm_buffer svg;
    wm_buffer_init(&svg, ctx);
    wm_result r = wm_render_mesh(ctx, mesh, wm_path_file_name(title), opts, &svg);
    if (!r)
        r = wm_sink_write(sink, NULL, svg.data, svg.size);
    wm_buffer_free(&svg);
    return r;
}

static const char *const svg_extensions[] = {"svg", NULL};

/* view and select apply to every picture, so they are declared here, by
 * the writer of pictures; each module declares its own picture options. */
static const wm_option_desc svg_options[] = {
    {"view", "top|front|side|iso", "picture: view (default top; iso = fixed isometric from the south-west)"},
    {"select", "WHAT", "picture: only a KotOR surface (name or id), an NWN2 tile or tile range A-B, a WMO group"},
    {NULL, NULL, NULL}};

const wm_format wm_format_svg = {
    .name = "svg",
    .description = "picture (SVG) of the neutral mesh: surfaces, blocking faces faded, transitions with room "
                   "numbers, grid, scale and legend; write only ('walkmesh render' draws game files natively)",
    .extensions = svg_extensions,
    .write = svg_write,
    .options = svg_options,
};
