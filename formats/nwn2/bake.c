/* The bake pipeline and its worker threads. */
#include "bake_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

void nwn2_bake_options_init(nwn2_bake_options *opts)
{
    memset(opts, 0, sizeof *opts);
}

typedef struct parallel_state {
    const wm_ctx *parent;
    bake_job_fn job;
    void *user;
    uint32_t count;
    atomic_uint next;
    atomic_uint done;
    atomic_int failed;
    pthread_mutex_t lock;
    uint32_t error_index; /* lowest failing index, guarded by lock */
    wm_result error;
    char message[sizeof(((wm_ctx *)0)->message)];
} parallel_state;

/* Runs jobs until none are left or one failed. Jobs are claimed in index
 * order, so when one fails every lower index has been claimed and finishes:
 * the lowest failing index is always found (deterministic errors). */
static void run_jobs(parallel_state *st, const nwn2_bake_options *opts, const char *stage)
{
    wm_ctx local = *st->parent;
    local.warn = NULL; /* warning sinks are not thread-safe */
    for (;;) {
        if (atomic_load(&st->failed))
            break;
        uint32_t i = atomic_fetch_add(&st->next, 1);
        if (i >= st->count)
            break;
        wm_result r = st->job(&local, st->user, i);
        if (r) {
            pthread_mutex_lock(&st->lock);
            if (!st->error || i < st->error_index) {
                st->error = r;
                st->error_index = i;
                memcpy(st->message, local.message, sizeof st->message);
            }
            pthread_mutex_unlock(&st->lock);
            atomic_store(&st->failed, 1);
            break;
        }
        uint32_t done = atomic_fetch_add(&st->done, 1) + 1;
        if (opts && opts->progress)
            opts->progress(opts->progress_user, stage, done, st->count);
    }
}

static void *worker_main(void *p)
{
    run_jobs(p, NULL, NULL);
    return NULL;
}

wm_result bake_parallel(wm_ctx *ctx, unsigned threads, uint32_t count, bake_job_fn job, void *user,
                        const nwn2_bake_options *opts, const char *stage)
{
    parallel_state st;
    memset(&st, 0, sizeof st);
    st.parent = ctx;
    st.job = job;
    st.user = user;
    st.count = count;
    atomic_init(&st.next, 0);
    atomic_init(&st.done, 0);
    atomic_init(&st.failed, 0);
    if (pthread_mutex_init(&st.lock, NULL) != 0)
        return wm_error(ctx, WM_ERR_NOMEM, "cannot create a mutex for the bake threads");
    if (threads > 256)
        threads = 256;
    if (threads > count)
        threads = count;
    pthread_t ids[256];
    unsigned started = 0;
    for (unsigned i = 1; i < threads; i++) {
        if (pthread_create(&ids[started], NULL, worker_main, &st) != 0)
            break; /* fewer threads is still correct */
        started++;
    }
    run_jobs(&st, opts, stage);
    for (unsigned i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
    pthread_mutex_destroy(&st.lock);
    if (!st.error && opts && opts->progress && started)
        opts->progress(opts->progress_user, stage, count, count); /* workers may have run the last jobs */
    if (st.error) {
        memcpy(ctx->message, st.message, sizeof ctx->message);
        return st.error;
    }
    return WM_OK;
}

typedef struct tile_job {
    nwn2_aswm *a;
    uint32_t *los;
} tile_job;

static wm_result tile_job_run(wm_ctx *ctx, void *user, uint32_t index)
{
    tile_job *j = user;
    return nwn2_bake_tile_paths(ctx, j->a, index, &j->los[index]);
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
        wm_result r = nwn2_bake_geometry(ctx, a, opts, stats);
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
    for (;;) {
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
    if (a->grid_flags != NWN2_GRID_FLAGS_TRX || !a->tiles || a->grid_width == 0 || a->grid_height == 0 ||
        (uint64_t)a->grid_width * a->grid_height > UINT32_MAX / 2)
        return 0;
    const uint32_t tiles = a->grid_width * a->grid_height, b = a->border_size;
    uint32_t next = 0;
    for (uint32_t ti = 0; ti < tiles; ti++) {
        const nwn2_tile *t = &a->tiles[ti];
        if (t->triangle_offset != next || t->triangle_count > a->triangle_count - next)
            return 0;
        next += t->triangle_count;
        uint32_t x = ti % a->grid_width, y = ti / a->grid_width;
        int border = x < b || y < b || (uint64_t)x + b >= a->grid_width || (uint64_t)y + b >= a->grid_height;
        if (border && t->triangle_count && !(opts && opts->keep_borders))
            return 0;
    }
    if (next != a->triangle_count)
        return 0;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        const nwn2_triangle *tri = &a->triangles[t];
        for (int k = 0; k < 3; k++)
            if (tri->v[k] >= a->vertex_count || tri->edge[k] >= a->edge_count ||
                (tri->neighbour[k] != NWN2_NONE32 && tri->neighbour[k] >= a->triangle_count))
                return 0;
    }
    return 1;
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
    if (r)
        return r;
    const uint32_t tiles = a->grid_width * a->grid_height;
    for (uint32_t t = 0; t < a->triangle_count; t++)
        stats.walkable_triangles += (a->triangles[t].flags & NWN2_TRI_WALKABLE) != 0;

    uint32_t *los = wm_alloc_array(ctx, tiles, sizeof *los);
    if (!los)
        return WM_ERR_NOMEM;
    tile_job tj = {a, los};
    r = bake_parallel(ctx, opts->threads, tiles, tile_job_run, &tj, opts, "tile path tables");
    for (uint32_t t = 0; !r && t < tiles; t++) {
        stats.los_pairs += los[t];
        if (a->tiles[t].node_count > stats.max_tile_nodes)
            stats.max_tile_nodes = a->tiles[t].node_count;
    }
    wm_free(ctx, los);
    if (!r)
        r = bake_islands_build(ctx, a, island_tag);
    if (!r && a->island_count)
        r = bake_parallel(ctx, opts->threads, a->island_count, island_job_run, a, opts, "island path table");
    stats.island_count = a->island_count;
    if (stats_out)
        *stats_out = stats;
    return r;
}
