/* An area's rooms as one mesh and back. Object i of an assembled area is
 * room i of the layout, so a transition's room index names its room. */
#include "wm_layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends a room's triangles as object `object` (its own vertices: rooms never share). */
static wm_result append_room(wm_ctx *ctx, wm_mesh *area, const wm_mesh *room, uint16_t object)
{
    uint64_t v = (uint64_t)area->vertex_count + room->vertex_count, t = (uint64_t)area->triangle_count + room->triangle_count;
    if (v > UINT32_MAX || t > UINT32_MAX) return wm_error(ctx, WM_ERR_LIMIT, "area: more than 2^32 elements");
    wm_result r = wm_mesh_reserve(ctx, area, (uint32_t)v, (uint32_t)t);
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

wm_result wm_area_assemble(wm_ctx *ctx, const wm_layout *layout, wm_room_loader load, void *user, wm_mesh *out)
{
    wm_mesh_init(out);
    wm_result r = layout->room_count > 0xFFFFu ? wm_error(ctx, WM_ERR_LIMIT, "layout: more than 65535 rooms") : WM_OK;
    for (uint32_t i = 0; !r && i < layout->room_count; i++) {
        uint16_t object;
        r = wm_mesh_add_object(ctx, out, layout->rooms[i].name, &object);
        if (!r && object != i)
            r = wm_error(ctx, WM_ERR_CORRUPT, "layout: room %s is listed twice (rooms %u and %u)", layout->rooms[i].name,
                         object, i);
    }
    uint32_t missing = 0;
    for (uint32_t i = 0; !r && i < layout->room_count; i++) {
        wm_mesh room;
        wm_mesh_init(&room);
        r = load(ctx, user, layout->rooms[i].name, layout->rooms[i].position, &room);
        if (r == WM_ERR_IO) { /* no walkmesh for this room: the area has a hole, not an error */
            wm_warn(ctx, "room %u (%s): %s", i, layout->rooms[i].name, wm_ctx_message(ctx));
            missing++;
            r = WM_OK;
        } else if (!r) {
            r = append_room(ctx, out, &room, (uint16_t)i);
        }
        wm_mesh_free(ctx, &room);
    }
    if (!r && missing == layout->room_count && layout->room_count)
        r = wm_error(ctx, WM_ERR_IO, "layout: no room has a walkmesh (.wok) or a model (.mdl) beside it");
    if (r) wm_mesh_free(ctx, out);
    return r;
}

/* A walkable face edge, keyed by its two end points on a grid of the tolerance. */
typedef struct edge_key {
    int64_t q[6];
    uint32_t triangle;
    uint16_t room;
    uint8_t edge;
} edge_key;

static int compare_keys(const void *a, const void *b)
{
    const edge_key *x = a, *y = b;
    for (int k = 0; k < 6; k++)
        if (x->q[k] != y->q[k]) return x->q[k] < y->q[k] ? -1 : 1;
    return (x->room > y->room) - (x->room < y->room);
}

static void make_key(const wm_mesh *area, uint32_t t, int e, double grid, edge_key *key)
{
    const float *a = &area->positions[3 * (size_t)area->indices[3 * (size_t)t + e]];
    const float *b = &area->positions[3 * (size_t)area->indices[3 * (size_t)t + (e + 1) % 3]];
    int64_t qa[3], qb[3];
    for (int k = 0; k < 3; k++) {
        qa[k] = llround(a[k] / grid);
        qb[k] = llround(b[k] / grid);
    }
    int a_first = memcmp(qa, qb, sizeof qa) <= 0; /* undirected: the smaller point first */
    memcpy(key->q, a_first ? qa : qb, sizeof qa);
    memcpy(key->q + 3, a_first ? qb : qa, sizeof qa);
}

/* links[3t+e] = the room whose walkable face meets edge e of walkable triangle t. */
static wm_result find_links(wm_ctx *ctx, const wm_mesh *area, const int32_t *room_of, float tolerance, int32_t *links)
{
    size_t n = 0;
    edge_key *keys = wm_alloc_array(ctx, 3 * (size_t)area->triangle_count + 1, sizeof *keys);
    if (!keys) return WM_ERR_NOMEM;
    double grid = tolerance > 0 ? tolerance : 1e-3;
    for (uint32_t t = 0; t < area->triangle_count; t++) {
        int32_t room = room_of[area->objects ? area->objects[t] : 0];
        if (room < 0 || !area->walkable[t]) continue;
        for (int e = 0; e < 3; e++) {
            make_key(area, t, e, grid, &keys[n]);
            keys[n].triangle = t, keys[n].edge = (uint8_t)e, keys[n].room = (uint16_t)room;
            n++;
        }
    }
    qsort(keys, n, sizeof *keys, compare_keys);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && memcmp(keys[j].q, keys[i].q, sizeof keys[i].q) == 0;) j++;
        for (size_t a = i; a < j; a++)
            for (size_t b = i; b < j; b++)
                if (keys[a].room != keys[b].room) {
                    links[3 * (size_t)keys[a].triangle + keys[a].edge] = keys[b].room;
                    break;
                }
    }
    wm_free(ctx, keys);
    return WM_OK;
}

