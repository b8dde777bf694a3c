/* Detour's tile data read through the bounded cursor and checked the way Detour would use it:
 * dtNavMesh::addTile and the queries index vertices, neighbours, links, detail meshes and the
 * BV tree by the counts and numbers in the data without checking them. */
#include "navmesh_internal.h"

#include "wm_geometry.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static uint64_t align4(uint64_t n)
{
    return (n + 3) & ~(uint64_t)3;
}

/* Finite and within the library's bound on coordinates: Detour's closest-point search
 * dereferences a null edge when every squared distance overflows. */
int navmesh_in_range(float v)
{
    return isfinite(v) && fabsf(v) <= WM_COORD_LIMIT;
}

static wm_result read_header(wm_cursor *cur, navmesh_tile *t)
{
    uint32_t magic, version, user;
    wm_result r = wm_read_u32(cur, &magic, "tile magic");
    if (!r && magic != ('D' << 24 | 'N' << 16 | 'A' << 8 | 'V'))
        return wm_cursor_error(cur, WM_ERR_CORRUPT, "not Detour tile data (magic 0x%08x)", magic);
    if (!r)
        r = wm_read_u32(cur, &version, "tile version");
    if (!r && version != NAVMESH_DETOUR_VERSION)
        return wm_cursor_error(cur, WM_ERR_UNSUPPORTED, "Detour tile version %u (walkmesh reads %d)", version,
                               NAVMESH_DETOUR_VERSION);
    uint32_t *counts[] = {&t->poly_count, &t->vert_count, &t->max_link_count, &t->detail_mesh_count,
                          &t->detail_vert_count, &t->detail_tri_count, &t->bv_node_count, &t->off_mesh_count,
                          &t->off_mesh_base};
    float *reals[] = {&t->walkable_height, &t->walkable_radius, &t->walkable_climb, t->bmin, t->bmin + 1, t->bmin + 2,
                      t->bmax, t->bmax + 1, t->bmax + 2, &t->bv_quant};
    if (!r)
        r = wm_read_i32(cur, &t->x, "tile x");
    if (!r)
        r = wm_read_i32(cur, &t->y, "tile y");
    if (!r)
        r = wm_read_i32(cur, &t->layer, "tile layer");
    if (!r)
        r = wm_read_u32(cur, &user, "tile user id");
    for (size_t i = 0; i < sizeof counts / sizeof *counts && !r; i++)
        r = wm_read_u32(cur, counts[i], "tile count");
    for (size_t i = 0; i < sizeof reals / sizeof *reals && !r; i++) {
        r = wm_read_f32(cur, reals[i], "tile header value");
        if (!r && !navmesh_in_range(*reals[i]))
            return wm_cursor_error(cur, WM_ERR_CORRUPT, "a tile header value (%g) is not finite or beyond %g",
                                   (double)*reals[i], (double)WM_COORD_LIMIT);
    }
    return r;
}

/* The counts against each other and the parts against the bytes there are. */
static wm_result check_counts(wm_cursor *cur, const navmesh_tile *t)
{
    if (t->poly_count == 0 || t->vert_count == 0 || t->vert_count > 0xffff)
        return wm_cursor_error(cur, WM_ERR_CORRUPT, "%u polygons and %u vertices (1 or more; vertices up to 65,535)",
                               t->poly_count, t->vert_count);
    if (t->max_link_count == 0 || t->detail_mesh_count != t->poly_count)
        return wm_cursor_error(cur, WM_ERR_CORRUPT, "%u links and %u detail meshes for %u polygons", t->max_link_count,
                               t->detail_mesh_count, t->poly_count);
    if (t->off_mesh_count != 0 || t->off_mesh_base != t->poly_count)
        return wm_cursor_error(cur, WM_ERR_UNSUPPORTED, "off-mesh connections (%u) are not read", t->off_mesh_count);
    if (t->bv_node_count && !(t->bv_quant > 0))
        return wm_cursor_error(cur, WM_ERR_CORRUPT, "BV tree quantisation factor %g", (double)t->bv_quant);
    uint64_t need = align4(12ull * t->vert_count) + align4((uint64_t)NAVMESH_POLY_SIZE * t->poly_count) +
                    align4((uint64_t)NAVMESH_LINK_SIZE * t->max_link_count) +
                    align4((uint64_t)NAVMESH_DETAIL_SIZE * t->detail_mesh_count) + align4(12ull * t->detail_vert_count) +
                    align4(4ull * t->detail_tri_count) + align4((uint64_t)NAVMESH_BV_SIZE * t->bv_node_count);
    if (need != wm_cursor_remaining(cur))
        return wm_cursor_error(cur, need > wm_cursor_remaining(cur) ? WM_ERR_TRUNCATED : WM_ERR_CORRUPT,
                               "the tile's counts need %llu bytes after its header, it has %llu",
                               (unsigned long long)need, (unsigned long long)wm_cursor_remaining(cur));
    return WM_OK;
}

