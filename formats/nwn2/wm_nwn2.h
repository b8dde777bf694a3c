/* NWN2 operations beyond conversion, public: the toolset's bake of a TRN or TRX into a TRX
 * (tiles, tile path tables, line of sight, islands), and what the file's own tables say about
 * each triangle of its mesh, on file images in memory. */
#ifndef WM_NWN2_PUBLIC_H
#define WM_NWN2_PUBLIC_H

#include "wm_api.h"
#include "wm_context.h"
#include "wm_format.h"
#include "wm_io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called after each finished unit of a stage ("tile path tables", "island path table"), from
 * the calling thread only. */
typedef void (*wm_nwn2_progress_fn)(void *user, const char *stage, uint32_t done, uint32_t total);

typedef struct wm_nwn2_bake_options {
    int keep_borders;        /* keep the triangles of the map-border tiles */
    int cut_whole_triangles; /* cutters remove whole triangles (centre inside) instead of cutting */
    unsigned threads;        /* tiles baked and walkmesh deflated on this many threads; 0: all */
    const uint8_t *git;      /* the area's GIT file image, whose walkmesh cutters are cut; NULL: none */
    size_t git_size;
    const char *git_source;  /* the GIT's name in messages */
    wm_nwn2_progress_fn progress; /* NULL: none */
    void *progress_user;
} wm_nwn2_bake_options;

typedef struct wm_nwn2_bake_stats {
    uint32_t triangles, walkable_triangles;
    uint32_t grid_width, grid_height; /* tiles */
    uint32_t island_count;
    uint32_t max_tile_nodes;          /* most walkable triangles in one tile */
    uint32_t border_removed;          /* triangles dropped in border tiles */
    uint32_t split_added;             /* triangles added by splits along tile and cutter lines */
    uint32_t cut_removed;             /* triangles removed inside cutters */
    uint32_t cutter_count, whole_cutters;
    int kept_layout;                  /* a baked TRX: geometry, tiles and links kept */
} wm_nwn2_bake_stats;

WM_API void wm_nwn2_bake_options_init(wm_nwn2_bake_options *opts);

/* Bakes the TRN or TRX file image data[0..size) (source names it in messages) and appends the
 * baked TRX file image to out; every packet other than the walkmesh is copied unchanged. The
 * bytes are the same whatever the thread count (a walkmesh of 1 MiB or more is deflated in
 * pieces, chosen by its size, on the threads there are). stats may be NULL. A file without a walkmesh
 * packet is WM_ERR_UNSUPPORTED; a tile with more than 127 walkable triangles WM_ERR_LIMIT. */
WM_API wm_result wm_nwn2_bake(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source,
                              const wm_nwn2_bake_options *opts, wm_buffer *out, wm_nwn2_bake_stats *stats);

#define WM_NWN2_NONE 0xFFFFFFFFu /* no tile, no island */

/* Per triangle of the mesh that the nwn2 reader makes of a TRN/TRX (wm_mesh_load, in the same
 * order, with the same options: keep-border, walkable-only), what the file stores about it:
 * the tile whose triangle range holds it and the island in the triangle's own record. These
 * are the toolset's decisions (FORMAT-NOTES section 2), not recomputed from geometry. */
typedef struct wm_nwn2_triangles {
    uint32_t count;           /* the mesh's triangle count */
    uint32_t *file_triangle;  /* its index among the walkmesh's triangles in the file */
    uint32_t *tile;           /* y * grid_width + x of the last tile whose range holds it (a TRN's
                               * ranges may overlap); WM_NWN2_NONE: in none */
    uint32_t *island;         /* WM_NWN2_NONE: none (stored 0xFFFF); a TRN's may exceed island_count */
    uint32_t grid_width, grid_height;
    float tile_width;
    uint32_t island_count;
} wm_nwn2_triangles;

/* From the TRN/TRX file image data[0..size) (source names it in messages; opts may be NULL).
 * Bytes that are not NWN2 are WM_ERR_NOT_FORMAT, a file without a walkmesh packet
 * WM_ERR_CORRUPT. Free *out with wm_nwn2_triangles_free, after a failure too. */
WM_API wm_result wm_nwn2_triangles_read(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source,
                                        const wm_options *opts, wm_nwn2_triangles *out);
WM_API void wm_nwn2_triangles_free(wm_ctx *ctx, wm_nwn2_triangles *triangles);

#ifdef __cplusplus
}
#endif
#endif