/* room_of[object] = the layout index of the room the object names, or -1. */
static wm_result rooms_of_objects(wm_ctx *ctx, const wm_mesh *area, const wm_layout *layout, int32_t **out)
{
    *out = wm_alloc_array(ctx, (size_t)area->object_count + 1, sizeof **out);
    if (!*out) return WM_ERR_NOMEM;
    (*out)[0] = -1;
    for (uint32_t o = 0; o < area->object_count; o++) {
        (*out)[o] = wm_layout_find_room(layout, area->object_names[o]);
        if ((*out)[o] < 0) wm_warn(ctx, "area: object %s names no room of the layout: left out", area->object_names[o]);
    }
    return WM_OK;
}

/* The triangles of room `room`, their vertices renumbered in area order. */
static wm_result extract_room(wm_ctx *ctx, const wm_mesh *area, const int32_t *room_of, const int32_t *links,
                              uint32_t *renumber, int32_t room, const char *name, wm_mesh *out)
{
    uint16_t object;
    wm_mesh_init(out);
    snprintf(out->name, sizeof out->name, "%s", name);
    wm_result r = wm_mesh_add_object(ctx, out, name, &object);
    for (uint32_t v = 0; v < area->vertex_count; v++) renumber[v] = UINT32_MAX;
    for (uint32_t t = 0; !r && t < area->triangle_count; t++)
        if (room_of[area->objects ? area->objects[t] : 0] == room)
            for (int k = 0; k < 3; k++) renumber[area->indices[3 * (size_t)t + k]] = 0;
    for (uint32_t v = 0; !r && v < area->vertex_count; v++)
        if (renumber[v] == 0) {
            const float *p = &area->positions[3 * (size_t)v];
            r = wm_mesh_add_vertex(ctx, out, p[0], p[1], p[2], &renumber[v]);
        }
    for (uint32_t t = 0; !r && t < area->triangle_count; t++) {
        if (room_of[area->objects ? area->objects[t] : 0] != room) continue;
        const uint32_t *i = &area->indices[3 * (size_t)t];
        r = wm_mesh_add_triangle(ctx, out, renumber[i[0]], renumber[i[1]], renumber[i[2]], area->surfaces[t],
                                 area->walkable[t]);
        for (int e = 0; !r && e < 3; e++) {
            /* a link already there stays, unless it names the room itself: formats that
             * hold links by edge position (OBJ, glTF) give a seam's link to both sides */
            int32_t kept = area->transitions[3 * (size_t)t + e];
            out->transitions[3 * (size_t)(out->triangle_count - 1) + e] =
                kept >= 0 && kept != room ? kept : links[3 * (size_t)t + e];
        }
    }
    if (r) wm_mesh_free(ctx, out);
    return r;
}

wm_result wm_area_split(wm_ctx *ctx, const wm_mesh *area, const wm_layout *layout, float tolerance, wm_mesh *rooms)
{
    int32_t *room_of = NULL, *links = NULL;
    uint32_t *renumber = NULL;
    for (uint32_t i = 0; i < layout->room_count; i++) wm_mesh_init(&rooms[i]);
    wm_result r = rooms_of_objects(ctx, area, layout, &room_of);
    if (!r) {
        links = wm_alloc_array(ctx, 3 * (size_t)area->triangle_count + 1, sizeof *links);
        renumber = wm_alloc_array(ctx, (size_t)area->vertex_count + 1, sizeof *renumber);
        if (!links || !renumber) r = WM_ERR_NOMEM;
    }
    for (size_t i = 0; !r && i < 3 * (size_t)area->triangle_count; i++) links[i] = WM_NO_TRANSITION;
    if (!r) r = find_links(ctx, area, room_of, tolerance, links);
    for (uint32_t i = 0; !r && i < layout->room_count; i++)
        r = extract_room(ctx, area, room_of, links, renumber, (int32_t)i, layout->rooms[i].name, &rooms[i]);
    if (r)
        for (uint32_t i = 0; i < layout->room_count; i++) wm_mesh_free(ctx, &rooms[i]);
    wm_free(ctx, room_of);
    wm_free(ctx, links);
    wm_free(ctx, renumber);
    return r;
}
