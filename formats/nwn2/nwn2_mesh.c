/* ASWM <-> neutral mesh. */
#include "nwn2_compact.h"
#include "nwn2_tiles.h"
#include "wm_surface.h"

/* Largest grid a mesh may grow the base to (256x256 tiles; real areas are far smaller). */
#define NWN2_MAX_GRID_TILES 65536u

#include <math.h>
#include <stdlib.h>
#include <string.h>

int nwn2_triangle_is_border(const nwn2_aswm *a, uint32_t t)
{
    const nwn2_triangle *tri = &a->triangles[t];
    if (tri->island != NWN2_NO_ISLAND || (tri->flags & NWN2_TRI_WALKABLE) || a->border_size == 0)
        return 0;
    double band = (double)a->border_size * a->tile_width;
    double x = tri->centre[0], y = tri->centre[1];
    return x < band || y < band || x >= (double)a->grid_width * a->tile_width - band ||
           y >= (double)a->grid_height * a->tile_width - band;
}

int nwn2_mesh_keeps(const nwn2_aswm *a, uint32_t t, unsigned mesh_flags)
{
    if ((mesh_flags & NWN2_MESH_WALKABLE_ONLY) && !(a->triangles[t].flags & NWN2_TRI_WALKABLE))
        return 0;
    return (mesh_flags & NWN2_MESH_KEEP_BORDER) || !nwn2_triangle_is_border(a, t);
}

wm_result nwn2_aswm_to_mesh(wm_ctx *ctx, const nwn2_aswm *a, unsigned mesh_flags, wm_mesh *out)
{
    const wm_surface_table *table = wm_surfaces(ctx);
    wm_result r = wm_mesh_reserve(ctx, out, a->vertex_count, a->triangle_count);
    if (r)
        return r;
    uint32_t base = out->vertex_count;
    for (uint32_t i = 0; i < a->vertex_count; i++) {
        const float *p = &a->vertices[3 * (size_t)i];
        if ((r = wm_mesh_add_vertex(ctx, out, p[0], p[1], p[2], NULL)))
            return r;
    }
    /* the surface of the last flags seen: most neighbouring triangles share their flags,
     * and the lookup compares surface names */
    uint32_t last_flags = 0;
    uint16_t last_surface = nwn2_surface_of_flags(table, 0);
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        const nwn2_triangle *tri = &a->triangles[t];
        int walkable = (tri->flags & NWN2_TRI_WALKABLE) != 0;
        if (!nwn2_mesh_keeps(a, t, mesh_flags))
            continue;
        for (int k = 0; k < 3; k++)
            if (tri->v[k] >= a->vertex_count)
                return wm_error(ctx, WM_ERR_CORRUPT, "ASWM triangle %u: vertex index %u out of range (%u vertices)", t,
                                tri->v[k], a->vertex_count);
        if ((tri->flags & NWN2_TRI_SURFACE_MASK) != last_flags) {
            last_flags = tri->flags & NWN2_TRI_SURFACE_MASK;
            last_surface = nwn2_surface_of_flags(table, last_flags);
        }
        uint16_t surface = last_surface;
        if (surface == WM_SURFACE_NONE)
            surface = walkable ? WM_SURF_UNDEFINED : WM_SURF_NONWALK;
        /* the neutral mesh is counter-clockwise seen from the normal */
        uint32_t b = tri->v[1], c = tri->v[2];
        if (tri->flags & NWN2_TRI_CLOCKWISE) {
            b = tri->v[2];
            c = tri->v[1];
        }
        if ((r = wm_mesh_add_triangle(ctx, out, base + tri->v[0], base + b, base + c, surface, walkable)))
            return r;
    }
    return wm_mesh_compact(ctx, out);
}

static int base_is_clockwise(const nwn2_aswm *a)
{
    uint32_t flagged = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++)
        flagged += (a->triangles[t].flags & NWN2_TRI_CLOCKWISE) != 0;
    if (a->triangle_count == 0)
        return a->grid_flags == NWN2_GRID_FLAGS_TRX;
    return flagged * 2 > a->triangle_count;
}

