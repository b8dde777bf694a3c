#include "wm_mesh.h"
#include "wm_geometry.h"
#include "wm_surface.h"

#include <math.h>
#include <string.h>

void wm_mesh_init(wm_mesh *mesh)
{
    memset(mesh, 0, sizeof *mesh);
}

void wm_mesh_free(const wm_ctx *ctx, wm_mesh *mesh)
{
    wm_free(ctx, mesh->positions);
    wm_free(ctx, mesh->indices);
    wm_free(ctx, mesh->surfaces);
    wm_free(ctx, mesh->walkable);
    wm_free(ctx, mesh->objects);
    wm_free(ctx, mesh->transitions);
    for (uint32_t i = 0; i < mesh->object_count; i++)
        wm_free(ctx, mesh->object_names[i]);
    wm_free(ctx, mesh->object_names);
    wm_mesh_init(mesh);
}

static wm_result grow(wm_ctx *ctx, void **array, uint32_t capacity, size_t elem_size)
{
    void *p = wm_realloc_array(ctx, *array, capacity, elem_size);
    if (!p)
        return WM_ERR_NOMEM;
    *array = p;
    return WM_OK;
}

wm_result wm_mesh_reserve(wm_ctx *ctx, wm_mesh *mesh, uint32_t vertices, uint32_t triangles)
{
    if (vertices > mesh->vertex_capacity) {
        if (grow(ctx, (void **)&mesh->positions, vertices, 3 * sizeof(float)))
            return WM_ERR_NOMEM;
        mesh->vertex_capacity = vertices;
    }
    if (triangles > mesh->triangle_capacity) {
        if (grow(ctx, (void **)&mesh->indices, triangles, 3 * sizeof(uint32_t)) ||
            grow(ctx, (void **)&mesh->surfaces, triangles, sizeof(uint16_t)) ||
            grow(ctx, (void **)&mesh->walkable, triangles, sizeof(uint8_t)) ||
            grow(ctx, (void **)&mesh->objects, triangles, sizeof(uint16_t)) ||
            grow(ctx, (void **)&mesh->transitions, triangles, 3 * sizeof(int32_t)))
            return WM_ERR_NOMEM;
        mesh->triangle_capacity = triangles;
    }
    return WM_OK;
}

