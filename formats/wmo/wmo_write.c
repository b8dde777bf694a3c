/* Writing a neutral mesh as collision-only WMO groups plus a root: each
 * mesh object becomes one group, split spatially while it has more than the
 * u16 limit of vertices or triangles. Liquid triangles are left out (MLIQ is
 * a height grid, not a triangle soup). */
#include "wmo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct part {
    uint32_t start, count; /* range of the permuted triangle list */
    uint32_t object;
    uint32_t index_in_object, parts_in_object;
} part;

typedef struct plan {
    uint32_t *tris; /* triangle ids, grouped by part */
    uint32_t tri_count;
    part *parts;
    uint32_t part_count, part_capacity;
    uint32_t *stamp; /* per mesh vertex: last part id + 1 that used it */
    uint32_t stamp_id;
} plan;

typedef struct keyed {
    float key;
    uint32_t tri;
} keyed;

static int compare_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->tri > y->tri) - (x->tri < y->tri);
}

static uint32_t unique_vertices(plan *p, const wm_mesh *mesh, uint32_t start, uint32_t count)
{
    uint32_t n = 0;
    p->stamp_id++;
    for (uint32_t i = start; i < start + count; i++)
        for (int k = 0; k < 3; k++) {
            uint32_t v = mesh->indices[3 * (size_t)p->tris[i] + k];
            if (p->stamp[v] != p->stamp_id) {
                p->stamp[v] = p->stamp_id;
                n++;
            }
        }
    return n;
}

static float centroid(const wm_mesh *mesh, uint32_t t, int axis)
{
    const uint32_t *v = &mesh->indices[3 * (size_t)t];
    return mesh->positions[3 * v[0] + axis] + mesh->positions[3 * v[1] + axis] + mesh->positions[3 * v[2] + axis];
}

/* Splits [start, start+count) at the centroid median of its longest axis
 * until every part fits a group. */
static wm_result split_range(wm_ctx *ctx, plan *p, const wm_mesh *mesh, uint32_t start, uint32_t count,
                             uint32_t max_triangles, uint32_t object, keyed *scratch)
{
    if (count <= max_triangles && unique_vertices(p, mesh, start, count) <= WMO_MAX_GROUP_ELEMENTS) {
        if (p->part_count == p->part_capacity) {
            uint32_t grown = p->part_capacity ? p->part_capacity * 2 : 16;
            part *bigger = p->parts ? wm_realloc_array(ctx, p->parts, grown, sizeof *bigger)
                                    : wm_alloc_array(ctx, grown, sizeof *bigger);
            if (!bigger)
                return WM_ERR_NOMEM;
            p->parts = bigger;
            p->part_capacity = grown;
        }
        part *pt = &p->parts[p->part_count++];
        memset(pt, 0, sizeof *pt);
        pt->start = start;
        pt->count = count;
        pt->object = object;
        return WM_OK;
    }
    float lo[3], hi[3];
    for (int k = 0; k < 3; k++)
        lo[k] = hi[k] = centroid(mesh, p->tris[start], k);
    for (uint32_t i = start; i < start + count; i++)
        for (int k = 0; k < 3; k++) {
            float c = centroid(mesh, p->tris[i], k);
            lo[k] = c < lo[k] ? c : lo[k];
            hi[k] = c > hi[k] ? c : hi[k];
        }
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (hi[k] - lo[k] > hi[axis] - lo[axis])
            axis = k;
    for (uint32_t i = 0; i < count; i++) {
        scratch[i].tri = p->tris[start + i];
        scratch[i].key = centroid(mesh, scratch[i].tri, axis);
    }
    qsort(scratch, count, sizeof *scratch, compare_keyed);
    for (uint32_t i = 0; i < count; i++)
        p->tris[start + i] = scratch[i].tri;
    uint32_t half = count / 2;
    wm_result r = split_range(ctx, p, mesh, start, half, max_triangles, object, scratch);
    return r ? r : split_range(ctx, p, mesh, start + half, count - half, max_triangles, object, scratch);
}

