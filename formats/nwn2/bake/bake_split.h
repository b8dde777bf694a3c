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
    /* room in the walkmesh's arrays as this splitter last grew them (grown
     * by half again each time, so many small splits cost linear time) */
    const void *triangles, *vertices;
    uint64_t triangle_room, vertex_room;
    /* the points made since the last begin: (lo, hi, vertex) per point */
    uint32_t *made;
    uint32_t made_count, made_capacity;
} bake_splitter;

/* The triangles a splitter looks at, in ascending order; the pieces it makes
 * are appended (so they stay ascending). NULL in the calls below: all. */
typedef struct bake_subset {
    uint32_t *index;
    uint32_t count, capacity;
} bake_subset;
void bake_subset_free(const wm_ctx *ctx, bake_subset *set);
/* Appends triangles first .. a->triangle_count - 1 (pieces just made). */
wm_result bake_subset_add_from(wm_ctx *ctx, bake_subset *set, const nwn2_aswm *a, uint32_t first);

void bake_splitter_init(bake_splitter *s);
void bake_splitter_free(const wm_ctx *ctx, bake_splitter *s);
/* Splits every triangle the line crosses; the first piece takes the
 * triangle's place, the others are appended. During stage 1 a triangle's
 * edge[0] holds its input index (its origin) and neighbour[] its input
 * neighbours; pieces get origin NWN2_NONE32. */
typedef int (*bake_split_filter)(void *user, const nwn2_aswm *a, uint32_t triangle);
wm_result bake_split_line(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, const bake_line *l, bake_split_filter filter,
                          void *filter_user, bake_subset *subset, uint32_t *added);

/* Lower-level pieces for other splitters (cutter points): room for `points`
 * new vertices and `triangles` new triangles, and a fresh point table. */
wm_result bake_split_begin(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, uint32_t points, uint32_t triangles);
/* The vertex made on edge (p, q) in the current table: found, or added at pos. */
uint32_t bake_split_point(bake_splitter *s, nwn2_aswm *a, uint32_t p, uint32_t q, const float pos[3]);
/* Splits in two every triangle of `set` (may be NULL) and of first ..
 * count - 1 (also those this makes) that has a point of the current table on
 * a side it kept whole: the triangle across was split there, so the mesh
 * stays watertight (no vertex in the middle of a side). */
wm_result bake_split_close(wm_ctx *ctx, bake_splitter *s, nwn2_aswm *a, const bake_subset *set, uint32_t first,
                           uint32_t *added);
/* Writes a piece of model: into *slot (then set to none) or appended. */
void bake_split_emit(nwn2_aswm *a, uint32_t *slot, const nwn2_triangle *model, uint32_t v0, uint32_t v1,
                     uint32_t v2);

#endif
