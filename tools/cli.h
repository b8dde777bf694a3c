/* Shared pieces of the walkmesh command-line tool, a client of the public library only
 * (walkmesh.h). Each command lives in its own tools/cmd_<name>.c as
 * `int cmd_<name>(int argc, char **argv)` (argv[0] is the command name), is listed in the
 * table in main.c, and declares its grammar as a cli_spec read by the one option parser. */
#ifndef WM_CLI_H
#define WM_CLI_H

#include "walkmesh.h"

#include <stdio.h>

/* Documented exit codes (main.c's usage, docs/cli.md). */
enum {
    EXIT_OK = 0,
    EXIT_USAGE = 1,    /* bad command line */
    EXIT_INPUT = 2,    /* input missing, unreadable, truncated or corrupt */
    EXIT_OUTPUT = 3,   /* output could not be written, or exists without --force */
    EXIT_FORMAT = 4,   /* unsupported or ambiguous format, or an extension walkmesh cannot write */
    EXIT_INVALID = 5,  /* validate found errors */
    EXIT_NOT_FOUND = 6 /* query ran but found nothing there */
};

/* ------------------------------------------------------------------ messages (cli.c) */

/* Prints "walkmesh: message" on stderr (one line). */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(1, 2)
#endif
    ;
/* The one wording for each of these, whichever command meets them (printed at once by the
 * functions below, or left in a batch unit's context with wm_error). */
#define CLI_NO_SUCH_FILE "%s: no such file"
#define CLI_EXISTS "%s: exists already (use --force to overwrite)"
int cli_missing_file(const char *path);  /* "PATH: no such file", returns EXIT_INPUT */
int cli_output_exists(const char *path); /* "PATH: exists already (use --force to overwrite)", EXIT_OUTPUT */
/* A context whose warnings go to stderr as "walkmesh: warning: ..." (unless quiet). */
void cli_ctx_init(wm_ctx *ctx, int quiet);
/* Prints the context message and maps the result to an exit code;
 * is_output selects EXIT_OUTPUT for I/O errors. */
int cli_fail(const wm_ctx *ctx, wm_result result, int is_output);
/* The exit code of a result without printing anything. */
int cli_exit_code(wm_result result, int is_output);

/* A one-line progress indicator on stderr: redrawn in place on a terminal, else one line per
 * call that has a label. Silent when quiet. */
void cli_progress(int quiet, unsigned done, unsigned total, const char *label);
void cli_progress_end(void);

/* ------------------------------------------------------------- the grammar (cli_args.c) */

/* What a command does, which decides the common options it takes. */
enum {
    CLI_WRITES = 1u << 0,  /* writes files: -f/--force, -o/--output */
    CLI_RESULTS = 1u << 1, /* prints results: --json */
    CLI_MESH = 1u << 2,    /* reads meshes: --from, --materials, --up, ... and module options */
    CLI_JOBS = 1u << 3,    /* batches: -j/--jobs N */
    CLI_MANY = 1u << 4,    /* takes several inputs */
    CLI_ARCHIVES = 1u << 5, /* an archive given as an input stands for its walkmesh members */
    CLI_NAVMESH = 1u << 6   /* builds navmeshes: --preset and Recast's options (cli_navmesh.c) */
};

/* One option of a command's own. */
typedef struct cli_option {
    const char *name;  /* "--git" */
    char letter;       /* short form ('o' for -o), 0: none */
    const char *arg;   /* value placeholder ("AREA.git"); NULL: a flag */
    int values;        /* values taken (1, or 2 for --path X1,Y1 X2,Y2); 0 for flags */
    const char *help;
} cli_option;

#define CLI_MAX_OPTIONS 16
#define CLI_NAVMESH_OPTIONS 10

/* Recast's build options (CLI_NAVMESH), terminated by {NULL}. */
extern const cli_option cli_navmesh_option_table[];

typedef struct cli_spec {
    const char *name;        /* the command */
    unsigned features;       /* CLI_* */
    const char *usage;       /* "Usage: walkmesh ..." lines, then what the command does */
    const char *output_help; /* -o/--output's placeholder and help, "OUT.trx|DIR\tfile to write..." */
    const char *footer;      /* examples, exit status (may be NULL) */
    const cli_option *options; /* the command's own, terminated by {NULL} (may be NULL) */
    int min_inputs;          /* positional arguments required */
    int max_inputs;          /* at most; 0: any number, -1: none */
} cli_spec;

