#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cli_error(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    fputs("walkmesh: ", stderr);
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
}

/* A module may meet the same condition twice (a file read once for the
 * mesh and again for its details): each distinct warning prints once. */
static int seen_before(const char *message)
{
    static uint64_t seen[1024];
    static unsigned seen_count;
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)message; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    for (unsigned i = 0; i < seen_count; i++)
        if (seen[i] == h)
            return 1;
    if (seen_count < sizeof seen / sizeof seen[0])
        seen[seen_count++] = h;
    return 0;
}

static void print_warning(void *user, const char *message)
{
    (void)user;
    if (seen_before(message))
        return;
    fprintf(stderr, "walkmesh: warning: %s\n", message);
}

void cli_ctx_init(wm_ctx *ctx, int quiet)
{
    wm_ctx_init(ctx);
    if (!quiet)
        ctx->warn = print_warning;
}

int cli_missing_file(const char *path)
{
    cli_error(CLI_NO_SUCH_FILE, path);
    return EXIT_INPUT;
}

int cli_output_exists(const char *path)
{
    cli_error(CLI_EXISTS, path);
    return EXIT_OUTPUT;
}

int cli_fail(const wm_ctx *ctx, wm_result result, int is_output)
{
    cli_error("%s", ctx->message[0] ? ctx->message : wm_result_name(result));
    return cli_exit_code(result, is_output);
}

int cli_exit_code(wm_result result, int is_output)
{
    switch (result) {
    case WM_OK: return EXIT_OK;
    case WM_ERR_UNSUPPORTED:
    case WM_ERR_NOT_FORMAT:
    case WM_ERR_AMBIGUOUS: return EXIT_FORMAT;
    case WM_ERR_EXISTS: return EXIT_OUTPUT;
    case WM_ERR_OPTION: return EXIT_USAGE;
    case WM_ERR_INVALID: return is_output ? EXIT_OUTPUT : EXIT_INPUT;
    case WM_ERR_IO:
    case WM_ERR_NOMEM: return is_output ? EXIT_OUTPUT : EXIT_INPUT;
    default: return EXIT_INPUT;
    }
}

static int progress_shown;
static char progress_label[64];
static int progress_step = -1; /* the last step shown of the current label */

/* Whether this call moves the display: a new label, the last step, or the next
 * of `steps` equal parts. A re-bake reports 941 steps in 50 ms; a line or a
 * repaint for each cost more CPU than some of its stages. */
static int progress_moves(unsigned done, unsigned total, const char *label, int steps)
{
    const char *name = label ? label : "";
    int step = total ? (int)((double)done / total * steps) : steps;
    if (strncmp(progress_label, name, sizeof progress_label - 1) != 0) {
        snprintf(progress_label, sizeof progress_label, "%s", name);
        progress_step = step;
        return 1;
    }
    if (step == progress_step && done != total)
        return 0;
    progress_step = step;
    return 1;
}

void cli_progress(int quiet, unsigned done, unsigned total, const char *label)
{
    if (quiet)
        return;
    if (!isatty(STDERR_FILENO)) {
        if (label && (total <= 10 || progress_moves(done, total, label, 10)))
            fprintf(stderr, "[%u/%u] %s\n", done, total, label);
        return;
    }
    enum { width = 30 };
    if (!progress_moves(done, total, label, width))
        return;
    int filled = total ? (int)((double)done / total * width) : width;
    char bar[width + 1];
    for (int i = 0; i < width; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r[%s] %u/%u %-40.40s", bar, done, total, label ? label : "");
    fflush(stderr);
    progress_shown = 1;
}

void cli_progress_end(void)
{
    progress_label[0] = '\0';
    if (progress_shown) {
        fputc('\n', stderr);
        progress_shown = 0;
    }
}
