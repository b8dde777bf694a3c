/* NWN2's names for surfaces: the ASWM triangle flag bits by the neutral
 * surface that stands for each. A surface file may give a surface its own
 * flag ("nwn2=0x4000", or the older NWN2 column), which wins. */
#include "nwn2/nwn2.h"

#include <string.h>

#define SCHEME "nwn2"

/* FORMAT-NOTES section 2: triangle flags 0x8 and up are the surface. */
static const struct {
    uint32_t flag;
    const char *name;
} nwn2_flags[] = {{0x8, "dirt"},    {0x10, "grass"},   {0x20, "stone"},   {0x40, "wood"},
                  {0x80, "carpet"}, {0x100, "metal"},  {0x200, "swamp"},  {0x400, "mud"},
                  {0x800, "leaves"}, {0x1000, "water"}, {0x2000, "puddles"}};
#define NWN2_FLAGS (sizeof nwn2_flags / sizeof nwn2_flags[0])

/* The first surface in table order whose flag is set in flags. */
uint16_t nwn2_surface_of_flags(const wm_surface_table *table, uint32_t flags)
{
    uint32_t best = WM_SURFACE_NONE;
    int64_t own;
    for (uint32_t i = 0; i < table->count && i < best; i++)
        if (table->entries[i].code_count && wm_surface_code_of(table, (uint16_t)i, SCHEME, &own) &&
            own != WM_SURFACE_CODE_NONE && (flags & (uint64_t)own))
            best = i;
    for (size_t k = 0; k < NWN2_FLAGS; k++) {
        if (!(flags & nwn2_flags[k].flag))
            continue;
        uint16_t s = wm_surface_named(table, nwn2_flags[k].name);
        if (s < best && !wm_surface_code_of(table, s, SCHEME, &own))
            best = s;
    }
    return (uint16_t)best;
}

uint32_t nwn2_flag_of_surface(const wm_surface_table *table, uint16_t surface)
{
    int64_t own;
    if (surface >= table->count)
        return 0;
    if (wm_surface_code_of(table, surface, SCHEME, &own))
        return own == WM_SURFACE_CODE_NONE ? 0 : (uint32_t)own;
    for (size_t k = 0; k < NWN2_FLAGS; k++)
        if (strcmp(table->entries[surface].name, nwn2_flags[k].name) == 0)
            return nwn2_flags[k].flag;
    return 0;
}
