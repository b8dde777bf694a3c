/* Bake stage 1: the TRX geometry. Clockwise winding, cutters cut, tile
 * lines split, border tiles' triangles dropped, triangles grouped by tile,
 * unused vertices dropped, edges/neighbours/centres/normals rebuilt. */
#include "bake_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void triangle_centre(const nwn2_aswm *a, uint32_t t, float out[2])
{
    const uint32_t *v = a->triangles[t].v;
    nwn2_toolset_centre(&a->vertices[3 * v[0]], &a->vertices[3 * v[1]], &a->vertices[3 * v[2]], out);
}

wm_result bake_check_input(wm_ctx *ctx, const nwn2_aswm *a)
{
    if (a->grid_width == 0 || a->grid_height == 0 || !a->tiles)
        return wm_error(ctx, WM_ERR_INVALID, "walkmesh has no tile grid (%u x %u tiles)", a->grid_width,
                        a->grid_height);
    if (!(a->tile_width > 0.0f) || !isfinite(a->tile_width))
        return wm_error(ctx, WM_ERR_INVALID, "tile grid: tile width %g is not a positive number",
                        (double)a->tile_width);
    for (uint32_t t = 0; t < a->triangle_count; t++)
        for (int k = 0; k < 3; k++)
            if (a->triangles[t].v[k] >= a->vertex_count)
                return wm_error(ctx, WM_ERR_CORRUPT, "triangle %u: vertex index %u out of range (%u vertices)", t,
                                a->triangles[t].v[k], a->vertex_count);
    for (uint32_t v = 0; v < 3 * a->vertex_count; v++)
        if (!isfinite(a->vertices[v]))
            return wm_error(ctx, WM_ERR_CORRUPT, "vertex %u: coordinate is not a finite number", v / 3);
    return WM_OK;
}

/* Keeps the triangles with keep[t] != 0, in order. */
static void keep_triangles(nwn2_aswm *a, const uint8_t *keep)
{
    uint32_t n = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++)
        if (keep[t])
            a->triangles[n++] = a->triangles[t];
    a->triangle_count = n;
}

static wm_result drop_border(wm_ctx *ctx, nwn2_aswm *a, uint32_t *removed)
{
    const uint32_t b = a->border_size;
    if (b == 0)
        return WM_OK;
    uint8_t *keep = wm_alloc_array(ctx, a->triangle_count ? a->triangle_count : 1, 1);
    if (!keep)
        return WM_ERR_NOMEM;
    uint32_t before = a->triangle_count;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        float c[2];
        triangle_centre(a, t, c);
        uint32_t tile = nwn2_tile_of(a, c[0], c[1]);
        uint32_t x = tile % a->grid_width, y = tile / a->grid_width;
        keep[t] = x >= b && y >= b && (uint64_t)x + b < a->grid_width && (uint64_t)y + b < a->grid_height;
    }
    keep_triangles(a, keep);
    wm_free(ctx, keep);
    *removed += before - a->triangle_count;
    return WM_OK;
}

/* The TRX stores every triangle clockwise with flag 0x4 (TRN: counter-clockwise, no flag). */
static void make_clockwise(nwn2_aswm *a)
{
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        nwn2_triangle *tri = &a->triangles[t];
        if (tri->flags & NWN2_TRI_CLOCKWISE)
            continue;
        uint32_t v = tri->v[1];
        tri->v[1] = tri->v[2];
        tri->v[2] = v;
        tri->flags |= NWN2_TRI_CLOCKWISE;
    }
}

/* Stable counting sort of the triangles by the tile holding their centre,
 * or by input_tile[input index] for input triangles when given. */
