/* Jobs that can fail, spread over threads (wm_parallel_for), each with a context of its own
 * (core and formats: the NWN2 bake's stages, the route landmarks' searches). */
#ifndef WM_PARALLEL_JOBS_INTERNAL_H
#define WM_PARALLEL_JOBS_INTERNAL_H

#include "wm_context.h"

#include <stdint.h>

/* One job; ctx is private to the job. */
typedef wm_result (*parallel_job_fn)(wm_ctx *ctx, void *user, uint32_t index);

/* Runs job(first .. first + count - 1) on up to `threads` threads (0: every processor), each on a
 * copy of ctx with warnings off (warning sinks are not thread-safe); results holds count. When
 * jobs fail, the lowest failing index is run again on the calling thread for its message: the
 * error is the same whatever the thread count. */
wm_result parallel_jobs_run(wm_ctx *ctx, unsigned threads, uint32_t first, uint32_t count, parallel_job_fn job,
                            void *user, wm_result *results);

#endif
