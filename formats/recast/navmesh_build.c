/* wm_navmesh_build: the mesh in Recast's space, cut into tiles, each tile through the module's
 * Recast pipeline and into Detour's tile bytes. Sizes are checked before anything sized by
 * them is allocated (WM_NAVMESH_MAX_COLUMNS, WM_NAVMESH_MAX_LAYERS). */
#include "navmesh_heights.h"
#include "navmesh_internal.h"
#include "recast_api.h"
#include "wm_surface.h"

#include <math.h>
#include <string.h>

typedef struct tile_grid {
    wmrc_config base;       /* the whole grid's voxel parameters */
    int tiles_x, tiles_z;
    uint32_t *first;        /* tiles_x * tiles_z + 1: where each tile's triangles start in `members` */
    int *members;           /* triangle indices, tile by tile */
} tile_grid;

typedef struct recast_input {
    float *verts;           /* Recast space: (x, z, -y) of the mesh's (x, y, z) */
    int *tris;
    unsigned char *areas;
    int vert_count, tri_count;
    float bmin[3], bmax[3];
} recast_input;

static wm_result to_recast_space(wm_ctx *ctx, const wm_mesh *mesh, recast_input *in)
{
    in->verts = wm_alloc_array(ctx, (size_t)mesh->vertex_count * 3, sizeof(float));
    in->tris = wm_alloc_array(ctx, (size_t)mesh->triangle_count * 3, sizeof(int));
    in->areas = wm_alloc_array(ctx, mesh->triangle_count, 1);
    if (!in->verts || !in->tris || !in->areas)
        return WM_ERR_NOMEM;
    in->vert_count = (int)mesh->vertex_count, in->tri_count = (int)mesh->triangle_count;
    for (uint32_t v = 0; v < mesh->vertex_count; v++) {
        const float *p = mesh->positions + 3 * (size_t)v;
        float *q = in->verts + 3 * (size_t)v;
        q[0] = p[0], q[1] = p[2], q[2] = -p[1];
        for (int k = 0; k < 3; k++) {
            in->bmin[k] = v == 0 || q[k] < in->bmin[k] ? q[k] : in->bmin[k];
            in->bmax[k] = v == 0 || q[k] > in->bmax[k] ? q[k] : in->bmax[k];
        }
    }
    for (size_t i = 0; i < (size_t)mesh->triangle_count * 3; i++)
        in->tris[i] = (int)mesh->indices[i];
    return WM_OK;
}

/* Walkable up to walkable_slope (ground_area), then up to steep_slope (steep_area), as
 * Recast's rcMarkWalkableTriangles decides: the unit normal's up component above cos(angle). */
