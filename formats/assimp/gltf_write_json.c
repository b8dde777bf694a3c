/* The JSON of walkmesh's glTF: a root node named after the mesh, one child
 * node and mesh per object with a triangle primitive per material, one
 * node and line mesh per transition value ("transition_<value>"), and one
 * empty per named point ("point_<name>", placed by its translation). A
 * material per surface, named as the reader maps it back. */
#include "gltf_plan.h"

#include "wm_platform.h"
#include <stdio.h>

/* %.9g reads back as the same float: the bounds equal the data exactly */
static void put_vec3(wm_buffer *b, const float v[3])
{
    wm_put_text(b, "[%.9g,%.9g,%.9g]", (double)v[0], (double)v[1], (double)v[2]);
}

static const char *object_name(const wm_mesh *mesh, uint32_t o)
{
    return mesh->object_count ? mesh->object_names[o] : "walkmesh";
}

static void put_materials(const gltf_plan *p, wm_buffer *b)
{
    const wm_surface_table *table = wm_surfaces(p->ctx);
    wm_put_text(b, ",\"materials\":[");
    for (uint32_t m = 0; m <= p->material_count; m++) {
        static const uint8_t amber[3] = {0xff, 0xab, 0x00};
        const uint8_t *rgb = amber;
        char name[96] = "transition";
        if (m == p->material_count && p->edge_count == 0)
            break;
        if (m < p->material_count) {
            uint16_t surface = (uint16_t)(p->material_pair[m] / 2);
            wm_assimp_surface_material_name(table, surface, (int)(p->material_pair[m] % 2), name, sizeof name);
            rgb = table->entries[surface].color;
        }
        wm_put_text(b, "%s{\"name\":", m ? "," : "");
        wm_put_json_string(b, name);
        wm_put_text(b, ",\"pbrMetallicRoughness\":{\"baseColorFactor\":[%.6g,%.6g,%.6g,1],\"metallicFactor\":0}}",
                    rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
    }
    wm_put_u8(b, ']');
}

/* Per group: its positions' and its indices' accessor and buffer view (2g, 2g + 1). */
static void put_accessors(const gltf_plan *p, wm_buffer *b)
{
    wm_put_text(b, ",\"accessors\":[");
    for (size_t i = 0; i < p->group_count; i++) {
        const gltf_group *g = &p->groups[i];
        int lines = i >= p->triangle_groups;
        wm_put_text(b, "%s{\"bufferView\":%zu,\"componentType\":5126,\"count\":%u,\"type\":\"VEC3\",\"min\":",
                    i ? "," : "", 2 * i, g->vertices);
        put_vec3(b, g->min);
        wm_put_text(b, ",\"max\":");
        put_vec3(b, g->max);
        wm_put_text(b, "},{\"bufferView\":%zu,\"componentType\":5125,\"count\":%llu,\"type\":\"SCALAR\"}", 2 * i + 1,
                    (unsigned long long)g->faces * (lines ? 2 : 3));
    }
    wm_put_text(b, "],\"bufferViews\":[");
    for (size_t i = 0; i < p->group_count; i++) {
        const gltf_group *g = &p->groups[i];
        uint64_t positions = wm_gltf_positions_size(g);
        wm_put_text(b,
                    "%s{\"buffer\":0,\"byteOffset\":%llu,\"byteLength\":%llu,\"target\":34962},"
                    "{\"buffer\":0,\"byteOffset\":%llu,\"byteLength\":%llu,\"target\":34963}",
                    i ? "," : "", (unsigned long long)g->offset, (unsigned long long)positions,
                    (unsigned long long)(g->offset + positions),
                    (unsigned long long)wm_gltf_indices_size(g, i >= p->triangle_groups));
    }
    wm_put_u8(b, ']');
}

/* The mesh and node name of the group starting at i, and the group after its mesh's. */
static size_t mesh_of(const gltf_plan *p, size_t i, char name[static 128], const char **out_name)
{
    const gltf_group *g = &p->groups[i];
    if (i >= p->triangle_groups) {
        snprintf(name, 128, "transition_%d", (int)p->edges[g->first].value);
        *out_name = name;
        return i + 1;
    }
    *out_name = object_name(p->mesh, g->object);
    size_t last = i + 1;
    while (last < p->triangle_groups && p->groups[last].object == g->object)
        last++;
    return last;
}

static void put_primitive(wm_buffer *b, size_t group, const gltf_group *g, int lines, int first)
{
    wm_put_text(b, "%s{\"attributes\":{\"POSITION\":%zu},\"indices\":%zu,\"material\":%u,\"mode\":%d}",
                first ? "" : ",", 2 * group, 2 * group + 1, g->material, lines ? 1 : 4);
}

/* One mesh per object with faces (its groups are consecutive), then one per
 * transition value; returns the number of meshes. */
static size_t put_meshes(const gltf_plan *p, wm_buffer *b)
{
    size_t meshes = 0;
    wm_put_text(b, ",\"meshes\":[");
    for (size_t i = 0; i < p->group_count; meshes++) {
        char buf[128];
        const char *name;
        size_t last = mesh_of(p, i, buf, &name);
        wm_put_text(b, "%s{\"name\":", meshes ? "," : "");
        wm_put_json_string(b, name);
        wm_put_text(b, ",\"primitives\":[");
        for (size_t k = i; k < last; k++)
            put_primitive(b, k, &p->groups[k], k >= p->triangle_groups, k == i);
        wm_put_text(b, "]}");
        i = last;
    }
    wm_put_u8(b, ']');
    return meshes;
}

/* Node 0 is the root; nodes 1..meshes carry the meshes in order; the points follow. */
static void put_nodes(const gltf_plan *p, size_t meshes, wm_buffer *b)
{
    const wm_mesh *m = p->mesh;
    uint32_t points = m->point_count < WM_MESH_MAX_POINTS ? m->point_count : WM_MESH_MAX_POINTS;
    wm_put_text(b, ",\"nodes\":[{\"name\":");
    wm_put_json_string(b, m->name[0] ? m->name : "walkmesh");
    wm_put_text(b, ",\"children\":[");
    for (size_t n = 1; n <= meshes + points; n++)
        wm_put_text(b, "%s%zu", n > 1 ? "," : "", n);
    wm_put_text(b, "]}");
    size_t mesh = 0;
    for (size_t i = 0; i < p->group_count; mesh++) {
        char buf[128];
        const char *name;
        i = mesh_of(p, i, buf, &name);
        wm_put_text(b, ",{\"name\":");
        wm_put_json_string(b, name);
        wm_put_text(b, ",\"mesh\":%zu}", mesh);
    }
    for (uint32_t i = 0; i < points; i++) {
        float q[3] = {m->points[i].xyz[0], m->points[i].xyz[2], -m->points[i].xyz[1] + 0.0f};
        char name[128];
        snprintf(name, sizeof name, "%s%s", WM_ASSIMP_POINT_PREFIX, m->points[i].name);
        wm_put_text(b, ",{\"name\":");
        wm_put_json_string(b, name);
        wm_put_text(b, ",\"translation\":");
        put_vec3(b, q);
        wm_put_u8(b, '}');
    }
    wm_put_u8(b, ']');
}

void wm_gltf_json(const gltf_plan *p, const char *buffer_uri, wm_buffer *out)
{
    wm_put_text(out, "{\"asset\":{\"version\":\"2.0\",\"generator\":\"walkmesh %s\"},\"scene\":0,"
                     "\"scenes\":[{\"nodes\":[0]}]",
                WALKMESH_VERSION);
    size_t meshes = put_meshes(p, out);
    put_nodes(p, meshes, out);
    put_materials(p, out);
    put_accessors(p, out);
    wm_put_text(out, ",\"buffers\":[{\"byteLength\":%llu", (unsigned long long)p->bin_size);
    if (buffer_uri) {
        wm_put_text(out, ",\"uri\":");
        wm_put_json_string(out, buffer_uri);
    }
    wm_put_text(out, "}]}\n");
}
