/* Where a room model's walkmesh goes: the game's .wok holds the room at its
 * position in the area's layout, which a model does not know. The reading
 * options --layout AREA.lyt (the room found by the model's name) or
 * --room-offset X,Y,Z give it; without either the walkmesh stays in the
 * room's own space, and the reader says so. */
#include "lyt/lyt.h"
#include "bwm/bwm.h"
#include "wm_geometry.h"

#include <math.h>
#include <string.h>

static wm_result layout_position(wm_ctx *ctx, const char *path, const char *room, double out[3])
{
    wm_layout layout;
    wm_result r = lyt_read_file(ctx, path, &layout);
    if (r) return r;
    int32_t index = wm_layout_find_room(&layout, room);
    if (index < 0)
        r = wm_error(ctx, WM_ERR_INVALID, "--layout %s: no room named %s among its %u rooms (rooms are found by the "
                     "model's name)", path, room, layout.room_count);
    for (int k = 0; !r && k < 3; k++) {
        out[k] = layout.rooms[index].position[k];
        if (!isfinite(out[k]) || fabs(out[k]) > WM_COORD_LIMIT)
            r = wm_error(ctx, WM_ERR_INVALID, "--layout %s: room %s lies at %g, beyond the bound of 1e7 game units", path,
                         room, out[k]);
    }
    wm_layout_free(ctx, &layout);
    return r;
}

wm_result lyt_room_placement(wm_ctx *ctx, const wm_options *opts, const char *room, double out[3], int *given)
{
    const char *layout = opts ? wm_option_get(opts, "layout") : NULL;
    wm_result r = bwm_room_offset_option(ctx, opts, out, given);
    if (r || !layout) return r;
    if (*given)
        return wm_error(ctx, WM_ERR_OPTION, "--layout and --room-offset both place the room: give one of them");
    r = layout_position(ctx, layout, room, out);
    *given = r == WM_OK;
    return r;
}

void lyt_warn_unplaced(wm_ctx *ctx, const char *source, const char *room)
{
    wm_warn(ctx, "%s: the walkmesh of room %s is in the room's own space, not where the game puts it: give "
            "--layout AREA.lyt (its position in the area's layout) or --room-offset X,Y,Z", source, room);
}

wm_result lyt_move_room(wm_ctx *ctx, wm_mesh *mesh, const double offset[3], const char *room)
{
    for (uint32_t i = 0; i < 3 * mesh->vertex_count; i++) {
        double at = mesh->positions[i] + offset[i % 3];
        if (fabs(at) > WM_COORD_LIMIT)
            return wm_error(ctx, WM_ERR_INVALID, "%s: vertex %u moved by the room offset lies at %g, beyond the bound of "
                            "1e7 game units", room, i / 3, at);
        mesh->positions[i] = (float)at;
    }
    return WM_OK;
}

wm_result lyt_geometry_option(wm_ctx *ctx, const wm_options *opts, int *render)
{
    const char *g = opts ? wm_option_get(opts, "geometry") : NULL;
    *render = g && strcmp(g, "render") == 0;
    if (!g || *render || strcmp(g, "walkmesh") == 0) return WM_OK;
    return wm_error(ctx, WM_ERR_OPTION, "--geometry: \"%s\" is not walkmesh or render", g);
}
