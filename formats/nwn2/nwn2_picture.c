/* NWN2 picture: walkable triangles in their island's colour (linked islands
 * differ), the tile grid, and where they are readable (or on request) tile
 * numbers and island centres with links; a route between two points as the
 * file's own tables give it (nwn2_route.c), the walkmesh cutters of a GIT.
 * Facts: FORMAT-NOTES section 2. */
#include "nwn2/bake.h"
#include "nwn2/nwn2_route.h"
#include "picture.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A tile number or island graph is drawn when a tile is at least this wide
 * on the page: below it the numbers cover the rooms they name. */
#define READABLE_TILE_PIXELS 40.0

typedef struct nwn2_view {
    const nwn2_aswm *a;
    uint32_t tiles;       /* grid_width * grid_height */
    uint32_t *tile_of;    /* per triangle, NWN2_NONE32 none */
    uint32_t first, last; /* selected tiles */
    float zlo, zhi;
    float xy_lo[2], xy_hi[2]; /* the vertices' extent: the picture is cropped to it */
} nwn2_view;

static const float *vertex(const nwn2_aswm *a, uint32_t t, int k)
{
    return a->vertices + 3 * (size_t)a->triangles[t].v[k];
}

static int selected(const nwn2_view *v, uint32_t t)
{
    return v->tile_of[t] != NWN2_NONE32 && v->tile_of[t] >= v->first && v->tile_of[t] <= v->last;
}

static wm_result parse_tiles(wm_ctx *ctx, const char *select, uint32_t tiles, uint32_t *first, uint32_t *last)
{
    *first = 0;
    *last = tiles ? tiles - 1 : 0;
    if (!select)
        return WM_OK;
    char *end;
    unsigned long a = strtoul(select, &end, 10), b = a;
    if (end != select && *end == '-')
        b = strtoul(end + 1, &end, 10);
    if (end == select || *end || a > b || b >= tiles)
        return wm_error(ctx, WM_ERR_OPTION, "--select %s: expected a tile number or range A-B from 0 to %u", select,
                        tiles ? tiles - 1 : 0);
    *first = (uint32_t)a;
    *last = (uint32_t)b;
    return WM_OK;
}

/* Greedy colouring over the island graph: an island never shares its colour
 * with an island it links to or that links to it (when the palette allows;
 * links are read both ways, so a one-sided list still separates them); the
 * search starts at a different colour per island, so unlinked islands vary. */
static wm_result island_colours(wm_ctx *ctx, const nwn2_aswm *a, uint8_t **out)
{
    uint8_t *colour = wm_alloc_array(ctx, a->island_count ? a->island_count : 1, 1);
    uint32_t *taken = wm_alloc_array(ctx, a->island_count ? a->island_count : 1, sizeof *taken);
    if (!colour || !taken) {
        wm_free(ctx, colour);
        wm_free(ctx, taken);
        return WM_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < a->island_count; i++) {
        const nwn2_island *is = &a->islands[i];
        uint32_t used = taken[i];
        for (uint32_t k = 0; k < is->adjacent_count; k++)
            if (is->adjacent[k] < i)
                used |= 1u << colour[is->adjacent[k]];
        uint32_t k = 0;
        while (k < WM_PIC_PALETTE_SIZE && (used >> ((i + k) % WM_PIC_PALETTE_SIZE) & 1))
            k++;
        colour[i] = (uint8_t)((i + (k < WM_PIC_PALETTE_SIZE ? k : 0)) % WM_PIC_PALETTE_SIZE);
        for (uint32_t n = 0; n < is->adjacent_count; n++)
            if (is->adjacent[n] > i && is->adjacent[n] < a->island_count)
                taken[is->adjacent[n]] |= 1u << colour[i];
    }
    wm_free(ctx, taken);
    *out = colour;
    return WM_OK;
}

static uint16_t island_style(wm_picture *plot, uint8_t colour)
{
    char name[8], fill[8];
    snprintf(name, sizeof name, "i%u", colour);
    wm_pic_colour(wm_pic_palette(colour), 1.0, fill);
    return wm_picture_style(plot, name, "fill:%s;fill-opacity:0.8;stroke:#000;stroke-opacity:0.25;stroke-width:0.4",
                          fill);
}

