/* The single list of containers, which one reads a file, and paths that go into archives:
 * wm_input_load reads "modules/tar_m02aa.mod/m02aa_01a.wok" as that member, so every command
 * and every library call that reads a file reads a member too. */
#include "archive_internal.h"
#include "wm_io.h"
#include "wm_platform.h"

#include <stdlib.h>
#include <string.h>

extern const wm_container wm_container_erf;
extern const wm_container wm_container_rim;
extern const wm_container wm_container_key;
extern const wm_container wm_container_zip;
extern const wm_container wm_container_mpq;

static const wm_container *const containers[] = {
    &wm_container_erf,
    &wm_container_rim,
    &wm_container_key,
    &wm_container_zip,
    &wm_container_mpq,
};

const wm_container *const *wm_containers(size_t *out_count)
{
    *out_count = sizeof containers / sizeof containers[0];
    return containers;
}

const wm_container *wm_container_detect(const wm_input *in)
{
    const wm_container *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < sizeof containers / sizeof containers[0]; i++) {
        int score = containers[i]->probe ? containers[i]->probe(in) : 0;
        if (score > best_score) {
            best = containers[i];
            best_score = score;
        }
    }
    return best;
}

/* The container of the archive's bytes lists its members, which are then checked. */
static wm_result list_archive(wm_ctx *ctx, wm_archive *archive, wm_archive **out)
{
    wm_result r;
    archive->kind = wm_container_detect(&archive->bytes);
    if (!archive->kind)
        r = wm_error(ctx, WM_ERR_NOT_FORMAT, "%s: not an archive walkmesh reads (see 'walkmesh formats')",
                     archive->path);
    else if ((r = archive->kind->list(ctx, archive)) == WM_OK)
        r = wm_archive_finish(ctx, archive);
    else if (strncmp(ctx->message, archive->path, strlen(archive->path)) != 0)
        wm_error_prefix(ctx, archive->path);
    if (r) {
        wm_archive_close(ctx, archive);
        return r;
    }
    *out = archive;
    return WM_OK;
}

wm_result wm_archive_open(wm_ctx *ctx, const char *path, wm_archive **out)
{
    wm_archive *archive = NULL;
    *out = NULL;
    if (!path)
        return wm_error(ctx, WM_ERR_INVALID, "no archive path given");
    wm_result r = wm_archive_create(ctx, path, NULL, &archive);
    return r ? r : list_archive(ctx, archive, out);
}

wm_result wm_archive_open_memory(wm_ctx *ctx, const void *data, size_t size, const char *name, wm_archive **out)
{
    wm_archive *archive = NULL;
    wm_input borrowed;
    *out = NULL;
    if (!data && size)
        return wm_error(ctx, WM_ERR_INVALID, "no archive bytes given");
    wm_input_borrow(&borrowed, data, size, name);
    wm_result r = wm_archive_create(ctx, NULL, &borrowed, &archive);
    return r ? r : list_archive(ctx, archive, out);
}

static int is_folder_separator(char c)
{
#ifdef _WIN32
    if (c == '\\')
        return 1;
#endif
    return c == '/';
}

/* A prefix on the way to a file that names nothing itself: a bare drive ("Z:", which the
 * C library's stat does not find on Windows) or the server of a UNC path ("\\\\server"). */
static int root_part(const char *prefix, size_t length)
{
    if (length == 2 && prefix[1] == ':')
        return 1;
    if (length < 3 || !is_folder_separator(prefix[0]) || !is_folder_separator(prefix[1]))
        return 0;
    for (size_t i = 2; i < length; i++)
        if (is_folder_separator(prefix[i]))
            return 0;
    return 1;
}

size_t wm_archive_split_path(const char *path, const char **out_member)
{
    *out_member = NULL;
    if (!path || strcmp(path, "-") == 0 || wm_platform_path_kind(path) != WM_PATH_MISSING)
        return 0; /* NULL (a binding's None) is the file calls' to refuse */
    size_t length = strlen(path);
    char *prefix = malloc(length + 1);
    if (!prefix)
        return 0;
    size_t found = 0;
    for (size_t i = 1; i + 1 < length && !found; i++) {
        if (!is_folder_separator(path[i]))
            continue;
        memcpy(prefix, path, i);
        prefix[i] = '\0';
        int kind = wm_platform_path_kind(prefix);
        if (kind == WM_PATH_FILE)
            found = i;
        else if (kind == WM_PATH_MISSING && !root_part(prefix, i))
            break; /* nothing further along exists either */
    }
    free(prefix);
    if (found)
        *out_member = path + found + 1;
    return found;
}

int wm_input_exists(const char *path)
{
    const char *member;
    return path && (wm_platform_path_kind(path) != WM_PATH_MISSING || wm_archive_split_path(path, &member) != 0);
}

/* The member of the archive at path[0, archive_length), owning the archive. */
static wm_result load_member(wm_ctx *ctx, const char *path, size_t archive_length, const char *member, wm_input *out)
{
    char *archive_path = wm_alloc_array(ctx, archive_length + 1, 1);
    if (!archive_path)
        return WM_ERR_NOMEM;
    memcpy(archive_path, path, archive_length);
    wm_archive *archive = NULL;
    wm_result r = wm_archive_open(ctx, archive_path, &archive);
    if (r == WM_ERR_NOT_FORMAT) /* "room.wok/x": a file, not a folder or an archive */
        r = wm_error(ctx, WM_ERR_IO, "%s: no such file (%s is a file, not an archive)", path, archive_path);
    wm_free(ctx, archive_path);
    if (r)
        return r;
    uint32_t index = wm_archive_find(archive, member, strlen(member));
    if (index == UINT32_MAX)
        r = wm_error(ctx, WM_ERR_IO, "%s: no such member in %s", path, archive->path);
    if (!r)
        r = wm_archive_member_input(ctx, archive, index, out);
    if (!r)
        r = wm_archive_give_to_input(ctx, archive, out);
    if (r) {
        memset(out, 0, sizeof *out);
        wm_archive_close(ctx, archive);
    }
    return r;
}

wm_result wm_input_load(wm_ctx *ctx, const char *path, wm_input *out)
{
    memset(out, 0, sizeof *out);
    const char *member = NULL;
    size_t archive_length = wm_archive_split_path(path, &member);
    if (!archive_length)
        return wm_input_load_file(ctx, path, out);
    return load_member(ctx, path, archive_length, member, out);
}
