/* walkmesh render: one SVG picture of a walkmesh, drawn from its own format. */
#include "cli.h"
#include "walkmesh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void help(void)
{
    printf("Usage: walkmesh render FILE -o OUT.svg [--view top|front|side|iso] [--select WHAT]\n"
           "                      [--path X1,Y1 X2,Y2] [--git AREA.git] [--floors] [--liquids] [options]\n\n"
           "Draws FILE as an SVG picture from the format's own data: the file name as title, a\n"
           "coordinate grid labelled in game units, a scale bar, axis arrows (+Y is north) and a\n"
           "legend listing only what is drawn. Per format:\n"
           "  KotOR .wok/.pwk/.dwk (binary or ASCII): surfaces, walkable faces shaded by height,\n"
           "    perimeter loops, transition edges labelled with their room, use hooks (PWK/DWK);\n"
           "  NWN2 .trn/.trx: islands in distinct colours with centres and links, the tile grid\n"
           "    with tile numbers, a route (--path), walkmesh cutters (--git);\n"
           "  WoW .wmo (root or group): collision, one colour per group, floors solid and walls\n"
           "    pale, liquids (--liquids);\n"
           "  anything else readable: the neutral mesh by surface.\n\n"
           "  -o, --output OUT.svg     picture to write (refused when it exists, unless --force)\n"
           "  --view V                 top (default), front (looking north), side (looking west),\n"
           "                           iso (fixed isometric view from the south-west)\n"
           "  --select WHAT            draw a part: a KotOR surface (grass, 4...), an NWN2 tile or\n"
           "                           tile range (57, 40-80: the numbers in the picture), a WMO group\n"
           "                           (the NNN of X_NNN.wmo)\n"
           "  --path X1,Y1 X2,Y2       NWN2: the route the file's tables give from (X1,Y1) to (X2,Y2):\n"
           "                           island next hops across tiles, tile next hops inside a tile\n"
           "  --git AREA.git           NWN2: draw the area's walkmesh cutters\n"
           "  --tile-numbers           NWN2: number every tile even where numbers do not fit\n"
           "  --island-graph           NWN2: island centres and links even where they do not fit\n"
           "  --floors                 WMO: only upward-facing (walkable by slope) collision\n"
           "  --roofs                  WMO: draw roofs over floors filled (default: cut away)\n"
           "  --liquids                WMO: MLIQ liquid tiles too\n\n"
           "Example:\n"
           "  walkmesh render castle.trx -o castle.svg --path 12.5,-3 40,22\n\n"
           "Exit status: 0 drawn, 1 usage (or an option the file's format does not take), 2 input\n"
           "unreadable, 3 output not written, 4 unsupported format.\n\n");
    cli_print_mesh_options_help();
}

int cmd_render(int argc, char **argv)
{
    cli_mesh_options o;
    cli_mesh_options_init(&o);
    const char *in = NULL, *out = NULL;
    char path_value[256] = "";
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            help();
            return EXIT_OK;
        }
        if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
            if (i + 1 >= argc) {
                cli_error("%s needs a file name", argv[i]);
                return EXIT_USAGE;
            }
            out = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--path") == 0) { /* two points: X1,Y1 X2,Y2 */
            if (i + 2 >= argc) {
                cli_error("--path needs two points: X1,Y1 X2,Y2");
                return EXIT_USAGE;
            }
            snprintf(path_value, sizeof path_value, "%s %s", argv[i + 1], argv[i + 2]);
            i += 2;
            wm_ctx scratch;
            wm_ctx_init(&scratch);
            if (wm_option_set(&scratch, &o.opts, "path", path_value)) {
                cli_error("%s", scratch.message);
                return EXIT_USAGE;
            }
            continue;
        }
        int used = cli_parse_mesh_option(&o, argc, argv, &i);
        if (used < 0)
            return EXIT_USAGE;
        if (used)
            continue;
        if (argv[i][0] == '-' || in) {
            cli_error("render: unexpected argument '%s' (see 'walkmesh render --help')", argv[i]);
            return EXIT_USAGE;
        }
        in = argv[i];
    }
    if (!in || !out) {
        cli_error("render: needs FILE and -o OUT.svg (see 'walkmesh render --help')");
        return EXIT_USAGE;
    }
    wm_ctx ctx;
    cli_ctx_init(&ctx, o.quiet);
    int code = cli_mesh_options_apply(&o, &ctx);
    if (!code && !wm_file_exists(in)) {
        cli_error("%s: no such file", in);
        code = EXIT_INPUT;
    }
    if (!code && !o.force && wm_file_exists(out)) {
        cli_error("%s: exists already (use --force to overwrite)", out);
        code = EXIT_OUTPUT;
    }
    const wm_format *format = NULL;
    if (!code && o.from && !(format = wm_format_by_name(o.from))) {
        cli_error("--from %s: no such format (see 'walkmesh formats')", o.from);
        code = EXIT_FORMAT;
    }
    if (!code) {
        wm_result r = wm_render_file(&ctx, in, format, out, &o.opts, o.force);
        if (r)
            code = cli_fail(&ctx, r, r == WM_ERR_EXISTS || (r == WM_ERR_IO && strstr(ctx.message, out) &&
                                                            !strstr(ctx.message, in)));
    }
    cli_mesh_options_free(&o, &ctx);
    return code;
}