/* ---- keeping a baked base's decisions for the triangles that did not change ---- */

/* The first of the sorted base keys whose positions are not below key's. */
static uint32_t first_not_below(const nwn2_corner_key *bk, uint32_t n, const nwn2_corner_key *key)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (!nwn2_corner_key_same(&bk[mid], key) && nwn2_corner_key_cmp(&bk[mid], key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* base_of[t] = the base triangle with the same three vertex positions as
 * mesh triangle t (each base triangle used once, duplicates in order), or
 * NWN2_NONE32 for a new or changed triangle. Only the base's keys are held
 * (sorted): the mesh's triangles look theirs up in mesh order, and the k-th
 * mesh triangle of a position group takes the group's k-th base triangle
 * (next[] counts them), as a merge of both sorted key lists would. */
static wm_result match_base(wm_ctx *ctx, const wm_mesh *mesh, const nwn2_aswm *base, uint32_t *base_of)
{
    const uint32_t nb = base->triangle_count;
    nwn2_corner_key *bk = wm_alloc_array(ctx, nb ? nb : 1, sizeof *bk);
    uint32_t *next = wm_alloc_array(ctx, nb ? nb : 1, sizeof *next);
    if (!bk || !next) {
        wm_free(ctx, bk);
        wm_free(ctx, next);
        return WM_ERR_NOMEM;
    }
    for (uint32_t t = 0; t < nb; t++)
        nwn2_corner_key_make(&bk[t], base->vertices, base->triangles[t].v, t);
    qsort(bk, nb, sizeof *bk, nwn2_corner_key_cmp);
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        nwn2_corner_key mk;
        nwn2_corner_key_make(&mk, mesh->positions, &mesh->indices[3 * (size_t)t], t);
        base_of[t] = NWN2_NONE32;
        uint32_t g = first_not_below(bk, nb, &mk);
        if (g == nb || !nwn2_corner_key_same(&bk[g], &mk))
            continue;
        uint32_t k = g + next[g];
        if (k < nb && nwn2_corner_key_same(&bk[k], &mk)) {
            base_of[t] = bk[k].index;
            next[g]++;
        }
    }
    wm_free(ctx, bk);
    wm_free(ctx, next);
    return WM_OK;
}

/* The base's vertex order (and so its winding and first vertex) in mesh vertex indices. */
static int base_vertex_order(const wm_mesh *mesh, const uint32_t *ix, const nwn2_aswm *base, uint32_t bt,
                             uint32_t out[3])
{
    for (int k = 0; k < 3; k++) {
        const float *want = &base->vertices[3 * (size_t)base->triangles[bt].v[k]];
        out[k] = NWN2_NONE32;
        for (int m = 0; m < 3; m++)
            if (memcmp(&mesh->positions[3 * (size_t)ix[m]], want, 3 * sizeof(float)) == 0)
                out[k] = ix[m];
    }
    return out[0] != out[1] && out[1] != out[2] && out[0] != out[2] && out[0] != NWN2_NONE32 &&
           out[1] != NWN2_NONE32 && out[2] != NWN2_NONE32;
}

/* Grows the grid (keeping existing tiles at their x/y) so every centre fits. */
static wm_result grow_grid(wm_ctx *ctx, nwn2_aswm *a, uint32_t need_w, uint32_t need_h)
{
    if (need_w <= a->grid_width && need_h <= a->grid_height && a->tiles)
        return WM_OK;
    uint32_t w = need_w > a->grid_width ? need_w : a->grid_width;
    uint32_t h = need_h > a->grid_height ? need_h : a->grid_height;
    if ((uint64_t)w * h > NWN2_MAX_GRID_TILES)
        return wm_error(ctx, WM_ERR_LIMIT, "mesh needs a %ux%u tile grid (tile width %g): too large", w, h,
                        (double)a->tile_width);
    nwn2_tile *tiles = wm_alloc_array(ctx, (size_t)w * h, sizeof *tiles);
    if (!tiles)
        return WM_ERR_NOMEM;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            nwn2_tile *t = &tiles[(size_t)y * w + x];
            if (x < a->grid_width && y < a->grid_height && a->tiles) {
                *t = a->tiles[(size_t)y * a->grid_width + x];
            } else {
                t->flags = a->grid_flags;
            }
        }
    wm_free(ctx, a->tiles); /* per-tile arrays moved into the new grid */
    a->tiles = tiles;
    a->grid_width = w;
    a->grid_height = h;
    return WM_OK;
}

