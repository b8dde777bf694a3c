/* Rebuilding a parsed walkmesh from its own geometry, keeping BioWare's tie
 * order where the file's tree gives it. */
#include "bwm/bwm.h"

#include <string.h>

/* Position of each face among the leaves of the file's tree in preorder;
 * NULL when the tree is not a sound 2F-1 preorder tree holding every face once. */
static uint32_t *leaf_order(wm_ctx *ctx, const bwm_file *f)
{
    if (f->type != BWM_TYPE_AREA || f->face_count == 0 || f->aabb_count != 2 * f->face_count - 1) return NULL;
    uint32_t *rank = wm_alloc_array(ctx, f->face_count, sizeof(uint32_t));
    if (!rank) return NULL;
    for (uint32_t i = 0; i < f->face_count; i++) rank[i] = BWM_NONE;
    uint32_t leaves = 0;
    for (uint32_t i = 0; i < f->aabb_count; i++) {
        int32_t face = f->aabb[i].face;
        if (face < 0) continue;
        if ((uint32_t)face >= f->face_count || rank[face] != BWM_NONE) {
            wm_free(ctx, rank);
            return NULL;
        }
        rank[face] = leaves++;
    }
    if (leaves != f->face_count) {
        wm_free(ctx, rank);
        return NULL;
    }
    return rank;
}

wm_result bwm_rebuild(wm_ctx *ctx, bwm_file *file, bwm_plane_style planes, int keep_tie_order)
{
    int32_t *transitions = NULL;
    bwm_file built;
    wm_result r = bwm_face_transitions(ctx, file, &transitions);
    if (r) return r;
    uint32_t *rank = keep_tie_order ? leaf_order(ctx, file) : NULL;
    bwm_build_input in = {file->type, file->vertices, file->vertex_count, file->faces, file->face_count,
                          file->materials, NULL, transitions, planes, file->normals, file->distances, rank};
    r = bwm_build(ctx, &in, &built);
    wm_free(ctx, transitions);
    wm_free(ctx, rank);
    if (r) return r;
    memcpy(built.rel_hook, file->rel_hook, sizeof(file->rel_hook));
    memcpy(built.abs_hook, file->abs_hook, sizeof(file->abs_hook));
    memcpy(built.position, file->position, sizeof(file->position));
    built.empty_offsets_zero = file->empty_offsets_zero;
    bwm_file_free(ctx, file);
    *file = built;
    return WM_OK;
}
