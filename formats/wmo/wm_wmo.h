/* WoW WMO operations beyond conversion, public: the MOPY record behind each collision triangle
 * of the mesh the wmo reader makes, so a user sees why a triangle collides (FORMAT-NOTES
 * section 3: flags 0x08 collision, 0x20 render, 0x04 detail...; material 0xFF collision only). */
#ifndef WM_WMO_PUBLIC_H
#define WM_WMO_PUBLIC_H

#include "wm_api.h"
#include "wm_context.h"
#include "wm_format.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_WMO_NONE 0xFFFFFFFFu /* a liquid tile's triangle: no MOPY record */

/* Per triangle of the mesh wm_mesh_load makes of the WMO at path (in the same order, with the
 * same options: collision-rule, liquids): its index in its group file's triangles (MOPY/MOVI
 * order; the group is the mesh triangle's object) and that triangle's MOPY flags and material.
 * A liquid tile's triangles have index WM_WMO_NONE, flags 0 and material 0. */
typedef struct wm_wmo_triangles {
    uint32_t count;     /* the mesh's triangle count */
    uint32_t *index;
    uint8_t *flags;
    uint8_t *material;
} wm_wmo_triangles;

/* A root (read with its groups, from beside it) or one group file. Bytes that are not a WMO are
 * WM_ERR_NOT_FORMAT. Free *out with wm_wmo_triangles_free, after a failure too. */
WM_API wm_result wm_wmo_triangles_load(wm_ctx *ctx, const char *path, const wm_options *opts,
                                       wm_wmo_triangles *out);
WM_API void wm_wmo_triangles_free(wm_ctx *ctx, wm_wmo_triangles *triangles);

#ifdef __cplusplus
}
#endif
#endif
