/* Watertight splitting of a walkmesh along lines in x/y (bake internals). */
#ifndef WM_NWN2_BAKE_SPLIT_H
#define WM_NWN2_BAKE_SPLIT_H

#include "bake_internal.h"

/* The line nx*x + ny*y = c; axis 0/1 when it is x = c / y = c (the split
 * points then get that coordinate exactly), else -1. */
typedef struct bake_line {
    double nx, ny, c;
    int axis;
} bake_line;

/* Scratch table of the points made on edges by the current line. */
typedef struct bake_splitter {
    struct point_slot *slots;
    uint32_t capacity;
    uint32_t stamp;
} bake_splitter;

void bake_splitter_init(bake_splitter *s);
void bake_splitter_free(const wm_ctx *ctx, bake_splitter *s);
/* Splits every triangle the line crosses; the first piece takes the
 * triangle's place, the others are appended. During stage 1 a triangle's
 * edge[0] holds its input index (its origin) and neighbour[] its input
 * neighbours; pieces get origin NWN2_NONE32. */
wm_result bake_split_line(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, const bake_line *l, uint32_t *added);

#endif
