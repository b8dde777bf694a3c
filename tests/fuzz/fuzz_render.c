/* libFuzzer target: `walkmesh render` from every format it draws natively
 * (KotOR .wok/.pwk binary and ASCII, NWN2 .trx, WMO) and through the neutral
 * mesh (.obj), in every view, on bytes in memory (wm_render_memory). The
 * first byte picks the format and the view; the rest is the file. */
#include <stdint.h>
#include <stdio.h>

#include "walkmesh.h"

static const char *const EXTENSIONS[] = {"wok", "pwk", "wok.ascii", "trx", "wmo", "obj"};
static const char *const VIEWS[] = {"top", "front", "side", "iso"};
#define FORMATS (sizeof EXTENSIONS / sizeof EXTENSIONS[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const char *ext = EXTENSIONS[data[0] % FORMATS];
    const char *view = VIEWS[(data[0] / FORMATS) % 4];
    char name[32];
    snprintf(name, sizeof name, "fuzz.%s", ext);

    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.limits.max_triangles = 1u << 16; /* keep each run small */
    ctx.limits.max_bytes = 64u << 20;
    wm_options opts;
    wm_options_init(&opts);
    wm_buffer svg;
    wm_buffer_init(&svg, &ctx);
    if (wm_option_set(&ctx, &opts, "view", view) == WM_OK)
        (void)wm_render_memory(&ctx, data + 1, size - 1, name, NULL, &opts, &svg);
    wm_buffer_free(&svg);
    return 0;
}
