/* Parser of the uncompressed ASWM walkmesh, version 0x6c. */
#include "nwn2.h"

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

static wm_result read_floats(wm_cursor *cur, float *out, size_t n, const char *what)
{
    const uint8_t *p;
    wm_result r = wm_read_view(cur, &p, n * 4, what);
    for (size_t i = 0; !r && i < n; i++)
        out[i] = lef32(p + 4 * i);
    return r;
}

static wm_result read_u32s(wm_cursor *cur, uint32_t *out, size_t n, const char *what)
{
    const uint8_t *p;
    wm_result r = wm_read_view(cur, &p, n * 4, what);
    for (size_t i = 0; !r && i < n; i++)
        out[i] = le32(p + 4 * i);
    return r;
}

/* Checks count elements of elem_size against the data left, then allocates. */
static wm_result alloc_checked(wm_cursor *cur, uint64_t count, size_t elem_size, size_t alloc_elem, uint64_t limit,
                               const char *what, void **out)
{
    wm_result r = wm_cursor_check_array(cur, count, elem_size, limit, what);
    if (r)
        return r;
    *out = wm_alloc_array(cur->ctx, count ? (size_t)count : 1, alloc_elem);
    return *out ? WM_OK : WM_ERR_NOMEM;
}

static wm_result read_edges(wm_cursor *cur, nwn2_edge *edges, uint32_t count, const char *what)
{
    const uint8_t *p;
    wm_result r = wm_read_view(cur, &p, (size_t)count * EDGE_SIZE, what);
    for (uint32_t i = 0; !r && i < count; i++, p += EDGE_SIZE) {
        edges[i].v[0] = le32(p);
        edges[i].v[1] = le32(p + 4);
        edges[i].tri[0] = le32(p + 8);
        edges[i].tri[1] = le32(p + 12);
    }
    return r;
}

