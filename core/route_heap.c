/* The route search's storage: nodes in a binary heap by f, turning points, and the best
 * plan length found for each turning point. */
#include "route_search_internal.h"

#include <math.h>

#define KEY_EMPTY UINT64_MAX

static int grow(wm_ctx *ctx, void **array, uint32_t *capacity, size_t element)
{
    uint32_t wanted = *capacity ? *capacity * 2 : 256;
    void *bigger = wm_realloc_array(ctx, *array, wanted, element);
    if (!bigger)
        return 0;
    *array = bigger;
    *capacity = wanted;
    return 1;
}

static wm_result heap_insert(route_search *s, const route_node *node)
{
    uint32_t index;
    if (s->free_count)
        index = s->free_slots[--s->free_count];
    else {
        if (s->node_count == s->node_capacity) {
            uint32_t capacity = s->node_capacity, free_capacity = s->node_capacity;
            if (!grow(s->ctx, (void **)&s->nodes, &s->node_capacity, sizeof *s->nodes) ||
                !grow(s->ctx, (void **)&s->heap, &capacity, sizeof *s->heap) ||
                !grow(s->ctx, (void **)&s->free_slots, &free_capacity, sizeof *s->free_slots))
                return WM_ERR_NOMEM;
        }
        index = s->node_count++;
    }
    s->nodes[index] = *node;
    route_heap_entry entry = {node->f, index};
    uint32_t i = s->heap_count++;
    while (i && entry.f < s->heap[(i - 1) / 2].f) {
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = entry;
    return WM_OK;
}

wm_result route_push(route_search *s, const route_node *node)
{
    if (s->pushed >= s->node_limit)
        return wm_error(s->ctx, WM_ERR_LIMIT, "route: the search gave up after %u windows", s->pushed);
    s->pushed++;
    if (!s->holding)
        return heap_insert(s, node);
    if (s->held_count++ == 0) {
        s->held = *node;
        return WM_OK;
    }
    wm_result r = s->held_count == 2 ? heap_insert(s, &s->held) : WM_OK;
    return r ? r : heap_insert(s, node);
}

wm_result route_release_held(route_search *s)
{
    s->holding = 0;
    return s->held_count == 1 ? heap_insert(s, &s->held) : WM_OK;
}

int32_t route_pop(route_search *s)
{
    if (!s->heap_count)
        return -1;
    uint32_t top = s->heap[0].node, i = 0, count = --s->heap_count;
    route_heap_entry moving = s->heap[count];
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, least = i;
        double least_f = moving.f;
        if (l < count && s->heap[l].f < least_f)
            least = l, least_f = s->heap[l].f;
        if (r < count && s->heap[r].f < least_f)
            least = r;
        if (least == i)
            break;
        s->heap[i] = s->heap[least];
        i = least;
    }
    if (count)
        s->heap[i] = moving;
    s->free_slots[s->free_count++] = top; /* the caller copies the node before pushing again */
    return (int32_t)top;
}

wm_result route_add_root(route_search *s, const route_root *root, int32_t *out_index)
{
    if (s->root_count == s->root_capacity &&
        !grow(s->ctx, (void **)&s->roots, &s->root_capacity, sizeof *s->roots))
        return WM_ERR_NOMEM;
    s->roots[s->root_count] = *root;
    *out_index = (int32_t)s->root_count++;
    return WM_OK;
}

static uint32_t key_slot(const route_key_slot *slots, uint32_t count, uint64_t key)
{
    uint32_t i = (uint32_t)(((key * 0x9E3779B97F4A7C15ull) >> 32) & (count - 1));
    while (slots[i].key != KEY_EMPTY && slots[i].key != key)
        i = (i + 1) & (count - 1);
    return i;
}

static int grow_keys(route_search *s)
{
    uint32_t count = s->key_slots ? s->key_slots * 2 : 1024;
    route_key_slot *slots = wm_alloc_array(s->ctx, count, sizeof *slots);
    if (!slots)
        return 0;
    for (uint32_t i = 0; i < count; i++)
        slots[i].key = KEY_EMPTY;
    for (uint32_t i = 0; i < s->key_slots; i++)
        if (s->keys[i].key != KEY_EMPTY)
            slots[key_slot(slots, count, s->keys[i].key)] = s->keys[i];
    wm_free(s->ctx, s->keys);
    s->keys = slots;
    s->key_slots = count;
    return 1;
}

int route_key_seen(route_search *s, uint64_t key, double g, wm_result *error)
{
    if (2 * (s->key_count + 1) > s->key_slots && !grow_keys(s)) {
        *error = WM_ERR_NOMEM;
        return 1;
    }
    route_key_slot *slot = &s->keys[key_slot(s->keys, s->key_slots, key)];
    if (slot->key == key && slot->g <= g)
        return 1;
    if (slot->key != key)
        s->key_count++;
    slot->key = key;
    slot->g = g;
    return 0;
}

double route_key_best(const route_search *s, uint64_t key)
{
    if (!s->key_slots)
        return INFINITY;
    const route_key_slot *slot = &s->keys[key_slot(s->keys, s->key_slots, key)];
    return slot->key == key ? slot->g : INFINITY;
}

void route_search_free(route_search *s)
{
    wm_free(s->ctx, s->nodes);
    wm_free(s->ctx, s->heap);
    wm_free(s->ctx, s->free_slots);
    wm_free(s->ctx, s->roots);
    wm_free(s->ctx, s->keys);
}
