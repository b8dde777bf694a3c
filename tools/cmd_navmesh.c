/* walkmesh navmesh: a Recast/Detour navmesh of any collision mesh walkmesh reads. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_spec navmesh_spec = {
    .name = "navmesh",
    .features = CLI_WRITES | CLI_RESULTS | CLI_MESH | CLI_NAVMESH,
    .usage = "Usage: walkmesh navmesh IN OUT [--preset recast|trinitycore] [options]\n\n"
             "Builds a Recast/Detour navmesh of IN's triangles (a WMO and its groups, an assembled\n"
             "area, OBJ, glTF, any walkmesh): triangles flat enough are walkable, every triangle\n"
             "blocks. OUT by its extension: .navmesh (Detour's tile data, which Detour loads back and\n"
             "route queries read), or OBJ, glTF, SVG ... of the polygons, one object per area id.\n"
             "Recast and Detour are loaded only for this. Parameters are world units (yards for WoW)\n"
             "unless said otherwise; a preset sets them all, options given after it change one.\n",
    .output_help = "OUT\tfile to write (same as the second argument)",
    .footer = "Examples:\n"
              "  walkmesh navmesh prisonHQ_Redridge.wmo prison.navmesh --preset trinitycore\n"
              "  walkmesh navmesh courtyard.obj courtyard_nav.obj --agent-radius 0.4\n\n"
              "Exit status: 0 built, 1 usage, 2 input unreadable or nothing walkable in it (or too\n"
              "large: the voxel grid's limit is in docs/recast.md), 3 output not written, 4 an OUT\n"
              "walkmesh cannot write, or Recast/Detour not available.\n",
    .min_inputs = 1,
    .max_inputs = 2,
};

/* .navmesh, or an extension a mesh format writes. */
static int check_extension(wm_ctx *ctx, const char *out)
{
    const char *dot = strrchr(wm_path_file_name(out), '.');
    if (dot && strcmp(dot, ".navmesh") == 0)
        return EXIT_OK;
    const wm_format *format = NULL;
    wm_result r = wm_format_by_extension(ctx, out, 1, &format);
    return r ? cli_fail(ctx, r, 1) : EXIT_OK;
}

static void print_summary(wm_ctx *ctx, const cli_args *args, const wm_navmesh *n, const char *in, const char *out)
{
    if (args->json) {
        wm_buffer b;
        wm_buffer_init(&b, ctx);
        wm_put_text(&b, "{\"input\": ");
        wm_put_json_string(&b, in);
        wm_put_text(&b, ", \"output\": ");
        wm_put_json_string(&b, out);
        wm_put_text(&b, ", \"tiles\": %u, \"polygons\": %u, \"tile_size\": %g}\n", n->tile_count, n->poly_count,
                    (double)n->tile_width);
        if (!b.status)
            fwrite(b.data, 1, b.size, stdout);
        wm_buffer_free(&b);
    } else if (!args->quiet) {
        fprintf(stderr, "%s: %u polygons in %u tiles of %g units\n", out, n->poly_count, n->tile_count,
                (double)n->tile_width);
    }
}

static int run(cli_args *args, wm_ctx *ctx)
{
    wm_navmesh_config config;
    const char *in = args->inputs[0], *out = cli_output_of(args);
    int code = out ? cli_navmesh_config(args, &config) : EXIT_USAGE;
    if (!code)
        code = cli_mesh_options_apply(&args->mesh, ctx);
    if (!code)
        code = cli_check_inputs(&in, 1);
    if (!code)
        code = check_extension(ctx, out);
    if (!code)
        code = cli_check_output(out, args->force);
    if (code)
        return code;
    wm_mesh mesh;
    wm_result r = cli_load_mesh(ctx, &args->mesh, in, &mesh, NULL, NULL);
    if (r)
        return cli_fail(ctx, r, 0);
    wm_navmesh navmesh;
    r = wm_navmesh_build(ctx, &mesh, &config, &navmesh);
    wm_mesh_free(ctx, &mesh);
    if (r) {
        wm_error_prefix(ctx, in);
        code = cli_fail(ctx, r, 0);
    } else if ((r = wm_navmesh_save(ctx, &navmesh, out, args->force)) != WM_OK) {
        code = cli_fail(ctx, r, 1);
    } else {
        print_summary(ctx, args, &navmesh, in, out);
    }
    wm_navmesh_free(ctx, &navmesh);
    return code;
}

int cmd_navmesh(int argc, char **argv) { return cli_run(&navmesh_spec, argc, argv, run); }
