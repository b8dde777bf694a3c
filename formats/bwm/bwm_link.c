/* Walkable face adjacency within one vertex row (see bwm_link.h). */
#include "bwm/bwm_link.h"

#include <stdlib.h>

/* By other vertex, then place in the row. */
static int bwm_row_edge_cmp(const void *x, const void *y)
{
    const bwm_row_edge *a = x, *b = y;
    if (a->other != b->other) return a->other < b->other ? -1 : 1;
    return (a->place > b->place) - (a->place < b->place);
}

/* Rows of a mesh hold about six edges: an insertion sort inlined here costs a
 * fraction of qsort's calls through a comparison pointer (the keys, other
 * vertex and place, are unique, so both give the same order). */
#define BWM_ROW_INSERTION_MAX 16u

static void insertion_sort(bwm_row_edge *row, uint32_t count)
{
    for (uint32_t i = 1; i < count; i++) {
        bwm_row_edge e = row[i];
        uint32_t j = i;
        for (; j > 0 && (row[j - 1].other > e.other || (row[j - 1].other == e.other && row[j - 1].place > e.place)); j--)
            row[j] = row[j - 1];
        row[j] = e;
    }
}

/* Faces of group g[0..count) (the edges of one vertex pair, in row order):
 * each edge not linked yet is linked to the next such edge of another face.
 * sides[place] = the faces sharing the edge, at the edges of the group's
 * first face when three or more faces share it (reported later, in row
 * order), else 0. Another edge of the same face on the pair (a degenerate
 * face) has the same lower vertex and other vertex, so it is in this group:
 * codes ascend with places, so a face's edges are adjacent in it (at most
 * three). Linear in count: the scan for a partner passes only edges of the
 * current face and edges linked by an earlier edge of that face, so a
 * thousand faces stacked on one edge cost a thousand steps, not a million. */
static void link_group(bwm_file *f, const uint32_t *codes, const bwm_row_edge *g, uint32_t count, uint32_t *sides)
{
    if (count < 3) { /* most groups: a boundary edge, or two faces' edges (no edge of a group is linked before it) */
        uint32_t a = codes[g[0].place], b = count == 2 ? codes[g[1].place] : a;
        if (a / 3 != b / 3) {
            f->adjacency[a] = (int32_t)b;
            f->adjacency[b] = (int32_t)a;
        }
        sides[g[0].place] = sides[g[count - 1].place] = 0;
        return;
    }
    uint32_t first_face = codes[g[0].place] / 3, first_run = 1;
    while (first_run < count && codes[g[first_run].place] / 3 == first_face) first_run++;
    uint32_t shared = count - first_run; /* edges of the other faces */
    for (uint32_t i = 0; i < count; i++) {
        uint32_t a = codes[g[i].place];
        for (uint32_t k = i + 1; k < count && f->adjacency[a] < 0; k++) {
            uint32_t b = codes[g[k].place];
            if (b / 3 != a / 3 && f->adjacency[b] < 0) {
                f->adjacency[a] = (int32_t)b;
                f->adjacency[b] = (int32_t)a;
            }
        }
        sides[g[i].place] = i < first_run && shared >= 2 ? shared + 1 : 0;
    }
}

void bwm_link_row(bwm_file *f, uint32_t v, const uint32_t *codes, uint32_t count, bwm_row_edge *row,
                  uint32_t *sides)
{
    for (uint32_t i = 0; i < count; i++) {
        uint32_t e = codes[i] % 3;
        const uint32_t *face = f->faces + (codes[i] - e); /* one division for both ends */
        row[i] = (bwm_row_edge){face[e] ^ face[e == 2 ? 0 : e + 1] ^ v, i};
    }
    if (count > BWM_ROW_INSERTION_MAX)
        qsort(row, count, sizeof *row, bwm_row_edge_cmp);
    else
        insertion_sort(row, count);
    for (uint32_t i = 0; i < count;) {
        uint32_t j = i + 1;
        while (j < count && row[j].other == row[i].other)
            j++;
        link_group(f, codes, row + i, j - i, sides);
        i = j;
    }
}

uint32_t bwm_longest_row(const uint32_t *start, uint32_t vertex_count)
{
    uint32_t longest = 0;
    for (uint32_t v = 0; v < vertex_count; v++)
        if (start[v + 1] - start[v] > longest) longest = start[v + 1] - start[v];
    return longest;
}
