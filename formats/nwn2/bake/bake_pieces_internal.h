/* What the cutter's piece files share (bake_piece_sides.c, bake_pieces.c, bake_flip.c). */
#ifndef WM_NWN2_BAKE_PIECES_INTERNAL_H
#define WM_NWN2_BAKE_PIECES_INTERNAL_H

#include "bake_pieces.h"

struct piece_edge {
    uint32_t from, to, base, piece; /* piece NONE: empty slot */
};

/* (b - a) x (p - a) in x/y. */
double bake_orient(const float *a, const float *b, double px, double py);
/* The piece of t's base across t's side u -> w; NONE at the base's rim. */
uint32_t bake_pieces_across(const bake_pieces *p, const nwn2_aswm *a, uint32_t t, uint32_t u, uint32_t w);
/* Enters the sides of `changed` (may be NULL) and of first .. count - 1, and
 * links the triangles not linked yet into their base's list. */
/* Makes room in the side table for `more` sides. */
wm_result bake_pieces_grow_sides(wm_ctx *ctx, bake_pieces *p, uint32_t more);
/* Enters t's three sides, each pointing at t. */
void bake_pieces_put_sides(bake_pieces *p, const nwn2_aswm *a, uint32_t t);
wm_result bake_pieces_enter(wm_ctx *ctx, bake_pieces *p, const nwn2_aswm *a, const bake_subset *changed,
                            uint32_t first);

#endif
