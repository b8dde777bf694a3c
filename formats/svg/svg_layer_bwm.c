/* KotOR layer: faces by surface with walkable ones shaded by height,
 * perimeter loops, transition edges labelled with their room, and the use
 * hooks of placeables and doors. Binary files are drawn from their own
 * tables; ASCII walkmeshes are built first (as KOTORMax would compile
 * them) so their perimeters and room links are the ones a .wok would get. */
#include "svg/svg_plot.h"
#include "bwm/bwm.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

#define HEIGHT_BANDS 6u

static wm_result load(wm_ctx *ctx, const char *path, int ascii, const wm_options *mesh_opts, bwm_file *file)
{
    if (!ascii)
        return bwm_read_file(ctx, path, file);
    wm_mesh mesh;
    wm_result r = wm_mesh_load(ctx, path, wm_format_bwm_ascii.name, mesh_opts, &mesh);
    if (r)
        return r;
    wm_ctx quiet = *ctx; /* the builder's warnings are about editing, not about looking */
    quiet.warn = NULL;
    r = bwm_from_mesh(&quiet, &mesh, BWM_TYPE_AREA, -1.0f, BWM_PLANES_BIOWARE, file);
    if (r)
        wm_error(ctx, r, "%s: %s", path, quiet.message);
    wm_mesh_free(ctx, &mesh);
    return r;
}

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

static uint32_t draw_faces(svg_plot *plot, const bwm_file *file, const uint8_t *selected)
{
    wm_ctx *ctx = plot->ctx;
    const wm_surface_table *table = wm_surfaces(ctx);
    float lo = FLT_MAX, hi = -FLT_MAX;
    for (uint32_t f = 0; f < file->face_count; f++)
        if (selected[f] && bwm_material_walkable(ctx, file->materials[f])) {
            float z = centre_z(file, f);
            lo = z < lo ? z : lo;
            hi = z > hi ? z : hi;
        }
    uint32_t *walk = wm_alloc_array(ctx, 2 * (size_t)table->count, sizeof *walk), drawn = 0;
    if (!walk)
        return 0;
    uint32_t *block = walk + table->count;
    for (uint32_t f = 0; f < file->face_count; f++) {
        if (!selected[f])
            continue;
        uint16_t s = wm_surface_from_kotor(table, (int32_t)file->materials[f]);
        s = s == WM_SURFACE_NONE || s >= table->count ? WM_SURF_UNDEFINED : s;
        int walkable = bwm_material_walkable(ctx, file->materials[f]);
        unsigned band = 0;
        double rel = walkable && hi > lo ? (centre_z(file, f) - lo) / ((double)hi - lo) : 0.0;
        if (rel > 0) /* false for NaN */
            band = rel >= 1 ? HEIGHT_BANDS - 1 : (unsigned)(rel * HEIGHT_BANDS);
        const uint32_t *v = file->faces + 3 * (size_t)f;
        svg_plot_face(plot, file->vertices + 3 * (size_t)v[0], file->vertices + 3 * (size_t)v[1],
                      file->vertices + 3 * (size_t)v[2],
                      svg_surface_style(plot, s, walkable, 0.55 + 0.45 * band / (HEIGHT_BANDS - 1), band));
        (walkable ? walk : block)[s]++;
        drawn++;
    }
    svg_legend_surfaces(plot, walk, block);
    wm_free(ctx, walk);
    if (hi > lo) {
        uint16_t first = 0;
        for (unsigned band = 0; band < HEIGHT_BANDS; band++) {
            char name[8], colour[8];
            const uint8_t white[3] = {0xff, 0xff, 0xff};
            snprintf(name, sizeof name, "h%u", band);
            svg_colour(white, 0.55 + 0.45 * band / (HEIGHT_BANDS - 1), colour);
            uint16_t s = svg_plot_style(plot, name, "fill:%s;stroke:#000;stroke-opacity:0.3", colour);
            first = band == 0 ? s : first;
        }
        svg_plot_legend(plot, SVG_LEGEND_RAMP, first, "walkable height %.2f to %.2f m", (double)lo, (double)hi);
        plot->legend[plot->legend_count - 1].ramp = HEIGHT_BANDS;
    }
    return drawn;
}

/* Perimeter loops as closed outlines (only the selected faces' edges when a
 * surface is selected). Returns the number of loops drawn. */
