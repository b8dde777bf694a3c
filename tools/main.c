/* walkmesh: the command-line client of the walkmesh library. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int cmd_formats(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_bake(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_area(int argc, char **argv);

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"formats", cmd_formats, "list the format modules and what each reads and writes"},
    {"info", cmd_info, "describe a file: format, counts, bounds, surfaces, format details"},
    {"convert", cmd_convert, "convert between formats (one file, or a batch into a folder)"},
    {"validate", cmd_validate, "check a file against its format's invariants"},
    {"query", cmd_query, "KotOR .wok: height at (X, Y) or the face a ray hits, through the AABB tree"},
    {"render", cmd_render, "draw a walkmesh as an SVG picture (grid, scale, legend, per-game facts)"},
    {"area", cmd_area, "KotOR area: assemble a .lyt's rooms into one mesh (move/rotate/mirror rooms), split it into .wok"},
    {"bake", cmd_bake, "rebuild an NWN2 TRX's tiles, path tables and islands from a TRN or TRX"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "walkmesh %s: convert game walkmeshes (KotOR BWM, NWN2 TRN/TRX, WoW WMO) and 3-D meshes\n\n"
            "Usage: walkmesh COMMAND [ARGS...]\n       walkmesh COMMAND --help\n\nCommands:\n",
            WALKMESH_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nExit codes: 0 ok, 1 usage error, 2 input error (missing, unreadable, truncated, corrupt),\n"
                 "3 output error (cannot write, or exists without --force), 4 unsupported or ambiguous format,\n"
                 "5 validate found errors, 6 query found nothing there.\n");
}

int main(int argc, char **argv)
{
    cli_utf8_arguments(&argc, &argv);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        if (argc > 2 && strcmp(argv[1], "help") == 0) {
            for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
                if (strcmp(commands[i].name, argv[2]) == 0) {
                    char *help_argv[] = {argv[2], "--help", NULL};
                    return commands[i].run(2, help_argv);
                }
        }
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("walkmesh %s\n", WALKMESH_VERSION);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, argv[1]) == 0)
            return commands[i].run(argc - 1, argv + 1);
    cli_error("unknown command '%s' (see 'walkmesh --help')", argv[1]);
    return EXIT_USAGE;
}
