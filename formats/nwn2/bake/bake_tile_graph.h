/* Open-addressing table of a tile's distinct points (at most 6 per node). */
#define BAKE_MAX_TILE_POINTS (6 * NWN2_MAX_TILE_NODES)
#define BAKE_POINT_HASH 2048

/* One tile's walkable triangles as a graph: what stage 2 (path tables and
 * line of sight) works on. */
#ifndef WM_NWN2_BAKE_TILE_GRAPH_H
#define WM_NWN2_BAKE_TILE_GRAPH_H

#include "bake_internal.h"

/* The tile's walkable graph: up to 3 neighbours per node, in slot order. */
typedef struct tile_graph {
    uint32_t n;
    uint32_t first;                 /* global index of the tile's first triangle */
    uint32_t count;                 /* the tile's triangles */
    uint32_t local[NWN2_MAX_TILE_NODES];
    uint8_t adj[NWN2_MAX_TILE_NODES][3];
    float cost[NWN2_MAX_TILE_NODES][3];
    uint8_t degree[NWN2_MAX_TILE_NODES];
    /* for line of sight: centres, each side's end points (x0 y0 x1 y1), its
     * squared length and the node beyond it (NWN2_PATH_NONE: none) */
    float centre[NWN2_MAX_TILE_NODES][2];
    float side[NWN2_MAX_TILE_NODES][3][4];
    float side_len2[NWN2_MAX_TILE_NODES][3];
    uint8_t side_node[NWN2_MAX_TILE_NODES][3];
    /* the distinct side end points of each node (3 for a sound triangle, at
     * most 6) and, per side end, which of them it is: a step of the line of
     * sight tests each point against the line once, not once per side */
    float point[NWN2_MAX_TILE_NODES][6][2];
    uint8_t point_count[NWN2_MAX_TILE_NODES];
    uint8_t side_point[NWN2_MAX_TILE_NODES][3][2];
    /* the same points numbered over the whole tile (equal positions, equal
     * number), so a sweep works out each point's cone once per source */
    uint16_t point_id[NWN2_MAX_TILE_NODES][6];
    /* entered through side k of node u, a sound triangle leaves through
     * corner[u][k] = {c, ka, kb}: its third point, the side from the entry
     * side's first end to c and the side from c to its second end; c = -1
     * when the triangle is not that simple */
    int8_t corner[NWN2_MAX_TILE_NODES][3][3];
    /* crossing side k of node u enters node side_node[u][k] through its side
     * entry[u][k], the only one of its sides leading back to u (-1: none or several) */
    int8_t entry[NWN2_MAX_TILE_NODES][3];
    float point_at[BAKE_MAX_TILE_POINTS][2]; /* each tile point's position, by number */
    uint32_t tile_points;
    uint32_t hash_stamp; /* entries of other stamps are free (the table is reused per tile) */
    struct {
        uint32_t x, y; /* position bits */
        uint32_t stamp;
        uint16_t id;
    } point_hash[BAKE_POINT_HASH];
} tile_graph;

/* Line of sight from node `from` to every node: visible[to] = 1 when the
 * centre-to-centre segment provably stays on the tile's walkable triangles
 * (bake_sight.c). scratch: bake_sight_scratch_size() bytes, reused. */
void bake_sight_from(const tile_graph *g, uint32_t from, uint8_t *visible, void *scratch);
/* Readies scratch for the sources of a new tile. */
void bake_sight_start(void *scratch);
size_t bake_sight_scratch_size(void);

/* The same decision for the pairs (from, d), d > from, with wanted[d] != 0:
 * segments walked one by one, the sweep when a source's walks grow long
 * (bake_sight_walk.c). visible[d] for d > from; scratch:
 * bake_sight_pairs_scratch_size() bytes, readied per tile by bake_sight_pairs_start. */
void bake_sight_pairs(const tile_graph *g, uint32_t from, const uint8_t *wanted, uint8_t *visible, void *scratch);
void bake_sight_pairs_start(const tile_graph *g, void *scratch);
size_t bake_sight_pairs_scratch_size(void);

#endif
