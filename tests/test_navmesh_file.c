/* The .navmesh reader (docs/recast.md): what it writes it reads back byte for byte; every
 * prefix, every corrupted count or index Detour would trust, and random byte changes are
 * refused with a message or, when the bytes still hold, loaded by Detour and queried without
 * fault (this runs under AddressSanitizer). Offsets are the layout of DetourNavMesh.h v7. */
#include "test_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FILE_HEADER 48
#define TILE_START (FILE_HEADER + 4) /* the first tile, after its size */

typedef struct built {
    uint8_t *bytes;
    size_t size;
} built;

static built build_sample(wm_ctx *ctx, const char *sample)
{
    char *path = wmt_sample_path(sample);
    wm_mesh mesh;
    assert_int_equal(wm_mesh_load(ctx, path, NULL, NULL, &mesh), WM_OK);
    wm_navmesh_config config;
    wm_navmesh_config_recast(&config);
    config.cell_size = 0.1f, config.agent_radius = 0.2f, config.min_region_size = 2;
    wm_navmesh navmesh;
    assert_int_equal(wm_navmesh_build(ctx, &mesh, &config, &navmesh), WM_OK);
    built b;
    assert_int_equal(wm_navmesh_write_memory(ctx, &navmesh, &b.bytes, &b.size), WM_OK);
    wm_navmesh_free(ctx, &navmesh);
    wm_mesh_free(ctx, &mesh);
    free(path);
    return b;
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Reads, and when that succeeds, queries through Detour at the tile's corners and centre. */
static wm_result read_and_query(wm_ctx *ctx, const uint8_t *bytes, size_t size)
{
    wm_navmesh n;
    wm_result r = wm_navmesh_read_memory(ctx, bytes, size, "case.navmesh", &n);
    if (r)
        return r;
    float lo[3] = {n.origin[0], -n.origin[2], n.origin[1]};
    float hi[3] = {lo[0] + n.tile_width, lo[1] - n.tile_height, lo[2]};
    float mid[3] = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, lo[2]};
    float *points = NULL;
    uint32_t count = 0;
    int complete = 0;
    wm_navmesh_poly *polys = NULL;
    wm_navmesh_query wide = {0, {50, 50, 50}};
    (void)wm_navmesh_find_path(ctx, &n, &wide, lo, hi, &points, &count, &complete);
    wm_free(ctx, points);
    (void)wm_navmesh_reachable(ctx, &n, &wide, mid, &polys, &count);
    wm_free(ctx, polys);
    wm_mesh mesh;
    if (wm_navmesh_to_mesh(ctx, &n, &mesh) == WM_OK)
        wm_mesh_free(ctx, &mesh);
    wm_navmesh_free(ctx, &n);
    return WM_OK;
}

static void written_bytes_read_back_the_same(void **state)
{
    (void)state;
    wmt_require_recast();
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    built b = build_sample(&ctx, "courtyard.obj");
    wm_navmesh n;
    assert_int_equal(wm_navmesh_read_memory(&ctx, b.bytes, b.size, "courtyard.navmesh", &n), WM_OK);
    uint8_t *again = NULL;
    size_t again_size = 0;
    assert_int_equal(wm_navmesh_write_memory(&ctx, &n, &again, &again_size), WM_OK);
    assert_int_equal(again_size, b.size);
    assert_memory_equal(again, b.bytes, b.size);
    /* the header is what docs/recast.md says: magic, version 1, the tile count, Detour's version 7 */
    assert_memory_equal(b.bytes, "WMNV", 4);
    assert_int_equal(get_u32(b.bytes + 4), 1);
    assert_int_equal(get_u32(b.bytes + 8), n.tile_count);
    assert_int_equal(get_u32(b.bytes + 40), 7);
    assert_memory_equal(b.bytes + TILE_START, "VAND", 4); /* DT_NAVMESH_MAGIC, little endian */
    wm_free(&ctx, again);
    wm_navmesh_free(&ctx, &n);
    wm_free(&ctx, b.bytes);
}

static void every_prefix_is_refused(void **state)
{
    (void)state;
    wmt_require_recast();
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    built b = build_sample(&ctx, "courtyard.obj");
    for (size_t n = 0; n < b.size; n++) {
        wm_navmesh nav;
        wm_result r = wm_navmesh_read_memory(&ctx, b.bytes, n, "cut.navmesh", &nav);
        assert_int_not_equal(r, WM_OK);
        assert_non_null(strstr(ctx.message, "cut.navmesh"));
    }
    wm_free(&ctx, b.bytes);
}

typedef struct corruption {
    size_t offset; /* from the first tile's start, or negative from it: the file header */
    uint32_t value;
    const char *said; /* in the message */
} corruption;