static wm_result reset_tile(wm_ctx *ctx, nwn2_tile *t, uint32_t offset, uint32_t count)
{
    wm_free(ctx, t->vertices);
    wm_free(ctx, t->edges);
    t->vertices = NULL;
    t->edges = NULL;
    t->owns_data = 0;
    t->vertex_count = 0;
    t->edge_count = 0;
    t->triangle_offset = offset;
    t->triangle_count = count;
    t->path_flags = 0;
    t->rle_size = 0;
    /* unbaked: every local triangle maps to no node until the bake */
    return nwn2_tile_alloc_path(ctx, t, count, 0);
}

/* Scratch of nwn2_aswm_from_mesh, indexed by mesh triangle (tile_of, pre,
 * base_of), by new triangle (tris, order, origin), by tile (start) or by base
 * triangle (base_tile). */
typedef struct mesh_layout {
    uint32_t *tile_of, *order, *pre, *start, *base_of, *base_tile;
} mesh_layout;

/* The arrays that only order the triangles (by mesh or base triangle). */
static void free_ordering(wm_ctx *ctx, mesh_layout *L)
{
    wm_free(ctx, L->tile_of);
    wm_free(ctx, L->order);
    wm_free(ctx, L->pre);
    wm_free(ctx, L->base_of);
    wm_free(ctx, L->base_tile);
    L->tile_of = L->order = L->pre = L->base_of = L->base_tile = NULL;
}

static void free_layout(wm_ctx *ctx, mesh_layout *L)
{
    free_ordering(ctx, L);
    wm_free(ctx, L->start);
}

static wm_result check_mesh_input(wm_ctx *ctx, const wm_mesh *mesh, const nwn2_aswm *a)
{
    wm_result r;
    if ((r = wm_check_count(ctx, mesh->triangle_count, "mesh triangles")) ||
        (r = wm_check_count(ctx, mesh->vertex_count, "mesh vertices")))
        return r;
    if (!(a->tile_width > 0.0f) || !isfinite(a->tile_width))
        return wm_error(ctx, WM_ERR_INVALID, "base ASWM tile width %g is not usable", (double)a->tile_width);
    for (uint32_t t = 0; t < mesh->triangle_count; t++)
        for (int k = 0; k < 3; k++)
            if (mesh->indices[3 * (size_t)t + k] >= mesh->vertex_count)
                return wm_error(ctx, WM_ERR_INVALID, "mesh triangle %u: vertex index out of range", t);
    return WM_OK;
}

/* Allocates the scratch and the compact walkmesh, and matches the mesh against a
 * baked base (a TRX): its unchanged triangles keep their tile, their place in
 * it, their vertex order, links, centre, normal and d. */
