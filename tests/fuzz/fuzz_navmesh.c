/* libFuzzer target for the .navmesh reader: any bytes are refused or read; what is read
 * writes back byte-identical, turns into a mesh, and is handed to Detour (through the
 * walkmesh-recast module, when it is beside the program) and queried at the tile corners and
 * centres: Detour trusts its tile data, so whatever the reader accepts must be safe there. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "walkmesh.h"

static void quiet(void *user, const char *message)
{
    (void)user;
    (void)message;
}

static void query(wm_ctx *ctx, wm_navmesh *n)
{
    float lo[3] = {n->origin[0], -n->origin[2], n->origin[1]};
    float hi[3] = {lo[0] + n->tile_width, lo[1] - n->tile_height, lo[2] + 1};
    float mid[3] = {(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, lo[2]};
    wm_navmesh_query wide = {0, {50, 50, 50}};
    float *points = NULL, at[3];
    uint32_t count = 0;
    int complete = 0, found = 0;
    wm_navmesh_poly *polys = NULL, poly;
    (void)wm_navmesh_find_path(ctx, n, &wide, lo, hi, &points, &count, &complete);
    wm_free(ctx, points);
    (void)wm_navmesh_reachable(ctx, n, &wide, mid, &polys, &count);
    wm_free(ctx, polys);
    (void)wm_navmesh_nearest(ctx, n, NULL, mid, &found, &poly, at);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.warn = quiet;
    wm_navmesh n;
    if (wm_navmesh_read_memory(&ctx, data, size, "fuzz.navmesh", &n) != WM_OK)
        return 0;
    uint8_t *again = NULL;
    size_t again_size = 0;
    if (wm_navmesh_write_memory(&ctx, &n, &again, &again_size) != WM_OK || again_size != size ||
        memcmp(again, data, size) != 0)
        abort(); /* what the reader accepts, the writer writes back as it was */
    wm_free(&ctx, again);
    wm_mesh mesh;
    if (wm_navmesh_to_mesh(&ctx, &n, &mesh) == WM_OK)
        wm_mesh_free(&ctx, &mesh);
    query(&ctx, &n);
    wm_navmesh_free(&ctx, &n);
    return 0;
}