static uint32_t next_capacity(uint32_t current, uint32_t needed)
{
    uint64_t c = current ? current : 64;
    while (c < needed)
        c *= 2;
    return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

wm_result wm_mesh_add_vertex(wm_ctx *ctx, wm_mesh *mesh, float x, float y, float z, uint32_t *out_index)
{
    if (mesh->vertex_count == UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "mesh: too many vertices");
    if (mesh->vertex_count == mesh->vertex_capacity &&
        wm_mesh_reserve(ctx, mesh, next_capacity(mesh->vertex_capacity, mesh->vertex_count + 1), 0))
        return WM_ERR_NOMEM;
    float *p = mesh->positions + 3 * (size_t)mesh->vertex_count;
    p[0] = x;
    p[1] = y;
    p[2] = z;
    if (out_index)
        *out_index = mesh->vertex_count;
    mesh->vertex_count++;
    return WM_OK;
}

wm_result wm_mesh_add_object(wm_ctx *ctx, wm_mesh *mesh, const char *name, uint16_t *out_index)
{
    for (uint32_t i = 0; i < mesh->object_count; i++)
        if (strcmp(mesh->object_names[i], name) == 0) {
            if (out_index)
                *out_index = (uint16_t)i;
            return WM_OK;
        }
    return wm_mesh_append_object(ctx, mesh, name, out_index);
}

wm_result wm_mesh_append_object(wm_ctx *ctx, wm_mesh *mesh, const char *name, uint16_t *out_index)
{
    if (mesh->object_count >= 0xFFFF)
        return wm_error(ctx, WM_ERR_LIMIT, "mesh: more than 65535 objects");
    char **names = wm_realloc_array(ctx, mesh->object_names, mesh->object_count + 1, sizeof *names);
    if (!names)
        return WM_ERR_NOMEM;
    mesh->object_names = names;
    names[mesh->object_count] = wm_strdup(ctx, name);
    if (!names[mesh->object_count])
        return WM_ERR_NOMEM;
    if (out_index)
        *out_index = (uint16_t)mesh->object_count;
    mesh->object_count++;
    return WM_OK;
}

/* Adds the triangle to the last object added (creating a default one). */
wm_result wm_mesh_add_triangle(wm_ctx *ctx, wm_mesh *mesh, uint32_t a, uint32_t b, uint32_t c, uint16_t surface,
                               int walkable)
{
    if (mesh->object_count == 0 && wm_mesh_add_object(ctx, mesh, mesh->name[0] ? mesh->name : "walkmesh", NULL))
        return WM_ERR_NOMEM;
    if (mesh->triangle_count == UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "mesh: too many triangles");
    if (mesh->triangle_count == mesh->triangle_capacity &&
        wm_mesh_reserve(ctx, mesh, 0, next_capacity(mesh->triangle_capacity, mesh->triangle_count + 1)))
        return WM_ERR_NOMEM;
    uint32_t t = mesh->triangle_count++;
    mesh->indices[3 * (size_t)t] = a;
    mesh->indices[3 * (size_t)t + 1] = b;
    mesh->indices[3 * (size_t)t + 2] = c;
    mesh->surfaces[t] = surface;
    mesh->walkable[t] = walkable ? 1 : 0;
    mesh->objects[t] = (uint16_t)(mesh->object_count - 1);
    for (int e = 0; e < 3; e++)
        mesh->transitions[3 * (size_t)t + e] = WM_NO_TRANSITION;
    return WM_OK;
}

wm_result wm_mesh_append(wm_ctx *ctx, wm_mesh *dst, const wm_mesh *src)
{
    uint64_t vertices = (uint64_t)dst->vertex_count + src->vertex_count;
    uint64_t triangles = (uint64_t)dst->triangle_count + src->triangle_count;
    if (vertices > UINT32_MAX || triangles > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "mesh: appending would exceed 2^32 elements");
    if (wm_mesh_reserve(ctx, dst, (uint32_t)vertices, (uint32_t)triangles))
        return WM_ERR_NOMEM;
    uint16_t *object_map = wm_alloc_array(ctx, src->object_count, sizeof *object_map);
    if (!object_map)
        return WM_ERR_NOMEM;
    for (uint32_t i = 0; i < src->object_count; i++)
        if (wm_mesh_add_object(ctx, dst, src->object_names[i], &object_map[i])) {
            wm_free(ctx, object_map);
            return WM_ERR_NOMEM;
        }
    uint32_t base = dst->vertex_count;
    memcpy(dst->positions + 3 * (size_t)base, src->positions, 3 * sizeof(float) * src->vertex_count);
    dst->vertex_count += src->vertex_count;
    uint32_t t0 = dst->triangle_count;
    for (uint32_t t = 0; t < src->triangle_count; t++) {
        for (int k = 0; k < 3; k++) {
            dst->indices[3 * (size_t)(t0 + t) + k] = src->indices[3 * (size_t)t + k] + base;
            dst->transitions[3 * (size_t)(t0 + t) + k] = src->transitions[3 * (size_t)t + k];
        }
        dst->surfaces[t0 + t] = src->surfaces[t];
        dst->walkable[t0 + t] = src->walkable[t];
        dst->objects[t0 + t] = src->object_count ? object_map[src->objects[t]] : 0;
    }
    dst->triangle_count += src->triangle_count;
    wm_free(ctx, object_map);
    return WM_OK;
}

wm_result wm_mesh_copy(wm_ctx *ctx, wm_mesh *dst, const wm_mesh *src)
{
    wm_mesh_init(dst);
    memcpy(dst->name, src->name, sizeof dst->name);
    memcpy(dst->points, src->points, sizeof dst->points);
    dst->point_count = src->point_count;
    wm_result r = wm_mesh_append(ctx, dst, src);
    if (r)
        wm_mesh_free(ctx, dst);
    return r;
}

const wm_mesh_point *wm_mesh_find_point(const wm_mesh *mesh, const char *name)
{
    for (uint32_t i = 0; i < mesh->point_count && i < WM_MESH_MAX_POINTS; i++)
        if (strcmp(mesh->points[i].name, name) == 0)
            return &mesh->points[i];
    return NULL;
}

wm_result wm_mesh_set_point(wm_ctx *ctx, wm_mesh *mesh, const char *name, const float xyz[3])
{
    wm_mesh_point *p = (wm_mesh_point *)wm_mesh_find_point(mesh, name);
    if (strlen(name) >= WM_MESH_POINT_NAME)
        return wm_error(ctx, WM_ERR_LIMIT, "mesh point name \"%s\" is too long", name);
    if (!p) {
        if (mesh->point_count >= WM_MESH_MAX_POINTS)
            return wm_error(ctx, WM_ERR_LIMIT, "mesh: more than %d named points", WM_MESH_MAX_POINTS);
        p = &mesh->points[mesh->point_count++];
        memset(p->name, 0, sizeof p->name);
        memcpy(p->name, name, strlen(name));
    }
    memcpy(p->xyz, xyz, sizeof p->xyz);
    return WM_OK;
}

wm_result wm_mesh_validate(wm_ctx *ctx, const wm_mesh *mesh)
{
    for (uint32_t v = 0; v < mesh->vertex_count; v++)
        for (int k = 0; k < 3; k++)
            if (!isfinite(mesh->positions[3 * (size_t)v + k]))
                return wm_error(ctx, WM_ERR_INVALID, "vertex %u: coordinate %d is not finite", v, k);
    const wm_surface_table *table = wm_surfaces(ctx);
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        for (int k = 0; k < 3; k++)
            if (mesh->indices[3 * (size_t)t + k] >= mesh->vertex_count)
                return wm_error(ctx, WM_ERR_INVALID, "triangle %u: vertex index %u is out of range (%u vertices)", t,
                                mesh->indices[3 * (size_t)t + k], mesh->vertex_count);
        if (mesh->surfaces[t] >= table->count)
            return wm_error(ctx, WM_ERR_INVALID, "triangle %u: surface %u is not in the surface table (%u entries)", t,
                            mesh->surfaces[t], table->count);
        if (mesh->object_count && mesh->objects[t] >= mesh->object_count)
            return wm_error(ctx, WM_ERR_INVALID, "triangle %u: object %u does not exist", t, mesh->objects[t]);
    }
    return WM_OK;
}

