/* Face planes as BioWare's compiler stores them: the unit normal in floats,
 * the distance from that rounded normal. */
#include "bwm/bwm.h"

#include <math.h>
#include <string.h>

double bwm_face_cross(const bwm_file *f, uint32_t face, double n[3])
{
    const float *a = &f->vertices[3 * (size_t)f->faces[3 * (size_t)face]];
    const float *b = &f->vertices[3 * (size_t)f->faces[3 * (size_t)face + 1]];
    const float *c = &f->vertices[3 * (size_t)f->faces[3 * (size_t)face + 2]];
    double u[3], v[3];
    for (int k = 0; k < 3; k++) {
        u[k] = (double)b[k] - a[k];
        v[k] = (double)c[k] - a[k];
    }
    n[0] = u[1] * v[2] - u[2] * v[1];
    n[1] = u[2] * v[0] - u[0] * v[2];
    n[2] = u[0] * v[1] - u[1] * v[0];
    return sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

void bwm_compute_planes(wm_ctx *ctx, bwm_file *f, const bwm_build_input *fallback, const uint32_t *order)
{
    uint32_t degenerate = 0, downward = 0;
    for (uint32_t i = 0; i < f->face_count; i++) {
        const float *a = &f->vertices[3 * (size_t)f->faces[3 * (size_t)i]];
        double n[3];
        double len = bwm_face_cross(f, i, n);
        if (len > 0) {
            for (int k = 0; k < 3; k++) f->normals[3 * (size_t)i + k] = (float)(n[k] / len);
        } else {
            /* no plane: keep what the source file stored, else a horizontal plane through the face */
            if (degenerate++ < 5) wm_warn(ctx, "face %u: degenerate (zero area)", i);
            if (fallback && fallback->normals) {
                memcpy(&f->normals[3 * (size_t)i], &fallback->normals[3 * (size_t)order[i]], 3 * sizeof(float));
                f->distances[i] = fallback->distances[order[i]];
                continue;
            }
            f->normals[3 * (size_t)i] = f->normals[3 * (size_t)i + 1] = 0.0f;
            f->normals[3 * (size_t)i + 2] = 1.0f;
        }
        /* the distance comes from the stored (rounded) normal, as in BioWare's files */
        const float *fn = &f->normals[3 * (size_t)i];
        f->distances[i] = (float)-((double)fn[0] * a[0] + (double)fn[1] * a[1] + (double)fn[2] * a[2]);
        n[2] = fn[2];
        if (i < f->adjacency_count && n[2] < -1e-3 && downward++ < 5)
            wm_warn(ctx, "face %u: walkable face faces down (normal z %.3f)", i, n[2]);
    }
    if (degenerate > 5) wm_warn(ctx, "%u more degenerate faces", degenerate - 5);
    if (downward > 5) wm_warn(ctx, "%u more downward-facing walkable faces", downward - 5);
}

void bwm_plane_warnings(wm_ctx *ctx, const bwm_file *f)
{
    uint32_t degenerate = 0, downward = 0;
    for (uint32_t i = 0; i < f->face_count; i++) {
        const float *a = &f->vertices[3 * (size_t)f->faces[3 * (size_t)i]];
        const float *b = &f->vertices[3 * (size_t)f->faces[3 * (size_t)i + 1]];
        const float *c = &f->vertices[3 * (size_t)f->faces[3 * (size_t)i + 2]];
        /* the cross product's z as bwm_face_cross computes it: above 0, the face has an
         * area and faces up (most faces); else the whole plane decides */
        if (((double)b[0] - a[0]) * ((double)c[1] - a[1]) - ((double)b[1] - a[1]) * ((double)c[0] - a[0]) > 0)
            continue;
        double n[3];
        double len = bwm_face_cross(f, i, n);
        if (!(len > 0)) { /* bwm_compute_planes stores (0, 0, 1): not downward */
            if (degenerate++ < 5) wm_warn(ctx, "face %u: degenerate (zero area)", i);
            continue;
        }
        double z = (float)(n[2] / len); /* the stored normal's z */
        if (i < f->adjacency_count && z < -1e-3 && downward++ < 5)
            wm_warn(ctx, "face %u: walkable face faces down (normal z %.3f)", i, z);
    }
    if (degenerate > 5) wm_warn(ctx, "%u more degenerate faces", degenerate - 5);
    if (downward > 5) wm_warn(ctx, "%u more downward-facing walkable faces", downward - 5);
}

void bwm_planes_into(wm_ctx *ctx, const bwm_file *file, float *normals, float *distances)
{
    bwm_file f = *file;
    wm_ctx quiet = *ctx; /* the build said its warnings */
    quiet.warn = NULL;
    f.normals = normals;
    f.distances = distances;
    bwm_compute_planes(&quiet, &f, NULL, NULL);
}

