/* The public per-triangle tables (wm_nwn2.h): each mesh triangle's tile and island as the
 * file stores them, for the triangles the reader puts in the mesh. */
#include "nwn2_route.h"
#include "wm_nwn2.h"

#include <string.h>

void wm_nwn2_triangles_free(wm_ctx *ctx, wm_nwn2_triangles *triangles)
{
    wm_free(ctx, triangles->file_triangle);
    wm_free(ctx, triangles->tile);
    wm_free(ctx, triangles->island);
    memset(triangles, 0, sizeof *triangles);
}

/* The kept triangles' file index, tile and island; *out's arrays are allocated for count. */
static wm_result fill(wm_ctx *ctx, const nwn2_aswm *a, unsigned mesh_flags, const char *source,
                      wm_nwn2_triangles *out)
{
    uint32_t *tile_of = NULL;
    wm_result r = nwn2_tile_of_triangles(ctx, a, &tile_of);
    for (uint32_t t = 0; !r && t < a->triangle_count; t++) {
        if (!nwn2_mesh_keeps(a, t, mesh_flags))
            continue;
        if (!nwn2_triangle_in_range(a, t)) /* the reader refuses it too */
            r = wm_error(ctx, WM_ERR_CORRUPT, "%s: ASWM triangle %u: vertex index out of range (%u vertices)", source,
                         t, a->vertex_count);
        uint16_t island = a->triangles[t].island;
        out->file_triangle[out->count] = t;
        out->tile[out->count] = tile_of[t];
        out->island[out->count++] = island == NWN2_NO_ISLAND ? WM_NWN2_NONE : island;
    }
    wm_free(ctx, tile_of);
    return r;
}

static wm_result triangles_of(wm_ctx *ctx, const nwn2_file *f, const char *source, const wm_options *opts,
                              wm_nwn2_triangles *out)
{
    const nwn2_aswm *a = &f->aswm;
    if (f->aswm_packet < 0)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: no ASWM (walkmesh) packet", source);
    if (a->grid_width && a->grid_width * a->grid_height / a->grid_width != a->grid_height)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: tile grid %ux%u is too large", source, a->grid_width,
                        a->grid_height);
    unsigned mesh_flags = nwn2_mesh_flags(opts);
    uint32_t kept = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++)
        kept += (uint32_t)nwn2_mesh_keeps(a, t, mesh_flags);
    size_t n = kept ? kept : 1;
    out->file_triangle = wm_alloc_array(ctx, n, sizeof *out->file_triangle);
    out->tile = wm_alloc_array(ctx, n, sizeof *out->tile);
    out->island = wm_alloc_array(ctx, n, sizeof *out->island);
    if (!out->file_triangle || !out->tile || !out->island)
        return WM_ERR_NOMEM;
    out->grid_width = a->grid_width;
    out->grid_height = a->grid_height;
    out->tile_width = a->tile_width;
    out->island_count = a->island_count;
    return fill(ctx, a, mesh_flags, source, out);
}

wm_result wm_nwn2_triangles_read(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source,
                                 const wm_options *opts, wm_nwn2_triangles *out)
{
    memset(out, 0, sizeof *out);
    if (!source)
        source = "<memory>";
    nwn2_file file;
    nwn2_file_init(&file);
    wm_result r = nwn2_file_parse_shared(ctx, data, size, source, &file); /* only read */
    if (!r)
        r = triangles_of(ctx, &file, source, opts, out);
    nwn2_file_free(ctx, &file);
    return r;
}
