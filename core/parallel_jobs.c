/* parallel_jobs_run over wm_parallel_for. */
#include "parallel_jobs_internal.h"
#include "wm_parallel.h"

typedef struct job_batch {
    const wm_ctx *parent;
    parallel_job_fn job;
    void *user;
    uint32_t first;
    wm_result *results;
} job_batch;

static void run_job(void *p, size_t i)
{
    job_batch *b = p;
    wm_ctx local = *b->parent;
    local.warn = NULL; /* warning sinks are not thread-safe */
    b->results[i] = b->job(&local, b->user, b->first + (uint32_t)i);
}

wm_result parallel_jobs_run(wm_ctx *ctx, unsigned threads, uint32_t first, uint32_t count, parallel_job_fn job,
                            void *user, wm_result *results)
{
    job_batch b = {ctx, job, user, first, results};
    wm_parallel_for(threads, count, run_job, &b);
    wm_result r = WM_OK;
    for (uint32_t i = 0; i < count && !r; i++)
        if (results[i])
            r = job(ctx, user, first + i);
    return r;
}
