/* NWN2 layer: walkable triangles in their island's colour (neighbouring
 * islands differ), the tile grid with tile numbers, island centres and
 * links, a route between two points as the file's own tables give it, and
 * the walkmesh cutters of a GIT. Facts: FORMAT-NOTES section 2. */
#include "svg/svg_plot.h"
#include "nwn2/bake.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct nwn2_view {
    const nwn2_aswm *a;
    uint32_t tiles;       /* grid_width * grid_height */
    uint32_t *tile_of;    /* per triangle, NWN2_NONE32 none */
    uint32_t first, last; /* selected tiles */
    float zlo, zhi;
} nwn2_view;

static int triangle_ok(const nwn2_aswm *a, uint32_t t)
{
    const nwn2_triangle *tri = &a->triangles[t];
    return tri->v[0] < a->vertex_count && tri->v[1] < a->vertex_count && tri->v[2] < a->vertex_count;
}

static const float *vertex(const nwn2_aswm *a, uint32_t t, int k)
{
    return a->vertices + 3 * (size_t)a->triangles[t].v[k];
}

static void centroid(const nwn2_aswm *a, uint32_t t, float out[3])
{
    for (int c = 0; c < 3; c++)
        out[c] = (vertex(a, t, 0)[c] + vertex(a, t, 1)[c] + vertex(a, t, 2)[c]) / 3.0f;
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
 * with a linked island of lower index (when the palette allows); the search
 * starts at a different colour per island, so unlinked islands vary too. */
static wm_result island_colours(wm_ctx *ctx, const nwn2_aswm *a, uint8_t **out)
{
    uint8_t *colour = wm_alloc_array(ctx, a->island_count, 1);
    if (!colour)
        return WM_ERR_NOMEM;
    for (uint32_t i = 0; i < a->island_count; i++) {
        uint32_t used = 0;
        const nwn2_island *is = &a->islands[i];
        for (uint32_t k = 0; k < is->adjacent_count; k++)
            if (is->adjacent[k] < i)
                used |= 1u << colour[is->adjacent[k]];
        uint32_t k = 0;
        while (k < SVG_PALETTE_SIZE && (used >> ((i + k) % SVG_PALETTE_SIZE) & 1))
            k++;
        colour[i] = (uint8_t)((i + (k < SVG_PALETTE_SIZE ? k : 0)) % SVG_PALETTE_SIZE);
    }
    *out = colour;
    return WM_OK;
}

static uint16_t island_style(svg_plot *plot, uint8_t colour)
{
    char name[8], fill[8];
    snprintf(name, sizeof name, "i%u", colour);
    svg_colour(svg_palette(colour), 1.0, fill);
    return svg_plot_style(plot, name, "fill:%s;fill-opacity:0.8;stroke:#000;stroke-opacity:0.25;stroke-width:0.4",
                          fill);
}

static void draw_triangles(svg_plot *plot, const nwn2_view *v, const uint8_t *colour, uint32_t *islands_drawn)
{
    const nwn2_aswm *a = v->a;
    const wm_surface_table *table = wm_surfaces(plot->ctx);
    uint32_t *by_surface = wm_alloc_array(plot->ctx, 2 * (size_t)table->count, sizeof *by_surface);
    if (!by_surface)
        return;
    uint16_t blocked = svg_plot_style(plot, "nw", "fill:#9e9e9e;fill-opacity:0.35;stroke:#616161;stroke-opacity:0.4;"
                                                  "stroke-width:0.4");
    uint32_t walk = 0, block = 0, plain = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        if (!selected(v, t) || !triangle_ok(a, t))
            continue;
        const nwn2_triangle *tri = &a->triangles[t];
        uint16_t style = blocked;
        if (!(tri->flags & NWN2_TRI_WALKABLE))
            block++;
        else if (tri->island < a->island_count) {
            style = island_style(plot, colour[tri->island]);
            walk++;
        } else { /* a TRN, not baked: no islands yet */
            uint16_t s = wm_surface_from_nwn2_flags(table, tri->flags);
            s = s == WM_SURFACE_NONE || s >= table->count ? WM_SURF_UNDEFINED : s;
            style = svg_surface_style(plot, s, 1, 1.0, 9);
            by_surface[s]++;
            plain++;
        }
        svg_plot_face(plot, vertex(a, t, 0), vertex(a, t, 1), vertex(a, t, 2), style);
    }
    *islands_drawn = 0;
    if (walk) {
        uint8_t *seen = wm_alloc_array(plot->ctx, a->island_count, 1);
        for (uint32_t t = 0; seen && t < a->triangle_count; t++)
            if (selected(v, t) && triangle_ok(a, t) && (a->triangles[t].flags & NWN2_TRI_WALKABLE) &&
                a->triangles[t].island < a->island_count && !seen[a->triangles[t].island]) {
                seen[a->triangles[t].island] = 1;
                ++*islands_drawn;
            }
        wm_free(plot->ctx, seen);
        svg_plot_legend(plot, SVG_LEGEND_SWATCH, island_style(plot, 0),
                        "walkable, island colour (%u islands)", *islands_drawn);
    }
    if (plain) { /* an unbaked TRN: walkable triangles by surface */
        svg_legend_surfaces(plot, by_surface, by_surface + table->count);
        svg_plot_legend(plot, SVG_LEGEND_TEXT, blocked, "unbaked: no islands yet (%u walkable)", plain);
    }
    wm_free(plot->ctx, by_surface);
    if (block)
        svg_plot_legend(plot, SVG_LEGEND_SWATCH, blocked, "not walkable (%u)", block);
}

