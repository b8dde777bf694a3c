/* walkmesh render: one SVG picture of a walkmesh, drawn from its own format. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_PATH };

static const cli_option render_options[] = {
    [OPT_PATH] = {"--path", 0, "X1,Y1 X2,Y2", 2,
                  "the shortest route from (X1,Y1) to (X2,Y2) over the walkable faces (any walkmesh; "
                  "see 'walkmesh path'); NWN2: also the route the file's tables give"},
    {NULL, 0, NULL, 0, NULL}};

static const cli_spec render_spec = {
    .name = "render",
    .features = CLI_WRITES | CLI_MESH | CLI_JOBS | CLI_MANY,
    .usage = "Usage: walkmesh render FILE -o OUT.svg [--view top|front|side|iso] [--select WHAT]\n"
             "                      [--path X1,Y1 X2,Y2] [--git AREA.git] [--floors] [--liquids] [options]\n"
             "       walkmesh render FILE... -o DIR [options]\n\n"
             "Draws FILE as an SVG picture from the format's own data: the file name as title, a\n"
             "coordinate grid labelled in game units, a scale bar, axis arrows (+Y is north) and a\n"
             "legend listing only what is drawn. Per format:\n"
             "  KotOR .wok/.pwk/.dwk (binary or ASCII): surfaces, walkable faces shaded by height,\n"
             "    perimeter loops, transition edges labelled with their room, use hooks (PWK/DWK);\n"
             "  NWN2 .trn/.trx: islands in distinct colours with centres and links, the tile grid\n"
             "    with tile numbers, the tables' route (--path), walkmesh cutters (--git);\n"
             "  WoW .wmo (root or group): collision, one colour per group, floors solid and walls\n"
             "    pale, liquids (--liquids);\n"
             "  anything else readable: the neutral mesh by surface.\n"
             "With --path, every walkmesh also gets the shortest route between the two points.\n"
             "The picture options (--view, --select, --git, --floors, --liquids) are listed with the\n"
             "svg module's below. With several files (or -o naming a folder) each FILE becomes\n"
             "DIR/<name>.svg. OUT must end in .svg: walkmesh writes no other picture format.\n",
    .output_help = "OUT.svg|DIR\tpicture to write (refused when it exists, unless --force), or a folder",
    .footer = "Example:\n"
              "  walkmesh render castle.trx -o castle.svg --path 12.5,-3 40,22\n\n"
              "Exit status: 0 drawn, 1 usage (or an option the file's format does not take), 2 input\n"
              "unreadable, 3 output not written, 4 unsupported format or an OUT that is not .svg.\n",
    .options = render_options,
    .min_inputs = 1,
};

typedef struct render_job {
    const cli_args *args;
    const char *dir;         /* several files: the output folder */
    const wm_format *format; /* --from, else NULL: detected */
    wm_options opts;
    char route[256];         /* "X1,Y1 X2,Y2": opts keeps a pointer to it */
} render_job;

static int render_unit(void *user, int index, wm_ctx *ctx, wm_buffer *text)
{
    (void)text;
    const render_job *job = user;
    const char *in = job->args->inputs[index];
    char *batch_out = job->dir ? cli_batch_path(ctx, job->dir, in, "svg") : NULL;
    const char *out = job->dir ? batch_out : job->args->output;
    if (!out)
        return EXIT_OUTPUT; /* the reason is in ctx */
    int code = cli_unit_check_output(ctx, out, job->args->force);
    if (!code) {
        wm_result r = wm_render_file(ctx, in, job->format, out, &job->opts, job->args->force);
        /* an I/O error naming only the output is the output's */
        int is_output = r == WM_ERR_EXISTS || (r == WM_ERR_IO && strstr(ctx->message, out) && !strstr(ctx->message, in));
        code = r ? cli_exit_code(r, is_output) : EXIT_OK;
    }
    wm_free(ctx, batch_out);
    return code;
}

/* --path's two points go to the svg module as one "X1,Y1 X2,Y2" value. */
static int set_route(const cli_args *args, render_job *job)
{
    if (!args->given[OPT_PATH])
        return EXIT_OK;
    snprintf(job->route, sizeof job->route, "%s %s", args->values[OPT_PATH][0], args->values[OPT_PATH][1]);
    wm_ctx scratch;
    wm_ctx_init(&scratch);
    if (wm_option_set(&scratch, &job->opts, "path", job->route)) {
        cli_error("%s", scratch.message);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

static int prepare(cli_args *args, wm_ctx *ctx, render_job *job)
{
    if (!args->output) {
        cli_error("render: where to? give -o OUT.svg (see 'walkmesh render --help')");
        return EXIT_USAGE;
    }
    int batch = args->input_count > 1 || cli_is_folder(args->output);
    int code = set_route(args, job);
    if (!code)
        code = cli_mesh_options_apply(&args->mesh, ctx);
    if (!code)
        code = cli_check_game_inputs(args, args->input_count);
    if (!code && args->mesh.from && !(job->format = wm_format_by_name(args->mesh.from))) {
        cli_error("--from %s: no such format (see 'walkmesh formats')", args->mesh.from);
        code = EXIT_FORMAT;
    }
    if (!code && !batch)
        code = cli_require_extension("render", args->output, "svg");
    if (!code && batch) {
        job->dir = args->output;
        code = cli_make_folder(job->dir);
        if (!code)
            code = cli_refuse_colliding_outputs(job->dir, args->inputs, args->input_count, "svg");
    }
    return code;
}

int cmd_render(int argc, char **argv)
{
    cli_args args;
    int code = cli_parse(&render_spec, argc, argv, &args);
    if (code >= 0)
        return code;
    wm_ctx ctx;
    cli_ctx_init(&ctx, args.quiet);
    render_job job = {&args, NULL, NULL, args.mesh.opts, ""};
    code = prepare(&args, &ctx, &job);
    if (!code)
        code = cli_batch_run(&args, args.input_count, args.inputs, render_unit, &job);
    cli_args_free(&args, &ctx);
    return code;
}