void wm_mesh_triangle_normal(const wm_mesh *mesh, uint32_t t, float out[3])
{
    const uint32_t *tri = mesh->indices + 3 * (size_t)t;
    wm_tri_normal(mesh->positions + 3 * (size_t)tri[0], mesh->positions + 3 * (size_t)tri[1],
                  mesh->positions + 3 * (size_t)tri[2], out);
}

void wm_mesh_normals(const wm_mesh *mesh, float *out)
{
    for (uint32_t t = 0; t < mesh->triangle_count; t++)
        wm_mesh_triangle_normal(mesh, t, out + 3 * (size_t)t);
}

void wm_mesh_bounds(const wm_mesh *mesh, float min[3], float max[3])
{
    if (mesh->vertex_count == 0) {
        for (int k = 0; k < 3; k++)
            min[k] = max[k] = 0.0f;
        return;
    }
    for (int k = 0; k < 3; k++)
        min[k] = max[k] = mesh->positions[k];
    for (uint32_t v = 1; v < mesh->vertex_count; v++)
        for (int k = 0; k < 3; k++) {
            float x = mesh->positions[3 * (size_t)v + k];
            if (x < min[k])
                min[k] = x;
            if (x > max[k])
                max[k] = x;
        }
}

void wm_mesh_walkable_from_slope(wm_mesh *mesh, float max_slope_deg)
{
    float min_nz = cosf(max_slope_deg * 3.14159265358979f / 180.0f);
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        float n[3];
        wm_mesh_triangle_normal(mesh, t, n);
        mesh->walkable[t] = n[2] >= min_nz && (n[0] != 0 || n[1] != 0 || n[2] != 0);
    }
}
