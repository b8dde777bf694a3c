/* Walkable face adjacency, one vertex row at a time (bwm_build.c). */
#ifndef WM_BWM_LINK_H
#define WM_BWM_LINK_H

#include "bwm/bwm.h"

/* An edge of a vertex row: its other vertex and its place in the row. */
typedef struct bwm_row_edge {
    uint32_t other, place;
} bwm_row_edge;

/* Links the edges codes[0..count) of vertex v's row (the edges whose lower
 * vertex is v, ascending): each edge not linked yet to the next edge of the
 * same vertex pair on another face, sorting the row by the other vertex
 * (O(d log d) for d edges, not O(d^2)). scratch: count entries. sides[i] =
 * the faces sharing edge i when it is the first of three or more, else 0. */
void bwm_link_row(bwm_file *f, uint32_t v, const uint32_t *codes, uint32_t count, bwm_row_edge *scratch,
                  uint32_t *sides);

/* The most edges in one row of compressed rows start[0..vertex_count]: the
 * room bwm_link_row needs, one row at a time. */
uint32_t bwm_longest_row(const uint32_t *start, uint32_t vertex_count);

#endif