static wm_result alloc_layout(wm_ctx *ctx, const wm_mesh *mesh, const nwn2_aswm *a, mesh_layout *L,
                              nwn2_compact *c)
{
    /* each written in full before it is read (base_tile is not): no zeroing, and
     * no page touched before its turn */
    size_t tc = mesh->triangle_count ? mesh->triangle_count : 1;
    c->flags = wm_realloc_array(ctx, NULL, tc, sizeof *c->flags);
    L->tile_of = wm_realloc_array(ctx, NULL, tc, sizeof *L->tile_of);
    L->order = wm_realloc_array(ctx, NULL, tc, sizeof *L->order);
    L->pre = wm_realloc_array(ctx, NULL, tc, sizeof *L->pre);
    if (!c->flags || !L->tile_of || !L->order || !L->pre)
        return WM_ERR_NOMEM;
    int kept = 0;
    if (a->triangle_count && nwn2_layout_is_baked(a, 0)) {
        L->base_of = wm_realloc_array(ctx, NULL, tc, sizeof *L->base_of);
        L->base_tile = wm_alloc_array(ctx, a->triangle_count, sizeof *L->base_tile);
        if (!L->base_of || !L->base_tile)
            return WM_ERR_NOMEM;
        wm_result r = match_base(ctx, mesh, a, L->base_of);
        if (r)
            return r;
        for (uint32_t t = 0; t < mesh->triangle_count && !kept; t++)
            kept = L->base_of[t] != NWN2_NONE32;
    }
    if (!kept) /* every triangle's vertices are the mesh's: read from it, in tile order */
        return WM_OK;
    /* kept triangles keep the base's vertex order: stored */
    c->tv = wm_realloc_array(ctx, NULL, tc, 3 * sizeof *c->tv);
    c->origin = wm_realloc_array(ctx, NULL, tc, sizeof *c->origin);
    return c->tv && c->origin ? WM_OK : WM_ERR_NOMEM;
}

/* Grows the tile grid to the size needed by the triangle centres. */
static wm_result grow_grid_for_centres(wm_ctx *ctx, const wm_mesh *mesh, nwn2_aswm *a, const float *vertices)
{
    uint32_t need_w = a->grid_width, need_h = a->grid_height, below_grid = 0;
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        const uint32_t *ix = &mesh->indices[3 * (size_t)t];
        int below = 0;
        for (int axis = 0; axis < 2; axis++) {
            double c = (vertices[3 * (size_t)ix[0] + axis] + vertices[3 * (size_t)ix[1] + axis] +
                        vertices[3 * (size_t)ix[2] + axis]) / 3.0;
            below |= c < 0.0;
            double cell = floor(c / a->tile_width) + 1.0;
            uint32_t *need = axis == 0 ? &need_w : &need_h;
            if (cell > *need) /* too far out: grow_grid refuses it */
                *need = cell > (double)NWN2_MAX_GRID_TILES ? NWN2_MAX_GRID_TILES + 1 : (uint32_t)cell;
        }
        below_grid += below;
    }
    /* the grid grows toward +x/+y only; the game has no tiles below 0 */
    if (below_grid)
        wm_warn(ctx, "%u triangles have their centre at negative x or y, outside the tile grid (which starts at 0,0): "
                "they are put in the edge tiles; move the mesh into the area", below_grid);
    if (need_w == 0)
        need_w = 1;
    if (need_h == 0)
        need_h = 1;
    return grow_grid(ctx, a, need_w, need_h);
}

/* Orders the mesh triangles by tile into L->order, with L->start[i] the first
 * of tile i. Stable counting sort: a tile's triangles are contiguous; inside a
 * tile the base's triangles come first in the base's order, then the new ones
 * in mesh order. */
