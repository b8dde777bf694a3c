/* libFuzzer target: walkmesh's own OBJ reader (structure check, then the
 * parse, triangulation, transitions and weld), on bytes in memory. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assimp/assimp_module.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.limits.max_triangles = 1u << 16; /* keep each input small */
    wm_mesh mesh;
    wm_mesh_init(&mesh);
    if (wm_obj_check_and_read(&ctx, "fuzz.obj", NULL, data, size, &mesh) == WM_OK)
        wm_mesh_free(&ctx, &mesh);
    return 0;
}
