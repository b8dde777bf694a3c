/* The .navmesh file: a 48-byte header (Detour's dtNavMeshParams and the tile count), then
 * each tile as a u32 size and Detour's tile bytes (docs/recast.md). Little endian. */
#include "navmesh_internal.h"

#include "wm_format.h"
#include "wm_pipeline.h"

#include <math.h>
#include <string.h>

#define NAVMESH_MAGIC "WMNV"
#define NAVMESH_FILE_VERSION 1
#define NAVMESH_FILE_HEADER 48

void wm_navmesh_close_detour(wm_navmesh *navmesh); /* navmesh_query.c */

void wm_navmesh_init(wm_navmesh *navmesh)
{
    memset(navmesh, 0, sizeof *navmesh);
}

void wm_navmesh_free(const wm_ctx *ctx, wm_navmesh *navmesh)
{
    wm_navmesh_close_detour(navmesh);
    wm_free(ctx, navmesh->tile_data);
    wm_free(ctx, navmesh->tile_offsets);
    wm_navmesh_init(navmesh);
}

wm_result wm_navmesh_write_memory(wm_ctx *ctx, const wm_navmesh *n, uint8_t **out, size_t *out_size)
{
    wm_buffer b;
    wm_buffer_init(&b, ctx);
    wm_put_bytes(&b, NAVMESH_MAGIC, 4);
    wm_put_u32(&b, NAVMESH_FILE_VERSION);
    wm_put_u32(&b, n->tile_count);
    for (int k = 0; k < 3; k++)
        wm_put_f32(&b, n->origin[k]);
    wm_put_f32(&b, n->tile_width);
    wm_put_f32(&b, n->tile_height);
    wm_put_u32(&b, n->max_tiles);
    wm_put_u32(&b, n->max_polys);
    wm_put_u32(&b, NAVMESH_DETOUR_VERSION);
    wm_put_u32(&b, 0);
    for (uint32_t t = 0; t < n->tile_count; t++) {
        uint64_t size = n->tile_offsets[t + 1] - n->tile_offsets[t];
        wm_put_u32(&b, (uint32_t)size);
        wm_put_bytes(&b, n->tile_data + n->tile_offsets[t], (size_t)size);
    }
    if (b.status) {
        wm_buffer_free(&b);
        return WM_ERR_NOMEM;
    }
    *out = b.data, *out_size = b.size;
    return WM_OK;
}

static int power_of_two(uint32_t v)
{
    return v && !(v & (v - 1));
}

static unsigned bits(uint32_t power)
{
    unsigned b = 0;
    while ((1u << b) < power)
        b++;
    return b;
}

static wm_result read_file_header(wm_cursor *cur, wm_navmesh *n, uint32_t *detour_version)
{
    const uint8_t *magic;
    uint32_t version, reserved;
    wm_result r = wm_read_view(cur, &magic, 4, "magic");
    if (!r && memcmp(magic, NAVMESH_MAGIC, 4) != 0)
        return wm_cursor_error(cur, WM_ERR_NOT_FORMAT, "not a walkmesh .navmesh file (no WMNV magic)");
    if (!r)
        r = wm_read_u32(cur, &version, "version");
    if (!r && version != NAVMESH_FILE_VERSION)
        return wm_cursor_error(cur, WM_ERR_UNSUPPORTED, ".navmesh version %u (walkmesh reads %d)", version,
                               NAVMESH_FILE_VERSION);
    float *reals[] = {n->origin, n->origin + 1, n->origin + 2, &n->tile_width, &n->tile_height};
    if (!r)
        r = wm_read_u32(cur, &n->tile_count, "tile count");
    for (size_t i = 0; i < 5 && !r; i++)
        r = wm_read_f32(cur, reals[i], "navmesh origin or tile size");
    if (!r)
        r = wm_read_u32(cur, &n->max_tiles, "maximum tiles");
    if (!r)
        r = wm_read_u32(cur, &n->max_polys, "maximum polygons");
    if (!r)
        r = wm_read_u32(cur, detour_version, "Detour version");
    if (!r)
        r = wm_read_u32(cur, &reserved, "reserved");
    if (!r && reserved != 0) /* kept 0, so a later version can give it a meaning */
        return wm_cursor_error(cur, WM_ERR_CORRUPT, "the reserved header field is 0x%x, not 0", reserved);
    return r;
}

