/* The NWN2 bake: rebuilds a TRX walkmesh (tiles, tile path tables,
 * islands, island path table) from a TRN or TRX walkmesh, the way the
 * toolset builds them (FORMAT-NOTES section 2, "What the toolset's bake
 * produces").
 *
 * Stages, each usable on its own (tests call them separately):
 *   1. geometry: turn every triangle clockwise (the TRX convention), cut
 *      walkmesh cutters, split triangles along tile lines, drop the border
 *      tiles' triangles, sort triangles into tiles by centre, drop unused
 *      vertices, rebuild edges and neighbours in the toolset's order,
 *      recompute centres, normals and plane distances;
 *   2. tile path tables (independent per tile, so they run in parallel);
 *   3. islands and the island path table.
 * The result is deterministic: the same input and options always give the
 * same bytes, whatever the thread count. */
#ifndef WM_NWN2_BAKE_H
#define WM_NWN2_BAKE_H

#include "nwn2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every cutter corner and edge costs a pass over the walkmesh: corners over
 * all cutters of a GIT are capped (real GITs have at most a few hundred). */
#define NWN2_MAX_CUTTER_POINTS 16384u

/* A walkmesh cutter: a closed polygon in x/y (GIT trigger of Type 3). */
typedef struct nwn2_cutter {
    float *points;        /* 2 per point, owned */
    uint32_t point_count;
    uint32_t source_index; /* position of the trigger in the GIT's TriggerList */
} nwn2_cutter;

typedef struct nwn2_cutter_set {
    nwn2_cutter *cutters;
    uint32_t count;
} nwn2_cutter_set;

void nwn2_cutter_set_free(const wm_ctx *ctx, nwn2_cutter_set *set);
/* Walkmesh cutters of an area's GIT (GFF): every TriggerList entry with
 * Type 3 and at least 3 Geometry points; point = (XPosition + PointX,
 * YPosition + PointY). */
wm_result nwn2_bake_cutters_from_git(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source,
                                     nwn2_cutter_set *out);
wm_result nwn2_bake_read_git(wm_ctx *ctx, const char *path, nwn2_cutter_set *out);

/* Called after each finished unit of work of a stage ("tile path tables",
 * then "island path table"); from the calling thread only. */
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
    uint32_t snapped_vertices;   /* vertices moved onto a tile line (nwn2_bake_snap_to_tile_lines) */
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

/* A baked TRX keeps what the toolset decided: when this is true (grid
 * flags 31, the tiles' triangle ranges partition the triangles in order,
 * every triangle's vertex, edge and neighbour indices in range, no triangles in border tiles unless opts->keep_borders, no
 * cutters), nwn2_bake keeps the geometry, triangle order, tile membership,
 * edges and neighbours verbatim and only recomputes the path tables, line of
 * sight bits, islands and island path table. Tile membership is not
 * recomputable from geometry (FORMAT-NOTES section 2). */
int nwn2_bake_keeps_layout(const nwn2_aswm *a, const nwn2_bake_options *opts);

/* Stage 1. */
wm_result nwn2_bake_geometry(wm_ctx *ctx, nwn2_aswm *a, const nwn2_bake_options *opts, nwn2_bake_stats *stats);
/* Tile of a point: ceil(x / tile width) - 1 (a point on a tile line belongs
 * to the lower tile), clamped into the grid. */
uint32_t nwn2_bake_tile_of(const nwn2_aswm *a, float x, float y);
/* The toolset's centre: ((v0 + v1) + v2) * (1/3) in single precision. */
void nwn2_bake_centre(const float *v0, const float *v1, const float *v2, float out[2]);
/* Vertices closer than this to an inner tile line are moved onto it before
 * splitting (FORMAT-NOTES section 2: TRN geometry overhangs tile lines by
 * less than 1 mm in places; splitting there would make slivers). */
#define NWN2_SNAP_DISTANCE 1e-3
/* Moves every vertex within NWN2_SNAP_DISTANCE of an inner tile line onto
 * it (x and y separately); returns how many vertices moved. */
uint32_t nwn2_bake_snap_to_tile_lines(nwn2_aswm *a);
/* A triangle that still crosses an inner tile line, but by less than this on
 * its smaller side, is not split: it goes whole to the tile holding its
 * centre. The toolset does the same: its TRX files keep walkable triangles
 * that overhang their tile by up to 8.8 cm (FORMAT-NOTES section 2: 27 in
 * 10 files), and splitting the 1-22 mm overhangs of oldskull_descent.TRN
 * would put 140 walkable triangles in a tile where the toolset has 106. */
#define NWN2_WHOLE_OVERHANG 0.1
/* Splits every triangle that crosses an inner tile line by at least
 * NWN2_WHOLE_OVERHANG. Keeps flags;
 * points on shared edges are computed once per edge, so the mesh stays
 * watertight. Adds to *added the number of extra triangles. */
wm_result nwn2_bake_split_tiles(wm_ctx *ctx, nwn2_aswm *a, uint32_t *added);
/* Cuts triangles along each cutter polygon and removes the pieces inside.
 * Cutters with whole[i] != 0 (whole may be NULL) cut nothing: they remove
 * the triangles whose centre is inside. */
wm_result nwn2_bake_cut(wm_ctx *ctx, nwn2_aswm *a, const nwn2_cutter_set *cutters, const uint8_t *whole,
                        uint32_t *added, uint32_t *removed);

/* Stage 2: the path table of one tile from the triangles' walkable flags,
 * neighbours and centres. Fails with WM_ERR_LIMIT naming the tile when it
 * holds more than 127 walkable triangles. *los_pairs (may be NULL) gets the
 * number of ordered pairs given the line-of-sight bit. */
wm_result nwn2_bake_tile_paths(wm_ctx *ctx, nwn2_aswm *a, uint32_t tile, uint32_t *los_pairs);

/* Stage 3: islands (component per tile, numbered by first triangle),
 * triangle island fields, adjacency, exits, distances and the island path
 * table. island_tag is written in every island's "tile" field (a TRX keeps
 * the same value in all islands; the bake keeps the input's). */
wm_result nwn2_bake_islands(wm_ctx *ctx, nwn2_aswm *a, uint32_t island_tag);

/* 2-D distance between two centres, in single precision as the toolset. */
float nwn2_bake_distance(const float a[2], const float b[2]);

#ifdef __cplusplus
}
#endif
#endif
