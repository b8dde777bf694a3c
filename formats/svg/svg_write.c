/* A top-down picture of a walkmesh as SVG: triangles filled with their
 * surface colour (blocking ones faded and outlined), transitions drawn as
 * thick lines, and a legend. Write-only: for looking, not for editing. */
#include "walkmesh.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#define SVG_SIZE 1024.0
#define SVG_LEGEND_WIDTH 240.0

typedef struct tri_depth {
    float z;
    uint32_t t;
} tri_depth;

static int by_height(const void *a, const void *b)
{
    const tri_depth *x = a, *y = b;
    if (x->z != y->z)
        return x->z < y->z ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t;
}

static void put_escaped(wm_buffer *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            wm_put_text(out, "&lt;");
        else if (*s == '>')
            wm_put_text(out, "&gt;");
        else if (*s == '&')
            wm_put_text(out, "&amp;");
        else if (*s == '"')
            wm_put_text(out, "&quot;");
        else if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x80) {
            /* XML is UTF-8 here and forbids control characters: anything else becomes U+FFFD */
            int n = (unsigned char)*s >= 0x80 ? wm_utf8_length(s) : 0;
            if (n == 0)
                wm_put_text(out, "&#xFFFD;");
            for (int k = 0; k < n; k++)
                wm_put_u8(out, (uint8_t)s[k]);
            s += n > 0 ? n - 1 : 0;
        } else
            wm_put_u8(out, (uint8_t)*s);
    }
}

static void write_legend(wm_buffer *out, const wm_mesh *mesh, const wm_surface_table *table, const uint32_t *counts,
                         double x0)
{
    uint32_t walkable = 0;
    for (uint32_t t = 0; t < mesh->triangle_count; t++)
        walkable += mesh->walkable[t];
    wm_put_text(out, "<g font-family=\"sans-serif\" font-size=\"14\">\n<text x=\"%.1f\" y=\"24\" font-weight=\"bold\">",
                x0);
    put_escaped(out, mesh->name[0] ? mesh->name : "walkmesh");
    wm_put_text(out, "</text>\n<text x=\"%.1f\" y=\"44\">%u triangle%s, %u walkable</text>\n", x0,
                mesh->triangle_count, mesh->triangle_count == 1 ? "" : "s", walkable);
    double y = 72;
    for (uint32_t s = 0; s < table->count; s++) {
        if (!counts[s])
            continue;
        const uint8_t *c = table->entries[s].color;
        int walk = table->entries[s].walkable;
        wm_put_text(out,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"14\" fill=\"#%02x%02x%02x\" "
                    "fill-opacity=\"%s\" stroke=\"#333\"/>\n<text x=\"%.1f\" y=\"%.1f\">",
                    x0, y - 12, c[0], c[1], c[2], walk ? "1" : "0.45", x0 + 26, y);
        put_escaped(out, table->entries[s].name);
        wm_put_text(out, " (%u)</text>\n", counts[s]);
        y += 20;
    }
    wm_put_text(out,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"14\" fill=\"#fff\" fill-opacity=\"0.45\" "
                "stroke=\"#333\" stroke-dasharray=\"3 2\"/>\n<text x=\"%.1f\" y=\"%.1f\">faded: not walkable</text>\n",
                x0, y - 12, x0 + 26, y);
    y += 20;
    wm_put_text(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ffab00\" stroke-width=\"4\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\">transition (room/door link)</text>\n</g>\n",
                x0, y - 5, x0 + 18, y - 5, x0 + 26, y);
}

