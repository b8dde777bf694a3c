/* KotOR layer: faces by surface with walkable ones shaded by height,
 * perimeter loops, transition edges labelled with their room, and the use
 * hooks of placeables and doors. Binary files are drawn from their own
 * tables; ASCII walkmeshes are built first (as KOTORMax would compile
 * them) so their perimeters and room links are the ones a .wok would get:
 * bwm_ascii.c reads them and hands the mesh over (bwm_picture_of_mesh). */
#include "picture.h"
#include "bwm/bwm.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

#define HEIGHT_BANDS 6u

static float centre_z(const bwm_file *file, uint32_t f)
{
    const uint32_t *v = file->faces + 3 * (size_t)f;
    return (file->vertices[3 * (size_t)v[0] + 2] + file->vertices[3 * (size_t)v[1] + 2] +
            file->vertices[3 * (size_t)v[2] + 2]) / 3.0f;
}

static const float *edge_start(const bwm_file *file, uint32_t code, int end)
{
    uint32_t f = code / 3, e = code % 3;
    return file->vertices + 3 * (size_t)file->faces[3 * (size_t)f + (e + (uint32_t)end) % 3];
}

/* Walkable faces are shaded by the height of their centre relative to the
 * walkmesh's own walkable range: the highest in the surface's own colour
 * (the legend's swatch), the lowest at SHADE_LOW of it, never near black.
 * A range under FLAT_RANGE is drawn flat, every face in its own colour: a
 * floor that varies by 3 cm is not spread over every shade. */
#define FLAT_RANGE 0.5
#define SHADE_LOW 0.6

typedef struct height_shading {
    double lo, hi;
    uint32_t used[HEIGHT_BANDS]; /* faces per band */
} height_shading;

static unsigned height_band(const height_shading *h, double z)
{
    if (h->hi - h->lo < FLAT_RANGE)
        return HEIGHT_BANDS - 1;
    double rel = (z - h->lo) / (h->hi - h->lo);
    if (!(rel > 0)) /* also NaN */
        return 0;
    return rel >= 1 ? HEIGHT_BANDS - 1 : (unsigned)(rel * HEIGHT_BANDS);
}

static double band_shade(unsigned band)
{
    return SHADE_LOW + (1.0 - SHADE_LOW) * band / (HEIGHT_BANDS - 1);
}

/* The ramp row: a swatch per band in use, in the main walkable surface's
 * colour, so it shows exactly the shades on the page. */
static void height_legend(wm_picture *plot, const height_shading *h, uint16_t surface)
{
    unsigned lowest = HEIGHT_BANDS;
    for (unsigned band = 0; band < HEIGHT_BANDS; band++)
        lowest = h->used[band] && lowest == HEIGHT_BANDS ? band : lowest;
    if (lowest >= HEIGHT_BANDS - 1) {
        wm_picture_legend(plot, WM_PIC_LEGEND_TEXT, 0, "height %.2f to %.2f m, flat: one shade", h->lo, h->hi);
        return;
    }
    uint16_t styles[HEIGHT_BANDS];
    for (unsigned band = lowest; band < HEIGHT_BANDS; band++)
        styles[band - lowest] = wm_pic_surface_style(plot, surface, 1, band_shade(band), band);
    wm_pic_legend_ramp(plot, styles, HEIGHT_BANDS - lowest, "height %.2f to %.2f m", h->lo, h->hi);
    wm_picture_legend(plot, WM_PIC_LEGEND_TEXT, 0, "walkable faces: darker where lower");
}

