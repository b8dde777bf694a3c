/* Archives given where files are: `info ARCHIVE` lists what walkmesh reads in it, and batch
 * commands (convert -o DIR, validate) work on every walkmesh member. A path into an archive
 * ("mod.mod/room.wok") needs nothing here: the library reads it as a file. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_open_archive(wm_ctx *ctx, const char *path, wm_archive **out)
{
    *out = NULL;
    if (strcmp(path, "-") == 0 || !wm_file_exists(path))
        return 0;
    wm_ctx quiet = *ctx;
    quiet.warn = NULL;
    wm_result r = wm_archive_open(&quiet, path, out);
    if (r == WM_ERR_NOT_FORMAT)
        return 0;
    if (r) {
        wm_error(ctx, r, "%s", quiet.message);
        return -1;
    }
    return 1;
}

int cli_output_taken(const char *path)
{
    if (wm_file_exists(path))
        return 1;
    const char *member = NULL;
    size_t archive_length = wm_archive_split_path(path, &member);
    char *archive_path = archive_length ? malloc(archive_length + 1) : NULL;
    if (!archive_path)
        return 0;
    memcpy(archive_path, path, archive_length);
    archive_path[archive_length] = '\0';
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_archive *archive = NULL;
    int taken = wm_archive_open(&ctx, archive_path, &archive) == WM_OK &&
                wm_archive_find(archive, member, strlen(member)) != UINT32_MAX;
    wm_archive_close(&ctx, archive);
    free(archive_path);
    return taken;
}

/* The member types batch commands work on: walkmeshes, not models or layouts (a room's .mdl
 * and .wok would land on one output name). */
static int is_walkmesh_member(const char *name)
{
    static const char *const kinds[] = {"wok", "pwk", "dwk", "trn", "trx", "wmo"};
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof kinds / sizeof kinds[0]; i++)
        if (wm_name_compare(dot + 1, kinds[i]) == 0)
            return 1;
    return 0;
}

/* "ARCHIVE/member" (member NULL: the archive's path alone), malloc'ed. */
static char *member_path(const char *archive, const char *member)
{
    size_t a = strlen(archive), b = member ? strlen(member) + 1 : 0;
    char *path = malloc(a + b + 1);
    if (path) {
        memcpy(path, archive, a);
        if (member) {
            path[a] = '/';
            memcpy(path + a + 1, member, b);
        }
        path[a + b] = '\0';
    }
    return path;
}

/* Appends an input (NULL: out of memory) to the expanded list. */
static int push_input(cli_args *args, int *capacity, char *path)
{
    if (!path)
        return EXIT_OUTPUT;
    if (args->member_path_count == *capacity) {
        int grown = *capacity ? 2 * *capacity : 64;
        char **list = realloc(args->member_paths, (size_t)grown * sizeof *list);
        if (!list) {
            free(path);
            return EXIT_OUTPUT;
        }
        args->member_paths = list;
        *capacity = grown;
    }
    args->member_paths[args->member_path_count++] = path;
    return EXIT_OK;
}

/* The archive's walkmesh members, in its order. */
static int push_members(cli_args *args, int *capacity, wm_archive *archive, const char *path)
{
    int before = args->member_path_count, code = EXIT_OK;
    for (uint32_t i = 0; i < wm_archive_member_count(archive) && !code; i++) {
        const char *name = wm_archive_member_at(archive, i)->name;
        if (is_walkmesh_member(name))
            code = push_input(args, capacity, member_path(path, name));
    }
    if (!code && args->member_path_count == before) {
        cli_error("%s: no walkmesh member (.wok, .pwk, .dwk, .trn, .trx, .wmo) in it", path);
        code = EXIT_INPUT;
    }
    return code;
}

int cli_expand_archives(cli_args *args)
{
    wm_ctx ctx;
    cli_ctx_init(&ctx, 1);
    int capacity = 0, archives = 0, code = EXIT_OK;
    for (int i = 0; i < args->input_count && !code; i++) {
        wm_archive *archive = NULL;
        int is = cli_open_archive(&ctx, args->inputs[i], &archive);
        if (is < 0)
            return cli_fail(&ctx, WM_ERR_CORRUPT, 0);
        if (is) {
            archives++;
            code = push_members(args, &capacity, archive, args->inputs[i]);
            wm_archive_close(&ctx, archive);
        } else {
            code = push_input(args, &capacity, member_path(args->inputs[i], NULL));
        }
    }
    if (code || !archives)
        return code;
    const char **inputs = realloc((void *)args->inputs, ((size_t)args->member_path_count + 1) * sizeof *inputs);
    if (!inputs)
        return EXIT_OUTPUT;
    for (int i = 0; i < args->member_path_count; i++)
        inputs[i] = args->member_paths[i];
    args->inputs = inputs;
    args->input_count = args->member_path_count;
    return EXIT_OK;
}

