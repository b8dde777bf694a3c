/* libFuzzer target: `walkmesh bake` from a whole TRN/TRX in memory: the
 * container and ASWM packet parse (inflating a COMP packet), the bake, then
 * the baked file serialised (deflated) as the command writes it. Limits keep
 * each run small; the bake's own bounds (docs/complexity.md) do the rest. */
#include <stdint.h>
#include <stdlib.h>

#include "nwn2/bake.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.limits.max_triangles = 20000;
    ctx.limits.max_bytes = 64u << 20;
    nwn2_file file;
    if (nwn2_file_parse(&ctx, data, size, "<fuzz.trx>", &file) != WM_OK) return 0;
    const nwn2_aswm *a = &file.aswm;
    if (file.aswm_packet >= 0 && (uint64_t)a->grid_width * a->grid_height <= 4096 && a->triangle_count <= 2000) {
        nwn2_bake_options opts;
        nwn2_bake_options_init(&opts);
        if (nwn2_bake(&ctx, &file.aswm, &opts, NULL) == WM_OK) {
            wm_buffer out;
            wm_buffer_init(&out, &ctx);
            (void)nwn2_file_serialize(&ctx, &file, -1, &out);
            wm_buffer_free(&out);
        }
    }
    nwn2_file_free(&ctx, &file);
    return 0;
}
