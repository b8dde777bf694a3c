/* OBJ + MTL written by hand, because the writer decides what a modelling
 * tool keeps: Blender's OBJ importer makes one object per `o` line (it
 * merges `g` groups into one), keeps `l` edges as loose edges, and its
 * exporter writes both back. So every mesh object becomes an `o` object and
 * every transition value an `o transition_<value>` object of `l` edges. */
#include "assimp_module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names on `o`, `usemtl` and `newmtl` lines end at the line end: keep
 * them on one line, and never empty. */
static void put_name(wm_buffer *b, const char *name)
{
    if (!name || !name[0])
        name = "walkmesh";
    for (const char *p = name; *p; p++)
        wm_put_u8(b, (uint8_t)(*p == '\n' || *p == '\r' ? '_' : *p));
}

static void put_vertex(wm_buffer *b, const float *p, int y_up)
{
    /* Z-up game (x, y, z) -> Y-up (x, z, -y); %.9g reads back as the same float */
    if (y_up)
        wm_put_text(b, "v %.9g %.9g %.9g\n", (double)p[0], (double)p[2], (double)(-p[1] + 0.0f));
    else
        wm_put_text(b, "v %.9g %.9g %.9g\n", (double)p[0], (double)p[1], (double)p[2]);
}

typedef struct obj_writer {
    wm_ctx *ctx;
    const wm_mesh *mesh;
    int y_up;
    wm_buffer obj, mtl;
    uint32_t *slot;     /* per mesh vertex: OBJ index (1-based) in the current object, 0 = not yet */
    uint32_t *touched;  /* vertices given a slot in the current object */
    uint32_t touched_count;
    uint32_t next_index; /* next OBJ vertex index (1-based, global) */
} obj_writer;

static uint32_t vertex_index(obj_writer *w, uint32_t v)
{
    if (!w->slot[v]) {
        put_vertex(&w->obj, w->mesh->positions + 3 * (size_t)v, w->y_up);
        w->slot[v] = w->next_index++;
        w->touched[w->touched_count++] = v;
    }
    return w->slot[v];
}

/* Each object gets its own vertices, so it stays a separate mesh in Blender. */
static void end_object(obj_writer *w)
{
    for (uint32_t i = 0; i < w->touched_count; i++)
        w->slot[w->touched[i]] = 0;
    w->touched_count = 0;
}

