/* Names an OBJ reader interns (materials, objects): an open-addressing table of exact names,
 * so that a file of many names looks each up in constant time. */
#ifndef WM_OBJ_NAMES_H
#define WM_OBJ_NAMES_H

#include "wm_context.h"

#include <stddef.h>
#include <stdint.h>

typedef struct name_table {
    char **names;
    uint32_t count, capacity;
    uint32_t *slots; /* open addressing: index + 1, 0 = empty */
    uint32_t slot_mask;
} name_table;

/* Index of the name s[0, n) (added when new: indices follow first appearance), or
 * UINT32_MAX when out of memory. */
uint32_t obj_name_intern(wm_ctx *ctx, name_table *t, const char *s, size_t n);
void obj_names_free(wm_ctx *ctx, name_table *t);

#endif
