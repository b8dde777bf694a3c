/* Inputs and outputs of the commands: existence checks in one wording, standard input and
 * output for "-", batch folders and the names written into them. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static int is_stdio(const char *path)
{
    return strcmp(path, "-") == 0;
}

int cli_check_inputs(const char *const *paths, int count)
{
    for (int i = 0; i < count; i++)
        if (!is_stdio(paths[i]) && !wm_input_exists(paths[i]) && !cli_is_folder(paths[i]))
            return cli_missing_file(paths[i]);
    return EXIT_OK;
}

int cli_check_output(const char *path, int force)
{
    if (!is_stdio(path) && !force && cli_output_taken(path))
        return cli_output_exists(path);
    return EXIT_OK;
}

int cli_unit_check_output(wm_ctx *ctx, const char *path, int force)
{
    if (!is_stdio(path) && !force && cli_output_taken(path)) {
        wm_error(ctx, WM_ERR_EXISTS, CLI_EXISTS, path);
        return EXIT_OUTPUT;
    }
    return EXIT_OK;
}

static wm_result read_stdin(wm_ctx *ctx, uint8_t **data, size_t *size)
{
    wm_buffer buf;
    wm_buffer_init(&buf, ctx);
    cli_platform_binary(stdin);
    uint8_t block[65536];
    size_t n;
    wm_result r = WM_OK;
    while (!r && (n = fread(block, 1, sizeof block, stdin)) > 0) {
        if (buf.size + n > ctx->limits.max_bytes)
            r = wm_error(ctx, WM_ERR_LIMIT, "standard input: more than %llu bytes",
                         (unsigned long long)ctx->limits.max_bytes);
        else if (!(r = wm_buffer_reserve(&buf, n)))
            wm_put_bytes(&buf, block, n);
    }
    if (!r && ferror(stdin))
        r = wm_error(ctx, WM_ERR_IO, "standard input: read error");
    if (r) {
        wm_buffer_free(&buf);
        return r;
    }
    *data = buf.data; /* the buffer's block is the context's allocation */
    *size = buf.size;
    return WM_OK;
}

wm_result cli_read_input(wm_ctx *ctx, const char *path, uint8_t **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    if (is_stdio(path))
        return read_stdin(ctx, data, size);
    if (!wm_input_exists(path))
        return wm_error(ctx, WM_ERR_IO, CLI_NO_SUCH_FILE, path);
    if (wm_file_exists(path))
        return wm_file_read(ctx, path, data, size);
    wm_input member; /* a path into an archive: the member's bytes, copied out of it */
    wm_result r = wm_input_load(ctx, path, &member);
    if (!r && !(*data = wm_alloc_array(ctx, member.size ? member.size : 1, 1)))
        r = WM_ERR_NOMEM;
    if (!r) {
        memcpy(*data, member.data, member.size);
        *size = member.size;
    }
    wm_input_free(ctx, &member);
    return r;
}

wm_result cli_write_output(wm_ctx *ctx, const char *path, const void *data, size_t size, int force)
{
    if (!is_stdio(path))
        return wm_file_write_atomic(ctx, path, data, size, force);
    cli_platform_binary(stdout);
    if (fwrite(data, 1, size, stdout) != size || fflush(stdout) != 0)
        return wm_error(ctx, WM_ERR_IO, "standard output: write error");
    return WM_OK;
}

int cli_make_folder(const char *path)
{
    if (cli_is_folder(path))
        return EXIT_OK;
    char *copy = malloc(strlen(path) + 1);
    if (!copy)
        return EXIT_OUTPUT;
    strcpy(copy, path);
    /* parents first: a/b/c creates a, a/b, then a/b/c */
    for (char *p = copy + 1; *p; p++)
        if ((*p == '/' || *p == '\\') && p[-1] != ':') {
            char keep = *p;
            *p = '\0';
            cli_platform_mkdir(copy);
            *p = keep;
        }
    int failed = cli_platform_mkdir(copy) != 0 || !cli_is_folder(copy);
    free(copy);
    if (failed) {
        cli_error("%s: cannot create the output folder", path);
        return EXIT_OUTPUT;
    }
    return EXIT_OK;
}

char *cli_batch_path(const char *dir, const char *in, const char *ext)
{
    const char *name = wm_path_file_name(in);
    const char *dot = strrchr(name, '.');
    size_t stem = dot && dot != name ? (size_t)(dot - name) : strlen(name);
    size_t size = strlen(dir) + stem + strlen(ext) + 3;
    char *path = malloc(size);
    if (path)
        snprintf(path, size, "%s/%.*s.%s", dir, (int)stem, name, ext);
    return path;
}

int cli_refuse_colliding_outputs(const char *dir, const char *const *inputs, int count, const char *ext)
{
    char **outs = calloc((size_t)count, sizeof *outs);
    int code = outs ? EXIT_OK : EXIT_OUTPUT;
    for (int i = 0; !code && i < count; i++)
        if (!(outs[i] = cli_batch_path(dir, inputs[i], ext)))
            code = EXIT_OUTPUT;
    for (int i = 0; !code && i < count; i++)
        for (int j = 0; !code && j < i; j++)
            if (strcmp(outs[i], outs[j]) == 0) {
                cli_error("%s: both %s and %s would be written there; convert them separately", outs[i], inputs[j],
                          inputs[i]);
                code = EXIT_OUTPUT;
            }
    for (int i = 0; outs && i < count; i++)
        free(outs[i]);
    free(outs);
    return code;
}

static int same_letters(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if ((*a | 0x20) != (*b | 0x20))
            return 0;
    return *a == *b;
}

int cli_require_extension(const char *command, const char *path, const char *ext)
{
    if (is_stdio(path))
        return EXIT_OK;
    const char *name = wm_path_file_name(path);
    const char *dot = strrchr(name, '.');
    if (dot && same_letters(dot + 1, ext))
        return EXIT_OK;
    if (dot)
        cli_error("%s: walkmesh cannot write .%s files; %s writes .%s", path, dot + 1, command, ext);
    else
        cli_error("%s: no extension; %s writes .%s", path, command, ext);
    return EXIT_FORMAT;
}
