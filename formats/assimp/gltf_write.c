/* glTF 2.0 written by walkmesh itself, instead of Assimp's exporter, which
 * copies the scene and welds, triangulates and sorts it again: several
 * times the output's size at peak. Here the layout (every offset and length)
 * is computed from counts first, so the JSON (a GLB's first chunk) is written
 * before the binary buffer, which then streams through the sink in small
 * pieces. Besides the mesh it holds one index per triangle (the triangles
 * sorted by object and material) and one per vertex (the current
 * primitive's vertex numbers). Y-up, as the specification says. */
#include "gltf_plan.h"

#include <stdlib.h>
#include <string.h>

/* Z-up game (x, y, z) -> Y-up (x, z, -y), as every interchange writer */
static void to_y_up(const float *p, float out[3])
{
    out[0] = p[0];
    out[1] = p[2];
    out[2] = -p[1] + 0.0f;
}

static uint32_t material_key(const wm_mesh *mesh, uint32_t t)
{
    return 2u * mesh->surfaces[t] + mesh->walkable[t];
}

/* Materials numbered by first use, as the Assimp export did. */
static wm_result plan_materials(gltf_plan *p, uint32_t *material_of_pair, size_t pairs)
{
    for (size_t i = 0; i < pairs; i++)
        material_of_pair[i] = UINT32_MAX;
    p->material_pair = wm_alloc_array(p->ctx, pairs + 1, sizeof(uint32_t));
    if (!p->material_pair)
        return WM_ERR_NOMEM;
    for (uint32_t t = 0; t < p->mesh->triangle_count; t++) {
        uint32_t key = material_key(p->mesh, t);
        if (material_of_pair[key] == UINT32_MAX) {
            p->material_pair[p->material_count] = key;
            material_of_pair[key] = p->material_count++;
        }
    }
    return WM_OK;
}

/* Sorts the triangles by (object, material) with one counting pass and makes
 * a group of each non-empty pair. */
static wm_result plan_triangle_groups(gltf_plan *p, const uint32_t *material_of_pair)
{
    const wm_mesh *m = p->mesh;
    size_t objects = m->object_count ? m->object_count : 1, keys = objects * p->material_count;
    uint32_t *start = wm_alloc_array(p->ctx, keys + 1, sizeof(uint32_t));
    p->order = wm_alloc_array(p->ctx, m->triangle_count, sizeof(uint32_t));
    if (!start || !p->order) {
        wm_free(p->ctx, start);
        return WM_ERR_NOMEM;
    }
    memset(start, 0, (keys + 1) * sizeof(uint32_t));
    for (uint32_t t = 0; t < m->triangle_count; t++)
        start[(size_t)m->objects[t] * p->material_count + material_of_pair[material_key(m, t)] + 1]++;
    size_t used = 0;
    for (size_t k = 0; k < keys; k++) {
        used += start[k + 1] != 0;
        start[k + 1] += start[k];
    }
    size_t line_values = 0;
    for (size_t i = 0; i < p->edge_count; i++)
        line_values += i == 0 || p->edges[i].value != p->edges[i - 1].value;
    p->groups = wm_alloc_array(p->ctx, used + line_values + 1, sizeof(gltf_group));
    if (p->groups)
        for (size_t k = 0; k < keys; k++)
            if (start[k + 1] > start[k])
                p->groups[p->group_count++] = (gltf_group){.object = (uint32_t)(k / p->material_count),
                                                           .material = (uint32_t)(k % p->material_count),
                                                           .first = start[k],
                                                           .faces = start[k + 1] - start[k]};
    for (uint32_t t = 0; p->groups && t < m->triangle_count; t++)
        p->order[start[(size_t)m->objects[t] * p->material_count + material_of_pair[material_key(m, t)]]++] = t;
    wm_free(p->ctx, start);
    p->triangle_groups = p->group_count;
    return p->groups ? WM_OK : WM_ERR_NOMEM;
}

