/* wm_generate: render triangles through Recast (wm_navmesh_build) to the walkable polygons and
 * their detail triangles, corners put on the render floor, welded into one walkmesh. */
#include "generate_internal.h"
#include "navmesh_internal.h"
#include "wm_geometry.h"
#include "wm_surface.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Tiles of this many cells: a room (tens of metres) is one or a few tiles at KotOR's cells,
 * while a 10 km scene's heightfield is still built a tile at a time. */
#define GENERATE_TILE_CELLS 512
/* Blocking ground (config->blocking): floor up to this slope that is too steep to walk, and floor
 * under something lower than the agent but at least a step high, takes Recast area
 * GENERATE_BLOCKING_AREA, below every surface's so that merged spans stay walkable. */
#define GENERATE_BLOCKING_SLOPE 60.0f
#define GENERATE_BLOCKING_AREA 1

static wm_result check_config(wm_ctx *ctx, const wm_generate_config *g)
{
    const float v[] = {g->agent_height, g->agent_radius, g->max_slope, g->max_climb, g->min_area,
                       g->max_error, g->cell_size, g->cell_height, g->keep_fraction, g->detail};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        if (!isfinite(v[i]) || v[i] < 0)
            return wm_error(ctx, WM_ERR_INVALID, "generate: every parameter must be a finite number, 0 or more");
    if (g->max_error <= 0 || g->agent_height <= 0)
        return wm_error(ctx, WM_ERR_INVALID, "generate: --max-error and --agent-height must be above 0");
    return WM_OK;
}

/* The generator's parameters as Recast's (in voxels where Recast counts voxels). */
void wm_generate_navmesh_config(const wm_generate_config *g, wm_navmesh_config *c)
{
    wm_navmesh_config_recast(c);
    c->cell_size = g->cell_size > 0 ? g->cell_size : 0.1f;
    c->cell_height = g->cell_height > 0 ? g->cell_height : c->cell_size / 2;
    c->agent_height = g->agent_height, c->agent_radius = g->agent_radius, c->agent_climb = g->max_climb;
    c->walkable_slope = g->max_slope;
    c->tile_size = GENERATE_TILE_CELLS;
    c->max_edge_length = 0; /* long straight walls stay one edge */
    c->max_simplification_error = g->max_error / c->cell_size;
    c->min_region_size = (int)ceilf(sqrtf(g->min_area) / c->cell_size);
    c->merge_region_size = c->min_region_size > 20 ? c->min_region_size : 20;
    c->detail_sample_distance = g->detail;
    c->detail_sample_max_error = g->max_error / 2 / c->cell_height;
    c->areas_by_surface = 1;
    if (g->blocking) {
        c->steep_slope = g->max_slope < GENERATE_BLOCKING_SLOPE ? GENERATE_BLOCKING_SLOPE : 0;
        c->steep_area = c->low_area = GENERATE_BLOCKING_AREA;
        c->low_height = g->max_climb;
    }
}

typedef struct generator {
    wm_ctx *ctx;
    const wm_generate_config *config;
    const wm_navmesh_config *recast;
    floor_index floor;
    floor_index steep_floor; /* with blocking ground: the render triangles up to the blocking slope */
    floor_limits limits;
    wm_mesh *out;
    uint32_t unsettled; /* corners with no render floor near them: kept at the voxel height */
} generator;

/* A corner from Recast space onto the render floor, in the neutral model's space. */
static wm_result add_corner(generator *g, const float p[3], uint32_t *index)
{
    float x = p[0], y = -p[2], z = p[1], floor_z;
    const floor_limits *l = &g->limits;
    /* a corner shared by walkable and blocking ground settles alike from either: the walkable
     * floor first, else (blocking ground on) the steeper one */
    if (floor_height(&g->floor, x, y, z, l->below, l->above, l->reach, &floor_z) ||
        (l->steep_floor && floor_height(l->steep_floor, x, y, z, l->below, l->above, l->reach, &floor_z)))
        z = floor_z;
    else
        g->unsettled++;
    return wm_mesh_add_vertex(g->ctx, g->out, x, y, z, index);
}

/* A polygon's surface: its area is WM_NAVMESH_SURFACE_AREA + the render surface under it
 * (polygons do not cross from one surface to another), kept when the render's material or
 * texture named one (through the surface table, and so --materials), else the configured
 * walkable surface; blocking ground (too steep, too low) is nonwalk. */
static uint16_t polygon_surface(const generator *g, const navmesh_tile *t, uint32_t p)
{
    unsigned area = t->polys[(size_t)p * NAVMESH_POLY_SIZE + 31] & 0x3Fu;
    if (area == GENERATE_BLOCKING_AREA && g->config->blocking)
        return WM_SURF_NONWALK;
    unsigned surface = area - WM_NAVMESH_SURFACE_AREA;
    if (area < WM_NAVMESH_SURFACE_AREA || surface >= WM_NAVMESH_SURFACE_AREAS || surface == WM_SURF_UNDEFINED ||
        surface >= wm_surfaces(g->ctx)->count)
        return g->config->walkable_surface;
    return (uint16_t)surface;
}

static void tile_point(const navmesh_tile *t, uint32_t p, unsigned index, unsigned corners, float out[3])
{
    if (index < corners) {
        navmesh_tile_vertex(t, wm_le16(t->polys + (size_t)p * NAVMESH_POLY_SIZE + 4 + 2 * index), out);
        return;
    }
    uint32_t base = wm_le32(t->detail_meshes + (size_t)p * NAVMESH_DETAIL_SIZE);
    memcpy(out, t->detail_verts + 12 * ((size_t)base + index - corners), 12);
}