/* Front and side views see the tiles edge-on: one label per column of tiles
 * (front: a column of constant x, side: a row of constant y), naming the
 * first and last tile number in it. */
static uint32_t draw_tile_columns(svg_plot *plot, const nwn2_view *v, uint16_t grid, uint16_t text)
{
    const nwn2_aswm *a = v->a;
    int along_x = plot->view == SVG_VIEW_FRONT;
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
        svg_plot_line(plot, grid, box, 4, 1);
        float centre[3] = {along_x ? lo + w / 2 : 0.0f, along_x ? 0.0f : lo + w / 2, v->zlo};
        svg_plot_label(plot, text, centre, first == last ? "%u" : "%u-%u", first, last);
        drawn++;
    }
    svg_plot_legend(plot, SVG_LEGEND_LINE, grid, "tile %s, first-last tile (%u)", along_x ? "column" : "row", drawn);
    return drawn;
}

static uint32_t draw_tiles(svg_plot *plot, const nwn2_view *v)
{
    const nwn2_aswm *a = v->a;
    uint16_t grid = svg_plot_style(plot, "tg", "fill:none;stroke:#37474f;stroke-opacity:0.6;stroke-width:0.8");
    uint16_t text = svg_plot_style(plot, "tn", "font-family:sans-serif;font-size:9px;fill:#263238;"
                                               "fill-opacity:0.8;text-anchor:middle");
    uint32_t drawn = v->last - v->first + 1;
    if (plot->view == SVG_VIEW_FRONT || plot->view == SVG_VIEW_SIDE) {
        draw_tile_columns(plot, v, grid, text);
        return drawn;
    }
    float w = a->tile_width;
    for (uint32_t t = v->first; t <= v->last && t < v->tiles; t++) {
        float x = (float)(t % a->grid_width) * w, y = (float)(t / a->grid_width) * w;
        float square[12] = {x, y, v->zlo, x + w, y, v->zlo, x + w, y + w, v->zlo, x, y + w, v->zlo};
        svg_plot_line(plot, grid, square, 4, 1);
    }
    for (uint32_t t = v->first; t <= v->last && t < v->tiles; t++) {
        float centre[3] = {((float)(t % a->grid_width) + 0.5f) * w, ((float)(t / a->grid_width) + 0.5f) * w, v->zlo};
        svg_plot_label(plot, text, centre, "%u", t);
    }
    svg_plot_legend(plot, SVG_LEGEND_LINE, grid, "tile, numbered (%u of %ux%u, %g m)", drawn, a->grid_width,
                    a->grid_height, (double)w);
    return drawn;
}