static wm_result make_plan(wm_ctx *ctx, const wm_mesh *mesh, uint32_t max_triangles, plan *p)
{
    memset(p, 0, sizeof *p);
    uint32_t objects = mesh->object_count ? mesh->object_count : 1;
    p->tris = wm_alloc_array(ctx, mesh->triangle_count, sizeof *p->tris);
    p->stamp = wm_alloc_array(ctx, mesh->vertex_count, sizeof *p->stamp);
    keyed *scratch = wm_alloc_array(ctx, mesh->triangle_count, sizeof *scratch);
    if (!p->tris || !p->stamp || !scratch) {
        wm_free(ctx, scratch);
        return WM_ERR_NOMEM;
    }
    wm_result r = WM_OK;
    for (uint32_t o = 0; o < objects && !r; o++) {
        uint32_t start = p->tri_count;
        for (uint32_t t = 0; t < mesh->triangle_count; t++) {
            uint32_t object = mesh->objects ? mesh->objects[t] : 0;
            if (object >= objects)
                object = 0;
            if (object == o && mesh->surfaces[t] != WM_SURF_LIQUID)
                p->tris[p->tri_count++] = t;
        }
        uint32_t first_part = p->part_count;
        if (p->tri_count > start)
            r = split_range(ctx, p, mesh, start, p->tri_count - start, max_triangles, o, scratch);
        for (uint32_t i = first_part; i < p->part_count && !r; i++) {
            p->parts[i].index_in_object = i - first_part;
            p->parts[i].parts_in_object = p->part_count - first_part;
        }
    }
    wm_free(ctx, scratch);
    return r;
}

static void free_plan(wm_ctx *ctx, plan *p)
{
    wm_free(ctx, p->tris);
    wm_free(ctx, p->parts);
    wm_free(ctx, p->stamp);
}

char *wmo_group_path(wm_ctx *ctx, const char *root_path, uint32_t index)
{
    size_t len = strlen(root_path);
    size_t stem = (len >= 4 && strcasecmp(root_path + len - 4, ".wmo") == 0) ? len - 4 : len;
    char *out = wm_alloc_array(ctx, stem + 16, 1);
    if (out)
        snprintf(out, stem + 16, "%.*s_%03u.wmo", (int)stem, root_path, index);
    return out;
}

static void part_name(const wm_mesh *mesh, const part *pt, char *out, size_t cap)
{
    const char *base = (mesh->object_names && pt->object < mesh->object_count && mesh->object_names[pt->object] &&
                        mesh->object_names[pt->object][0])
                           ? mesh->object_names[pt->object]
                           : "collision";
    if (pt->parts_in_object > 1)
        snprintf(out, cap, "%s_%u", base, pt->index_in_object);
    else
        snprintf(out, cap, "%s", base);
}

/* The groups of a plan, as the root needs them. */
typedef struct group_entry {
    uint32_t name_offset;
    float lo[3], hi[3];
} group_entry;

static void part_bounds(const wm_mesh *mesh, const plan *p, const part *pt, group_entry *e)
{
    for (uint32_t i = 0; i < pt->count; i++)
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 3; k++) {
                float v = mesh->positions[3 * mesh->indices[3 * (size_t)p->tris[pt->start + i] + c] + k];
                if ((i == 0 && c == 0) || v < e->lo[k])
                    e->lo[k] = v;
                if ((i == 0 && c == 0) || v > e->hi[k])
                    e->hi[k] = v;
            }
}

/* Builds one part's group file image with its own compact vertex list. */
static wm_result build_part(wm_ctx *ctx, const wm_mesh *mesh, plan *p, const part *pt, uint32_t name_offset,
                            const wmo_write_options *opts, wm_buffer *out)
{
    uint32_t *local = wm_alloc_array(ctx, (size_t)pt->count * 3, sizeof *local);
    float *positions = wm_alloc_array(ctx, (size_t)pt->count * 9, sizeof *positions);
    if (!local || !positions) {
        wm_free(ctx, local);
        wm_free(ctx, positions);
        return WM_ERR_NOMEM;
    }
    /* stamp[v] holds the local index + 1 within this part */
    uint32_t vertex_count = 0;
    for (uint32_t i = 0; i < pt->count; i++)
        for (int k = 0; k < 3; k++)
            p->stamp[mesh->indices[3 * (size_t)p->tris[pt->start + i] + k]] = 0;
    for (uint32_t i = 0; i < pt->count; i++)
        for (int k = 0; k < 3; k++) {
            uint32_t v = mesh->indices[3 * (size_t)p->tris[pt->start + i] + k];
            if (p->stamp[v] == 0) {
                memcpy(&positions[3 * (size_t)vertex_count], &mesh->positions[3 * (size_t)v], 3 * sizeof(float));
                p->stamp[v] = ++vertex_count;
            }
            local[3 * (size_t)i + k] = p->stamp[v] - 1;
        }
    wm_result r = wmo_build_collision_group(ctx, positions, vertex_count, local, pt->count, name_offset,
                                            opts->group_flags, opts->leaf_size, out);
    wm_free(ctx, local);
    wm_free(ctx, positions);
    return r;
}