static wm_result check_file_header(wm_cursor *cur, const wm_navmesh *n, uint32_t detour_version)
{
    for (int k = 0; k < 3; k++)
        if (!navmesh_in_range(n->origin[k]))
            return wm_cursor_error(cur, WM_ERR_CORRUPT, "the navmesh origin is not finite or out of range");
    if (!(n->tile_width >= 0.001f) || !(n->tile_height >= 0.001f) || !navmesh_in_range(n->tile_width) ||
        !navmesh_in_range(n->tile_height))
        return wm_cursor_error(cur, WM_ERR_CORRUPT, "tile size %g x %g", (double)n->tile_width, (double)n->tile_height);
    if (!power_of_two(n->max_tiles) || !power_of_two(n->max_polys) || bits(n->max_tiles) + bits(n->max_polys) > 22)
        return wm_cursor_error(cur, WM_ERR_CORRUPT,
                               "%u tiles of %u polygons (powers of two, 22 bits together at most)", n->max_tiles,
                               n->max_polys);
    if (detour_version != NAVMESH_DETOUR_VERSION)
        return wm_cursor_error(cur, WM_ERR_UNSUPPORTED, "Detour tile version %u (walkmesh reads %d)", detour_version,
                               NAVMESH_DETOUR_VERSION);
    if (n->tile_count == 0 || n->tile_count > n->max_tiles)
        return wm_cursor_error(cur, WM_ERR_CORRUPT, "%u tiles (1 to %u)", n->tile_count, n->max_tiles);
    /* every tile takes its size field and at least a header */
    return wm_cursor_check_array(cur, n->tile_count, 4 + NAVMESH_TILE_HEADER, UINT32_MAX, "tiles");
}

static wm_result read_tiles(wm_cursor *cur, const char *name, wm_navmesh *n)
{
    wm_ctx *ctx = cur->ctx;
    n->tile_offsets = wm_alloc_array(ctx, (size_t)n->tile_count + 1, sizeof *n->tile_offsets);
    n->tile_data = wm_alloc_array(ctx, wm_cursor_remaining(cur), 1);
    if (!n->tile_offsets || !n->tile_data)
        return WM_ERR_NOMEM;
    for (uint32_t t = 0; t < n->tile_count; t++) {
        uint32_t size;
        const uint8_t *bytes;
        navmesh_tile tile;
        wm_result r = wm_read_u32(cur, &size, "tile size");
        if (!r)
            r = wm_read_view(cur, &bytes, size, "tile data");
        if (!r)
            r = navmesh_tile_parse(ctx, bytes, size, name, t, &tile);
        if (!r && tile.poly_count > n->max_polys)
            r = wm_error(ctx, WM_ERR_CORRUPT, "%s: tile %u: %u polygons, more than the %u the navmesh allows", name, t,
                         tile.poly_count, n->max_polys);
        if (r)
            return r;
        memcpy(n->tile_data + n->tile_data_size, bytes, size);
        n->tile_data_size += size;
        n->tile_offsets[t + 1] = n->tile_data_size;
        n->poly_count += tile.poly_count;
    }
    if (wm_cursor_remaining(cur))
        return wm_cursor_error(cur, WM_ERR_CORRUPT, "%zu bytes after the last tile", wm_cursor_remaining(cur));
    return WM_OK;
}

wm_result wm_navmesh_read_memory(wm_ctx *ctx, const void *data, size_t size, const char *name, wm_navmesh *out)
{
    wm_navmesh_init(out);
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, data, size, name ? name : "<memory>");
    uint32_t detour_version = 0;
    wm_result r = read_file_header(&cur, out, &detour_version);
    if (!r)
        r = check_file_header(&cur, out, detour_version);
    if (!r)
        r = read_tiles(&cur, cur.source, out);
    if (r)
        wm_navmesh_free(ctx, out);
    return r;
}

wm_result wm_navmesh_load(wm_ctx *ctx, const char *path, wm_navmesh *out)
{
    wm_navmesh_init(out);
    wm_input in;
    wm_result r = wm_input_load(ctx, path, &in);
    if (r)
        return r;
    r = wm_navmesh_read_memory(ctx, in.data, in.size, in.name, out);
    wm_input_free(ctx, &in);
    return r;
}

static int ends_with(const char *text, const char *suffix)
{
    size_t n = strlen(text), m = strlen(suffix);
    if (n < m)
        return 0;
    for (size_t i = 0; i < m; i++) {
        char c = text[n - m + i];
        if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != suffix[i])
            return 0;
    }
    return 1;
}

wm_result wm_navmesh_save(wm_ctx *ctx, const wm_navmesh *navmesh, const char *path, int overwrite)
{
    if (!ends_with(path, ".navmesh")) {
        wm_mesh mesh;
        wm_result r = wm_navmesh_to_mesh(ctx, navmesh, &mesh);
        if (!r)
            r = wm_mesh_save(ctx, &mesh, path, NULL, NULL, overwrite);
        wm_mesh_free(ctx, &mesh);
        return r;
    }
    uint8_t *bytes = NULL;
    size_t size = 0;
    wm_result r = wm_navmesh_write_memory(ctx, navmesh, &bytes, &size);
    if (!r)
        r = wm_file_write_atomic(ctx, path, bytes, size, overwrite);
    wm_free(ctx, bytes);
    return r;
}