static void draw_triangles(wm_picture *plot, const nwn2_view *v, const uint8_t *colour, uint32_t *islands_drawn)
{
    const nwn2_aswm *a = v->a;
    const wm_surface_table *table = wm_surfaces(plot->ctx);
    uint32_t *by_surface = wm_alloc_array(plot->ctx, 2 * (size_t)table->count, sizeof *by_surface);
    if (!by_surface)
        return;
    uint16_t blocked = wm_picture_style(plot, "nw", "fill:#9e9e9e;fill-opacity:0.35;stroke:#616161;stroke-opacity:0.4;"
                                                  "stroke-width:0.4");
    uint32_t walk = 0, block = 0, plain = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        if (!selected(v, t) || !nwn2_triangle_in_range(a, t))
            continue;
        const nwn2_triangle *tri = &a->triangles[t];
        uint16_t style = blocked;
        if (!(tri->flags & NWN2_TRI_WALKABLE))
            block++;
        else if (tri->island < a->island_count) {
            style = island_style(plot, colour[tri->island]);
            walk++;
        } else { /* a TRN, not baked: no islands yet */
            uint16_t s = nwn2_surface_of_flags(table, tri->flags);
            s = s == WM_SURFACE_NONE || s >= table->count ? WM_SURF_UNDEFINED : s;
            style = wm_pic_surface_style(plot, s, 1, 1.0, 9);
            by_surface[s]++;
            plain++;
        }
        wm_picture_face(plot, vertex(a, t, 0), vertex(a, t, 1), vertex(a, t, 2), style);
    }
    *islands_drawn = 0;
    if (walk) {
        uint8_t *seen = wm_alloc_array(plot->ctx, a->island_count, 1);
        for (uint32_t t = 0; seen && t < a->triangle_count; t++)
            if (selected(v, t) && nwn2_triangle_in_range(a, t) && (a->triangles[t].flags & NWN2_TRI_WALKABLE) &&
                a->triangles[t].island < a->island_count && !seen[a->triangles[t].island]) {
                seen[a->triangles[t].island] = 1;
                ++*islands_drawn;
            }
        wm_free(plot->ctx, seen);
        wm_picture_legend(plot, WM_PIC_LEGEND_SWATCH, island_style(plot, 0),
                        "walkable, island colour (%u islands)", *islands_drawn);
    }
    if (plain) { /* an unbaked TRN: walkable triangles by surface */
        wm_pic_legend_surfaces(plot, by_surface, by_surface + table->count);
        wm_picture_legend(plot, WM_PIC_LEGEND_TEXT, blocked, "unbaked: no islands yet (%u walkable)", plain);
    }
    wm_free(plot->ctx, by_surface);
    if (block)
        wm_picture_legend(plot, WM_PIC_LEGEND_SWATCH, blocked, "not walkable (%u)", block);
}

static uint16_t tile_number_style(wm_picture *plot)
{
    /* a white halo keeps a number legible over any island colour */
    return wm_picture_style(plot, "tn", "font-family:sans-serif;font-size:9px;fill:#263238;text-anchor:middle;"
                                        "paint-order:stroke;stroke:#fff;stroke-width:2.5;stroke-opacity:0.9");
}

/* Front and side views see the tiles edge-on: one box per column of tiles
 * (front: a column of constant x, side: a row of constant y); labels (the
 * first and last tile number in it) are a second pass, drawn last. */
