/* walkmesh bake: rebuild a TRX's tiles, path tables and islands (wm_nwn2_bake), one file or a
 * batch on every core. */
#include "cli.h"
#include "report_print.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_GIT, OPT_CUT_WHOLE, OPT_KEEP_BORDERS, OPT_KEEP_BORDER, OPT_THREADS };

static const cli_option bake_options[] = {
    [OPT_GIT] = {"--git", 0, "AREA.git", 1,
                 "cut the walkmesh with the area's walkmesh cutters (triggers of Type 3): triangles are split "
                 "along each polygon's edges and the pieces inside removed"},
    [OPT_CUT_WHOLE] = {"--cut-whole", 0, NULL, 0,
                       "with --git: remove the triangles whose centre lies inside a cutter instead of cutting "
                       "them (adds no triangles); without it, where cutting leaves a tile with more than 127 "
                       "walkable triangles, the cutters reaching that tile do this (a warning names the tile)"},
    [OPT_KEEP_BORDERS] = {"--keep-borders", 0, NULL, 0,
                          "keep the triangles of the border tiles (exteriors: 8 tiles on each side)"},
    [OPT_KEEP_BORDER] = {"--keep-border", 0, NULL, 0, "same as --keep-borders (convert's spelling)"},
    [OPT_THREADS] = {"--threads", 0, "N", 1, "same as --jobs N"},
    {NULL, 0, NULL, 0, NULL}};

static const cli_spec bake_spec = {
    .name = "bake",
    .features = CLI_WRITES | CLI_RESULTS | CLI_JOBS | CLI_MANY,
    .usage = "Usage: walkmesh bake IN.trn|IN.trx -o OUT.trx [options]\n"
             "       walkmesh bake IN... -o DIR [options]\n\n"
             "Bakes an NWN2 walkmesh the way the toolset does. A baked TRX keeps the toolset's\n"
             "geometry, triangle order, tiles and links; only the tables are recomputed. A TRN (or\n"
             "--git) is rebuilt first: map-border tiles dropped, vertices within 1 mm of a tile line\n"
             "snapped onto it, triangles crossing a line by 10 cm or more split along it, triangles\n"
             "turned clockwise and grouped by tile, edges and neighbours rebuilt. Then every tile's\n"
             "path table (Dijkstra over the tile's walkable triangles, 2-D centre distances),\n"
             "line-of-sight bits where they are provable, the islands and the island path table.\n"
             "Every packet other than the walkmesh is copied unchanged. The output is byte-identical\n"
             "run to run, whatever the thread count, and the same in a batch as alone.\n\n"
             "With several inputs (or -o naming a folder) every IN becomes DIR/<name>.trx, the files\n"
             "baked side by side on --jobs threads. '-' reads standard input / writes standard output.\n",
    .output_help = "OUT.trx|DIR\tfile to write, or the folder of a batch (created when missing)",
    .footer = "A tile's path table addresses at most 127 walkable triangles; a tile with more is an\n"
              "error naming the tile and its square: use fewer walkable triangles there and bake again.\n\n"
              "Exit status: 0 baked, 1 usage, 2 input unreadable or not bakeable (e.g. a tile with\n"
              "more than 127 walkable triangles), 3 output not written (exists without --force).\n",
    .options = bake_options,
    .min_inputs = 1,
};

typedef struct bake_job {
    const cli_args *args;
    const char *dir;       /* batch: the output folder */
    const uint8_t *git;    /* the GIT's bytes, read once for every input */
    size_t git_size;
    unsigned tile_threads; /* threads inside one bake */
} bake_job;

static void show_progress(void *user, const char *stage, uint32_t done, uint32_t total)
{
    (void)user;
    cli_progress(0, done, total, stage);
}

static void put_summary(const bake_job *job, const char *in, const char *out, const wm_nwn2_bake_stats *s,
                        wm_buffer *text)
{
    if (job->args->json) {
        wm_put_text(text, "{\"input\": ");
        wm_put_json_string(text, in);
        wm_put_text(text, ", \"output\": ");
        wm_put_json_string(text, out);
        wm_put_text(text, ", \"triangles\": %u, \"walkable\": %u, \"tiles\": [%u, %u], \"islands\": %u, "
                          "\"max_tile_walkable\": %u, \"kept_layout\": %s, \"border_removed\": %u, "
                          "\"split_added\": %u, \"cut_removed\": %u, \"cutters\": %u, \"whole_cutters\": %u}\n",
                    s->triangles, s->walkable_triangles, s->grid_width, s->grid_height, s->island_count,
                    s->max_tile_nodes, s->kept_layout ? "true" : "false", s->border_removed, s->split_added,
                    s->cut_removed, s->cutter_count, s->whole_cutters);
        return;
    }
    if (job->args->quiet || strcmp(out, "-") == 0)
        return;
    wm_put_text(text, "%s: baked %u triangles (%u walkable) in %u x %u tiles: %u islands, at most %u walkable per "
                      "tile%s\n",
                out, s->triangles, s->walkable_triangles, s->grid_width, s->grid_height, s->island_count,
                s->max_tile_nodes, s->kept_layout ? " (geometry, tiles and links kept from the input)" : "");
    if (s->border_removed || s->cut_removed || s->split_added)
        wm_put_text(text, "%s: %u border triangles dropped, %u triangles added by splits, %u removed by %u cutters "
                          "(%u of them removing whole triangles)\n",
                    out, s->border_removed, s->split_added, s->cut_removed, s->cutter_count, s->whole_cutters);
}

