/* Transitions the builder could not place on the file's edges (bwm_build.c). */
#include "bwm/bwm.h"

#include <stdlib.h>

typedef struct edge_room {
    uint64_t pair; /* the edge's two vertices, lower first */
    int32_t room;
} edge_room;

static edge_room edge_room_of(const uint32_t *faces, uint32_t code, int32_t room)
{
    const uint32_t *face = faces + 3 * (size_t)(code / 3);
    uint32_t a = face[code % 3], b = face[(code % 3 + 1) % 3];
    edge_room e = {a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a, room};
    return e;
}

static int compare_edge_rooms(const void *x, const void *y)
{
    const edge_room *p = x, *q = y;
    if (p->pair != q->pair) return p->pair < q->pair ? -1 : 1;
    return (p->room > q->room) - (p->room < q->room);
}

wm_result bwm_lost_transitions(wm_ctx *ctx, const bwm_file *f, uint32_t walkable, const int32_t *transitions,
                               uint32_t *out_lost, uint32_t *out_first)
{
    size_t codes = 3 * (size_t)f->face_count, unplaced = 0, kept = 0;
    *out_lost = 0;
    for (size_t i = 0; i < codes; i++)
        unplaced += transitions[i] >= 0 && (i >= 3 * (size_t)walkable || f->adjacency[i] >= 0);
    if (!unplaced) return WM_OK;
    for (uint32_t e = 0; e < f->edge_count; e++) kept += f->edges[e].transition >= 0;
    edge_room *on_file = wm_realloc_array(ctx, NULL, kept + 1, sizeof *on_file);
    edge_room *lost = wm_realloc_array(ctx, NULL, unplaced, sizeof *lost);
    if (!on_file || !lost) {
        wm_free(ctx, on_file);
        wm_free(ctx, lost);
        return WM_ERR_NOMEM;
    }
    kept = 0;
    for (uint32_t e = 0; e < f->edge_count; e++)
        if (f->edges[e].transition >= 0) on_file[kept++] = edge_room_of(f->faces, f->edges[e].code, f->edges[e].transition);
    qsort(on_file, kept, sizeof *on_file, compare_edge_rooms);
    size_t n = 0;
    for (size_t i = 0; i < codes; i++) {
        if (transitions[i] < 0 || (i < 3 * (size_t)walkable && f->adjacency[i] < 0)) continue;
        edge_room e = edge_room_of(f->faces, (uint32_t)i, transitions[i]);
        if (bsearch(&e, on_file, kept, sizeof *on_file, compare_edge_rooms)) continue; /* on a boundary edge too */
        if (n == 0) *out_first = (uint32_t)i;
        lost[n++] = e;
    }
    qsort(lost, n, sizeof *lost, compare_edge_rooms);
    for (size_t i = 0; i < n; i++) *out_lost += i == 0 || compare_edge_rooms(&lost[i - 1], &lost[i]) != 0;
    wm_free(ctx, on_file);
    wm_free(ctx, lost);
    return WM_OK;
}