static wm_result draw_islands(svg_plot *plot, const nwn2_view *v)
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
        if (i < a->island_count && selected(v, t) && triangle_ok(a, t)) {
            float c[3];
            centroid(a, t, c);
            centre[3 * (size_t)i + 2] += c[2];
            count[i]++;
        }
    }
    for (uint32_t i = 0; i < a->island_count; i++) {
        centre[3 * (size_t)i] = a->islands[i].centre[0];
        centre[3 * (size_t)i + 1] = a->islands[i].centre[1];
        centre[3 * (size_t)i + 2] = count[i] ? centre[3 * (size_t)i + 2] / (float)count[i] : v->zlo;
    }
    uint16_t link = svg_plot_style(plot, "ik", "fill:none;stroke:#000;stroke-opacity:0.55;stroke-width:1");
    uint16_t dot = svg_plot_style(plot, "ic", "fill:#000;stroke:#fff;stroke-width:1");
    uint32_t links = 0, dots = 0;
    for (uint32_t i = 0; i < a->island_count; i++)
        for (uint32_t k = 0; count[i] && k < a->islands[i].adjacent_count; k++) {
            uint32_t j = a->islands[i].adjacent[k];
            if (j > i && j < a->island_count && count[j]) {
                svg_plot_segment(plot, link, centre + 3 * (size_t)i, centre + 3 * (size_t)j);
                links++;
            }
        }
    for (uint32_t i = 0; i < a->island_count; i++)
        if (count[i]) {
            svg_plot_dot(plot, dot, centre + 3 * (size_t)i, 2.5f, SVG_MARK_DOT);
            dots++;
        }
    if (dots)
        svg_plot_legend(plot, SVG_LEGEND_DOT, dot, "island centre (%u)", dots);
    if (links)
        svg_plot_legend(plot, SVG_LEGEND_LINE, link, "island link (%u)", links);
    svg_plot_describe(plot, "islands %u", dots);
    svg_plot_describe(plot, "island links %u", links);
    wm_free(plot->ctx, centre);
    wm_free(plot->ctx, count);
    return WM_OK;
}

static int inside(const nwn2_aswm *a, uint32_t t, float x, float y)
{
    const float *p[3] = {vertex(a, t, 0), vertex(a, t, 1), vertex(a, t, 2)};
    int sign = 0;
    for (int k = 0; k < 3; k++) {
        const float *u = p[k], *w = p[(k + 1) % 3];
        double cross = ((double)w[0] - u[0]) * ((double)y - u[1]) - ((double)w[1] - u[1]) * ((double)x - u[0]);
        int s = cross > 1e-9 ? 1 : cross < -1e-9 ? -1 : 0;
        if (s && sign && s != sign)
            return 0;
        sign = s ? s : sign;
    }
    return 1;
}

/* The walkable triangle (in an island) under a point; the highest if several. */
static uint32_t triangle_at(const nwn2_aswm *a, float x, float y)
{
    uint32_t best = NWN2_NONE32;
    float best_z = -FLT_MAX;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        const nwn2_triangle *tri = &a->triangles[t];
        if (!(tri->flags & NWN2_TRI_WALKABLE) || tri->island >= a->island_count || !triangle_ok(a, t) ||
            !inside(a, t, x, y))
            continue;
        float c[3];
        centroid(a, t, c);
        if (best == NWN2_NONE32 || c[2] > best_z) {
            best = t;
            best_z = c[2];
        }
    }
    return best;
}

typedef struct route {
    uint32_t *steps;
    uint32_t count, capacity;
    char failure[160]; /* empty: the route reaches the goal */
} route;

static int push(wm_ctx *ctx, route *r, uint32_t t)
{
    if (r->count == r->capacity) {
        uint32_t grow = r->capacity ? r->capacity * 2 : 64;
        uint32_t *bigger = wm_realloc_array(ctx, r->steps, grow, sizeof *bigger);
        if (!bigger)
            return 0;
        r->steps = bigger;
        r->capacity = grow;
    }
    r->steps[r->count++] = t;
    return 1;
}