static wm_result read_triangles(wm_cursor *cur, nwn2_triangle *tris, uint32_t count)
{
    const uint8_t *p;
    wm_result r = wm_read_view(cur, &p, (size_t)count * TRIANGLE_SIZE, "ASWM triangles");
    for (uint32_t i = 0; !r && i < count; i++, p += TRIANGLE_SIZE) {
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

static wm_result read_tile(wm_cursor *cur, nwn2_tile *t, uint32_t index)
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
        if ((r = alloc_checked(cur, (uint64_t)t->vertex_count, 12, 12, 0, what, (void **)&t->vertices)) ||
            (r = read_floats(cur, t->vertices, (size_t)t->vertex_count * 3, what)))
            return r;
        snprintf(what, sizeof what, "tile %u edges", index);
        if ((r = alloc_checked(cur, t->edge_count, EDGE_SIZE, sizeof(nwn2_edge), 0, what, (void **)&t->edges)) ||
            (r = read_edges(cur, t->edges, t->edge_count, what)))
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
    if ((r = alloc_checked(cur, local, 1, 1, 0, what, (void **)&t->local_to_node)))
        return r;
    t->local_count = local;
    if ((r = wm_read_bytes(cur, t->local_to_node, local, what)))
        return r;
    snprintf(what, sizeof what, "tile %u node_to_local", index);
    if ((r = alloc_checked(cur, nodes, 4, 4, 0, what, (void **)&t->node_to_local)))
        return r;
    snprintf(what, sizeof what, "tile %u nodes", index);
    if ((r = read_u32s(cur, t->node_to_local, nodes, what)) ||
        (r = alloc_checked(cur, (uint64_t)nodes * nodes, 1, 1, 0, what, (void **)&t->nodes)))
        return r;
    t->node_count = nodes;
    if ((r = wm_read_bytes(cur, t->nodes, (size_t)nodes * nodes, what)))
        return r;
    snprintf(what, sizeof what, "tile %u flags", index);
    return wm_read_u32(cur, &t->flags, what);
}

static wm_result read_island(wm_cursor *cur, nwn2_island *is, uint32_t index)
{
    char what[64];
    wm_result r;
    snprintf(what, sizeof what, "island %u header", index);
    if ((r = wm_read_u32(cur, &is->index, what)) || (r = wm_read_u32(cur, &is->tile, what)) ||
        (r = read_floats(cur, is->centre, 3, what)) || (r = wm_read_u32(cur, &is->triangle_count, what)))
        return r;
    uint32_t n;
    snprintf(what, sizeof what, "island %u adjacent islands", index);
    if ((r = wm_read_u32(cur, &n, what)) || (r = alloc_checked(cur, n, 4, 4, 0, what, (void **)&is->adjacent)))
        return r;
    is->adjacent_count = n;
    if ((r = read_u32s(cur, is->adjacent, n, what)))
        return r;
    snprintf(what, sizeof what, "island %u distances", index);
    if ((r = wm_read_u32(cur, &n, what)) || (r = alloc_checked(cur, n, 4, 4, 0, what, (void **)&is->distance)))
        return r;
    is->distance_count = n;
    if ((r = read_floats(cur, is->distance, n, what)))
        return r;
    snprintf(what, sizeof what, "island %u exit triangles", index);
    if ((r = wm_read_u32(cur, &n, what)) || (r = alloc_checked(cur, n, 4, 4, 0, what, (void **)&is->exit)))
        return r;
    is->exit_count = n;
    return read_u32s(cur, is->exit, n, what);
}

static wm_result parse_body(wm_cursor *cur, nwn2_aswm *a)
{
    wm_ctx *ctx = cur->ctx;
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

    if ((r = alloc_checked(cur, nv, 12, 12, 0, "ASWM vertices", (void **)&a->vertices)))
        return r;
    a->vertex_count = nv;
    if ((r = read_floats(cur, a->vertices, (size_t)nv * 3, "ASWM vertices")))
        return r;
    if ((r = alloc_checked(cur, ne, EDGE_SIZE, sizeof(nwn2_edge), 0, "ASWM edges", (void **)&a->edges)))
        return r;
    a->edge_count = ne;
    if ((r = read_edges(cur, a->edges, ne, "ASWM edges")))
        return r;
    if ((r = alloc_checked(cur, nt, TRIANGLE_SIZE, sizeof(nwn2_triangle), 0, "ASWM triangles",
                           (void **)&a->triangles)))
        return r;
    a->triangle_count = nt;
    if ((r = read_triangles(cur, a->triangles, nt)))
        return r;

    uint32_t gh, gw;
    if ((r = wm_read_u32(cur, &a->grid_flags, "tile grid flags")) ||
        (r = wm_read_f32(cur, &a->tile_width, "tile grid tile width")) ||
        (r = wm_read_u32(cur, &gh, "tile grid height")) || (r = wm_read_u32(cur, &gw, "tile grid width")))
        return r;
    uint64_t tiles = (uint64_t)gh * gw;
    if ((r = alloc_checked(cur, tiles, TILE_MIN_SIZE, sizeof(nwn2_tile), 0, "tile grid", (void **)&a->tiles)))
        return r;
    a->grid_height = gh;
    a->grid_width = gw;
    for (uint64_t i = 0; i < tiles; i++)
        if ((r = read_tile(cur, &a->tiles[i], (uint32_t)i)))
            return r;

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
    if ((r = nwn2_aswm_alloc_islands(ctx, a, ni)))
        return r;
    for (uint32_t i = 0; i < ni; i++)
        if ((r = read_island(cur, &a->islands[i], i)))
            return r;
    if ((r = wm_cursor_check_array(cur, paths, ISLAND_PATH_SIZE, ctx->limits.max_bytes, "island path table")))
        return r;
    const uint8_t *view;
    if ((r = wm_read_view(cur, &view, (size_t)paths * ISLAND_PATH_SIZE, "island path table")))
        return r;
    for (uint64_t i = 0; i < paths; i++, view += ISLAND_PATH_SIZE) {
        a->island_paths[i].next = le16(view);
        a->island_paths[i].padding = le16(view + 2);
        a->island_paths[i].weight = lef32(view + 4);
    }
    size_t left = wm_cursor_remaining(cur);
    if (left) {
        a->trailing = wm_alloc_array(ctx, left, 1);
        if (!a->trailing)
            return WM_ERR_NOMEM;
        a->trailing_size = (uint32_t)left;
        return wm_read_bytes(cur, a->trailing, left, "ASWM trailing bytes");
    }
    return WM_OK;
}

wm_result nwn2_aswm_parse(wm_ctx *ctx, const uint8_t *raw, size_t size, const char *source, nwn2_aswm *out)
{
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, raw, size, source);
    nwn2_aswm_init(out);
    if (size > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "%s: ASWM of %zu bytes exceeds 4 GiB", source, size);
    wm_result r = parse_body(&cur, out);
    if (r)
        nwn2_aswm_free(ctx, out);
    return r;
}
