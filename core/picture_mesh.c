/* The neutral-mesh picture (formats without a picture hook, and `convert X
 * out.svg`): triangles in their surface colour, blocking ones faded,
 * transitions with their room numbers. Also the surface styles, transition
 * marks and legend rows the modules' pictures share. */
#include "picture.h"

#include <stdio.h>
#include <string.h>

uint16_t wm_pic_surface_style(wm_picture *plot, uint16_t surface, int walkable, double shade, unsigned band)
{
    const wm_surface_table *table = wm_surfaces(plot->ctx);
    const uint8_t grey[3] = {0x90, 0x90, 0x90};
    const uint8_t *rgb = surface < table->count ? table->entries[surface].color : grey;
    char name[12], colour[8];
    wm_pic_colour(rgb, walkable ? shade : 1.0, colour);
    if (walkable) {
        snprintf(name, sizeof name, "w%u_%u", surface, band);
        return wm_picture_style(plot, name, "fill:%s;stroke:#000;stroke-opacity:0.3;stroke-width:0.5", colour);
    }
    snprintf(name, sizeof name, "n%u", surface);
    return wm_picture_style(plot, name, "fill:%s;fill-opacity:0.4;stroke:#000;stroke-opacity:0.5;stroke-width:0.5",
                          colour);
}

void wm_pic_draw_transition(wm_picture *plot, const float *a, const float *b, int32_t room)
{
    uint16_t line = wm_picture_style(plot, "tr", "fill:none;stroke:#ffab00;stroke-width:4;stroke-linecap:round");
    uint16_t text = wm_picture_style(plot, "trl",
                                   "font-family:sans-serif;font-size:11px;font-weight:bold;fill:#6d4c00;"
                                   "text-anchor:middle");
    float mid[3] = {(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2};
    wm_picture_segment(plot, line, a, b);
    wm_picture_label(plot, text, mid, "room %d", room);
}

void wm_pic_legend_surfaces(wm_picture *plot, const uint32_t *walk_counts, const uint32_t *block_counts)
{
    const wm_surface_table *table = wm_surfaces(plot->ctx);
    for (uint32_t s = 0; s < table->count; s++) {
        if (walk_counts[s])
            wm_picture_legend(plot, WM_PIC_LEGEND_SWATCH, wm_pic_surface_style(plot, (uint16_t)s, 1, 1.0, 9), "%s (%u)",
                            table->entries[s].name, walk_counts[s]);
        if (block_counts[s])
            wm_picture_legend(plot, WM_PIC_LEGEND_SWATCH, wm_pic_surface_style(plot, (uint16_t)s, 0, 1.0, 0),
                            "%s, blocking (%u)", table->entries[s].name, block_counts[s]);
    }
}

wm_result wm_pic_select_surface(wm_ctx *ctx, const char *select, uint16_t *out)
{
    *out = WM_SURFACE_NONE;
    if (!select)
        return WM_OK;
    *out = wm_surface_from_name(wm_surfaces(ctx), select);
    if (*out == WM_SURFACE_NONE)
        return wm_error(ctx, WM_ERR_OPTION, "--select %s: no such surface (a name such as grass, or a KotOR id)",
                        select);
    return WM_OK;
}

wm_result wm_picture_mesh(wm_picture *plot, const wm_mesh *mesh)
{
    wm_ctx *ctx = plot->ctx;
    uint16_t only = WM_SURFACE_NONE;
    wm_result r = wm_pic_select_surface(ctx, plot->select, &only);
    if (r)
        return r;
    const wm_surface_table *table = wm_surfaces(ctx);
    uint32_t *walk = wm_alloc_array(ctx, 2 * (size_t)table->count, sizeof *walk);
    if (!walk)
        return WM_ERR_NOMEM;
    uint32_t *block = walk + table->count, drawn = 0, transitions = 0;
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        if (only != WM_SURFACE_NONE && mesh->surfaces[t] != only)
            continue;
        const uint32_t *tri = mesh->indices + 3 * (size_t)t;
        const float *p[3];
        for (int k = 0; k < 3; k++)
            p[k] = mesh->positions + 3 * (size_t)tri[k];
        uint16_t s = mesh->surfaces[t];
        wm_picture_face(plot, p[0], p[1], p[2], wm_pic_surface_style(plot, s, mesh->walkable[t], 1.0, 9));
        (mesh->walkable[t] ? walk : block)[s < table->count ? s : 0]++;
        drawn++;
        for (int e = 0; e < 3; e++)
            if (mesh->transitions[3 * (size_t)t + e] != WM_NO_TRANSITION) {
                wm_pic_draw_transition(plot, p[e], p[(e + 1) % 3], mesh->transitions[3 * (size_t)t + e]);
                transitions++;
            }
    }
    if (only != WM_SURFACE_NONE && drawn == 0)
        r = wm_error(ctx, WM_ERR_OPTION, "--select %s: no triangle has that surface", plot->select);
    wm_pic_legend_surfaces(plot, walk, block);
    if (transitions)
        wm_picture_legend(plot, WM_PIC_LEGEND_LINE, wm_picture_style(plot, "tr", "%s", ""),
                        "transition, labelled with its room (%u)", transitions);
    snprintf(plot->subtitle, sizeof plot->subtitle, "%u of %u triangles drawn%s%s", drawn, mesh->triangle_count,
             only != WM_SURFACE_NONE ? ", surface " : "", only != WM_SURFACE_NONE ? plot->select : "");
    wm_free(ctx, walk);
    return r;
}