/* Follows the tile's next hops from *cur to target (both in one tile). */
static int walk_tile(wm_ctx *ctx, const nwn2_view *v, uint32_t *cur, uint32_t target, route *r)
{
    const nwn2_aswm *a = v->a;
    uint32_t tile_index = v->tile_of[*cur];
    if (tile_index == NWN2_NONE32 || tile_index != v->tile_of[target]) {
        snprintf(r->failure, sizeof r->failure, "triangles %u and %u are not in one tile", *cur, target);
        return 0;
    }
    const nwn2_tile *tile = &a->tiles[tile_index];
    for (uint32_t guard = 0; *cur != target; guard++) {
        uint32_t from_local = *cur - tile->triangle_offset, to_local = target - tile->triangle_offset;
        if (guard > tile->node_count || from_local >= tile->local_count || to_local >= tile->local_count ||
            !tile->local_to_node || tile->local_to_node[from_local] >= tile->node_count ||
            tile->local_to_node[to_local] >= tile->node_count) {
            snprintf(r->failure, sizeof r->failure, "tile %u's path table has no entry for triangle %u", tile_index,
                     *cur);
            return 0;
        }
        uint8_t hop = tile->nodes[tile->local_to_node[from_local] * (size_t)tile->node_count +
                                  tile->local_to_node[to_local]];
        if (hop == NWN2_PATH_NONE || (hop & NWN2_PATH_NODE_MASK) >= tile->node_count ||
            tile->node_to_local[hop & NWN2_PATH_NODE_MASK] >= tile->local_count) {
            snprintf(r->failure, sizeof r->failure, "tile %u: no next hop from triangle %u to %u", tile_index, *cur,
                     target);
            return 0;
        }
        *cur = tile->triangle_offset + tile->node_to_local[hop & NWN2_PATH_NODE_MASK];
        if (!push(ctx, r, *cur))
            return 0;
    }
    return 1;
}

/* The game's route: island next hops across tiles, tile next hops inside
 * each island, from the start triangle to the goal triangle. */
static void find_route(wm_ctx *ctx, const nwn2_view *v, uint32_t start, uint32_t goal, route *r)
{
    const nwn2_aswm *a = v->a;
    uint32_t cur = start, island = a->triangles[start].island, target_island = a->triangles[goal].island;
    if (!push(ctx, r, cur))
        return;
    for (uint32_t hops = 0; hops <= a->island_count; hops++) {
        if (island == target_island) {
            walk_tile(ctx, v, &cur, goal, r);
            return;
        }
        uint16_t next = a->island_paths[(size_t)island * a->island_count + target_island].next;
        if (next >= a->island_count) {
            snprintf(r->failure, sizeof r->failure, "no route: island %u has no path to island %u", island,
                     target_island);
            return;
        }
        const nwn2_island *is = &a->islands[island];
        uint32_t exit = NWN2_NONE32;
        for (uint32_t k = 0; k < is->adjacent_count && k < is->exit_count; k++)
            if (is->adjacent[k] == next && is->exit[k] < a->triangle_count)
                exit = is->exit[k];
        if (exit == NWN2_NONE32) {
            snprintf(r->failure, sizeof r->failure, "island %u lists no exit to island %u", island, next);
            return;
        }
        if (!walk_tile(ctx, v, &cur, exit, r))
            return;
        uint32_t across = NWN2_NONE32;
        for (int k = 0; k < 3; k++) {
            uint32_t n = a->triangles[cur].neighbour[k];
            if (n < a->triangle_count && a->triangles[n].island == next)
                across = n;
        }
        if (across == NWN2_NONE32) {
            snprintf(r->failure, sizeof r->failure, "exit triangle %u has no neighbour in island %u", cur, next);
            return;
        }
        cur = across;
        island = next;
        if (!push(ctx, r, cur))
            return;
    }
    snprintf(r->failure, sizeof r->failure, "the island path table loops");
}

