/* The public MOPY records of a WMO's mesh triangles (wm_wmo.h), collected by the reader itself
 * so they line up with the mesh whatever the rule and options. */
#include "wm_wmo.h"
#include "wmo.h"

#include <string.h>

void wm_wmo_triangles_free(wm_ctx *ctx, wm_wmo_triangles *triangles)
{
    wm_free(ctx, triangles->index);
    wm_free(ctx, triangles->flags);
    wm_free(ctx, triangles->material);
    memset(triangles, 0, sizeof *triangles);
}

/* Decodes the reader's origin records (WMO_ORIGIN_SIZE bytes each) into *out. */
static wm_result unpack(wm_ctx *ctx, const wm_buffer *origins, uint32_t count, wm_wmo_triangles *out)
{
    if (origins->size != (size_t)count * WMO_ORIGIN_SIZE)
        return wm_error(ctx, WM_ERR_CORRUPT, "WMO: %zu triangle records for %u triangles",
                        origins->size / WMO_ORIGIN_SIZE, count);
    size_t n = count ? count : 1;
    out->index = wm_alloc_array(ctx, n, sizeof *out->index);
    out->flags = wm_alloc_array(ctx, n, 1);
    out->material = wm_alloc_array(ctx, n, 1);
    if (!out->index || !out->flags || !out->material)
        return WM_ERR_NOMEM;
    for (uint32_t t = 0; t < count; t++) {
        const uint8_t *record = origins->data + (size_t)t * WMO_ORIGIN_SIZE;
        out->index[t] = wm_le32(record);
        out->flags[t] = record[4];
        out->material[t] = record[5];
    }
    out->count = count;
    return WM_OK;
}

wm_result wm_wmo_triangles_load(wm_ctx *ctx, const char *path, const wm_options *opts, wm_wmo_triangles *out)
{
    memset(out, 0, sizeof *out);
    wm_input in;
    wm_result r = wm_input_load(ctx, path, &in);
    if (r)
        return r;
    wm_mesh mesh;
    wm_buffer origins;
    wm_buffer_init(&origins, ctx);
    r = wmo_read_mesh(ctx, &in, opts, &mesh, NULL, &origins); /* frees the mesh when it fails */
    if (!r) {
        r = origins.status ? origins.status : unpack(ctx, &origins, mesh.triangle_count, out);
        wm_mesh_free(ctx, &mesh);
    }
    wm_buffer_free(&origins);
    wm_input_free(ctx, &in);
    return r;
}
