/* The BWM file object and its binary parse (the writer is bwm_write.c). */
#include "bwm/bwm.h"

#include <string.h>

const char bwm_magic[8] = {'B', 'W', 'M', ' ', 'V', '1', '.', '0'};

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
    if (memcmp(magic, bwm_magic, 8) != 0) {
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