static wm_result svg_write(wm_ctx *ctx, const wm_mesh *mesh, const char *path, const wm_options *opts, int overwrite)
{
    (void)opts;
    wm_result r = wm_mesh_validate(ctx, mesh);
    if (r)
        return r;
    if (mesh->triangle_count == 0)
        return wm_error(ctx, WM_ERR_INVALID, "%s: nothing to draw: the mesh has no triangles", path);
    const wm_surface_table *table = wm_surfaces(ctx);
    float lo[3], hi[3];
    wm_mesh_bounds(mesh, lo, hi);
    double w = (double)hi[0] - lo[0], h = (double)hi[1] - lo[1];
    double extent = w > h ? w : h;
    double scale = extent > 0 ? (SVG_SIZE - 40) / extent : 1.0;
    double width = w * scale + 40, height = h * scale + 40;
    tri_depth *order = wm_alloc_array(ctx, mesh->triangle_count, sizeof *order);
    uint32_t *counts = wm_alloc_array(ctx, table->count, sizeof *counts);
    if (!order || !counts) {
        wm_free(ctx, order);
        wm_free(ctx, counts);
        return WM_ERR_NOMEM;
    }
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        const uint32_t *tri = mesh->indices + 3 * (size_t)t;
        order[t].z = (mesh->positions[3 * (size_t)tri[0] + 2] + mesh->positions[3 * (size_t)tri[1] + 2] +
                      mesh->positions[3 * (size_t)tri[2] + 2]) / 3.0f;
        order[t].t = t;
        counts[mesh->surfaces[t]]++;
    }
    /* Painter's order: lower floors first, so upper ones cover them. */
    qsort(order, mesh->triangle_count, sizeof *order, by_height);
    wm_buffer out;
    wm_buffer_init(&out, ctx);
    wm_put_text(&out,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
                "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.1f %.1f\">\n<rect width=\"100%%\" height=\"100%%\" "
                "fill=\"#fafafa\"/>\n<g stroke-linejoin=\"round\" stroke-width=\"0.6\">\n",
                width + SVG_LEGEND_WIDTH, height > 240 ? height : 240, width + SVG_LEGEND_WIDTH,
                height > 240 ? height : 240);
#define SX(v) (20 + ((double)mesh->positions[3 * (size_t)(v)] - lo[0]) * scale)
#define SY(v) (20 + ((double)hi[1] - mesh->positions[3 * (size_t)(v) + 1]) * scale)
    for (uint32_t i = 0; i < mesh->triangle_count; i++) {
        uint32_t t = order[i].t;
        const uint32_t *tri = mesh->indices + 3 * (size_t)t;
        const uint8_t *c = table->entries[mesh->surfaces[t]].color;
        wm_put_text(&out,
                    "<path d=\"M%.2f %.2fL%.2f %.2fL%.2f %.2fZ\" fill=\"#%02x%02x%02x\" fill-opacity=\"%s\" "
                    "stroke=\"%s\"/>\n",
                    SX(tri[0]), SY(tri[0]), SX(tri[1]), SY(tri[1]), SX(tri[2]), SY(tri[2]), c[0], c[1], c[2],
                    mesh->walkable[t] ? "1" : "0.45", mesh->walkable[t] ? "#00000040" : "#00000090");
    }
    wm_put_text(&out, "</g>\n<g stroke=\"#ffab00\" stroke-width=\"4\" stroke-linecap=\"round\">\n");
    for (uint32_t t = 0; t < mesh->triangle_count; t++)
        for (int e = 0; e < 3; e++) {
            if (mesh->transitions[3 * (size_t)t + e] == WM_NO_TRANSITION)
                continue;
            uint32_t a = mesh->indices[3 * (size_t)t + e], b = mesh->indices[3 * (size_t)t + (e + 1) % 3];
            wm_put_text(&out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"><title>transition %d</title></line>\n",
                        SX(a), SY(a), SX(b), SY(b), mesh->transitions[3 * (size_t)t + e]);
        }
#undef SX
#undef SY
    wm_put_text(&out, "</g>\n");
    write_legend(&out, mesh, table, counts, width + 10);
    wm_put_text(&out, "</svg>\n");
    wm_free(ctx, order);
    wm_free(ctx, counts);
    r = out.status ? out.status : wm_file_write_atomic(ctx, path, out.data, out.size, overwrite);
    wm_buffer_free(&out);
    return r;
}

static const char *const svg_extensions[] = {"svg", NULL};

const wm_format wm_format_svg = {
    .name = "svg",
    .description = "top-down picture (SVG): triangles coloured by surface, blocking ones faded, transitions "
                   "highlighted, with a legend; write only",
    .extensions = svg_extensions,
    .write = svg_write,
};
