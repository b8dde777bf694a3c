/* The public queries (wm_bwm.h) over the module's own parser and AABB queries. */
#include "bwm.h"
#include "wm_bwm.h"

#include <string.h>

struct wm_bwm_walkmesh {
    bwm_file file;
};

wm_result wm_bwm_open(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, wm_bwm_walkmesh **out)
{
    *out = NULL;
    wm_bwm_walkmesh *w = wm_alloc_array(ctx, 1, sizeof *w);
    if (!w)
        return WM_ERR_NOMEM;
    wm_result r = bwm_parse(ctx, data, size, source, &w->file);
    if (r) {
        wm_bwm_close(ctx, w);
        return r;
    }
    *out = w;
    return WM_OK;
}

void wm_bwm_close(const wm_ctx *ctx, wm_bwm_walkmesh *walkmesh)
{
    if (!walkmesh)
        return;
    bwm_file_free(ctx, &walkmesh->file);
    wm_free(ctx, walkmesh);
}

/* The module says "nothing there" with WM_ERR_INVALID after a successful search (its only
 * use of that code once the direction is checked); the public call says it with found = 0,
 * so a caller never reads the message to tell them apart. */
static wm_result nothing_there(wm_result r)
{
    return r == WM_ERR_INVALID ? WM_OK : r;
}

wm_result wm_bwm_height_at(wm_ctx *ctx, const wm_bwm_walkmesh *walkmesh, float x, float y, float z_ref,
                           wm_bwm_hit *out)
{
    memset(out, 0, sizeof *out);
    uint32_t face = 0;
    float z = 0;
    wm_result r = bwm_face_at(ctx, &walkmesh->file, x, y, z_ref, &face, &z);
    if (r)
        return nothing_there(r);
    out->face = face;
    out->material = walkmesh->file.materials[face];
    out->point[0] = x;
    out->point[1] = y;
    out->point[2] = z;
    out->found = 1;
    return WM_OK;
}

wm_result wm_bwm_raycast(wm_ctx *ctx, const wm_bwm_walkmesh *walkmesh, const float origin[3], const float dir[3],
                         wm_bwm_hit *out)
{
    memset(out, 0, sizeof *out);
    if (dir[0] == 0 && dir[1] == 0 && dir[2] == 0)
        return wm_error(ctx, WM_ERR_INVALID, "the ray direction is zero");
    uint32_t face = 0;
    float t = 0;
    wm_result r = bwm_raycast(ctx, &walkmesh->file, origin, dir, &face, &t);
    if (r)
        return nothing_there(r);
    out->face = face;
    out->material = walkmesh->file.materials[face];
    out->t = t;
    for (int k = 0; k < 3; k++)
        out->point[k] = origin[k] + t * dir[k];
    out->found = 1;
    return WM_OK;
}
