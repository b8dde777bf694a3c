/* The one option parser: every command's grammar is a cli_spec; the common options come from
 * what the command does (writes, prints results, reads meshes, batches). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* The common options, each taken by the commands whose features include `needs` (0: all). */
typedef enum common_id { C_HELP, C_VERSION, C_QUIET, C_FORCE, C_OUTPUT, C_JSON, C_JOBS } common_id;

static const struct common_option {
    common_id id;
    unsigned needs;
    cli_option option;
} common_options[] = {
    {C_OUTPUT, CLI_WRITES, {"--output", 'o', NULL, 1, NULL}}, /* placeholder and help: the spec's */
    {C_FORCE, CLI_WRITES, {"--force", 'f', NULL, 0, "replace outputs that exist"}},
    {C_JSON, CLI_RESULTS, {"--json", 0, NULL, 0, "print the results as JSON"}},
    {C_JOBS, CLI_JOBS, {"--jobs", 'j', "N", 1, "work on N files at once (default: the processors online)"}},
    {C_QUIET, 0, {"--quiet", 'q', NULL, 0, "no warnings, progress or summaries (errors only)"}},
    {C_HELP, 0, {"--help", 'h', NULL, 0, "this help"}},
    {C_VERSION, 0, {"--version", 'V', NULL, 0, "the walkmesh version"}},
};
#define COMMON_COUNT (sizeof common_options / sizeof common_options[0])

/* The reading options of commands that read meshes (CLI_MESH); the parser knows them by name. */
static const cli_option mesh_options[] = {
    {"--from", 0, "FORMAT", 1, "read the inputs as FORMAT (a name from 'walkmesh formats')"},
    {"--materials", 0, "FILE", 1, "surface table overriding the built-in one (see README: Materials)"},
    {"--up", 0, "y|z", 1, "up axis of OBJ, PLY, STL... read and written (default y; glTF is always y)"},
    {"--walkable-slope", 0, "DEG", 1, "faces without a known material are walkable up to DEG degrees (45)"},
    {"--weld", 0, "TOL", 1, "weld tolerance for formats that weld (default 1e-4)"},
    {"--game", 0, "DIR", 1, "find bare resource names in the game folder DIR, as the game does (override, module, key)"},
    {"--module", 0, "NAME", 1, "with --game: the module searched after the override folder (NAME.mod, else .rim)"},
    {"--which", 0, NULL, 0, "with --game: say where each name was found"},
    {NULL, 0, NULL, 0, NULL}};

static int takes(const cli_spec *spec, unsigned needs)
{
    return needs == 0 || (spec->features & needs) == needs;
}

static int matches(const cli_option *o, const char *arg)
{
    return strcmp(arg, o->name) == 0 || (o->letter && arg[0] == '-' && arg[1] == o->letter && arg[2] == '\0');
}

/* Every option name the command takes, for "did you mean". Returns the count. */
static size_t option_names(const cli_spec *spec, const char **names, size_t capacity)
{
    size_t n = 0;
    for (const cli_option *o = spec->options; o && o->name && n < capacity; o++)
        names[n++] = o->name;
    for (size_t i = 0; i < COMMON_COUNT && n < capacity; i++)
        if (takes(spec, common_options[i].needs))
            names[n++] = common_options[i].option.name;
    for (const cli_option *o = cli_navmesh_option_table; (spec->features & CLI_NAVMESH) && o->name && n < capacity; o++)
        names[n++] = o->name;
    if (!(spec->features & CLI_MESH))
        return n;
    for (const cli_option *o = mesh_options; o->name && n < capacity; o++)
        names[n++] = o->name;
    static char module_names[64][40];
    size_t format_count, m = 0;
    const wm_format *const *formats = wm_formats(&format_count);
    for (size_t f = 0; f < format_count; f++)
        for (const wm_option_desc *d = formats[f]->options; d && d->name && n < capacity && m < 64; d++, m++) {
            snprintf(module_names[m], sizeof module_names[m], "--%s", d->name);
            names[n++] = module_names[m];
        }
    return n;
}

