/* Navmesh build benchmark (run by hand):
 *   bench_navmesh [CORPUS_DIR]
 * walkmesh's whole build (wm_navmesh_build: Recast space, slope classes, tile lists, Recast,
 * settled corners, Detour tile data) against the Recast and Detour calls alone on the same
 * triangles, areas and voxel parameters (the module's build_tile and create_tile_data, the
 * inputs prepared before the clock starts), one tile covering the whole scene so both do the
 * same Recast work (a tile just the scene's size). Then the tiled build as the command runs it. Best of 5 runs each, side by
 * side, with the ratio. Inputs: a 320,000-triangle rolling terrain and, when the corpus is
 * there, the duskwood lumbermill WMO with every triangle. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_support.h"
#include "recast/recast_api.h"

#define RUNS 5
#define TERRAIN_CELLS 400 /* 2 * 400^2 = 320,000 triangles over 300 x 300 units */

static void make_terrain(wm_ctx *ctx, wm_mesh *m)
{
    wm_mesh_init(m);
    const float size = 300.0f / TERRAIN_CELLS;
    for (int y = 0; y <= TERRAIN_CELLS; y++)
        for (int x = 0; x <= TERRAIN_CELLS; x++)
            wm_mesh_add_vertex(ctx, m, x * size, y * size, 3.0f * sinf(x * 0.05f) * cosf(y * 0.04f), NULL);
    for (int y = 0; y < TERRAIN_CELLS; y++)
        for (int x = 0; x < TERRAIN_CELLS; x++) {
            uint32_t a = (uint32_t)(y * (TERRAIN_CELLS + 1) + x), b = a + 1, c = a + TERRAIN_CELLS + 1, d = c + 1;
            wm_mesh_add_triangle(ctx, m, a, b, d, 4, 1);
            wm_mesh_add_triangle(ctx, m, a, d, c, 4, 1);
        }
}

/* The inputs of the Recast calls, made before timing: Y-up vertices, areas by slope, and the
 * voxel parameters RecastDemo derives from the world-unit ones. */
typedef struct floor_input {
    float *verts;
    int *tris;
    unsigned char *areas;
    int vert_count, tri_count;
    wmrc_config cfg;
    wmrc_tile_params tile;
} floor_input;

static void prepare_floor(const wm_mesh *m, const wm_navmesh_config *c, floor_input *f)
{
    f->vert_count = (int)m->vertex_count, f->tri_count = (int)m->triangle_count;
    f->verts = malloc(sizeof(float) * 3 * m->vertex_count);
    f->tris = malloc(sizeof(int) * 3 * m->triangle_count);
    f->areas = malloc(m->triangle_count);
    memset(&f->cfg, 0, sizeof f->cfg);
    for (int k = 0; k < 3; k++)
        f->cfg.bmin[k] = INFINITY, f->cfg.bmax[k] = -INFINITY;
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        const float *p = m->positions + 3 * v;
        float q[3] = {p[0], p[2], -p[1]};
        for (int k = 0; k < 3; k++) {
            f->verts[3 * v + k] = q[k];
            f->cfg.bmin[k] = fminf(f->cfg.bmin[k], q[k]), f->cfg.bmax[k] = fmaxf(f->cfg.bmax[k], q[k]);
        }
    }
    float cos_slope = cosf(c->walkable_slope * 3.14159265f / 180.0f);
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        for (int k = 0; k < 3; k++)
            f->tris[3 * t + k] = (int)m->indices[3 * t + k];
        float n[3];
        wm_mesh_triangle_normal(m, t, n);
        f->areas[t] = n[2] > cos_slope ? c->ground_area : 0;
    }
    wmrc_config *r = &f->cfg;
    r->cs = c->cell_size, r->ch = c->cell_height;
    r->walkable_height = (int)ceilf(c->agent_height / c->cell_height - 1e-3f);
    r->walkable_climb = (int)floorf(c->agent_climb / c->cell_height + 1e-3f);
    r->walkable_radius = (int)ceilf(c->agent_radius / c->cell_size - 1e-3f);
    r->max_edge_len = (int)(c->max_edge_length / c->cell_size);
    r->max_simplification_error = c->max_simplification_error;
    r->min_region_area = c->min_region_size * c->min_region_size;
    r->merge_region_area = c->merge_region_size * c->merge_region_size;
    r->max_verts_per_poly = c->max_verts_per_poly;
    r->detail_sample_dist = c->cell_size * c->detail_sample_distance;
    r->detail_sample_max_error = c->cell_height * c->detail_sample_max_error;
    r->steps = c->steps;
    r->tile_size = c->tile_size, r->border_size = r->walkable_radius + 3;
    r->width = r->height = c->tile_size + 2 * r->border_size;
    r->bmin[0] -= r->border_size * r->cs, r->bmin[2] -= r->border_size * r->cs;
    r->bmax[0] = r->bmin[0] + r->width * r->cs, r->bmax[2] = r->bmin[2] + r->height * r->cs;
    f->tile = (wmrc_tile_params){0, 0, c->agent_height, c->agent_radius, c->agent_climb};
}