/* MOGN for new names appended to an existing block (or to "\0\0"). */
static void put_names(wm_buffer *b, const wm_mesh *mesh, const plan *p, group_entry *entries, const uint8_t *old,
                      uint32_t old_size)
{
    size_t start = b->size;
    if (old)
        wm_put_bytes(b, old, old_size);
    else
        wm_put_zeros(b, 2);
    for (uint32_t i = 0; i < p->part_count; i++) {
        char name[200];
        part_name(mesh, &p->parts[i], name, sizeof name);
        entries[i].name_offset = (uint32_t)(b->size - start);
        wm_put_bytes(b, name, strlen(name) + 1);
    }
    while ((b->size - start) % 4)
        wm_put_u8(b, 0);
}

static void put_group_infos(wm_buffer *b, const group_entry *entries, uint32_t count, uint32_t flags)
{
    for (uint32_t i = 0; i < count; i++) {
        wm_put_u32(b, flags | WMO_GROUP_HAS_BSP);
        for (int k = 0; k < 3; k++)
            wm_put_f32(b, entries[i].lo[k]);
        for (int k = 0; k < 3; k++)
            wm_put_f32(b, entries[i].hi[k]);
        wm_put_i32(b, (int32_t)entries[i].name_offset);
    }
}

static void put_mohd(wm_buffer *b, const wmo_root *base, uint32_t group_count, const float lo[3], const float hi[3])
{
    size_t at = wmo_begin_chunk(b, WMO_MOHD);
    wm_put_u32(b, base ? base->material_count : 0);
    wm_put_u32(b, group_count);
    wm_put_u32(b, base ? base->portal_count : 0);
    wm_put_u32(b, base ? base->light_count : 0);
    wm_put_u32(b, base ? base->model_count : 0);
    wm_put_u32(b, base ? base->doodad_count : 0);
    wm_put_u32(b, base ? base->set_count : 1);
    wm_put_u32(b, base ? base->ambient : 0);
    wm_put_u32(b, base ? base->wmo_id : 0);
    for (int k = 0; k < 3; k++)
        wm_put_f32(b, lo[k]);
    for (int k = 0; k < 3; k++)
        wm_put_f32(b, hi[k]);
    wm_put_u16(b, base ? base->flags : 0);
    wm_put_u16(b, base ? base->lod_count : 0);
    if (base) { /* keep any bytes a longer MOHD carries */
        const wmo_chunk *c = wmo_find_chunk(base->chunks, base->chunk_count, WMO_MOHD);
        wm_put_bytes(b, base->bytes + c->offset + 64, c->size - 64);
    }
    wmo_end_chunk(b, at);
}

static void empty_chunk(wm_buffer *b, uint32_t id, size_t zeros)
{
    size_t at = wmo_begin_chunk(b, id);
    wm_put_zeros(b, zeros);
    wmo_end_chunk(b, at);
}

/* A new root: no materials, portals, lights or doodads; one doodad set and
 * one default fog, as every corpus root has. */