static uint32_t draw_perimeters(svg_plot *plot, const bwm_file *file, const uint8_t *selected, int whole)
{
    uint16_t style = svg_plot_style(plot, "pm", "fill:none;stroke:#0d47a1;stroke-width:2;stroke-linejoin:round");
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
                svg_plot_segment(plot, style, edge_start(file, code, 0), edge_start(file, code, 1));
        }
        if (whole && n >= 2)
            svg_plot_line(plot, style, points, n, 1);
        loops += n > 0 || !whole;
        wm_free(plot->ctx, points);
        start = end;
    }
    if (loops)
        svg_plot_legend(plot, SVG_LEGEND_LINE, style, "perimeter loop (%u)", loops);
    return loops;
}

static uint32_t draw_transitions(svg_plot *plot, const bwm_file *file, const uint8_t *selected)
{
    uint32_t count = 0;
    for (uint32_t e = 0; e < file->edge_count; e++) {
        uint32_t code = file->edges[e].code;
        if (file->edges[e].transition < 0 || code / 3 >= file->face_count || !selected[code / 3])
            continue;
        svg_draw_transition(plot, edge_start(file, code, 0), edge_start(file, code, 1), file->edges[e].transition);
        count++;
    }
    if (count)
        svg_plot_legend(plot, SVG_LEGEND_LINE, svg_plot_style(plot, "tr", "%s", ""),
                        "transition, labelled with its room (%u)", count);
    return count;
}

static uint32_t draw_hooks(svg_plot *plot, const bwm_file *file)
{
    if (file->type != BWM_TYPE_PLACEABLE)
        return 0;
    uint16_t dot = svg_plot_style(plot, "hk", "fill:#d500f9;stroke:#000;stroke-width:1.5");
    uint16_t text = svg_plot_style(plot, "hkl", "font-family:sans-serif;font-size:12px;font-weight:bold;fill:#6a0080");
    for (int k = 0; k < 2; k++) {
        svg_plot_dot(plot, dot, file->rel_hook[k], 6, SVG_MARK_DOT);
        svg_plot_label(plot, text, file->rel_hook[k], "use hook %d", k + 1);
        svg_plot_offset_last(plot, 10);
    }
    svg_plot_legend(plot, SVG_LEGEND_DOT, dot, "use hook (2), placeable's own frame");
    return 2;
}

wm_result svg_layer_bwm(svg_plot *plot, const char *path, int ascii, const svg_render_options *opts,
                        const wm_options *mesh_opts)
{
    wm_ctx *ctx = plot->ctx;
    uint16_t only = WM_SURFACE_NONE;
    wm_result r = svg_select_surface(ctx, opts->select, &only);
    bwm_file file;
    bwm_file_init(&file);
    if (!r)
        r = load(ctx, path, ascii, mesh_opts, &file);
    uint8_t *selected = r ? NULL : wm_alloc_array(ctx, file.face_count, 1);
    if (!r && !selected)
        r = WM_ERR_NOMEM;
    if (r) {
        bwm_file_free(ctx, &file);
        return r;
    }
    const wm_surface_table *table = wm_surfaces(ctx);
    for (uint32_t f = 0; f < file.face_count; f++)
        selected[f] = only == WM_SURFACE_NONE || wm_surface_from_kotor(table, (int32_t)file.materials[f]) == only;
    uint32_t drawn = draw_faces(plot, &file, selected);
    uint32_t loops = draw_perimeters(plot, &file, selected, only == WM_SURFACE_NONE);
    uint32_t transitions = draw_transitions(plot, &file, selected);
    uint32_t hooks = draw_hooks(plot, &file);
    snprintf(plot->subtitle, sizeof plot->subtitle, "KotOR %s walkmesh%s: %u of %u faces drawn%s%s",
             file.type == BWM_TYPE_AREA ? "area (WOK)" : "placeable/door (PWK/DWK)", ascii ? " (ASCII, as compiled)" : "",
             drawn, file.face_count, only != WM_SURFACE_NONE ? ", surface " : "", only != WM_SURFACE_NONE ? opts->select : "");
    svg_plot_describe(plot, "faces %u", drawn);
    svg_plot_describe(plot, "perimeter loops %u", loops);
    svg_plot_describe(plot, "transitions %u", transitions);
    svg_plot_describe(plot, "hooks %u", hooks);
    if (only != WM_SURFACE_NONE && drawn == 0)
        r = wm_error(ctx, WM_ERR_OPTION, "--select %s: no face has that surface", opts->select);
    wm_free(ctx, selected);
    bwm_file_free(ctx, &file);
    return r;
}
