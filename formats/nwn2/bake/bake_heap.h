/* The binary min-heap both Dijkstra searches of the bake use (triangles in a
 * tile, islands of the area). Items are settled by (distance, index), the
 * order the toolset's tables show. */
#ifndef WM_NWN2_BAKE_HEAP_H
#define WM_NWN2_BAKE_HEAP_H

#include <stdint.h>

typedef struct bake_heap_item {
    float d;
    uint32_t id;
} bake_heap_item;

static inline int bake_heap_less(bake_heap_item a, bake_heap_item b)
{
    return a.d < b.d || (a.d == b.d && a.id < b.id);
}

static inline void bake_heap_push(bake_heap_item *h, uint32_t *size, bake_heap_item it)
{
    uint32_t i = (*size)++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!bake_heap_less(it, h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = it;
}

static inline bake_heap_item bake_heap_pop(bake_heap_item *h, uint32_t *size)
{
    bake_heap_item top = h[0];
    bake_heap_item last = h[--(*size)];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= *size)
            break;
        if (c + 1 < *size && bake_heap_less(h[c + 1], h[c]))
            c++;
        if (!bake_heap_less(h[c], last))
            break;
        h[i] = h[c];
        i = c;
    }
    if (*size)
        h[i] = last;
    return top;
}

#endif
