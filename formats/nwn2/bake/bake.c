/* The bake's driver: runs the stages in order (bake.h), spreads the
 * independent jobs of stages 2 and 4 over threads, and redoes stage 1 with
 * whole-triangle cutters where cutting crowds a tile. */
#include "bake_crowding.h"
#include "bake_internal.h"

#include "parallel_jobs_internal.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

void nwn2_bake_options_init(nwn2_bake_options *opts)
{
    memset(opts, 0, sizeof *opts);
}

/* Runs job(0..count-1) on up to `threads` threads (parallel_jobs_run), in batches so that
 * progress is reported from the calling thread between them. */
static wm_result run_stage(wm_ctx *ctx, const nwn2_bake_options *opts, const char *stage, uint32_t count,
                           parallel_job_fn job, void *user)
{
    /* one job at a time on one thread; else batches of a few jobs per thread */
    const unsigned threads = opts->threads ? opts->threads : 1;
    const uint32_t batch = threads == 1 ? 1 : count / 64 > 8 * threads ? count / 64 : 8 * threads;
    wm_result *results = wm_alloc_array(ctx, batch, sizeof *results);
    if (!results)
        return WM_ERR_NOMEM;
    wm_result r = WM_OK;
    for (uint32_t first = 0; first < count && !r; first += batch) {
        const uint32_t n = count - first < batch ? count - first : batch;
        r = parallel_jobs_run(ctx, threads, first, n, job, user, results);
        if (!r && opts->progress)
            opts->progress(opts->progress_user, stage, first + n, count);
    }
    wm_free(ctx, results);
    return r;
}

/* Stage 2 jobs share one work area per thread: at most `threads` jobs run
 * at once, so a free one is always found. */
typedef struct tile_job {
    nwn2_aswm *a;
    uint32_t *los;
    void **work;
    atomic_flag *busy;
    unsigned slots;
} tile_job;

static wm_result tile_job_run(wm_ctx *ctx, void *user, uint32_t index)
{
    tile_job *j = user;
    for (unsigned i = 0;; i = (i + 1) % j->slots)
        if (!atomic_flag_test_and_set(&j->busy[i])) {
            wm_result r = bake_tile_paths(ctx, j->a, index, j->work[i], &j->los[index]);
            atomic_flag_clear(&j->busy[i]);
            return r;
        }
}

static wm_result island_job_run(wm_ctx *ctx, void *user, uint32_t index)
{
    return bake_island_paths_row(ctx, user, index);
}

static uint32_t walkable_in_tile(const nwn2_aswm *a, uint32_t ti)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < a->tiles[ti].triangle_count; k++)
        n += (a->triangles[a->tiles[ti].triangle_offset + k].flags & NWN2_TRI_WALKABLE) != 0;
    return n;
}

/* Marks the exactly-cut cutters whose box reaches tile ti; returns how many. */
static uint32_t mark_cutters_near(const nwn2_aswm *a, const nwn2_cutter_set *cs, uint32_t ti, uint8_t *whole)
{
    const float w = a->tile_width;
    const float x0 = (float)(ti % a->grid_width) * w, y0 = (float)(ti / a->grid_width) * w;
    uint32_t marked = 0;
    for (uint32_t c = 0; c < cs->count; c++) {
        const nwn2_cutter *cut = &cs->cutters[c];
        if (whole[c] || cut->point_count < 3)
            continue;
        float lo[2] = {cut->points[0], cut->points[1]}, hi[2] = {cut->points[0], cut->points[1]};
        for (uint32_t i = 1; i < cut->point_count; i++)
            for (int k = 0; k < 2; k++) {
                float v = cut->points[2 * i + k];
                lo[k] = v < lo[k] ? v : lo[k];
                hi[k] = v > hi[k] ? v : hi[k];
            }
        if (hi[0] >= x0 && lo[0] <= x0 + w && hi[1] >= y0 && lo[1] <= y0 + w) {
            whole[c] = 1;
            marked++;
        }
    }
    return marked;
}

/* Cutting adds triangles around each polygon. Where that crowds a tile past
 * 127 walkable triangles, the cutters whose box reaches such a tile are
 * redone removing whole triangles, with a warning naming the tile. */
static wm_result geometry_fitting_tiles(wm_ctx *ctx, nwn2_aswm *a, const nwn2_bake_options *opts,
                                        nwn2_bake_stats *stats)
{
    const nwn2_cutter_set *cs = opts->cutters;
    if (!cs || !cs->count || opts->cut_whole_triangles) {
        uint8_t *whole = NULL;
        if (cs && cs->count && opts->cut_whole_triangles) {
            whole = wm_alloc_array(ctx, cs->count, 1);
            if (!whole)
                return WM_ERR_NOMEM;
            memset(whole, 1, cs->count);
        }
        wm_result r = bake_geometry(ctx, a, opts, whole, stats);
        wm_free(ctx, whole);
        stats->whole_cutters = (cs && opts->cut_whole_triangles) ? cs->count : 0;
        return r;
    }
    nwn2_aswm input;
    wm_result r = nwn2_aswm_copy(ctx, &input, a);
    if (r)
        return r;
    uint8_t *whole = wm_alloc_array(ctx, cs->count, 1);
    if (!whole) {
        nwn2_aswm_free(ctx, &input);
        return WM_ERR_NOMEM;
    }
    uint32_t certain = 0; /* cutters that would crowd a tile whatever the exact cut: not tried */
    r = bake_mark_crowding_cutters(ctx, a, opts, whole, &certain);
    for (; !r;) {
        memset(stats, 0, sizeof *stats);
        r = bake_geometry(ctx, a, opts, whole, stats);
        if (r)
            break;
        uint32_t marked = 0;
        for (uint32_t ti = 0; ti < a->grid_width * a->grid_height; ti++) {
            uint32_t n = walkable_in_tile(a, ti);
            if (n <= NWN2_MAX_TILE_NODES)
                continue;
            uint32_t m = mark_cutters_near(a, cs, ti, whole);
            if (m)
                wm_warn(ctx,
                        "tile %u (column %u, row %u): cutting left %u walkable triangles (at most %u fit); the %u "
                        "cutter%s reaching it remove%s whole triangles instead",
                        ti, ti % a->grid_width, ti / a->grid_width, n, NWN2_MAX_TILE_NODES, m, m == 1 ? "" : "s",
                        m == 1 ? "s" : "");
            marked += m;
        }
        if (!marked)
            break;
        nwn2_aswm_free(ctx, a);
        r = nwn2_aswm_copy(ctx, a, &input);
        if (r)
            break;
    }
    for (uint32_t c = 0; c < cs->count; c++)
        stats->whole_cutters += whole[c];
    wm_free(ctx, whole);
    nwn2_aswm_free(ctx, &input);
    return r;
}

