#include "cli.h"
#include "report_print.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_TO, OPT_BASE, OPT_OUTPUT_DIR };

static const cli_option convert_options[] = {
    [OPT_TO] = {"--to", 0, "FORMAT|EXT", 1, "write as FORMAT, or with that extension in batch mode"},
    [OPT_BASE] = {"--base", 0, "FILE", 1, "existing game file whose other content the output keeps"},
    [OPT_OUTPUT_DIR] = {"--output-dir", 0, "DIR", 1, "same as -o DIR"},
    {NULL, 0, NULL, 0, NULL}};

static const cli_spec convert_spec = {
    .name = "convert",
    .features = CLI_WRITES | CLI_RESULTS | CLI_MESH | CLI_JOBS | CLI_MANY,
    .usage = "Usage: walkmesh convert IN OUT [options]\n"
             "       walkmesh convert IN... -o DIR --to FORMAT|EXT [options]\n\n"
             "Converts IN to OUT through the neutral walkmesh model. Formats come from the extensions\n"
             "(or from the content when the extension is unknown or shared); --from and --to name them.\n"
             "An OUT extension walkmesh cannot write is an error. With -o DIR every IN becomes\n"
             "DIR/<name>.<ext> (DIR created when missing), converted side by side on --jobs threads,\n"
             "with a progress line per file. Outputs are written to a temporary file and renamed into\n"
             "place; an existing output is only replaced with --force. --json prints a summary of each\n"
             "conversion. An archive given with -o DIR (.mod, .erf, .hak, .rim, chitin.key) stands for\n"
             "every walkmesh in it; ARCHIVE/member reads one member.\n",
    .output_help = "DIR\tbatch mode: write every input into DIR",
    .footer = "Examples:\n"
              "  walkmesh convert courtyard.obj courtyard.wok\n"
              "  walkmesh convert m01aa.wok m01aa.obj --up z\n"
              "  walkmesh convert a.wok b.wok c.wok -o out --to obj\n"
              "  walkmesh convert modules/m02aa.mod/m02aa_01a.wok room.obj\n"
              "  walkmesh convert modules/m02aa.mod -o rooms --to obj\n\n"
              "Exit status: 0 converted, 1 usage, 2 input missing or unreadable, 3 output not written\n"
              "(exists without --force), 4 unsupported format or extension.\n",
    .options = convert_options,
    .min_inputs = 1,
};

/* Output format and extension from --to (a format name or an extension) or from the output path. */
static int output_format(wm_ctx *ctx, const char *to, const char *out_path, const wm_format **format,
                         const char **ext)
{
    /* an OUT whose extension no format writes is refused even with --to: never a file in
     * another format than its name says */
    const char *name = out_path ? wm_path_file_name(out_path) : NULL;
    if (to && name && strrchr(name, '.') && wm_format_by_extension(ctx, out_path, 1, format) == WM_ERR_UNSUPPORTED)
        return cli_fail(ctx, WM_ERR_UNSUPPORTED, 1);
    if (to) {
        *format = wm_format_by_name(to);
        if (*format) {
            if (!(*format)->write) {
                cli_error("--to %s: that format cannot be written", to);
                return EXIT_FORMAT;
            }
            *ext = (*format)->extensions && (*format)->extensions[0] ? (*format)->extensions[0] : to;
            return EXIT_OK;
        }
        char probe_name[64];
        snprintf(probe_name, sizeof probe_name, "output.%s", to);
        wm_result r = wm_format_by_extension(ctx, probe_name, 1, format);
        if (r)
            return cli_fail(ctx, r, 1);
        *ext = to;
        return EXIT_OK;
    }
    *ext = NULL;
    wm_result r = wm_format_by_extension(ctx, out_path, 1, format);
    return r ? cli_fail(ctx, r, 1) : EXIT_OK;
}

typedef struct convert_job {
    const cli_args *args;
    const char *dir;            /* batch: the output folder */
    const char *ext;            /* batch: the extension written */
    const wm_format *out_format;
} convert_job;

static void put_summary(wm_buffer *text, const char *in, const char *out, const wm_format *format,
                        const wm_mesh *mesh)
{
    wm_put_text(text, "{\"input\": ");
    wm_put_json_string(text, in);
    wm_put_text(text, ", \"output\": ");
    wm_put_json_string(text, out);
    wm_put_text(text, ", \"format\": \"%s\", \"vertices\": %u, \"triangles\": %u}\n", format->name,
                mesh->vertex_count, mesh->triangle_count);
}

