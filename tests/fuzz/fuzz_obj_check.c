/* libFuzzer target: the OBJ structure check that runs before Assimp. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "assimp/assimp_module.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_obj_check(&ctx, "fuzz.obj", data, size);
    return 0;
}
