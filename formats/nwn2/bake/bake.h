/* The NWN2 bake: rebuilds a TRX walkmesh (tiles, tile path tables,
 * islands, island path table) from a TRN or TRX walkmesh, the way the
 * toolset builds them (FORMAT-NOTES section 2, "What the toolset's bake
 * produces").
 *
 * One driver (bake.c) runs the stages in order; no stage calls back:
 *   1. geometry (bake_geometry.c, with bake_cut.c and bake_split.c): turn
 *      every triangle clockwise, cut walkmesh cutters, split triangles along
 *      tile lines, drop the border tiles' triangles, sort triangles into
 *      tiles, rebuild edges, neighbours, centres, normals and planes. A baked
 *      TRX without cutters skips it (its layout is the toolset's decision);
 *   2. tile path tables and line of sight (bake_paths.c, bake_sight.c),
 *      one independent job per tile;
 *   3. islands (bake_islands.c);
 *   4. the island path table (bake_islands.c), one independent job per row.
 * Jobs run through parallel_jobs_run (wm_parallel_for). The result is deterministic: the same
 * input and options always give the same bytes, whatever the thread count. */
#ifndef WM_NWN2_BAKE_H
#define WM_NWN2_BAKE_H

#include "nwn2/nwn2.h"
#include "nwn2/nwn2_git.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called between batches of work of a stage ("tile path tables", then
 * "island path table"); from the calling thread only. */
typedef void (*nwn2_bake_progress_fn)(void *user, const char *stage, uint32_t done, uint32_t total);

typedef struct nwn2_bake_options {
    int keep_borders;                 /* do not drop the border tiles' triangles */
    unsigned threads;                 /* 0 or 1: bake on the calling thread */
    const nwn2_cutter_set *cutters;   /* NULL: none */
    int cut_whole_triangles;          /* cutters remove whole triangles (centre inside) instead of
                                         cutting along the polygon: never adds triangles. Without
                                         it, the cutters near a tile that cutting crowds past 127
                                         walkable triangles are redone this way (with a warning) */
    nwn2_bake_progress_fn progress;   /* NULL: none */
    void *progress_user;
} nwn2_bake_options;

void nwn2_bake_options_init(nwn2_bake_options *opts);

typedef struct nwn2_bake_stats {
    uint32_t border_removed;     /* triangles dropped in border tiles */
    uint32_t cut_removed;        /* triangles (pieces) removed inside cutters */
    uint32_t split_added;        /* triangles added by splitting along tile and cutter lines */
    uint32_t snapped_vertices;   /* vertices moved onto a tile line (NWN2_SNAP_DISTANCE) */
    uint32_t walkable_triangles;
    uint32_t max_tile_nodes;     /* most walkable triangles in one tile */
    uint32_t island_count;
    uint32_t los_pairs;          /* node pairs given the line-of-sight bit */
    uint32_t whole_cutters;      /* cutters that removed whole triangles (crowded tiles, or --cut-whole) */
    int kept_layout;             /* a baked TRX: geometry, tiles and links kept (nwn2_bake_keeps_layout) */
} nwn2_bake_stats;

/* The whole bake, in place. a may be a TRN or a TRX walkmesh. On error a is
 * left in an unspecified but freeable state. stats may be NULL. */
wm_result nwn2_bake(wm_ctx *ctx, nwn2_aswm *a, const nwn2_bake_options *opts, nwn2_bake_stats *stats);

/* A baked TRX keeps what the toolset decided: when this is true
 * (nwn2_layout_is_baked and no cutters), nwn2_bake keeps the geometry,
 * triangle order, tile membership, edges and neighbours verbatim and only
 * recomputes the path tables, line of sight bits, islands and island path
 * table. Tile membership is not recomputable from geometry (FORMAT-NOTES
 * section 2). */
int nwn2_bake_keeps_layout(const nwn2_aswm *a, const nwn2_bake_options *opts);

/* The GIT readers under their earlier names (nwn2_git.h). */
static inline wm_result nwn2_bake_cutters_from_git(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source,
                                                   nwn2_cutter_set *out)
{
    return nwn2_git_cutters(ctx, data, size, source, out);
}
static inline wm_result nwn2_bake_read_git(wm_ctx *ctx, const char *path, nwn2_cutter_set *out)
{
    return nwn2_git_read_cutters(ctx, path, out);
}

#ifdef __cplusplus
}
#endif
#endif