/* Polygon p's detail triangles (its corners and Recast's height samples). */
static wm_result add_polygon(generator *g, const navmesh_tile *t, uint32_t p)
{
    const uint8_t *detail = t->detail_meshes + (size_t)p * NAVMESH_DETAIL_SIZE;
    uint32_t tri_base = wm_le32(detail + 4);
    unsigned verts = detail[8], tris = detail[9], corners = t->polys[(size_t)p * NAVMESH_POLY_SIZE + 30];
    uint32_t first = g->out->vertex_count;
    uint16_t surface = polygon_surface(g, t, p);
    wm_result r = WM_OK;
    for (unsigned v = 0; v < corners + verts && !r; v++) {
        float at[3];
        tile_point(t, p, v, corners, at);
        r = add_corner(g, at, NULL);
    }
    for (unsigned k = 0; k < tris && !r; k++) {
        const uint8_t *tri = t->detail_tris + 4 * ((size_t)tri_base + k);
        /* Recast winds clockwise seen from +Y; in Z-up space (y = -z) that is counter-clockwise from above */
        r = wm_mesh_add_triangle(g->ctx, g->out, first + tri[0], first + tri[1], first + tri[2], surface,
                                 wm_surface_walkable(wm_surfaces(g->ctx), surface));
    }
    return r;
}

static wm_result add_tiles(generator *g, const wm_navmesh *nav)
{
    wm_result r = WM_OK;
    for (uint32_t i = 0; i < nav->tile_count && !r; i++) {
        navmesh_tile tile;
        r = navmesh_tile_parse(g->ctx, nav->tile_data + nav->tile_offsets[i],
                               (size_t)(nav->tile_offsets[i + 1] - nav->tile_offsets[i]), NULL, i, &tile);
        for (uint32_t p = 0; p < tile.poly_count && !r; p++)
            r = add_polygon(g, &tile, p);
    }
    return r;
}

static float walkable_area(const wm_mesh *m)
{
    double area = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        if (!m->walkable[t])
            continue;
        const uint32_t *i = m->indices + 3 * (size_t)t;
        const float *a = m->positions + 3 * (size_t)i[0], *b = m->positions + 3 * (size_t)i[1],
                    *c = m->positions + 3 * (size_t)i[2];
        area += 0.5 * fabs((double)(b[0] - a[0]) * (c[1] - a[1]) - (double)(c[0] - a[0]) * (b[1] - a[1]));
    }
    return (float)area;
}

static wm_result finish(generator *g, wm_generate_stats *stats)
{
    uint32_t merged = 0, removed = 0;
    wm_result r = wm_mesh_weld(g->ctx, g->out, 1e-3f, &merged);
    if (!r)
        r = wm_mesh_remove_degenerate(g->ctx, g->out, 1e-6f, &removed);
    if (!r)
        r = generate_drop_pieces(g->ctx, g->out, g->config->min_area, g->config->keep_fraction, &removed);
    if (!r)
        r = generate_simplify(g->ctx, g->out, &g->limits);
    if (!r)
        r = generate_drop_stacked_faces(g->ctx, g->out, &removed);
    if (!r)
        r = generate_split_touching_corners(g->ctx, g->out);
    if (!r)
        r = wm_mesh_compact(g->ctx, g->out);
    if (!r && stats) {
        stats->faces = g->out->triangle_count;
        stats->walkable_area = walkable_area(g->out);
    }
    return r;
}

wm_result wm_generate(wm_ctx *ctx, const wm_mesh *render, const wm_generate_config *config, wm_mesh *out,
                      wm_generate_stats *stats)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    wm_result r = check_config(ctx, config);
    if (r)
        return r;
    if (render->triangle_count == 0)
        return wm_error(ctx, WM_ERR_INVALID, "generate: the input has no triangles");
    r = wm_mesh_check_finite(ctx, render);
    if (r)
        return r;
    wm_navmesh_config recast;
    wm_generate_navmesh_config(config, &recast);
    wm_navmesh nav;
    r = wm_navmesh_build(ctx, render, &recast, &nav);
    if (r)
        return r;
    wm_mesh result;
    wm_mesh_init(&result);
    snprintf(result.name, sizeof result.name, "%s", render->name[0] ? render->name : "walkmesh");
    /* a corner looks for its floor from two cell heights and the climb below its voxel top to a
     * cell height above it, and up to 1.5 cells beyond the floor's edge; a simplified face keeps
     * within half of --max-error of the floor; a simplified outline keeps within --max-error and
     * a cell of Recast's outline, as far as Recast's own outline may lie from the walls (its
     * contour within --max-error of the voxels', the voxels' within a cell: docs/generate.md) */
    generator g = {ctx, config, &recast, {0}, {0}, {NULL, NULL, 0, 0, 0, 0, 0, 0}, &result, 0};
    g.limits = (floor_limits){&g.floor, NULL, recast.cell_height * 2 + config->max_climb, recast.cell_height,
                              recast.cell_size * 1.5f, config->max_error * 0.5f, config->max_error + recast.cell_size,
                              recast.cell_size};
    r = floor_index_build(ctx, render, config->max_slope, &g.floor);
    if (!r && recast.steep_slope > config->max_slope) {
        r = floor_index_build(ctx, render, recast.steep_slope, &g.steep_floor);
        g.limits.steep_floor = &g.steep_floor;
    }
    if (!r)
        r = add_tiles(&g, &nav);
    if (!r)
        r = finish(&g, stats);
    if (!r && stats) {
        stats->input_triangles = render->triangle_count;
        stats->voxel_polygons = nav.poly_count;
    }
    floor_index_free(ctx, &g.floor);
    floor_index_free(ctx, &g.steep_floor);
    wm_navmesh_free(ctx, &nav);
    if (r)
        wm_mesh_free(ctx, &result);
    else
        *out = result;
    return r;
}
