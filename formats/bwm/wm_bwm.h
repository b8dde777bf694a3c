/* KotOR walkmesh queries, public: the height under a point and the face a ray hits, answered
 * through the file's own AABB tree (area walkmeshes, .wok). */
#ifndef WM_BWM_PUBLIC_H
#define WM_BWM_PUBLIC_H

#include "wm_api.h"
#include "wm_context.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A parsed binary walkmesh (opaque). */
typedef struct wm_bwm_walkmesh wm_bwm_walkmesh;

typedef struct wm_bwm_hit {
    int found;        /* 0: no walkable face under the point / the ray hits nothing */
    uint32_t face;    /* face index in the file */
    uint32_t material;/* the face's surface material (KotOR surface id) */
    float t;          /* raycast: distance along the direction, in its units */
    float point[3];   /* the point on the face */
} wm_bwm_hit;

/* Parses the binary walkmesh file image data[0..size) (source names it in messages). Bytes
 * that are not a binary walkmesh (wrong magic) are WM_ERR_NOT_FORMAT; a damaged one
 * WM_ERR_TRUNCATED or WM_ERR_CORRUPT. */
WM_API wm_result wm_bwm_open(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source,
                             wm_bwm_walkmesh **out);
WM_API void wm_bwm_close(const wm_ctx *ctx, wm_bwm_walkmesh *walkmesh);

/* The walkable face under (x, y): with several levels the highest, or the one whose height is
 * nearest z_ref when z_ref is finite. A walkmesh without an AABB tree (a .pwk or .dwk) is
 * WM_ERR_UNSUPPORTED. */
WM_API wm_result wm_bwm_height_at(wm_ctx *ctx, const wm_bwm_walkmesh *walkmesh, float x, float y, float z_ref,
                                  wm_bwm_hit *out);
/* The nearest face, walkable or not, hit by the ray origin + t * dir (t >= 0). A zero
 * direction is WM_ERR_INVALID. */
WM_API wm_result wm_bwm_raycast(wm_ctx *ctx, const wm_bwm_walkmesh *walkmesh, const float origin[3],
                                const float dir[3], wm_bwm_hit *out);

#ifdef __cplusplus
}
#endif
#endif