/* Mesh vertex number of the group's k-th corner (3 per triangle, 2 per edge). */
static uint32_t corner(const gltf_plan *p, const gltf_group *g, int lines, uint64_t k)
{
    if (lines) {
        const transition_edge *e = &p->edges[g->first + k / 2];
        return k % 2 ? e->b : e->a;
    }
    return p->mesh->indices[3 * (size_t)p->order[g->first + k / 3] + k % 3];
}

/* Counts the group's distinct vertices and their bounds; leaves the slots clear. */
static void scan_group(gltf_plan *p, gltf_group *g, int lines)
{
    uint64_t corners = (uint64_t)g->faces * (lines ? 2 : 3);
    g->vertices = 0;
    for (uint64_t k = 0; k < corners; k++) {
        uint32_t v = corner(p, g, lines, k);
        if (p->slot[v] != UINT32_MAX)
            continue;
        p->slot[v] = g->vertices++;
        float q[3];
        to_y_up(p->mesh->positions + 3 * (size_t)v, q);
        for (int i = 0; i < 3; i++) {
            if (g->vertices == 1 || q[i] < g->min[i])
                g->min[i] = q[i];
            if (g->vertices == 1 || q[i] > g->max[i])
                g->max[i] = q[i];
        }
    }
    for (uint64_t k = 0; k < corners; k++)
        p->slot[corner(p, g, lines, k)] = UINT32_MAX;
}

static void plan_line_groups(gltf_plan *p)
{
    for (size_t first = 0; first < p->edge_count;) {
        size_t last = first;
        while (last < p->edge_count && p->edges[last].value == p->edges[first].value)
            last++;
        p->groups[p->group_count++] =
            (gltf_group){.material = p->material_count, .first = (uint32_t)first, .faces = (uint32_t)(last - first)};
        first = last;
    }
}

static wm_result make_plan(gltf_plan *p)
{
    const wm_mesh *m = p->mesh;
    size_t pairs = 2 * ((size_t)wm_surfaces(p->ctx)->count + 1);
    uint32_t *material_of_pair = wm_alloc_array(p->ctx, pairs, sizeof(uint32_t));
    p->slot = wm_alloc_array(p->ctx, (size_t)m->vertex_count + 1, sizeof(uint32_t));
    if (!material_of_pair || !p->slot) {
        wm_free(p->ctx, material_of_pair);
        return WM_ERR_NOMEM;
    }
    p->edges = wm_assimp_transition_edges(m, &p->edge_count);
    wm_result r = p->edge_count && !p->edges ? WM_ERR_NOMEM : plan_materials(p, material_of_pair, pairs);
    if (!r)
        r = plan_triangle_groups(p, material_of_pair);
    wm_free(p->ctx, material_of_pair);
    if (r)
        return r;
    plan_line_groups(p);
    for (uint32_t v = 0; v < m->vertex_count; v++)
        p->slot[v] = UINT32_MAX;
    for (size_t i = 0; i < p->group_count; i++) {
        gltf_group *g = &p->groups[i];
        int lines = i >= p->triangle_groups;
        scan_group(p, g, lines);
        g->offset = p->bin_size;
        p->bin_size += wm_gltf_positions_size(g) + wm_gltf_indices_size(g, lines);
    }
    return WM_OK;
}

/* The binary buffer on its way to the sink, in pieces of a fixed size. */
typedef struct bin_stream {
    wm_sink *sink;
    const char *suffix; /* ".bin", or NULL: the GLB itself */
    size_t used;
    wm_result status;
    uint8_t piece[1 << 16];
} bin_stream;

static void flush(bin_stream *s)
{
    if (!s->status && s->used)
        s->status = wm_sink_write(s->sink, s->suffix, s->piece, s->used);
    s->used = 0;
}

static void put_u32(bin_stream *s, uint32_t v)
{
    if (s->used + 4 > sizeof s->piece)
        flush(s);
    uint8_t *b = s->piece + s->used; /* little-endian, as glTF says */
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
    b[2] = (uint8_t)(v >> 16);
    b[3] = (uint8_t)(v >> 24);
    s->used += 4;
}

static void put_f32(bin_stream *s, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    put_u32(s, v);
}

