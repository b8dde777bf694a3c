/* The bake pipeline and its worker threads. */
#include "bake_internal.h"

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

/* Runs jobs until none are left (or one failed); returns the number this call ran. */
static void run_jobs(parallel_state *st, const nwn2_bake_options *opts, uint32_t base, uint32_t total,
                     int report)
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
        if (report && opts && opts->progress)
            opts->progress(opts->progress_user, base + done, total);
    }
}

typedef struct worker_arg {
    parallel_state *st;
} worker_arg;

static void *worker_main(void *p)
{
    worker_arg *w = p;
    run_jobs(w->st, NULL, 0, 0, 0);
    return NULL;
}

wm_result bake_parallel(wm_ctx *ctx, unsigned threads, uint32_t count, bake_job_fn job, void *user,
                        const nwn2_bake_options *opts, uint32_t progress_base, uint32_t progress_total)
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
    worker_arg arg = {&st};
    unsigned started = 0;
    for (unsigned i = 1; i < threads; i++) {
        if (pthread_create(&ids[started], NULL, worker_main, &arg) != 0)
            break; /* fewer threads is still correct */
        started++;
    }
    run_jobs(&st, opts, progress_base, progress_total, 1);
    for (unsigned i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
    pthread_mutex_destroy(&st.lock);
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

wm_result nwn2_bake(wm_ctx *ctx, nwn2_aswm *a, const nwn2_bake_options *opts_in, nwn2_bake_stats *stats_out)
{
    nwn2_bake_options defaults;
    nwn2_bake_options_init(&defaults);
    const nwn2_bake_options *opts = opts_in ? opts_in : &defaults;
    nwn2_bake_stats stats;
    memset(&stats, 0, sizeof stats);
    /* A TRX keeps one value in every island's "tile" field; keep it. */
    uint32_t island_tag = (a->island_count && a->islands) ? a->islands[0].tile : 0;

    wm_result r = nwn2_bake_geometry(ctx, a, opts, &stats);
    if (r)
        return r;
    const uint32_t tiles = a->grid_width * a->grid_height;
    for (uint32_t t = 0; t < a->triangle_count; t++)
        stats.walkable_triangles += (a->triangles[t].flags & NWN2_TRI_WALKABLE) != 0;

    uint32_t *los = wm_alloc_array(ctx, tiles, sizeof *los);
    if (!los)
        return WM_ERR_NOMEM;
    tile_job tj = {a, los};
    /* The island total is unknown yet: report tiles as the first half. */
    r = bake_parallel(ctx, opts->threads, tiles, tile_job_run, &tj, opts, 0, 2 * tiles);
    for (uint32_t t = 0; !r && t < tiles; t++) {
        stats.los_pairs += los[t];
        if (a->tiles[t].node_count > stats.max_tile_nodes)
            stats.max_tile_nodes = a->tiles[t].node_count;
    }
    wm_free(ctx, los);
    if (!r)
        r = bake_islands_build(ctx, a, island_tag);
    if (!r && a->island_count) {
        /* progress: islands scaled onto the second half */
        r = bake_parallel(ctx, opts->threads, a->island_count, island_job_run, a, NULL, 0, 0);
        if (!r && opts->progress)
            opts->progress(opts->progress_user, 2 * tiles, 2 * tiles);
    }
    stats.island_count = a->island_count;
    if (stats_out)
        *stats_out = stats;
    return r;
}
