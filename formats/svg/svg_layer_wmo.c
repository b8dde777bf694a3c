/* WoW WMO layer: the collision the server extractors keep (the module's
 * --collision-rule), one colour per group, floors (walkable by slope, the
 * module's --walkable-slope) solid and walls pale, liquids (MLIQ) on
 * request. --floors leaves the walls out, so a building's ground plan reads. */
#include "svg/svg_plot.h"
#include "wmo/wmo.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "X_007" or "X_007_liquid" -> 7; object index when the name has no number. */
static uint32_t group_number(const char *name, uint32_t object)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", name);
    size_t n = strlen(copy);
    if (n > 7 && strcmp(copy + n - 7, "_liquid") == 0)
        copy[n -= 7] = '\0';
    size_t digits = 0;
    while (digits < n && isdigit((unsigned char)copy[n - 1 - digits]))
        digits++;
    if (digits == 0 || digits > 6 || digits == n || copy[n - 1 - digits] != '_')
        return object;
    return (uint32_t)strtoul(copy + n - digits, NULL, 10);
}

static wm_result parse_group(wm_ctx *ctx, const char *select, uint32_t *out)
{
    *out = UINT32_MAX;
    if (!select)
        return WM_OK;
    char *end;
    unsigned long v = strtoul(select, &end, 10);
    if (end == select || *end || v > 99999)
        return wm_error(ctx, WM_ERR_OPTION, "--select %s: expected a WMO group number (the NNN of X_NNN.wmo)", select);
    *out = (uint32_t)v;
    return WM_OK;
}

static void group_styles(svg_plot *plot, uint32_t group, uint16_t *floor, uint16_t *wall)
{
    const uint8_t *rgb = svg_palette(group);
    uint8_t pale[3];
    for (int k = 0; k < 3; k++)
        pale[k] = (uint8_t)(rgb[k] + (255 - rgb[k]) * 3 / 5);
    char name[12], fill[8], line[8];
    svg_colour(rgb, 1.0, fill);
    svg_colour(rgb, 0.6, line);
    snprintf(name, sizeof name, "gf%u", group % SVG_PALETTE_SIZE);
    *floor = svg_plot_style(plot, name, "fill:%s;fill-opacity:0.75;stroke:%s;stroke-width:0.5", fill, line);
    svg_colour(pale, 1.0, fill);
    snprintf(name, sizeof name, "gw%u", group % SVG_PALETTE_SIZE);
    *wall = svg_plot_style(plot, name, "fill:%s;fill-opacity:0.35;stroke:%s;stroke-opacity:0.6;stroke-width:0.5",
                           fill, line);
}

/* The group's name from the root's MOGN (through its MOGI entry), when the
 * file drawn is a root; "" otherwise. */
static void group_name(const wmo_root *root, uint32_t group, char *out, size_t cap)
{
    out[0] = '\0';
    if (root->bytes && group < root->group_info_count && root->groups[group].name_offset >= 0)
        wmo_root_group_name(root, (uint32_t)root->groups[group].name_offset, out, cap);
}

wm_result svg_layer_wmo(svg_plot *plot, const char *path, const svg_render_options *opts,
                        const wm_options *mesh_opts)
{
    wm_ctx *ctx = plot->ctx;
    uint32_t only;
    wm_result r = parse_group(ctx, opts->select, &only);
    wm_mesh mesh;
    wm_mesh_init(&mesh);
    if (!r)
        r = wm_mesh_load(ctx, path, wm_format_wmo.name, mesh_opts, &mesh);
    uint32_t *counts = r ? NULL : wm_alloc_array(ctx, mesh.object_count, 3 * sizeof *counts);
    if (!r && !counts)
        r = WM_ERR_NOMEM;
    if (r) {
        wm_mesh_free(ctx, &mesh);
        return r;
    }
    uint16_t liquid = svg_plot_style(plot, "lq", "fill:#1e88e5;fill-opacity:0.45;stroke:#0d47a1;stroke-opacity:0.5;"
                                                 "stroke-width:0.4");
    uint32_t floors = 0, walls = 0, liquids = 0;
    for (uint32_t t = 0; t < mesh.triangle_count; t++) {
        uint16_t object = mesh.objects[t];
        uint32_t group = group_number(mesh.object_names[object], object);
        if (only != UINT32_MAX && group != only)
            continue;
        int is_liquid = mesh.surfaces[t] == WM_SURF_LIQUID, is_floor = !is_liquid && mesh.walkable[t];
        if (opts->floors && !is_floor && !is_liquid)
            continue;
        uint16_t floor_style, wall_style;
        group_styles(plot, group, &floor_style, &wall_style);
        const uint32_t *v = mesh.indices + 3 * (size_t)t;
        svg_plot_face(plot, mesh.positions + 3 * (size_t)v[0], mesh.positions + 3 * (size_t)v[1],
                      mesh.positions + 3 * (size_t)v[2], is_liquid ? liquid : is_floor ? floor_style : wall_style);
        counts[3 * (size_t)object + (is_liquid ? 2 : is_floor ? 0 : 1)]++;
        floors += (uint32_t)is_floor;
        walls += (uint32_t)(!is_floor && !is_liquid);
        liquids += (uint32_t)is_liquid;
    }
    wmo_root root;
    wmo_group single;
    wm_ctx quiet = *ctx; /* names only: the file was read above */
    quiet.warn = NULL;
    if (wmo_load(&quiet, path, &root, &single) != WM_OK)
        memset(&root, 0, sizeof root);
    uint32_t groups = 0;
    for (uint32_t o = 0; o < mesh.object_count; o++) {
        uint32_t group = group_number(mesh.object_names[o], o);
        if (!counts[3 * (size_t)o] && !counts[3 * (size_t)o + 1])
            continue;
        uint16_t floor_style, wall_style;
        group_styles(plot, group, &floor_style, &wall_style);
        char name[64];
        group_name(&root, group, name, sizeof name);
        svg_plot_legend(plot, SVG_LEGEND_SWATCH, floor_style, "group %u: %u floor, %u wall%s%s", group,
                        counts[3 * (size_t)o], counts[3 * (size_t)o + 1], name[0] ? ", " : "", name);
        groups++;
    }
    if (walls) {
        uint16_t floor_style, wall_style;
        group_styles(plot, 0, &floor_style, &wall_style);
        svg_plot_legend(plot, SVG_LEGEND_SWATCH, wall_style, "pale: wall (steeper than walkable)");
    }
    if (liquids)
        svg_plot_legend(plot, SVG_LEGEND_SWATCH, liquid, "liquid, MLIQ (%u)", liquids);
    snprintf(plot->subtitle, sizeof plot->subtitle, "WoW WMO collision: %u groups, %u floor and %u wall triangles%s%s%s",
             groups, floors, walls, liquids ? ", liquids" : "", opts->floors ? " (--floors: walls left out)" : "",
             only != UINT32_MAX ? ", one group selected" : "");
    svg_plot_describe(plot, "groups %u", groups);
    svg_plot_describe(plot, "floors %u walls %u liquid %u", floors, walls, liquids);
    if (only != UINT32_MAX && groups + liquids == 0)
        r = wm_error(ctx, WM_ERR_OPTION, "--select %s: no collision in that group", opts->select);
    wmo_root_free(ctx, &root);
    wmo_group_free(ctx, &single);
    wm_free(ctx, counts);
    wm_mesh_free(ctx, &mesh);
    return r;
}
