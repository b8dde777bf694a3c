/* libFuzzer target: `walkmesh render` from every format it draws natively
 * (KotOR .wok/.pwk binary and ASCII, NWN2 .trx, WMO) and through the neutral
 * mesh (.obj), in every view. The first byte picks the format and the view;
 * the rest is the file. The render entry reads files, so the input goes
 * to a private temporary folder first. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "svg/svg_render.h"

static const char *const EXTENSIONS[] = {"wok", "pwk", "wok.ascii", "trx", "wmo", "obj"};
static const char *const VIEWS[] = {"top", "front", "side", "iso"};
#define FORMATS (sizeof EXTENSIONS / sizeof EXTENSIONS[0])

static char folder[256];

static void remove_folder(void)
{
    rmdir(folder);
}

static int make_folder(void)
{
    if (folder[0]) return 1;
    const char *tmp = getenv("TMPDIR");
    snprintf(folder, sizeof folder, "%s/walkmesh-fuzz-render-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(folder)) {
        folder[0] = 0;
        return 0;
    }
    atexit(remove_folder);
    return 1;
}

static int write_input(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    size_t put = size ? fwrite(data, 1, size, f) : 0;
    return fclose(f) == 0 && put == size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || !make_folder()) return 0;
    const char *ext = EXTENSIONS[data[0] % FORMATS];
    const char *view = VIEWS[(data[0] / FORMATS) % 4];
    char in[300], out[300];
    snprintf(in, sizeof in, "%s/fuzz.%s", folder, ext);
    snprintf(out, sizeof out, "%s/fuzz.svg", folder);
    if (!write_input(in, data + 1, size - 1)) return 0;

    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.limits.max_triangles = 1u << 16; /* keep each run small */
    ctx.limits.max_bytes = 64u << 20;
    wm_options opts;
    wm_options_init(&opts);
    if (wm_option_set(&ctx, &opts, "view", view) == WM_OK)
        (void)svg_render_file(&ctx, in, NULL, out, &opts, 1);
    remove(in);
    remove(out);
    return 0;
}
