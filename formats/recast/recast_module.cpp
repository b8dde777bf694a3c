// The walkmesh-recast module: Recast and Detour (C++) behind the C interface of recast_module.h.
// It is its own shared library, loaded by the C library only when a navmesh is built or
// queried (recast_api.c). Nothing here throws: Recast and Detour report failure by return
// values and allocate through rcAlloc/dtAlloc, and this file uses no C++ container.
#include "recast_module.h"
#include "recast_module_detail.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>
#include <Recast.h>

#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(_WIN32)
#define WMRC_EXPORT __declspec(dllexport)
#else
#define WMRC_EXPORT __attribute__((visibility("default")))
#endif

namespace {

int refuse(char *why, const char *what)
{
    std::snprintf(why, WMRC_WHY, "%s", what);
    return 0;
}

struct build_state {
    rcHeightfield *solid = nullptr;
    rcCompactHeightfield *compact = nullptr;
    rcContourSet *contours = nullptr;
    rcPolyMesh *poly = nullptr;
    rcPolyMeshDetail *detail = nullptr;
    unsigned char *areas = nullptr;

    void release_intermediates()
    {
        rcFreeHeightField(solid);
        rcFreeCompactHeightfield(compact);
        rcFreeContourSet(contours);
        std::free(areas);
        solid = nullptr, compact = nullptr, contours = nullptr, areas = nullptr;
    }
};

rcConfig recast_config(const wmrc_config *c)
{
    rcConfig r;
    std::memset(&r, 0, sizeof r);
    r.width = c->width, r.height = c->height, r.tileSize = c->tile_size, r.borderSize = c->border_size;
    r.cs = c->cs, r.ch = c->ch;
    rcVcopy(r.bmin, c->bmin), rcVcopy(r.bmax, c->bmax);
    r.walkableSlopeAngle = c->walkable_slope_angle;
    r.walkableHeight = c->walkable_height, r.walkableClimb = c->walkable_climb, r.walkableRadius = c->walkable_radius;
    r.maxEdgeLen = c->max_edge_len, r.maxSimplificationError = c->max_simplification_error;
    r.minRegionArea = c->min_region_area, r.mergeRegionArea = c->merge_region_area;
    r.maxVertsPerPoly = c->max_verts_per_poly;
    r.detailSampleDist = c->detail_sample_dist, r.detailSampleMaxError = c->detail_sample_max_error;
    return r;
}

// rcFilterWalkableLowHeightSpans, except that a span with at least low_height of headroom keeps
// low_area instead of none: the ground under a table stays, as blocking ground, beside the floor.
void mark_low_spans(rcHeightfield &hf, int walkable_height, int low_height, unsigned char low_area)
{
    for (int column = 0; column < hf.width * hf.height; column++)
        for (rcSpan *s = hf.spans[column]; s; s = s->next) {
            const int bottom = (int)s->smax, top = s->next ? (int)s->next->smin : RC_SPAN_MAX_HEIGHT;
            if (s->area != RC_NULL_AREA && top - bottom < walkable_height)
                s->area = top - bottom >= low_height ? low_area : RC_NULL_AREA;
        }
}

// Heightfield, filters and compact heightfield: the voxel half of Recast's pipeline.
int rasterise(rcContext &context, const rcConfig &cfg, const wmrc_config *c, const float *verts, int vert_count,
              const int *tris, int tri_count, build_state &s, char *why)
{
    s.solid = rcAllocHeightfield();
    if (!s.solid || !rcCreateHeightfield(&context, *s.solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch))
        return refuse(why, "out of memory for the heightfield");
    if (cfg.walkableSlopeAngle > 0)
        rcClearUnwalkableTriangles(&context, cfg.walkableSlopeAngle, verts, vert_count, tris, tri_count, s.areas);
    if (!rcRasterizeTriangles(&context, verts, vert_count, tris, s.areas, tri_count, *s.solid, cfg.walkableClimb))
        return refuse(why, "out of memory while rasterising the triangles");
    if (c->steps & WMRC_FILTER_LOW_HANGING)
        rcFilterLowHangingWalkableObstacles(&context, cfg.walkableClimb, *s.solid);
    if (c->steps & WMRC_FILTER_LEDGES)
        rcFilterLedgeSpans(&context, cfg.walkableHeight, cfg.walkableClimb, *s.solid);
    const int low_spans = c->low_area != RC_NULL_AREA && c->low_height < cfg.walkableHeight;
    if ((c->steps & WMRC_FILTER_LOW_HEIGHT) && low_spans)
        mark_low_spans(*s.solid, cfg.walkableHeight, c->low_height, c->low_area);
    else if (c->steps & WMRC_FILTER_LOW_HEIGHT)
        rcFilterWalkableLowHeightSpans(&context, cfg.walkableHeight, *s.solid);
    // low spans join their neighbours only if the compact heightfield's headroom admits them
    const int headroom = low_spans ? c->low_height : cfg.walkableHeight;
    s.compact = rcAllocCompactHeightfield();
    if (!s.compact || !rcBuildCompactHeightfield(&context, headroom, cfg.walkableClimb, *s.solid, *s.compact))
        return refuse(why, "out of memory for the compact heightfield");
    rcFreeHeightField(s.solid);
    s.solid = nullptr;
    if (!rcErodeWalkableArea(&context, cfg.walkableRadius, *s.compact))
        return refuse(why, "out of memory while eroding the walkable area");
    if ((c->steps & WMRC_MEDIAN_AREAS) && !rcMedianFilterWalkableArea(&context, *s.compact))
        return refuse(why, "out of memory in the median filter of areas");
    return 1;
}

int partition(rcContext &context, const rcConfig &cfg, int method, rcCompactHeightfield &chf, char *why)
{
    bool ok;
    if (method == WMRC_REGIONS_MONOTONE)
        ok = rcBuildRegionsMonotone(&context, chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea);
    else if (method == WMRC_REGIONS_LAYERS)
        ok = rcBuildLayerRegions(&context, chf, cfg.borderSize, cfg.minRegionArea);
    else
        ok = rcBuildDistanceField(&context, chf) &&
             rcBuildRegions(&context, chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea);
    return ok ? 1 : refuse(why, "Recast could not partition the walkable area into regions");
}

// Regions, contours, polygons and detail: the mesh half.
int build_meshes(rcContext &context, const rcConfig &cfg, int method, build_state &s, char *why)
{
    if (!partition(context, cfg, method, *s.compact, why))
        return 0;
    s.contours = rcAllocContourSet();
    if (!s.contours || !rcBuildContours(&context, *s.compact, cfg.maxSimplificationError, cfg.maxEdgeLen, *s.contours))
        return refuse(why, "Recast could not trace the region contours");
    if (s.contours->nconts == 0)
        return 1;
    s.poly = rcAllocPolyMesh();
    if (!s.poly || !rcBuildPolyMesh(&context, *s.contours, cfg.maxVertsPerPoly, *s.poly))
        return refuse(why, "Recast could not build the polygon mesh (more than 65,535 vertices in a tile?)");
    s.detail = rcAllocPolyMeshDetail();
    if (!s.detail ||
        !rcBuildPolyMeshDetail(&context, *s.poly, *s.compact, cfg.detailSampleDist, cfg.detailSampleMaxError, *s.detail))
        return refuse(why, "Recast could not build the detail mesh");
    wmrc_settle_unset_detail_heights(*s.poly, *s.detail);
    return 1;
}

void describe(const build_state &s, wmrc_polymesh &m)
{
    const rcPolyMesh &p = *s.poly;
    const rcPolyMeshDetail &d = *s.detail;
    m.verts = p.verts, m.vert_count = p.nverts, m.polys = p.polys, m.flags = p.flags, m.areas = p.areas;
    m.poly_count = p.npolys, m.nvp = p.nvp, m.cs = p.cs, m.ch = p.ch, m.border_size = p.borderSize;
    rcVcopy(m.bmin, p.bmin), rcVcopy(m.bmax, p.bmax);
    m.detail_meshes = d.meshes, m.detail_verts = d.verts, m.detail_tris = d.tris;
    m.detail_vert_count = d.nverts, m.detail_tri_count = d.ntris;
}

} // namespace