static wm_result draw_route(svg_plot *plot, const nwn2_view *v, const svg_render_options *opts)
{
    const nwn2_aswm *a = v->a;
    wm_ctx *ctx = plot->ctx;
    uint32_t start = triangle_at(a, opts->path[0], opts->path[1]);
    uint32_t goal = triangle_at(a, opts->path[2], opts->path[3]);
    if (start == NWN2_NONE32 || goal == NWN2_NONE32)
        return wm_error(ctx, WM_ERR_OPTION, "--path: no walkable triangle with an island at (%g, %g)",
                        start == NWN2_NONE32 ? (double)opts->path[0] : (double)opts->path[2],
                        start == NWN2_NONE32 ? (double)opts->path[1] : (double)opts->path[3]);
    route r;
    memset(&r, 0, sizeof r);
    find_route(ctx, v, start, goal, &r);
    if (!r.steps)
        return WM_ERR_NOMEM;
    float *points = wm_alloc_array(ctx, r.count, 3 * sizeof(float));
    char *list = wm_alloc_array(ctx, (size_t)r.count * 11 + 1, 1);
    if (!points || !list) {
        wm_free(ctx, points);
        wm_free(ctx, list);
        wm_free(ctx, r.steps);
        return WM_ERR_NOMEM;
    }
    size_t used = 0;
    for (uint32_t i = 0; i < r.count; i++) {
        centroid(a, r.steps[i], points + 3 * (size_t)i);
        used += (size_t)snprintf(list + used, 12, "%s%u", i ? " " : "", r.steps[i]);
    }
    uint16_t line = svg_plot_style(plot, "rt", "fill:none;stroke:#c2185b;stroke-width:3;stroke-linejoin:round;"
                                               "stroke-linecap:round");
    uint16_t from = svg_plot_style(plot, "rs", "fill:#00c853;stroke:#000;stroke-width:1.5");
    uint16_t to = svg_plot_style(plot, "re", "fill:#d50000;stroke:#000;stroke-width:1.5");
    svg_plot_line(plot, line, points, r.count, 0);
    float goal_point[3];
    centroid(a, goal, goal_point);
    svg_plot_dot(plot, from, points, 6, SVG_MARK_DOT);
    svg_plot_dot(plot, to, goal_point, r.failure[0] ? 9 : 6, r.failure[0] ? SVG_MARK_CROSS : SVG_MARK_DOT);
    if (r.failure[0]) {
        svg_plot_style(plot, "re", "%s", "");
        svg_plot_legend(plot, SVG_LEGEND_LINE, line, "route: stops after %u triangles", r.count);
        svg_plot_legend(plot, SVG_LEGEND_TEXT, line, "%s", r.failure);
    } else
        svg_plot_legend(plot, SVG_LEGEND_LINE, line, "route over %u triangles", r.count);
    svg_plot_legend(plot, SVG_LEGEND_DOT, from, "route start (%g, %g)", (double)opts->path[0], (double)opts->path[1]);
    svg_plot_legend(plot, SVG_LEGEND_DOT, to, "route goal (%g, %g)%s", (double)opts->path[2], (double)opts->path[3],
                    r.failure[0] ? ": not reached" : "");
    svg_plot_describe(plot, "route %s", r.failure[0] ? r.failure : "reaches the goal");
    svg_plot_describe(plot, "route start %u goal %u", start, goal);
    svg_plot_describe(plot, "route triangles %s", list);
    wm_free(ctx, points);
    wm_free(ctx, list);
    wm_free(ctx, r.steps);
    return WM_OK;
}

static wm_result draw_cutters(svg_plot *plot, const nwn2_view *v, const char *git_path)
{
    nwn2_cutter_set set;
    memset(&set, 0, sizeof set);
    wm_result r = nwn2_bake_read_git(plot->ctx, git_path, &set);
    if (r)
        return r;
    uint16_t style = svg_plot_style(plot, "ct", "fill:#d50000;fill-opacity:0.1;stroke:#d50000;stroke-width:2;"
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
        svg_plot_line(plot, style, points, set.cutters[c].point_count, 1);
        wm_free(plot->ctx, points);
    }
    svg_plot_legend(plot, SVG_LEGEND_LINE, style, "walkmesh cutter (%u) of %s", set.count, wm_path_file_name(git_path));
    svg_plot_describe(plot, "cutters %u", set.count);
    nwn2_cutter_set_free(plot->ctx, &set);
    return WM_OK;
}