static wm_result take(wm_cursor *cur, const uint8_t **part, uint64_t bytes, const char *what)
{
    return wm_read_view(cur, part, (size_t)align4(bytes), what);
}

static wm_result check_finite(wm_cursor *cur, const uint8_t *floats, uint32_t count, const char *what)
{
    for (uint32_t i = 0; i < count; i++)
        if (!navmesh_in_range(wm_lef32(floats + 4 * (size_t)i)))
            return wm_cursor_error(cur, WM_ERR_CORRUPT, "%s %u is not finite or beyond %g", what, i / 3,
                                   (double)WM_COORD_LIMIT);
    return WM_OK;
}

static wm_result check_polys(wm_cursor *cur, const navmesh_tile *t)
{
    for (uint32_t p = 0; p < t->poly_count; p++) {
        const uint8_t *poly = t->polys + (size_t)p * NAVMESH_POLY_SIZE;
        unsigned count = poly[30], type = poly[31] >> 6;
        if (count < 3 || count > NAVMESH_VERTS_PER_POLY || type != 0)
            return wm_cursor_error(cur, WM_ERR_CORRUPT, "polygon %u: %u vertices, type %u (3 to 6, ground)", p, count,
                                   type);
        for (unsigned j = 0; j < count; j++) {
            uint16_t vertex = wm_le16(poly + 4 + 2 * j), neighbour = wm_le16(poly + 16 + 2 * j);
            if (vertex >= t->vert_count)
                return wm_cursor_error(cur, WM_ERR_CORRUPT, "polygon %u: vertex %u of %u", p, vertex, t->vert_count);
            int external = (neighbour & NAVMESH_EXTERNAL_LINK) != 0;
            if ((external && (neighbour & 0x7fff) > 7) || (!external && neighbour > t->poly_count))
                return wm_cursor_error(cur, WM_ERR_CORRUPT, "polygon %u: neighbour 0x%04x of %u polygons", p, neighbour,
                                       t->poly_count);
        }
    }
    return WM_OK;
}

static wm_result check_details(wm_cursor *cur, const navmesh_tile *t)
{
    for (uint32_t p = 0; p < t->poly_count; p++) {
        const uint8_t *detail = t->detail_meshes + (size_t)p * NAVMESH_DETAIL_SIZE;
        uint64_t vert_base = wm_le32(detail), tri_base = wm_le32(detail + 4);
        unsigned verts = detail[8], tris = detail[9], corners = t->polys[(size_t)p * NAVMESH_POLY_SIZE + 30];
        if (vert_base + verts > t->detail_vert_count || tri_base + tris > t->detail_tri_count)
            return wm_cursor_error(cur, WM_ERR_CORRUPT, "polygon %u: detail vertices or triangles out of range", p);
        /* Detour's closest point off a polygon walks its detail edges flagged as the polygon's
         * boundary and dereferences the nearest one it found: there must be one */
        unsigned boundary = 0;
        for (uint64_t k = tri_base; k < tri_base + tris; k++)
            boundary |= t->detail_tris[4 * k + 3] & 0x15; /* DT_DETAIL_EDGE_BOUNDARY of edges 0, 1, 2 */
        if (!boundary)
            return wm_cursor_error(cur, WM_ERR_CORRUPT, "polygon %u: no detail triangle on its boundary", p);
        for (uint64_t k = tri_base; k < tri_base + tris; k++)
            for (int c = 0; c < 3; c++)
                if (t->detail_tris[4 * k + c] >= corners + verts)
                    return wm_cursor_error(cur, WM_ERR_CORRUPT, "polygon %u: detail triangle %llu has vertex %u of %u",
                                           p, (unsigned long long)k, t->detail_tris[4 * k + c], corners + verts);
    }
    return WM_OK;
}

