/* The public file calls of layouts and areas: thin wrappers over the lyt and
 * bwm modules' own, so clients of walkmesh.h need no module header. */
#include "lyt/lyt.h"
#include "wm_archive.h"
#include "bwm/bwm.h"

wm_result wm_layout_load(wm_ctx *ctx, const char *path, wm_layout *out)
{
    return lyt_read_file(ctx, path, out);
}

wm_result wm_area_assemble_files(wm_ctx *ctx, const wm_layout *layout, const char *layout_path,
                                        const char *folder, wm_mesh *out)
{
    char beside[1024];
    const char *member = NULL;
    if (!folder && layout_path && wm_archive_split_path(layout_path, &member)) {
        wm_input in; /* a layout in an archive: its rooms are the archive's members */
        wm_result r = wm_input_load(ctx, layout_path, &in);
        if (!r) r = wm_area_assemble(ctx, layout, lyt_load_room_beside, &in, out);
        wm_input_free(ctx, &in);
        return r;
    }
    if (!folder) {
        lyt_folder_of(layout_path ? layout_path : "", beside, sizeof beside);
        folder = beside;
    }
    return wm_area_assemble(ctx, layout, lyt_load_room_file, (void *)folder, out);
}

wm_result wm_room_save_exact(wm_ctx *ctx, const wm_mesh *room, const char *path, int overwrite)
{
    bwm_file file;
    wm_result r = bwm_from_mesh_exact(ctx, room, BWM_TYPE_AREA, BWM_PLANES_BIOWARE, NULL, &file);
    if (r) return r;
    r = bwm_write_file(ctx, &file, path, overwrite);
    bwm_file_free(ctx, &file);
    return r;
}