/* The group's positions (in first-use order) and then its indices. */
static void stream_group(gltf_plan *p, const gltf_group *g, int lines, bin_stream *s)
{
    uint64_t corners = (uint64_t)g->faces * (lines ? 2 : 3);
    uint32_t next = 0;
    for (uint64_t k = 0; k < corners; k++) {
        uint32_t v = corner(p, g, lines, k);
        if (p->slot[v] != UINT32_MAX)
            continue;
        p->slot[v] = next++;
        float q[3];
        to_y_up(p->mesh->positions + 3 * (size_t)v, q);
        put_f32(s, q[0]);
        put_f32(s, q[1]);
        put_f32(s, q[2]);
    }
    for (uint64_t k = 0; k < corners; k++)
        put_u32(s, p->slot[corner(p, g, lines, k)]);
    for (uint64_t k = 0; k < corners; k++)
        p->slot[corner(p, g, lines, k)] = UINT32_MAX;
}

static wm_result stream_bin(gltf_plan *p, wm_sink *sink, const char *suffix)
{
    bin_stream *s = wm_alloc_array(p->ctx, 1, sizeof *s);
    if (!s)
        return WM_ERR_NOMEM;
    s->sink = sink;
    s->suffix = suffix;
    s->used = 0;
    s->status = WM_OK;
    for (size_t i = 0; i < p->group_count && !s->status; i++)
        stream_group(p, &p->groups[i], i >= p->triangle_groups, s);
    flush(s);
    wm_result r = s->status;
    wm_free(p->ctx, s);
    return r;
}

static void put_le32(uint8_t *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

/* GLB: header, JSON chunk (padded with spaces), BIN chunk header, then the stream. */
static wm_result write_glb(gltf_plan *p, wm_sink *sink, wm_buffer *json)
{
    while (json->size % 4)
        wm_put_u8(json, ' ');
    if (json->status)
        return json->status;
    uint64_t total = 12 + 8 + (uint64_t)json->size + 8 + p->bin_size;
    if (total > UINT32_MAX)
        return wm_error(p->ctx, WM_ERR_UNSUPPORTED, "%s: %llu bytes: a GLB holds at most 4 GiB",
                        wm_sink_path(sink), (unsigned long long)total);
    uint8_t head[20], bin_head[8];
    memcpy(head, "glTF", 4);
    put_le32(head + 4, 2);
    put_le32(head + 8, (uint32_t)total);
    put_le32(head + 12, (uint32_t)json->size);
    memcpy(head + 16, "JSON", 4);
    put_le32(bin_head, (uint32_t)p->bin_size);
    memcpy(bin_head + 4, "BIN\0", 4);
    wm_result r = wm_sink_write(sink, NULL, head, sizeof head);
    if (!r)
        r = wm_sink_write(sink, NULL, json->data, json->size);
    if (!r)
        r = wm_sink_write(sink, NULL, bin_head, sizeof bin_head);
    return r ? r : stream_bin(p, sink, NULL);
}

static void free_plan(gltf_plan *p)
{
    wm_free(p->ctx, p->order);
    wm_free(p->ctx, p->slot);
    wm_free(p->ctx, p->material_pair);
    wm_free(p->ctx, p->groups);
    free(p->edges);
}

wm_result wm_gltf_write(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, int binary)
{
    const char *path = wm_sink_path(sink);
    gltf_plan plan = {.ctx = ctx, .mesh = mesh};
    wm_buffer json;
    wm_buffer_init(&json, ctx);
    wm_result r = make_plan(&plan);
    if (!r) {
        char uri[520];
        wm_assimp_stem(path, uri, sizeof uri - 4);
        strcat(uri, ".bin");
        wm_gltf_json(&plan, binary ? NULL : uri, &json);
        r = json.status;
    }
    if (!r && binary)
        r = write_glb(&plan, sink, &json);
    else if (!r) {
        r = wm_sink_write(sink, NULL, json.data, json.size);
        if (!r)
            r = stream_bin(&plan, sink, ".bin");
    }
    if (r == WM_ERR_NOMEM)
        wm_error(ctx, r, "%s: out of memory writing the glTF", path);
    wm_buffer_free(&json);
    free_plan(&plan);
    return r;
}