static uint32_t draw_faces(wm_picture *plot, const bwm_file *file, const uint8_t *selected)
{
    wm_ctx *ctx = plot->ctx;
    const wm_surface_table *table = wm_surfaces(ctx);
    height_shading h = {DBL_MAX, -DBL_MAX, {0}};
    for (uint32_t f = 0; f < file->face_count; f++)
        if (selected[f] && bwm_material_walkable(ctx, file->materials[f])) {
            double z = centre_z(file, f);
            h.lo = z < h.lo ? z : h.lo;
            h.hi = z > h.hi ? z : h.hi;
        }
    uint32_t *walk = wm_alloc_array(ctx, 2 * (size_t)table->count, sizeof *walk), drawn = 0;
    if (!walk)
        return 0;
    uint32_t *block = walk + table->count;
    for (uint32_t f = 0; f < file->face_count; f++) {
        if (!selected[f])
            continue;
        uint16_t s = bwm_surface_of_material(table, file->materials[f]);
        s = s == WM_SURFACE_NONE ? WM_SURF_UNDEFINED : s;
        int walkable = bwm_material_walkable(ctx, file->materials[f]);
        unsigned band = walkable ? height_band(&h, centre_z(file, f)) : 0;
        h.used[band] += (uint32_t)walkable;
        const uint32_t *v = file->faces + 3 * (size_t)f;
        wm_picture_face(plot, file->vertices + 3 * (size_t)v[0], file->vertices + 3 * (size_t)v[1],
                        file->vertices + 3 * (size_t)v[2], wm_pic_surface_style(plot, s, walkable, band_shade(band), band));
        (walkable ? walk : block)[s]++;
        drawn++;
    }
    wm_pic_legend_surfaces(plot, walk, block);
    uint16_t main_surface = 0;
    for (uint32_t s = 0; s < table->count; s++)
        main_surface = walk[s] > walk[main_surface] ? (uint16_t)s : main_surface;
    if (h.hi >= h.lo) {
        height_legend(plot, &h, main_surface);
        wm_picture_describe(plot, "walkable height %.3f %.3f", h.lo, h.hi);
    }
    wm_free(ctx, walk);
    return drawn;
}

/* Perimeter loops as closed outlines (only the selected faces' edges when a
 * surface is selected). Returns the number of loops drawn. */
static uint32_t draw_perimeters(wm_picture *plot, const bwm_file *file, const uint8_t *selected, int whole)
{
    uint16_t style = wm_picture_style(plot, "pm", "fill:none;stroke:#0d47a1;stroke-width:2;stroke-linejoin:round");
    uint32_t start = 0, loops = 0;
    for (uint32_t p = 0; p < file->perimeter_count; p++) {
        uint32_t end = file->perimeters[p];
        if (end <= start || end > file->edge_count)
            break; /* a malformed table: validate reports it */
        float *points = wm_alloc_array(plot->ctx, end - start, 3 * sizeof(float));
        if (!points)
            return loops;
        uint32_t n = 0;
        for (uint32_t e = start; e < end; e++) {
            uint32_t code = file->edges[e].code;
            if (code / 3 >= file->face_count || !selected[code / 3])
                continue;
            if (whole)
                memcpy(points + 3 * (size_t)n++, edge_start(file, code, 0), 3 * sizeof(float));
            else
                wm_picture_segment(plot, style, edge_start(file, code, 0), edge_start(file, code, 1));
        }
        if (whole && n >= 2)
            wm_picture_line(plot, style, points, n, 1);
        loops += n > 0 || !whole;
        wm_free(plot->ctx, points);
        start = end;
    }
    if (loops)
        wm_picture_legend(plot, WM_PIC_LEGEND_LINE, style, "perimeter loop (%u)", loops);
    return loops;
}

static uint32_t draw_transitions(wm_picture *plot, const bwm_file *file, const uint8_t *selected)
{
    wm_pic_edge *edges = wm_alloc_array(plot->ctx, file->edge_count ? file->edge_count : 1, sizeof *edges);
    uint32_t count = 0;
    for (uint32_t e = 0; edges && e < file->edge_count; e++) {
        uint32_t code = file->edges[e].code, f = code / 3, k = code % 3;
        if (file->edges[e].transition < 0 || f >= file->face_count || !selected[f])
            continue;
        edges[count].v[0] = file->faces[3 * (size_t)f + k];
        edges[count].v[1] = file->faces[3 * (size_t)f + (k + 1) % 3];
        edges[count++].room = file->edges[e].transition;
    }
    uint32_t runs = edges ? wm_pic_draw_transitions(plot, file->vertices, edges, count) : 0;
    wm_free(plot->ctx, edges);
    return runs;
}

