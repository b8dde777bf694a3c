/* Facts for `walkmesh info`. */
#include "bwm/bwm.h"

#include <stdio.h>
#include <string.h>

static void fact_vec3(wm_report *report, const char *key, const float v[3])
{
    wm_report_fact(report, key, "%g %g %g", v[0], v[1], v[2]);
}

void bwm_info(const bwm_file *f, const wm_ctx *ctx, wm_report *report)
{
    uint32_t walkable = 0, with_transition = 0;
    uint64_t planes_used = 0;
    for (uint32_t i = 0; i < f->face_count; i++) walkable += bwm_material_walkable(ctx, f->materials[i]);
    wm_report_fact(report, "type", "%u (%s)", f->type,
                   f->type == BWM_TYPE_AREA ? "WOK area" : f->type == BWM_TYPE_PLACEABLE ? "PWK/DWK" : "unknown");
    wm_report_fact(report, "vertices", "%u", f->vertex_count);
    wm_report_fact(report, "faces", "%u", f->face_count);
    wm_report_fact(report, "walkable faces", "%u", walkable);
    fact_vec3(report, "position", f->position);
    if (f->type != BWM_TYPE_AREA) {
        fact_vec3(report, "relative use hook 1", f->rel_hook[0]);
        fact_vec3(report, "relative use hook 2", f->rel_hook[1]);
        fact_vec3(report, "absolute use hook 1", f->abs_hook[0]);
        fact_vec3(report, "absolute use hook 2", f->abs_hook[1]);
    }
    for (uint32_t i = 0; i < f->aabb_count; i++)
        if (f->aabb[i].plane < 64) planes_used |= 1ull << f->aabb[i].plane;
    wm_report_fact(report, "aabb nodes", "%u", f->aabb_count);
    wm_report_fact(report, "aabb depth", "%u", bwm_aabb_depth(f));
    if (f->aabb_count) {
        char list[128] = "";
        for (unsigned p = 1; p < 64; p++)
            if (planes_used & (1ull << p)) snprintf(list + strlen(list), sizeof list - strlen(list), "%s%u", *list ? "," : "", p);
        wm_report_fact(report, "aabb plane flags", "%s", list);
    }
    wm_report_fact(report, "adjacency rows", "%u", f->adjacency_count);
    wm_report_fact(report, "boundary edges", "%u", f->edge_count);
    wm_report_fact(report, "perimeters", "%u", f->perimeter_count);
    uint32_t start = 0;
    for (uint32_t p = 0; p < f->perimeter_count && p < 32; p++) {
        char key[32];
        snprintf(key, sizeof key, "perimeter %u", p);
        uint32_t stop = f->perimeters[p];
        wm_report_fact(report, key, "%u edges", stop >= start ? stop - start : 0);
        start = stop;
    }
    for (uint32_t e = 0; e < f->edge_count; e++) with_transition += f->edges[e].transition >= 0;
    wm_report_fact(report, "transitions", "%u edges", with_transition);
    for (uint32_t e = 0, listed = 0; e < f->edge_count && listed < 64; e++) {
        if (f->edges[e].transition < 0) continue;
        char key[48];
        snprintf(key, sizeof key, "transition edge %u", e);
        wm_report_fact(report, key, "face %u edge %u -> room %d", f->edges[e].code / 3, f->edges[e].code % 3,
                       f->edges[e].transition);
        listed++;
    }
}
