/* A navmesh's polygons as a neutral mesh, for the OBJ, glTF and SVG writers: Detour's tile
 * vertices back in Z-up space, each polygon a fan (Recast's polygons are convex), grouped in
 * one object per area id. */
#include "navmesh_internal.h"

#include <stdio.h>

#define NAVMESH_SURFACE_STONE 4 /* the neutral "stone": walkable, drawn as floor */

static wm_result add_tile_vertices(wm_ctx *ctx, const navmesh_tile *tile, wm_mesh *out)
{
    for (uint32_t v = 0; v < tile->vert_count; v++) {
        float p[3];
        navmesh_tile_vertex(tile, v, p);
        wm_result r = wm_mesh_add_vertex(ctx, out, p[0], -p[2], p[1], NULL);
        if (r)
            return r;
    }
    return WM_OK;
}

/* Every polygon of area `area` (or, with area < 0, only notes which areas there are). */
static wm_result add_area(wm_ctx *ctx, const wm_navmesh *n, int area, uint64_t *present, wm_mesh *out)
{
    uint32_t base = 0;
    for (uint32_t t = 0; t < n->tile_count; t++) {
        navmesh_tile tile;
        const uint8_t *data = n->tile_data + n->tile_offsets[t];
        wm_result r = navmesh_tile_parse(ctx, data, (size_t)(n->tile_offsets[t + 1] - n->tile_offsets[t]), NULL, t, &tile);
        if (r)
            return r;
        for (uint32_t p = 0; p < tile.poly_count; p++) {
            uint16_t corner[NAVMESH_VERTS_PER_POLY];
            unsigned poly_area;
            uint32_t count = navmesh_poly_vertices(&tile, p, corner, &poly_area);
            *present |= 1ull << poly_area;
            for (uint32_t k = 2; k < count && (int)poly_area == area && !r; k++)
                r = wm_mesh_add_triangle(ctx, out, base + corner[0], base + corner[k - 1], base + corner[k],
                                         NAVMESH_SURFACE_STONE, 1);
            if (r)
                return r;
        }
        base += tile.vert_count;
    }
    return WM_OK;
}

wm_result wm_navmesh_to_mesh(wm_ctx *ctx, const wm_navmesh *n, wm_mesh *out)
{
    wm_mesh_init(out);
    snprintf(out->name, sizeof out->name, "navmesh");
    uint64_t present = 0;
    wm_result r = add_area(ctx, n, -1, &present, out);
    for (uint32_t t = 0; t < n->tile_count && !r; t++) {
        navmesh_tile tile;
        r = navmesh_tile_parse(ctx, n->tile_data + n->tile_offsets[t],
                               (size_t)(n->tile_offsets[t + 1] - n->tile_offsets[t]), NULL, t, &tile);
        if (!r)
            r = add_tile_vertices(ctx, &tile, out);
    }
    for (int area = 0; area < 64 && !r; area++) {
        if (!(present >> area & 1))
            continue;
        char name[16];
        snprintf(name, sizeof name, "area_%d", area);
        r = wm_mesh_add_object(ctx, out, name, NULL);
        if (!r)
            r = add_area(ctx, n, area, &present, out);
    }
    if (r)
        wm_mesh_free(ctx, out);
    return r;
}

wm_result wm_navmesh_poly_outline(wm_ctx *ctx, const wm_navmesh *n, const wm_navmesh_poly *poly, float corners[18],
                                  uint32_t *count, unsigned *area)
{
    for (uint32_t t = 0; t < n->tile_count; t++) {
        navmesh_tile tile;
        wm_result r = navmesh_tile_parse(ctx, n->tile_data + n->tile_offsets[t],
                                         (size_t)(n->tile_offsets[t + 1] - n->tile_offsets[t]), NULL, t, &tile);
        if (r)
            return r;
        if (tile.x != poly->tile_x || tile.y != poly->tile_y || poly->poly >= tile.poly_count)
            continue;
        uint16_t corner[NAVMESH_VERTS_PER_POLY];
        *count = navmesh_poly_vertices(&tile, poly->poly, corner, area);
        for (uint32_t k = 0; k < *count; k++) {
            float p[3];
            navmesh_tile_vertex(&tile, corner[k], p);
            corners[3 * k] = p[0], corners[3 * k + 1] = -p[2], corners[3 * k + 2] = p[1];
        }
        return WM_OK;
    }
    return wm_error(ctx, WM_ERR_INVALID, "navmesh: no polygon %u in a tile at (%d, %d)", poly->poly, poly->tile_x,
                    poly->tile_y);
}
