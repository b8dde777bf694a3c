/* libFuzzer target for the BWM readers: binary (parse, then everything that
 * reads a parsed file: validate, info, mesh conversion, queries, ASCII text
 * and back, rebuild, serialize) and ASCII text (as a mesh and as the binary
 * it describes), each first through its descriptor. */
#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include "bwm/bwm.h"
#include "fuzz_descriptor.h"

static void quiet(void *user, const char *message)
{
    (void)user;
    (void)message;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    bwm_file file;
    wm_ctx_init(&ctx);
    ctx.warn = quiet;
    ctx.limits.max_triangles = 1u << 16; /* keep each run small */
    if (size < 8 || memcmp(data, "BWM V1.0", 8) != 0) { /* text: the ASCII reader */
        fuzz_descriptor(&ctx, &wm_format_bwm_ascii, data, size, "fuzz.wok.ascii");
        wm_mesh text_mesh;
        wm_mesh_init(&text_mesh);
        (void)bwm_ascii_parse(&ctx, (const char *)data, size, "fuzz.wok.ascii", NULL, &text_mesh);
        wm_mesh_free(&ctx, &text_mesh);
        uint32_t meshes, hidden; /* a model's render meshes */
        wm_mesh_init(&text_mesh);
        (void)bwm_ascii_render(&ctx, (const char *)data, size, "fuzz.mdl.ascii", &text_mesh, &meshes, &hidden);
        wm_mesh_free(&ctx, &text_mesh);
        bwm_file described; /* the binary the text describes (no weld, its tree's leaf order and boxes) */
        if (bwm_ascii_read_file(&ctx, (const char *)data, size, "fuzz.wok.ascii", BWM_TYPE_AREA, &described) == WM_OK)
            bwm_file_free(&ctx, &described);
        return 0;
    }
    fuzz_descriptor(&ctx, &wm_format_bwm, data, size, "fuzz.wok");
    if (bwm_parse(&ctx, data, size, "fuzz.wok", &file) != WM_OK) return 0;

    wm_report report;
    wm_report_init(&report, &ctx);
    (void)bwm_validate(&ctx, &file, size, &report);
    bwm_info(&file, &ctx, &report);
    wm_report_free(&report);

    wm_mesh mesh;
    wm_mesh_init(&mesh);
    if (bwm_to_mesh(&ctx, &file, "fuzz", &mesh) == WM_OK) (void)bwm_matches_mesh(&ctx, &file, &mesh);
    wm_mesh_free(&ctx, &mesh);

    if (file.vertex_count) {
        const float *v = file.vertices;
        float z, t, dir[3] = {0, 0, -1}, origin[3] = {v[0], v[1], v[2] + 1};
        uint32_t face;
        (void)bwm_height_at(&ctx, &file, v[0], v[1], HUGE_VALF, &z);
        (void)bwm_raycast(&ctx, &file, origin, dir, &face, &t);
    }

    wm_buffer out;
    bwm_file back; /* binary -> ASCII -> binary */
    if (bwm_ascii_serialize(&ctx, &file, (int)(size & 1), "fuzz", &out) == WM_OK) {
        if (bwm_ascii_read_file(&ctx, (const char *)out.data, out.size, "fuzz.wok.ascii", file.type, &back) == WM_OK)
            bwm_file_free(&ctx, &back);
        wm_buffer_free(&out);
    }
    if (bwm_serialize(&ctx, &file, &out) == WM_OK) wm_buffer_free(&out);
    if (bwm_rebuild(&ctx, &file, BWM_PLANES_BIOWARE, 1) == WM_OK && bwm_serialize(&ctx, &file, &out) == WM_OK)
        wm_buffer_free(&out);
    bwm_file_free(&ctx, &file);
    return 0;
}
