/* Assimp 5.2's glTF exporter lists KHR_materials_volume and FB_ngon_encoding
 * in extensionsUsed although nothing in the file uses them, and names
 * itself with the wrong version. A viewer then warns about extensions it
 * does not need; the file says instead which program wrote it. */
#include "assimp_module.h"

#include <string.h>

static const char *find(const char *text, size_t size, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= size; i++)
        if (memcmp(text + i, needle, n) == 0)
            return text + i;
    return NULL;
}

static int is_space(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Writes the JSON without the "extensionsUsed" member and with our generator. */
static void tidy_json(wm_buffer *out, const char *json, size_t size)
{
    const char *end = json + size;
    const char *cut_from = NULL, *cut_to = NULL;
    const char *key = find(json, size, "\"extensionsUsed\"");
    const char *close = key ? memchr(key, ']', (size_t)(end - key)) : NULL;
    if (key && close && !memchr(key, '{', (size_t)(close - key))) {
        /* the member and the comma after it (or, when it is the last one, before it) */
        const char *after = close + 1;
        while (after < end && is_space(*after))
            after++;
        const char *before = key;
        while (before > json && is_space(before[-1]))
            before--;
        if (after < end && *after == ',') {
            cut_from = key;
            cut_to = after + 1;
            while (cut_to < end && is_space(*cut_to))
                cut_to++;
        } else if (before > json && before[-1] == ',') {
            cut_from = before - 1;
            cut_to = close + 1;
        }
    }
    const char *generator = find(json, size, "\"generator\"");
    const char *value = generator ? memchr(generator + 11, '"', (size_t)(end - generator - 11)) : NULL;
    const char *value_end = value ? memchr(value + 1, '"', (size_t)(end - value - 1)) : NULL;
    if (value_end && cut_from && value < cut_to && value_end >= cut_from)
        value_end = NULL; /* overlapping (never in Assimp's layout): leave the generator */
    const char *p = json;
    while (p < end) {
        if (cut_from && p == cut_from) {
            p = cut_to;
            continue;
        }
        if (value_end && p == value + 1) {
            wm_put_text(out, "walkmesh %s", WALKMESH_VERSION);
            p = value_end;
            continue;
        }
        const char *stop = end;
        if (cut_from && cut_from > p && cut_from < stop)
            stop = cut_from;
        if (value_end && value + 1 > p && value + 1 < stop)
            stop = value + 1;
        wm_put_bytes(out, p, (size_t)(stop - p));
        p = stop;
    }
}

wm_result wm_gltf_tidy(wm_ctx *ctx, const uint8_t *data, size_t size, int binary, wm_buffer *out)
{
    wm_buffer_init(out, ctx);
    if (!binary) {
        tidy_json(out, (const char *)data, size);
        return out->status;
    }
    /* GLB: 12-byte header, then the JSON chunk (length, "JSON", text padded with spaces), then the rest */
    if (size < 20 || memcmp(data, "glTF", 4) != 0 || memcmp(data + 16, "JSON", 4) != 0 ||
        wm_le32(data + 12) > size - 20) {
        wm_put_bytes(out, data, size); /* not the layout we know: leave it as Assimp wrote it */
        return out->status;
    }
    uint32_t json_size = wm_le32(data + 12);
    wm_buffer json;
    wm_buffer_init(&json, ctx);
    tidy_json(&json, (const char *)data + 20, json_size);
    while (json.size % 4)
        wm_put_u8(&json, ' ');
    size_t rest = size - 20 - json_size;
    wm_put_bytes(out, data, 8); /* magic, version */
    wm_put_u32(out, (uint32_t)(12 + 8 + json.size + rest));
    wm_put_u32(out, (uint32_t)json.size);
    wm_put_bytes(out, "JSON", 4);
    wm_put_bytes(out, json.data, json.size);
    wm_put_bytes(out, data + 20 + json_size, rest);
    wm_result r = json.status ? json.status : out->status;
    wm_buffer_free(&json);
    return r;
}
