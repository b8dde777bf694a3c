/* The queue both Dijkstra searches of the bake use (triangles in a tile,
 * islands of the area): the frontier (nodes reached but not settled) as an
 * unsorted list, scanned for its least (distance, index) on each pop.
 *
 * Why a scan and not a heap: on a walkmesh the frontier is the rim of the
 * region searched so far, a handful of nodes, and a node already in it is
 * updated in place instead of being pushed again. Settling order is the
 * binary heap's with stale entries skipped (the order the toolset's tables
 * show): least distance first, lower index on equal distances; a node
 * improved after it was settled (never, with the bake's non-negative costs)
 * enters the frontier again, as it would be pushed again on a heap. */
#ifndef WM_NWN2_BAKE_QUEUE_H
#define WM_NWN2_BAKE_QUEUE_H

#include <stdint.h>
#include <string.h>

#define BAKE_QUEUE_OUT UINT32_MAX

/* keys: the frontier, each node as its distance's bits above its index (the
 * bake's distances are never negative, -0 or NaN, so the bits of a distance
 * order as the distance does and one integer compare orders (distance,
 * index)); capacity: the node count. at[v]: v's place in keys, BAKE_QUEUE_OUT
 * when v is not in it (the caller sets every node's at[] so before the search). */
typedef struct bake_queue {
    uint64_t *keys;
    uint32_t *at;
    uint32_t count;
} bake_queue;

/* v reached at distance d (a strict improvement on its tentative distance). */
static inline void bake_queue_set(bake_queue *q, uint32_t v, float d)
{
    uint32_t bits;
    memcpy(&bits, &d, sizeof bits);
    uint32_t i = q->at[v];
    if (i == BAKE_QUEUE_OUT) {
        i = q->count++;
        q->at[v] = i;
    }
    q->keys[i] = (uint64_t)bits << 32 | v;
}

/* Removes and returns the node of least (distance, index); *d gets its distance. */
static inline uint32_t bake_queue_pop(bake_queue *q, float *d)
{
    uint64_t best = q->keys[0];
    uint32_t at = 0;
    for (uint32_t i = 1; i < q->count; i++) { /* selects, not branches: which key is least is not predictable */
        const uint64_t key = q->keys[i];
        const int less = key < best;
        best = less ? key : best;
        at = less ? i : at;
    }
    const uint32_t v = (uint32_t)best, bits = (uint32_t)(best >> 32);
    memcpy(d, &bits, sizeof bits);
    const uint64_t last = q->keys[--q->count];
    q->keys[at] = last;
    q->at[(uint32_t)last] = at;
    q->at[v] = BAKE_QUEUE_OUT;
    return v;
}

#endif