static wm_result sort_triangles_by_tile(wm_ctx *ctx, const wm_mesh *mesh, const nwn2_aswm *a, mesh_layout *L)
{
    uint32_t tiles = a->grid_width * a->grid_height;
    uint32_t *start = L->start = wm_alloc_array(ctx, (size_t)tiles + 1, sizeof *start);
    uint32_t *base_of = L->base_of, *base_tile = L->base_tile, *pre = L->pre;
    if (!start)
        return WM_ERR_NOMEM;
    for (uint32_t i = 0; base_tile && i < tiles; i++) /* after grow_grid: today's tile numbers */
        for (uint32_t k = 0; k < a->tiles[i].triangle_count; k++)
            base_tile[a->tiles[i].triangle_offset + k] = i;
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        const uint32_t *ix = &mesh->indices[3 * (size_t)t];
        const float *v = mesh->positions;
        float c[2];
        nwn2_toolset_centre(&v[3 * (size_t)ix[0]], &v[3 * (size_t)ix[1]], &v[3 * (size_t)ix[2]], c);
        L->tile_of[t] = base_of && base_of[t] != NWN2_NONE32 ? base_tile[base_of[t]] : nwn2_tile_of(a, c[0], c[1]);
        start[L->tile_of[t] + 1]++;
    }
    for (uint32_t i = 0; i < tiles; i++)
        start[i + 1] += start[i];
    uint32_t kept = 0;
    for (uint32_t t = 0; base_of && t < mesh->triangle_count; t++)
        kept += base_of[t] != NWN2_NONE32;
    for (uint32_t t = 0; base_of && t < a->triangle_count; t++)
        base_tile[t] = NWN2_NONE32; /* reused: base triangle -> mesh triangle */
    for (uint32_t t = 0; base_of && t < mesh->triangle_count; t++)
        if (base_of[t] != NWN2_NONE32)
            base_tile[base_of[t]] = t;
    for (uint32_t i = 0, n = 0; i < (base_of ? a->triangle_count : 0); i++)
        if (base_tile[i] != NWN2_NONE32)
            pre[n++] = base_tile[i];
    for (uint32_t t = 0, n = kept; t < mesh->triangle_count; t++)
        if (!base_of || base_of[t] == NWN2_NONE32)
            pre[n++] = t;
    for (uint32_t i = 0; i < mesh->triangle_count; i++)
        L->order[start[L->tile_of[pre[i]]]++] = pre[i];
    for (uint32_t i = tiles; i > 0; i--)
        start[i] = start[i - 1];
    start[0] = 0;
    return WM_OK;
}

/* Fills the compact triangles in tile order: vertices, winding, surface and
 * walkable flags; unchanged base triangles keep the base's vertex order and
 * winding, and c->origin names their base triangle (whose links are hints for
 * the edges). Returns how many were kept so. */
static uint32_t fill_triangles(wm_ctx *ctx, const wm_mesh *mesh, const nwn2_aswm *a, mesh_layout *L, int clockwise,
                               nwn2_compact *c)
{
    uint32_t kept = 0;
    const wm_surface_table *table = wm_surfaces(ctx);
    const uint32_t *base_of = c->tv ? L->base_of : NULL;
    c->indices = mesh->indices;
    c->order = L->order;
    c->clockwise = clockwise;
    for (uint32_t i = 0; i < mesh->triangle_count; i++) {
        uint32_t t = L->order[i];
        const uint32_t *ix = &mesh->indices[3 * (size_t)t];
        uint32_t flag = nwn2_flag_of_surface(table, mesh->surfaces[t]) & NWN2_TRI_SURFACE_MASK;
        int cw = clockwise;
        uint32_t *v = c->tv ? &c->tv[3 * (size_t)i] : NULL;
        if (v) { /* the mesh's, as nwn2_compact_verts reads them, unless kept below */
            v[0] = ix[0];
            v[1] = ix[clockwise ? 2 : 1];
            v[2] = ix[clockwise ? 1 : 2];
            c->origin[i] = NWN2_NONE32;
        }
        uint32_t bv[3];
        if (base_of && base_of[t] != NWN2_NONE32 && base_vertex_order(mesh, ix, a, base_of[t], bv)) {
            memcpy(v, bv, sizeof bv);
            cw = (a->triangles[base_of[t]].flags & NWN2_TRI_CLOCKWISE) != 0;
            c->origin[i] = base_of[t];
            kept++;
        }
        c->flags[i] = (uint16_t)(flag | (mesh->walkable[t] ? NWN2_TRI_WALKABLE : 0) | (cw ? NWN2_TRI_CLOCKWISE : 0));
    }
    return kept;
}

