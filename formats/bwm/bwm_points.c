/* The header fields of a KotOR walkmesh that are not triangles (position,
 * use hooks) carried through the neutral mesh as named points. */
#include "bwm/bwm.h"
#include "wm_geometry.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const hook_names[4] = {BWM_POINT_HOOK1, BWM_POINT_HOOK2, BWM_POINT_ABS_HOOK1, BWM_POINT_ABS_HOOK2};

static float *hook_of(bwm_file *file, int i)
{
    return i < 2 ? file->rel_hook[i] : file->abs_hook[i - 2];
}

wm_result bwm_points_to_mesh(wm_ctx *ctx, const bwm_file *file, wm_mesh *mesh)
{
    wm_result r = wm_mesh_set_point(ctx, mesh, BWM_POINT_POSITION, file->position);
    for (int i = 0; !r && file->type == BWM_TYPE_PLACEABLE && i < 4; i++)
        r = wm_mesh_set_point(ctx, mesh, hook_names[i], hook_of((bwm_file *)file, i));
    return r;
}

int bwm_points_from_mesh(const wm_mesh *mesh, bwm_file *file)
{
    int found = 0;
    const wm_mesh_point *p = wm_mesh_find_point(mesh, BWM_POINT_POSITION);
    if (p) {
        memcpy(file->position, p->xyz, sizeof file->position);
        found++;
    }
    for (int i = 0; i < 4; i++) {
        p = wm_mesh_find_point(mesh, hook_names[i]);
        if (!p) continue;
        memcpy(hook_of(file, i), p->xyz, 3 * sizeof(float));
        found++;
    }
    return found;
}

wm_result bwm_room_offset_option(wm_ctx *ctx, const wm_options *opts, double out[3], int *given)
{
    const char *v = opts ? wm_option_get(opts, "room-offset") : NULL;
    int end = 0;
    *given = 0;
    if (!v) return WM_OK;
    if (sscanf(v, "%lf,%lf,%lf%n", &out[0], &out[1], &out[2], &end) != 3 || v[end] != '\0' || !isfinite(out[0]) ||
        !isfinite(out[1]) || !isfinite(out[2]))
        return wm_error(ctx, WM_ERR_OPTION, "--room-offset: \"%s\" is not X,Y,Z (finite numbers)", v);
    for (int k = 0; k < 3; k++)
        if (fabs(out[k]) > WM_COORD_LIMIT)
            return wm_error(ctx, WM_ERR_OPTION, "--room-offset: \"%s\": beyond the bound of 1e7 game units", v);
    *given = 1;
    return WM_OK;
}

uint32_t bwm_faces_losing_corners(const float *before, const uint32_t *before_faces, const float *after,
                                  uint32_t after_first, const uint32_t *after_faces, uint32_t face_count, uint32_t *first)
{
    uint32_t collapsed = 0;
    for (uint32_t f = 0; f < face_count; f++)
        for (int k = 0; k < 3; k++) {
            const float *a = &before[3 * (size_t)before_faces[3 * (size_t)f + k]];
            const float *b = &before[3 * (size_t)before_faces[3 * (size_t)f + (k + 1) % 3]];
            const float *pa = &after[3 * (size_t)(after_faces[3 * (size_t)f + k] - after_first)];
            const float *pb = &after[3 * (size_t)(after_faces[3 * (size_t)f + (k + 1) % 3] - after_first)];
            double apart = fmax(fabs(a[0] - b[0]), fmax(fabs(a[1] - b[1]), fabs(a[2] - b[2])));
            if (apart > BWM_KEPT_APART && pa[0] == pb[0] && pa[1] == pb[1] && pa[2] == pb[2]) {
                if (!collapsed++) *first = f;
                break;
            }
        }
    return collapsed;
}
