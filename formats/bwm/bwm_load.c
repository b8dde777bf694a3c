/* A walkmesh in memory as a parsed binary file, whatever its form: the
 * binary itself, or for ASCII content (NWN1 text behind .wok/.pwk/.dwk,
 * .wok.ascii) the binary the text describes. */
#include "bwm/bwm.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

uint32_t bwm_type_for_path(const char *path)
{
    char name[512];
    snprintf(name, sizeof name, "%s", wm_path_file_name(path ? path : ""));
    size_t n = strlen(name);
    if (n > 6 && strcasecmp(name + n - 6, ".ascii") == 0) name[n - 6] = 0;
    const char *dot = strrchr(name, '.');
    if (dot && (strcasecmp(dot, ".pwk") == 0 || strcasecmp(dot, ".dwk") == 0)) return BWM_TYPE_PLACEABLE;
    return BWM_TYPE_AREA;
}

int bwm_is_text(const uint8_t *data, size_t size)
{
    return !(size >= 8 && memcmp(data, "BWM V1.0", 8) == 0) && bwm_ascii_probe_text(data, size) > 0;
}

wm_result bwm_parse_any(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name, bwm_file *out,
                        size_t *image_size)
{
    *image_size = size;
    if (!bwm_is_text(data, size)) return bwm_parse(ctx, data, size, name, out);
    bwm_file file;
    wm_buffer image;
    wm_result r = bwm_ascii_read_file(ctx, (const char *)data, size, name, bwm_type_for_path(name), &file);
    if (r) return r;
    r = bwm_serialize(ctx, &file, &image); /* a parsed image: offsets and layout as a file has them */
    bwm_file_free(ctx, &file);
    if (r) return r;
    *image_size = image.size;
    r = bwm_parse(ctx, image.data, image.size, name, out);
    wm_buffer_free(&image);
    return r;
}