static void write_material(obj_writer *w, const char *name, const uint8_t rgb[3])
{
    wm_put_text(&w->mtl, "newmtl ");
    put_name(&w->mtl, name);
    wm_put_text(&w->mtl, "\nKd %.4f %.4f %.4f\nd 1\nillum 1\n\n", rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
}

/* A triangle's material, or (by_object) its object: one past the last for none, never written. */
static size_t bucket_of(const wm_mesh *m, uint32_t t, int by_object, uint32_t objects)
{
    if (by_object)
        return m->objects[t] < objects ? m->objects[t] : objects;
    return 2 * (size_t)m->surfaces[t] + m->walkable[t];
}

/* The triangles by object, then material (2 * surface + walkable), then index: the order the
 * file lists them in, by two stable counting sorts (material, then object) rather than a pass
 * over the mesh per object and material (an area of 65,535 rooms was quadratic). first[o] is
 * object o's first place in the order, first[objects] the end. */
static uint32_t *triangle_order(wm_ctx *ctx, const wm_mesh *m, size_t materials, uint32_t objects, uint32_t **first)
{
    size_t buckets = (materials > objects ? materials : objects) + 1;
    uint32_t *order = wm_alloc_array(ctx, (size_t)m->triangle_count + 1, sizeof *order);
    uint32_t *by_material = wm_alloc_array(ctx, (size_t)m->triangle_count + 1, sizeof *by_material);
    uint32_t *start = wm_alloc_array(ctx, buckets + 1, sizeof *start);
    *first = wm_alloc_array(ctx, (size_t)objects + 1, sizeof **first);
    for (int pass = 0; order && by_material && start && *first && pass < 2; pass++) {
        const uint32_t *from = pass ? by_material : NULL;
        uint32_t *to = pass ? order : by_material;
        memset(start, 0, (buckets + 1) * sizeof *start);
        for (uint32_t i = 0; i < m->triangle_count; i++)
            start[1 + bucket_of(m, from ? from[i] : i, pass, objects)]++;
        for (size_t b = 1; b <= buckets; b++)
            start[b] += start[b - 1];
        if (pass)
            memcpy(*first, start, ((size_t)objects + 1) * sizeof *start);
        for (uint32_t i = 0; i < m->triangle_count; i++) {
            uint32_t t = from ? from[i] : i;
            to[start[bucket_of(m, t, pass, objects)]++] = t;
        }
    }
    if (!by_material || !start || !*first) {
        wm_free(ctx, order), wm_free(ctx, *first);
        order = *first = NULL;
    }
    wm_free(ctx, by_material);
    wm_free(ctx, start);
    return order;
}

/* Object o's triangles (tris[0, count), in material order), a usemtl line per material. */
static void write_object(obj_writer *w, uint32_t o, const uint32_t *tris, uint32_t count)
{
    const wm_mesh *m = w->mesh;
    const wm_surface_table *table = wm_surfaces(w->ctx);
    if (!count)
        return;
    wm_put_text(&w->obj, "o ");
    put_name(&w->obj, m->object_count ? m->object_names[o] : m->name);
    wm_put_text(&w->obj, "\n");
    for (uint32_t i = 0; i < count; i++) {
        uint32_t t = tris[i];
        if (i == 0 || m->surfaces[t] != m->surfaces[tris[i - 1]] || m->walkable[t] != m->walkable[tris[i - 1]]) {
            char name[96];
            wm_assimp_surface_material_name(table, m->surfaces[t], m->walkable[t], name, sizeof name);
            wm_put_text(&w->obj, "usemtl ");
            put_name(&w->obj, name);
            wm_put_text(&w->obj, "\n");
        }
        /* vertices first: a face line may only refer to written ones */
        uint32_t idx[3];
        for (int k = 0; k < 3; k++)
            idx[k] = vertex_index(w, m->indices[3 * (size_t)t + k]);
        wm_put_text(&w->obj, "f %u %u %u\n", idx[0], idx[1], idx[2]);
    }
    end_object(w);
}

static void write_transitions(obj_writer *w, const transition_edge *edges, size_t count)
{
    for (size_t first = 0; first < count;) {
        size_t last = first;
        while (last < count && edges[last].value == edges[first].value)
            last++;
        wm_put_text(&w->obj, "o transition_%d\nusemtl transition\n", (int)edges[first].value);
        for (size_t i = first; i < last; i++) {
            uint32_t a = vertex_index(w, edges[i].a), b = vertex_index(w, edges[i].b);
            wm_put_text(&w->obj, "l %u %u\n", a, b);
        }
        end_object(w);
        first = last;
    }
}

/* Named points (a walkmesh's header position, use hooks) as objects
 * "point_<name>" of one upward edge from the point: Blender keeps loose
 * edges through import and export, and the reader takes the lower end. */
static void write_points(obj_writer *w)
{
    for (uint32_t i = 0; i < w->mesh->point_count && i < WM_MESH_MAX_POINTS; i++) {
        const wm_mesh_point *p = &w->mesh->points[i];
        float top[3] = {p->xyz[0], p->xyz[1], p->xyz[2] + 1.0f};
        wm_put_text(&w->obj, "o %s%s\n", WM_ASSIMP_POINT_PREFIX, p->name);
        put_vertex(&w->obj, p->xyz, w->y_up);
        put_vertex(&w->obj, top, w->y_up);
        wm_put_text(&w->obj, "l %u %u\n", w->next_index, w->next_index + 1);
        w->next_index += 2;
    }
}

wm_result wm_obj_write(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, int y_up)
{
    const char *path = wm_sink_path(sink);
    const wm_surface_table *table = wm_surfaces(ctx);
    obj_writer w = {0};
    w.ctx = ctx;
    w.mesh = mesh;
    w.y_up = y_up;
    w.next_index = 1;
    wm_buffer_init(&w.obj, ctx);
    wm_buffer_init(&w.mtl, ctx);
    size_t transition_count = 0;
    transition_edge *edges = wm_assimp_transition_edges(mesh, &transition_count);
    uint8_t *material_used = wm_alloc_array(ctx, 2 * (size_t)table->count, 1);
    w.slot = wm_alloc_array(ctx, mesh->vertex_count, sizeof(uint32_t));
    w.touched = wm_alloc_array(ctx, mesh->vertex_count, sizeof(uint32_t));
    wm_result r = WM_OK;
    if (!material_used || !w.slot || !w.touched) {
        r = WM_ERR_NOMEM;
        goto done;
    }
    for (uint32_t t = 0; t < mesh->triangle_count; t++)
        material_used[2 * (size_t)mesh->surfaces[t] + mesh->walkable[t]] = 1;

    char stem[512];
    wm_assimp_stem(path, stem, sizeof stem);
    wm_put_text(&w.obj, "# walkmesh %s: %u triangles, surfaces as materials, transitions as edge objects\n",
                WALKMESH_VERSION, mesh->triangle_count);
    wm_put_text(&w.obj, "mtllib %s.mtl\n", stem);
    wm_put_text(&w.mtl, "# walkmesh %s: one material per surface\n\n", WALKMESH_VERSION);
    for (size_t material = 0; material < 2 * (size_t)table->count; material++)
        if (material_used[material]) {
            char name[96];
            wm_assimp_surface_material_name(table, (uint16_t)(material / 2), (int)(material % 2), name, sizeof name);
            write_material(&w, name, table->entries[material / 2].color);
        }
    if (transition_count) {
        static const uint8_t amber[3] = {0xff, 0xab, 0x00};
        write_material(&w, "transition", amber);
    }
    uint32_t objects = mesh->object_count ? mesh->object_count : 1, *first = NULL;
    uint32_t *order = triangle_order(ctx, mesh, 2 * (size_t)table->count, objects, &first);
    if (!order) {
        r = WM_ERR_NOMEM;
        goto done;
    }
    for (uint32_t o = 0; o < objects; o++)
        write_object(&w, o, order + first[o], first[o + 1] - first[o]);
    wm_free(ctx, order);
    wm_free(ctx, first);
    write_transitions(&w, edges, transition_count);
    write_points(&w);
    r = w.obj.status ? w.obj.status : w.mtl.status;
    if (!r) {
        output_file files[2] = {{NULL, w.obj.data, w.obj.size}, {"mtl", w.mtl.data, w.mtl.size}};
        r = wm_assimp_write_outputs(sink, files, 2);
    }
done:
    if (r == WM_ERR_NOMEM)
        wm_error(ctx, r, "%s: out of memory writing the OBJ", path);
    free(edges);
    wm_free(ctx, material_used);
    wm_free(ctx, w.slot);
    wm_free(ctx, w.touched);
    wm_buffer_free(&w.obj);
    wm_buffer_free(&w.mtl);
    return r;
}
