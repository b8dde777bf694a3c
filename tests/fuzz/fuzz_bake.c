/* libFuzzer target: the whole bake on any walkmesh the ASWM parser accepts
 * (uncompressed ASWM bytes), with small limits so hostile counts fail fast. */
#include <stdint.h>
#include <stdlib.h>

#include "nwn2/bake.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.limits.max_triangles = 20000;
    ctx.limits.max_bytes = 64u << 20;
    nwn2_aswm a;
    if (nwn2_aswm_parse(&ctx, data, size, "<fuzz>", &a) == WM_OK) {
        if ((uint64_t)a.grid_width * a.grid_height <= 4096 && a.triangle_count <= 2000) {
            nwn2_bake_options opts;
            nwn2_bake_options_init(&opts);
            (void)nwn2_bake(&ctx, &a, &opts, NULL);
        }
        nwn2_aswm_free(&ctx, &a);
    }
    return 0;
}
