/* validate's warning about walkable ground boxed in by blocking faces (wm_route.h's regions). */
#include "walk_findings.h"
#include "wm_route.h"

#include <stdio.h>

/* A region boxed in is worth a warning while small beside the main one: a large one is more
 * likely a second floor reached by a door or a script than a modelling slip. */
#define ENCLOSED_SHARE 0.1

wm_result wm_walk_findings(wm_ctx *ctx, const wm_mesh *mesh, wm_report *report)
{
    wm_walk_graph *graph;
    wm_result r = wm_walk_graph_build(ctx, mesh, 1, &graph);
    if (r)
        return r;
    wm_region *regions = NULL;
    uint32_t count = 0;
    r = wm_walk_regions(ctx, graph, &regions, &count);
    for (uint32_t i = 1; !r && i < count; i++) {
        const wm_region *g = &regions[i];
        if (!g->enclosed || g->area >= ENCLOSED_SHARE * regions[0].area)
            continue;
        char where[32];
        snprintf(where, sizeof where, "face %u", g->first_face);
        wm_report_finding(report, WM_SEV_WARNING, where,
                          "walkable region of %u face%s (%.3g square units) around (%.6g, %.6g, %.6g) is enclosed "
                          "by blocking faces: nothing can walk onto it or off it",
                          g->faces, g->faces == 1 ? "" : "s", g->area, g->point[0], g->point[1], g->point[2]);
    }
    wm_free(ctx, regions);
    wm_walk_graph_free(ctx, graph);
    return r;
}
