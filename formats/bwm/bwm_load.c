/* A walkmesh file as a binary image, whatever its form: the binary itself,
 * or for ASCII content (NWN1 text behind .wok/.pwk/.dwk, .wok.ascii) the
 * binary the text describes. */
#include "bwm/bwm.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

uint32_t bwm_type_for_path(const char *path)
{
    char name[512];
    snprintf(name, sizeof name, "%s", wm_path_file_name(path));
    size_t n = strlen(name);
    if (n > 6 && strcasecmp(name + n - 6, ".ascii") == 0) name[n - 6] = 0;
    const char *dot = strrchr(name, '.');
    if (dot && (strcasecmp(dot, ".pwk") == 0 || strcasecmp(dot, ".dwk") == 0)) return BWM_TYPE_PLACEABLE;
    return BWM_TYPE_AREA;
}

int bwm_is_text(const uint8_t *data, size_t size)
{
    return !(size >= 8 && memcmp(data, "BWM V1.0", 8) == 0) && bwm_ascii_probe_text(data, size < 4096 ? size : 4096) > 0;
}

wm_result bwm_load_image(wm_ctx *ctx, const char *path, uint8_t **data, size_t *size, int *was_text)
{
    bwm_file file;
    wm_buffer image;
    wm_result r = wm_file_read(ctx, path, data, size);
    *was_text = !r && bwm_is_text(*data, *size);
    if (r || !*was_text) return r;
    r = bwm_ascii_read_file(ctx, (const char *)*data, *size, path, bwm_type_for_path(path), &file);
    wm_free(ctx, *data);
    *data = NULL;
    if (r) return r;
    r = bwm_serialize(ctx, &file, &image);
    bwm_file_free(ctx, &file);
    if (r) return r;
    *data = image.data; /* the buffer's block, freed with wm_free */
    *size = image.size;
    return WM_OK;
}

/* A walkmesh file, binary or ASCII, as a parsed binary file. */
wm_result bwm_load_any(wm_ctx *ctx, const char *path, bwm_file *out, size_t *size)
{
    uint8_t *data = NULL;
    int was_text;
    wm_result r = bwm_load_image(ctx, path, &data, size, &was_text);
    if (!r) r = bwm_parse(ctx, data, *size, path, out);
    wm_free(ctx, data);
    return r;
}

