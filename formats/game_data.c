/* The archives of a game's Data folder, in the order the game reads them, for wm_game_find:
 * NWN2's zips (the base game, then Mask of the Betrayer's _x1, then Storm of Zehir's _x2, as
 * xoreos indexes them) and WoW's MPQs up to 3.3.5a (the base archives, then patch.MPQ,
 * patch-2.MPQ ... patch-9.MPQ, patch-A.MPQ ... patch-Z.MPQ). Each file is probed by its name (in
 * any case), as the games do; the last archive that holds the name wins, so the search runs
 * from the last. WoW's locale folders (Data/enUS/...) hold no walkmesh and are not searched. */
#include "archive_internal.h"
#include "wm_io.h"
#include "wm_platform.h"

#include <stdlib.h>
#include <string.h>

wm_result wm_game_find_in_data(wm_ctx *ctx, const char *game, const char *name, char **out_path);

static const char *const nwn2_zips[] = {
    "lod-merged.zip",    "nwn2_models.zip",    "walkmesh.zip",    "lod-merged_x1.zip", "nwn2_models_x1.zip",
    "walkmesh_x1.zip",   "lod-merged_x2.zip",  "nwn2_models_x2.zip", "walkmesh_x2.zip",
};

/* 1.12's split archives, 2.x and 3.x's common/expansion/lichking; patches come after. */
static const char *const wow_bases[] = {
    "dbc.MPQ",    "interface.MPQ", "misc.MPQ",    "model.MPQ",     "sound.MPQ",    "speech.MPQ",
    "terrain.MPQ", "texture.MPQ",  "wmo.MPQ",     "common.MPQ",    "common-2.MPQ", "expansion.MPQ",
    "lichking.MPQ",
};

static const char wow_patch_suffixes[] = "23456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

static int same_name(const char *a, const char *b) { return wm_name_compare(a, b); }

/* The member of the archive data/file named name (its whole path, or else its file name), as
 * "archive/member" in *out; nothing when the archive is not there or does not hold it. */
static wm_result find_in(wm_ctx *ctx, const char *data, const char *file, const char *name, char **out)
{
    char *entry = wm_platform_folder_entry(data, file, same_name), *path = NULL;
    wm_result r = entry ? wm_path_join(ctx, data, entry, NULL, &path) : WM_OK;
    free(entry);
    wm_archive *archive = NULL;
    if (!r && path && wm_platform_path_kind(path) == WM_PATH_FILE)
        r = wm_archive_open(ctx, path, &archive);
    uint32_t found = archive ? wm_archive_find(archive, name, strlen(name)) : UINT32_MAX;
    for (uint32_t i = 0; archive && found == UINT32_MAX && i < wm_archive_member_count(archive); i++) {
        const char *member = wm_archive_member_at(archive, i)->name;
        const char *base = member + strlen(member);
        while (base > member && base[-1] != '/' && base[-1] != '\\')
            base--;
        if (wm_name_compare(base, name) == 0) /* a zip's "folder/x.pwk" found as x.pwk */
            found = i;
    }
    if (!r && found != UINT32_MAX)
        r = wm_path_join(ctx, path, wm_archive_member_at(archive, found)->name, NULL, out);
    wm_archive_close(ctx, archive);
    wm_free(ctx, path);
    return r;
}

wm_result wm_game_find_in_data(wm_ctx *ctx, const char *game, const char *name, char **out_path)
{
    char *found = wm_platform_folder_entry(game, "Data", same_name), *data = NULL;
    wm_result r = found ? wm_path_join(ctx, game, found, NULL, &data) : WM_OK;
    free(found);
    if (r || !data)
        return r;
    size_t patches = sizeof wow_patch_suffixes - 1;
    for (size_t k = patches + 1; !r && !*out_path && k-- > 0;) { /* patch-Z.MPQ first, patch.MPQ last */
        char file[16];
        if (k == 0)
            snprintf(file, sizeof file, "patch.MPQ");
        else
            snprintf(file, sizeof file, "patch-%c.MPQ", wow_patch_suffixes[k - 1]);
        r = find_in(ctx, data, file, name, out_path);
    }
    for (size_t k = sizeof wow_bases / sizeof wow_bases[0]; !r && !*out_path && k-- > 0;)
        r = find_in(ctx, data, wow_bases[k], name, out_path);
    for (size_t k = sizeof nwn2_zips / sizeof nwn2_zips[0]; !r && !*out_path && k-- > 0;)
        r = find_in(ctx, data, nwn2_zips[k], name, out_path);
    wm_free(ctx, data);
    return r;
}