/* Replaces the ASWM's tiles' ranges and its geometry with the compact one's
 * (a keeps the counts; its vertex, edge and triangle arrays are freed, the
 * base's triangles kept in c->old while kept triangles read them), then
 * numbers the edges. */
static wm_result install_triangles(wm_ctx *ctx, const wm_mesh *mesh, nwn2_aswm *a, const mesh_layout *L,
                                   nwn2_compact *c)
{
    wm_result r;
    uint32_t tiles = a->grid_width * a->grid_height;
    for (uint32_t i = 0; i < tiles; i++)
        if ((r = reset_tile(ctx, &a->tiles[i], L->start[i], L->start[i + 1] - L->start[i])))
            return r;
    if (c->origin) {
        c->old = a->triangles;
        a->triangles = NULL;
    }
    nwn2_aswm_free_geometry(ctx, a);
    c->positions = mesh->positions;
    a->vertex_count = c->vertex_count = mesh->vertex_count;
    a->triangle_count = c->triangle_count = mesh->triangle_count;
    a->owns_data = 1;
    if ((r = nwn2_aswm_alloc_islands(ctx, a, 0)))
        return r;
    wm_free(ctx, a->trailing);
    a->trailing = NULL;
    a->trailing_size = 0;
    /* at most one edge a side; written in full before being read: no zeroing */
    const size_t sides = 3 * (size_t)c->triangle_count;
    c->tedge = wm_realloc_array(ctx, NULL, sides ? sides : 1, sizeof *c->tedge);
    c->edge_tri = wm_realloc_array(ctx, NULL, sides ? sides : 1, 2 * sizeof *c->edge_tri);
    if (!c->tedge || !c->edge_tri)
        return WM_ERR_NOMEM;
    const nwn2_sides s = {.triangle_count = c->triangle_count,
                          .vertex_count = c->vertex_count,
                          .v = c->tv,
                          .compact = c,
                          .edge = c->tedge,
                          .tri_stride = 3,
                          .origin = c->origin,
                          .hint = c->old ? c->old->neighbour : NULL,
                          .hint_stride = sizeof *c->old / sizeof(uint32_t),
                          .hint_by_origin = 1,
                          .edge_tri = c->edge_tri,
                          .edge_stride = 2};
    r = nwn2_sides_rebuild(ctx, &s, &c->edge_count);
    a->edge_count = c->edge_count;
    return r;
}

wm_result nwn2_compact_from_mesh(wm_ctx *ctx, const wm_mesh *mesh, nwn2_aswm *a, nwn2_compact *c)
{
    memset(c, 0, sizeof *c);
    wm_result r = check_mesh_input(ctx, mesh, a);
    if (r)
        return r;
    int clockwise = base_is_clockwise(a);
    mesh_layout L = {0};
    if (!(r = alloc_layout(ctx, mesh, a, &L, c)) && !(r = grow_grid_for_centres(ctx, mesh, a, mesh->positions)) &&
        !(r = sort_triangles_by_tile(ctx, mesh, a, &L))) {
        if (fill_triangles(ctx, mesh, a, &L, clockwise, c) == 0) {
            wm_free(ctx, c->origin); /* no triangle kept from the base: no hints (the same edges) */
            c->origin = NULL;
        }
        if (!c->tv)
            L.order = NULL; /* c's now: the vertices are read through it */
        else
            c->order = NULL;
        free_ordering(ctx, &L); /* not needed to install: free before the edges are built */
        r = install_triangles(ctx, mesh, a, &L, c);
    }
    free_layout(ctx, &L);
    if (r)
        nwn2_compact_free(ctx, c);
    return r;
}

wm_result nwn2_aswm_from_mesh(wm_ctx *ctx, const wm_mesh *mesh, nwn2_aswm *a)
{
    nwn2_compact c;
    wm_result r = nwn2_compact_from_mesh(ctx, mesh, a, &c);
    return r ? r : nwn2_compact_expand(ctx, &c, a);
}