static void list_member_text(wm_buffer *out, const char *name, const wm_format *format, const wm_mesh *mesh,
                             const char *error)
{
    if (error)
        wm_put_text(out, "  %-24s %-8s %s\n", name, format ? format->name : "-", error);
    else
        wm_put_text(out, "  %-24s %-8s %u triangles\n", name, format->name, mesh->triangle_count);
}

static void list_member_json(wm_buffer *out, int first, const char *name, const wm_format *format,
                             const wm_mesh *mesh, const char *error)
{
    wm_put_text(out, "%s{\"member\": ", first ? "" : ", ");
    wm_put_json_string(out, name);
    wm_put_text(out, ", \"format\": \"%s\", ", format ? format->name : "");
    if (error) {
        wm_put_text(out, "\"error\": ");
        wm_put_json_string(out, error);
    } else {
        wm_put_text(out, "\"triangles\": %u", mesh->triangle_count);
    }
    wm_put_text(out, "}");
}

int cli_list_archive(wm_ctx *ctx, const cli_args *args, wm_archive *archive, wm_buffer *out)
{
    const char *path = wm_archive_path(archive);
    uint32_t count = wm_archive_member_count(archive), listed = 0;
    if (args->json) {
        wm_put_text(out, "{\"file\": ");
        wm_put_json_string(out, path);
        wm_put_text(out, ", \"container\": \"%s\", \"members\": %u, \"readable\": [", wm_archive_kind(archive)->name,
                    count);
    } else {
        wm_put_text(out, "file: %s\ncontainer: %s\nmembers: %u\nreadable:\n", path, wm_archive_kind(archive)->name,
                    count);
    }
    for (uint32_t i = 0; i < count; i++) {
        const char *name = wm_archive_member_at(archive, i)->name;
        const wm_format *format = NULL;
        wm_ctx member_ctx = *ctx;
        member_ctx.warn = NULL;
        if (wm_format_by_extension(&member_ctx, name, 0, &format) != WM_OK)
            continue; /* not a file walkmesh reads: counted above, not listed */
        wm_input in;
        wm_mesh mesh;
        wm_mesh_init(&mesh);
        wm_result r = wm_archive_member_input(&member_ctx, archive, i, &in);
        if (!r)
            r = wm_mesh_read_input(&member_ctx, &in, args->mesh.from, &args->mesh.opts, &mesh, NULL, &format);
        const char *error = r ? member_ctx.message : NULL;
        if (args->json)
            list_member_json(out, listed == 0, name, format, &mesh, error);
        else
            list_member_text(out, name, format, &mesh, error);
        wm_mesh_free(ctx, &mesh);
        wm_input_free(ctx, &in); /* a packed or large archive's member is memory of its own */
        wm_archive_release(archive, i); /* a large archive's pages go as its members are read */
        listed++;
    }
    if (args->json)
        wm_put_text(out, "]}\n");
    return EXIT_OK; /* the archive was read; a member that is not a walkmesh says why in the list */
}

static int is_bare_name(const char *path)
{
    return strcmp(path, "-") != 0 && !strchr(path, '/') && !strchr(path, '\\');
}

int cli_check_game_inputs(cli_args *args, int count)
{
    const cli_mesh_options *o = &args->mesh;
    if ((o->module || o->which) && !o->game) {
        cli_error("--module and --which go with --game DIR");
        return EXIT_USAGE;
    }
    if (o->game && !cli_is_folder(o->game))
        return cli_missing_file(o->game);
    for (int i = 0; o->game && i < count; i++) {
        if (!is_bare_name(args->inputs[i]) && wm_input_exists(args->inputs[i]))
            continue; /* a file; a path that is none may be a WoW name ("World\\wmo\\X.wmo") */
        wm_ctx ctx;
        cli_ctx_init(&ctx, 1);
        char *found = NULL;
        wm_result r = wm_game_find(&ctx, o->game, o->module, args->inputs[i], &found);
        char **list = r ? NULL : realloc(args->found_paths, (size_t)(args->found_path_count + 1) * sizeof *list);
        if (!r && !list)
            r = wm_error(&ctx, WM_ERR_NOMEM, "out of memory");
        if (r) {
            wm_free(&ctx, found);
            return cli_fail(&ctx, r, 0);
        }
        if (o->which)
            fprintf(stderr, "%s: %s\n", args->inputs[i], found);
        args->found_paths = list;
        args->found_paths[args->found_path_count] = member_path(found, NULL);
        wm_free(&ctx, found);
        if (!args->found_paths[args->found_path_count])
            return EXIT_OUTPUT;
        args->inputs[i] = args->found_paths[args->found_path_count++];
    }
    return cli_check_inputs(args->inputs, count);
}