static uint32_t draw_tile_columns(wm_picture *plot, const nwn2_view *v, uint16_t grid, int labels)
{
    const nwn2_aswm *a = v->a;
    int along_x = plot->view == WM_VIEW_FRONT;
    uint32_t columns = along_x ? a->grid_width : a->grid_height, drawn = 0;
    float w = a->tile_width;
    for (uint32_t c = 0; c < columns; c++) {
        uint32_t first = NWN2_NONE32, last = 0;
        for (uint32_t t = v->first; t <= v->last && t < v->tiles; t++)
            if ((along_x ? t % a->grid_width : t / a->grid_width) == c) {
                first = first == NWN2_NONE32 ? t : first;
                last = t;
            }
        if (first == NWN2_NONE32)
            continue;
        float lo = (float)c * w, hi = lo + w, y = along_x ? 0.0f : lo;
        float box[12] = {along_x ? lo : 0.0f, y, v->zlo, along_x ? hi : 0.0f, along_x ? 0.0f : hi, v->zlo,
                         along_x ? hi : 0.0f, along_x ? 0.0f : hi, v->zhi, along_x ? lo : 0.0f, y, v->zhi};
        float centre[3] = {along_x ? lo + w / 2 : 0.0f, along_x ? 0.0f : lo + w / 2, v->zlo};
        if (labels)
            wm_picture_label(plot, tile_number_style(plot), centre, first == last ? "%u" : "%u-%u", first, last);
        else
            wm_picture_line(plot, grid, box, 4, 1);
        drawn++;
    }
    if (!labels)
        wm_picture_legend(plot, WM_PIC_LEGEND_LINE, grid, "tile %s (%u)", along_x ? "column" : "row", drawn);
    return drawn;
}

/* The grid; numbers come last (draw_tile_numbers), over everything else. */
static uint32_t draw_tiles(wm_picture *plot, const nwn2_view *v, int numbers)
{
    const nwn2_aswm *a = v->a;
    uint16_t grid = wm_picture_style(plot, "tg", "fill:none;stroke:#37474f;stroke-opacity:0.6;stroke-width:0.8");
    uint32_t drawn = v->last - v->first + 1;
    if (plot->view == WM_VIEW_FRONT || plot->view == WM_VIEW_SIDE) {
        draw_tile_columns(plot, v, grid, 0);
        return drawn;
    }
    float w = a->tile_width;
    for (uint32_t t = v->first; t <= v->last && t < v->tiles; t++) {
        float x = (float)(t % a->grid_width) * w, y = (float)(t / a->grid_width) * w;
        float square[12] = {x, y, v->zlo, x + w, y, v->zlo, x + w, y + w, v->zlo, x, y + w, v->zlo};
        wm_picture_line(plot, grid, square, 4, 1);
    }
    if (numbers)
        wm_picture_legend(plot, WM_PIC_LEGEND_LINE, grid, "tile, numbered (%u of %ux%u, %g m)", drawn, a->grid_width,
                          a->grid_height, (double)w);
    else
    {
        wm_picture_legend(plot, WM_PIC_LEGEND_LINE, grid, "tile (%u of %ux%u, %g m)", drawn, a->grid_width,
                          a->grid_height, (double)w);
        wm_picture_legend(plot, WM_PIC_LEGEND_TEXT, grid, "tile number = row x %u + column", a->grid_width);
    }
    return drawn;
}

/* Tile numbers near each tile's south-west corner, where an island centre
 * rarely is, and drawn after the islands so no dot covers them. */
static uint32_t draw_tile_numbers(wm_picture *plot, const nwn2_view *v)
{
    const nwn2_aswm *a = v->a;
    if (plot->view == WM_VIEW_FRONT || plot->view == WM_VIEW_SIDE)
        return draw_tile_columns(plot, v, 0, 1);
    uint16_t text = tile_number_style(plot);
    float w = a->tile_width;
    uint32_t drawn = 0;
    for (uint32_t t = v->first; t <= v->last && t < v->tiles; t++, drawn++) {
        /* the south-west corner of the part of the tile the picture shows */
        float lo[2] = {(float)(t % a->grid_width) * w, (float)(t / a->grid_width) * w}, corner[3] = {0, 0, v->zhi};
        for (int k = 0; k < 2; k++) {
            float from = fmaxf(lo[k], v->xy_lo[k]), to = fminf(lo[k] + w, v->xy_hi[k]);
            corner[k] = from + fminf(k ? 0.12f * w : 0.18f * w, fmaxf(to - from, 0.0f) * 0.3f);
        }
        wm_picture_label(plot, text, corner, "%u", t);
    }
    return drawn;
}

