/* libFuzzer target: the surface table parser (--materials files). */
#include <stdint.h>
#include <stdlib.h>

#include "walkmesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    wm_surface_table table;
    if (wm_surface_table_parse(&ctx, wm_surfaces_default(), (const char *)data, size, "fuzz.txt", &table) == WM_OK) {
        wm_surface_from_name(&table, "stone.001");
        wm_surface_table_free(&ctx, &table);
    }
    return 0;
}
