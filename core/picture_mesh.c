/* The neutral-mesh picture (formats without a picture hook, and `convert X
 * out.svg`): triangles in their surface colour, blocking ones faded,
 * transitions with their room numbers. Also the surface styles, transition
 * marks and legend rows the modules' pictures share. */
#include "picture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
    /* A blocking face is often a wall, edge-on from above: its outline in its
     * own (darker) colour keeps it visible as a line. */
    char edge[8];
    wm_pic_colour(rgb, 0.75, edge);
    snprintf(name, sizeof name, "n%u", surface);
    return wm_picture_style(plot, name, "fill:%s;fill-opacity:0.4;stroke:%s;stroke-width:1.5;stroke-linejoin:round",
                            colour, edge);
}

typedef struct edge_end {
    int32_t room;
    uint32_t vertex, edge;
} edge_end;

static int by_room_then_vertex(const void *a, const void *b)
{
    const edge_end *x = a, *y = b;
    if (x->room != y->room)
        return x->room < y->room ? -1 : 1;
    if (x->vertex != y->vertex)
        return x->vertex < y->vertex ? -1 : 1;
    return x->edge < y->edge ? -1 : x->edge > y->edge;
}

static uint32_t find(uint32_t *parent, uint32_t e)
{
    while (parent[e] != e)
        e = parent[e] = parent[parent[e]];
    return e;
}

static void midpoint(const float *positions, const wm_pic_edge *e, float out[3])
{
    for (int c = 0; c < 3; c++)
        out[c] = (positions[3 * (size_t)e->v[0] + c] + positions[3 * (size_t)e->v[1] + c]) / 2;
}

/* Runs of edges to one room that share vertices: one transition, one label
 * (a doorway is often two or more edges, which used to be labelled once
 * each, the labels over each other), at the run's edge midpoint nearest
 * the mean of its midpoints: on the line, in its middle. */
static void label_runs(wm_picture *plot, const float *positions, const wm_pic_edge *edges, uint32_t count,
                       uint32_t *parent, uint16_t text, uint32_t *runs)
{
    float *sum = wm_alloc_array(plot->ctx, count, 5 * sizeof(float)); /* x y z n, best distance */
    uint32_t *best = wm_alloc_array(plot->ctx, count, sizeof *best);
    for (uint32_t e = 0; sum && best && e < count; e++) {
        float *acc = sum + 5 * (size_t)find(parent, e), mid[3];
        midpoint(positions, &edges[e], mid);
        for (int c = 0; c < 3; c++)
            acc[c] += mid[c];
        acc[3] += 1;
        acc[4] = -1;
    }
    for (uint32_t e = 0; sum && best && e < count; e++) {
        uint32_t root = find(parent, e);
        float *acc = sum + 5 * (size_t)root, mid[3], d = 0;
        midpoint(positions, &edges[e], mid);
        for (int c = 0; c < 3; c++)
            d += (mid[c] - acc[c] / acc[3]) * (mid[c] - acc[c] / acc[3]);
        if (acc[4] < 0 || d < acc[4]) {
            acc[4] = d;
            best[root] = e;
        }
    }
    for (uint32_t e = 0; sum && best && e < count; e++)
        if (find(parent, e) == e) {
            float mid[3];
            midpoint(positions, &edges[best[e]], mid);
            wm_picture_label(plot, text, mid, "room %d", edges[e].room);
            ++*runs;
        }
    if ((!sum || !best) && !plot->status)
        plot->status = WM_ERR_NOMEM;
    wm_free(plot->ctx, sum);
    wm_free(plot->ctx, best);
}

#define MAX_RUNS_COMPARED 64u /* per room: runs beyond it keep their own labels (bounded work) */

static void edge_box(const float *positions, const wm_pic_edge *e, float box[6])
{
    for (int c = 0; c < 3; c++) {
        float a = positions[3 * (size_t)e->v[0] + c], b = positions[3 * (size_t)e->v[1] + c];
        box[c] = a < b ? a : b;
        box[3 + c] = a < b ? b : a;
    }
}

static int boxes_touch(const float *a, const float *b)
{
    double size = 0;
    for (int c = 0; c < 3; c++)
        size = fmax(size, fmax((double)a[3 + c] - a[c], (double)b[3 + c] - b[c]));
    double tolerance = 0.02 * size + 1e-3;
    for (int c = 0; c < 3; c++)
        if (a[c] > b[3 + c] + tolerance || b[c] > a[3 + c] + tolerance)
            return 0;
    return 1;
}

/* Runs to one room that touch without sharing a vertex (a doorway round a
 * corner meeting at a T-junction) are one transition too. */
static void join_touching_runs(wm_picture *plot, const float *positions, const wm_pic_edge *edges,
                               const edge_end *ends, uint32_t count, uint32_t *parent)
{
    float *box = wm_alloc_array(plot->ctx, count, 6 * sizeof(float));
    if (!box)
        return; /* labels stay per run: still right, only more of them */
    for (uint32_t e = 0; e < count; e++)
        for (int c = 0; c < 3; c++) {
            box[6 * (size_t)e + c] = INFINITY;
            box[6 * (size_t)e + 3 + c] = -INFINITY;
        }
    for (uint32_t e = 0; e < count; e++) {
        float own[6], *run = box + 6 * (size_t)find(parent, e);
        edge_box(positions, &edges[e], own);
        for (int c = 0; c < 3; c++) {
            run[c] = own[c] < run[c] ? own[c] : run[c];
            run[3 + c] = own[3 + c] > run[3 + c] ? own[3 + c] : run[3 + c];
        }
    }
    for (size_t first = 0, end; first < 2 * (size_t)count; first = end) {
        uint32_t roots[MAX_RUNS_COMPARED], n = 0;
        for (end = first; end < 2 * (size_t)count && ends[end].room == ends[first].room; end++) {
            uint32_t root = ends[end].edge;
            if (find(parent, root) == root && n < MAX_RUNS_COMPARED && (n == 0 || roots[n - 1] != root))
                roots[n++] = root;
        }
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = i + 1; j < n; j++)
                if (find(parent, roots[i]) != find(parent, roots[j]) &&
                    boxes_touch(box + 6 * (size_t)roots[i], box + 6 * (size_t)roots[j]))
                    parent[find(parent, roots[j])] = find(parent, roots[i]);
    }
    wm_free(plot->ctx, box);
}

