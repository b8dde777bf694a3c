/* KotOR's names for surfaces: surfacemat.2da rows 0..22 by the neutral
 * surface that stands for each. A surface file may give a surface its own
 * row ("kotor=30", or the older KotOR column), which wins. */
#include "bwm/bwm.h"

#include <string.h>

#define SCHEME "kotor"

/* surfacemat.2da as shipped (FORMAT-NOTES section 1). */
static const char *const kotor_rows[] = {
    "undefined", "dirt",  "obscuring", "grass",    "stone",          "wood",       "water",     "nonwalk",
    "transparent", "carpet", "metal",  "puddles",  "swamp",          "mud",        "leaves",    "lava",
    "bottomless_pit", "deep_water", "door", "snow", "sand",          "bare_bones", "stone_bridge"};
#define KOTOR_ROWS (sizeof kotor_rows / sizeof kotor_rows[0])

uint16_t bwm_surface_of_material(const wm_surface_table *table, uint32_t material)
{
    uint16_t s = material <= 0x7FFFFFFFu ? wm_surface_by_code(table, SCHEME, material) : WM_SURFACE_NONE;
    if (s != WM_SURFACE_NONE || material >= KOTOR_ROWS)
        return s;
    /* the built-in table keeps KotOR's row order: try that row first */
    if (material < table->count && strcmp(table->entries[material].name, kotor_rows[material]) == 0)
        s = (uint16_t)material;
    else
        s = wm_surface_named(table, kotor_rows[material]);
    int64_t own;
    return s != WM_SURFACE_NONE && !wm_surface_code_of(table, s, SCHEME, &own) ? s : WM_SURFACE_NONE;
}

int32_t bwm_material_of_surface(const wm_surface_table *table, uint16_t surface)
{
    int64_t own;
    if (surface >= table->count)
        return -1;
    if (wm_surface_code_of(table, surface, SCHEME, &own))
        return own == WM_SURFACE_CODE_NONE ? -1 : (int32_t)own;
    const char *name = table->entries[surface].name;
    if (surface < KOTOR_ROWS && strcmp(name, kotor_rows[surface]) == 0)
        return (int32_t)surface;
    for (uint32_t row = 0; row < KOTOR_ROWS; row++)
        if (strcmp(name, kotor_rows[row]) == 0)
            return (int32_t)row;
    return -1;
}
