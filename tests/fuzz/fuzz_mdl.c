/* libFuzzer target for the KotOR binary model reader: node tree, controllers,
 * render meshes, walkmesh node, then the mesh and the .wok the builder makes of it. */
#include <stdint.h>
#include <stddef.h>

#include "bwm/bwm.h"
#include "mdl/mdl.h"

static void quiet(void *user, const char *message)
{
    (void)user;
    (void)message;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    mdl_walkmesh w;
    wm_ctx_init(&ctx);
    ctx.warn = quiet;
    ctx.limits.max_triangles = 1u << 16; /* keep each run small */
    (void)mdl_detect(data, size, size);
    wm_mesh drawn;
    mdl_render render = {&drawn, 0, 0};
    wm_mesh_init(&drawn);
    if (mdl_parse_render(&ctx, data, size, "fuzz.mdl", &render, &w) == WM_OK) mdl_walkmesh_free(&ctx, &w);
    wm_mesh_free(&ctx, &drawn);
    if (mdl_parse_walkmesh(&ctx, data, size, "fuzz.mdl", &w) != WM_OK) return 0;
    wm_mesh mesh;
    if (mdl_walkmesh_to_mesh(&ctx, &w, NULL, &mesh) == WM_OK) {
        bwm_file file;
        if (bwm_from_mesh(&ctx, &mesh, BWM_TYPE_AREA, -1.0f, BWM_PLANES_BIOWARE, &file) == WM_OK)
            bwm_file_free(&ctx, &file);
        wm_mesh_free(&ctx, &mesh);
    }
    mdl_walkmesh_free(&ctx, &w);
    return 0;
}