static wm_result sort_into_tiles(wm_ctx *ctx, nwn2_aswm *a, const uint32_t *input_tile, uint32_t input_count)
{
    const uint32_t tiles = a->grid_width * a->grid_height;
    uint32_t *tile_of = wm_alloc_array(ctx, a->triangle_count ? a->triangle_count : 1, sizeof *tile_of);
    uint32_t *start = wm_alloc_array(ctx, (size_t)tiles + 1, sizeof *start);
    nwn2_triangle *sorted = wm_realloc_array(ctx, NULL, a->triangle_count ? a->triangle_count : 1, sizeof *sorted);
    if (!tile_of || !start || !sorted) {
        wm_free(ctx, tile_of);
        wm_free(ctx, start);
        wm_free(ctx, sorted);
        return WM_ERR_NOMEM;
    }
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        float c[2];
        uint32_t origin = a->triangles[t].edge[0];
        triangle_centre(a, t, c);
        tile_of[t] = input_tile && origin < input_count ? input_tile[origin] : nwn2_tile_of(a, c[0], c[1]);
        start[tile_of[t] + 1]++;
    }
    for (uint32_t i = 0; i < tiles; i++)
        start[i + 1] += start[i];
    for (uint32_t i = 0; i < tiles; i++) {
        nwn2_tile *tile = &a->tiles[i];
        tile->triangle_offset = start[i];
        tile->triangle_count = start[i + 1] - start[i];
    }
    for (uint32_t t = 0; t < a->triangle_count; t++)
        sorted[start[tile_of[t]]++] = a->triangles[t];
    wm_free(ctx, a->triangles);
    a->triangles = sorted;
    wm_free(ctx, tile_of);
    wm_free(ctx, start);
    return WM_OK;
}

/* Drops vertices no triangle uses, keeping the order of the rest. */
static wm_result compact_vertices(wm_ctx *ctx, nwn2_aswm *a)
{
    uint32_t *map = wm_alloc_array(ctx, a->vertex_count ? a->vertex_count : 1, sizeof *map);
    if (!map)
        return WM_ERR_NOMEM;
    memset(map, 0xFF, (size_t)a->vertex_count * sizeof *map);
    for (uint32_t t = 0; t < a->triangle_count; t++)
        for (int k = 0; k < 3; k++)
            map[a->triangles[t].v[k]] = 0;
    uint32_t n = 0;
    for (uint32_t v = 0; v < a->vertex_count; v++) {
        if (map[v] == NWN2_NONE32)
            continue;
        memmove(&a->vertices[3 * n], &a->vertices[3 * v], 3 * sizeof(float));
        map[v] = n++;
    }
    a->vertex_count = n;
    for (uint32_t t = 0; t < a->triangle_count; t++)
        for (int k = 0; k < 3; k++)
            a->triangles[t].v[k] = map[a->triangles[t].v[k]];
    wm_free(ctx, map);
    return WM_OK;
}

static void recompute_triangles(nwn2_aswm *a)
{
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        nwn2_triangle *tri = &a->triangles[t];
        float centre[2];
        nwn2_triangle_geometry(a, t, centre, tri->normal, &tri->d);
        triangle_centre(a, t, tri->centre);
    }
}

/* Tile headers of a baked file: owns_data 0, sizes 0, vertex and edge
 * counts = distinct vertices and edges of the tile's triangles. */
static wm_result fill_tile_headers(wm_ctx *ctx, nwn2_aswm *a)
{
    const uint32_t tiles = a->grid_width * a->grid_height;
    uint32_t *vstamp = wm_alloc_array(ctx, a->vertex_count ? a->vertex_count : 1, sizeof *vstamp);
    uint32_t *estamp = wm_alloc_array(ctx, a->edge_count ? a->edge_count : 1, sizeof *estamp);
    if (!vstamp || !estamp) {
        wm_free(ctx, vstamp);
        wm_free(ctx, estamp);
        return WM_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < tiles; i++) {
        nwn2_tile *tile = &a->tiles[i];
        wm_free(ctx, tile->vertices);
        wm_free(ctx, tile->edges);
        tile->vertices = NULL;
        tile->edges = NULL;
        tile->owns_data = 0;
        tile->size_x = tile->size_y = 0.0f;
        tile->vertex_count = tile->edge_count = 0;
        for (uint32_t t = tile->triangle_offset; t < tile->triangle_offset + tile->triangle_count; t++)
            for (int k = 0; k < 3; k++) {
                uint32_t v = a->triangles[t].v[k], e = a->triangles[t].edge[k];
                if (vstamp[v] != i + 1) {
                    vstamp[v] = i + 1;
                    tile->vertex_count++;
                }
                if (estamp[e] != i + 1) {
                    estamp[e] = i + 1;
                    tile->edge_count++;
                }
            }
        tile->flags = NWN2_GRID_FLAGS_TRX;
    }
    wm_free(ctx, vstamp);
    wm_free(ctx, estamp);
    a->grid_flags = NWN2_GRID_FLAGS_TRX;
    return WM_OK;
}

