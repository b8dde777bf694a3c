/* walkmesh generate: a walkmesh made from render geometry (a KotOR model's render meshes, OBJ,
 * glTF, anything walkmesh reads), written in OUT's format. */
#include "cli.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_GAME,
    OPT_AGENT_HEIGHT,
    OPT_AGENT_RADIUS,
    OPT_MAX_SLOPE,
    OPT_MAX_CLIMB,
    OPT_MIN_AREA,
    OPT_MAX_ERROR,
    OPT_CELL_SIZE,
    OPT_CELL_HEIGHT,
    OPT_KEEP,
    OPT_DETAIL,
    OPT_BLOCKING,
    OPT_PADDING,
    OPT_HOOK1,
    OPT_HOOK2
};

static const cli_option generate_options[] = {
    [OPT_GAME] = {"--game", 0, "NAME", 1, "kotor, nwn or wow: the defaults below (default: by OUT's format)"},
    [OPT_AGENT_HEIGHT] = {"--agent-height", 0, "UNITS", 1, "headroom a walker needs (lower ceilings block)"},
    [OPT_AGENT_RADIUS] = {"--agent-radius", 0, "UNITS", 1, "distance kept from walls and ledges"},
    [OPT_MAX_SLOPE] = {"--max-slope", 0, "DEG", 1, "steepest walkable ground, degrees from horizontal"},
    [OPT_MAX_CLIMB] = {"--max-climb", 0, "UNITS", 1, "highest step between walkable floors"},
    [OPT_MIN_AREA] = {"--min-area", 0, "SQUNITS", 1, "walkable pieces smaller than this are dropped"},
    [OPT_MAX_ERROR] = {"--max-error", 0, "UNITS", 1, "how far outline and heights may stray when simplified"},
    [OPT_CELL_SIZE] = {"--cell-size", 0, "UNITS", 1, "voxel width (finer: closer outline, slower)"},
    [OPT_CELL_HEIGHT] = {"--cell-height", 0, "UNITS", 1, "voxel height"},
    [OPT_KEEP] = {"--keep", 0, "FRACTION", 1,
                  "walkable pieces under this fraction of the largest's area are dropped (0: keep all)"},
    [OPT_DETAIL] = {"--detail", 0, "CELLS", 1, "cells between height samples on uneven floors (1 or more)"},
    [OPT_BLOCKING] = {"--blocking", 0, NULL, 0,
                      "also blocking faces where the floor beside the walkable ground is too steep or too low"},
    [OPT_PADDING] = {"--padding", 0, "UNITS", 1, ".pwk/.dwk: how far the footprint reaches past the model"},
    [OPT_HOOK1] = {"--hook1", 0, "X,Y,Z", 1, ".pwk/.dwk: use hook 1 (default: a step in front, -y)"},
    [OPT_HOOK2] = {"--hook2", 0, "X,Y,Z", 1, ".pwk/.dwk: use hook 2 (default: a step behind, +y)"},
    {NULL, 0, NULL, 0, NULL}};

static const cli_spec generate_spec = {
    .name = "generate",
    .features = CLI_WRITES | CLI_RESULTS | CLI_MESH,
    .usage = "Usage: walkmesh generate IN OUT [--game kotor|nwn|wow] [options]\n\n"
             "Makes a walkmesh from render geometry: IN's triangles (a KotOR room model's render\n"
             "meshes, OBJ, glTF, anything walkmesh reads) are voxelised with Recast; ground where an\n"
             "agent of --agent-height stands, on slopes up to --max-slope and steps up to --max-climb,\n"
             "becomes walkable faces, simplified within --max-error, heights on the render floor.\n"
             "OUT is written in its extension's format (.wok, OBJ, glTF ...). A .pwk or .dwk gets the\n"
             "model's footprint instead: its outline seen from above, grown by --padding, blocking.\n",
    .output_help = "OUT\tfile to write (same as the second argument)",
    .footer = "Examples:\n"
              "  walkmesh generate m10aa_01c.mdl m10aa_01c.wok\n"
              "  walkmesh generate courtyard.obj courtyard.wok --max-slope 35 --agent-height 2\n"
              "  walkmesh generate dor_lhr02.mdl dor_lhr02.dwk --padding 0.1\n\n"
              "Exit status: 0 written, 1 usage, 2 input unreadable or nothing walkable in it (or too\n"
              "large for the voxel grid), 3 output not written, 4 an OUT walkmesh cannot write, or\n"
              "Recast not available.\n",
    .options = generate_options,
    .min_inputs = 1,
    .max_inputs = 2,
};

