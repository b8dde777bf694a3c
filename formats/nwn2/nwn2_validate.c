/* Invariant checks of a TRN/TRX (FORMAT-NOTES section 2): runs the
 * structural checks (nwn2_check_mesh.c), then the tile, path-table and island
 * checks (nwn2_check_paths.c), and reports how many findings were not listed.
 * Toolset quirks seen in real files are warnings (docs/nwn2.md). */
#include "nwn2_check.h"

#include <math.h>

static int is_baked(const nwn2_aswm *a)
{
    if (a->island_count)
        return 1;
    uint32_t tiles = a->grid_width * a->grid_height;
    for (uint32_t i = 0; i < tiles; i++)
        if (a->tiles[i].node_count)
            return 1;
    return 0;
}

wm_result nwn2_validate(wm_ctx *ctx, const nwn2_file *f, wm_report *report)
{
    nwn2_check_state v = {report, ctx, &f->aswm, 0, {0, 0, 0}};
    nwn2_check_container(&v, f);
    if (f->aswm_packet < 0)
        return WM_OK;
    const nwn2_aswm *a = &f->aswm;
    nwn2_check_header_and_vertices(&v);
    nwn2_check_edges(&v);
    for (uint32_t t = 0; t < a->triangle_count; t++)
        nwn2_check_triangle(&v, t);
    wm_result dup = nwn2_check_duplicates(&v);
    if (dup)
        return dup;
    if (a->grid_flags != NWN2_GRID_FLAGS_TRN && a->grid_flags != NWN2_GRID_FLAGS_TRX)
        nwn2_check_add(&v, WM_SEV_WARNING, "tile grid", "flags %u (15 TRN, 31 TRX in real files)", a->grid_flags);
    if (!(a->tile_width > 0.0f) || !isfinite(a->tile_width))
        nwn2_check_add(&v, WM_SEV_ERROR, "tile grid", "tile width %g is not a positive number", (double)a->tile_width);
    if ((uint64_t)a->border_size * 2 > a->grid_width || (uint64_t)a->border_size * 2 > a->grid_height)
        nwn2_check_add(&v, WM_SEV_WARNING, "tile grid", "border of %u tiles leaves nothing of the %ux%u grid",
                       a->border_size, a->grid_width, a->grid_height);
    int baked = is_baked(a);
    uint32_t n = a->island_count;
    size_t scratch = a->triangle_count > n ? a->triangle_count : n;
    uint32_t *owner = wm_alloc_array(ctx, scratch ? scratch : 1, sizeof *owner);
    uint8_t *state = wm_alloc_array(ctx, n ? n : 1, 1);
    uint32_t *steps = wm_alloc_array(ctx, n ? n : 1, sizeof *steps);
    uint32_t *stack = wm_alloc_array(ctx, n ? n : 1, sizeof *stack);
    uint32_t *members = wm_alloc_array(ctx, n ? n : 1, sizeof *members);
    wm_result r = WM_OK;
    if (!owner || !state || !steps || !stack || !members) {
        r = WM_ERR_NOMEM;
        goto done;
    }
    for (uint32_t t = 0; t < a->triangle_count; t++)
        owner[t] = NWN2_NONE32;
    if (!(a->tile_width > 0.0f) || a->grid_width == 0 || a->grid_height == 0)
        nwn2_check_add(&v, WM_SEV_ERROR, "tile grid", "empty grid (%ux%u)", a->grid_width, a->grid_height);
    else
        nwn2_check_tiles(&v, baked, owner);
    if (baked) {
        nwn2_check_islands(&v, owner, members);
        nwn2_check_island_paths(&v, state, steps, stack);
    } else {
        uint32_t walkable = 0;
        for (uint32_t t = 0; t < a->triangle_count; t++)
            walkable += nwn2_check_walkable(a, t);
        nwn2_check_add(&v, a->grid_flags == NWN2_GRID_FLAGS_TRX && walkable ? WM_SEV_WARNING : WM_SEV_INFO,
                       "path tables", "not baked: tile path tables, islands and the island path table are empty%s",
                       a->grid_flags == NWN2_GRID_FLAGS_TRX ? " (a TRX needs them: bake it)" : " (normal for a TRN)");
    }
    for (int s = WM_SEV_WARNING; s <= WM_SEV_ERROR; s++)
        if (v.dropped[s]) {
            v.listed = 0;
            nwn2_check_add(&v, (wm_severity)s, "report", "%u more %s not listed", v.dropped[s],
                           s == WM_SEV_ERROR ? "errors" : "warnings");
        }
done:
    wm_free(ctx, owner);
    wm_free(ctx, state);
    wm_free(ctx, steps);
    wm_free(ctx, stack);
    wm_free(ctx, members);
    return r ? r : report->status;
}
