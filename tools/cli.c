#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cli_error(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fputs("walkmesh: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
}

/* A module may meet the same condition twice (a file read once for the
 * mesh and again for its details): each distinct warning prints once. */
static int seen_before(const char *message)
{
    static uint64_t seen[1024];
    static unsigned seen_count;
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)message; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    for (unsigned i = 0; i < seen_count; i++)
        if (seen[i] == h)
            return 1;
    if (seen_count < sizeof seen / sizeof seen[0])
        seen[seen_count++] = h;
    return 0;
}

static void print_warning(void *user, const char *message)
{
    (void)user;
    if (seen_before(message))
        return;
    fprintf(stderr, "walkmesh: warning: %s\n", message);
}

void cli_ctx_init(wm_ctx *ctx, int quiet)
{
    wm_ctx_init(ctx);
    if (!quiet)
        ctx->warn = print_warning;
}

int cli_fail(const wm_ctx *ctx, wm_result result, int is_output)
{
    cli_error("%s", ctx->message[0] ? ctx->message : wm_result_name(result));
    switch (result) {
    case WM_OK: return EXIT_OK;
    case WM_ERR_UNSUPPORTED:
    case WM_ERR_NOT_FORMAT:
    case WM_ERR_AMBIGUOUS: return EXIT_FORMAT;
    case WM_ERR_EXISTS: return EXIT_OUTPUT;
    case WM_ERR_OPTION: return EXIT_USAGE;
    case WM_ERR_INVALID: return is_output ? EXIT_OUTPUT : EXIT_INPUT;
    case WM_ERR_IO:
    case WM_ERR_NOMEM: return is_output ? EXIT_OUTPUT : EXIT_INPUT;
    default: return EXIT_INPUT;
    }
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

void cli_mesh_options_init(cli_mesh_options *o)
{
    memset(o, 0, sizeof *o);
    wm_options_init(&o->opts);
}

static int need_value(int argc, char **argv, int i)
{
    if (i + 1 >= argc) {
        cli_error("%s needs a value (see --help)", argv[i]);
        return 0;
    }
    return 1;
}

static int parse_float(const char *option, const char *text, float min, float max, float *out)
{
    char *end;
    double v = strtod(text, &end);
    if (*text == '\0' || *end != '\0' || !(v >= min && v <= max)) {
        cli_error("%s: '%s' is not a number from %g to %g", option, text, (double)min, (double)max);
        return 0;
    }
    *out = (float)v;
    return 1;
}

/* Module options declared by the format descriptors. */
static const wm_option_desc *find_module_option(const char *name)
{
    size_t count;
    const wm_format *const *formats = wm_formats(&count);
    for (size_t f = 0; f < count; f++)
        for (const wm_option_desc *d = formats[f]->options; d && d->name; d++)
            if (strcmp(d->name, name) == 0)
                return d;
    return NULL;
}

int cli_parse_mesh_option(cli_mesh_options *o, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    if (strcmp(arg, "--from") == 0 || strcmp(arg, "--to") == 0 || strcmp(arg, "--materials") == 0 ||
        strcmp(arg, "--base") == 0) {
        if (!need_value(argc, argv, *i))
            return -1;
        const char *value = argv[++*i];
        if (arg[2] == 'f')
            o->from = value;
        else if (arg[2] == 't')
            o->to = value;
        else if (arg[2] == 'm')
            o->materials = value;
        else
            o->opts.base_path = value;
        return 1;
    }
    if (strcmp(arg, "--force") == 0 || strcmp(arg, "-f") == 0) {
        o->force = 1;
        return 1;
    }
    if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0) {
        o->quiet = 1;
        return 1;
    }
    if (strcmp(arg, "--up") == 0) {
        if (!need_value(argc, argv, *i))
            return -1;
        const char *v = argv[++*i];
        if (strcmp(v, "y") == 0 || strcmp(v, "Y") == 0)
            o->opts.up = WM_UP_Y;
        else if (strcmp(v, "z") == 0 || strcmp(v, "Z") == 0)
            o->opts.up = WM_UP_Z;
        else {
            cli_error("--up takes y or z, not '%s'", v);
            return -1;
        }
        return 1;
    }
    if (strcmp(arg, "--walkable-slope") == 0) {
        if (!need_value(argc, argv, *i) || !parse_float(arg, argv[*i + 1], 0.0f, 90.0f, &o->opts.walkable_slope))
            return -1;
        ++*i;
        return 1;
    }
    if (strcmp(arg, "--weld") == 0) {
        if (!need_value(argc, argv, *i) || !parse_float(arg, argv[*i + 1], 0.0f, 1000.0f, &o->opts.weld_tolerance))
            return -1;
        ++*i;
        return 1;
    }
    if (strncmp(arg, "--", 2) == 0) {
        const wm_option_desc *d = find_module_option(arg + 2);
        if (!d)
            return 0;
        const char *value = "1";
        if (d->arg) {
            if (!need_value(argc, argv, *i))
                return -1;
            value = argv[++*i];
        }
        wm_ctx scratch;
        wm_ctx_init(&scratch);
        if (wm_option_set(&scratch, &o->opts, d->name, value)) {
            cli_error("%s", scratch.message);
            return -1;
        }
        return 1;
    }
    return 0;
}

