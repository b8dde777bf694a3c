/* Edge adjacency by vertex index and boundary loop chaining. */
#include "wm_geometry.h"

#include <stdlib.h>
#include <string.h>

typedef struct edge_slot {
    uint64_t key;   /* (min << 32 | max) + 1; 0 = empty */
    uint32_t code;  /* first triangle*3+edge seen */
    uint32_t count; /* triangles seen on this edge */
} edge_slot;

static uint64_t edge_key(uint32_t a, uint32_t b)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    return (((uint64_t)lo << 32) | hi) + 1;
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

wm_result wm_edge_adjacency(wm_ctx *ctx, const uint32_t *indices, uint32_t triangle_count, const uint8_t *include,
                            int32_t *out, uint32_t *out_nonmanifold)
{
    if (out_nonmanifold)
        *out_nonmanifold = 0;
    if ((uint64_t)triangle_count * 3 > INT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "adjacency: %u triangles is too many for 32-bit edge codes", triangle_count);
    for (size_t i = 0; i < 3 * (size_t)triangle_count; i++)
        out[i] = -1;
    size_t slots = 1;
    while (slots < 6 * (size_t)triangle_count + 2)
        slots <<= 1;
    edge_slot *table = wm_alloc_array(ctx, slots, sizeof *table);
    if (!table)
        return WM_ERR_NOMEM;
    uint32_t nonmanifold = 0;
    for (uint32_t t = 0; t < triangle_count; t++) {
        if (include && !include[t])
            continue;
        for (uint32_t e = 0; e < 3; e++) {
            uint32_t a = indices[3 * (size_t)t + e], b = indices[3 * (size_t)t + (e + 1) % 3];
            if (a == b)
                continue;
            uint64_t key = edge_key(a, b);
            size_t s = mix64(key) & (slots - 1);
            while (table[s].key && table[s].key != key)
                s = (s + 1) & (slots - 1);
            uint32_t code = t * 3 + e;
            if (!table[s].key) {
                table[s].key = key;
                table[s].code = code;
                table[s].count = 1;
            } else if (table[s].count == 1 && table[s].code / 3 != t) {
                out[code] = (int32_t)table[s].code;
                out[table[s].code] = (int32_t)code;
                table[s].count = 2;
            } else {
                table[s].count++;
                nonmanifold += table[s].count == 3;
            }
        }
    }
    wm_free(ctx, table);
    if (out_nonmanifold)
        *out_nonmanifold = nonmanifold;
    return WM_OK;
}

typedef struct start_entry {
    uint32_t vertex;
    uint32_t position; /* index into the sorted code list */
} start_entry;

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int compare_start(const void *a, const void *b)
{
    const start_entry *x = a, *y = b;
    if (x->vertex != y->vertex)
        return (x->vertex > y->vertex) - (x->vertex < y->vertex);
    return (x->position > y->position) - (x->position < y->position);
}

static uint32_t edge_start(const uint32_t *indices, uint32_t code)
{
    return indices[code];
}

static uint32_t edge_end(const uint32_t *indices, uint32_t code)
{
    return indices[(code / 3) * 3 + (code % 3 + 1) % 3];
}

/* First entry of the start table whose vertex is v (binary search), or count. */
static uint32_t find_start(const start_entry *starts, uint32_t count, uint32_t v)
{
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (starts[mid].vertex < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

wm_result wm_boundary_loops(wm_ctx *ctx, const uint32_t *indices, const uint32_t *edge_codes, uint32_t edge_count,
                            uint32_t *out_order, uint32_t *out_loop_ends, uint32_t *out_loop_count)
{
    *out_loop_count = 0;
    if (edge_count == 0)
        return WM_OK;
    uint32_t *sorted = wm_alloc_array(ctx, edge_count, sizeof *sorted);
    start_entry *starts = wm_alloc_array(ctx, edge_count, sizeof *starts);
    uint8_t *used = wm_alloc_array(ctx, edge_count, 1);
    /* skip[g], for the first entry g of a vertex's starts: how many of its
     * first entries are used for good, so a vertex that many loops pass costs
     * its edges once, not once per visit */
    uint32_t *skip = wm_alloc_array(ctx, edge_count, sizeof *skip);
    if (!sorted || !starts || !used || !skip) {
        wm_free(ctx, sorted);
        wm_free(ctx, starts);
        wm_free(ctx, used);
        wm_free(ctx, skip);
        return WM_ERR_NOMEM;
    }
    memcpy(sorted, edge_codes, edge_count * sizeof *sorted);
    qsort(sorted, edge_count, sizeof *sorted, compare_u32);
    for (uint32_t i = 0; i < edge_count; i++) {
        starts[i].vertex = edge_start(indices, sorted[i]);
        starts[i].position = i;
    }
    qsort(starts, edge_count, sizeof *starts, compare_start);
    uint32_t written = 0, loops = 0, scan = 0;
    while (written < edge_count) {
        while (used[scan])
            scan++;
        uint32_t current = scan;
        uint32_t loop_start_vertex = edge_start(indices, sorted[current]);
        for (;;) {
            used[current] = 1;
            out_order[written++] = sorted[current];
            uint32_t end = edge_end(indices, sorted[current]);
            if (end == loop_start_vertex)
                break;
            uint32_t next = UINT32_MAX, g = find_start(starts, edge_count, end), s = g < edge_count ? g + skip[g] : g;
            for (; s < edge_count && starts[s].vertex == end; s++)
                if (!used[starts[s].position]) {
                    next = starts[s].position;
                    break;
                }
            if (g < edge_count)
                skip[g] = s - g;
            if (next == UINT32_MAX)
                break;
            current = next;
        }
        out_loop_ends[loops++] = written;
    }
    *out_loop_count = loops;
    wm_free(ctx, sorted);
    wm_free(ctx, starts);
    wm_free(ctx, used);
    wm_free(ctx, skip);
    return WM_OK;
}
