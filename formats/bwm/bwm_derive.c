/* The sections a derived WOK (bwm_derived) does not keep, made as the
 * writer reaches them, each in the same work block: normals and distances,
 * the AABB tree, the adjacency. The bytes are those of the kept arrays
 * (the same functions make them); only their lifetimes are shorter. */
#include "bwm/bwm.h"

#include <stdint.h>

static void *aligned_in(uint8_t *work, size_t offset)
{
    return work + ((offset + 7) & ~(size_t)7);
}

static wm_result put_planes(wm_ctx *ctx, const bwm_file *f, bwm_put_fn put, void *stage)
{
    const bwm_derived *d = &f->derived;
    float *normals = (float *)d->work;
    float *distances = aligned_in(d->work, (size_t)f->face_count * 3 * sizeof(float));
    if ((uint8_t *)(distances + f->face_count) > d->work + d->work_size)
        return wm_error(ctx, WM_ERR_INVALID, "walkmesh work block too small for its planes");
    bwm_planes_into(ctx, f, normals, distances);
    wm_result r = put(stage, normals, (size_t)f->face_count * 3);
    return r ? r : put(stage, distances, f->face_count);
}

static wm_result put_adjacency(wm_ctx *ctx, const bwm_file *f, bwm_put_fn put, void *stage)
{
    const bwm_derived *d = &f->derived;
    size_t bytes = (size_t)f->adjacency_count * 3 * sizeof(int32_t);
    if (bytes > d->work_size)
        return wm_error(ctx, WM_ERR_INVALID, "walkmesh work block too small for its adjacency");
    int32_t *adjacency = (int32_t *)d->work;
    size_t offset = (bytes + 7) & ~(size_t)7, room = offset < d->work_size ? d->work_size - offset : 0;
    /* scratch beyond the block is allocated */
    wm_result r = bwm_adjacency_into(ctx, f, adjacency, room ? d->work + offset : NULL, room);
    return r ? r : put(stage, adjacency, (size_t)f->adjacency_count * 3);
}

wm_result bwm_put_derived(wm_ctx *ctx, const bwm_file *f, bwm_put_fn put, void *stage)
{
    const bwm_derived *d = &f->derived;
    if (d->work_size < bwm_aabb_stream_bytes(f->face_count))
        return wm_error(ctx, WM_ERR_INVALID, "walkmesh work block too small for its tree");
    wm_result r = put_planes(ctx, f, put, stage);
    if (!r) r = bwm_stream_aabb(f->vertices, f->faces, f->face_count, d->planes, d->work, put, stage);
    if (!r) r = put_adjacency(ctx, f, put, stage);
    return r;
}
