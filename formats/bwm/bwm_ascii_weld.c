/* The nodes of an ASCII walkmesh joined into one vertex array (bwm_ascii.c). */
#include "bwm/bwm.h"

#include <string.h>

/* Within a node the vertex indices are the file's own: adjacency is matched by index
 * (FORMAT-NOTES 1), and a vanilla walkmesh holds coincident vertices with distinct indices
 * that are not linked, so they stay apart. Across nodes there is nothing of the kind: a text
 * of several nodes is one walkmesh in pieces, and every other reader's mesh is welded before
 * its adjacency is built. So a vertex merges into a coincident vertex (within the tolerance)
 * of an earlier node, and at most one vertex of a node into any one vertex, so that two
 * distinct vertices of one node never become one. node_start[n] is node n's first vertex. */
wm_result bwm_ascii_join_nodes(wm_ctx *ctx, wm_mesh *mesh, const uint32_t *node_start, uint32_t nodes,
                               float tolerance)
{
    uint32_t *map = NULL, merged = 0, *merged_from = NULL, joined = 0;
    if (nodes < 2) return WM_OK;
    wm_result r = wm_mesh_weld_map(ctx, mesh, tolerance, &map, &merged);
    if (!r && merged) {
        merged_from = wm_alloc_array(ctx, mesh->vertex_count, sizeof *merged_from); /* node + 1 per target */
        if (!merged_from) r = WM_ERR_NOMEM;
    }
    for (uint32_t n = 0; !r && merged && n < nodes; n++) {
        uint32_t end = n + 1 < nodes ? node_start[n + 1] : mesh->vertex_count;
        for (uint32_t v = node_start[n]; v < end; v++) {
            uint32_t target = map[v];
            if (target >= node_start[n] || merged_from[target] == n + 1) {
                map[v] = v; /* the same node's (or already taken by this node): kept */
            } else {
                merged_from[target] = n + 1;
                joined++;
            }
        }
    }
    if (!r && joined) {
        for (size_t i = 0; i < 3 * (size_t)mesh->triangle_count; i++) mesh->indices[i] = map[mesh->indices[i]];
        r = wm_mesh_compact(ctx, mesh);
    }
    wm_free(ctx, merged_from);
    wm_free(ctx, map);
    return r;
}

float bwm_ascii_join_tolerance(const wm_options *opts)
{
    return opts && opts->weld_tolerance >= 0 ? opts->weld_tolerance : BWM_ASCII_JOIN_TOLERANCE;
}
