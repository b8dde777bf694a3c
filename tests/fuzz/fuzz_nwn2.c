/* libFuzzer target: NWN2 container + ASWM packet + walkmesh parse, then
 * everything a parsed file feeds (validate, info, mesh, serialise), first
 * through the descriptor, copied and shared. The input is also tried as a bare uncompressed ASWM. */
#include "nwn2/nwn2.h"
#include "fuzz_descriptor.h"

#include <stddef.h>
#include <stdint.h>

static void exercise(wm_ctx *ctx, const nwn2_file *f)
{
    wm_report report;
    wm_report_init(&report, ctx);
    nwn2_validate(ctx, f, &report);
    nwn2_info(ctx, f, &report);
    wm_report_free(&report);
    wm_mesh mesh;
    wm_mesh_init(&mesh);
    nwn2_aswm_to_mesh(ctx, &f->aswm, NWN2_MESH_KEEP_BORDER, &mesh);
    wm_mesh_free(ctx, &mesh);
    wm_buffer buf;
    wm_buffer_init(&buf, ctx);
    nwn2_file_serialize(ctx, f, -1, &buf);
    wm_buffer_free(&buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.limits.max_bytes = 64u << 20; /* keep a claimed huge ASWM cheap */
    ctx.limits.max_triangles = 1u << 20;
    fuzz_descriptor(&ctx, &wm_format_nwn2, data, size, "fuzz.trx");
    nwn2_file f;
    if (nwn2_file_parse(&ctx, data, size, "<fuzz>", &f) == WM_OK) {
        exercise(&ctx, &f);
        nwn2_file_free(&ctx, &f);
    }
    if (nwn2_file_parse_shared(&ctx, data, size, "<fuzz shared>", &f) == WM_OK) { /* arrays in the inflated bytes */
        exercise(&ctx, &f);
        nwn2_file_free(&ctx, &f);
    }
    nwn2_aswm a;
    if (nwn2_aswm_parse(&ctx, data, size, "<fuzz aswm>", &a) == WM_OK) {
        nwn2_file_init(&f);
        f.aswm = a;
        f.aswm_packet = 0; /* no container: validate the walkmesh alone */
        wm_report report;
        wm_report_init(&report, &ctx);
        nwn2_validate(&ctx, &f, &report);
        wm_report_free(&report);
        wm_mesh mesh;
        wm_mesh_init(&mesh);
        if (nwn2_aswm_to_mesh(&ctx, &a, 0, &mesh) == WM_OK && a.tile_width > 0.0f && a.tile_width < 1e6f)
            nwn2_aswm_from_mesh(&ctx, &mesh, &a);
        wm_mesh_free(&ctx, &mesh);
        nwn2_aswm_free(&ctx, &a);
    }
    return 0;
}
