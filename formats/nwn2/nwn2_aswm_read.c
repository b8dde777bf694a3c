/* Parser of the uncompressed ASWM walkmesh, version 0x6c. */
#include "nwn2.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define ASWM_HEADER_SIZE 53u
#define EDGE_SIZE 16u
#define TRIANGLE_SIZE 64u
#define TILE_MIN_SIZE (57u + 13u + 4u)
#define ISLAND_MIN_SIZE (24u + 12u)
#define ISLAND_PATH_SIZE 8u

/* Arrays are taken from the cursor as one bounded view, then decoded
 * (a call per field made parsing a third of `info`'s time). */
static inline uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint16_t le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline float lef32(const uint8_t *p)
{
    uint32_t u = le32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The model's structs are laid out as the file's records (the shared parse points at them). */
_Static_assert(sizeof(nwn2_edge) == EDGE_SIZE, "nwn2_edge is a 16-byte edge record");
_Static_assert(sizeof(nwn2_triangle) == TRIANGLE_SIZE && offsetof(nwn2_triangle, centre) == 36 &&
                   offsetof(nwn2_triangle, normal) == 44 && offsetof(nwn2_triangle, d) == 56 &&
                   offsetof(nwn2_triangle, island) == 60 && offsetof(nwn2_triangle, flags) == 62,
               "nwn2_triangle is a 64-byte triangle record");
_Static_assert(sizeof(nwn2_island_path) == ISLAND_PATH_SIZE && offsetof(nwn2_island_path, weight) == 4,
               "nwn2_island_path is an 8-byte path record");

/* Decoders of `bytes` file bytes into an array of the model (little-endian fields). */
typedef wm_result (*decode_fn)(wm_cursor *cur, void *out, size_t bytes, const char *what);

/* u32 and f32 fields alike: a float is decoded by its bits */
static wm_result decode_words(wm_cursor *cur, void *out, size_t bytes, const char *what)
{
    const uint8_t *p;
    wm_result r = wm_read_view(cur, &p, bytes, what);
    uint8_t *o = out;
    for (size_t i = 0; !r && i + 4 <= bytes; i += 4) {
        uint32_t w = le32(p + i);
        memcpy(o + i, &w, 4);
    }
    return r;
}

static wm_result decode_bytes(wm_cursor *cur, void *out, size_t bytes, const char *what)
{
    return wm_read_bytes(cur, out, bytes, what);
}

static wm_result decode_triangles(wm_cursor *cur, void *out, size_t bytes, const char *what)
{
    const uint8_t *p;
    wm_result r = wm_read_view(cur, &p, bytes, what);
    nwn2_triangle *tris = out;
    for (size_t i = 0; !r && i < bytes / TRIANGLE_SIZE; i++, p += TRIANGLE_SIZE) {
        nwn2_triangle *t = &tris[i];
        for (int k = 0; k < 3; k++) {
            t->v[k] = le32(p + 4 * k);
            t->edge[k] = le32(p + 12 + 4 * k);
            t->neighbour[k] = le32(p + 24 + 4 * k);
            t->normal[k] = lef32(p + 44 + 4 * k);
        }
        t->centre[0] = lef32(p + 36);
        t->centre[1] = lef32(p + 40);
        t->d = lef32(p + 56);
        t->island = le16(p + 60);
        t->flags = le16(p + 62);
    }
    return r;
}

static wm_result decode_island_paths(wm_cursor *cur, void *out, size_t bytes, const char *what)
{
    const uint8_t *p;
    wm_result r = wm_read_view(cur, &p, bytes, what);
    nwn2_island_path *paths = out;
    for (size_t i = 0; !r && i < bytes / ISLAND_PATH_SIZE; i++, p += ISLAND_PATH_SIZE) {
        paths[i].next = le16(p);
        paths[i].padding = le16(p + 2);
        paths[i].weight = lef32(p + 4);
    }
    return r;
}

static int host_is_little_endian(void)
{
    const uint16_t probe = 1;
    uint8_t low;
    memcpy(&low, &probe, 1);
    return low == 1;
}

/* The next count records as they lie in the bytes read, when the model shares
 * them and they are the host's layout (little-endian, aligned); else NULL. */
static void *shared_view(wm_cursor *cur, const nwn2_aswm *a, uint64_t count, size_t elem_size, size_t align)
{
    const uint8_t *p = cur->data + cur->pos;
    if (!a->shared || count == 0 || (uintptr_t)p % align != 0 || !host_is_little_endian())
        return NULL;
    cur->pos += (size_t)count * elem_size; /* checked to fit by the caller */
    return (void *)(uintptr_t)p;               /* the shared bytes are the file's own (writable) */
}

/* count records of elem_size bytes (in the file and in the model), checked
 * against the data left and the limit (0: ctx's triangle limit), then shared
 * or allocated and decoded. */
static wm_result take_array(wm_cursor *cur, const nwn2_aswm *a, uint64_t count, size_t elem_size, size_t align,
                            uint64_t limit, decode_fn decode, const char *what, void **out)
{
    wm_result r = wm_cursor_check_array(cur, count, elem_size, limit, what);
    if (r)
        return r;
    if ((*out = shared_view(cur, a, count, elem_size, align)))
        return WM_OK;
    /* not cleared: the decoders fill every byte */
    *out = count ? wm_realloc_array(cur->ctx, NULL, (size_t)count, elem_size) : wm_alloc_array(cur->ctx, 1, elem_size);
    if (!*out)
        return WM_ERR_NOMEM;
    return decode(cur, *out, (size_t)count * elem_size, what);
}

static wm_result take_words(wm_cursor *cur, const nwn2_aswm *a, uint64_t count, const char *what, void **out)
{
    return take_array(cur, a, count, 4, 4, 0, decode_words, what, out);
}

static wm_result read_tile(wm_cursor *cur, const nwn2_aswm *a, nwn2_tile *t, uint32_t index)
{
    char what[64];
    wm_result r;
    snprintf(what, sizeof what, "tile %u header", index);
    if ((r = wm_read_bytes(cur, t->name, sizeof t->name, what)) || (r = wm_read_u8(cur, &t->owns_data, what)) ||
        (r = wm_read_u32(cur, &t->vertex_count, what)) || (r = wm_read_u32(cur, &t->edge_count, what)) ||
        (r = wm_read_u32(cur, &t->triangle_count, what)) || (r = wm_read_f32(cur, &t->size_x, what)) ||
        (r = wm_read_f32(cur, &t->size_y, what)) || (r = wm_read_u32(cur, &t->triangle_offset, what)))
        return r;
    if (t->owns_data) {
        snprintf(what, sizeof what, "tile %u vertices", index);
        if ((r = take_array(cur, a, t->vertex_count, 12, 4, 0, decode_words, what, (void **)&t->vertices)))
            return r;
        snprintf(what, sizeof what, "tile %u edges", index);
        if ((r = take_array(cur, a, t->edge_count, EDGE_SIZE, 4, 0, decode_words, what, (void **)&t->edges)))
            return r;
    }
    snprintf(what, sizeof what, "tile %u path table header", index);
    if ((r = wm_read_u32(cur, &t->path_flags, what)) || (r = wm_read_u32(cur, &t->local_count, what)) ||
        (r = wm_read_u8(cur, &t->node_count, what)) || (r = wm_read_u32(cur, &t->rle_size, what)))
        return r;
    if (t->path_flags != 0 || t->rle_size != 0) {
        uint32_t lc = t->local_count;
        t->local_count = 0;
        t->node_count = 0;
        return wm_cursor_error(cur, WM_ERR_UNSUPPORTED,
                               "tile %u: compressed path table (flags %u, rle size %u) is not supported (local count %u)",
                               index, t->path_flags, t->rle_size, lc);
    }
    uint32_t local = t->local_count;
    uint8_t nodes = t->node_count;
    t->local_count = 0; /* counts describe the arrays: set once they exist */
    t->node_count = 0;
    snprintf(what, sizeof what, "tile %u local_to_node", index);
    if ((r = take_array(cur, a, local, 1, 1, 0, decode_bytes, what, (void **)&t->local_to_node)))
        return r;
    t->local_count = local;
    snprintf(what, sizeof what, "tile %u node_to_local", index);
    if ((r = take_words(cur, a, nodes, what, (void **)&t->node_to_local)))
        return r;
    snprintf(what, sizeof what, "tile %u nodes", index);
    if ((r = take_array(cur, a, (uint64_t)nodes * nodes, 1, 1, 0, decode_bytes, what, (void **)&t->nodes)))
        return r;
    t->node_count = nodes;
    snprintf(what, sizeof what, "tile %u flags", index);
    return wm_read_u32(cur, &t->flags, what);
}

static wm_result read_island(wm_cursor *cur, const nwn2_aswm *a, nwn2_island *is, uint32_t index)
{
    char what[64];
    wm_result r;
    snprintf(what, sizeof what, "island %u header", index);
    if ((r = wm_read_u32(cur, &is->index, what)) || (r = wm_read_u32(cur, &is->tile, what)) ||
        (r = wm_read_f32(cur, &is->centre[0], what)) || (r = wm_read_f32(cur, &is->centre[1], what)) ||
        (r = wm_read_f32(cur, &is->centre[2], what)) || (r = wm_read_u32(cur, &is->triangle_count, what)))
        return r;
    uint32_t n;
    snprintf(what, sizeof what, "island %u adjacent islands", index);
    if ((r = wm_read_u32(cur, &n, what)) || (r = take_words(cur, a, n, what, (void **)&is->adjacent)))
        return r;
    is->adjacent_count = n;
    snprintf(what, sizeof what, "island %u distances", index);
    if ((r = wm_read_u32(cur, &n, what)) || (r = take_words(cur, a, n, what, (void **)&is->distance)))
        return r;
    is->distance_count = n;
    snprintf(what, sizeof what, "island %u exit triangles", index);
    if ((r = wm_read_u32(cur, &n, what)) || (r = take_words(cur, a, n, what, (void **)&is->exit)))
        return r;
    is->exit_count = n;
    return WM_OK;
}

/* Header, vertices, edges and triangles. */
static wm_result read_mesh(wm_cursor *cur, nwn2_aswm *a)
{
    wm_result r;
    uint32_t nv, ne, nt;
    if ((r = wm_read_u32(cur, &a->version, "ASWM version")))
        return r;
    if (a->version != NWN2_ASWM_VERSION)
        return wm_cursor_error(cur, WM_ERR_UNSUPPORTED, "ASWM version 0x%x is not supported (only 0x%x is read)",
                               a->version, NWN2_ASWM_VERSION);
    if ((r = wm_read_bytes(cur, a->name, sizeof a->name, "ASWM name")) ||
        (r = wm_read_u8(cur, &a->owns_data, "ASWM owns_data")) || (r = wm_read_u32(cur, &nv, "ASWM vertex count")) ||
        (r = wm_read_u32(cur, &ne, "ASWM edge count")) || (r = wm_read_u32(cur, &nt, "ASWM triangle count")) ||
        (r = wm_read_u32(cur, &a->reserved, "ASWM reserved")))
        return r;
    if ((r = take_array(cur, a, nv, 12, 4, 0, decode_words, "ASWM vertices", (void **)&a->vertices)))
        return r;
    a->vertex_count = nv;
    if ((r = take_array(cur, a, ne, EDGE_SIZE, 4, 0, decode_words, "ASWM edges", (void **)&a->edges)))
        return r;
    a->edge_count = ne;
    if ((r = take_array(cur, a, nt, TRIANGLE_SIZE, 4, 0, decode_triangles, "ASWM triangles", (void **)&a->triangles)))
        return r;
    a->triangle_count = nt;
    return WM_OK;
}

static wm_result read_grid(wm_cursor *cur, nwn2_aswm *a)
{
    wm_result r;
    uint32_t gh, gw;
    if ((r = wm_read_u32(cur, &a->grid_flags, "tile grid flags")) ||
        (r = wm_read_f32(cur, &a->tile_width, "tile grid tile width")) ||
        (r = wm_read_u32(cur, &gh, "tile grid height")) || (r = wm_read_u32(cur, &gw, "tile grid width")))
        return r;
    uint64_t tiles = (uint64_t)gh * gw;
    if ((r = wm_cursor_check_array(cur, tiles, TILE_MIN_SIZE, 0, "tile grid")))
        return r;
    if (!(a->tiles = wm_alloc_array(cur->ctx, tiles ? (size_t)tiles : 1, sizeof(nwn2_tile))))
        return WM_ERR_NOMEM;
    a->grid_height = gh;
    a->grid_width = gw;
    for (uint64_t i = 0; i < tiles; i++)
        if ((r = read_tile(cur, a, &a->tiles[i], (uint32_t)i)))
            return r;
    return WM_OK;
}

/* The island path table lies wherever the tiles' byte-sized tables leave it,
 * mostly off 4-byte alignment (59 of the 83 corpus TRX), and with it every
 * island record, so those were decoded into arrays of their own. In a shared
 * parse the table (a megabyte in the larger areas) is moved down the 1-3
 * bytes to alignment, over the end of those already-decoded records, and
 * shared too; the cursor follows it (the bytes after it stay in place). */
static size_t align_shared_paths(wm_cursor *cur, const nwn2_aswm *a, size_t bytes)
{
    size_t off = (uintptr_t)(cur->data + cur->pos) % _Alignof(nwn2_island_path);
    if (!a->shared || off == 0 || !host_is_little_endian())
        return 0;
    uint8_t *at = (uint8_t *)(uintptr_t)(cur->data + cur->pos); /* the shared bytes are writable */
    memmove(at - off, at, bytes);
    cur->pos -= off;
    return off; /* the caller steps over it after the table */
}

static wm_result read_islands(wm_cursor *cur, nwn2_aswm *a)
{
    wm_result r;
    uint32_t ni;
    if ((r = wm_read_u32(cur, &a->border_size, "border size")) || (r = wm_read_u32(cur, &ni, "island count")))
        return r;
    if ((r = wm_cursor_check_array(cur, ni, ISLAND_MIN_SIZE, 0, "islands")))
        return r;
    uint64_t paths = (uint64_t)ni * ni;
    /* the island path table must fit too: check it before allocating either */
    if (paths * ISLAND_PATH_SIZE + (uint64_t)ni * ISLAND_MIN_SIZE > wm_cursor_remaining(cur))
        return wm_cursor_error(cur, WM_ERR_TRUNCATED, "%u islands need at least %llu bytes, only %zu left", ni,
                               (unsigned long long)(paths * ISLAND_PATH_SIZE + (uint64_t)ni * ISLAND_MIN_SIZE),
                               wm_cursor_remaining(cur));
    if (!(a->islands = wm_alloc_array(cur->ctx, ni ? ni : 1, sizeof *a->islands)))
        return WM_ERR_NOMEM;
    a->island_count = ni;
    for (uint32_t i = 0; i < ni; i++)
        if ((r = read_island(cur, a, &a->islands[i], i)))
            return r;
    const uint64_t limit = cur->ctx->limits.max_bytes;
    size_t moved = 0;
    if (ni && !(r = wm_cursor_check_array(cur, paths, ISLAND_PATH_SIZE, limit, "island path table")))
        moved = align_shared_paths(cur, a, (size_t)paths * ISLAND_PATH_SIZE);
    if (!r)
        r = take_array(cur, a, paths, ISLAND_PATH_SIZE, _Alignof(nwn2_island_path), limit, decode_island_paths,
                       "island path table", (void **)&a->island_paths);
    cur->pos += r ? 0 : moved;
    return r;
}

static wm_result parse_body(wm_cursor *cur, nwn2_aswm *a)
{
    wm_result r;
    if ((r = read_mesh(cur, a)) || (r = read_grid(cur, a)) || (r = read_islands(cur, a)))
        return r;
    size_t left = wm_cursor_remaining(cur);
    if (left) {
        a->trailing = wm_alloc_array(cur->ctx, left, 1);
        if (!a->trailing)
            return WM_ERR_NOMEM;
        a->trailing_size = (uint32_t)left;
        return wm_read_bytes(cur, a->trailing, left, "ASWM trailing bytes");
    }
    return WM_OK;
}

static wm_result parse(wm_ctx *ctx, const uint8_t *raw, size_t size, const char *source, int share, nwn2_aswm *out)
{
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, raw, size, source);
    nwn2_aswm_init(out);
    if (size > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "%s: ASWM of %zu bytes exceeds 4 GiB", source, size);
    if (share) {
        out->shared = raw;
        out->shared_size = size;
    }
    wm_result r = parse_body(&cur, out);
    if (r)
        nwn2_aswm_free(ctx, out);
    return r;
}

wm_result nwn2_aswm_parse(wm_ctx *ctx, const uint8_t *raw, size_t size, const char *source, nwn2_aswm *out)
{
    return parse(ctx, raw, size, source, 0, out);
}

wm_result nwn2_aswm_parse_shared(wm_ctx *ctx, uint8_t *raw, size_t size, const char *source, nwn2_aswm *out)
{
    return parse(ctx, raw, size, source, 1, out);
}
