/* An area's rooms as one mesh and back. Object i of an assembled area is
 * room i of the layout, so a transition's room index names its room. Room
 * names become file names: both ways check them with the one name guard
 * (core/wm_names.h) and compare them as the games do, without case. */
#include "wm_layout.h"
#include "wm_names.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *room_name_of(const void *user, uint32_t item, size_t *out_length)
{
    const wm_layout *layout = user;
    *out_length = strlen(layout->rooms[item].name);
    return layout->rooms[item].name;
}

wm_result wm_layout_check_rooms(wm_ctx *ctx, const wm_layout *layout, wm_name_index *index)
{
    memset(index, 0, sizeof *index);
    if (layout->room_count > WM_LAYOUT_MAX_ROOMS)
        return wm_error(ctx, WM_ERR_LIMIT, "layout: %u rooms, more than the %u an area holds", layout->room_count,
                        WM_LAYOUT_MAX_ROOMS);
    for (uint32_t i = 0; i < layout->room_count; i++) {
        char what[48];
        snprintf(what, sizeof what, "layout: room %u", i);
        wm_result r = wm_name_check(ctx, layout->rooms[i].name, strlen(layout->rooms[i].name), WM_NAME_COMPONENT, what);
        if (r) return r;
    }
    uint32_t twice[2];
    wm_result r = wm_name_index_build(ctx, index, layout->room_count, room_name_of, layout, twice);
    if (!r && twice[0] != UINT32_MAX)
        r = wm_error(ctx, WM_ERR_CORRUPT, "layout: room %u (%s) is room %u (%s) again: the games ignore case",
                     twice[1], layout->rooms[twice[1]].name, twice[0], layout->rooms[twice[0]].name);
    if (r) wm_name_index_free(ctx, index);
    return r;
}

/* Capacity for at least v vertices and t triangles, doubling: appending room after room
 * copies each element a bounded number of times. */
static wm_result reserve_growing(wm_ctx *ctx, wm_mesh *mesh, uint64_t v, uint64_t t)
{
    if (v > UINT32_MAX || t > UINT32_MAX) return wm_error(ctx, WM_ERR_LIMIT, "area: more than 2^32 elements");
    uint64_t vc = mesh->vertex_capacity, tc = mesh->triangle_capacity;
    if (v > vc) vc = v > 2 * vc ? v : 2 * vc;
    if (t > tc) tc = t > 2 * tc ? t : 2 * tc;
    return wm_mesh_reserve(ctx, mesh, (uint32_t)(vc > UINT32_MAX ? UINT32_MAX : vc),
                           (uint32_t)(tc > UINT32_MAX ? UINT32_MAX : tc));
}

/* Appends a room's triangles as object `object` (its own vertices: rooms never share). */
static wm_result append_room(wm_ctx *ctx, wm_mesh *area, const wm_mesh *room, uint16_t object)
{
    wm_result r = reserve_growing(ctx, area, (uint64_t)area->vertex_count + room->vertex_count,
                                  (uint64_t)area->triangle_count + room->triangle_count);
    if (r) return r;
    uint32_t base = area->vertex_count, t0 = area->triangle_count;
    memcpy(&area->positions[3 * (size_t)base], room->positions, 12 * (size_t)room->vertex_count);
    area->vertex_count += room->vertex_count;
    for (uint32_t i = 0; i < room->triangle_count; i++) {
        for (int k = 0; k < 3; k++) {
            area->indices[3 * (size_t)(t0 + i) + k] = room->indices[3 * (size_t)i + k] + base;
            area->transitions[3 * (size_t)(t0 + i) + k] = room->transitions[3 * (size_t)i + k];
        }
        area->surfaces[t0 + i] = room->surfaces[i];
        area->walkable[t0 + i] = room->walkable[i];
        area->objects[t0 + i] = object;
    }
    area->triangle_count += room->triangle_count;
    return WM_OK;
}

/* Object i named like room i: the names are distinct (checked), so no search. */
static wm_result name_objects(wm_ctx *ctx, const wm_layout *layout, wm_mesh *out)
{
    out->object_names = wm_alloc_array(ctx, (size_t)layout->room_count + 1, sizeof *out->object_names);
    if (!out->object_names) return WM_ERR_NOMEM;
    for (uint32_t i = 0; i < layout->room_count; i++, out->object_count++)
        if (!(out->object_names[i] = wm_strdup(ctx, layout->rooms[i].name))) return WM_ERR_NOMEM;
    return WM_OK;
}

wm_result wm_area_assemble(wm_ctx *ctx, const wm_layout *layout, wm_room_loader load, void *user, wm_mesh *out)
{
    wm_name_index index;
    wm_mesh_init(out);
    wm_result r = wm_layout_check_rooms(ctx, layout, &index);
    wm_name_index_free(ctx, &index);
    if (!r) r = name_objects(ctx, layout, out);
    uint32_t missing = 0;
    for (uint32_t i = 0; !r && i < layout->room_count; i++) {
        wm_mesh room;
        wm_mesh_init(&room);
        r = load(ctx, user, layout->rooms[i].name, layout->rooms[i].position, &room);
        if (r == WM_ERR_IO) { /* no walkmesh for this room: the area has a hole, not an error */
            wm_warn(ctx, "room %u (%s): %s", i, layout->rooms[i].name, wm_ctx_message(ctx));
            missing++;
            r = WM_OK;
        } else if (!r && room.triangle_count == 0) { /* a hole too, however it came */
            wm_warn(ctx, "room %u (%s): its walkmesh has no faces", i, layout->rooms[i].name);
            missing++;
        } else if (!r) {
            r = append_room(ctx, out, &room, (uint16_t)i);
        }
        wm_mesh_free(ctx, &room);
    }
    if (!r && missing == layout->room_count && layout->room_count)
        r = wm_error(ctx, WM_ERR_IO, "layout: no room has a walkmesh (.wok) or a model (.mdl) with faces beside it");
    if (r) wm_mesh_free(ctx, out);
    return r;
}
