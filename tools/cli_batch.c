/* Several inputs, one command: every unit on the library's threads (wm_parallel_for), each
 * with its own context. A unit's messages are printed in one block with its progress line as
 * soon as it finishes; what it prints for standard output is kept and printed in input order
 * at the end, so results (JSON arrays above all) do not depend on the thread count. */
#include "cli.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct unit {
    wm_ctx ctx;
    wm_buffer out;      /* standard output text */
    wm_buffer messages; /* warnings, then the error */
    int code;
} unit;

typedef struct batch {
    const cli_args *args;
    const char *const *labels;
    cli_batch_fn fn;
    void *user;
    unit *units;
    int count;
    atomic_uint done;
} batch;

static void keep_warning(void *user, const char *message)
{
    unit *u = user;
    wm_put_text(&u->messages, "walkmesh: warning: %s\n", message);
}

static void print_block(batch *b, unit *u, int index)
{
    unsigned done = atomic_fetch_add(&b->done, 1) + 1;
    wm_buffer block;
    wm_buffer_init(&block, &u->ctx);
    if (!b->args->quiet)
        wm_put_text(&block, "[%u/%d] %s\n", done, b->count, b->labels[index]);
    if (u->messages.size)
        wm_put_bytes(&block, u->messages.data, u->messages.size);
    if (u->code)
        wm_put_text(&block, "walkmesh: %s\n", u->ctx.message[0] ? u->ctx.message : "failed");
    if (block.size)
        fwrite(block.data, 1, block.size, stderr); /* one call: blocks of two threads never mix */
    wm_buffer_free(&block);
}

static void run_unit(void *user, size_t index)
{
    batch *b = user;
    unit *u = &b->units[index];
    wm_ctx_init(&u->ctx);
    if (b->args->mesh.table_loaded)
        u->ctx.surfaces = &b->args->mesh.table;
    wm_buffer_init(&u->out, &u->ctx);
    wm_buffer_init(&u->messages, &u->ctx);
    if (!b->args->quiet && !b->args->json) {
        u->ctx.warn = keep_warning;
        u->ctx.warn_user = u;
    }
    u->code = b->fn(b->user, (int)index, &u->ctx, &u->out);
    print_block(b, u, (int)index);
    wm_buffer_free(&u->messages);
}

static int worst(int a, int b)
{
    return b > a ? b : a;
}

/* Standard output of every unit, in input order; several JSON values make one array. */
static int print_results(const batch *b)
{
    int code = EXIT_OK, failed = 0, in_array = b->args->json && b->count > 1, items = 0;
    if (in_array)
        fputs("[", stdout);
    for (int i = 0; i < b->count; i++) {
        unit *u = &b->units[i];
        code = worst(code, u->code);
        failed += u->code != EXIT_OK;
        size_t size = u->out.size;
        if (in_array && size && u->out.data[size - 1] == '\n')
            size--;
        if (in_array && size)
            fputs(items++ ? ",\n" : "\n", stdout);
        if (size)
            fwrite(u->out.data, 1, size, stdout);
        wm_buffer_free(&u->out);
    }
    if (in_array)
        fputs("\n]\n", stdout);
    fflush(stdout);
    if (failed)
        cli_error("%s: %d of %d files done, %d failed", b->args->spec->name, b->count - failed, b->count, failed);
    return code;
}

/* One input: warnings as they come, the error after them, nothing kept. */
static int run_single(const cli_args *args, cli_batch_fn fn, void *user)
{
    wm_ctx ctx;
    cli_ctx_init(&ctx, args->quiet || args->json);
    if (args->mesh.table_loaded)
        ctx.surfaces = &args->mesh.table;
    wm_buffer out;
    wm_buffer_init(&out, &ctx);
    int code = fn(user, 0, &ctx, &out);
    cli_progress_end();
    if (code)
        cli_error("%s", ctx.message[0] ? ctx.message : "failed");
    if (out.size)
        fwrite(out.data, 1, out.size, stdout);
    wm_buffer_free(&out);
    return code;
}

int cli_batch_run(const cli_args *args, int count, const char *const *labels, cli_batch_fn fn, void *user)
{
    if (count == 1)
        return run_single(args, fn, user);
    batch b = {args, labels, fn, user, calloc((size_t)count, sizeof(unit)), count, 0};
    if (!b.units) {
        cli_error("out of memory");
        return EXIT_OUTPUT;
    }
    atomic_init(&b.done, 0);
    wm_parallel_for(args->spec->features & CLI_JOBS ? cli_jobs(args) : 1, (size_t)count, run_unit, &b);
    int code = print_results(&b);
    free(b.units);
    return code;
}

int cli_run_over_inputs(const cli_spec *spec, int argc, char **argv, cli_batch_fn fn)
{
    cli_args args;
    int code = cli_parse(spec, argc, argv, &args);
    if (code >= 0)
        return code;
    wm_ctx ctx;
    cli_ctx_init(&ctx, args.quiet || args.json);
    code = cli_mesh_options_apply(&args.mesh, &ctx);
    if (!code)
        code = cli_check_game_inputs(&args, args.input_count);
    if (!code && (spec->features & CLI_ARCHIVES))
        code = cli_expand_archives(&args);
    if (!code)
        code = cli_batch_run(&args, args.input_count, args.inputs, fn, &args);
    cli_args_free(&args, &ctx);
    return code;
}
