/* The OBJ reader's name tables (obj_names.h). */
#include "obj_names.h"

#include <string.h>

static uint32_t hash_name(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

uint32_t obj_name_intern(wm_ctx *ctx, name_table *t, const char *s, size_t n)
{
    if (2 * (t->count + 1) > t->slot_mask) {
        uint32_t slots = t->slot_mask ? 2 * (t->slot_mask + 1) : 64;
        uint32_t *fresh = wm_alloc_array(ctx, slots, sizeof(uint32_t));
        if (!fresh)
            return UINT32_MAX;
        for (uint32_t i = 0; i < t->count; i++) {
            uint32_t h = hash_name(t->names[i], strlen(t->names[i])) & (slots - 1);
            while (fresh[h])
                h = (h + 1) & (slots - 1);
            fresh[h] = i + 1;
        }
        wm_free(ctx, t->slots);
        t->slots = fresh;
        t->slot_mask = slots - 1;
    }
    uint32_t h = hash_name(s, n) & t->slot_mask;
    for (; t->slots[h]; h = (h + 1) & t->slot_mask) {
        const char *name = t->names[t->slots[h] - 1];
        if (strncmp(name, s, n) == 0 && name[n] == '\0')
            return t->slots[h] - 1;
    }
    if (t->count == t->capacity) {
        uint32_t capacity = t->capacity ? 2 * t->capacity : 16;
        char **names = wm_realloc_array(ctx, t->names, capacity, sizeof *names);
        if (!names)
            return UINT32_MAX;
        t->names = names;
        t->capacity = capacity;
    }
    char *copy = wm_alloc_array(ctx, n + 1, 1);
    if (!copy)
        return UINT32_MAX;
    memcpy(copy, s, n);
    t->names[t->count] = copy;
    t->slots[h] = t->count + 1;
    return t->count++;
}

void obj_names_free(wm_ctx *ctx, name_table *t)
{
    for (uint32_t i = 0; i < t->count; i++)
        wm_free(ctx, t->names[i]);
    wm_free(ctx, t->names);
    wm_free(ctx, t->slots);
}