static void build_new_root(wm_buffer *b, const wm_mesh *mesh, const plan *p, group_entry *entries,
                           const wmo_write_options *opts, const float lo[3], const float hi[3])
{
    size_t at = wmo_begin_chunk(b, WMO_MVER);
    wm_put_u32(b, WMO_VERSION);
    wmo_end_chunk(b, at);
    put_mohd(b, NULL, p->part_count, lo, hi);
    empty_chunk(b, WMO_ID('M', 'O', 'T', 'X'), 0);
    empty_chunk(b, WMO_ID('M', 'O', 'M', 'T'), 0);
    at = wmo_begin_chunk(b, WMO_MOGN);
    put_names(b, mesh, p, entries, NULL, 0);
    wmo_end_chunk(b, at);
    at = wmo_begin_chunk(b, WMO_MOGI);
    put_group_infos(b, entries, p->part_count, opts->group_flags);
    wmo_end_chunk(b, at);
    empty_chunk(b, WMO_ID('M', 'O', 'S', 'B'), 4);
    const uint32_t empty_ids[] = {WMO_ID('M', 'O', 'P', 'V'), WMO_ID('M', 'O', 'P', 'T'), WMO_ID('M', 'O', 'P', 'R'),
                                  WMO_ID('M', 'O', 'V', 'V'), WMO_ID('M', 'O', 'V', 'B'), WMO_ID('M', 'O', 'L', 'T')};
    for (size_t i = 0; i < sizeof empty_ids / sizeof empty_ids[0]; i++)
        empty_chunk(b, empty_ids[i], 0);
    at = wmo_begin_chunk(b, WMO_ID('M', 'O', 'D', 'S'));
    char set_name[20] = "Set_$DefaultGlobal";
    wm_put_bytes(b, set_name, sizeof set_name);
    wm_put_zeros(b, 12);
    wmo_end_chunk(b, at);
    empty_chunk(b, WMO_ID('M', 'O', 'D', 'N'), 0);
    empty_chunk(b, WMO_ID('M', 'O', 'D', 'D'), 0);
    at = wmo_begin_chunk(b, WMO_ID('M', 'F', 'O', 'G'));
    wm_put_zeros(b, 4 + 12 + 4 + 4); /* flags, position, radii: no local fog */
    wm_put_f32(b, 444.4445f);        /* fog end and start factor as in the corpus roots */
    wm_put_f32(b, 0.25f);
    wm_put_u32(b, 0xFFFFFFFFu);
    wm_put_f32(b, 222.2222f);
    wm_put_f32(b, -0.5f);
    wm_put_u32(b, 0xFF0000FFu);
    wmo_end_chunk(b, at);
}

/* The base root with our groups appended after its own. */
static void build_updated_root(wm_buffer *b, const wmo_root *base, const wm_mesh *mesh, const plan *p,
                               group_entry *entries, const wmo_write_options *opts, const float lo[3],
                               const float hi[3])
{
    float ulo[3], uhi[3];
    for (int k = 0; k < 3; k++) {
        ulo[k] = base->group_info_count && base->bbox_min[k] < lo[k] ? base->bbox_min[k] : lo[k];
        uhi[k] = base->group_info_count && base->bbox_max[k] > hi[k] ? base->bbox_max[k] : hi[k];
    }
    for (uint32_t i = 0; i < base->chunk_count; i++) {
        const wmo_chunk *c = &base->chunks[i];
        const uint8_t *payload = base->bytes + c->offset;
        if (c == wmo_find_chunk(base->chunks, base->chunk_count, c->id) &&
            (c->id == WMO_MOHD || c->id == WMO_MOGN || c->id == WMO_MOGI || c->id == WMO_GFID)) {
            if (c->id == WMO_MOHD) {
                put_mohd(b, base, base->group_info_count + p->part_count, ulo, uhi);
                continue;
            }
            size_t at = wmo_begin_chunk(b, c->id);
            if (c->id == WMO_MOGN)
                put_names(b, mesh, p, entries, payload, c->size);
            else
                wm_put_bytes(b, payload, c->size);
            if (c->id == WMO_MOGI)
                put_group_infos(b, entries, p->part_count, opts->group_flags);
            if (c->id == WMO_GFID)
                wm_put_zeros(b, (size_t)p->part_count * 4); /* no file data ids for loose files */
            wmo_end_chunk(b, at);
            continue;
        }
        wm_put_u32(b, c->id);
        wm_put_u32(b, c->size);
        wm_put_bytes(b, payload, c->size);
    }
}

static wm_result write_groups(wm_ctx *ctx, const wm_mesh *mesh, plan *p, const group_entry *entries,
                              uint32_t first_index, wm_sink *sink, const wmo_write_options *opts)
{
    wm_result r = WM_OK;
    for (uint32_t i = 0; i < p->part_count && !r; i++) {
        char suffix[32];
        snprintf(suffix, sizeof suffix, "_%03u.wmo", first_index + i); /* as wmo_group_path names it */
        wm_buffer b;
        wm_buffer_init(&b, ctx);
        r = build_part(ctx, mesh, p, &p->parts[i], entries[i].name_offset, opts, &b);
        r = r ? r : wm_sink_write(sink, suffix, b.data, b.size);
        wm_buffer_free(&b);
    }
    return r;
}