static double time_floor(const wmrc_functions *rc, floor_input *f, int *polys)
{
    double start = bench_now();
    wmrc_build *built = NULL;
    const wmrc_polymesh *mesh = NULL;
    char why[WMRC_WHY];
    unsigned char *data = NULL;
    int size = 0;
    if (!rc->build_tile(&f->cfg, f->verts, f->vert_count, f->tris, f->areas, f->tri_count, &built, &mesh, why) || !mesh) {
        fprintf(stderr, "bench_navmesh: Recast alone: %s\n", mesh ? why : "nothing walkable");
        exit(1);
    }
    for (int p = 0; p < mesh->poly_count; p++)
        mesh->flags[p] = WM_NAVMESH_FLAG_WALK;
    if (!rc->create_tile_data(mesh, &f->tile, &data, &size, why)) {
        fprintf(stderr, "bench_navmesh: Detour alone: %s\n", why);
        exit(1);
    }
    double seconds = bench_now() - start;
    *polys = mesh->poly_count;
    rc->free_data(data);
    rc->build_free(built);
    return seconds;
}

static double time_ours(wm_ctx *ctx, const wm_mesh *m, const wm_navmesh_config *c, uint32_t *polys, uint32_t *tiles)
{
    double start = bench_now();
    wm_navmesh n;
    if (wm_navmesh_build(ctx, m, c, &n)) {
        fprintf(stderr, "bench_navmesh: %s\n", wm_ctx_message(ctx));
        exit(1);
    }
    double seconds = bench_now() - start;
    *polys = n.poly_count, *tiles = n.tile_count;
    wm_navmesh_free(ctx, &n);
    return seconds;
}

static void compare(wm_ctx *ctx, const wmrc_functions *rc, const char *name, const wm_mesh *m)
{
    wm_navmesh_config one_tile, tiled;
    wm_navmesh_config_recast(&one_tile);
    wm_navmesh_config_recast(&tiled);
    float lo[3], hi[3];
    wm_mesh_bounds(m, lo, hi);
    float extent = fmaxf(hi[0] - lo[0], hi[1] - lo[1]);
    one_tile.tile_size = (int)ceilf(extent / one_tile.cell_size) + 1; /* the scene, and no more */
    floor_input f;
    prepare_floor(m, &one_tile, &f);
    double floor_best = INFINITY, ours_best = INFINITY, tiled_best = INFINITY;
    int floor_polys = 0;
    uint32_t polys = 0, tiles = 0, tiled_polys = 0, tiled_tiles = 0;
    for (int run = 0; run < RUNS; run++) {
        floor_best = fmin(floor_best, time_floor(rc, &f, &floor_polys));
        ours_best = fmin(ours_best, time_ours(ctx, m, &one_tile, &polys, &tiles));
        tiled_best = fmin(tiled_best, time_ours(ctx, m, &tiled, &tiled_polys, &tiled_tiles));
    }
    printf("%-22s %7u triangles: Recast+Detour alone %8.1f ms (%d polygons) | walkmesh one tile %8.1f ms (%u "
           "polygons) ratio %.2f | walkmesh tiles of 32 %8.1f ms (%u tiles, %u polygons)\n",
           name, m->triangle_count, floor_best * 1e3, floor_polys, ours_best * 1e3, polys, ours_best / floor_best,
           tiled_best * 1e3, tiled_tiles, tiled_polys);
    free(f.verts), free(f.tris), free(f.areas);
}

int main(int argc, char **argv)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    const wmrc_functions *rc = wm_recast_load(&ctx);
    if (!rc) {
        fprintf(stderr, "bench_navmesh: %s\n", wm_ctx_message(&ctx));
        return 1;
    }
    wm_mesh terrain;
    make_terrain(&ctx, &terrain);
    compare(&ctx, rc, "terrain 300 x 300", &terrain);
    wm_mesh_free(&ctx, &terrain);
    const char *corpus = argc > 1 ? argv[1] : "../shared/corpus";
    char path[4096];
    snprintf(path, sizeof path, "%s/wmo/warcraftnet__duskwood_lumbermill.wmo", corpus);
    wm_options opts;
    wm_options_init(&opts);
    wm_option_set(&ctx, &opts, "collision-rule", "all");
    wm_mesh wmo;
    if (wm_mesh_load(&ctx, path, "wmo", &opts, &wmo) == WM_OK) {
        compare(&ctx, rc, "duskwood_lumbermill", &wmo);
        wm_mesh_free(&ctx, &wmo);
    } else {
        printf("(%s: corpus WMO not there, skipped)\n", path);
    }
    printf("peak RSS %ld KiB\n", bench_peak_rss_kb());
    return 0;
}