/* Reading options of commands that read meshes (CLI_MESH). */
typedef struct cli_mesh_options {
    wm_options opts;
    const char *from;       /* --from FORMAT */
    const char *to;         /* --to FORMAT */
    const char *materials;  /* --materials FILE */
    wm_surface_table table; /* loaded --materials table */
    int table_loaded;
    const char *game;       /* --game DIR: bare resource names are found there */
    const char *module;     /* --module NAME: the module searched after the override folder */
    int which;              /* --which: say where each name was found */
} cli_mesh_options;

typedef struct cli_args {
    const cli_spec *spec;
    const char **inputs; /* positional arguments; "-" is standard input */
    int input_count;
    const char *output;  /* -o/--output; "-" is standard output */
    int quiet, force, json;
    unsigned jobs;       /* -j/--jobs; 0 when not given */
    cli_mesh_options mesh;
    const char *values[CLI_MAX_OPTIONS][2]; /* the command's own options, by index in spec->options */
    int given[CLI_MAX_OPTIONS];
    const char *navmesh_values[CLI_NAVMESH_OPTIONS]; /* CLI_NAVMESH: by index in cli_navmesh_option_table */
    char **member_paths; /* inputs made by cli_expand_archives ("ARCHIVE/member"), freed with args */
    int member_path_count;
    char **found_paths;  /* inputs found by --game, freed with args */
    int found_path_count;
} cli_args;

/* Parses argv by spec. Returns -1 when the command should run (args filled; free it with
 * cli_args_free), else the exit code to return at once: EXIT_OK after -h/--help or
 * -V/--version (printed), EXIT_USAGE after a usage error (reported). */
int cli_parse(const cli_spec *spec, int argc, char **argv, cli_args *args);
/* A whole command: parse, a context, run(args, ctx), free; the exit code. */
int cli_run(const cli_spec *spec, int argc, char **argv, int (*run)(cli_args *args, wm_ctx *ctx));
void cli_args_free(cli_args *args, wm_ctx *ctx);
/* The value of the command's own option at index i (NULL when not given); k-th of its values. */
const char *cli_value(const cli_args *args, int i, int k);
/* The help of a command, every option it takes included. */
void cli_print_help(const cli_spec *spec);
/* The candidate nearest to word when within 2 edits (NULL: none), for "did you mean". */
const char *cli_nearest(const char *word, const char *const *candidates, size_t count);
/* Parses a whole number from min to max for option; reports and returns 0 when it is not one. */
int cli_parse_count(const char *option, const char *text, unsigned min, unsigned max, unsigned *out);
/* Parses a number from min to max for option; reports and returns 0 when it is not one. */
int cli_parse_float(const char *option, const char *text, float min, float max, float *out);
/* The build parameters of CLI_NAVMESH's options: the preset, then each option given.
 * Reports and returns EXIT_USAGE when one is out of range. */
int cli_navmesh_config(const cli_args *args, wm_navmesh_config *config);
/* A command's float option stored into a field of its configuration structure. */
typedef struct cli_float_option {
    int index;      /* in the spec's options */
    float min, max;
    size_t offset;  /* of the float field */
} cli_float_option;
/* Each given option of the table parsed into config; reports and returns EXIT_USAGE on the first bad one. */
int cli_parse_float_options(const cli_args *args, const cli_float_option *table, size_t count, void *config);
/* OUT of a command taking IN OUT or IN -o OUT; reports and returns NULL when missing or given twice. */
const char *cli_output_of(const cli_args *args);
/* jobs from -j, else the processors online. */
unsigned cli_jobs(const cli_args *args);

/* Loads --materials into ctx (call once after parsing). Returns an exit code. */
int cli_mesh_options_apply(cli_mesh_options *o, wm_ctx *ctx);
/* Reads any supported file ("-": standard input) into a mesh; details (may be NULL) gets the
 * format's own facts from the same decoding; *out_format (may be NULL) the format that read
 * it. Messages stay in ctx. */
wm_result cli_load_mesh(wm_ctx *ctx, const cli_mesh_options *o, const char *path, wm_mesh *out,
                        const wm_format **out_format, wm_report *details);

/* ------------------------------------------------------------ files (cli_io.c) */

