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
    const char *member = NULL;
    if (!folder && layout_path && wm_archive_split_path(layout_path, &member)) {
        wm_input in; /* a layout in an archive: its rooms are the archive's members */
        wm_result r = wm_input_load(ctx, layout_path, &in);
        if (!r) r = wm_area_assemble(ctx, layout, lyt_load_room_beside, &in, out);
        wm_input_free(ctx, &in);
        return r;
    }
    char *beside = NULL;
    wm_result r = folder ? WM_OK : lyt_folder_of(ctx, layout_path ? layout_path : "", &beside);
    if (!r) r = lyt_assemble_in(ctx, layout, folder ? folder : beside, out);
    else wm_mesh_init(out);
    wm_free(ctx, beside);
    return r;
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

/* One room as the bytes of its .wok, into the folder sink under <room>.wok. */
static wm_result put_room(wm_ctx *ctx, const wm_mesh *room, const char *name, wm_sink *sink)
{
    bwm_file file;
    wm_buffer bytes;
    char *file_name = NULL;
    wm_result r = bwm_from_mesh_exact(ctx, room, BWM_TYPE_AREA, BWM_PLANES_BIOWARE, NULL, &file);
    if (r) return r;
    r = bwm_serialize(ctx, &file, &bytes);
    bwm_file_free(ctx, &file);
    if (r) return r;
    r = wm_path_join(ctx, NULL, name, "wok", &file_name);
    if (!r) r = wm_sink_write_file(sink, file_name, bytes.data, bytes.size);
    wm_free(ctx, file_name);
    wm_buffer_free(&bytes);
    return r;
}

wm_result wm_area_save_rooms(wm_ctx *ctx, const wm_layout *layout, const wm_mesh *rooms, const char *folder,
                             int overwrite)
{
    wm_name_index index;
    wm_result r = wm_layout_check_rooms(ctx, layout, &index);
    wm_name_index_free(ctx, &index);
    wm_sink *sink = NULL;
    if (!r) r = wm_sink_open_folder(ctx, folder, overwrite, &sink);
    for (uint32_t i = 0; !r && i < layout->room_count; i++)
        if (rooms[i].triangle_count) r = put_room(ctx, &rooms[i], layout->rooms[i].name, sink);
    if (!r) r = wm_sink_commit(sink);
    wm_sink_close(sink);
    return r;
}
