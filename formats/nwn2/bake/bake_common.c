/* Small pieces every bake stage uses; they call nothing else of the bake. */
#include "bake_internal.h"

#include <math.h>
#include <stdint.h>

/* 2-D distance between two centres, in single precision as the toolset. */
float bake_distance(const float a[2], const float b[2])
{
    float dx = a[0] - b[0];
    float dy = a[1] - b[1];
    return sqrtf(dx * dx + dy * dy);
}

/* Grows a flat array to hold `needed` elements (capacity doubles). */
wm_result bake_grow(wm_ctx *ctx, void **array, uint32_t *capacity, uint32_t needed, size_t elem_size)
{
    if (needed <= *capacity)
        return WM_OK;
    uint64_t cap = *capacity ? *capacity : 8;
    while (cap < needed)
        cap *= 2;
    if (cap > UINT32_MAX)
        cap = UINT32_MAX;
    void *p = wm_realloc_array(ctx, *array, (size_t)cap, elem_size);
    if (!p)
        return WM_ERR_NOMEM;
    *array = p;
    *capacity = (uint32_t)cap;
    return WM_OK;
}
