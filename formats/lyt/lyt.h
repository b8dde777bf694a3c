/* The "lyt" format module: a layout read as the area mesh of its rooms. */
#ifndef WM_LYT_H
#define WM_LYT_H

#include "wm_format.h"
#include "wm_layout.h"
#include "wm_names.h"

/* A folder of room files, listed once (on the first room asked for) and indexed without
 * case, so that an area of many rooms costs one listing, not probes per room and spelling. */
typedef struct lyt_room_folder {
    wm_ctx *ctx;
    const char *folder;
    char **entries; /* its .wok and .mdl file names, sorted */
    uint32_t count, capacity;
    wm_name_index index;
    int listed; /* 0 not yet, 1 listed, -1 cannot be listed (every room is missing), -2 out of memory */
} lyt_room_folder;

void lyt_room_folder_init(wm_ctx *ctx, const char *folder, lyt_room_folder *out);
void lyt_room_folder_free(lyt_room_folder *folder);
/* A wm_room_loader over a folder (user: a lyt_room_folder): the room's <name>.wok (any
 * case), else its <name>.mdl placed at the room's layout position; WM_ERR_IO when neither
 * is there. The name must be one safe file name (wm_name_check): nothing outside the folder
 * is read. */
wm_result lyt_load_room_file(wm_ctx *ctx, void *user, const char *room, const float position[3], wm_mesh *out);
/* wm_area_assemble with the rooms in folder. */
wm_result lyt_assemble_in(wm_ctx *ctx, const wm_layout *layout, const char *folder, wm_mesh *out);
/* The same for a layout read from an archive (user: its wm_input): rooms are its members. */
wm_result lyt_load_room_beside(wm_ctx *ctx, void *user, const char *room, const float position[3], wm_mesh *out);
/* Reads and parses a layout file. */
wm_result lyt_read_file(wm_ctx *ctx, const char *path, wm_layout *out);
/* A room model's placement from the reading options: --room-offset X,Y,Z, or
 * --layout AREA.lyt and the position of the room named `room` (case-insensitive)
 * in it; both at once is WM_ERR_OPTION, a room the layout lacks WM_ERR_INVALID.
 * *given = 0 when neither option is there. */
wm_result lyt_room_placement(wm_ctx *ctx, const wm_options *opts, const char *room, double out[3], int *given);
/* The one warning of a room model read without placement, naming both options. */
void lyt_warn_unplaced(wm_ctx *ctx, const char *source, const char *room);
/* Adds the room's layout position to every vertex (each within WM_COORD_LIMIT). */
wm_result lyt_move_room(wm_ctx *ctx, wm_mesh *mesh, const double offset[3], const char *room);
/* --geometry walkmesh|render (room models): *render = 1 for render meshes. */
wm_result lyt_geometry_option(wm_ctx *ctx, const wm_options *opts, int *render);
/* The folder part of a path ("." when none), allocated (wm_free). */
wm_result lyt_folder_of(wm_ctx *ctx, const char *path, char **out);

extern const wm_format wm_format_lyt;

#endif
