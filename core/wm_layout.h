/* KotOR area layouts (.lyt) and the rooms of an area: read and write a
 * layout, assemble an area's rooms into one mesh (one object per room, in
 * the layout's order, so a transition's room index is its object's index),
 * split an area mesh back into rooms with the transitions where walkable
 * faces of two rooms meet, and move, rotate or mirror one room. */
#ifndef WM_LAYOUT_H
#define WM_LAYOUT_H

#include "wm_api.h"

#include "wm_context.h"
#include "wm_io.h"
#include "wm_mesh.h"
#include "wm_names.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_LAYOUT_NAME 64
/* The most rooms an area holds, for assemble and split alike: a room is an object of the
 * area mesh (16-bit), and 0xFFFF is WM_ALL_ROOMS. */
#define WM_LAYOUT_MAX_ROOMS 65535u

/* A room, track or obstacle: a model name at a position. */
typedef struct wm_layout_place {
    char name[WM_LAYOUT_NAME];
    float position[3];
} wm_layout_place;

typedef struct wm_layout_doorhook {
    char room[WM_LAYOUT_NAME];
    char door[WM_LAYOUT_NAME];
    int32_t unknown;       /* the 0 written after the door's name */
    float position[3];
    float orientation[4];  /* the four values as written */
} wm_layout_doorhook;

typedef struct wm_layout {
    char dependency[WM_LAYOUT_NAME * 2]; /* "filedependancy" (the .max source), may be empty */
    wm_layout_place *rooms;     uint32_t room_count;
    wm_layout_place *tracks;    uint32_t track_count;
    wm_layout_place *obstacles; uint32_t obstacle_count;
    wm_layout_doorhook *doorhooks; uint32_t doorhook_count;
} wm_layout;

WM_API void wm_layout_init(wm_layout *layout);
WM_API void wm_layout_free(const wm_ctx *ctx, wm_layout *layout);
/* Parses layout text (any spacing, tabs, CR LF, no final newline). Errors name the line. */
WM_API wm_result wm_layout_parse(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name, wm_layout *out);
/* Text in the games' layout form; floats with 9 digits (read back bit-exact). */
WM_API wm_result wm_layout_serialize(wm_ctx *ctx, const wm_layout *layout, wm_buffer *out);
/* Index of the room (names compared as the games do: wm_name_compare), -1 when absent. */
WM_API int32_t wm_layout_find_room(const wm_layout *layout, const char *name);
/* The rooms as file names, before any becomes a path: at most WM_LAYOUT_MAX_ROOMS
 * (WM_ERR_LIMIT), each one safe file name (wm_name_check: no "..", separator, drive, NUL,
 * ...; WM_ERR_CORRUPT naming the room), no two the same under wm_name_compare (WM_ERR_CORRUPT
 * naming both). On success *index finds a room by name in constant time (free it with
 * wm_name_index_free); on failure it is empty. Assemble and split call it. */
WM_API wm_result wm_layout_check_rooms(wm_ctx *ctx, const wm_layout *layout, wm_name_index *index);

/* Room edits on a mesh whose object `object` is one room. Transitions on
 * its edges follow their edges. */
WM_API wm_result wm_room_move(wm_ctx *ctx, wm_mesh *mesh, uint16_t object, const float delta[3]);
/* Rotates about the vertical axis through pivot (x, y) by degrees (counter-clockwise). */
WM_API wm_result wm_room_rotate_z(wm_ctx *ctx, wm_mesh *mesh, uint16_t object, double degrees, const float pivot[2]);
/* Mirrors across the plane axis = at (axis 0: x, 1: y); the winding is reversed
 * back so faces keep facing up, and each transition stays on its edge. */
WM_API wm_result wm_room_mirror(wm_ctx *ctx, wm_mesh *mesh, uint16_t object, int axis, float at);
/* The object's index by name (case-insensitive), -1 when absent. */
WM_API int32_t wm_mesh_find_object(const wm_mesh *mesh, const char *name);
/* Room links of the object's faces (every face when object is WM_ALL_ROOMS):
 * a link to room i becomes map[i] (links >= count are kept). */
#define WM_ALL_ROOMS 0xFFFFu
WM_API void wm_room_remap_links(wm_mesh *mesh, uint16_t object, const int32_t *map, uint32_t count);

/* Reads a room's walkmesh: the callback gets the room's name and its
 * layout position and fills *out (absolute coordinates), or returns
 * WM_ERR_IO when the room has none. */
typedef wm_result (*wm_room_loader)(wm_ctx *ctx, void *user, const char *room, const float position[3], wm_mesh *out);
/* One mesh of all rooms: object i is room i of the layout (empty when the
 * loader finds nothing or a walkmesh with no faces: a warning). The rooms are checked
 * first (wm_layout_check_rooms): the loader only ever gets safe, distinct names. */
WM_API wm_result wm_area_assemble(wm_ctx *ctx, const wm_layout *layout, wm_room_loader load, void *user, wm_mesh *out);
/* rooms[i] (layout->room_count meshes) gets the triangles of the area's object
 * named like room i (wm_name_compare; the rooms checked as for assemble); an edge of a walkable face that meets a walkable face of
 * another room (same two points within tolerance) links to that room's index;
 * links already on an edge are kept. Objects that name no room are warned about. */
WM_API wm_result wm_area_split(wm_ctx *ctx, const wm_mesh *area, const wm_layout *layout, float tolerance,
                               wm_mesh *rooms);

/* Files. Reads and parses a layout file (errors name the path and line). */
WM_API wm_result wm_layout_load(wm_ctx *ctx, const char *path, wm_layout *out);
/* wm_area_assemble with each room's <name>.wok or else its <name>.mdl at the room's
 * layout position, found in folder (NULL: the layout file's own folder) under any case
 * (the folder is listed once); nothing outside that folder is read. */
WM_API wm_result wm_area_assemble_files(wm_ctx *ctx, const wm_layout *layout, const char *layout_path,
                                        const char *folder, wm_mesh *out);
/* One room's mesh as a KotOR area walkmesh (.wok) built without welding (every
 * vertex kept in place and order), written all or nothing; with overwrite == 0
 * an existing path is refused (WM_ERR_EXISTS). */
WM_API wm_result wm_room_save_exact(wm_ctx *ctx, const wm_mesh *room, const char *path, int overwrite);

/* Every room of a split with faces as folder/<room>.wok (built as wm_room_save_exact
 * builds it), all in one output transaction: every file is placed, or none (an error, an
 * existing file without overwrite, two names that are one file: the folder as it was). The
 * folder must exist; the room names are checked first (wm_layout_check_rooms). */
WM_API wm_result wm_area_save_rooms(wm_ctx *ctx, const wm_layout *layout, const wm_mesh *rooms, const char *folder,
                                    int overwrite);

#ifdef __cplusplus
}
#endif
#endif
