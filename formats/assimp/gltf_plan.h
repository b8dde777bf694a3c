/* The layout walkmesh's own glTF 2.0 writer (.gltf + .bin, .glb) plans, which
 * both of its files read: gltf_write.c plans it and streams the binary buffer,
 * gltf_write_json.c writes the JSON from it. */
#ifndef WM_GLTF_PLAN_H
#define WM_GLTF_PLAN_H

#include "assimp_module.h"

/* One primitive: the triangles of one (object, material) pair, or the edges
 * of one transition value, with a compact vertex list of its own. Its
 * positions and then its indices follow each other in the buffer. */
typedef struct gltf_group {
    uint32_t object;   /* mesh object (triangle groups) */
    uint32_t material; /* material index */
    uint32_t first;    /* into the plan's order (triangles) or edges (lines) */
    uint32_t faces;    /* triangles or edges */
    uint32_t vertices;
    float min[3], max[3]; /* of the written (Y-up) positions */
    uint64_t offset;      /* of the positions in the buffer; the indices follow */
} gltf_group;

typedef struct gltf_plan {
    wm_ctx *ctx;
    const wm_mesh *mesh;
    uint32_t *order;        /* triangle indices sorted by (object, material) */
    uint32_t *slot;         /* per mesh vertex: index in the current group, UINT32_MAX = none */
    uint32_t *material_pair; /* per material: surface * 2 + walkable */
    uint32_t material_count; /* surface materials; "transition" follows when there are lines */
    gltf_group *groups;      /* triangle groups, then line groups */
    size_t triangle_groups, group_count;
    transition_edge *edges;
    size_t edge_count;
    uint64_t bin_size;
} gltf_plan;

/* Bytes of a group's positions and of its indices. */
static inline uint64_t wm_gltf_positions_size(const gltf_group *g)
{
    return 12u * (uint64_t)g->vertices;
}

static inline uint64_t wm_gltf_indices_size(const gltf_group *g, int lines)
{
    return (lines ? 8u : 12u) * (uint64_t)g->faces;
}

/* The JSON of the plan; buffer_uri NULL for a GLB (its buffer is the BIN chunk). */
void wm_gltf_json(const gltf_plan *plan, const char *buffer_uri, wm_buffer *out);

#endif
