/* The "lyt" format module: a layout read as the area mesh of its rooms. */
#ifndef WM_LYT_H
#define WM_LYT_H

#include "wm_format.h"
#include "wm_layout.h"

/* A wm_room_loader over a folder (user: the folder's path): the room's
 * <name>.wok (as written, lower or upper case), else its <name>.mdl placed at
 * the room's layout position; WM_ERR_IO when neither is there. */
wm_result lyt_load_room_file(wm_ctx *ctx, void *user, const char *room, const float position[3], wm_mesh *out);
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
/* The folder part of a path ("." when none), into out. */
void lyt_folder_of(const char *path, char *out, size_t size);

extern const wm_format wm_format_lyt;

#endif