static const cli_float_option float_options[] = {
    {OPT_AGENT_HEIGHT, 0.01f, 1000.0f, offsetof(wm_generate_config, agent_height)},
    {OPT_AGENT_RADIUS, 0.0f, 100.0f, offsetof(wm_generate_config, agent_radius)},
    {OPT_MAX_SLOPE, 0.1f, 89.9f, offsetof(wm_generate_config, max_slope)},
    {OPT_MAX_CLIMB, 0.0f, 100.0f, offsetof(wm_generate_config, max_climb)},
    {OPT_MIN_AREA, 0.0f, 1e6f, offsetof(wm_generate_config, min_area)},
    {OPT_MAX_ERROR, 0.001f, 100.0f, offsetof(wm_generate_config, max_error)},
    {OPT_CELL_SIZE, 0.01f, 100.0f, offsetof(wm_generate_config, cell_size)},
    {OPT_CELL_HEIGHT, 0.005f, 100.0f, offsetof(wm_generate_config, cell_height)},
    {OPT_KEEP, 0.0f, 1.0f, offsetof(wm_generate_config, keep_fraction)},
    {OPT_DETAIL, 1.0f, 1000.0f, offsetof(wm_generate_config, detail)},
};

/* The game whose defaults apply: --game, else the one OUT's format belongs to. */
static const char *game_of(const cli_args *args, const char *out)
{
    const char *game = cli_value(args, OPT_GAME, 0);
    if (game)
        return game;
    const char *dot = strrchr(wm_path_file_name(out), '.');
    if (dot && (strcmp(dot, ".trx") == 0 || strcmp(dot, ".trn") == 0))
        return "nwn";
    if (dot && strcmp(dot, ".wmo") == 0)
        return "wow";
    return "kotor";
}

static int read_config(wm_ctx *ctx, const cli_args *args, const char *out, wm_generate_config *config)
{
    const char *game = game_of(args, out);
    if (wm_generate_config_game(ctx, game, config)) {
        cli_error("--game %s: %s", game, ctx->message);
        return EXIT_USAGE;
    }
    if (cli_parse_float_options(args, float_options, sizeof float_options / sizeof *float_options, config))
        return EXIT_USAGE;
    config->blocking = args->given[OPT_BLOCKING] != 0;
    return EXIT_OK;
}

static void print_summary(const cli_args *args, const wm_generate_stats *s, const char *in, const char *out)
{
    if (args->json) {
        wm_ctx ctx;
        wm_ctx_init(&ctx);
        wm_buffer b;
        wm_buffer_init(&b, &ctx);
        wm_put_text(&b, "{\"input\": ");
        wm_put_json_string(&b, in);
        wm_put_text(&b, ", \"output\": ");
        wm_put_json_string(&b, out);
        wm_put_text(&b, ", \"input_triangles\": %u, \"faces\": %u, \"walkable_area\": %.3f}\n",
                    s->input_triangles, s->faces, (double)s->walkable_area);
        if (!b.status)
            fwrite(b.data, 1, b.size, stdout);
        wm_buffer_free(&b);
    } else if (!args->quiet) {
        fprintf(stderr, "%s: %u faces, %.1f square units walkable, from %u triangles\n", out, s->faces,
                (double)s->walkable_area, s->input_triangles);
    }
}

typedef struct footprint_options {
    float padding, hook[2][3];
    int has_hook[2];
} footprint_options;

static int is_footprint(const char *out)
{
    const char *dot = strrchr(wm_path_file_name(out), '.');
    return dot && (strcmp(dot, ".pwk") == 0 || strcmp(dot, ".dwk") == 0);
}