int cli_mesh_options_apply(cli_mesh_options *o, wm_ctx *ctx)
{
    if (!o->materials)
        return EXIT_OK;
    wm_result r = wm_surface_table_load(ctx, o->materials, &o->table);
    if (r)
        return cli_fail(ctx, r, 0);
    o->table_loaded = 1;
    ctx->surfaces = &o->table;
    return EXIT_OK;
}

void cli_mesh_options_free(cli_mesh_options *o, wm_ctx *ctx)
{
    if (o->table_loaded) {
        if (ctx->surfaces == &o->table)
            ctx->surfaces = NULL;
        wm_surface_table_free(ctx, &o->table);
        o->table_loaded = 0;
    }
}

void cli_print_mesh_options_help(void)
{
    printf("Common options:\n"
           "  --from FORMAT          read the input as FORMAT (a name from 'walkmesh formats')\n"
           "  --to FORMAT|EXT        write as FORMAT, or with that extension in batch mode\n"
           "  --materials FILE       surface table overriding the built-in one (see README: Materials)\n"
           "  --up y|z               up axis of OBJ, PLY, STL... read and written (default y; glTF is\n"
           "                         always y, FBX says its own)\n"
           "  --walkable-slope DEG   triangles without a known material are walkable when at most DEG\n"
           "                         degrees from horizontal, else surface 'nonwalk' (default 45)\n"
           "  --weld TOL             weld tolerance for formats that weld (default 1e-4)\n"
           "  --base FILE            existing game file whose other content the output keeps\n"
           "  -f, --force            overwrite existing output files\n"
           "  -q, --quiet            no warnings\n");
    size_t count;
    const wm_format *const *formats = wm_formats(&count);
    for (size_t f = 0; f < count; f++) {
        const wm_option_desc *d = formats[f]->options;
        if (!d || !d->name)
            continue;
        printf("Options of the %s module:\n", formats[f]->name);
        for (; d->name; d++) {
            char left[64];
            snprintf(left, sizeof left, "--%s%s%s", d->name, d->arg ? " " : "", d->arg ? d->arg : "");
            printf("  %-22s %s\n", left, d->help);
        }
    }
}

int cli_parse_file_command(int argc, char **argv, void (*help)(void), cli_mesh_options *o, const char **path,
                           int *json)
{
    cli_mesh_options_init(o);
    *path = NULL;
    *json = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            help();
            return EXIT_OK;
        }
        if (strcmp(argv[i], "--json") == 0) {
            *json = 1;
            continue;
        }
        int used = cli_parse_mesh_option(o, argc, argv, &i);
        if (used < 0)
            return EXIT_USAGE;
        if (used)
            continue;
        if ((argv[i][0] == '-' && argv[i][1] != '\0') || *path) {
            cli_error("%s: unexpected argument '%s' (see 'walkmesh %s --help')", argv[0], argv[i], argv[0]);
            return EXIT_USAGE;
        }
        *path = argv[i];
    }
    if (!*path) {
        cli_error("%s: which file? (see 'walkmesh %s --help')", argv[0], argv[0]);
        return EXIT_USAGE;
    }
    return -1;
}

int cli_load_mesh(wm_ctx *ctx, const char *path, const char *forced_format, const wm_options *opts, wm_mesh *out,
                  const wm_format **out_format)
{
    return cli_load_mesh_info(ctx, path, forced_format, opts, out, out_format, NULL);
}

int cli_load_mesh_info(wm_ctx *ctx, const char *path, const char *forced_format, const wm_options *opts,
                       wm_mesh *out, const wm_format **out_format, wm_report *details)
{
    wm_mesh_init(out);
    if (forced_format) {
        const wm_format *format = wm_format_by_name(forced_format);
        if (!format || !format->read) {
            cli_error("--from %s: no such format that reads (see 'walkmesh formats')", forced_format);
            return EXIT_FORMAT;
        }
    } else if (strcmp(path, "-") != 0 && !wm_file_exists(path)) {
        cli_error("%s: no such file", path);
        return EXIT_INPUT;
    }
    wm_result r = wm_info_format(ctx, path, forced_format, opts, out, details, out_format);
    return r ? cli_fail(ctx, r, 0) : EXIT_OK;
}

static int progress_shown;

void cli_progress(unsigned done, unsigned total, const char *label)
{
    if (!isatty(STDERR_FILENO))
        return;
    int width = 30, filled = total ? (int)((double)done / total * width) : width;
    fprintf(stderr, "\r[");
    for (int i = 0; i < width; i++)
        fputc(i < filled ? '#' : '.', stderr);
    fprintf(stderr, "] %u/%u %-40.40s", done, total, label ? label : "");
    fflush(stderr);
    progress_shown = 1;
}

void cli_progress_end(void)
{
    if (progress_shown) {
        fputc('\n', stderr);
        progress_shown = 0;
    }
}
