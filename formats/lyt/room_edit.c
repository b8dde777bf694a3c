/* Moving, turning and mirroring one room of an area mesh: a planar affine
 * map of the vertices its triangles use (z only shifts). A map that
 * mirrors reverses each triangle's winding back, carrying the transitions
 * along with their edges. */
#include "wm_layout.h"
#include "wm_names.h"

#include <math.h>
#include <string.h>

typedef struct planar_map {
    double m[2][2], t[3];
} planar_map;

int32_t wm_mesh_find_object(const wm_mesh *mesh, const char *name)
{
    for (uint32_t i = 0; i < mesh->object_count; i++)
        if (wm_name_compare(mesh->object_names[i], name) == 0) return (int32_t)i;
    return -1;
}

static int in_room(const wm_mesh *mesh, uint32_t t, uint16_t object)
{
    return object == WM_ALL_ROOMS || (mesh->objects && mesh->objects[t] == object);
}

static wm_result apply(wm_ctx *ctx, wm_mesh *mesh, uint16_t object, const planar_map *map)
{
    uint8_t *mark = wm_alloc_array(ctx, (size_t)mesh->vertex_count + 1, 1);
    if (!mark) return WM_ERR_NOMEM;
    memset(mark, 0, (size_t)mesh->vertex_count + 1);
    for (uint32_t t = 0; t < mesh->triangle_count; t++)
        if (in_room(mesh, t, object))
            for (int k = 0; k < 3; k++) mark[mesh->indices[3 * (size_t)t + k]] = 1;
    for (uint32_t v = 0; v < mesh->vertex_count; v++) {
        if (!mark[v]) continue;
        float *p = &mesh->positions[3 * (size_t)v];
        double x = p[0], y = p[1];
        p[0] = (float)(map->m[0][0] * x + map->m[0][1] * y + map->t[0]);
        p[1] = (float)(map->m[1][0] * x + map->m[1][1] * y + map->t[1]);
        p[2] = (float)(p[2] + map->t[2]);
    }
    wm_free(ctx, mark);
    if (map->m[0][0] * map->m[1][1] - map->m[0][1] * map->m[1][0] >= 0) return WM_OK;
    /* (a, b, c) -> (a, c, b): edge 0 (ab) becomes edge 2, edge 2 (ca) edge 0, edge 1 stays */
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        if (!in_room(mesh, t, object)) continue;
        uint32_t *i = &mesh->indices[3 * (size_t)t];
        int32_t *e = &mesh->transitions[3 * (size_t)t];
        uint32_t vi = i[1];
        i[1] = i[2], i[2] = vi;
        int32_t te = e[0];
        e[0] = e[2], e[2] = te;
    }
    return WM_OK;
}

wm_result wm_room_move(wm_ctx *ctx, wm_mesh *mesh, uint16_t object, const float delta[3])
{
    planar_map map = {{{1, 0}, {0, 1}}, {delta[0], delta[1], delta[2]}};
    return apply(ctx, mesh, object, &map);
}

wm_result wm_room_rotate_z(wm_ctx *ctx, wm_mesh *mesh, uint16_t object, double degrees, const float pivot[2])
{
    double a = degrees * (3.14159265358979323846 / 180.0), c = cos(a), s = sin(a);
    planar_map map = {{{c, -s}, {s, c}}, {0, 0, 0}};
    map.t[0] = pivot[0] - (c * pivot[0] - s * pivot[1]);
    map.t[1] = pivot[1] - (s * pivot[0] + c * pivot[1]);
    return apply(ctx, mesh, object, &map);
}

wm_result wm_room_mirror(wm_ctx *ctx, wm_mesh *mesh, uint16_t object, int axis, float at)
{
    if (axis != 0 && axis != 1) return wm_error(ctx, WM_ERR_OPTION, "mirror: axis must be x (0) or y (1)");
    planar_map map = {{{1, 0}, {0, 1}}, {0, 0, 0}};
    map.m[axis][axis] = -1;
    map.t[axis] = 2.0 * at;
    return apply(ctx, mesh, object, &map);
}

void wm_room_remap_links(wm_mesh *mesh, uint16_t object, const int32_t *map, uint32_t count)
{
    for (uint32_t t = 0; t < mesh->triangle_count; t++)
        for (int k = 0; in_room(mesh, t, object) && k < 3; k++) {
            int32_t *link = &mesh->transitions[3 * (size_t)t + k];
            if (*link >= 0 && (uint32_t)*link < count) *link = map[*link];
        }
}