static void release_base(const wm_ctx *ctx, const wmo_write_options *opts, wmo_root *base)
{
    if (opts->base_bytes)
        base->bytes = NULL; /* borrowed: the caller frees them */
    wmo_root_free(ctx, base);
}

/* The root to update: parsed from the caller's bytes when it has them (read once), else read. */
static wm_result load_base(wm_ctx *ctx, const wmo_write_options *opts, wmo_root *base)
{
    /* parsing only reads the bytes it keeps a pointer to; release_base never frees borrowed ones */
    wm_result r = opts->base_bytes ? wmo_root_parse(ctx, (uint8_t *)opts->base_bytes, opts->base_size, opts->base_path, base)
                                   : wmo_root_load(ctx, opts->base_path, base);
    if (!r && !wmo_find_chunk(base->chunks, base->chunk_count, WMO_MOGN))
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: base root has no MOGN chunk to add group names to", opts->base_path);
    if (r)
        release_base(ctx, opts, base);
    return r;
}

wm_result wmo_write_mesh(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, const wmo_write_options *opts)
{
    const char *path = wm_sink_path(sink);
    wm_result r = wm_mesh_validate(ctx, mesh);
    if (r)
        return r;
    size_t len = strlen(path);
    if (len < 4 || strcasecmp(path + len - 4, ".wmo") != 0)
        return wm_error(ctx, WM_ERR_INVALID, "%s: a WMO root file name ends in .wmo", path);
    uint32_t max_triangles = opts->max_group_triangles;
    if (max_triangles == 0 || max_triangles > WMO_MAX_GROUP_ELEMENTS)
        max_triangles = WMO_MAX_GROUP_ELEMENTS;

    wmo_root base;
    memset(&base, 0, sizeof base);
    if (opts->base_path && (r = load_base(ctx, opts, &base)))
        return r;
    uint32_t first_index = opts->base_path ? base.group_info_count : 0;

    plan p;
    group_entry *entries = NULL;
    wm_buffer root;
    wm_buffer_init(&root, ctx);
    r = make_plan(ctx, mesh, max_triangles, &p);
    if (!r && p.part_count == 0)
        r = wm_error(ctx, WM_ERR_INVALID, "%s: the mesh has no collision triangles to write", path);
    if (!r && !(entries = wm_alloc_array(ctx, p.part_count, sizeof *entries)))
        r = WM_ERR_NOMEM;
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (uint32_t i = 0; i < p.part_count && !r; i++) {
        part_bounds(mesh, &p, &p.parts[i], &entries[i]);
        for (int k = 0; k < 3; k++) {
            lo[k] = (i == 0 || entries[i].lo[k] < lo[k]) ? entries[i].lo[k] : lo[k];
            hi[k] = (i == 0 || entries[i].hi[k] > hi[k]) ? entries[i].hi[k] : hi[k];
        }
    }
    if (!r) {
        if (opts->base_path)
            build_updated_root(&root, &base, mesh, &p, entries, opts, lo, hi);
        else
            build_new_root(&root, mesh, &p, entries, opts, lo, hi);
        r = root.status;
    }
    /* the groups first, then the root that lists them (the sink places them all together) */
    r = r ? r : write_groups(ctx, mesh, &p, entries, first_index, sink, opts);
    r = r ? r : wm_sink_write(sink, NULL, root.data, root.size);
    wm_buffer_free(&root);
    wm_free(ctx, entries);
    free_plan(ctx, &p);
    release_base(ctx, opts, &base);
    return r;
}

wm_result wmo_write_file(wm_ctx *ctx, const wm_mesh *mesh, const char *path, const wmo_write_options *opts)
{
    wm_sink *sink = NULL;
    wm_result r = wm_sink_open(ctx, path, opts->overwrite, &sink);
    if (!r && !(r = wmo_write_mesh(ctx, mesh, sink, opts)))
        r = wm_sink_commit(sink);
    wm_sink_close(sink);
    return r;
}