int nwn2_bake_keeps_layout(const nwn2_aswm *a, const nwn2_bake_options *opts)
{
    if (opts && opts->cutters && opts->cutters->count)
        return 0;
    return nwn2_layout_is_baked(a, opts && opts->keep_borders);
}

/* The path tables read centres, neighbours and edge end points: all must be usable. */
static wm_result check_kept_geometry(wm_ctx *ctx, const nwn2_aswm *a)
{
    for (uint32_t v = 0; v < 3 * a->vertex_count; v++)
        if (!isfinite(a->vertices[v]))
            return wm_error(ctx, WM_ERR_CORRUPT, "vertex %u: coordinate is not a finite number", v / 3);
    for (uint32_t e = 0; e < a->edge_count; e++)
        if (a->edges[e].v[0] >= a->vertex_count || a->edges[e].v[1] >= a->vertex_count)
            return wm_error(ctx, WM_ERR_CORRUPT, "edge %u: vertex index out of range (%u vertices)", e,
                            a->vertex_count);
    for (uint32_t t = 0; t < a->triangle_count; t++)
        if (!isfinite(a->triangles[t].centre[0]) || !isfinite(a->triangles[t].centre[1]))
            return wm_error(ctx, WM_ERR_CORRUPT, "triangle %u: centre is not a finite number", t);
    return WM_OK;
}

/* Stage 2 over every tile, with the counts the stats report. */
static wm_result tile_stage(wm_ctx *ctx, nwn2_aswm *a, const nwn2_bake_options *opts, nwn2_bake_stats *stats)
{
    const uint32_t tiles = a->grid_width * a->grid_height;
    const unsigned slots = opts->threads > 1 ? opts->threads : 1;
    uint32_t *los = wm_alloc_array(ctx, tiles ? tiles : 1, sizeof *los);
    void **work = wm_alloc_array(ctx, slots, sizeof *work);
    atomic_flag *busy = wm_alloc_array(ctx, slots, sizeof *busy);
    wm_result r = los && work && busy ? WM_OK : WM_ERR_NOMEM;
    for (unsigned i = 0; !r && i < slots; i++) {
        atomic_flag_clear(&busy[i]);
        work[i] = wm_alloc_array(ctx, 1, bake_tile_work_size());
        r = work[i] ? WM_OK : WM_ERR_NOMEM;
    }
    tile_job tj = {a, los, work, busy, slots};
    if (!r)
        r = run_stage(ctx, opts, "tile path tables", tiles, tile_job_run, &tj);
    for (uint32_t t = 0; !r && t < tiles; t++) {
        stats->los_pairs += los[t];
        if (a->tiles[t].node_count > stats->max_tile_nodes)
            stats->max_tile_nodes = a->tiles[t].node_count;
    }
    for (unsigned i = 0; work && i < slots; i++)
        wm_free(ctx, work[i]);
    wm_free(ctx, work);
    wm_free(ctx, (void *)busy);
    wm_free(ctx, los);
    return r;
}

wm_result nwn2_bake(wm_ctx *ctx, nwn2_aswm *a, const nwn2_bake_options *opts_in, nwn2_bake_stats *stats_out)
{
    nwn2_bake_options defaults;
    nwn2_bake_options_init(&defaults);
    const nwn2_bake_options *opts = opts_in ? opts_in : &defaults;
    nwn2_bake_stats stats;
    memset(&stats, 0, sizeof stats);
    /* A TRX keeps one value in every island's "tile" field; keep it. */
    uint32_t island_tag = (a->island_count && a->islands) ? a->islands[0].tile : 0;

    wm_result r;
    if (nwn2_bake_keeps_layout(a, opts)) {
        r = check_kept_geometry(ctx, a);
        stats.kept_layout = 1;
    } else {
        r = geometry_fitting_tiles(ctx, a, opts, &stats);
    }
    for (uint32_t t = 0; !r && t < a->triangle_count; t++)
        stats.walkable_triangles += (a->triangles[t].flags & NWN2_TRI_WALKABLE) != 0;
    if (!r)
        r = tile_stage(ctx, a, opts, &stats);
    if (!r)
        r = bake_islands(ctx, a, island_tag);
    if (!r && a->island_count)
        r = run_stage(ctx, opts, "island path table", a->island_count, island_job_run, a);
    stats.island_count = a->island_count;
    if (stats_out)
        *stats_out = stats;
    return r;
}