/* Every input exists (or is "-"); else reports the first missing one. Returns an exit code. */
int cli_check_inputs(const char *const *paths, int count);
/* An output that may be written: refused when it exists and force is not set. */
int cli_check_output(const char *path, int force);
/* The same inside a batch unit: the message stays in ctx. Returns an exit code. */
int cli_unit_check_output(wm_ctx *ctx, const char *path, int force);
/* Reads a whole file, or standard input for "-". Returns a result; free *data with wm_free. */
wm_result cli_read_input(wm_ctx *ctx, const char *path, uint8_t **data, size_t *size);
/* Writes bytes to path atomically (or to standard output for "-"). */
wm_result cli_write_output(wm_ctx *ctx, const char *path, const void *data, size_t size, int force);
/* Creates a batch's output folder (and its parents) when missing. Returns an exit code. */
int cli_make_folder(const char *path);
/* DIR/<stem of in>.<ext>, the file name made safe by the library's name guard (freed with
 * wm_free); NULL with the error in ctx when it cannot be (out of memory, a device name). */
char *cli_batch_path(wm_ctx *ctx, const char *dir, const char *in, const char *ext);
/* Two inputs that map to one batch output (names compared without case, as Windows and macOS
 * do) or an output name the guard refuses: reported, EXIT_OUTPUT. Else EXIT_OK. */
int cli_refuse_colliding_outputs(const char *dir, const char *const *inputs, int count, const char *ext);
/* An output path whose extension walkmesh writes for this command ("svg" for render): else
 * reports "walkmesh cannot write .png" and returns EXIT_FORMAT. */
int cli_require_extension(const char *command, const char *path, const char *ext);

/* ------------------------------------------------------------ archives (cli_archive.c) */

/* 1 when path is an archive file (opened into *out), 0 when it is not one (or is a member, or
 * standard input), -1 when it is an archive that cannot be read (the message in ctx). */
int cli_open_archive(wm_ctx *ctx, const char *path, wm_archive **out);
/* Replaces every input that is an archive by its walkmesh members (.wok/.pwk/.dwk, .trn/.trx,
 * .wmo) as "ARCHIVE/member", in the archive's order. Returns an exit code (reported). */
int cli_expand_archives(cli_args *args);
/* Resolves the first count inputs that are bare names (no folder) in --game DIR, as the game
 * does (wm_game_find), printing where each was found with --which; then checks that every one
 * exists. Returns an exit code (reported). */
int cli_check_game_inputs(cli_args *args, int count);
/* Whether an output path names a file, or a member of an archive, that exists. */
int cli_output_taken(const char *path);
/* `info ARCHIVE`: each member walkmesh reads, its format and triangle count (or why not). */
int cli_list_archive(wm_ctx *ctx, const cli_args *args, wm_archive *archive, wm_buffer *out);

/* ------------------------------------------------------------ batches (cli_batch.c) */

/* One unit of a batch: runs on any thread, reports through ctx (whose messages the batch
 * prints in one block with the unit's progress line) and returns an exit code. A line for
 * standard output (a summary, JSON) goes to out. */
typedef int (*cli_batch_fn)(void *user, int index, wm_ctx *ctx, wm_buffer *out);

/* Runs fn for every index < count on `jobs` threads (wm_parallel_for). Each unit's stdout
 * text and messages are printed in input order as units finish; progress lines
 * "[done/count] label" go to stderr unless quiet. Returns the worst exit code, and says how
 * many failed when count > 1. */
int cli_batch_run(const cli_args *args, int count, const char *const *labels, cli_batch_fn fn, void *user);
/* Parses a command that reads its inputs one by one, then runs fn over them as a batch. */
int cli_run_over_inputs(const cli_spec *spec, int argc, char **argv, cli_batch_fn fn);

/* ------------------------------------------------------------ platform (cli_windows.c) */

/* Replaces argv with the command line in UTF-8 where the system passes something else
 * (Windows), expanding * and ? there too, since cmd leaves them to the program. */
void cli_utf8_arguments(int *argc, char ***argv);
/* Creates one folder (UTF-8 path); 0 on success. */
int cli_platform_mkdir(const char *path);
/* True when path names an existing folder. */
int cli_is_folder(const char *path);
/* Standard input or output in binary mode (Windows translates line ends otherwise). */
void cli_platform_binary(FILE *stream);

#endif
