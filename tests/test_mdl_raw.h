/* A binary KotOR model read directly by the tests, apart from formats/mdl:
 * the node tree's headers, the walkmesh (AABB) node's stored vertices, faces
 * and the root box of its AABB tree, from the offsets the public format
 * descriptions give (docs/kotor-areas.md). For corpus files only: no checks. */
#ifndef WM_TEST_MDL_RAW_H
#define WM_TEST_MDL_RAW_H

#include <stdint.h>
#include <string.h>

#define RAW_MAX_NODES 512

typedef struct raw_model {
    const uint8_t *m; /* the model, after the 12-byte file header */
    int kotor2;
    char name[33];
    uint32_t nodes[RAW_MAX_NODES]; /* node header offsets, preorder */
    uint32_t node_count;
    uint32_t walkmesh; /* offset of the first AABB node */
} raw_model;

static inline uint32_t raw_u32(const raw_model *r, uint32_t at)
{
    const uint8_t *p = r->m + at;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint16_t raw_u16(const raw_model *r, uint32_t at)
{
    return (uint16_t)(r->m[at] | r->m[at + 1] << 8);
}

static inline float raw_f32(const raw_model *r, uint32_t at)
{
    float f;
    memcpy(&f, r->m + at, 4);
    return f;
}

static inline void raw_walk(raw_model *r, uint32_t node)
{
    if (r->node_count >= RAW_MAX_NODES) return;
    r->nodes[r->node_count++] = node;
    if ((raw_u16(r, node) & 0x200) && !r->walkmesh) r->walkmesh = node;
    for (uint32_t i = 0; i < raw_u32(r, node + 48); i++) raw_walk(r, raw_u32(r, raw_u32(r, node + 44) + 4 * i));
}

static inline void raw_open(raw_model *r, const uint8_t *file)
{
    memset(r, 0, sizeof *r);
    r->m = file + 12;
    uint32_t fp = raw_u32(r, 0);
    r->kotor2 = fp == 4285200u || fp == 4284816u || fp == 4285872u;
    memcpy(r->name, r->m + 8, 32);
    raw_walk(r, raw_u32(r, 40));
}

/* The node's name from the names array (model offset 184). */
static inline const char *raw_node_name(const raw_model *r, uint32_t node)
{
    return (const char *)r->m + raw_u32(r, raw_u32(r, 184) + 4 * raw_u16(r, node + 4));
}

static inline uint32_t raw_mesh_field(const raw_model *r, uint32_t at_end_offset)
{
    return r->walkmesh + 80 + (r->kotor2 ? 340u : 332u) + at_end_offset;
}

static inline uint32_t raw_vertex_count(const raw_model *r)
{
    return raw_u16(r, r->walkmesh + 80 + 304);
}

static inline const float *raw_vertex(const raw_model *r, uint32_t i, float out[3])
{
    uint32_t at = raw_u32(r, raw_mesh_field(r, 0) - 4) + 12 * i;
    for (int k = 0; k < 3; k++) out[k] = raw_f32(r, at + 4 * (uint32_t)k);
    return out;
}

static inline uint32_t raw_face_count(const raw_model *r)
{
    return raw_u32(r, r->walkmesh + 80 + 12);
}

/* Face record: normal, distance, material (+16), neighbours, vertices (+26). */
static inline uint32_t raw_face(const raw_model *r, uint32_t f, uint32_t v[3])
{
    uint32_t at = raw_u32(r, r->walkmesh + 80 + 8) + 32 * f;
    for (int k = 0; k < 3; k++) v[k] = raw_u16(r, at + 26 + 2 * (uint32_t)k);
    return raw_u32(r, at + 16);
}

/* The AABB tree's root box: min xyz, max xyz. */
static inline void raw_root_box(const raw_model *r, float box[6])
{
    uint32_t at = raw_u32(r, raw_mesh_field(r, 0));
    for (int k = 0; k < 6; k++) box[k] = raw_f32(r, at + 4 * (uint32_t)k);
}

#endif
