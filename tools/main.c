/* walkmesh: the command-line client of the walkmesh library. */
#include "cli.h"

#include <string.h>

int cmd_formats(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_bake(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_area(int argc, char **argv);
int cmd_path(int argc, char **argv);
int cmd_reach(int argc, char **argv);
int cmd_navmesh(int argc, char **argv);
int cmd_generate(int argc, char **argv);

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

/* One line per command; a new command adds its tools/cmd_<name>.c and a line here. */
static const command commands[] = {
    {"formats", cmd_formats, "list the format modules and what each reads and writes"},
    {"info", cmd_info, "describe files: format, counts, bounds, surfaces, format details"},
    {"convert", cmd_convert, "convert between formats (one file, or a batch into a folder)"},
    {"validate", cmd_validate, "check files against their format's invariants"},
    {"query", cmd_query, "KotOR .wok: height at (X, Y) or the face a ray hits, through the AABB tree"},
    {"render", cmd_render, "draw walkmeshes as SVG pictures (grid, scale, legend, per-game facts)"},
    {"area", cmd_area, "KotOR .lyt areas: assemble the rooms into one mesh (with room edits), split back to .wok"},
    {"path", cmd_path, "the shortest route between two points over the walkable faces (any walkmesh, .lyt areas)"},
    {"reach", cmd_reach, "the walkable regions a point cannot reach, with their size and a point inside"},
    {"navmesh", cmd_navmesh, "build a Recast/Detour navmesh of any collision (.navmesh tiles, OBJ, glTF, SVG)"},
    {"generate", cmd_generate, "make a walkmesh from render geometry (KotOR room models, OBJ, glTF): .wok, OBJ ..."},
    {"bake", cmd_bake, "rebuild NWN2 TRX tiles, path tables and islands from TRN or TRX files"},
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fprintf(out,
            "walkmesh %s: convert game walkmeshes (KotOR BWM, NWN2 TRN/TRX, WoW WMO) and 3-D meshes\n\n"
            "Usage: walkmesh COMMAND [ARGS...]\n       walkmesh COMMAND --help\n       walkmesh -V|--version\n\n"
            "Commands:\n",
            WALKMESH_VERSION);
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nEvery command takes -h/--help, -q/--quiet and -V/--version; those that write take\n"
                 "-o/--output and -f/--force, those that print results --json (see docs/cli.md).\n"
                 "'-' is standard input or output where a single file is read or written.\n\n"
                 "Exit codes: 0 ok, 1 usage error, 2 input error (missing, unreadable, truncated, corrupt),\n"
                 "3 output error (cannot write, or exists without --force), 4 unsupported or ambiguous format\n"
                 "(or an output extension walkmesh cannot write), 5 validate found errors, 6 query, path or\n"
                 "reach found nothing there (no walkable face, no route).\n");
}

static const command *find_command(const char *name)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static int unknown_command(const char *name)
{
    const char *names[COMMAND_COUNT];
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        names[i] = commands[i].name;
    const char *near = cli_nearest(name, names, COMMAND_COUNT);
    if (near)
        cli_error("unknown command '%s'; did you mean '%s'? (see 'walkmesh --help')", name, near);
    else
        cli_error("unknown command '%s' (see 'walkmesh --help')", name);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    cli_utf8_arguments(&argc, &argv);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *first = argv[1];
    if (strcmp(first, "help") == 0 && argc > 2 && find_command(argv[2])) {
        char *help_argv[] = {argv[2], "--help", NULL};
        return find_command(argv[2])->run(2, help_argv);
    }
    if (strcmp(first, "-h") == 0 || strcmp(first, "--help") == 0 || strcmp(first, "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(first, "-V") == 0 || strcmp(first, "--version") == 0) {
        printf("walkmesh %s\n", WALKMESH_VERSION);
        return EXIT_OK;
    }
    const command *c = find_command(first);
    return c ? c->run(argc - 1, argv + 1) : unknown_command(first);
}
