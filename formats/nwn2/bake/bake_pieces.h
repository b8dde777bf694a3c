/* The cutter's view of the walkmesh while it cuts (bake internals). Every
 * triangle there when cutting begins is a base; its pieces tile it in x/y
 * and carry the base's index in edge[1] (bake_split_emit copies it). A
 * uniform grid files the bases only, so it never sees the long thin pieces
 * a dense outline makes; within a base a point is found by walking from
 * piece to piece (an edge table gives the piece across each side), and a
 * segment's pieces by a search over neighbours from the piece holding one
 * of its points. After each corner, pieces of one base are flipped towards
 * a Delaunay triangulation (never across an outline edge or a base side),
 * so the pieces stay about as many as the vertices. */
#ifndef WM_NWN2_BAKE_PIECES_H
#define WM_NWN2_BAKE_PIECES_H

#include "bake_grid.h"

typedef struct bake_pieces {
    bake_grid grid;       /* the bases */
    uint32_t base_count;
    double *base_xy;      /* 6 per base: its corners in x/y */
    uint32_t *hint;       /* per base: the last piece a walk ended in */
    uint32_t *head;       /* per base: its pieces, linked by next[] */
    uint32_t *pieces;     /* per base: how many */
    uint32_t *next, *seen;
    uint32_t triangle_room, stamp, listed; /* listed: triangles linked so far */
    struct piece_edge *edges; /* (from, to, base) -> piece */
    uint32_t edge_capacity, edge_count;
    uint64_t *fixed;      /* outline edges (lo << 32 | hi), never flipped */
    uint32_t fixed_capacity, fixed_count;
    bake_subset queue;
    bake_subset found;    /* the last answer, ascending */
    uint32_t only_base;   /* NONE, or the one base the point and segment queries look in */
} bake_pieces;

wm_result bake_pieces_init(wm_ctx *ctx, bake_pieces *p, nwn2_aswm *a);
void bake_pieces_free(const wm_ctx *ctx, bake_pieces *p);
/* found = the pieces within pad of (x, y) (their neighbours included). */
wm_result bake_pieces_near_point(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, double x, double y, double pad);
/* found = the pieces the segment q0-q1 meets. */
wm_result bake_pieces_on_segment(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, const double q0[2],
                                 const double q1[2]);
/* After a split: the triangles of `changed` and first .. count - 1 are
 * (re)entered; with flip_from != NONE, the sides facing vertices >= flip_from
 * (the new corner) are flipped while that makes them more Delaunay. */
wm_result bake_pieces_update(wm_ctx *ctx, bake_pieces *p, nwn2_aswm *a, const bake_subset *changed, uint32_t first,
                             uint32_t flip_from);
/* Marks the sides of `changed` and first .. count - 1 that lie on the
 * segment q0-q1 as outline (never flipped). */
wm_result bake_pieces_fix_segment(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, const bake_subset *changed,
                                  uint32_t first, const double q0[2], const double q1[2]);
/* Whether side u-w is on an outline; marks it so. */
int bake_pieces_fixed(const bake_pieces *p, uint32_t u, uint32_t w);
wm_result bake_pieces_fix(wm_ctx *ctx, bake_pieces *p, uint32_t u, uint32_t w);
/* found = every piece of the bases filed in the grid cells meeting [lo, hi]. */
wm_result bake_pieces_in_box(wm_ctx *ctx, bake_pieces *p, const double lo[2], const double hi[2]);

#endif
