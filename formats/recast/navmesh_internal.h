/* What the navmesh files share inside the module: Detour's tile data as walkmesh reads it
 * (navmesh_tile.c). The layout is Detour's, version 7 (DetourNavMesh.h: dtMeshHeader, dtPoly,
 * dtLink, dtPolyDetail, dtBVNode, dtOffMeshConnection, each part padded to 4 bytes), little
 * endian. */
#ifndef WM_NAVMESH_INTERNAL_H
#define WM_NAVMESH_INTERNAL_H

#include "wm_io.h"
#include "wm_navmesh.h"

#define NAVMESH_DETOUR_VERSION 7
#define NAVMESH_TILE_HEADER 100
#define NAVMESH_POLY_SIZE 32
#define NAVMESH_LINK_SIZE 12
#define NAVMESH_DETAIL_SIZE 12
#define NAVMESH_BV_SIZE 16
#define NAVMESH_OFF_MESH_SIZE 36
#define NAVMESH_VERTS_PER_POLY 6
#define NAVMESH_EXTERNAL_LINK 0x8000

typedef struct navmesh_tile {
    int32_t x, y, layer;
    uint32_t poly_count, vert_count, max_link_count, detail_mesh_count, detail_vert_count, detail_tri_count,
        bv_node_count, off_mesh_count, off_mesh_base;
    float walkable_height, walkable_radius, walkable_climb, bmin[3], bmax[3], bv_quant;
    const uint8_t *verts, *polys, *detail_meshes, *detail_verts, *detail_tris, *bv_nodes;
} navmesh_tile;

/* Reads and checks one tile's bytes: everything Detour would index is in range (Detour trusts
 * its tile data). source names the file in messages, index the tile. */
wm_result navmesh_tile_parse(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, uint32_t index,
                             navmesh_tile *out);

/* v is finite and within WM_COORD_LIMIT: what a coordinate given to Detour must be. */
int navmesh_in_range(float v);

/* Polygon p of a parsed tile: its vertex count, vertex indices and area id. */
uint32_t navmesh_poly_vertices(const navmesh_tile *tile, uint32_t p, uint16_t indices[NAVMESH_VERTS_PER_POLY],
                               unsigned *area);
/* Vertex v of a parsed tile (Recast space). */
void navmesh_tile_vertex(const navmesh_tile *tile, uint32_t v, float out[3]);

/* Detour's navmesh of n, opened (its tiles added) on the first call; *rc the module's functions. */
struct wmrc_functions;
wm_result navmesh_open_detour(wm_ctx *ctx, wm_navmesh *n, const struct wmrc_functions **rc);

#endif