wm_result bake_geometry(wm_ctx *ctx, nwn2_aswm *a, const nwn2_bake_options *opts, const uint8_t *whole,
                        nwn2_bake_stats *stats)
{
    wm_result r = bake_check_input(ctx, a);
    if (r)
        return r;
    if ((uint64_t)a->grid_width * a->grid_height > UINT32_MAX / 2)
        return wm_error(ctx, WM_ERR_LIMIT, "tile grid %u x %u is too large", a->grid_width, a->grid_height);
    /* A baked TRX cut by cutters: its triangles that survive whole keep the
     * toolset's tile and are neither snapped nor split (tile membership is
     * the toolset's decision); only the pieces are tiled by rule. */
    uint32_t *input_tile = NULL;
    const uint32_t input_count = a->triangle_count;
    if (nwn2_layout_is_baked(a, opts->keep_borders)) {
        input_tile = wm_alloc_array(ctx, input_count ? input_count : 1, sizeof *input_tile);
        if (!input_tile)
            return WM_ERR_NOMEM;
        for (uint32_t ti = 0; ti < a->grid_width * a->grid_height; ti++)
            for (uint32_t k = 0; k < a->tiles[ti].triangle_count; k++)
                input_tile[a->tiles[ti].triangle_offset + k] = ti;
    }
    /* Until the edges are rebuilt, edge[0] carries each triangle's input
     * index and neighbour[] its input neighbours: hints for non-manifold edges. */
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        nwn2_triangle *tri = &a->triangles[t];
        tri->edge[0] = t;
        for (int k = 0; k < 3; k++)
            if (tri->neighbour[k] >= a->triangle_count)
                tri->neighbour[k] = NWN2_NONE32;
    }
    make_clockwise(a);
    if (opts->cutters && opts->cutters->count)
        r = bake_cut(ctx, a, opts->cutters, whole, &stats->split_added, &stats->cut_removed);
    if (!r) {
        stats->snapped_vertices = input_tile ? 0 : bake_snap_to_tile_lines(a);
        r = bake_split_tiles(ctx, a, input_tile != NULL, &stats->split_added);
    }
    if (!r && opts->cutters && opts->cutters->count)
        r = bake_cut_remove_inside(ctx, a, opts->cutters, &stats->cut_removed);
    if (!r && !opts->keep_borders)
        r = drop_border(ctx, a, &stats->border_removed);
    if (!r)
        r = sort_into_tiles(ctx, a, input_tile, input_count);
    wm_free(ctx, input_tile);
    if (!r)
        r = compact_vertices(ctx, a);
    if (!r) {
        uint32_t *origin = wm_alloc_array(ctx, a->triangle_count ? a->triangle_count : 1, sizeof *origin);
        if (!origin)
            return WM_ERR_NOMEM;
        for (uint32_t t = 0; t < a->triangle_count; t++)
            origin[t] = a->triangles[t].edge[0];
        r = nwn2_aswm_rebuild_edges_hinted(ctx, a, origin);
        wm_free(ctx, origin);
    }
    if (!r) {
        recompute_triangles(a);
        r = fill_tile_headers(ctx, a);
    }
    return r;
}
