/* The parameter sets a navmesh is built with: Recast's own defaults and TrinityCore's. */
#include "wm_navmesh.h"

#include <string.h>

void wm_navmesh_config_recast(wm_navmesh_config *c)
{
    /* RecastDemo's Sample_TileMesh settings, the values Recast's documentation starts from. */
    memset(c, 0, sizeof *c);
    c->cell_size = 0.3f, c->cell_height = 0.2f;
    c->agent_height = 2.0f, c->agent_radius = 0.6f, c->agent_climb = 0.9f;
    c->walkable_slope = 45.0f;
    c->ground_area = WM_NAVMESH_AREA_WALKABLE;
    c->steep_area = WM_NAVMESH_AREA_WALKABLE;
    c->tile_size = 32;
    c->max_edge_length = 12.0f, c->max_simplification_error = 1.3f;
    c->min_region_size = 8, c->merge_region_size = 20;
    c->max_verts_per_poly = 6;
    c->detail_sample_distance = 6.0f, c->detail_sample_max_error = 1.0f;
    c->steps = WM_NAVMESH_FILTER_LOW_HANGING | WM_NAVMESH_FILTER_LEDGES | WM_NAVMESH_FILTER_LOW_HEIGHT |
               WM_NAVMESH_MEDIAN_AREAS;
}

/* TrinityCore's mmaps_generator (TileBuilder.cpp, GetMapSpecificConfig and buildMoveMapTile;
 * docs/recast.md gives the commit): everything in units of its base cell, 0.2666666 yd. */
void wm_navmesh_config_trinitycore(wm_navmesh_config *c)
{
    wm_navmesh_config_recast(c);
    const float unit = 0.2666666f;
    c->cell_size = unit, c->cell_height = unit;
    c->agent_height = 6 * unit, c->agent_radius = 2 * unit, c->agent_climb = 6 * unit;
    c->walkable_slope = 55.0f; /* below: NAV_AREA_GROUND */
    c->steep_slope = 70.0f;    /* up to: NAV_AREA_GROUND_STEEP (the generator's --maxAngle default) */
    c->ground_area = WM_NAVMESH_AREA_GROUND, c->steep_area = WM_NAVMESH_AREA_STEEP;
    c->tile_size = 80;
    c->max_edge_length = 81 * unit, c->max_simplification_error = 1.8f;
    c->min_region_size = 60, c->merge_region_size = 50;
    c->detail_sample_distance = 16.0f, c->detail_sample_max_error = 1.0f;
}

wm_result wm_navmesh_config_preset(wm_ctx *ctx, const char *name, wm_navmesh_config *config)
{
    if (strcmp(name, "recast") == 0)
        wm_navmesh_config_recast(config);
    else if (strcmp(name, "trinitycore") == 0)
        wm_navmesh_config_trinitycore(config);
    else
        return wm_error(ctx, WM_ERR_OPTION, "no navmesh preset '%s' (recast, trinitycore)", name);
    return WM_OK;
}
