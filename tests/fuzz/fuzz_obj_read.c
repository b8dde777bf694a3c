/* libFuzzer target: walkmesh's own OBJ reader (structure check, then the
 * parse, triangulation, transitions and weld), on bytes in memory, through
 * the interchange descriptor's read hook as a file named .obj. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assimp/assimp_module.h"
#include "fuzz_descriptor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.limits.max_triangles = 1u << 16; /* keep each input small */
    fuzz_descriptor(&ctx, wm_format_by_name("assimp"), data, size, "fuzz.obj"); /* .obj: the own reader */
    return 0;
}