static void corrupted_counts_and_indices_are_refused(void **state)
{
    (void)state;
    wmt_require_recast();
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    built b = build_sample(&ctx, "courtyard.obj");
    const uint8_t *tile = b.bytes + TILE_START;
    uint32_t verts = get_u32(tile + 28), polys = get_u32(tile + 24);
    size_t poly0 = 100 + ((12 * (size_t)verts + 3) & ~(size_t)3);
    const corruption cases[] = {
        {0, 0x12345678, "not Detour tile data"},
        {4, 6, "version"},
        {24, polys + 1, "polygons"},              /* polygon count */
        {28, 0, "vertices"},                      /* vertex count */
        {32, 0, "links"},                         /* maxLinkCount 0: Detour writes links[-1] */
        {36, polys + 1, "detail meshes"},
        {52, 1, "off-mesh"},
        {60, 0x7fc00000, "not finite"},           /* walkable height NaN */
        {100, 0x7f800000, "vertex 0 is not finite"},
        {poly0 + 4, verts, "polygon 0: vertex"},  /* first corner out of range */
        {poly0 + 16, polys + 1, "neighbour"},     /* first neighbour past the polygons */
        {poly0 + 16, 0x8000 | 9, "neighbour"},    /* an outside link to side 9 */
        {poly0 + 28, 0x00ff0000, "polygon 0"},    /* vertex count 255 (and flags 0) */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint8_t *copy = malloc(b.size);
        memcpy(copy, b.bytes, b.size);
        if (cases[i].offset == poly0 + 16 || cases[i].offset == poly0 + 4) {
            copy[TILE_START + cases[i].offset] = (uint8_t)cases[i].value;
            copy[TILE_START + cases[i].offset + 1] = (uint8_t)(cases[i].value >> 8);
        } else {
            put_u32(copy + TILE_START + cases[i].offset, cases[i].value);
        }
        wm_navmesh n;
        wm_result r = wm_navmesh_read_memory(&ctx, copy, b.size, "bad.navmesh", &n);
        print_message("tile offset %zu = 0x%x: %s\n", cases[i].offset, cases[i].value, ctx.message);
        assert_int_not_equal(r, WM_OK);
        assert_non_null(strstr(ctx.message, cases[i].said));
        free(copy);
    }
    wm_free(&ctx, b.bytes);
}

static void corrupted_file_header_is_refused(void **state)
{
    (void)state;
    wmt_require_recast();
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    built b = build_sample(&ctx, "courtyard.obj");
    const corruption cases[] = {
        {0, 0x4d53454d, "no WMNV magic"}, {4, 2, "version 2"},      {8, 0, "0 tiles"},
        {8, 1000, "tiles"},               {12, 0x7fc00000, "origin"}, {24, 0, "tile size"},
        {32, 3, "powers of two"},         {36, 1u << 22, "22 bits"}, {40, 8, "Detour tile version 8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint8_t *copy = malloc(b.size);
        memcpy(copy, b.bytes, b.size);
        put_u32(copy + cases[i].offset, cases[i].value);
        wm_navmesh n;
        assert_int_not_equal(wm_navmesh_read_memory(&ctx, copy, b.size, "bad.navmesh", &n), WM_OK);
        print_message("header offset %zu = 0x%x: %s\n", cases[i].offset, cases[i].value, ctx.message);
        assert_non_null(strstr(ctx.message, cases[i].said));
        free(copy);
    }
    uint8_t *longer = malloc(b.size + 4);
    memcpy(longer, b.bytes, b.size);
    memset(longer + b.size, 0, 4);
    wm_navmesh n;
    assert_int_equal(wm_navmesh_read_memory(&ctx, longer, b.size + 4, "long.navmesh", &n), WM_ERR_CORRUPT);
    assert_non_null(strstr(ctx.message, "after the last tile"));
    free(longer);
    wm_free(&ctx, b.bytes);
}

/* Random changes of one to four bytes: refused, or Detour takes the tiles and queries run. */
static void random_changes_are_refused_or_harmless(void **state)
{
    (void)state;
    wmt_require_recast();
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    built b = build_sample(&ctx, "ramp.obj");
    uint32_t seed = 7;
    unsigned read = 0, refused = 0;
    uint8_t *copy = malloc(b.size);
    for (int round = 0; round < 3000; round++) {
        memcpy(copy, b.bytes, b.size);
        for (int k = 0; k <= round % 4; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % b.size;
            seed = seed * 1103515245u + 12345u;
            copy[at] = (uint8_t)(seed >> 16);
        }
        if (read_and_query(&ctx, copy, b.size) == WM_OK)
            read++;
        else
            refused++;
    }
    print_message("3000 changed files: %u read and queried, %u refused\n", read, refused);
    assert_true(refused > 0 && read > 0);
    free(copy);
    wm_free(&ctx, b.bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(written_bytes_read_back_the_same),
        cmocka_unit_test(every_prefix_is_refused),
        cmocka_unit_test(corrupted_counts_and_indices_are_refused),
        cmocka_unit_test(corrupted_file_header_is_refused),
        cmocka_unit_test(random_changes_are_refused_or_harmless),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
