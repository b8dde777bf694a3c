/* Recast's build options, shared by every command that builds a navmesh (CLI_NAVMESH): navmesh
 * itself, and path and reach when their input is a collision mesh. */
#include "cli.h"

#include <stddef.h>
#include <string.h>

enum {
    NAV_PRESET,
    NAV_CELL_SIZE,
    NAV_CELL_HEIGHT,
    NAV_AGENT_HEIGHT,
    NAV_AGENT_RADIUS,
    NAV_MAX_CLIMB,
    NAV_MAX_SLOPE,
    NAV_STEEP_SLOPE,
    NAV_TILE_SIZE,
    NAV_WALKABLE_FLAGS
};

const cli_option cli_navmesh_option_table[] = {
    [NAV_PRESET] = {"--preset", 0, "NAME", 1,
                    "recast (RecastDemo's values, the default) or trinitycore (TrinityCore's map builder)"},
    [NAV_CELL_SIZE] = {"--cell-size", 0, "UNITS", 1, "voxel width and depth"},
    [NAV_CELL_HEIGHT] = {"--cell-height", 0, "UNITS", 1, "voxel height"},
    [NAV_AGENT_HEIGHT] = {"--agent-height", 0, "UNITS", 1, "headroom a walker needs"},
    [NAV_AGENT_RADIUS] = {"--agent-radius", 0, "UNITS", 1, "distance a walker keeps from walls and edges"},
    [NAV_MAX_CLIMB] = {"--max-climb", 0, "UNITS", 1, "highest step a walker climbs"},
    [NAV_MAX_SLOPE] = {"--max-slope", 0, "DEG", 1, "steepest walkable triangle, degrees from horizontal"},
    [NAV_STEEP_SLOPE] = {"--steep-slope", 0, "DEG", 1,
                         "up to this, steeper triangles are walkable as a steep area of their own (0: none)"},
    [NAV_TILE_SIZE] = {"--tile-size", 0, "CELLS", 1, "cells along a tile's side (8 to 4096)"},
    [NAV_WALKABLE_FLAGS] = {"--walkable-flags", 0, NULL, 0,
                            "a triangle the input marks not walkable stays so whatever its slope"},
    {NULL, 0, NULL, 0, NULL}};

int cli_parse_navmesh_option(const char **values, int argc, char **argv, int *i);

/* The names these options had before they took generate's (the same ground, the same words). */
static const char *const former_names[][2] = {{"--slope", "--max-slope"}, {"--agent-climb", "--max-climb"}};

int cli_parse_navmesh_option(const char **values, int argc, char **argv, int *i)
{
    const char *name = argv[*i];
    for (size_t f = 0; f < sizeof former_names / sizeof *former_names; f++)
        if (strcmp(name, former_names[f][0]) == 0)
            name = former_names[f][1];
    for (int k = 0; cli_navmesh_option_table[k].name; k++) {
        const cli_option *o = &cli_navmesh_option_table[k];
        if (strcmp(name, o->name) != 0)
            continue;
        if (o->values && *i + 1 >= argc) {
            cli_error("%s needs a value", o->name);
            return -1;
        }
        values[k] = o->values ? argv[++*i] : "1";
        return 1;
    }
    return 0;
}

typedef struct float_option {
    int index;
    float min, max;
    size_t offset;
} float_option;

static const float_option float_options[] = {
    {NAV_CELL_SIZE, 0.001f, 100.0f, offsetof(wm_navmesh_config, cell_size)},
    {NAV_CELL_HEIGHT, 0.001f, 100.0f, offsetof(wm_navmesh_config, cell_height)},
    {NAV_AGENT_HEIGHT, 0.001f, 1000.0f, offsetof(wm_navmesh_config, agent_height)},
    {NAV_AGENT_RADIUS, 0.0f, 1000.0f, offsetof(wm_navmesh_config, agent_radius)},
    {NAV_MAX_CLIMB, 0.0f, 1000.0f, offsetof(wm_navmesh_config, agent_climb)},
    {NAV_MAX_SLOPE, 0.1f, 89.9f, offsetof(wm_navmesh_config, walkable_slope)},
    {NAV_STEEP_SLOPE, 0.0f, 89.9f, offsetof(wm_navmesh_config, steep_slope)},
};

int cli_navmesh_config(const cli_args *args, wm_navmesh_config *config)
{
    const char *const *values = args->navmesh_values;
    wm_ctx scratch;
    wm_ctx_init(&scratch);
    const char *preset = values[NAV_PRESET];
    if (wm_navmesh_config_preset(&scratch, preset ? preset : "recast", config)) {
        cli_error("--preset %s: %s", preset, scratch.message);
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < sizeof float_options / sizeof *float_options; i++) {
        const float_option *o = &float_options[i];
        const char *text = values[o->index];
        if (text && !cli_parse_float(cli_navmesh_option_table[o->index].name, text, o->min, o->max,
                                     (float *)((char *)config + o->offset)))
            return EXIT_USAGE;
    }
    unsigned tile = 0;
    if (values[NAV_TILE_SIZE]) {
        if (!cli_parse_count("--tile-size", values[NAV_TILE_SIZE], 8, 4096, &tile))
            return EXIT_USAGE;
        config->tile_size = (int)tile;
    }
    if (config->steep_slope != 0 && config->steep_slope <= config->walkable_slope)
        config->steep_slope = 0; /* nothing between the two */
    config->use_walkable_flags = values[NAV_WALKABLE_FLAGS] != NULL;
    return EXIT_OK;
}
