/* walkmesh query: spatial queries on a KotOR .wok through its own AABB tree (wm_bwm.h). */
#include "cli.h"
#include "report_print.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_Z };

static const cli_option query_options[] = {
    [OPT_Z] = {"--z", 0, "Z", 1, "height: with several levels, the one nearest to Z (default: the highest)"},
    {NULL, 0, NULL, 0, NULL}};

static const cli_spec query_spec = {
    .name = "query",
    .features = CLI_RESULTS,
    .usage = "Usage: walkmesh query FILE height X Y [--z Z]\n"
             "       walkmesh query FILE raycast OX OY OZ DX DY DZ\n\n"
             "Spatial queries on a KotOR area walkmesh (.wok) through the file's own AABB tree\n"
             "('-' reads it from standard input).\n"
             "  height X Y     height of the walkable surface at (X, Y) and the face there;\n"
             "                 with several levels the highest, or the one nearest to --z Z\n"
             "  raycast ...    nearest face hit by the ray from (OX,OY,OZ) along (DX,DY,DZ),\n"
             "                 walkable or not; prints the face, distance t and hit point\n",
    .footer = "Exit status: 0 found, 1 usage, 2 unreadable or corrupt input, 4 not a BWM walkmesh\n"
              "or not a .wok, 6 nothing there (no walkable face / no hit).\n",
    .options = query_options,
    .min_inputs = 2,
    .max_inputs = 8,
};

static int parse_numbers(const char *const *text, int count, float *out)
{
    for (int i = 0; i < count; i++) {
        char *end;
        errno = 0;
        double v = strtod(text[i], &end);
        if (end == text[i] || *end || errno || !isfinite(v)) {
            cli_error("query: '%s' is not a number", text[i]);
            return 0;
        }
        out[i] = (float)v;
    }
    return 1;
}

/* The query's words after FILE: "height X Y" or "raycast OX OY OZ DX DY DZ". */
static int parse_query(const cli_args *args, int *is_height, float v[7])
{
    const char *what = args->inputs[1];
    *is_height = strcmp(what, "height") == 0;
    if (!*is_height && strcmp(what, "raycast") != 0) {
        cli_error("query: unknown query '%s' (height or raycast)", what);
        return 0;
    }
    int needed = *is_height ? 2 : 6;
    if (args->input_count - 2 != needed) {
        cli_error("query %s: expected %d numbers (see 'walkmesh query --help')", what, needed);
        return 0;
    }
    if (!parse_numbers(args->inputs + 2, needed, v))
        return 0;
    v[6] = HUGE_VALF;
    const char *z = cli_value(args, OPT_Z, 0);
    if (z && (!*is_height || !parse_numbers(&z, 1, &v[6]))) {
        if (!*is_height)
            cli_error("query raycast: --z applies to height only");
        return 0;
    }
    if (!*is_height && v[3] == 0 && v[4] == 0 && v[5] == 0) {
        cli_error("query raycast: the ray direction DX DY DZ is zero");
        return 0;
    }
    return 1;
}

static void print_hit(const cli_args *args, int is_height, const wm_bwm_hit *hit, wm_buffer *out)
{
    if (!args->json) {
        if (!hit->found)
            return; /* said on stderr, with exit status 6 */
        if (is_height)
            wm_put_text(out, "height %.6g face %u material %u\n", hit->point[2], hit->face, hit->material);
        else
            wm_put_text(out, "hit face %u t %.6g point %.6g %.6g %.6g material %u\n", hit->face, hit->t,
                        hit->point[0], hit->point[1], hit->point[2], hit->material);
        return;
    }
    wm_put_text(out, "{\"file\": ");
    wm_put_json_string(out, args->inputs[0]);
    wm_put_text(out, ", \"query\": \"%s\", \"found\": %s", is_height ? "height" : "raycast",
                hit->found ? "true" : "false");
    if (hit->found) {
        wm_put_text(out, ", \"face\": %u, \"material\": %u, ", hit->face, hit->material);
        if (!is_height) {
            wm_put_text(out, "\"t\": ");
            json_float(out, hit->t);
            wm_put_text(out, ", ");
        }
        wm_put_text(out, "\"point\": [");
        for (int k = 0; k < 3; k++) {
            wm_put_text(out, k ? ", " : "");
            json_float(out, hit->point[k]);
        }
        wm_put_text(out, "]");
    }
    wm_put_text(out, "}\n");
}

typedef struct query {
    const cli_args *args;
    int is_height;
    float v[7]; /* the numbers, then --z (infinite: the highest) */
} query;

static int run_query(void *user, int index, wm_ctx *ctx, wm_buffer *out)
{
    (void)index;
    const query *q = user;
    const char *path = q->args->inputs[0];
    uint8_t *data = NULL;
    size_t size = 0;
    wm_bwm_walkmesh *walkmesh = NULL;
    wm_bwm_hit hit = {0};
    wm_result r = cli_read_input(ctx, path, &data, &size);
    if (!r)
        r = wm_bwm_open(ctx, data, size, path, &walkmesh);
    wm_free(ctx, data);
    int opened = r == WM_OK;
    if (opened)
        r = q->is_height ? wm_bwm_height_at(ctx, walkmesh, q->v[0], q->v[1], q->v[6], &hit)
                         : wm_bwm_raycast(ctx, walkmesh, q->v, q->v + 3, &hit);
    wm_bwm_close(ctx, walkmesh);
    if (r && opened)
        wm_error_prefix(ctx, path); /* the query's own errors (no AABB tree) name the file too */
    if (r)
        return cli_exit_code(r, 0);
    print_hit(q->args, q->is_height, &hit, out);
    if (hit.found)
        return EXIT_OK;
    if (q->is_height)
        wm_error(ctx, WM_ERR_INVALID, "query: %s: no walkable face at (%g, %g)", path, q->v[0], q->v[1]);
    else
        wm_error(ctx, WM_ERR_INVALID, "query: %s: the ray hits no face", path);
    return EXIT_NOT_FOUND;
}

int cmd_query(int argc, char **argv)
{
    query q = {0};
    cli_args args;
    int code = cli_parse(&query_spec, argc, argv, &args);
    if (code >= 0)
        return code;
    q.args = &args;
    code = parse_query(&args, &q.is_height, q.v) ? cli_check_game_inputs(&args, 1) : EXIT_USAGE;
    if (!code)
        code = cli_batch_run(&args, 1, args.inputs, run_query, &q);
    cli_args_free(&args, NULL);
    return code;
}
