#include "assimp_module.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static int ends_with_ci(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    if (len < n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[len - n + i]) != suffix[i])
            return 0;
    return 1;
}

int wm_assimp_material_to_surface(const wm_surface_table *table, const char *name, uint16_t *surface, int *walkable)
{
    char base[128];
    wm_material_base_name(name, base, sizeof base);
    size_t len = strlen(base);
    int forced = -1;
    if (ends_with_ci(base, len, "__nowalk")) {
        forced = 0;
        base[len - 8] = '\0';
    } else if (ends_with_ci(base, len, "__walk")) {
        forced = 1;
        base[len - 6] = '\0';
    }
    uint16_t s = wm_surface_from_name(table, base);
    if (s == WM_SURFACE_NONE)
        return 0;
    *surface = s;
    *walkable = forced >= 0 ? forced : wm_surface_walkable(table, s);
    return 1;
}

void wm_assimp_surface_material_name(const wm_surface_table *table, uint16_t surface, int walkable, char *out,
                                     size_t out_size)
{
    const char *name = wm_surface_name(table, surface);
    if (walkable == wm_surface_walkable(table, surface))
        snprintf(out, out_size, "%s", name);
    else
        snprintf(out, out_size, "%s%s", name, walkable ? "__walk" : "__nowalk");
}