uint32_t wm_pic_draw_transitions(wm_picture *plot, const float *positions, const wm_pic_edge *edges, uint32_t count)
{
    uint16_t line = wm_picture_style(plot, "tr", "fill:none;stroke:#ffab00;stroke-width:4;stroke-linecap:round");
    uint16_t text = wm_picture_style(plot, "trl",
                                     "font-family:sans-serif;font-size:11px;font-weight:bold;fill:#6d4c00;"
                                     "text-anchor:middle;paint-order:stroke;stroke:#fff;stroke-width:3");
    if (count == 0)
        return 0;
    edge_end *ends = wm_alloc_array(plot->ctx, 2 * (size_t)count, sizeof *ends);
    uint32_t *parent = wm_alloc_array(plot->ctx, count, sizeof *parent), runs = 0;
    for (uint32_t e = 0; ends && parent && e < count; e++) {
        parent[e] = e;
        ends[2 * (size_t)e] = (edge_end){edges[e].room, edges[e].v[0], e};
        ends[2 * (size_t)e + 1] = (edge_end){edges[e].room, edges[e].v[1], e};
        wm_picture_segment(plot, line, positions + 3 * (size_t)edges[e].v[0], positions + 3 * (size_t)edges[e].v[1]);
    }
    if (ends && parent) {
        qsort(ends, 2 * (size_t)count, sizeof *ends, by_room_then_vertex);
        for (size_t i = 1; i < 2 * (size_t)count; i++)
            if (ends[i].vertex == ends[i - 1].vertex && ends[i].room == ends[i - 1].room)
                parent[find(parent, ends[i].edge)] = find(parent, ends[i - 1].edge);
        join_touching_runs(plot, positions, edges, ends, count, parent);
        label_runs(plot, positions, edges, count, parent, text, &runs);
    } else if (!plot->status)
        plot->status = WM_ERR_NOMEM;
    wm_free(plot->ctx, ends);
    wm_free(plot->ctx, parent);
    if (runs)
        wm_picture_legend(plot, WM_PIC_LEGEND_LINE, line, "transition to a room, labelled (%u)", runs);
    wm_picture_describe(plot, "transitions %u", runs);
    wm_picture_describe(plot, "transition edges %u", count);
    return runs;
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

/* The selected triangles' transition edges; *out owned by the caller. */
static wm_result transition_edges(wm_ctx *ctx, const wm_mesh *mesh, uint16_t only, wm_pic_edge **out,
                                  uint32_t *count)
{
    *count = 0;
    for (uint64_t i = 0; i < 3 * (uint64_t)mesh->triangle_count; i++)
        *count += mesh->transitions[i] != WM_NO_TRANSITION;
    *out = wm_alloc_array(ctx, *count ? *count : 1, sizeof **out);
    if (!*out)
        return WM_ERR_NOMEM;
    uint32_t n = 0;
    for (uint32_t t = 0; t < mesh->triangle_count; t++)
        for (int e = 0; e < 3 && (only == WM_SURFACE_NONE || mesh->surfaces[t] == only); e++)
            if (mesh->transitions[3 * (size_t)t + e] != WM_NO_TRANSITION) {
                (*out)[n].v[0] = mesh->indices[3 * (size_t)t + e];
                (*out)[n].v[1] = mesh->indices[3 * (size_t)t + (e + 1) % 3];
                (*out)[n++].room = mesh->transitions[3 * (size_t)t + e];
            }
    *count = n;
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
    uint32_t *block = walk + table->count, drawn = 0;
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        if (only != WM_SURFACE_NONE && mesh->surfaces[t] != only)
            continue;
        const uint32_t *tri = mesh->indices + 3 * (size_t)t;
        uint16_t s = mesh->surfaces[t];
        wm_picture_face(plot, mesh->positions + 3 * (size_t)tri[0], mesh->positions + 3 * (size_t)tri[1],
                        mesh->positions + 3 * (size_t)tri[2], wm_pic_surface_style(plot, s, mesh->walkable[t], 1.0, 9));
        (mesh->walkable[t] ? walk : block)[s < table->count ? s : 0]++;
        drawn++;
    }
    if (only != WM_SURFACE_NONE && drawn == 0)
        r = wm_error(ctx, WM_ERR_OPTION, "--select %s: no triangle has that surface", plot->select);
    wm_pic_legend_surfaces(plot, walk, block);
    wm_free(ctx, walk);
    wm_pic_edge *edges = NULL;
    uint32_t count = 0;
    if (!r)
        r = transition_edges(ctx, mesh, only, &edges, &count);
    if (!r)
        wm_pic_draw_transitions(plot, mesh->positions, edges, count);
    wm_free(ctx, edges);
    snprintf(plot->subtitle, sizeof plot->subtitle, "%u of %u triangles drawn%s%s", drawn, mesh->triangle_count,
             only != WM_SURFACE_NONE ? ", surface " : "", only != WM_SURFACE_NONE ? plot->select : "");
    return r;
}
