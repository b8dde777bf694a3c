#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void help(void)
{
    printf("Usage: walkmesh convert IN OUT [options]\n"
           "       walkmesh convert IN... -o DIR --to FORMAT|EXT [options]\n\n"
           "Converts IN to OUT through the neutral walkmesh model. Formats come from the extensions\n"
           "(or from the content when the extension is unknown or shared); --from and --to name them.\n"
           "With -o DIR every IN becomes DIR/<name>.<ext>, with a progress line per file.\n"
           "Outputs are written to a temporary file and renamed into place; an existing output is\n"
           "only replaced with --force.\n\n"
           "Examples:\n"
           "  walkmesh convert courtyard.obj courtyard.wok\n"
           "  walkmesh convert m01aa.wok m01aa.obj --up z\n"
           "  walkmesh convert a.wok b.wok c.wok -o out --to obj\n\n"
           "  -o, --output-dir DIR   batch mode: write every input into DIR\n");
    cli_print_mesh_options_help();
}

/* Output format and extension from --to (a format name or an extension) or from the output path. */
static int output_format(wm_ctx *ctx, const char *to, const char *out_path, const wm_format **format,
                         const char **ext)
{
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

/* The steps of wm_convert, so a failure is known to be the input's or the output's. */
static int convert_one(wm_ctx *ctx, cli_mesh_options *o, const char *in, const char *out, const wm_format *out_format)
{
    if (!o->force && strcmp(out, "-") != 0 && wm_file_exists(out)) { /* before reading anything */
        cli_error("%s: exists already (use --force to overwrite)", out);
        return EXIT_OUTPUT;
    }
    wm_input source;
    wm_mesh mesh;
    const wm_format *source_format = NULL;
    wm_result r = wm_input_load(ctx, in, &source);
    if (!r && (r = wm_mesh_read_input(ctx, &source, o->from, &o->opts, &mesh, NULL, &source_format)))
        wm_input_free(ctx, &source);
    if (r)
        return cli_fail(ctx, r, 0);
    if (source_format != out_format) /* only a writer of the source's own format reads its bytes */
        wm_input_drop_bytes(ctx, &source);
    wm_options opts = o->opts;
    opts.source = &source;
    opts.source_format = source_format;
    r = wm_mesh_save(ctx, &mesh, out, out_format->name, &opts, o->force);
    wm_mesh_free(ctx, &mesh);
    wm_input_free(ctx, &source);
    return r ? cli_fail(ctx, r, 1) : EXIT_OK;
}

static char *batch_output_path(const char *dir, const char *in, const char *ext)
{
    const char *name = wm_path_file_name(in);
    const char *dot = strrchr(name, '.');
    size_t stem = dot && dot != name ? (size_t)(dot - name) : strlen(name);
    size_t size = strlen(dir) + stem + strlen(ext) + 3;
    char *path = malloc(size);
    if (path)
        snprintf(path, size, "%s/%.*s.%s", dir, (int)stem, name, ext);
    return path;
}

/* Two inputs with the same stem map to one DIR/<name>.<ext>; the second
 * would replace the first's output. Returns EXIT_OK or EXIT_OUTPUT. */
static int refuse_colliding_outputs(const char *dir, const char **inputs, int count, const char *ext)
{
    char **outs = calloc((size_t)count, sizeof *outs);
    int code = outs ? EXIT_OK : EXIT_OUTPUT;
    for (int i = 0; !code && i < count; i++)
        if (!(outs[i] = batch_output_path(dir, inputs[i], ext)))
            code = EXIT_OUTPUT;
    for (int i = 0; !code && i < count; i++)
        for (int j = 0; !code && j < i; j++)
            if (strcmp(outs[i], outs[j]) == 0) {
                cli_error("%s: both %s and %s would be written there; convert them separately", outs[i],
                          inputs[j], inputs[i]);
                code = EXIT_OUTPUT;
            }
    for (int i = 0; outs && i < count; i++)
        free(outs[i]);
    free(outs);
    return code;
}

int cmd_convert(int argc, char **argv)
{
    cli_mesh_options o;
    cli_mesh_options_init(&o);
    const char *out_dir = NULL;
    const char **positional = calloc((size_t)argc, sizeof *positional);
    int count = 0, code = EXIT_OK;
    if (!positional)
        return EXIT_INPUT;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            help();
            free(positional);
            return EXIT_OK;
        }
        if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output-dir") == 0) {
            if (i + 1 >= argc) {
                cli_error("%s needs a folder", argv[i]);
                free(positional);
                return EXIT_USAGE;
            }
            out_dir = argv[++i];
            continue;
        }
        int used = cli_parse_mesh_option(&o, argc, argv, &i);
        if (used < 0) {
            free(positional);
            return EXIT_USAGE;
        }
        if (used)
            continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            cli_error("convert: unknown option '%s' (see 'walkmesh convert --help')", argv[i]);
            free(positional);
            return EXIT_USAGE;
        }
        positional[count++] = argv[i];
    }
    if ((!out_dir && count != 2) || (out_dir && (count < 1 || !o.to))) {
        cli_error(out_dir ? "convert: batch mode needs inputs and --to FORMAT|EXT (see 'walkmesh convert --help')"
                          : "convert: needs IN and OUT (see 'walkmesh convert --help')");
        free(positional);
        return EXIT_USAGE;
    }
    wm_ctx ctx;
    cli_ctx_init(&ctx, o.quiet);
    code = cli_mesh_options_apply(&o, &ctx);
    const wm_format *out_format = NULL;
    const char *ext = NULL;
    for (int i = 0; !code && i < (out_dir ? count : 1); i++)
        if (strcmp(positional[i], "-") != 0 && !wm_file_exists(positional[i])) {
            cli_error("%s: no such file", positional[i]);
            code = EXIT_INPUT;
        }
    if (!code && o.opts.base_path && !wm_file_exists(o.opts.base_path)) { /* an input too */
        cli_error("--base %s: no such file", o.opts.base_path);
        code = EXIT_INPUT;
    }
    if (!code)
        code = output_format(&ctx, o.to, out_dir ? NULL : positional[1], &out_format, &ext);
    if (!code && !out_dir) {
        code = convert_one(&ctx, &o, positional[0], positional[1], out_format);
    } else if (!code) {
        if (access(out_dir, W_OK) != 0) {
            cli_error("%s: output folder does not exist or is not writable", out_dir);
            cli_mesh_options_free(&o, &ctx);
            free(positional);
            return EXIT_OUTPUT;
        }
        code = refuse_colliding_outputs(out_dir, positional, count, ext);
        if (code) {
            cli_mesh_options_free(&o, &ctx);
            free(positional);
            return code;
        }
        /* A failing input does not stop the batch: the worst exit code wins. */
        int failed = 0, interactive = isatty(STDERR_FILENO);
        for (int i = 0; i < count; i++) {
            char *out = batch_output_path(out_dir, positional[i], ext);
            if (!out) {
                code = EXIT_OUTPUT;
                failed = count - i;
                break;
            }
            if (interactive)
                cli_progress((unsigned)i, (unsigned)count, positional[i]);
            else
                fprintf(stderr, "[%d/%d] %s -> %s\n", i + 1, count, positional[i], out);
            int one = convert_one(&ctx, &o, positional[i], out, out_format);
            if (one) {
                cli_progress_end();
                failed++;
                if (!code || one > code)
                    code = one;
            }
            free(out);
        }
        if (interactive)
            cli_progress((unsigned)count, (unsigned)count, "done");
        cli_progress_end();
        if (count > 1)
            fprintf(stderr, "walkmesh: converted %d of %d files\n", count - failed, count);
    }
    cli_mesh_options_free(&o, &ctx);
    free(positional);
    return code;
}