static wm_result draw_islands(wm_picture *plot, const nwn2_view *v)
{
    const nwn2_aswm *a = v->a;
    if (a->island_count == 0)
        return WM_OK;
    float *centre = wm_alloc_array(plot->ctx, a->island_count, 3 * sizeof(float));
    uint32_t *count = wm_alloc_array(plot->ctx, a->island_count, sizeof *count);
    if (!centre || !count) {
        wm_free(plot->ctx, centre);
        wm_free(plot->ctx, count);
        return WM_ERR_NOMEM;
    }
    /* z of a centre: mean height of its triangles (the file stores z = 0) */
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        uint16_t i = a->triangles[t].island;
        if (i < a->island_count && selected(v, t) && nwn2_triangle_in_range(a, t)) {
            float c[3];
            nwn2_triangle_centre(a, t, c);
            centre[3 * (size_t)i + 2] += c[2];
            count[i]++;
        }
    }
    for (uint32_t i = 0; i < a->island_count; i++) {
        centre[3 * (size_t)i] = a->islands[i].centre[0];
        centre[3 * (size_t)i + 1] = a->islands[i].centre[1];
        centre[3 * (size_t)i + 2] = count[i] ? centre[3 * (size_t)i + 2] / (float)count[i] : v->zlo;
    }
    uint16_t link = wm_picture_style(plot, "ik", "fill:none;stroke:#000;stroke-opacity:0.55;stroke-width:1");
    uint16_t dot = wm_picture_style(plot, "ic", "fill:#000;stroke:#fff;stroke-width:1");
    uint32_t links = 0, dots = 0;
    for (uint32_t i = 0; i < a->island_count; i++)
        for (uint32_t k = 0; count[i] && k < a->islands[i].adjacent_count; k++) {
            uint32_t j = a->islands[i].adjacent[k];
            if (j > i && j < a->island_count && count[j]) {
                wm_picture_segment(plot, link, centre + 3 * (size_t)i, centre + 3 * (size_t)j);
                links++;
            }
        }
    for (uint32_t i = 0; i < a->island_count; i++)
        if (count[i]) {
            wm_picture_dot(plot, dot, centre + 3 * (size_t)i, 2.5f, WM_PIC_MARK_DOT);
            dots++;
        }
    if (dots)
        wm_picture_legend(plot, WM_PIC_LEGEND_DOT, dot, "island centre (%u)", dots);
    if (links)
        wm_picture_legend(plot, WM_PIC_LEGEND_LINE, link, "island link (%u)", links);
    wm_picture_describe(plot, "islands %u", dots);
    wm_picture_describe(plot, "island links %u", links);
    wm_free(plot->ctx, centre);
    wm_free(plot->ctx, count);
    return WM_OK;
}

static wm_result draw_route(wm_picture *plot, const nwn2_view *v, const float path[4])
{
    wm_ctx *ctx = plot->ctx;
    wm_nwn2_route r;
    wm_result res = nwn2_route_on(ctx, v->a, v->tile_of, path, path + 2, &r);
    char *list = res ? NULL : wm_alloc_array(ctx, (size_t)r.count * 11 + 1, 1);
    if (!res && !list)
        res = WM_ERR_NOMEM;
    if (res) {
        wm_nwn2_route_free(ctx, &r);
        return res;
    }
    size_t used = 0;
    for (uint32_t i = 0; i < r.count; i++)
        used += (size_t)snprintf(list + used, 12, "%s%u", i ? " " : "", r.triangles[i]);
    uint16_t line = wm_picture_style(plot, "rt", "fill:none;stroke:#c2185b;stroke-width:3;stroke-linejoin:round;"
                                                 "stroke-linecap:round");
    uint16_t from = wm_picture_style(plot, "rs", "fill:#00c853;stroke:#000;stroke-width:1.5");
    uint16_t to = wm_picture_style(plot, "re", "fill:#d50000;stroke:#000;stroke-width:1.5");
    wm_picture_line(plot, line, r.points, r.count, 0);
    float goal_point[3];
    nwn2_triangle_centre(v->a, r.goal, goal_point);
    wm_picture_dot(plot, from, r.points, 6, WM_PIC_MARK_DOT);
    wm_picture_dot(plot, to, goal_point, r.reached ? 6 : 9, r.reached ? WM_PIC_MARK_DOT : WM_PIC_MARK_CROSS);
    if (!r.reached) {
        wm_picture_legend(plot, WM_PIC_LEGEND_LINE, line, "route: stops after %u triangles", r.count);
        wm_picture_legend(plot, WM_PIC_LEGEND_TEXT, line, "%s", r.failure);
    } else
        wm_picture_legend(plot, WM_PIC_LEGEND_LINE, line, "route over %u triangles", r.count);
    wm_picture_legend(plot, WM_PIC_LEGEND_DOT, from, "route start (%g, %g)", (double)path[0], (double)path[1]);
    wm_picture_legend(plot, WM_PIC_LEGEND_DOT, to, "route goal (%g, %g)%s", (double)path[2], (double)path[3],
                      r.reached ? "" : ": not reached");
    wm_picture_describe(plot, "route %s", r.reached ? "reaches the goal" : r.failure);
    wm_picture_describe(plot, "route start %u goal %u", r.start, r.goal);
    wm_picture_describe(plot, "route triangles %s", list);
    wm_free(ctx, list);
    wm_nwn2_route_free(ctx, &r);
    return WM_OK;
}