static uint32_t classify_slopes(const wm_surface_table *surfaces, const wm_mesh *mesh, const wm_navmesh_config *c,
                                recast_input *in)
{
    const float pi = 3.14159265358979f;
    float ground = cosf(c->walkable_slope / 180.0f * pi);
    float steep = c->steep_slope > c->walkable_slope ? cosf(c->steep_slope / 180.0f * pi) : ground;
    uint32_t walkable = 0;
    for (int t = 0; t < in->tri_count; t++) {
        const float *a = in->verts + 3 * in->tris[3 * t], *b = in->verts + 3 * in->tris[3 * t + 1],
                    *d = in->verts + 3 * in->tris[3 * t + 2];
        float e0[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e1[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
        float n[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2], e0[0] * e1[1] - e0[1] * e1[0]};
        float length = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        float up = length > 0 ? n[1] / length : -1.0f;
        unsigned char area = up > ground ? c->ground_area : up > steep ? c->steep_area : 0;
        if (c->use_walkable_flags && mesh->walkable && !mesh->walkable[t])
            area = 0;
        uint16_t surface = mesh->surfaces[t];
        /* steep ground keeps a surface that blocks (lava) as its own; undefined names none */
        int blocks = area && surface != WM_SURF_UNDEFINED && !wm_surface_walkable(surfaces, surface);
        int own_area = c->areas_by_surface && surface < WM_NAVMESH_SURFACE_AREAS && (area == c->ground_area || blocks);
        if (own_area)
            area = (unsigned char)(WM_NAVMESH_SURFACE_AREA + surface);
        in->areas[t] = area;
        walkable += area != 0;
    }
    return walkable;
}

static int voxels_up(float length, float cell)
{
    return (int)ceilf(length / cell - 1e-3f);
}

static int voxels_down(float length, float cell)
{
    return (int)floorf(length / cell + 1e-3f);
}

static wm_result check_config(wm_ctx *ctx, const wm_navmesh_config *c)
{
    int finite = isfinite(c->cell_size) && isfinite(c->cell_height) && isfinite(c->agent_height) &&
                 isfinite(c->agent_radius) && isfinite(c->agent_climb) && isfinite(c->walkable_slope) &&
                 isfinite(c->steep_slope) && isfinite(c->max_edge_length) && isfinite(c->max_simplification_error) &&
                 isfinite(c->detail_sample_distance) && isfinite(c->detail_sample_max_error);
    if (!finite || c->cell_size < 0.001f || c->cell_height < 0.001f)
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: cell size and height must be finite and at least 0.001");
    if (c->agent_height <= 0 || c->agent_radius < 0 || c->agent_climb < 0)
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: agent height must be above 0, radius and climb not below 0");
    if (c->walkable_slope <= 0 || c->walkable_slope >= 90 || c->steep_slope < 0 || c->steep_slope >= 90)
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: slopes are degrees above 0 and below 90");
    if (c->tile_size < 8 || c->tile_size > 4096)
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: tile size %d is not 8 to 4096 cells", c->tile_size);
    if (c->max_verts_per_poly < 3 || c->max_verts_per_poly > 6)
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: vertices per polygon %d is not 3 to 6", c->max_verts_per_poly);
    if (c->min_region_size < 0 || c->merge_region_size < 0 || c->min_region_size > 10000 ||
        c->merge_region_size > 10000 || c->max_edge_length < 0 || c->max_simplification_error < 0)
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: region sizes, edge length and error must be 0 or more");
    /* Recast's detail mesh with no height samples walks an edge of unbounded length on a
     * fixed stack buffer (seen as a stack overflow under ASan): one of the two must bound it. */
    if (c->detail_sample_distance < 0.9f && c->max_edge_length == 0)
        return wm_error(ctx, WM_ERR_INVALID,
                        "navmesh: with no detail sampling (distance below 0.9 cells) a maximum edge length is needed");
    if (voxels_up(c->agent_height, c->cell_height) > WM_NAVMESH_MAX_LAYERS ||
        voxels_up(c->agent_radius, c->cell_size) > c->tile_size)
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: the agent is larger than a tile or the height field");
    if (c->ground_area == 0 || c->ground_area > 63 || c->steep_area == 0 || c->steep_area > 63 || c->low_area > 63 ||
        !isfinite(c->low_height) || c->low_height < 0)
        return wm_error(ctx, WM_ERR_INVALID, "navmesh: area ids are 1 to 63 (the low area 0 to 63), low height 0 or more");
    return WM_OK;
}

/* The whole grid in voxels; refused when it has more columns or layers than the limits. */
static wm_result plan_grid(wm_ctx *ctx, const wm_navmesh_config *c, const recast_input *in, tile_grid *g)
{
    wmrc_config *b = &g->base;
    memset(b, 0, sizeof *b);
    double columns_x = ceil(((double)in->bmax[0] - in->bmin[0]) / c->cell_size + 0.5);
    double columns_z = ceil(((double)in->bmax[2] - in->bmin[2]) / c->cell_size + 0.5);
    double layers = ((double)in->bmax[1] - in->bmin[1]) / c->cell_height;
    if (columns_x * columns_z > (double)WM_NAVMESH_MAX_COLUMNS)
        return wm_error(ctx, WM_ERR_LIMIT,
                        "navmesh: %.0f x %.0f voxel columns (%.0f x %.0f units at cell size %g) exceed the limit of "
                        "%llu; use a larger --cell-size",
                        columns_x, columns_z, (double)in->bmax[0] - in->bmin[0], (double)in->bmax[2] - in->bmin[2],
                        c->cell_size, (unsigned long long)WM_NAVMESH_MAX_COLUMNS);
    if (layers > WM_NAVMESH_MAX_LAYERS)
        return wm_error(ctx, WM_ERR_LIMIT,
                        "navmesh: %.0f units from the lowest to the highest vertex are %.0f cell heights, over "
                        "Recast's %d; use a larger --cell-height",
                        (double)in->bmax[1] - in->bmin[1], layers, WM_NAVMESH_MAX_LAYERS);
    b->cs = c->cell_size, b->ch = c->cell_height;
    b->walkable_slope_angle = 0; /* the areas are classified already */
    b->walkable_height = voxels_up(c->agent_height, c->cell_height);
    b->walkable_climb = voxels_down(c->agent_climb, c->cell_height);
    b->walkable_radius = voxels_up(c->agent_radius, c->cell_size);
    b->max_edge_len = (int)(c->max_edge_length / c->cell_size);
    b->max_simplification_error = c->max_simplification_error;
    b->min_region_area = c->min_region_size * c->min_region_size;
    b->merge_region_area = c->merge_region_size * c->merge_region_size;
    b->max_verts_per_poly = c->max_verts_per_poly;
    b->detail_sample_dist = c->detail_sample_distance < 0.9f ? 0 : c->cell_size * c->detail_sample_distance;
    b->detail_sample_max_error = c->cell_height * c->detail_sample_max_error;
    b->steps = c->steps & WMRC_ALL_STEPS;
    b->region_method = c->region_method;
    b->low_area = c->low_area;
    b->low_height = voxels_up(c->low_height, c->cell_height);
    b->tile_size = c->tile_size;
    b->border_size = b->walkable_radius + 3;
    b->width = b->height = c->tile_size + 2 * b->border_size;
    g->tiles_x = (int)((columns_x + c->tile_size - 1) / c->tile_size);
    g->tiles_z = (int)((columns_z + c->tile_size - 1) / c->tile_size);
    return WM_OK;
}

/* The tiles a triangle's box (widened by the border) overlaps: x0..x1, z0..z1. */
static void triangle_tiles(const tile_grid *g, const recast_input *in, int t, int range[4])
{
    float size = g->base.tile_size * g->base.cs, border = g->base.border_size * g->base.cs;
    float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int k = 0; k < 3; k++) {
        const float *v = in->verts + 3 * in->tris[3 * t + k];
        lo[0] = fminf(lo[0], v[0]), hi[0] = fmaxf(hi[0], v[0]);
        lo[1] = fminf(lo[1], v[2]), hi[1] = fmaxf(hi[1], v[2]);
    }
    int limit[2] = {g->tiles_x - 1, g->tiles_z - 1};
    for (int axis = 0; axis < 2; axis++) {
        float origin = in->bmin[axis == 0 ? 0 : 2];
        int first = (int)floorf((lo[axis] - border - origin) / size), last = (int)floorf((hi[axis] + border - origin) / size);
        range[axis * 2] = first < 0 ? 0 : first > limit[axis] ? limit[axis] : first;
        range[axis * 2 + 1] = last < 0 ? 0 : last > limit[axis] ? limit[axis] : last;
    }
}

