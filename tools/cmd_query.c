/* walkmesh query: spatial queries on a KotOR .wok through its own AABB tree. */
#include "cli.h"
#include "bwm/bwm.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void query_usage(FILE *out)
{
    fprintf(out,
            "Usage: walkmesh query FILE height X Y [--z Z]\n"
            "       walkmesh query FILE raycast OX OY OZ DX DY DZ\n"
            "\n"
            "Spatial queries on a KotOR area walkmesh (.wok) through the file's own AABB tree.\n"
            "  height X Y     height of the walkable surface at (X, Y) and the face there;\n"
            "                 with several levels the highest, or the one nearest to --z Z\n"
            "  raycast ...    nearest face hit by the ray from (OX,OY,OZ) along (DX,DY,DZ),\n"
            "                 walkable or not; prints the face, distance t and hit point\n"
            "\n"
            "Exit codes: 0 found, 1 usage, 2 unreadable or corrupt input, 4 not a BWM walkmesh\n"
            "or not a .wok, %d nothing there (no walkable face / no hit).\n",
            EXIT_NOT_FOUND);
}

static int parse_number(const char *text, float *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno || !isfinite(v)) {
        cli_error("query: \"%s\" is not a number", text);
        return 0;
    }
    *out = (float)v;
    return 1;
}

static int parse_numbers(char **argv, int count, float *out)
{
    for (int i = 0; i < count; i++)
        if (!parse_number(argv[i], &out[i])) return 0;
    return 1;
}

static int query_result(const wm_ctx *ctx, const char *path, wm_result r)
{
    if (r == WM_ERR_INVALID) {
        fprintf(stderr, "walkmesh: query: %s\n", wm_ctx_message(ctx));
        return EXIT_NOT_FOUND;
    }
    if (r == WM_ERR_UNSUPPORTED) {
        fprintf(stderr, "walkmesh: query: %s: %s\n", path, wm_ctx_message(ctx));
        return EXIT_FORMAT;
    }
    return cli_fail(ctx, r, 0);
}

int cmd_query(int argc, char **argv)
{
    wm_ctx ctx;
    bwm_file file;
    float v[6], z_ref = HUGE_VALF;
    int n_args;

    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) {
            query_usage(stdout);
            return EXIT_OK;
        }
    if (argc < 3) {
        query_usage(stderr);
        return EXIT_USAGE;
    }
    const char *path = argv[1], *what = argv[2];
    if (strcmp(what, "height") == 0)
        n_args = 2;
    else if (strcmp(what, "raycast") == 0)
        n_args = 6;
    else {
        cli_error("query: unknown query \"%s\" (height or raycast)", what);
        return EXIT_USAGE;
    }
    int extra = argc - 3 - n_args;
    if (extra < 0 || !(extra == 0 || (n_args == 2 && extra == 2 && strcmp(argv[3 + n_args], "--z") == 0))) {
        cli_error("query %s: expected %d numbers%s (see walkmesh query --help)", what, n_args,
                  n_args == 2 ? " and optionally --z Z" : "");
        return EXIT_USAGE;
    }
    if (!parse_numbers(&argv[3], n_args, v)) return EXIT_USAGE;
    if (extra && !parse_number(argv[argc - 1], &z_ref)) return EXIT_USAGE;
    if (n_args == 6 && v[3] == 0 && v[4] == 0 && v[5] == 0) {
        cli_error("query raycast: the ray direction DX DY DZ is zero");
        return EXIT_USAGE;
    }

    cli_ctx_init(&ctx, 0);
    wm_result r = bwm_read_file(&ctx, path, &file);
    if (r == WM_ERR_NOT_FORMAT) {
        cli_error("query: %s", wm_ctx_message(&ctx));
        return EXIT_FORMAT;
    }
    if (r) return cli_fail(&ctx, r, 0);
    if (n_args == 2) {
        uint32_t face = 0;
        float z = 0;
        r = bwm_face_at(&ctx, &file, v[0], v[1], z_ref, &face, &z);
        if (!r) printf("height %.6g face %u material %u\n", z, face, file.materials[face]);
    } else {
        uint32_t face = 0;
        float t = 0;
        r = bwm_raycast(&ctx, &file, v, v + 3, &face, &t);
        if (!r)
            printf("hit face %u t %.6g point %.6g %.6g %.6g material %u\n", face, t, v[0] + t * v[3],
                   v[1] + t * v[4], v[2] + t * v[5], file.materials[face]);
    }
    bwm_file_free(&ctx, &file);
    return r ? query_result(&ctx, path, r) : EXIT_OK;
}