static wm_result draw_cutters(wm_picture *plot, const nwn2_view *v, const char *git_path)
{
    nwn2_cutter_set set;
    memset(&set, 0, sizeof set);
    wm_result r = nwn2_bake_read_git(plot->ctx, git_path, &set);
    if (r)
        return r;
    uint16_t style = wm_picture_style(plot, "ct", "fill:#d50000;fill-opacity:0.1;stroke:#d50000;stroke-width:2;"
                                                "stroke-dasharray:6,3");
    for (uint32_t c = 0; c < set.count && !plot->status; c++) {
        float *points = wm_alloc_array(plot->ctx, set.cutters[c].point_count, 3 * sizeof(float));
        if (!points)
            break;
        for (uint32_t k = 0; k < set.cutters[c].point_count; k++) {
            points[3 * (size_t)k] = set.cutters[c].points[2 * (size_t)k];
            points[3 * (size_t)k + 1] = set.cutters[c].points[2 * (size_t)k + 1];
            points[3 * (size_t)k + 2] = v->zhi;
        }
        wm_picture_line(plot, style, points, set.cutters[c].point_count, 1);
        wm_free(plot->ctx, points);
    }
    wm_picture_legend(plot, WM_PIC_LEGEND_LINE, style, "walkmesh cutter (%u) of %s", set.count, wm_path_file_name(git_path));
    wm_picture_describe(plot, "cutters %u", set.count);
    nwn2_cutter_set_free(plot->ctx, &set);
    return WM_OK;
}

static void mesh_heights(nwn2_view *v)
{
    v->zlo = v->xy_lo[0] = v->xy_lo[1] = FLT_MAX;
    v->zhi = v->xy_hi[0] = v->xy_hi[1] = -FLT_MAX;
    for (uint32_t i = 0; i < v->a->vertex_count; i++) {
        const float *p = v->a->vertices + 3 * (size_t)i;
        v->zlo = fminf(v->zlo, p[2]);
        v->zhi = fmaxf(v->zhi, p[2]);
        for (int k = 0; k < 2; k++) {
            v->xy_lo[k] = fminf(v->xy_lo[k], p[k]);
            v->xy_hi[k] = fmaxf(v->xy_hi[k], p[k]);
        }
    }
    if (v->a->vertex_count == 0)
        v->zlo = v->zhi = v->xy_lo[0] = v->xy_lo[1] = v->xy_hi[0] = v->xy_hi[1] = 0;
}

/* "island colours c0 c1 ...": the palette entry of every island, in order. */
static void describe_colours(wm_picture *plot, const nwn2_aswm *a, const uint8_t *colour)
{
    char *list = wm_alloc_array(plot->ctx, (size_t)a->island_count * 4 + 8, 1);
    if (!list)
        return;
    for (uint32_t i = 0; i < a->island_count; i++)
        snprintf(list + strlen(list), 8, "%s%u", i ? " " : "", (unsigned)colour[i] % 100u);
    wm_picture_describe(plot, "island colours %s", list);
    wm_free(plot->ctx, list);
}