/* Each walkable-or-not triangle listed under every tile it may touch (two passes: count, fill). */
static wm_result bin_triangles(wm_ctx *ctx, const recast_input *in, tile_grid *g)
{
    size_t tiles = (size_t)g->tiles_x * g->tiles_z;
    g->first = wm_alloc_array(ctx, tiles + 1, sizeof *g->first);
    if (!g->first)
        return WM_ERR_NOMEM;
    uint64_t total = 0;
    int r[4];
    for (int t = 0; t < in->tri_count; t++) {
        triangle_tiles(g, in, t, r);
        for (int z = r[2]; z <= r[3]; z++)
            for (int x = r[0]; x <= r[1]; x++)
                g->first[(size_t)z * g->tiles_x + x + 1]++;
        total += (uint64_t)(r[1] - r[0] + 1) * (uint64_t)(r[3] - r[2] + 1);
        if (total > WM_NAVMESH_MAX_COLUMNS)
            return wm_error(ctx, WM_ERR_LIMIT,
                            "navmesh: the triangles overlap tiles more than %llu times (triangle %d); use larger tiles",
                            (unsigned long long)WM_NAVMESH_MAX_COLUMNS, t);
    }
    for (size_t i = 0; i < tiles; i++)
        g->first[i + 1] += g->first[i];
    g->members = wm_alloc_array(ctx, total ? total : 1, sizeof *g->members);
    uint32_t *fill = wm_alloc_array(ctx, tiles, sizeof *fill);
    if (!g->members || !fill) {
        wm_free(ctx, fill);
        return WM_ERR_NOMEM;
    }
    memcpy(fill, g->first, tiles * sizeof *fill);
    for (int t = 0; t < in->tri_count; t++) {
        triangle_tiles(g, in, t, r);
        for (int z = r[2]; z <= r[3]; z++)
            for (int x = r[0]; x <= r[1]; x++)
                g->members[fill[(size_t)z * g->tiles_x + x]++] = t;
    }
    wm_free(ctx, fill);
    return WM_OK;
}

