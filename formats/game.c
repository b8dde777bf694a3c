/* A game folder resolved the way the games resolve a resource name: the override folder first,
 * then the module being played (its .mod, else its .rim and _s.rim), then the key's BIFs. Folder
 * and file names are matched without regard to case, as the games (on Windows) do. */
#include "archive_internal.h"
#include "wm_io.h"
#include "wm_platform.h"

#include <stdlib.h>
#include <string.h>

wm_result wm_game_find_in_data(wm_ctx *ctx, const char *game, const char *name, char **out_path);

static int same_name(const char *a, const char *b) { return wm_name_compare(a, b); }

/* folder/<the entry named like name, in any case>, or NULL. */
static char *entry_in(wm_ctx *ctx, const char *folder, const char *name)
{
    if (!folder)
        return NULL;
    char *found = wm_platform_folder_entry(folder, name, same_name), *path = NULL;
    if (found && wm_path_join(ctx, folder, found, NULL, &path) != WM_OK)
        path = NULL;
    free(found);
    return path;
}

/* "archive/member" when the archive at path holds name; NULL when it does not (or is not there).
 * An archive that cannot be read is an error: the game would not skip it either. */
static wm_result member_of(wm_ctx *ctx, const char *path, const char *name, char **out)
{
    *out = NULL;
    if (!path || wm_platform_path_kind(path) != WM_PATH_FILE)
        return WM_OK;
    wm_archive *archive = NULL;
    wm_result r = wm_archive_open(ctx, path, &archive);
    if (r)
        return r;
    uint32_t index = wm_archive_find(archive, name, strlen(name));
    if (index != UINT32_MAX)
        r = wm_path_join(ctx, path, wm_archive_member_at(archive, index)->name, NULL, out);
    wm_archive_close(ctx, archive);
    return r;
}

/* The module's archives in the order the game reads them: NAME.mod, else NAME.rim, NAME_s.rim. */
static wm_result in_module(wm_ctx *ctx, const char *modules, const char *module, const char *name, char **out)
{
    static const char *const forms[][2] = {{"", "mod"}, {"", "rim"}, {"_s", "rim"}};
    wm_result r = WM_OK;
    int mod_found = 0;
    for (int k = 0; k < 3 && !r && !*out; k++) {
        char file[WM_NAME_MAX_COMPONENT + 8];
        snprintf(file, sizeof file, "%s%s.%s", module, forms[k][0], forms[k][1]);
        char *path = entry_in(ctx, modules, file);
        if (k > 0 && mod_found) { /* a .mod replaces the module's .rim files */
            wm_free(ctx, path);
            break;
        }
        mod_found |= k == 0 && path != NULL;
        r = member_of(ctx, path, name, out);
        wm_free(ctx, path);
    }
    return r;
}

wm_result wm_game_find(wm_ctx *ctx, const char *game, const char *module, const char *name, char **out_path)
{
    *out_path = NULL;
    if (!game || !name)
        return wm_error(ctx, WM_ERR_INVALID, "no %s given", game ? "resource name" : "game folder");
    /* WoW names are paths in its archives ("World\\wmo\\X.wmo"): only its Data folder holds them */
    int path_name = strpbrk(name, "/\\") != NULL;
    wm_result r = wm_name_check(ctx, name, strlen(name), path_name ? WM_NAME_RELATIVE : WM_NAME_COMPONENT,
                                "a resource name");
    if (!r && module)
        r = wm_name_check(ctx, module, strlen(module), WM_NAME_COMPONENT, "a module name");
    if (r)
        return r;
    char *override = entry_in(ctx, game, "override"), *modules = entry_in(ctx, game, "modules");
    char *key = entry_in(ctx, game, "chitin.key"), *file = entry_in(ctx, override, name);
    if (file && !path_name && wm_platform_path_kind(file) == WM_PATH_FILE) {
        *out_path = file;
        file = NULL;
    }
    if (!*out_path && module && modules && !path_name)
        r = in_module(ctx, modules, module, name, out_path);
    if (!r && !*out_path && !path_name)
        r = member_of(ctx, key, name, out_path);
    if (!r && !*out_path) /* NWN2's zips, WoW's MPQs (formats/game_data.c) */
        r = wm_game_find_in_data(ctx, game, name, out_path);
    if (!r && !*out_path)
        r = wm_error(ctx, WM_ERR_IO, "%s: not in the game folder %s (override%s%s, chitin.key, Data)", name, game,
                     module ? ", the module " : "", module ? module : "");
    wm_free(ctx, file);
    wm_free(ctx, override);
    wm_free(ctx, modules);
    wm_free(ctx, key);
    return r;
}
