/* BWM binary parse and serialize. */
#include "bwm/bwm.h"

#include <string.h>

static const char BWM_MAGIC[8] = {'B', 'W', 'M', ' ', 'V', '1', '.', '0'};

void bwm_file_init(bwm_file *file)
{
    memset(file, 0, sizeof(*file));
}

void bwm_file_free(const wm_ctx *ctx, bwm_file *file)
{
    if (!(file->borrowed & BWM_BORROWED_VERTICES)) wm_free(ctx, file->vertices);
    if (!(file->borrowed & BWM_BORROWED_FACES)) wm_free(ctx, file->faces);
    wm_free(ctx, file->materials);
    wm_free(ctx, file->normals);
    wm_free(ctx, file->distances);
    wm_free(ctx, file->aabb);
    wm_free(ctx, file->adjacency);
    wm_free(ctx, file->derived.work);
    wm_free(ctx, file->edges);
    wm_free(ctx, file->perimeters);
    bwm_file_init(file);
}

static wm_result read_floats(wm_cursor *cur, float *out, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        wm_result r = wm_read_f32(cur, &out[i], what);
        if (r) return r;
    }
    return WM_OK;
}

static wm_result read_u32s(wm_cursor *cur, uint32_t *out, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        wm_result r = wm_read_u32(cur, &out[i], what);
        if (r) return r;
    }
    return WM_OK;
}

/* Seeks to a section, checks count*elem fits and is within limits, allocates. */
static wm_result open_section(wm_cursor *cur, uint32_t offset, uint64_t count, size_t elem_size,
                              size_t alloc_elem, const char *what, void **out)
{
    wm_result r;
    *out = NULL;
    if (count == 0) return WM_OK;
    r = wm_cursor_seek(cur, offset, what);
    if (r) return r;
    r = wm_cursor_check_array(cur, count, elem_size, 0, what);
    if (r) return r;
    *out = wm_alloc_array(cur->ctx, (size_t)count, alloc_elem);
    return *out ? WM_OK : WM_ERR_NOMEM;
}

static wm_result parse_aabb(wm_cursor *cur, bwm_file *f)
{
    for (uint32_t i = 0; i < f->aabb_count; i++) {
        bwm_aabb_node *n = &f->aabb[i];
        wm_result r = read_floats(cur, n->min, 3, "AABB node min");
        if (!r) r = read_floats(cur, n->max, 3, "AABB node max");
        if (!r) r = wm_read_i32(cur, &n->face, "AABB node face");
        if (!r) r = wm_read_u32(cur, &n->constant, "AABB node constant");
        if (!r) r = wm_read_u32(cur, &n->plane, "AABB node plane");
        if (!r) r = wm_read_u32(cur, &n->left, "AABB node left child");
        if (!r) r = wm_read_u32(cur, &n->right, "AABB node right child");
        if (r) return r;
    }
    return WM_OK;
}

static wm_result parse_sections(wm_cursor *cur, bwm_file *f)
{
    wm_result r;
    const uint32_t *o = f->offsets;
    r = open_section(cur, o[BWM_SEC_VERTICES], (uint64_t)f->vertex_count, 12, 12, "vertices", (void **)&f->vertices);
    if (!r) r = read_floats(cur, f->vertices, (size_t)f->vertex_count * 3, "vertex");
    if (!r) r = open_section(cur, o[BWM_SEC_FACES], f->face_count, 12, 12, "faces", (void **)&f->faces);
    if (!r) r = read_u32s(cur, f->faces, (size_t)f->face_count * 3, "face index");
    if (!r) r = open_section(cur, o[BWM_SEC_MATERIALS], f->face_count, 4, 4, "materials", (void **)&f->materials);
    if (!r) r = read_u32s(cur, f->materials, f->face_count, "material");
    if (!r) r = open_section(cur, o[BWM_SEC_NORMALS], f->face_count, 12, 12, "normals", (void **)&f->normals);
    if (!r) r = read_floats(cur, f->normals, (size_t)f->face_count * 3, "normal");
    if (!r) r = open_section(cur, o[BWM_SEC_DISTANCES], f->face_count, 4, 4, "distances", (void **)&f->distances);
    if (!r) r = read_floats(cur, f->distances, f->face_count, "distance");
    if (!r) r = open_section(cur, o[BWM_SEC_AABB], f->aabb_count, 44, sizeof(bwm_aabb_node), "AABB nodes",
                             (void **)&f->aabb);
    if (!r) r = parse_aabb(cur, f);
    if (!r) r = open_section(cur, o[BWM_SEC_ADJACENCY], f->adjacency_count, 12, 12, "adjacency",
                             (void **)&f->adjacency);
    for (size_t i = 0; !r && i < (size_t)f->adjacency_count * 3; i++)
        r = wm_read_i32(cur, &f->adjacency[i], "adjacency");
    if (!r) r = open_section(cur, o[BWM_SEC_EDGES], f->edge_count, 8, sizeof(bwm_edge), "edges", (void **)&f->edges);
    for (uint32_t i = 0; !r && i < f->edge_count; i++) {
        r = wm_read_u32(cur, &f->edges[i].code, "edge code");
        if (!r) r = wm_read_i32(cur, &f->edges[i].transition, "edge transition");
    }
    if (!r) r = open_section(cur, o[BWM_SEC_PERIMETERS], f->perimeter_count, 4, 4, "perimeters",
                             (void **)&f->perimeters);
    if (!r) r = read_u32s(cur, f->perimeters, f->perimeter_count, "perimeter");
    return r;
}