typedef struct tile_job {
    const wmrc_functions *rc;
    const wm_navmesh_config *config;
    const recast_input *in;
    const tile_grid *grid;
    int *tris;              /* room for the largest tile's triangles */
    unsigned char *areas;
    wm_buffer data;         /* the tiles' bytes */
    uint64_t *offsets;
    uint32_t tile_count, max_tile_polys, poly_count;
} tile_job;

static wm_result keep_tile(wm_ctx *ctx, tile_job *job, const unsigned char *bytes, int size, int polys)
{
    wm_put_bytes(&job->data, bytes, (size_t)size);
    if (job->data.status)
        return job->data.status;
    job->offsets[++job->tile_count] = job->data.size;
    job->poly_count += (uint32_t)polys;
    if ((uint32_t)polys > job->max_tile_polys)
        job->max_tile_polys = (uint32_t)polys;
    (void)ctx;
    return WM_OK;
}

static wm_result build_one_tile(wm_ctx *ctx, tile_job *job, int x, int z)
{
    const tile_grid *g = job->grid;
    size_t index = (size_t)z * g->tiles_x + x;
    int count = 0;
    for (uint32_t m = g->first[index]; m < g->first[index + 1]; m++) {
        int t = g->members[m];
        memcpy(job->tris + 3 * count, job->in->tris + 3 * t, 3 * sizeof(int));
        job->areas[count++] = job->in->areas[t];
    }
    wmrc_config cfg = g->base;
    float size = cfg.tile_size * cfg.cs, border = cfg.border_size * cfg.cs;
    cfg.bmin[0] = job->in->bmin[0] + x * size - border, cfg.bmax[0] = job->in->bmin[0] + (x + 1) * size + border;
    cfg.bmin[2] = job->in->bmin[2] + z * size - border, cfg.bmax[2] = job->in->bmin[2] + (z + 1) * size + border;
    cfg.bmin[1] = job->in->bmin[1], cfg.bmax[1] = job->in->bmax[1];
    char why[WMRC_WHY] = "";
    wmrc_build *built = NULL;
    const wmrc_polymesh *mesh = NULL;
    if (!job->rc->build_tile(&cfg, job->in->verts, job->in->vert_count, job->tris, job->areas, count, &built, &mesh, why))
        return wm_error(ctx, WM_ERR_INVALID, "navmesh tile (%d, %d): %s", x, z, why);
    if (!mesh)
        return WM_OK;
    const wm_navmesh_config *c = job->config;
    settle_input settle = {job->in->verts, job->tris, job->areas, count};
    wm_result r = navmesh_settle_vertices(ctx, &settle, mesh);
    for (int p = 0; p < mesh->poly_count; p++)
        mesh->flags[p] = mesh->areas[p] == c->steep_area && c->steep_area != c->ground_area ? WM_NAVMESH_FLAG_STEEP
                                                                                          : WM_NAVMESH_FLAG_WALK;
    wmrc_tile_params params = {x, z, c->agent_height, c->agent_radius, c->agent_climb};
    unsigned char *bytes = NULL;
    int byte_count = 0;
    if (r)
        ;
    else if (!job->rc->create_tile_data(mesh, &params, &bytes, &byte_count, why))
        r = wm_error(ctx, WM_ERR_INVALID, "navmesh tile (%d, %d): %s", x, z, why);
    else
        r = keep_tile(ctx, job, bytes, byte_count, mesh->poly_count);
    job->rc->free_data(bytes);
    job->rc->build_free(built);
    return r;
}

static uint32_t bits_of(uint32_t count)
{
    uint32_t bits = 0;
    while (bits < 32 && (1ull << bits) < count)
        bits++;
    return bits;
}

