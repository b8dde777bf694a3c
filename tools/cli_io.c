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

/* <stem of in's file name>.<ext> as one safe file name (wm_name_sanitise: separators and
 * characters Windows refuses become '_'; a device name or "." refused, naming the input). */
static wm_result batch_file_name(wm_ctx *ctx, const char *in, const char *ext, char **out)
{
    const char *name = wm_path_file_name(in);
    const char *dot = strrchr(name, '.');
    size_t stem = dot && dot != name ? (size_t)(dot - name) : strlen(name), n = stem + strlen(ext) + 1;
    char *wanted = malloc(n + 1);
    if (!wanted)
        return wm_error(ctx, WM_ERR_NOMEM, "out of memory");
    snprintf(wanted, n + 1, "%.*s.%s", (int)stem, name, ext);
    wm_result r = wm_name_sanitise(ctx, wanted, n, in, out);
    free(wanted);
    return r;
}

char *cli_batch_path(wm_ctx *ctx, const char *dir, const char *in, const char *ext)
{
    char *name = NULL, *path = NULL;
    if (batch_file_name(ctx, in, ext, &name) == WM_OK)
        wm_path_join(ctx, dir, name, NULL, &path);
    wm_free(ctx, name);
    return path;
}

static const char *batch_name_of(const void *user, uint32_t item, size_t *out_length)
{
    char *const *names = user;
    *out_length = strlen(names[item]);
    return names[item];
}

int cli_refuse_colliding_outputs(const char *dir, const char *const *inputs, int count, const char *ext)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    char **names = calloc((size_t)count + 1, sizeof *names);
    wm_result r = names ? WM_OK : wm_error(&ctx, WM_ERR_NOMEM, "out of memory");
    for (int i = 0; !r && i < count; i++)
        r = batch_file_name(&ctx, inputs[i], ext, &names[i]);
    wm_name_index index = {0};
    uint32_t twice[2] = {UINT32_MAX, UINT32_MAX};
    if (!r)
        r = wm_name_index_build(&ctx, &index, (uint32_t)count, batch_name_of, names, twice);
    if (!r && twice[0] != UINT32_MAX) /* one file where names ignore case (Windows, macOS) */
        r = wm_error(&ctx, WM_ERR_EXISTS, "%s/%s: both %s and %s would be written there; convert them separately", dir,
                     names[twice[1]], inputs[twice[0]], inputs[twice[1]]);
    if (r)
        cli_error("%s", wm_ctx_message(&ctx));
    wm_name_index_free(&ctx, &index);
    for (int i = 0; names && i < count; i++)
        wm_free(&ctx, names[i]);
    free(names);
    return r ? EXIT_OUTPUT : EXIT_OK;
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