static int parse_pair(const char **text, float out[2])
{
    for (int k = 0; k < 2; k++) {
        char *end;
        errno = 0;
        double v = strtod(*text, &end);
        if (end == *text || errno || !isfinite(v))
            return 0;
        out[k] = (float)v;
        *text = end;
        if (k == 0) {
            if (**text != ',')
                return 0;
            ++*text;
        }
    }
    return 1;
}

/* --path "X1,Y1 X2,Y2" into path[4]; 0 when absent. */
static wm_result parse_path(wm_ctx *ctx, const wm_options *opts, float path[4], int *has_path)
{
    const char *text = wm_option_get(opts, "path"), *p = text;
    *has_path = text != NULL;
    if (!text)
        return WM_OK;
    int ok = parse_pair(&p, path);
    while (ok && (*p == ' ' || *p == ':'))
        p++;
    if (!(ok && parse_pair(&p, path + 2) && *p == '\0'))
        return wm_error(ctx, WM_ERR_OPTION, "--path %s: expected X1,Y1 X2,Y2", text);
    return WM_OK;
}

static wm_result open_view(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name, const char *select,
                           nwn2_file *file, nwn2_view *v)
{
    memset(v, 0, sizeof *v);
    wm_result r = nwn2_file_parse_shared(ctx, data, size, name, file); /* only read, data outlives it */
    if (!r && file->aswm_packet < 0)
        r = wm_error(ctx, WM_ERR_INVALID, "%s: no walkmesh (ASWM) packet to draw", name);
    v->a = &file->aswm;
    const nwn2_aswm *a = v->a;
    v->tiles = a->grid_width * a->grid_height;
    if (!r && (a->grid_width && v->tiles / a->grid_width != a->grid_height))
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: tile grid %ux%u is too large", name, a->grid_width, a->grid_height);
    if (!r)
        r = parse_tiles(ctx, select, v->tiles, &v->first, &v->last);
    if (!r)
        r = nwn2_tile_of_triangles(ctx, a, &v->tile_of);
    if (!r)
        mesh_heights(v);
    return r;
}

wm_result nwn2_picture(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_picture *plot)
{
    const uint8_t *data = in->data;
    size_t size = in->size;
    const char *name = in->name ? in->name : "<memory>";
    float route[4];
    int has_path;
    wm_result r = parse_path(ctx, opts, route, &has_path);
    nwn2_file file;
    nwn2_file_init(&file);
    nwn2_view v;
    uint8_t *colour = NULL;
    if (!r)
        r = open_view(ctx, data, size, name, plot->select, &file, &v);
    if (!r)
        r = island_colours(ctx, v.a, &colour);
    if (r) {
        wm_free(ctx, v.tile_of);
        nwn2_file_free(ctx, &file);
        return r;
    }
    const nwn2_aswm *a = v.a;
    plot->unit = "m";
    uint32_t islands = 0;
    draw_triangles(plot, &v, colour, &islands);
    int readable = a->tile_width * wm_picture_pixels_per_unit(plot) >= READABLE_TILE_PIXELS;
    int numbers = readable || plot->select || wm_option_flag(opts, "tile-numbers"); /* a selection names tiles */
    uint32_t tiles = draw_tiles(plot, &v, numbers);
    if (readable || wm_option_flag(opts, "island-graph"))
        r = draw_islands(plot, &v);
    if (!r && has_path)
        r = draw_route(plot, &v, route);
    if (!r && wm_option_get(opts, "git"))
        r = draw_cutters(plot, &v, wm_option_get(opts, "git"));
    uint32_t numbered = numbers ? draw_tile_numbers(plot, &v) : 0;
    snprintf(plot->subtitle, sizeof plot->subtitle, "NWN2 %s walkmesh: %u triangles, %u tiles drawn%s%s, %u islands",
             a->grid_flags == NWN2_GRID_FLAGS_TRN ? "TRN (unbaked)" : "TRX (baked)", a->triangle_count, tiles,
             plot->select ? ": tiles " : "", plot->select ? plot->select : "", islands);
    wm_picture_describe(plot, "tiles %u", tiles);
    wm_picture_describe(plot, "tile numbers %u", numbered);
    describe_colours(plot, a, colour);
    wm_free(ctx, colour);
    wm_free(ctx, v.tile_of);
    nwn2_file_free(ctx, &file);
    return r;
}