wm_result bwm_parse(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, bwm_file *out)
{
    wm_cursor cur;
    uint8_t magic[8];
    uint32_t h[16];
    wm_result r;
    bwm_file *f = out;

    bwm_file_init(f);
    wm_cursor_init(&cur, ctx, data, size, source ? source : "<memory>");
    r = wm_read_bytes(&cur, magic, 8, "BWM magic");
    if (r) return r;
    if (memcmp(magic, BWM_MAGIC, 8) != 0) {
        cur.pos = 0;
        return wm_cursor_error(&cur, WM_ERR_NOT_FORMAT, "not a binary walkmesh (magic is not \"BWM V1.0\")");
    }
    r = wm_read_u32(&cur, &f->type, "walkmesh type");
    if (!r) r = read_floats(&cur, &f->rel_hook[0][0], 3, "relative use hook 1");
    if (!r) r = read_floats(&cur, &f->rel_hook[1][0], 3, "relative use hook 2");
    if (!r) r = read_floats(&cur, &f->abs_hook[0][0], 3, "absolute use hook 1");
    if (!r) r = read_floats(&cur, &f->abs_hook[1][0], 3, "absolute use hook 2");
    if (!r) r = read_floats(&cur, f->position, 3, "position");
    if (!r) r = read_u32s(&cur, h, 16, "header counts and offsets");
    if (r) return r;

    f->vertex_count = h[0];
    f->offsets[BWM_SEC_VERTICES] = h[1];
    f->face_count = h[2];
    f->offsets[BWM_SEC_FACES] = h[3];
    f->offsets[BWM_SEC_MATERIALS] = h[4];
    f->offsets[BWM_SEC_NORMALS] = h[5];
    f->offsets[BWM_SEC_DISTANCES] = h[6];
    f->aabb_count = h[7];
    f->offsets[BWM_SEC_AABB] = h[8];
    f->aabb_root = h[9];
    f->adjacency_count = h[10];
    f->offsets[BWM_SEC_ADJACENCY] = h[11];
    f->edge_count = h[12];
    f->offsets[BWM_SEC_EDGES] = h[13];
    f->perimeter_count = h[14];
    f->offsets[BWM_SEC_PERIMETERS] = h[15];

    r = wm_check_count(ctx, f->vertex_count, "vertex count");
    if (!r) r = wm_check_count(ctx, f->face_count, "face count");
    if (r) {
        wm_error_prefix(ctx, cur.source);
        return r;
    }
    r = parse_sections(&cur, f);
    if (!r) {
        for (size_t i = 0; i < (size_t)f->face_count * 3; i++) {
            if (f->faces[i] >= f->vertex_count) {
                r = wm_error(ctx, WM_ERR_CORRUPT, "%s: face %u vertex %u: index %u out of range (%u vertices)",
                             cur.source, (unsigned)(i / 3), (unsigned)(i % 3), f->faces[i], f->vertex_count);
                break;
            }
        }
    }
    if (!r) r = bwm_check_aabb_links(ctx, f, cur.source);
    if (!r) {
        const uint32_t counts[BWM_SEC_COUNT] = {f->vertex_count, f->face_count, f->face_count, f->face_count,
                                                f->face_count, f->aabb_count, f->adjacency_count, f->edge_count,
                                                f->perimeter_count};
        for (int s = 0; s < BWM_SEC_COUNT; s++)
            if (counts[s] == 0 && f->offsets[s] == 0) f->empty_offsets_zero = 1;
    }
    if (r) bwm_file_free(ctx, f);
    return r;
}

wm_result bwm_read_file(wm_ctx *ctx, const char *path, bwm_file *out)
{
    uint8_t *data = NULL;
    size_t size = 0;
    wm_result r = wm_file_read(ctx, path, &data, &size);
    bwm_file_init(out);
    if (r) return r;
    r = bwm_parse(ctx, data, size, path, out);
    wm_free(ctx, data);
    return r;
}

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
    memcpy(s.data, BWM_MAGIC, 8); /* bytes as they are, not words */
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
