/* Pieces shared by the bake's source files (not part of the public API). */
#ifndef WM_NWN2_BAKE_INTERNAL_H
#define WM_NWN2_BAKE_INTERNAL_H

#include "bake.h"

/* One unit of parallel work; ctx is private to the worker thread. */
typedef wm_result (*bake_job_fn)(wm_ctx *ctx, void *user, uint32_t index);

/* Runs job(0..count-1) on up to `threads` threads. Deterministic: when jobs
 * fail, the error of the lowest failing index is reported in ctx. opts->progress
 * (when set) is called from the calling thread with the stage name. */
wm_result bake_parallel(wm_ctx *ctx, unsigned threads, uint32_t count, bake_job_fn job, void *user,
                        const nwn2_bake_options *opts, const char *stage);

/* Stage 1 with a per-cutter choice (whole[i]: remove whole triangles). */
wm_result bake_geometry(wm_ctx *ctx, nwn2_aswm *a, const nwn2_bake_options *opts, const uint8_t *whole,
                        nwn2_bake_stats *stats);

/* nwn2_bake_split_tiles; with keep_input, triangles still carrying their
 * input index in edge[0] (stage 1) are never split, only pieces are. */
wm_result bake_split_tiles(wm_ctx *ctx, nwn2_aswm *a, int keep_input, uint32_t *added);

/* Islands without their path table (components, centres, links). */
wm_result bake_islands_build(wm_ctx *ctx, nwn2_aswm *a, uint32_t island_tag);
/* Row `from` of the island path table. */
wm_result bake_island_paths_row(wm_ctx *ctx, nwn2_aswm *a, uint32_t from);

/* Growable arrays for builders. */
wm_result bake_grow(wm_ctx *ctx, void **array, uint32_t *capacity, uint32_t needed, size_t elem_size);

#endif