/* Detour's references give tiles and polygons 22 bits together (the rest is the salt). */
static wm_result finish(wm_ctx *ctx, tile_job *job, const recast_input *in, uint32_t walkable, wm_navmesh *out)
{
    if (job->tile_count == 0)
        return wm_error(ctx, WM_ERR_INVALID,
                        walkable ? "navmesh: no walkable polygon: the %u walkable triangles are all filtered away "
                                   "(too small, too low for the agent, or too steep to climb onto)"
                                 : "navmesh: nothing walkable: no triangle is flat enough (%u walkable)",
                        walkable);
    uint32_t tile_bits = bits_of(job->tile_count), poly_bits = bits_of(job->max_tile_polys);
    if (tile_bits + poly_bits > 22)
        return wm_error(ctx, WM_ERR_LIMIT,
                        "navmesh: %u tiles of up to %u polygons do not fit Detour's 22 bits of polygon reference; "
                        "use larger cells or smaller tiles",
                        job->tile_count, job->max_tile_polys);
    memcpy(out->origin, in->bmin, sizeof out->origin);
    out->tile_width = out->tile_height = job->grid->base.tile_size * job->grid->base.cs;
    out->max_tiles = 1u << tile_bits, out->max_polys = 1u << poly_bits;
    out->tile_data = job->data.data, out->tile_data_size = job->data.size;
    out->tile_offsets = job->offsets, out->tile_count = job->tile_count, out->poly_count = job->poly_count;
    job->data.data = NULL, job->offsets = NULL;
    return WM_OK;
}

static wm_result build_tiles(wm_ctx *ctx, tile_job *job, uint32_t walkable, wm_navmesh *out)
{
    const tile_grid *g = job->grid;
    uint32_t largest = 0;
    for (size_t i = 0; i < (size_t)g->tiles_x * g->tiles_z; i++)
        largest = g->first[i + 1] - g->first[i] > largest ? g->first[i + 1] - g->first[i] : largest;
    job->tris = wm_alloc_array(ctx, (size_t)largest * 3 + 3, sizeof(int));
    job->areas = wm_alloc_array(ctx, (size_t)largest + 1, 1);
    job->offsets = wm_alloc_array(ctx, (size_t)g->tiles_x * g->tiles_z + 1, sizeof(uint64_t));
    if (!job->tris || !job->areas || !job->offsets)
        return WM_ERR_NOMEM;
    wm_result r = WM_OK;
    for (int z = 0; z < g->tiles_z && !r; z++)
        for (int x = 0; x < g->tiles_x && !r; x++)
            if (g->first[(size_t)z * g->tiles_x + x + 1] > g->first[(size_t)z * g->tiles_x + x])
                r = build_one_tile(ctx, job, x, z);
    return r ? r : finish(ctx, job, job->in, walkable, out);
}

wm_result wm_navmesh_build(wm_ctx *ctx, const wm_mesh *mesh, const wm_navmesh_config *config, wm_navmesh *out)
{
    wm_navmesh_init(out);
    wm_result r = check_config(ctx, config);
    if (!r && mesh->triangle_count == 0)
        r = wm_error(ctx, WM_ERR_INVALID, "navmesh: the mesh has no triangles");
    if (!r)
        r = wm_mesh_validate(ctx, mesh);
    const wmrc_functions *rc = r ? NULL : wm_recast_load(ctx);
    if (!r && !rc)
        r = WM_ERR_UNSUPPORTED;
    recast_input in;
    memset(&in, 0, sizeof in);
    tile_grid grid;
    memset(&grid, 0, sizeof grid);
    if (!r)
        r = to_recast_space(ctx, mesh, &in);
    uint32_t walkable = r ? 0 : classify_slopes(wm_surfaces(ctx), mesh, config, &in);
    if (!r)
        r = plan_grid(ctx, config, &in, &grid);
    if (!r)
        r = bin_triangles(ctx, &in, &grid);
    tile_job job = {rc, config, &in, &grid, NULL, NULL, {0}, NULL, 0, 0, 0};
    wm_buffer_init(&job.data, ctx);
    if (!r)
        r = build_tiles(ctx, &job, walkable, out);
    wm_free(ctx, job.tris), wm_free(ctx, job.areas), wm_free(ctx, job.offsets);
    wm_buffer_free(&job.data);
    wm_free(ctx, grid.first), wm_free(ctx, grid.members);
    wm_free(ctx, in.verts), wm_free(ctx, in.tris), wm_free(ctx, in.areas);
    return r;
}