struct wmrc_build {
    build_state state;
    wmrc_polymesh mesh;
};

extern "C" {

void wmrc_build_free(wmrc_build *build)
{
    if (!build)
        return;
    build->state.release_intermediates();
    rcFreePolyMesh(build->state.poly);
    rcFreePolyMeshDetail(build->state.detail);
    delete build;
}

int wmrc_build_tile(const wmrc_config *c, const float *verts, int vert_count, const int *tris,
                    const unsigned char *areas, int tri_count, wmrc_build **out, const wmrc_polymesh **mesh, char *why)
{
    *out = nullptr, *mesh = nullptr;
    wmrc_build *b = new (std::nothrow) wmrc_build{};
    if (!b)
        return refuse(why, "out of memory");
    b->state.areas = static_cast<unsigned char *>(std::malloc(tri_count > 0 ? (size_t)tri_count : 1));
    if (!b->state.areas) {
        wmrc_build_free(b);
        return refuse(why, "out of memory");
    }
    if (tri_count > 0)
        std::memcpy(b->state.areas, areas, (size_t)tri_count);
    rcContext context(false);
    const rcConfig cfg = recast_config(c);
    if (!rasterise(context, cfg, c, verts, vert_count, tris, tri_count, b->state, why) ||
        !build_meshes(context, cfg, c->region_method, b->state, why)) {
        wmrc_build_free(b);
        return 0;
    }
    b->state.release_intermediates();
    if (!b->state.poly || b->state.poly->npolys == 0) {
        wmrc_build_free(b);
        return 1; // nothing walkable in this tile
    }
    describe(b->state, b->mesh);
    *out = b, *mesh = &b->mesh;
    return 1;
}

int wmrc_create_tile_data(const wmrc_polymesh *m, const wmrc_tile_params *t, unsigned char **data, int *size,
                          char *why)
{
    dtNavMeshCreateParams p;
    std::memset(&p, 0, sizeof p);
    p.verts = m->verts, p.vertCount = m->vert_count;
    p.polys = m->polys, p.polyAreas = m->areas, p.polyFlags = m->flags, p.polyCount = m->poly_count, p.nvp = m->nvp;
    p.detailMeshes = m->detail_meshes, p.detailVerts = m->detail_verts, p.detailVertsCount = m->detail_vert_count;
    p.detailTris = m->detail_tris, p.detailTriCount = m->detail_tri_count;
    p.walkableHeight = t->walkable_height, p.walkableRadius = t->walkable_radius, p.walkableClimb = t->walkable_climb;
    p.tileX = t->tile_x, p.tileY = t->tile_y, p.tileLayer = 0;
    rcVcopy(p.bmin, m->bmin), rcVcopy(p.bmax, m->bmax);
    p.cs = m->cs, p.ch = m->ch;
    p.buildBvTree = true;
    *data = nullptr, *size = 0;
    if (m->vert_count >= 0xffff)
        return refuse(why, "a tile has 65,535 vertices or more (Detour's limit): use smaller tiles");
    if (!dtCreateNavMeshData(&p, data, size))
        return refuse(why, "Detour could not make tile data of the polygon mesh");
    return 1;
}

void wmrc_free(void *data)
{
    dtFree(data);
}

} // extern "C"

