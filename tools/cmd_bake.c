/* walkmesh bake: rebuild a TRX's tiles, path tables and islands. */
#include "cli.h"
#include "nwn2/bake.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void help(void)
{
    printf("Usage: walkmesh bake IN.trn|IN.trx -o OUT.trx [--keep-borders] [--git AREA.git [--cut-whole]]\n"
           "                    [--threads N] [--force] [--quiet]\n\n"
           "Bakes an NWN2 walkmesh the way the toolset does. A baked TRX keeps the toolset's\n"
           "geometry, triangle order, tiles and links; only the tables are recomputed. A TRN (or\n"
           "--git) is rebuilt first: map-border tiles dropped, vertices within 1 mm of a tile line\n"
           "snapped onto it, triangles crossing a line by 10 cm or more split along it, triangles\n"
           "turned clockwise and grouped by tile, edges and neighbours rebuilt. Then every tile's\n"
           "path table (Dijkstra over the tile's walkable triangles, 2-D centre distances),\n"
           "line-of-sight bits where they are provable, the islands and the island path table.\n"
           "Every packet other than the walkmesh is copied unchanged. The output is byte-identical\n"
           "run to run, whatever the thread count.\n\n"
           "  -o, --output OUT.trx   file to write (refused when it exists, unless --force)\n"
           "  --keep-borders         keep the triangles of the border tiles (exteriors: 8 tiles\n"
           "                         on each side; interiors have none)\n"
           "  --git AREA.git         cut the walkmesh with the area's walkmesh cutters (triggers\n"
           "                         of Type 3): triangles are split along each polygon's edges\n"
           "                         and the pieces inside are removed\n"
           "  --cut-whole            with --git: remove the triangles whose centre lies inside a\n"
           "                         cutter instead of cutting them (adds no triangles). Without it,\n"
           "                         where cutting leaves a tile with more than 127 walkable\n"
           "                         triangles, the cutters reaching that tile do this (a warning\n"
           "                         names the tile)\n"
           "  --threads N            bake independent tiles on N threads (default 1)\n"
           "  --force                overwrite OUT.trx\n"
           "  --quiet                no summary, no progress bar\n\n"
           "A tile's path table addresses at most 127 walkable triangles; a tile with more is an\n"
           "error naming the tile and its square: use fewer walkable triangles there and bake again.\n\n"
           "Exit status: 0 baked, 1 usage, 2 input unreadable or not bakeable (e.g. a tile with\n"
           "more than 127 walkable triangles), 3 output not written (exists without --force).\n");
}

static void show_progress(void *user, const char *stage, uint32_t done, uint32_t total)
{
    (void)user;
    cli_progress(done, total, stage);
}

static int parse_threads(const char *text, unsigned *out)
{
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (!text[0] || *end || v < 1 || v > 256)
        return 0;
    *out = (unsigned)v;
    return 1;
}

int cmd_bake(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *git = NULL;
    int force = 0, quiet = 0;
    nwn2_bake_options opts;
    nwn2_bake_options_init(&opts);
    opts.threads = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            help();
            return EXIT_OK;
        }
        if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(a, "--git") == 0 && i + 1 < argc)
            git = argv[++i];
        else if (strcmp(a, "--threads") == 0 && i + 1 < argc) {
            if (!parse_threads(argv[++i], &opts.threads)) {
                cli_error("bake: --threads %s: expected a number from 1 to 256", argv[i]);
                return EXIT_USAGE;
            }
        } else if (strcmp(a, "--cut-whole") == 0)
            opts.cut_whole_triangles = 1;
        else if (strcmp(a, "--keep-borders") == 0 || strcmp(a, "--keep-border") == 0) /* convert's spelling too */
            opts.keep_borders = 1;
        else if (strcmp(a, "--force") == 0)
            force = 1;
        else if (strcmp(a, "--quiet") == 0)
            quiet = 1;
        else if (a[0] != '-' && !in)
            in = a;
        else {
            cli_error("bake: unexpected argument '%s' (see 'walkmesh bake --help')", a);
            return EXIT_USAGE;
        }
    }
    if (!in || !out) {
        cli_error("bake: %s (see 'walkmesh bake --help')", !in ? "which file? give IN.trn or IN.trx"
                                                                : "where to? give -o OUT.trx");
        return EXIT_USAGE;
    }
    if (!force && wm_file_exists(out)) {
        cli_error("%s: exists; add --force to overwrite it", out);
        return EXIT_OUTPUT;
    }
    wm_ctx ctx;
    cli_ctx_init(&ctx, quiet);
    nwn2_cutter_set cutters = {0};
    if (git) {
        wm_result r = nwn2_bake_read_git(&ctx, git, &cutters);
        if (r)
            return cli_fail(&ctx, r, 0);
        opts.cutters = &cutters;
    }
    nwn2_file file;
    nwn2_file_init(&file);
    wm_result r = nwn2_file_read(&ctx, in, &file);
    if (!r && file.aswm_packet < 0)
        r = wm_error(&ctx, WM_ERR_UNSUPPORTED, "%s: no ASWM walkmesh packet to bake", in);
    nwn2_bake_stats stats;
    if (!r) {
        if (!quiet) {
            opts.progress = show_progress;
        }
        r = nwn2_bake(&ctx, &file.aswm, &opts, &stats);
        cli_progress_end();
        if (r)
            wm_error_prefix(&ctx, in);
    }
    int code = EXIT_OK;
    if (r)
        code = cli_fail(&ctx, r, 0);
    else if ((r = nwn2_file_write(&ctx, &file, out, force)) != WM_OK)
        code = cli_fail(&ctx, r, 1);
    else if (!quiet) {
        printf("%s: baked %u triangles (%u walkable) in %u x %u tiles: %u islands, at most %u walkable per tile%s\n",
               out, file.aswm.triangle_count, stats.walkable_triangles, file.aswm.grid_width,
               file.aswm.grid_height, stats.island_count, stats.max_tile_nodes,
               stats.kept_layout ? " (geometry, tiles and links kept from the input)" : "");
        if (stats.border_removed || stats.cut_removed || stats.split_added)
            printf("%s: %u border triangles dropped, %u triangles added by splits, %u removed by %u cutters (%u of "
                   "them removing whole triangles)\n",
                   out, stats.border_removed, stats.split_added, stats.cut_removed, cutters.count,
                   stats.whole_cutters);
    }
    nwn2_file_free(&ctx, &file);
    nwn2_cutter_set_free(&ctx, &cutters);
    return code;
}
