/* BWM binary serialize: to a buffer, a sink or a file. */
#include "bwm/bwm.h"

#include <string.h>

/* The serialiser stages the little-endian image in a small block and hands
 * it to a sink block by block, so a file is written without its whole image
 * in memory. Every value of the format is a 4-byte word. */
#define STAGE_WORDS 65536

typedef wm_result (*bwm_sink_fn)(wm_ctx *ctx, void *user, const uint8_t *data, size_t size);

/* The block's start is aligned to this, and so is every full block's place in the file,
 * which lets the output go to the disk around the file cache (see wm_platform_write). */
#define STAGE_ALIGN 4096

typedef struct stage {
    wm_ctx *ctx;
    void *block;   /* as allocated */
    uint8_t *data; /* inside block, aligned to STAGE_ALIGN */
    size_t used;
    bwm_sink_fn sink;
    void *user;
    wm_result status;
} stage;

static void stage_flush(stage *s)
{
    if (!s->status && s->used) s->status = s->sink(s->ctx, s->user, s->data, s->used);
    s->used = 0;
}

static void put_words(stage *s, const void *words, size_t count)
{
    const uint8_t *w = words;
    while (count > 0 && !s->status) {
        size_t room = STAGE_WORDS - s->used / 4, n = count < room ? count : room;
        uint8_t *p = s->data + s->used;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(p, w, n * 4); /* the file's byte order already */
#else
        for (size_t i = 0; i < n; i++, p += 4) {
            uint32_t v;
            memcpy(&v, w + 4 * i, 4); /* floats too: their bits, without breaking aliasing rules */
            p[0] = (uint8_t)v;
            p[1] = (uint8_t)(v >> 8);
            p[2] = (uint8_t)(v >> 16);
            p[3] = (uint8_t)(v >> 24);
        }
#endif
        s->used += n * 4;
        w += 4 * n;
        count -= n;
        if (s->used == (size_t)STAGE_WORDS * 4) stage_flush(s);
    }
}

static wm_result put_words_status(void *s, const void *words, size_t count)
{
    put_words(s, words, count);
    return ((stage *)s)->status;
}

/* Byte size of the file and the section offsets it will have. */
static wm_result layout(wm_ctx *ctx, const bwm_file *f, uint32_t off[BWM_SEC_COUNT], size_t *out_size)
{
    const uint64_t counts[BWM_SEC_COUNT] = {f->vertex_count, f->face_count, f->face_count, f->face_count,
                                            f->face_count, f->aabb_count, f->adjacency_count, f->edge_count,
                                            f->perimeter_count};
    const size_t sizes[BWM_SEC_COUNT] = {12, 12, 4, 12, 4, 44, 12, 8, 4};
    uint64_t pos = BWM_HEADER_SIZE;

    for (int s = 0; s < BWM_SEC_COUNT; s++) {
        off[s] = (counts[s] == 0 && f->empty_offsets_zero) ? 0 : (uint32_t)pos;
        pos += counts[s] * sizes[s];
    }
    if (pos > 0xFFFFFFFFull) return wm_error(ctx, WM_ERR_LIMIT, "walkmesh too large for 32-bit offsets");
    *out_size = (size_t)pos;
    return WM_OK;
}

static wm_result serialize_to(wm_ctx *ctx, const bwm_file *f, const uint32_t off[BWM_SEC_COUNT], bwm_sink_fn sink,
                              void *user)
{
    stage s = {ctx, wm_alloc_array(ctx, STAGE_WORDS * 4 + STAGE_ALIGN, 1), NULL, 0, sink, user, WM_OK};
    if (!s.block) return WM_ERR_NOMEM;
    s.data = (uint8_t *)s.block + (STAGE_ALIGN - (uintptr_t)s.block % STAGE_ALIGN) % STAGE_ALIGN;
    memcpy(s.data, bwm_magic, 8); /* bytes as they are, not words */
    s.used = 8;
    put_words(&s, &f->type, 1);
    put_words(&s, &f->rel_hook[0][0], 6);
    put_words(&s, &f->abs_hook[0][0], 6);
    put_words(&s, f->position, 3);
    const uint32_t header[16] = {f->vertex_count, off[BWM_SEC_VERTICES], f->face_count, off[BWM_SEC_FACES],
                                 off[BWM_SEC_MATERIALS], off[BWM_SEC_NORMALS], off[BWM_SEC_DISTANCES],
                                 f->aabb_count, off[BWM_SEC_AABB], f->aabb_root, f->adjacency_count,
                                 off[BWM_SEC_ADJACENCY], f->edge_count, off[BWM_SEC_EDGES], f->perimeter_count,
                                 off[BWM_SEC_PERIMETERS]};
    put_words(&s, header, 16);
    put_words(&s, f->vertices, (size_t)f->vertex_count * 3);
    put_words(&s, f->faces, (size_t)f->face_count * 3);
    put_words(&s, f->materials, f->face_count);
    if (f->derived.work) {
        wm_result r = bwm_put_derived(ctx, f, put_words_status, &s);
        if (!s.status) s.status = r;
    } else {
        put_words(&s, f->normals, (size_t)f->face_count * 3);
        put_words(&s, f->distances, f->face_count);
        for (uint32_t i = 0; i < f->aabb_count && !s.status; i++) {
            uint32_t w[11];
            bwm_node_words(&f->aabb[i], w);
            put_words(&s, w, 11);
        }
        put_words(&s, f->adjacency, (size_t)f->adjacency_count * 3); /* int32_t: two's complement bits */
    }
    for (uint32_t i = 0; i < f->edge_count && !s.status; i++) {
        const uint32_t w[2] = {f->edges[i].code, (uint32_t)f->edges[i].transition};
        put_words(&s, w, 2);
    }
    put_words(&s, f->perimeters, f->perimeter_count);
    stage_flush(&s);
    wm_free(ctx, s.block);
    return s.status;
}

static wm_result sink_to_buffer(wm_ctx *ctx, void *user, const uint8_t *data, size_t size)
{
    (void)ctx;
    wm_put_bytes(user, data, size);
    return ((wm_buffer *)user)->status;
}

wm_result bwm_serialize(wm_ctx *ctx, const bwm_file *f, wm_buffer *b)
{
    uint32_t off[BWM_SEC_COUNT];
    size_t size;
    wm_result r = layout(ctx, f, off, &size);
    if (r) return r;
    wm_buffer_init(b, ctx);
    if (wm_buffer_reserve(b, size)) return b->status;
    r = serialize_to(ctx, f, off, sink_to_buffer, b);
    if (r) wm_buffer_free(b);
    return r;
}

static wm_result sink_to_output(wm_ctx *ctx, void *user, const uint8_t *data, size_t size)
{
    (void)ctx;
    return wm_sink_write(user, NULL, data, size);
}

wm_result bwm_write_sink(wm_ctx *ctx, const bwm_file *file, wm_sink *sink)
{
    uint32_t off[BWM_SEC_COUNT];
    size_t size;
    wm_result r = layout(ctx, file, off, &size);
    return r ? r : serialize_to(ctx, file, off, sink_to_output, sink);
}

wm_result bwm_write_file(wm_ctx *ctx, const bwm_file *file, const char *path, int overwrite)
{
    wm_sink *sink = NULL;
    wm_result r = wm_sink_open(ctx, path, overwrite, &sink);
    if (!r && !(r = bwm_write_sink(ctx, file, sink)))
        r = wm_sink_commit(sink);
    wm_sink_close(sink);
    return r;
}
