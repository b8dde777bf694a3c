/* WoW WMO layer: the collision the server extractors keep (the module's
 * --collision-rule), one colour per group, floors (walkable by slope, the
 * module's --walkable-slope) solid and walls pale, liquids (MLIQ) on
 * request. --floors leaves the walls out, so a building's ground plan reads. */
#include "picture.h"
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

static void group_styles(wm_picture *plot, uint32_t group, uint16_t *floor, uint16_t *wall)
{
    const uint8_t *rgb = wm_pic_palette(group);
    uint8_t pale[3];
    for (int k = 0; k < 3; k++)
        pale[k] = (uint8_t)(rgb[k] + (255 - rgb[k]) * 3 / 5);
    char name[12], fill[8], line[8];
    wm_pic_colour(rgb, 1.0, fill);
    wm_pic_colour(rgb, 0.6, line);
    snprintf(name, sizeof name, "gf%u", group % WM_PIC_PALETTE_SIZE);
    *floor = wm_picture_style(plot, name, "fill:%s;fill-opacity:0.75;stroke:%s;stroke-width:0.5", fill, line);
    wm_pic_colour(pale, 1.0, fill);
    snprintf(name, sizeof name, "gw%u", group % WM_PIC_PALETTE_SIZE);
    *wall = wm_picture_style(plot, name, "fill:%s;fill-opacity:0.35;stroke:%s;stroke-opacity:0.6;stroke-width:0.5",
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

typedef struct wmo_tally {
    uint32_t *counts; /* per object: floor, wall, liquid */
    uint32_t floors, walls, liquids, roofs;
} wmo_tally;

/* Seen from above (top and iso), roofs over floors are cut away to an
 * outline, so an interior's plan shows; --roofs draws them filled. */
static wm_result roof_mask(wm_ctx *ctx, const wm_picture *plot, const wm_mesh *mesh, const wm_options *opts,
                           uint8_t **out)
{
    *out = NULL;
    if ((plot->view != WM_VIEW_TOP && plot->view != WM_VIEW_ISO) || wm_option_flag(opts, "roofs"))
        return WM_OK;
    uint8_t *floor = wm_alloc_array(ctx, mesh->triangle_count ? mesh->triangle_count : 1, 2);
    if (!floor)
        return WM_ERR_NOMEM;
    for (uint32_t t = 0; t < mesh->triangle_count; t++)
        floor[t] = mesh->surfaces[t] != WM_SURF_LIQUID && mesh->walkable[t];
    wm_result r = wmo_find_roofs(ctx, mesh, floor, floor + mesh->triangle_count);
    memmove(floor, floor + mesh->triangle_count, mesh->triangle_count);
    *out = floor;
    return r;
}

static void draw_collision(wm_picture *plot, const wm_mesh *mesh, uint32_t only, int floors_only, const uint8_t *roof,
                           wmo_tally *n)
{
    uint16_t liquid = wm_picture_style(plot, "lq", "fill:#1e88e5;fill-opacity:0.45;stroke:#0d47a1;stroke-opacity:0.5;"
                                                   "stroke-width:0.4");
    uint16_t cut = wm_picture_style(plot, "rf", "fill:none;stroke:#455a64;stroke-opacity:0.7;stroke-width:0.7;"
                                                "stroke-dasharray:3,2");
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        uint16_t object = mesh->objects[t];
        uint32_t group = group_number(mesh->object_names[object], object);
        if (only != UINT32_MAX && group != only)
            continue;
        int is_liquid = mesh->surfaces[t] == WM_SURF_LIQUID, is_floor = !is_liquid && mesh->walkable[t];
        if (floors_only && !is_floor && !is_liquid)
            continue;
        uint16_t floor_style, wall_style;
        group_styles(plot, group, &floor_style, &wall_style);
        int is_roof = roof && roof[t];
        const uint32_t *v = mesh->indices + 3 * (size_t)t;
        wm_picture_face(plot, mesh->positions + 3 * (size_t)v[0], mesh->positions + 3 * (size_t)v[1],
                        mesh->positions + 3 * (size_t)v[2],
                        is_liquid ? liquid : is_roof ? cut : is_floor ? floor_style : wall_style);
        n->counts[3 * (size_t)object + (is_liquid ? 2 : is_floor ? 0 : 1)]++;
        n->floors += (uint32_t)is_floor;
        n->walls += (uint32_t)(!is_floor && !is_liquid);
        n->liquids += (uint32_t)is_liquid;
        n->roofs += (uint32_t)is_roof;
    }
    if (n->roofs)
        wm_picture_legend(plot, WM_PIC_LEGEND_SWATCH, cut, "roof over a floor, cut away (%u)", n->roofs);
    if (n->liquids)
        wm_picture_legend(plot, WM_PIC_LEGEND_SWATCH, liquid, "liquid, MLIQ (%u)", n->liquids);
}

static uint32_t group_legend(wm_ctx *ctx, wm_picture *plot, const char *path, const wm_mesh *mesh,
                             const wmo_tally *n)
{
    wmo_root root;
    wmo_group single;
    wm_ctx quiet = *ctx; /* names only: the file was read already */
    quiet.warn = NULL;
    memset(&root, 0, sizeof root);
    memset(&single, 0, sizeof single);
    if (!path || wmo_load(&quiet, path, &root, &single) != WM_OK) /* no path (memory): no names */
        memset(&root, 0, sizeof root);
    uint32_t groups = 0;
    for (uint32_t o = 0; o < mesh->object_count; o++) {
        uint32_t group = group_number(mesh->object_names[o], o);
        if (!n->counts[3 * (size_t)o] && !n->counts[3 * (size_t)o + 1])
            continue;
        uint16_t floor_style, wall_style;
        group_styles(plot, group, &floor_style, &wall_style);
        char name[64];
        group_name(&root, group, name, sizeof name);
        wm_picture_legend(plot, WM_PIC_LEGEND_SWATCH, floor_style, "group %u: %u floor, %u wall%s%s", group,
                          n->counts[3 * (size_t)o], n->counts[3 * (size_t)o + 1], name[0] ? ", " : "", name);
        groups++;
    }
    if (n->walls) {
        uint16_t floor_style, wall_style;
        group_styles(plot, 0, &floor_style, &wall_style);
        wm_picture_legend(plot, WM_PIC_LEGEND_SWATCH, wall_style, "pale: wall (steeper than walkable)");
    }
    wmo_root_free(ctx, &root);
    wmo_group_free(ctx, &single);
    return groups;
}

wm_result wmo_picture(wm_ctx *ctx, const wm_mesh *mesh, const char *path, const wm_options *opts,
                      wm_picture *plot)
{
    plot->unit = "yd";
    uint32_t only;
    wm_result r = parse_group(ctx, plot->select, &only);
    int floors_only = wm_option_flag(opts, "floors");
    wmo_tally n;
    memset(&n, 0, sizeof n);
    uint8_t *roof = NULL;
    if (!r && !(n.counts = wm_alloc_array(ctx, mesh->object_count ? mesh->object_count : 1, 3 * sizeof *n.counts)))
        r = WM_ERR_NOMEM;
    if (!r)
        r = roof_mask(ctx, plot, mesh, opts, &roof);
    if (!r) {
        draw_collision(plot, mesh, only, floors_only, roof, &n);
        uint32_t groups = group_legend(ctx, plot, path, mesh, &n);
        snprintf(plot->subtitle, sizeof plot->subtitle,
                 "WoW WMO collision: %u groups, %u floor and %u wall triangles%s%s%s%s", groups, n.floors, n.walls,
                 n.liquids ? ", liquids" : "", floors_only ? " (--floors: walls left out)" : "",
                 n.roofs ? ", roofs cut away (--roofs)" : "", only != UINT32_MAX ? ", one group selected" : "");
        wm_picture_describe(plot, "groups %u", groups);
        wm_picture_describe(plot, "floors %u walls %u liquid %u", n.floors, n.walls, n.liquids);
        wm_picture_describe(plot, "roofs cut away %u", n.roofs);
        if (only != UINT32_MAX && groups + n.liquids == 0)
            r = wm_error(ctx, WM_ERR_OPTION, "--select %s: no collision in that group", plot->select);
    }
    wm_free(ctx, roof);
    wm_free(ctx, n.counts);
    return r;
}
