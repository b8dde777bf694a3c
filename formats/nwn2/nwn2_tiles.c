/* The toolset's tile rules (see nwn2_tiles.h). */
#include "nwn2_tiles.h"

#include <math.h>

void nwn2_toolset_centre(const float *v0, const float *v1, const float *v2, float out[2])
{
    const float third = 1.0f / 3.0f;
    out[0] = ((v0[0] + v1[0]) + v2[0]) * third;
    out[1] = ((v0[1] + v1[1]) + v2[1]) * third;
}

/* Cell k covers (k * width, (k + 1) * width]: a centre exactly on a tile
 * line belongs to the lower tile, as in the toolset's files (6 of the 9
 * corpus triangles whose centre lies on a line). */
static uint32_t clamp_cell(float value, float width, uint32_t cells)
{
    float c = ceilf(value / width) - 1.0f;
    if (!(c >= 0.0f)) /* also NaN */
        return 0;
    if (c >= (float)cells)
        return cells - 1;
    return (uint32_t)c;
}

uint32_t nwn2_tile_of(const nwn2_aswm *a, float x, float y)
{
    return clamp_cell(y, a->tile_width, a->grid_height) * a->grid_width +
           clamp_cell(x, a->tile_width, a->grid_width);
}

int nwn2_layout_is_baked(const nwn2_aswm *a, int keep_borders)
{
    if (a->grid_flags != NWN2_GRID_FLAGS_TRX || !a->tiles || a->grid_width == 0 || a->grid_height == 0 ||
        (uint64_t)a->grid_width * a->grid_height > UINT32_MAX / 2)
        return 0;
    const uint32_t tiles = a->grid_width * a->grid_height, b = a->border_size;
    uint32_t next = 0;
    for (uint32_t ti = 0; ti < tiles; ti++) {
        const nwn2_tile *t = &a->tiles[ti];
        if (t->triangle_offset != next || t->triangle_count > a->triangle_count - next)
            return 0;
        next += t->triangle_count;
        uint32_t x = ti % a->grid_width, y = ti / a->grid_width;
        int border = x < b || y < b || (uint64_t)x + b >= a->grid_width || (uint64_t)y + b >= a->grid_height;
        if (border && t->triangle_count && !keep_borders)
            return 0;
    }
    if (next != a->triangle_count)
        return 0;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        const nwn2_triangle *tri = &a->triangles[t];
        for (int k = 0; k < 3; k++)
            if (tri->v[k] >= a->vertex_count || tri->edge[k] >= a->edge_count ||
                (tri->neighbour[k] != NWN2_NONE32 && tri->neighbour[k] >= a->triangle_count))
                return 0;
    }
    return 1;
}