static uint32_t draw_hooks(wm_picture *plot, const bwm_file *file)
{
    if (file->type != BWM_TYPE_PLACEABLE)
        return 0;
    uint16_t dot = wm_picture_style(plot, "hk", "fill:#d500f9;stroke:#000;stroke-width:1.5");
    uint16_t text = wm_picture_style(plot, "hkl", "font-family:sans-serif;font-size:12px;font-weight:bold;fill:#6a0080");
    for (int k = 0; k < 2; k++) {
        wm_picture_dot(plot, dot, file->rel_hook[k], 6, WM_PIC_MARK_DOT);
        wm_picture_label(plot, text, file->rel_hook[k], "use hook %d", k + 1);
        wm_picture_offset_last(plot, 10);
    }
    wm_picture_legend(plot, WM_PIC_LEGEND_DOT, dot, "use hook (2), placeable's own frame");
    return 2;
}

/* Draws a decoded file (consumed: freed here). */
static wm_result draw(wm_ctx *ctx, bwm_file *file, int ascii, wm_picture *plot)
{
    uint16_t only = WM_SURFACE_NONE;
    wm_result r = wm_pic_select_surface(ctx, plot->select, &only);
    uint8_t *selected = r ? NULL : wm_alloc_array(ctx, file->face_count ? file->face_count : 1, 1);
    if (!r && !selected)
        r = WM_ERR_NOMEM;
    if (r) {
        bwm_file_free(ctx, file);
        return r;
    }
    plot->unit = "m";
    const wm_surface_table *table = wm_surfaces(ctx);
    for (uint32_t f = 0; f < file->face_count; f++)
        selected[f] = only == WM_SURFACE_NONE || bwm_surface_of_material(table, file->materials[f]) == only;
    uint32_t drawn = draw_faces(plot, file, selected);
    uint32_t loops = draw_perimeters(plot, file, selected, only == WM_SURFACE_NONE);
    draw_transitions(plot, file, selected);
    uint32_t hooks = draw_hooks(plot, file);
    snprintf(plot->subtitle, sizeof plot->subtitle, "KotOR %s walkmesh%s: %u of %u faces drawn%s%s",
             file->type == BWM_TYPE_AREA ? "area (WOK)" : "placeable/door (PWK/DWK)",
             ascii ? " (ASCII, as compiled)" : "", drawn, file->face_count, only != WM_SURFACE_NONE ? ", surface " : "",
             only != WM_SURFACE_NONE ? plot->select : "");
    wm_picture_describe(plot, "faces %u", drawn);
    wm_picture_describe(plot, "perimeter loops %u", loops);
    wm_picture_describe(plot, "hooks %u", hooks);
    if (only != WM_SURFACE_NONE && drawn == 0)
        r = wm_error(ctx, WM_ERR_OPTION, "--select %s: no face has that surface", plot->select);
    wm_free(ctx, selected);
    bwm_file_free(ctx, file);
    return r;
}

wm_result bwm_picture(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_picture *plot)
{
    (void)opts;
    bwm_file file;
    bwm_file_init(&file);
    wm_result r = bwm_parse(ctx, in->data, in->size, in->name, &file);
    if (r) {
        bwm_file_free(ctx, &file);
        return r;
    }
    return draw(ctx, &file, 0, plot);
}

wm_result bwm_picture_of_mesh(wm_ctx *ctx, const wm_mesh *mesh, const char *name, wm_picture *plot)
{
    bwm_file file;
    bwm_file_init(&file);
    wm_ctx quiet = *ctx; /* the builder's warnings are about editing, not about looking */
    quiet.warn = NULL;
    wm_result r = bwm_from_mesh(&quiet, mesh, BWM_TYPE_AREA, -1.0f, BWM_PLANES_BIOWARE, &file);
    if (r) {
        wm_error(ctx, r, "%s: %s", name, quiet.message);
        bwm_file_free(ctx, &file);
        return r;
    }
    return draw(ctx, &file, 1, plot);
}
