/* libFuzzer target: the bounded GFF reader through the GIT cutter reader,
 * then (for small cutter sets) a bake of a small fixed walkmesh with those
 * cutters, so hostile polygons (NaN, huge, degenerate, self-crossing) go
 * through the cutting code too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nwn2/bake.h"

static void square_mesh(wm_ctx *ctx, nwn2_aswm *a)
{
    /* 20 x 20, 2 x 2 tiles of 10, four triangles around the centre */
    static const float v[] = {0, 0, 0, 20, 0, 0, 20, 20, 1, 0, 20, 1, 10, 10, 0.5f};
    static const uint32_t t[] = {0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4};
    nwn2_aswm_init(a);
    a->tile_width = 10.0f;
    a->grid_width = a->grid_height = 2;
    a->tiles = wm_alloc_array(ctx, 4, sizeof *a->tiles);
    a->vertices = wm_alloc_array(ctx, 15, sizeof(float));
    a->triangles = wm_alloc_array(ctx, 4, sizeof *a->triangles);
    if (!a->tiles || !a->vertices || !a->triangles)
        return;
    memcpy(a->vertices, v, sizeof v);
    a->vertex_count = 5;
    for (uint32_t i = 0; i < 4; i++) {
        memcpy(a->triangles[i].v, &t[3 * i], sizeof(uint32_t) * 3);
        a->triangles[i].flags = NWN2_TRI_WALKABLE | NWN2_TRI_DIRT;
        for (int k = 0; k < 3; k++)
            a->triangles[i].neighbour[k] = NWN2_NONE32;
    }
    a->triangle_count = 4;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.limits.max_triangles = 200000;
    nwn2_cutter_set set;
    if (nwn2_bake_cutters_from_git(&ctx, data, size, "<fuzz>", &set) == WM_OK) {
        uint32_t points = 0;
        for (uint32_t i = 0; i < set.count; i++)
            points += set.cutters[i].point_count;
        if (points <= 48) {
            nwn2_aswm a;
            square_mesh(&ctx, &a);
            nwn2_bake_options opts;
            nwn2_bake_options_init(&opts);
            opts.cutters = &set;
            if (a.triangles)
                (void)nwn2_bake(&ctx, &a, &opts, NULL);
            nwn2_aswm_free(&ctx, &a);
        }
        nwn2_cutter_set_free(&ctx, &set);
    }
    return 0;
}