static void mesh_heights(nwn2_view *v)
{
    v->zlo = FLT_MAX;
    v->zhi = -FLT_MAX;
    for (uint32_t i = 0; i < v->a->vertex_count; i++) {
        float z = v->a->vertices[3 * (size_t)i + 2];
        v->zlo = z < v->zlo ? z : v->zlo;
        v->zhi = z > v->zhi ? z : v->zhi;
    }
    if (v->a->vertex_count == 0)
        v->zlo = v->zhi = 0;
}

/* "island colours c0 c1 ...": the palette entry of every island, in order. */
static void describe_colours(svg_plot *plot, const nwn2_aswm *a, const uint8_t *colour)
{
    char *list = wm_alloc_array(plot->ctx, (size_t)a->island_count * 4 + 8, 1);
    if (!list)
        return;
    for (uint32_t i = 0; i < a->island_count; i++)
        snprintf(list + strlen(list), 8, "%s%u", i ? " " : "", (unsigned)colour[i] % 100u);
    svg_plot_describe(plot, "island colours %s", list);
    wm_free(plot->ctx, list);
}

wm_result svg_layer_nwn2(svg_plot *plot, const char *path, const svg_render_options *opts)
{
    wm_ctx *ctx = plot->ctx;
    nwn2_file file;
    nwn2_file_init(&file);
    wm_result r = nwn2_file_read(ctx, path, &file);
    if (!r && file.aswm_packet < 0)
        r = wm_error(ctx, WM_ERR_INVALID, "%s: no walkmesh (ASWM) packet to draw", path);
    nwn2_view v;
    memset(&v, 0, sizeof v);
    v.a = &file.aswm;
    const nwn2_aswm *a = v.a;
    v.tiles = a->grid_width * a->grid_height;
    if (!r && (a->grid_width && v.tiles / a->grid_width != a->grid_height))
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: tile grid %ux%u is too large", path, a->grid_width, a->grid_height);
    if (!r)
        r = parse_tiles(ctx, opts->select, v.tiles, &v.first, &v.last);
    uint8_t *colour = NULL;
    if (!r)
        r = island_colours(ctx, a, &colour);
    if (!r && !(v.tile_of = wm_alloc_array(ctx, a->triangle_count, sizeof *v.tile_of)))
        r = WM_ERR_NOMEM;
    if (r) {
        wm_free(ctx, colour);
        nwn2_file_free(ctx, &file);
        return r;
    }
    memset(v.tile_of, 0xff, (size_t)a->triangle_count * sizeof *v.tile_of);
    for (uint32_t t = 0; t < v.tiles; t++) { /* ranges as stored, clipped to the triangles there are */
        uint64_t first = a->tiles[t].triangle_offset, end = first + a->tiles[t].triangle_count;
        for (uint64_t i = first; i < end && i < a->triangle_count; i++)
            v.tile_of[i] = t;
    }
    mesh_heights(&v);
    uint32_t islands = 0;
    draw_triangles(plot, &v, colour, &islands);
    uint32_t tiles = draw_tiles(plot, &v);
    r = draw_islands(plot, &v);
    if (!r && opts->has_path)
        r = draw_route(plot, &v, opts);
    if (!r && opts->git_path)
        r = draw_cutters(plot, &v, opts->git_path);
    snprintf(plot->subtitle, sizeof plot->subtitle, "NWN2 %s walkmesh: %u triangles, %u tiles drawn%s%s, %u islands",
             a->grid_flags == NWN2_GRID_FLAGS_TRN ? "TRN (unbaked)" : "TRX (baked)", a->triangle_count, tiles,
             opts->select ? ": tiles " : "", opts->select ? opts->select : "", islands);
    svg_plot_describe(plot, "tiles %u", tiles);
    describe_colours(plot, a, colour);
    wm_free(ctx, colour);
    wm_free(ctx, v.tile_of);
    nwn2_file_free(ctx, &file);
    return r;
}