/* The steps of wm_convert, so a failure is known to be the input's or the output's, and the
 * summary has the mesh's counts. */
static int convert_to(const convert_job *job, wm_ctx *ctx, const char *in, const char *out, wm_buffer *text)
{
    int code = cli_unit_check_output(ctx, out, job->args->force); /* before reading anything */
    if (code)
        return code;
    wm_input source;
    wm_mesh mesh;
    const wm_format *source_format = NULL;
    wm_result r = wm_input_load(ctx, in, &source);
    if (!r && (r = wm_mesh_read_input(ctx, &source, job->args->mesh.from, &job->args->mesh.opts, &mesh, NULL,
                                      &source_format)) != WM_OK)
        wm_input_free(ctx, &source);
    if (r)
        return cli_exit_code(r, 0);
    if (mesh.triangle_count == 0) { /* the input's fault, not the output's: exit 2 */
        wm_error(ctx, WM_ERR_INVALID, "%s: no triangles: nothing to write", in);
        wm_mesh_free(ctx, &mesh);
        wm_input_free(ctx, &source);
        return EXIT_INPUT;
    }
    if (source_format != job->out_format) /* only a writer of the source's own format reads its bytes */
        wm_input_drop_bytes(ctx, &source);
    wm_options opts = job->args->mesh.opts; /* a copy per unit: units run side by side */
    opts.source = &source;
    opts.source_format = source_format;
    opts.base_path = cli_value(job->args, OPT_BASE, 0);
    r = wm_mesh_save(ctx, &mesh, out, job->out_format->name, &opts, job->args->force);
    if (!r && job->args->json)
        put_summary(text, in, out, job->out_format, &mesh);
    wm_mesh_free(ctx, &mesh);
    wm_input_free(ctx, &source);
    return r ? cli_exit_code(r, 1) : EXIT_OK;
}

static int convert_unit(void *user, int index, wm_ctx *ctx, wm_buffer *text)
{
    const convert_job *job = user;
    const char *in = job->args->inputs[index];
    if (!job->dir)
        return convert_to(job, ctx, in, job->args->inputs[1], text);
    char *out = cli_batch_path(ctx, job->dir, in, job->ext);
    int code = out ? convert_to(job, ctx, in, out, text) : EXIT_OUTPUT; /* the reason is in ctx */
    wm_free(ctx, out);
    return code;
}

/* The arguments make sense together: IN OUT, or IN... -o DIR --to EXT. */
static int check_grammar(cli_args *args)
{
    const char *dir = args->output ? args->output : cli_value(args, OPT_OUTPUT_DIR, 0);
    args->output = dir;
    if (!dir && args->input_count != 2) {
        cli_error("convert: needs IN and OUT (see 'walkmesh convert --help')");
        return EXIT_USAGE;
    }
    if (dir && !args->mesh.to) {
        cli_error("convert: batch mode needs inputs and --to FORMAT|EXT (see 'walkmesh convert --help')");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cmd_convert(int argc, char **argv)
{
    cli_args args;
    int code = cli_parse(&convert_spec, argc, argv, &args);
    if (code >= 0)
        return code;
    args.mesh.to = cli_value(&args, OPT_TO, 0);
    wm_ctx ctx;
    cli_ctx_init(&ctx, args.quiet);
    convert_job job = {&args, NULL, NULL, NULL};
    code = check_grammar(&args);
    if (!code)
        code = cli_mesh_options_apply(&args.mesh, &ctx);
    int batch = args.output != NULL, count = batch ? args.input_count : 1;
    if (!code)
        code = cli_check_game_inputs(&args, count);
    const char *base = cli_value(&args, OPT_BASE, 0);
    if (!code && base && !wm_input_exists(base)) /* an input too */
        code = cli_missing_file(base);
    if (!code)
        code = output_format(&ctx, args.mesh.to, batch ? NULL : args.inputs[1], &job.out_format, &job.ext);
    if (!code && batch)
        code = cli_expand_archives(&args);
    count = batch ? args.input_count : 1;
    if (!code && batch) {
        job.dir = args.output;
        code = cli_make_folder(job.dir);
        if (!code)
            code = cli_refuse_colliding_outputs(job.dir, args.inputs, count, job.ext);
    }
    if (!code)
        code = cli_batch_run(&args, count, args.inputs, convert_unit, &job);
    cli_args_free(&args, &ctx);
    return code;
}