/* Edits (insert, delete, replace, swap two neighbours) from a to b: "--jbos" is 1 from "--jobs". */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    size_t d[41][41];
    for (size_t i = 0; i <= la; i++)
        for (size_t j = 0; j <= lb; j++) {
            if (i == 0 || j == 0) {
                d[i][j] = i + j;
                continue;
            }
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

const char *cli_nearest(const char *word, const char *const *candidates, size_t count)
{
    const char *best = NULL;
    size_t best_distance = 3;
    for (size_t i = 0; i < count; i++) {
        size_t d = edit_distance(word, candidates[i]);
        if (d < best_distance) {
            best = candidates[i];
            best_distance = d;
        }
    }
    return best;
}

static int unknown_option(const cli_spec *spec, const char *arg)
{
    const char *names[128];
    size_t n = option_names(spec, names, 128);
    const char *near = cli_nearest(arg, names, n);
    if (near)
        cli_error("%s: unknown option '%s'; did you mean '%s'? (see 'walkmesh %s --help')", spec->name, arg, near,
                  spec->name);
    else
        cli_error("%s: unknown option '%s' (see 'walkmesh %s --help')", spec->name, arg, spec->name);
    return EXIT_USAGE;
}

static int need_values(const cli_spec *spec, int argc, int i, const char *arg, int count)
{
    if (i + count < argc)
        return 1;
    cli_error("%s: %s needs %s (see 'walkmesh %s --help')", spec->name, arg, count == 1 ? "a value" : "two values",
              spec->name);
    return 0;
}

int cli_parse_count(const char *option, const char *text, unsigned min, unsigned max, unsigned *out)
{
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (!text[0] || *end || v < (long)min || v > (long)max) {
        cli_error("%s %s: expected a whole number from %u to %u", option, text, min, max);
        return 0;
    }
    *out = (unsigned)v;
    return 1;
}

/* A common option at argv[*i]: 1 taken, 0 not one, or an exit code + 2 to return at once. */
static int common_option(const cli_spec *spec, int argc, char **argv, int *i, cli_args *args)
{
    for (size_t c = 0; c < COMMON_COUNT; c++) {
        const struct common_option *co = &common_options[c];
        if (!takes(spec, co->needs) || !matches(&co->option, argv[*i]))
            continue;
        if (co->option.values && !need_values(spec, argc, *i, argv[*i], 1))
            return EXIT_USAGE + 2;
        switch (co->id) {
        case C_HELP: cli_print_help(spec); return EXIT_OK + 2;
        case C_VERSION: printf("walkmesh %s\n", WALKMESH_VERSION); return EXIT_OK + 2;
        case C_QUIET: args->quiet = 1; break;
        case C_FORCE: args->force = 1; break;
        case C_JSON: args->json = 1; break;
        case C_OUTPUT: args->output = argv[++*i]; break;
        case C_JOBS:
            if (!cli_parse_count(argv[*i], argv[*i + 1], 1, 256, &args->jobs))
                return EXIT_USAGE + 2;
            ++*i;
            break;
        }
        return 1;
    }
    return 0;
}

/* The command's own option at argv[*i]: 1 taken, 0 not one, -1 usage error (reported). */
static int own_option(const cli_spec *spec, int argc, char **argv, int *i, cli_args *args)
{
    for (int k = 0; spec->options && spec->options[k].name; k++) {
        const cli_option *o = &spec->options[k];
        if (!matches(o, argv[*i]))
            continue;
        if (o->values && !need_values(spec, argc, *i, argv[*i], o->values))
            return -1;
        args->given[k] = 1;
        args->values[k][0] = o->values ? argv[*i + 1] : "1";
        args->values[k][1] = o->values > 1 ? argv[*i + 2] : NULL;
        *i += o->values;
        return 1;
    }
    return 0;
}

int cli_parse_mesh_option(cli_mesh_options *o, int argc, char **argv, int *i);
int cli_parse_navmesh_option(const char **values, int argc, char **argv, int *i);

static int check_positionals(const cli_spec *spec, const cli_args *args)
{
    if (args->input_count < spec->min_inputs) {
        cli_error("%s: %s (see 'walkmesh %s --help')", spec->name,
                  args->input_count ? "too few arguments" : "which file?", spec->name);
        return EXIT_USAGE;
    }
    int max = spec->max_inputs < 0 ? 0 : spec->max_inputs; /* < 0: none */
    if (spec->max_inputs && args->input_count > max) {
        cli_error("%s: unexpected argument '%s' (see 'walkmesh %s --help')", spec->name, args->inputs[max],
                  spec->name);
        return EXIT_USAGE;
    }
    return -1;
}

/* "-12.5" is a number for query, and "-12.5,3" a point for path, not options. */
static int is_number(const char *arg)
{
    char *end;
    for (int k = 0; k < 3; k++, arg = end + 1) {
        strtod(arg, &end);
        if (end == arg)
            return 0;
        if (*end != ',')
            return *end == '\0';
    }
    return 0;
}

/* The letter of a short option that takes a value ('o', 'j'), for "-j2". */
static int valued_letter(const cli_spec *spec, char letter)
{
    for (size_t c = 0; c < COMMON_COUNT; c++)
        if (common_options[c].option.letter == letter && common_options[c].option.values &&
            takes(spec, common_options[c].needs))
            return 1;
    return 0;
}

/* "--jobs=2" and "-j2" as two words, so one matching path serves every spelling. The option
 * names cut off are allocated after the words (words[argc * 2 + 1...]); the values stay in argv,
 * so the names are only needed while parsing. */
static void free_words(char **words, int argc)
{
    for (int i = 2 * argc + 1; words && words[i]; i++)
        free(words[i]);
    free(words);
}

static char **split_attached(const cli_spec *spec, int argc, char **argv, int *out_count)
{
    char **words = calloc(3 * (size_t)argc + 2, sizeof *words);
    int n = 0, names = 2 * argc + 1, options_end = 0;
    for (int i = 0; words && i < argc; i++) {
        const char *arg = argv[i], *eq = strchr(arg, '=');
        size_t cut = 0;
        options_end |= strcmp(arg, "--") == 0;
        if (options_end || i == 0)
            cut = 0;
        else if (strncmp(arg, "--", 2) == 0 && eq)
            cut = (size_t)(eq - arg);
        else if (arg[0] == '-' && arg[1] && arg[2] && arg[1] != '-' && valued_letter(spec, arg[1]))
            cut = 2;
        if (!cut) {
            words[n++] = argv[i];
            continue;
        }
        char *name = malloc(cut + 1);
        if (!name) {
            free_words(words, argc);
            return NULL;
        }
        words[names++] = name;
        memcpy(name, arg, cut);
        name[cut] = '\0';
        words[n++] = name;
        words[n++] = argv[i] + cut + (arg[cut] == '=');
    }
    *out_count = n;
    return words;
}

static int parse_arguments(const cli_spec *spec, int argc, char **argv, cli_args *args)
{
    int options_end = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (options_end || arg[0] != '-' || arg[1] == '\0' || is_number(arg)) { /* "-": standard input */
            args->inputs[args->input_count++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            options_end = 1;
            continue;
        }
        int used = own_option(spec, argc, argv, &i, args);
        if (used == 0) {
            used = common_option(spec, argc, argv, &i, args);
            if (used >= 2)
                return used - 2;
        }
        if (used == 0 && (spec->features & CLI_NAVMESH))
            used = cli_parse_navmesh_option(args->navmesh_values, argc, argv, &i);
        if (used == 0 && (spec->features & CLI_MESH))
            used = cli_parse_mesh_option(&args->mesh, argc, argv, &i);
        if (used < 0)
            return EXIT_USAGE;
        if (used == 0)
            return unknown_option(spec, arg);
    }
    return check_positionals(spec, args);
}

int cli_parse(const cli_spec *spec, int argc, char **argv, cli_args *args)
{
    memset(args, 0, sizeof *args);
    args->spec = spec;
    wm_options_init(&args->mesh.opts);
    args->inputs = calloc(2 * (size_t)argc + 1, sizeof *args->inputs);
    int count = 0;
    char **words = split_attached(spec, argc, argv, &count);
    if (!args->inputs || !words) {
        free_words(words, argc);
        cli_error("out of memory");
        return EXIT_INPUT;
    }
    int code = parse_arguments(spec, count, words, args);
    free_words(words, argc); /* what args keeps points into argv: values, inputs */
    if (code >= 0)
        cli_args_free(args, NULL);
    return code;
}

void cli_args_free(cli_args *args, wm_ctx *ctx)
{
    if (args->mesh.table_loaded && ctx) {
        if (ctx->surfaces == &args->mesh.table)
            ctx->surfaces = NULL;
        wm_surface_table_free(ctx, &args->mesh.table);
        args->mesh.table_loaded = 0;
    }
    free(args->inputs);
    args->inputs = NULL;
    for (int i = 0; i < args->member_path_count; i++)
        free(args->member_paths[i]);
    free(args->member_paths);
    args->member_paths = NULL;
    args->member_path_count = 0;
    for (int i = 0; i < args->found_path_count; i++)
        free(args->found_paths[i]);
    free(args->found_paths);
    args->found_paths = NULL;
    args->found_path_count = 0;
}

const char *cli_value(const cli_args *args, int i, int k)
{
    return args->given[i] ? args->values[i][k] : NULL;
}

unsigned cli_jobs(const cli_args *args)
{
    return args->jobs ? args->jobs : wm_processor_count();
}

/* "  -o, --output FILE        help", the help wrapped at 96 columns under its own column. */
static void print_option(const cli_option *o, const char *arg, const char *help)
{
    char left[64];
    snprintf(left, sizeof left, "%c%c%c %s%s%s", o->letter ? '-' : ' ', o->letter ? o->letter : ' ',
             o->letter ? ',' : ' ', o->name, arg ? " " : "", arg ? arg : "");
    printf("  %-28s", left);
    if (strlen(left) > 28)
        printf("\n  %-28s", "");
    const int column = 31, width = 96;
    int at = column;
    while (*help) {
        size_t word = strcspn(help, " ");
        if (at > column && at + 1 + (int)word > width) {
            printf("\n%*s", column - 1, "");
            at = column;
        }
        printf(" %.*s", (int)word, help);
        at += 1 + (int)word;
        help += word;
        help += strspn(help, " ");
    }
    putchar('\n');
}

/* The placeholder and help of -o/--output come from the spec: "PLACEHOLDER\thelp". */
static void print_output_option(const cli_spec *spec, const cli_option *o)
{
    const char *tab = strchr(spec->output_help, '\t');
    char arg[40];
    snprintf(arg, sizeof arg, "%.*s", tab ? (int)(tab - spec->output_help) : 0, spec->output_help);
    print_option(o, arg, tab ? tab + 1 : spec->output_help);
}

static void print_mesh_options(void)
{
    printf("\nReading options:\n");
    for (const cli_option *o = mesh_options; o->name; o++)
        print_option(o, o->arg, o->help);
    size_t count;
    const wm_format *const *formats = wm_formats(&count);
    for (size_t f = 0; f < count; f++)
        for (const wm_option_desc *d = formats[f]->options; d && d->name; d++) {
            if (d == formats[f]->options)
                printf("Options of the %s module:\n", formats[f]->name);
            cli_option o = {NULL, 0, d->arg, 0, d->help};
            char name[48];
            snprintf(name, sizeof name, "--%s", d->name);
            o.name = name;
            print_option(&o, d->arg, d->help);
        }
}

void cli_print_help(const cli_spec *spec)
{
    printf("%s\nOptions:\n", spec->usage);
    for (const cli_option *o = spec->options; o && o->name; o++)
        print_option(o, o->arg, o->help);
    for (size_t c = 0; c < COMMON_COUNT; c++) {
        const struct common_option *co = &common_options[c];
        if (!takes(spec, co->needs))
            continue;
        if (co->id == C_OUTPUT)
            print_output_option(spec, &co->option);
        else
            print_option(&co->option, co->option.arg, co->option.help);
    }
    if (spec->features & CLI_NAVMESH) {
        printf("\nNavmesh options (Recast's build parameters):\n");
        for (const cli_option *o = cli_navmesh_option_table; o->name; o++)
            print_option(o, o->arg, o->help);
    }
    if (spec->features & CLI_MESH)
        print_mesh_options();
    if (spec->footer)
        printf("\n%s", spec->footer);
}

int cli_parse_float_options(const cli_args *args, const cli_float_option *table, size_t count, void *config)
{
    for (size_t i = 0; i < count; i++) {
        const char *text = cli_value(args, table[i].index, 0);
        if (text && !cli_parse_float(args->spec->options[table[i].index].name, text, table[i].min, table[i].max,
                                     (float *)((char *)config + table[i].offset)))
            return EXIT_USAGE;
    }
    return EXIT_OK;
}

const char *cli_output_of(const cli_args *args)
{
    if (args->output && args->input_count > 1) {
        cli_error("%s: OUT given twice (as an argument and with -o)", args->spec->name);
        return NULL;
    }
    const char *out = args->output ? args->output : args->input_count > 1 ? args->inputs[1] : NULL;
    if (!out)
        cli_error("%s: where to? give OUT (see 'walkmesh %s --help')", args->spec->name, args->spec->name);
    return out;
}

int cli_run(const cli_spec *spec, int argc, char **argv, int (*run)(cli_args *args, wm_ctx *ctx))
{
    cli_args args;
    int code = cli_parse(spec, argc, argv, &args);
    if (code >= 0)
        return code;
    wm_ctx ctx;
    cli_ctx_init(&ctx, args.quiet);
    code = run(&args, &ctx);
    cli_args_free(&args, &ctx);
    return code;
}