static int read_footprint(const cli_args *args, footprint_options *f)
{
    memset(f, 0, sizeof *f);
    const char *padding = cli_value(args, OPT_PADDING, 0);
    if (padding && !cli_parse_float("--padding", padding, 0.0f, 100.0f, &f->padding))
        return EXIT_USAGE;
    for (int k = 0; k < 2; k++) {
        const char *text = cli_value(args, k ? OPT_HOOK2 : OPT_HOOK1, 0);
        char end;
        float *h = f->hook[k];
        if (!text)
            continue;
        if (sscanf(text, "%f,%f,%f%c", &h[0], &h[1], &h[2], &end) != 3 || !isfinite(h[0]) || !isfinite(h[1]) ||
            !isfinite(h[2]) || fabsf(h[0]) > WM_COORD_LIMIT || fabsf(h[1]) > WM_COORD_LIMIT ||
            fabsf(h[2]) > WM_COORD_LIMIT) {
            cli_error("--hook%d %s: not X,Y,Z (finite numbers within 1e7)", k + 1, text);
            return EXIT_USAGE;
        }
        f->has_hook[k] = 1;
    }
    return EXIT_OK;
}

/* The walkmesh of the render mesh: a room's floor, or a placeable's or door's footprint. */
static wm_result make_walkmesh(wm_ctx *ctx, const char *out, const wm_mesh *render, const wm_generate_config *config,
                               const footprint_options *f, wm_mesh *walkmesh, wm_generate_stats *stats)
{
    if (!is_footprint(out))
        return wm_generate(ctx, render, config, walkmesh, stats);
    memset(stats, 0, sizeof *stats);
    wm_result r = wm_generate_footprint(ctx, render, f->padding, f->has_hook[0] ? f->hook[0] : NULL,
                                        f->has_hook[1] ? f->hook[1] : NULL, walkmesh);
    if (!r)
        stats->input_triangles = render->triangle_count, stats->faces = walkmesh->triangle_count;
    return r;
}

/* A room model gives its render meshes unless --geometry says otherwise. */
static int read_render_geometry(wm_ctx *ctx, cli_args *args)
{
    if (wm_option_get(&args->mesh.opts, "geometry"))
        return EXIT_OK;
    return wm_option_set(ctx, &args->mesh.opts, "geometry", "render") ? cli_fail(ctx, WM_ERR_OPTION, 0) : EXIT_OK;
}

static int run(cli_args *args, wm_ctx *ctx)
{
    wm_generate_config config;
    footprint_options footprint;
    const char *in = args->inputs[0], *out = cli_output_of(args);
    int code = out ? read_config(ctx, args, out, &config) : EXIT_USAGE;
    const wm_format *format = NULL;
    if (!code)
        code = read_footprint(args, &footprint);
    if (!code)
        code = cli_mesh_options_apply(&args->mesh, ctx);
    if (!code)
        code = read_render_geometry(ctx, args);
    if (!code)
        code = cli_check_inputs(&in, 1);
    if (!code && wm_format_by_extension(ctx, out, 1, &format))
        code = cli_fail(ctx, WM_ERR_UNSUPPORTED, 1);
    if (!code)
        code = cli_check_output(out, args->force);
    if (code)
        return code;
    wm_mesh render, walkmesh;
    wm_generate_stats stats;
    wm_result r = cli_load_mesh(ctx, &args->mesh, in, &render, NULL, NULL);
    if (r)
        return cli_fail(ctx, r, 0);
    r = make_walkmesh(ctx, out, &render, &config, &footprint, &walkmesh, &stats);
    wm_mesh_free(ctx, &render);
    if (r) {
        wm_error_prefix(ctx, in);
        return cli_fail(ctx, r, 0);
    }
    r = wm_mesh_save(ctx, &walkmesh, out, format->name, &args->mesh.opts, args->force);
    wm_mesh_free(ctx, &walkmesh);
    if (r)
        return cli_fail(ctx, r, 1);
    print_summary(args, &stats, in, out);
    return EXIT_OK;
}

int cmd_generate(int argc, char **argv) { return cli_run(&generate_spec, argc, argv, run); }