static int bake_one(void *user, int index, wm_ctx *ctx, wm_buffer *text)
{
    const bake_job *job = user;
    const char *in = job->args->inputs[index];
    char *batch_out = job->dir ? cli_batch_path(ctx, job->dir, in, "trx") : NULL;
    const char *out = job->dir ? batch_out : job->args->output;
    if (!out)
        return EXIT_OUTPUT; /* the reason is in ctx */
    int code = cli_unit_check_output(ctx, out, job->args->force);
    uint8_t *data = NULL;
    size_t size = 0;
    wm_result r = code ? WM_OK : cli_read_input(ctx, in, &data, &size);
    wm_nwn2_bake_options opts;
    wm_nwn2_bake_options_init(&opts);
    opts.threads = job->tile_threads;
    opts.git = job->git;
    opts.git_size = job->git_size;
    opts.git_source = cli_value(job->args, OPT_GIT, 0);
    opts.cut_whole_triangles = job->args->given[OPT_CUT_WHOLE];
    opts.keep_borders = job->args->given[OPT_KEEP_BORDERS] || job->args->given[OPT_KEEP_BORDER];
    if (!job->dir && !job->args->quiet)
        opts.progress = show_progress;
    wm_buffer baked;
    wm_buffer_init(&baked, ctx);
    wm_nwn2_bake_stats stats;
    if (!code && !r && (r = wm_nwn2_bake(ctx, data, size, in, &opts, &baked, &stats)) != WM_OK)
        code = cli_exit_code(r, 0);
    else if (!code && r)
        code = cli_exit_code(r, 0);
    cli_progress_end();
    if (!code && (r = cli_write_output(ctx, out, baked.data, baked.size, job->args->force)) != WM_OK)
        code = cli_exit_code(r, 1);
    if (!code)
        put_summary(job, in, out, &stats, text);
    wm_buffer_free(&baked);
    wm_free(ctx, data);
    wm_free(ctx, batch_out);
    return code;
}

/* The GIT is read once, before any input, and shared read-only by every unit. */
static int read_git(const cli_args *args, wm_ctx *ctx, bake_job *job)
{
    const char *git = cli_value(args, OPT_GIT, 0);
    if (!git)
        return EXIT_OK;
    if (cli_check_inputs(&git, 1))
        return EXIT_INPUT;
    uint8_t *data = NULL;
    wm_result r = cli_read_input(ctx, git, &data, &job->git_size);
    job->git = data;
    return r ? cli_fail(ctx, r, 0) : EXIT_OK;
}

int cmd_bake(int argc, char **argv)
{
    cli_args args;
    int code = cli_parse(&bake_spec, argc, argv, &args);
    if (code >= 0)
        return code;
    code = EXIT_OK;
    if (args.given[OPT_THREADS] && !cli_parse_count("--threads", args.values[OPT_THREADS][0], 1, 256, &args.jobs))
        code = EXIT_USAGE;
    else if (!args.output) {
        cli_error("bake: where to? give -o OUT.trx (see 'walkmesh bake --help')");
        code = EXIT_USAGE;
    }
    int batch = args.output && (args.input_count > 1 || cli_is_folder(args.output));
    bake_job job = {&args, batch ? args.output : NULL, NULL, 0, batch ? 1 : cli_jobs(&args)};
    wm_ctx ctx;
    cli_ctx_init(&ctx, args.quiet);
    if (!code)
        code = cli_check_game_inputs(&args, args.input_count);
    if (!code && !batch)
        code = cli_require_extension("bake", args.output, "trx");
    if (!code && batch)
        code = cli_make_folder(args.output);
    if (!code && batch)
        code = cli_refuse_colliding_outputs(args.output, args.inputs, args.input_count, "trx");
    if (!code)
        code = read_git(&args, &ctx, &job);
    if (!code)
        code = cli_batch_run(&args, args.input_count, args.inputs, bake_one, &job);
    wm_free(&ctx, (void *)job.git);
    cli_args_free(&args, &ctx);
    return code;
}
