/* Shared pieces of the walkmesh command-line tool. Each command lives in
 * its own tools/cmd_<name>.c as `int cmd_<name>(int argc, char **argv)`
 * (argv[0] is the command name) and is listed in the table in main.c. */
#ifndef WM_CLI_H
#define WM_CLI_H

#include "walkmesh.h"

/* Documented exit codes. */
enum {
    EXIT_OK = 0,
    EXIT_USAGE = 1,       /* bad command line */
    EXIT_INPUT = 2,       /* input missing, unreadable, truncated or corrupt */
    EXIT_OUTPUT = 3,      /* output could not be written, or exists without --force */
    EXIT_FORMAT = 4,      /* unsupported or ambiguous format */
    EXIT_INVALID = 5,     /* validate found errors */
    EXIT_NOT_FOUND = 6    /* query ran but found nothing there */
};

/* Prints "walkmesh: message" on stderr (one line). */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(1, 2)
#endif
    ;
/* A context whose warnings go to stderr as "walkmesh: warning: ..." (unless quiet). */
void cli_ctx_init(wm_ctx *ctx, int quiet);
/* Prints the context message and maps the result to an exit code;
 * is_output selects EXIT_OUTPUT for I/O errors. */
int cli_fail(const wm_ctx *ctx, wm_result result, int is_output);

/* True when argv[i] is "-h" or "--help". */
int cli_is_help(const char *arg);

/* Common option parsing for commands that read or write meshes.
 * Consumes the options it knows at argv[*i] (advancing *i) and returns 1;
 * returns 0 when the option is not one of them; -1 on a usage error
 * (already reported). Module options declared in format descriptors are
 * accepted too. */
typedef struct cli_mesh_options {
    wm_options opts;
    const char *from;       /* --from FORMAT */
    const char *to;         /* --to FORMAT */
    const char *materials;  /* --materials FILE */
    int force;              /* --force: overwrite outputs */
    int quiet;              /* --quiet */
    wm_surface_table table; /* loaded --materials table */
    int table_loaded;
} cli_mesh_options;

void cli_mesh_options_init(cli_mesh_options *o);
int cli_parse_mesh_option(cli_mesh_options *o, int argc, char **argv, int *i);
/* Loads --materials into ctx (call once after parsing). Returns an exit code. */
int cli_mesh_options_apply(cli_mesh_options *o, wm_ctx *ctx);
void cli_mesh_options_free(cli_mesh_options *o, wm_ctx *ctx);
/* Prints the help lines for the common options and every module option. */
void cli_print_mesh_options_help(void);

/* Parses "COMMAND FILE [--json] [common and module options]" (info, validate).
 * Returns -1 when parsing succeeded (outputs set), else the exit code to
 * return: EXIT_OK after --help (help() was called) or EXIT_USAGE (reported). */
int cli_parse_file_command(int argc, char **argv, void (*help)(void), cli_mesh_options *o, const char **path,
                           int *json);

/* Reads any supported file into a mesh, detecting the format (or using
 * forced_format). Returns an exit code; on error the message is printed. */
int cli_load_mesh(wm_ctx *ctx, const char *path, const char *forced_format, const wm_options *opts,
                  wm_mesh *out, const wm_format **out_format);
/* Same, and details (may be NULL) gets the format's own facts from the same read
 * (wm_info_format: the file is read and decoded once). */
int cli_load_mesh_info(wm_ctx *ctx, const char *path, const char *forced_format, const wm_options *opts,
                       wm_mesh *out, const wm_format **out_format, wm_report *details);

/* A one-line progress indicator on stderr ("\r[12/40] name"), only when
 * stderr is a terminal. */
void cli_progress(unsigned done, unsigned total, const char *label);
void cli_progress_end(void);

/* Replaces argv with the command line in UTF-8 where the system passes something else (Windows). */
void cli_utf8_arguments(int *argc, char ***argv);
/* The processors online (at least 1): the default thread count. */
unsigned cli_cpu_count(void);

#endif
