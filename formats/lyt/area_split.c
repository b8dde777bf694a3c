/* An area mesh back into its rooms, in one pass over the area: triangles bucketed by
 * room, links found by sorting the walkable edges once. Linear in the area plus a sort
 * (n log n), whatever the room count. */
#include "wm_layout.h"
#include "wm_names.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A walkable face edge, keyed by its two end points on a grid of the tolerance. */
typedef struct edge_key {
    int64_t q[6];
    uint32_t triangle;
    int32_t room; /* as wide as a room index */
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

static int32_t room_of_triangle(const wm_mesh *area, const int32_t *room_of, uint32_t t)
{
    return room_of[area->objects ? area->objects[t] : 0];
}

/* links[3t+e] = the room whose walkable face meets edge e of walkable triangle t: of the
 * edges on one spot (sorted by room), the lowest room other than the edge's own. */
static wm_result find_links(wm_ctx *ctx, const wm_mesh *area, const int32_t *room_of, float tolerance, int32_t *links)
{
    size_t n = 0;
    edge_key *keys = wm_alloc_array(ctx, 3 * (size_t)area->triangle_count + 1, sizeof *keys);
    if (!keys) return WM_ERR_NOMEM;
    double grid = tolerance > 0 ? tolerance : 1e-3;
    for (uint32_t t = 0; t < area->triangle_count; t++) {
        int32_t room = room_of_triangle(area, room_of, t);
        if (room < 0 || !area->walkable[t]) continue;
        for (int e = 0; e < 3; e++) {
            make_key(area, t, e, grid, &keys[n]);
            keys[n].triangle = t, keys[n].edge = (uint8_t)e, keys[n].room = room;
            n++;
        }
    }
    qsort(keys, n, sizeof *keys, compare_keys);
    for (size_t i = 0, j; i < n; i = j) {
        size_t second = n; /* the first key of the spot in another room than the lowest */
        for (j = i + 1; j < n && memcmp(keys[j].q, keys[i].q, sizeof keys[i].q) == 0; j++)
            if (second == n && keys[j].room != keys[i].room) second = j;
        for (size_t a = i; a < j; a++) {
            int32_t other = keys[a].room != keys[i].room ? keys[i].room : second < n ? keys[second].room : -1;
            if (other >= 0) links[3 * (size_t)keys[a].triangle + keys[a].edge] = other;
        }
    }
    wm_free(ctx, keys);
    return WM_OK;
}

static const char *object_name_of(const void *user, uint32_t item, size_t *out_length)
{
    const wm_mesh *area = user;
    *out_length = strlen(area->object_names[item]);
    return area->object_names[item];
}

/* room_of[object] = the layout index of the room the object names, or -1. */
static wm_result rooms_of_objects(wm_ctx *ctx, const wm_mesh *area, const wm_layout *layout,
                                  const wm_name_index *rooms, int32_t **out)
{
    *out = wm_alloc_array(ctx, (size_t)area->object_count + 1, sizeof **out);
    if (!*out) return WM_ERR_NOMEM;
    (*out)[0] = -1;
    for (uint32_t o = 0; o < area->object_count; o++) {
        const char *name = area->object_names[o];
        uint32_t room = wm_name_index_find(rooms, name, strlen(name));
        (*out)[o] = room == UINT32_MAX ? -1 : (int32_t)room;
        if (room == UINT32_MAX) wm_warn(ctx, "area: object %s names no room of the layout: left out", name);
    }
    wm_name_index objects;
    uint32_t twice[2];
    wm_result r = wm_name_index_build(ctx, &objects, area->object_count, object_name_of, area, twice);
    if (!r && twice[0] != UINT32_MAX && (*out)[twice[0]] >= 0)
        wm_warn(ctx, "area: objects %s and %s are one room, %s: its triangles are both's", area->object_names[twice[0]],
                area->object_names[twice[1]], layout->rooms[(*out)[twice[0]]].name);
    wm_name_index_free(ctx, &objects);
    return r;
}

/* The area's triangles in room order: room k's are order[first[k], first[k + 1]). */
static wm_result bucket_triangles(wm_ctx *ctx, const wm_mesh *area, const int32_t *room_of, uint32_t rooms,
                                  uint32_t **out_first, uint32_t **out_order)
{
    uint32_t *first = wm_alloc_array(ctx, (size_t)rooms + 2, sizeof *first);
    uint32_t *order = wm_alloc_array(ctx, (size_t)area->triangle_count + 1, sizeof *order);
    *out_first = first, *out_order = order;
    if (!first || !order) return WM_ERR_NOMEM;
    memset(first, 0, ((size_t)rooms + 2) * sizeof *first);
    for (uint32_t t = 0; t < area->triangle_count; t++) {
        int32_t room = room_of_triangle(area, room_of, t);
        if (room >= 0) first[room + 2]++;
    }
    for (uint32_t k = 2; k < rooms + 2; k++) first[k] += first[k - 1];
    for (uint32_t t = 0; t < area->triangle_count; t++) { /* first[k + 1] is room k's next slot */
        int32_t room = room_of_triangle(area, room_of, t);
        if (room >= 0) order[first[room + 1]++] = t;
    }
    return WM_OK;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Room `room`'s triangles (tris[0, count)) as a mesh, its vertices in area order. stamp
 * and renumber are per area vertex, and vertices scratch of 3 * count. */
static wm_result extract_room(wm_ctx *ctx, const wm_mesh *area, const int32_t *links, const uint32_t *tris,
                              uint32_t count, int32_t room, const char *name, uint32_t *stamp, uint32_t *renumber,
                              uint32_t *vertices, wm_mesh *out)
{
    uint32_t used = 0;
    for (uint32_t i = 0; i < count; i++)
        for (int k = 0; k < 3; k++) {
            uint32_t v = area->indices[3 * (size_t)tris[i] + k];
            if (stamp[v] != (uint32_t)room + 1) stamp[v] = (uint32_t)room + 1, vertices[used++] = v;
        }
    qsort(vertices, used, sizeof *vertices, compare_u32);
    wm_mesh_init(out);
    snprintf(out->name, sizeof out->name, "%s", name);
    wm_result r = wm_mesh_add_object(ctx, out, name, NULL);
    if (!r) r = wm_mesh_reserve(ctx, out, used, count);
    if (r) return r;
    for (uint32_t i = 0; i < used; i++) {
        renumber[vertices[i]] = i;
        memcpy(&out->positions[3 * (size_t)i], &area->positions[3 * (size_t)vertices[i]], 12);
    }
    out->vertex_count = used, out->triangle_count = count;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t t = tris[i];
        for (int e = 0; e < 3; e++) {
            out->indices[3 * (size_t)i + e] = renumber[area->indices[3 * (size_t)t + e]];
            /* a link already there stays, unless it names the room itself: formats that
             * hold links by edge position (OBJ, glTF) give a seam's link to both sides */
            int32_t kept = area->transitions[3 * (size_t)t + e];
            out->transitions[3 * (size_t)i + e] = kept >= 0 && kept != room ? kept : links[3 * (size_t)t + e];
        }
        out->surfaces[i] = area->surfaces[t];
        out->walkable[i] = area->walkable[t];
        out->objects[i] = 0;
    }
    return WM_OK;
}

typedef struct split_work {
    int32_t *room_of, *links;
    uint32_t *first, *order, *stamp, *renumber, *vertices;
} split_work;

static void free_work(wm_ctx *ctx, split_work *w)
{
    wm_free(ctx, w->room_of), wm_free(ctx, w->links), wm_free(ctx, w->first), wm_free(ctx, w->order);
    wm_free(ctx, w->stamp), wm_free(ctx, w->renumber), wm_free(ctx, w->vertices);
}

static wm_result prepare(wm_ctx *ctx, const wm_mesh *area, const wm_layout *layout, float tolerance, split_work *w)
{
    wm_name_index rooms;
    wm_result r = wm_layout_check_rooms(ctx, layout, &rooms);
    if (!r) r = rooms_of_objects(ctx, area, layout, &rooms, &w->room_of);
    wm_name_index_free(ctx, &rooms);
    if (r) return r;
    size_t v = (size_t)area->vertex_count + 1, t = (size_t)area->triangle_count;
    w->links = wm_alloc_array(ctx, 3 * t + 1, sizeof *w->links);
    w->stamp = wm_alloc_array(ctx, v, sizeof *w->stamp);
    w->renumber = wm_alloc_array(ctx, v, sizeof *w->renumber);
    w->vertices = wm_alloc_array(ctx, 3 * t + 1, sizeof *w->vertices);
    if (!w->links || !w->stamp || !w->renumber || !w->vertices) return WM_ERR_NOMEM;
    memset(w->stamp, 0, v * sizeof *w->stamp);
    for (size_t i = 0; i < 3 * t; i++) w->links[i] = WM_NO_TRANSITION;
    r = find_links(ctx, area, w->room_of, tolerance, w->links);
    return r ? r : bucket_triangles(ctx, area, w->room_of, layout->room_count, &w->first, &w->order);
}

wm_result wm_area_split(wm_ctx *ctx, const wm_mesh *area, const wm_layout *layout, float tolerance, wm_mesh *rooms)
{
    split_work w;
    memset(&w, 0, sizeof w);
    for (uint32_t i = 0; i < layout->room_count; i++) wm_mesh_init(&rooms[i]);
    wm_result r = prepare(ctx, area, layout, tolerance, &w);
    for (uint32_t i = 0; !r && i < layout->room_count; i++)
        r = extract_room(ctx, area, w.links, w.order + w.first[i], w.first[i + 1] - w.first[i], (int32_t)i,
                         layout->rooms[i].name, w.stamp, w.renumber, w.vertices, &rooms[i]);
    if (r)
        for (uint32_t i = 0; i < layout->room_count; i++) wm_mesh_free(ctx, &rooms[i]);
    free_work(ctx, &w);
    return r;
}
