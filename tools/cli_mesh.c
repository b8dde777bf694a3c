/* The reading options of commands that read meshes, and reading a mesh with them. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static int need_value(int argc, char **argv, int i)
{
    if (i + 1 >= argc) {
        cli_error("%s needs a value (see --help)", argv[i]);
        return 0;
    }
    return 1;
}

int cli_parse_float(const char *option, const char *text, float min, float max, float *out)
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

static int parse_up(const char *v, wm_up_axis *out)
{
    if (strcmp(v, "y") == 0 || strcmp(v, "Y") == 0)
        *out = WM_UP_Y;
    else if (strcmp(v, "z") == 0 || strcmp(v, "Z") == 0)
        *out = WM_UP_Z;
    else {
        cli_error("--up takes y or z, not '%s'", v);
        return 0;
    }
    return 1;
}

static int parse_module_option(cli_mesh_options *o, int argc, char **argv, int *i)
{
    const wm_option_desc *d = find_module_option(argv[*i] + 2);
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

/* The reading options (cli_args.c lists them for help and "did you mean"): 1 taken, 0 not
 * one, -1 usage error (reported). */
int cli_parse_mesh_option(cli_mesh_options *o, int argc, char **argv, int *i);
int cli_parse_mesh_option(cli_mesh_options *o, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    if (strncmp(arg, "--", 2) != 0)
        return 0;
    if (strcmp(arg, "--which") == 0) {
        o->which = 1;
        return 1;
    }
    static const char *const valued[] = {"--from", "--materials", "--up", "--walkable-slope", "--weld", "--game",
                                         "--module"};
    for (int k = 0; k < 7; k++) {
        if (strcmp(arg, valued[k]) != 0)
            continue;
        if (!need_value(argc, argv, *i))
            return -1;
        const char *v = argv[++*i];
        switch (k) {
        case 0: o->from = v; return 1;
        case 1: o->materials = v; return 1;
        case 2: return parse_up(v, &o->opts.up) ? 1 : -1;
        case 3: return cli_parse_float(arg, v, 0.0f, 90.0f, &o->opts.walkable_slope) ? 1 : -1;
        case 4: return cli_parse_float(arg, v, 0.0f, 1000.0f, &o->opts.weld_tolerance) ? 1 : -1;
        case 5: o->game = v; return 1;
        default: o->module = v; return 1;
        }
    }
    return parse_module_option(o, argc, argv, i);
}

int cli_mesh_options_apply(cli_mesh_options *o, wm_ctx *ctx)
{
    if (!o->materials)
        return EXIT_OK;
    if (!wm_file_exists(o->materials))
        return cli_missing_file(o->materials);
    wm_result r = wm_surface_table_load(ctx, o->materials, &o->table);
    if (r)
        return cli_fail(ctx, r, 0);
    o->table_loaded = 1;
    ctx->surfaces = &o->table;
    return EXIT_OK;
}

wm_result cli_load_mesh(wm_ctx *ctx, const cli_mesh_options *o, const char *path, wm_mesh *out,
                        const wm_format **out_format, wm_report *details)
{
    /* the library takes "-" (standard input) and says when a file is missing */
    return wm_info_format(ctx, path, o->from, &o->opts, out, details, out_format);
}