struct wmrc_navmesh {
    dtNavMesh *mesh = nullptr;
    dtNavMeshQuery *query = nullptr;
    int max_tiles = 0, max_polys = 0;
};

extern "C" {

void wmrc_navmesh_close(wmrc_navmesh *n)
{
    if (!n)
        return;
    dtFreeNavMeshQuery(n->query);
    dtFreeNavMesh(n->mesh);
    delete n;
}

int wmrc_navmesh_open(const wmrc_navmesh_params *params, int max_nodes, wmrc_navmesh **out, char *why)
{
    *out = nullptr;
    wmrc_navmesh *n = new (std::nothrow) wmrc_navmesh{};
    if (!n)
        return refuse(why, "out of memory");
    n->max_tiles = params->max_tiles, n->max_polys = params->max_polys;
    n->mesh = dtAllocNavMesh();
    n->query = dtAllocNavMeshQuery();
    dtNavMeshParams p;
    rcVcopy(p.orig, params->origin);
    p.tileWidth = params->tile_width, p.tileHeight = params->tile_height;
    p.maxTiles = params->max_tiles, p.maxPolys = params->max_polys;
    if (!n->mesh || !n->query || dtStatusFailed(n->mesh->init(&p))) {
        wmrc_navmesh_close(n);
        return refuse(why, "Detour refused the navmesh parameters (too many tiles or polygons for its references?)");
    }
    if (dtStatusFailed(n->query->init(n->mesh, max_nodes))) {
        wmrc_navmesh_close(n);
        return refuse(why, "out of memory for Detour's query");
    }
    *out = n;
    return 1;
}

int wmrc_navmesh_add_tile(wmrc_navmesh *n, const unsigned char *data, int size, char *why)
{
    unsigned char *copy = static_cast<unsigned char *>(dtAlloc(size > 0 ? size : 1, DT_ALLOC_PERM));
    if (!copy)
        return refuse(why, "out of memory");
    std::memcpy(copy, data, (size_t)size);
    dtStatus status = n->mesh->addTile(copy, size, DT_TILE_FREE_DATA, 0, nullptr);
    if (dtStatusFailed(status)) {
        dtFree(copy);
        if (status & DT_ALREADY_OCCUPIED)
            return refuse(why, "two tiles at the same place");
        return refuse(why, (status & DT_WRONG_VERSION) ? "Detour tile data of another version"
                                                       : "Detour refused a tile (no room left, or not tile data)");
    }
    return 1;
}

} // extern "C"

