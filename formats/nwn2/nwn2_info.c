/* Facts for `walkmesh info` on a TRN/TRX. */
#include "nwn2.h"

#include <stdio.h>
#include <string.h>

/* WATR and TRRN: a summary when the layout is recognised, else the size. */
static void describe_other(wm_ctx *ctx, const nwn2_packet *p, const char *key, const char *type, wm_report *report)
{
    nwn2_watr_summary w;
    nwn2_trrn_summary t;
    if (memcmp(p->type, "WATR", 4) == 0 && nwn2_watr_summarise(ctx, p->payload, p->size, "WATR", &w) == WM_OK)
        wm_report_fact(report, key,
                       "WATR, %u bytes: water of megatile (%u, %u), %u vertices, %u triangles, %u-byte DDS, "
                       "colour %.2f %.2f %.2f",
                       p->size, w.megatile_x, w.megatile_y, w.vertex_count, w.triangle_count, w.dds_size,
                       (double)w.colour[0], (double)w.colour[1], (double)w.colour[2]);
    else if (memcmp(p->type, "TRRN", 4) == 0 && nwn2_trrn_summarise(ctx, p->payload, p->size, "TRRN", &t) == WM_OK)
        wm_report_fact(report, key, "TRRN, %u bytes: megatile \"%s\", %u vertices, %u triangles, %u grass", p->size,
                       t.name, t.vertex_count, t.triangle_count, t.grass_count);
    else
        wm_report_fact(report, key, "%s, %u bytes (kept byte-for-byte)", type, p->size);
}

static void packet_facts(wm_ctx *ctx, const nwn2_file *f, wm_report *report)
{
    const nwn2_container *c = &f->container;
    uint32_t trrn = 0, watr = 0;
    wm_report_fact(report, "container", "NWN2 %u.%u, %u packets", c->major, c->minor, c->packet_count);
    for (uint32_t i = 0; i < c->packet_count; i++) {
        const nwn2_packet *p = &c->packets[i];
        char key[32];
        snprintf(key, sizeof key, "packet %u", i);
        char type[5] = {0};
        for (int k = 0; k < 4; k++)
            type[k] = (p->type[k] >= 0x20 && p->type[k] < 0x7f) ? p->type[k] : '?';
        nwn2_trwh wh;
        if (memcmp(p->type, "TRWH", 4) == 0 && nwn2_trwh_parse(ctx, p->payload, p->size, "TRWH", &wh) == WM_OK)
            wm_report_fact(report, key, "TRWH, %u bytes: terrain %ux%u, id %u", p->size, wh.width, wh.height, wh.id);
        else if ((int32_t)i == f->aswm_packet)
            wm_report_fact(report, key, "ASWM, %u bytes: %s, %zu bytes walkmesh (zlib header level %d)", p->size,
                           f->aswm_info.compressed ? "zlib-compressed" : "raw", f->aswm_raw_size,
                           f->aswm_info.zlib_level_hint);
        else
            describe_other(ctx, p, key, type, report);
        trrn += memcmp(p->type, "TRRN", 4) == 0;
        watr += memcmp(p->type, "WATR", 4) == 0;
    }
    wm_report_fact(report, "megatiles (TRRN)", "%u", trrn);
    wm_report_fact(report, "water (WATR)", "%u", watr);
}

wm_result nwn2_info(wm_ctx *ctx, const nwn2_file *f, wm_report *report)
{
    packet_facts(ctx, f, report);
    if (f->aswm_packet < 0) {
        wm_report_fact(report, "walkmesh", "none (no ASWM packet)");
        return report->status;
    }
    const nwn2_aswm *a = &f->aswm;
    uint32_t walkable = 0, border = 0, clockwise = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        walkable += (a->triangles[t].flags & NWN2_TRI_WALKABLE) != 0;
        clockwise += (a->triangles[t].flags & NWN2_TRI_CLOCKWISE) != 0;
        border += nwn2_triangle_is_border(a, t);
    }
    wm_report_fact(report, "ASWM version", "0x%x", a->version);
    wm_report_fact(report, "kind", "%s", a->grid_flags == NWN2_GRID_FLAGS_TRX ? "TRX (baked)" :
                                      a->grid_flags == NWN2_GRID_FLAGS_TRN ? "TRN (unbaked)" : "unknown grid flags");
    wm_report_fact(report, "vertices", "%u", a->vertex_count);
    wm_report_fact(report, "edges", "%u", a->edge_count);
    wm_report_fact(report, "triangles", "%u", a->triangle_count);
    wm_report_fact(report, "walkable triangles", "%u", walkable);
    wm_report_fact(report, "clockwise triangles", "%u", clockwise);
    wm_report_fact(report, "border triangles", "%u", border);
    wm_report_fact(report, "grid", "%ux%u tiles of %g, flags %u, border %u", a->grid_width, a->grid_height,
                   (double)a->tile_width, a->grid_flags, a->border_size);
    uint32_t tiles = a->grid_width * a->grid_height, used = 0, baked = 0, max_walk = 0, max_tile = 0;
    for (uint32_t i = 0; i < tiles; i++) {
        const nwn2_tile *t = &a->tiles[i];
        used += t->triangle_count != 0;
        baked += t->node_count != 0;
        uint32_t w = 0;
        /* a corrupt count may run past the triangles: count only those that exist */
        uint64_t end = (uint64_t)t->triangle_offset + t->triangle_count;
        if (end > a->triangle_count)
            end = a->triangle_count;
        for (uint64_t g = t->triangle_offset; g < end; g++)
            w += (a->triangles[g].flags & NWN2_TRI_WALKABLE) != 0;
        if (w > max_walk) {
            max_walk = w;
            max_tile = i;
        }
    }
    wm_report_fact(report, "tiles with triangles", "%u of %u", used, tiles);
    wm_report_fact(report, "tiles with path tables", "%u", baked);
    wm_report_fact(report, "max walkable per tile", "%u (tile %u; the path table addresses at most %u)", max_walk,
                   max_tile, NWN2_MAX_TILE_NODES);
    wm_report_fact(report, "islands", "%u", a->island_count);
    uint64_t links = 0, routes = 0;
    for (uint32_t i = 0; i < a->island_count; i++)
        links += a->islands[i].adjacent_count;
    for (uint64_t i = 0; i < (uint64_t)a->island_count * a->island_count; i++)
        routes += a->island_paths[i].next != NWN2_NO_ISLAND;
    wm_report_fact(report, "island links", "%llu", (unsigned long long)links);
    wm_report_fact(report, "island routes", "%llu of %llu pairs", (unsigned long long)routes,
                   (unsigned long long)a->island_count * a->island_count);
    return report->status;
}
