/* What the cutter's piece files share (bake_piece_sides.c, bake_pieces.c, bake_flip.c). */
#ifndef WM_NWN2_BAKE_PIECES_INTERNAL_H
#define WM_NWN2_BAKE_PIECES_INTERNAL_H

#include "bake_pieces.h"

struct piece_edge {
    uint32_t from, to, base, piece; /* piece NONE: empty slot */
};

/* Distance (in x/y units) within which a cutter corner counts as at a vertex or on a side. */
#define BAKE_CORNER_REACH 1e-4

/* (b - a) x (p - a) in x/y. */
double bake_orient(const float *a, const float *b, double px, double py);
/* The piece of t's base across t's side u -> w; NONE at the base's rim. */
uint32_t bake_pieces_across(const bake_pieces *p, const nwn2_aswm *a, uint32_t t, uint32_t u, uint32_t w);
/* The piece of base b with side from -> to (in its turning); NONE if none. */
uint32_t bake_pieces_with_side(const bake_pieces *p, const nwn2_aswm *a, uint32_t from, uint32_t to, uint32_t b);
/* Makes room in the side table for `more` sides (dropping stale entries when it is full). */
wm_result bake_pieces_grow_sides(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, uint32_t more);
/* Enters t's three sides, each pointing at t. */
void bake_pieces_put_sides(bake_pieces *p, const nwn2_aswm *a, uint32_t t);
/* Enters the sides of `changed` (may be NULL) and of first .. count - 1, and
 * links the triangles not linked yet into their base's list. */
wm_result bake_pieces_enter(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, const bake_subset *changed,
                            uint32_t first);

/* The part of q0-q1 inside base b, as parameters t[0] <= t[1]; 0 when none. */
int bake_pieces_clip(const bake_pieces *p, uint32_t b, const double q0[2], const double q1[2], double t[2]);
/* Base b's corners have no area in x/y (a wall). */
int bake_pieces_flat_base(const bake_pieces *p, uint32_t b);

/* The vertex a cutter point became in each base holding it. */
typedef struct corner_vertices {
    uint32_t count;
    uint32_t base[4], vertex[4];
} corner_vertices;

/* Makes from-to (two points of a cutter edge between which it crosses no
 * base rim, their vertices already made, at_from / at_to) a side of the pieces of every base
 * holding it, by flips (bake_constrain.c), and marks it outline. *made = 0
 * when that was not possible (a degenerate or hostile case): the caller then
 * splits along it. */
wm_result bake_constrain_edge(wm_ctx *ctx, bake_pieces *p, nwn2_aswm *a, const double from[2], const double to[2],
                              const corner_vertices *at_from, const corner_vertices *at_to, int *made);

#endif