/* A leaf names a polygon; an inner node's negative index skips forward within the tree. */
static wm_result check_bv_tree(wm_cursor *cur, const navmesh_tile *t)
{
    for (uint32_t n = 0; n < t->bv_node_count; n++) {
        int32_t i = (int32_t)wm_le32(t->bv_nodes + (size_t)n * NAVMESH_BV_SIZE + 12);
        int leaf_bad = i >= 0 && (uint32_t)i >= t->poly_count;
        int skip_bad = i < 0 && (i == INT32_MIN || (uint64_t)n + (uint64_t)(-(int64_t)i) > t->bv_node_count);
        if (leaf_bad || skip_bad)
            return wm_cursor_error(cur, WM_ERR_CORRUPT, "BV node %u: index %d out of range", n, i);
    }
    return WM_OK;
}

wm_result navmesh_tile_parse(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, uint32_t index,
                             navmesh_tile *t)
{
    char name[300];
    snprintf(name, sizeof name, "%s: tile %u", source ? source : "<memory>", index);
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, data, size, name);
    memset(t, 0, sizeof *t);
    const uint8_t *links, *off_mesh;
    wm_result r = read_header(&cur, t);
    if (!r)
        r = check_counts(&cur, t);
    if (!r)
        r = take(&cur, &t->verts, 12ull * t->vert_count, "tile vertices");
    if (!r)
        r = take(&cur, &t->polys, (uint64_t)NAVMESH_POLY_SIZE * t->poly_count, "tile polygons");
    if (!r)
        r = take(&cur, &links, (uint64_t)NAVMESH_LINK_SIZE * t->max_link_count, "tile links");
    if (!r)
        r = take(&cur, &t->detail_meshes, (uint64_t)NAVMESH_DETAIL_SIZE * t->detail_mesh_count, "detail meshes");
    if (!r)
        r = take(&cur, &t->detail_verts, 12ull * t->detail_vert_count, "detail vertices");
    if (!r)
        r = take(&cur, &t->detail_tris, 4ull * t->detail_tri_count, "detail triangles");
    if (!r)
        r = take(&cur, &t->bv_nodes, (uint64_t)NAVMESH_BV_SIZE * t->bv_node_count, "BV tree");
    if (!r)
        r = take(&cur, &off_mesh, 0, "off-mesh connections");
    if (!r)
        r = check_finite(&cur, t->verts, 3 * t->vert_count, "vertex");
    if (!r)
        r = check_finite(&cur, t->detail_verts, 3 * t->detail_vert_count, "detail vertex");
    if (!r)
        r = check_polys(&cur, t);
    if (!r)
        r = check_details(&cur, t);
    if (!r)
        r = check_bv_tree(&cur, t);
    return r;
}

uint32_t navmesh_poly_vertices(const navmesh_tile *t, uint32_t p, uint16_t indices[NAVMESH_VERTS_PER_POLY],
                               unsigned *area)
{
    const uint8_t *poly = t->polys + (size_t)p * NAVMESH_POLY_SIZE;
    unsigned count = poly[30];
    for (unsigned j = 0; j < count; j++)
        indices[j] = wm_le16(poly + 4 + 2 * j);
    *area = poly[31] & 0x3f;
    return count;
}

void navmesh_tile_vertex(const navmesh_tile *t, uint32_t v, float out[3])
{
    for (int k = 0; k < 3; k++)
        out[k] = wm_lef32(t->verts + 12 * (size_t)v + 4 * k);
}
