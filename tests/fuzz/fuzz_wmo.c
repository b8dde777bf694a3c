/* libFuzzer target for the WMO readers: the descriptor's read and validate,
 * then group and root parsing on any bytes; a group that parses must
 * serialise back to the same bytes, and extraction, statistics and the BSP
 * check must run on it without fault. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wmo/wmo.h"
#include "fuzz_descriptor.h"

static uint8_t *copy_input(wm_ctx *ctx, const uint8_t *data, size_t size)
{
    uint8_t *copy = wm_alloc_array(ctx, size, 1);
    if (copy && size)
        memcpy(copy, data, size);
    return copy;
}

static void exercise_group(wm_ctx *ctx, const wmo_group *g, const uint8_t *data, size_t size)
{
    wm_buffer b;
    wm_buffer_init(&b, ctx);
    if (wmo_group_serialize(ctx, g, &b) == WM_OK && (b.size != size || memcmp(b.data, data, size) != 0))
        abort(); /* a parsed group must write back byte-identical */
    wm_buffer_free(&b);

    for (unsigned rule = 0; rule < WMO_RULE_COUNT; rule++) {
        wm_mesh mesh;
        wm_mesh_init(&mesh);
        wmo_extract_options x = {(wmo_rule)rule, 1, WMO_DEFAULT_WALKABLE_SLOPE, NULL};
        (void)wmo_group_extract(ctx, g, "fuzz", rule & 1 ? "antiportal" : NULL, &x, &mesh);
        wm_mesh_free(ctx, &mesh);
    }
    wmo_bsp_stats stats;
    (void)wmo_bsp_stats_compute(ctx, g->nodes, g->node_count, g->triangle_count, g->refs, g->ref_count, &stats);
    wmo_bsp_view v = {g->nodes, g->node_count, g->refs, g->ref_count, g->positions, g->indices, g->triangle_count};
    wm_report report;
    wm_report_init(&report, ctx);
    uint32_t problems = 0;
    (void)wmo_bsp_check(ctx, &v, NULL, &report, &problems);
    wm_report_free(&report);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.limits.max_triangles = 1u << 20;
    fuzz_descriptor(&ctx, &wm_format_wmo, data, size, "fuzz.wmo");

    uint8_t *copy = copy_input(&ctx, data, size);
    if (copy) {
        wmo_group g;
        if (wmo_group_parse(&ctx, copy, size, "fuzz.wmo", &g) == WM_OK)
            exercise_group(&ctx, &g, data, size);
        wmo_group_free(&ctx, &g);
    }
    copy = copy_input(&ctx, data, size);
    if (copy) {
        wmo_root root;
        if (wmo_root_parse(&ctx, copy, size, "fuzz.wmo", &root) == WM_OK) {
            char name[64];
            for (uint32_t i = 0; i < root.group_info_count; i++)
                wmo_root_group_name(&root, (uint32_t)root.groups[i].name_offset, name, sizeof name);
        }
        wmo_root_free(&ctx, &root);
    }
    return 0;
}