namespace {

void identify(const dtNavMesh &mesh, dtPolyRef ref, wmrc_poly_id &id)
{
    const dtMeshTile *tile = nullptr;
    const dtPoly *poly = nullptr;
    mesh.getTileAndPolyByRefUnsafe(ref, &tile, &poly);
    id.tile_x = tile->header->x, id.tile_y = tile->header->y, id.poly = (int)(poly - tile->polys);
}

dtQueryFilter filter_of(unsigned short include_flags)
{
    dtQueryFilter filter;
    filter.setIncludeFlags(include_flags);
    filter.setExcludeFlags(0);
    return filter;
}

} // namespace

extern "C" {

int wmrc_nearest_poly(wmrc_navmesh *n, const float pos[3], const float half_extents[3], unsigned short include_flags,
                      int *found, wmrc_poly_id *poly, float nearest[3], char *why)
{
    dtQueryFilter filter = filter_of(include_flags);
    dtPolyRef ref = 0;
    *found = 0;
    if (dtStatusFailed(n->query->findNearestPoly(pos, half_extents, &filter, &ref, nearest)))
        return refuse(why, "Detour's findNearestPoly failed");
    if (ref) {
        *found = 1;
        identify(*n->mesh, ref, *poly);
    }
    return 1;
}

int wmrc_find_path(wmrc_navmesh *n, const float start[3], const float end[3], const float half_extents[3],
                   unsigned short include_flags, int max_polys, float *points, int max_points, int *point_count,
                   int *complete, char *why)
{
    dtQueryFilter filter = filter_of(include_flags);
    dtPolyRef from = 0, to = 0;
    float from_point[3], to_point[3];
    *point_count = 0, *complete = 0;
    n->query->findNearestPoly(start, half_extents, &filter, &from, from_point);
    n->query->findNearestPoly(end, half_extents, &filter, &to, to_point);
    if (!from || !to)
        return 1;
    dtPolyRef *corridor = static_cast<dtPolyRef *>(std::malloc(sizeof(dtPolyRef) * (size_t)max_polys));
    if (!corridor)
        return refuse(why, "out of memory");
    int corridor_count = 0;
    dtStatus status = n->query->findPath(from, to, from_point, to_point, &filter, corridor, &corridor_count, max_polys);
    if (dtStatusFailed(status) || corridor_count == 0) {
        std::free(corridor);
        return refuse(why, "Detour's findPath failed");
    }
    *complete = corridor[corridor_count - 1] == to && !(status & DT_PARTIAL_RESULT);
    float goal[3];
    rcVcopy(goal, to_point);
    if (!*complete)
        n->query->closestPointOnPoly(corridor[corridor_count - 1], to_point, goal, nullptr);
    status = n->query->findStraightPath(from_point, goal, corridor, corridor_count, points, nullptr, nullptr,
                                        point_count, max_points);
    std::free(corridor);
    if (dtStatusFailed(status))
        return refuse(why, "Detour's findStraightPath failed");
    return 1;
}

} // extern "C"

namespace {

// Breadth first over the links of every polygon: Detour's own searches stop at their node
// pool (at most 65,535 nodes), a navmesh may have more polygons. The flag test is
// dtQueryFilter::passFilter's, which libDetour does not export.
struct flood_state {
    const dtNavMesh *mesh;
    int max_polys; // per tile: a polygon's slot is tile index * max_polys + its index
    size_t slots;
    unsigned char *seen;
    dtPolyRef *queue;
};

int flood_open(const wmrc_navmesh *n, flood_state &s, char *why)
{
    s.mesh = n->mesh, s.max_polys = n->max_polys;
    s.slots = (size_t)n->max_tiles * (size_t)n->max_polys;
    s.seen = static_cast<unsigned char *>(std::calloc(s.slots, 1));
    s.queue = static_cast<dtPolyRef *>(std::malloc(sizeof(dtPolyRef) * s.slots));
    if (!s.seen || !s.queue) {
        std::free(s.seen), std::free(s.queue);
        return refuse(why, "out of memory");
    }
    return 1;
}

// Marks ref seen; 0 when it was already, or is out of the slots.
int take(flood_state &s, dtPolyRef ref)
{
    unsigned salt, tile_index, poly_index;
    s.mesh->decodePolyId(ref, salt, tile_index, poly_index);
    size_t slot = (size_t)tile_index * (size_t)s.max_polys + poly_index;
    if (slot >= s.slots || s.seen[slot])
        return 0;
    s.seen[slot] = 1;
    return 1;
}

// Every polygon linked to `from` (already taken) and not seen yet: up to max_polys of them
// into polys (and their region into regions, when given); *count grows by how many there are.
void flood(flood_state &s, dtPolyRef from, unsigned short include_flags, int region, wmrc_poly_id *polys,
           int *regions, int max_polys, int *count)
{
    size_t head = 0, tail = 0;
    s.queue[tail++] = from;
    while (head < tail) {
        dtPolyRef ref = s.queue[head++];
        const dtMeshTile *tile = nullptr;
        const dtPoly *poly = nullptr;
        s.mesh->getTileAndPolyByRefUnsafe(ref, &tile, &poly);
        if (*count < max_polys) {
            identify(*s.mesh, ref, polys[*count]);
            if (regions)
                regions[*count] = region;
        }
        ++*count;
        for (unsigned link = poly->firstLink; link != DT_NULL_LINK; link = tile->links[link].next) {
            dtPolyRef next = tile->links[link].ref;
            const dtMeshTile *next_tile = nullptr;
            const dtPoly *next_poly = nullptr;
            if (!next || dtStatusFailed(s.mesh->getTileAndPolyByRef(next, &next_tile, &next_poly)) ||
                !(next_poly->flags & include_flags) || !take(s, next))
                continue;
            s.queue[tail++] = next;
        }
    }
}

} // namespace

extern "C" {

int wmrc_reachable(wmrc_navmesh *n, const float start[3], const float half_extents[3], unsigned short include_flags,
                   wmrc_poly_id *polys, int max_polys, int *poly_count, char *why)
{
    dtQueryFilter filter = filter_of(include_flags);
    dtPolyRef from = 0;
    float from_point[3];
    *poly_count = 0;
    n->query->findNearestPoly(start, half_extents, &filter, &from, from_point);
    if (!from)
        return 1;
    flood_state s;
    if (!flood_open(n, s, why))
        return 0;
    take(s, from);
    flood(s, from, include_flags, 0, polys, nullptr, max_polys, poly_count);
    std::free(s.seen), std::free(s.queue);
    return 1;
}

int wmrc_regions(wmrc_navmesh *n, unsigned short include_flags, wmrc_poly_id *polys, int *regions, int max_polys,
                 int *poly_count, int *region_count, char *why)
{
    *poly_count = 0, *region_count = 0;
    flood_state s;
    if (!flood_open(n, s, why))
        return 0;
    const dtNavMesh &mesh = *n->mesh;
    for (int t = 0; t < mesh.getMaxTiles(); t++) {
        const dtMeshTile *tile = mesh.getTile(t);
        if (!tile || !tile->header)
            continue;
        for (int p = 0; p < tile->header->polyCount; p++) {
            dtPolyRef ref = mesh.getPolyRefBase(tile) | (dtPolyRef)p;
            if (!(tile->polys[p].flags & include_flags) || !take(s, ref))
                continue;
            flood(s, ref, include_flags, (*region_count)++, polys, regions, max_polys, poly_count);
        }
    }
    std::free(s.seen), std::free(s.queue);
    return 1;
}

WMRC_EXPORT const wmrc_functions *wmrc_functions_v1(void)
{
    static const wmrc_functions table = {
        WMRC_INTERFACE_VERSION, wmrc_build_tile, wmrc_build_free, wmrc_create_tile_data, wmrc_free,
        wmrc_navmesh_open, wmrc_navmesh_add_tile, wmrc_navmesh_close, wmrc_nearest_poly, wmrc_find_path,
        wmrc_reachable, wmrc_regions,
    };
    return &table;
}

} // extern "C"
