/* The render meshes of a binary model: what the game draws of a room, for a
 * modder to see beside the walkmesh. Positions come from the copy every mesh
 * keeps in the model (the .mdx holds them again, with normals and texture
 * coordinates, and is not needed); faces are the mesh's 32-byte face records. */
#include "mdl/mdl_reader.h"
#include "wm_geometry.h"
#include "wm_surface.h"

#include <math.h>
#include <string.h>
#include <strings.h>

/* Mesh header fields after the 80-byte node header (measured on the corpus models). */
#define MESH_FACES 8u      /* faces array: offset, count */
#define MESH_TEXTURE 88u   /* texture 0 name, 32 bytes */
#define MESH_VERTICES 304u /* vertex count, u16 */
#define MESH_RENDER 313u   /* render flag, u8 (after lightmapped, rotate texture, background, shadow, beaming) */

typedef struct mesh_fields {
    uint32_t face_offset, face_count, vertex_offset;
    uint16_t vertex_count;
    uint8_t render;
    char texture[33];
} mesh_fields;

static wm_result read_fields(mdl_reader *r, uint32_t node, mesh_fields *m)
{
    uint32_t mesh = node + MDL_NODE_HEADER, header = r->out->game == MDL_GAME_K2 ? MDL_K2_MESH_HEADER : MDL_K1_MESH_HEADER;
    const uint8_t *texture;
    wm_result res = mdl_seek(r, mesh + MESH_FACES, "mesh faces array");
    if (!res) res = wm_read_u32(&r->cur, &m->face_offset, "faces offset");
    if (!res) res = wm_read_u32(&r->cur, &m->face_count, "faces count");
    if (!res) res = mdl_seek(r, mesh + MESH_TEXTURE, "mesh texture");
    if (!res) res = wm_read_view(&r->cur, &texture, 32, "mesh texture");
    if (!res) res = mdl_seek(r, mesh + MESH_VERTICES, "mesh vertex count");
    if (!res) res = wm_read_u16(&r->cur, &m->vertex_count, "vertex count");
    if (!res) res = mdl_seek(r, mesh + MESH_RENDER, "mesh render flag");
    if (!res) res = wm_read_u8(&r->cur, &m->render, "render flag");
    if (!res) res = mdl_seek(r, mesh + header - 4, "mesh vertex offset");
    if (!res) res = wm_read_u32(&r->cur, &m->vertex_offset, "vertex offset");
    if (res) return res;
    size_t n = 0;
    while (n < 32 && texture[n] >= 0x20 && texture[n] < 0x7F) n++;
    memcpy(m->texture, texture, n);
    m->texture[n] = 0;
    return WM_OK;
}

static wm_result add_vertices(mdl_reader *r, const mesh_fields *m, const bwm_xform *world)
{
    wm_mesh *mesh = r->render->mesh;
    wm_result res = mdl_seek(r, m->vertex_offset, "mesh vertices");
    if (!res) res = wm_mesh_reserve(r->ctx, mesh, mesh->vertex_count + m->vertex_count, mesh->triangle_count + m->face_count);
    for (uint32_t i = 0; !res && i < m->vertex_count; i++) {
        double v[3], p[3];
        res = mdl_read_f32s(r, v, 3, "mesh vertex");
        if (res) break;
        bwm_rotate(world->q, v, p);
        for (int k = 0; k < 3; k++) {
            p[k] += world->t[k];
            if (fabs(p[k]) > WM_COORD_LIMIT)
                return wm_cursor_error(&r->cur, WM_ERR_CORRUPT, "%s: vertex %u placed lies at %g, beyond the "
                                       "bound of 1e7 game units", r->node, i, p[k]);
        }
        res = wm_mesh_add_vertex(r->ctx, mesh, (float)p[0], (float)p[1], (float)p[2], NULL);
    }
    return res;
}

/* Face record: normal, distance, material, three neighbours, three vertex indices (+26). */
static wm_result add_faces(mdl_reader *r, const mesh_fields *m, uint32_t base)
{
    /* a texture the surface table names (an alias from --materials, say) gives the faces its surface */
    uint16_t surface = wm_surface_from_name(wm_surfaces(r->ctx), m->texture);
    if (surface == WM_SURFACE_NONE)
        surface = WM_SURF_UNDEFINED;
    wm_result res = WM_OK;
    for (uint32_t f = 0; !res && f < m->face_count; f++) {
        uint16_t v[3];
        res = mdl_seek(r, m->face_offset + MDL_FACE_SIZE * f + 26, "face vertices");
        for (int k = 0; !res && k < 3; k++) res = wm_read_u16(&r->cur, &v[k], "face vertex");
        for (int k = 0; !res && k < 3; k++)
            if (v[k] >= m->vertex_count)
                res = wm_cursor_error(&r->cur, WM_ERR_CORRUPT, "%s: face %u: vertex %u out of range (%u vertices)",
                                      r->node, f, v[k], m->vertex_count);
        if (!res) res = wm_mesh_add_triangle(r->ctx, r->render->mesh, base + v[0], base + v[1], base + v[2],
                                             surface, 0);
    }
    return res;
}

/* One object per mesh node (objects are found by name, so their number is
 * capped: past it the meshes share one object, and a hostile model of many
 * thousand nodes stays linear). */
#define MDL_RENDER_OBJECTS 4096u

wm_result mdl_read_render_mesh(mdl_reader *r, uint32_t node, const bwm_xform *world)
{
    mesh_fields m;
    uint16_t object;
    wm_mesh *mesh = r->render->mesh;
    wm_result res = read_fields(r, node, &m);
    if (res) return res;
    if (!m.render || strcasecmp(m.texture, "NULL") == 0) { /* not drawn, or drawn invisible */
        r->render->hidden++;
        return WM_OK;
    }
    /* both arrays checked against the bytes, and the triangles against the limit, before anything grows */
    res = mdl_seek(r, m.face_offset, "mesh faces");
    if (!res) res = wm_cursor_check_array(&r->cur, m.face_count, MDL_FACE_SIZE, 0, "mesh faces");
    if (!res) res = mdl_seek(r, m.vertex_offset, "mesh vertices");
    if (!res) res = wm_cursor_check_array(&r->cur, m.vertex_count, 12, 0, "mesh vertices");
    if (!res && (uint64_t)mesh->triangle_count + m.face_count > r->ctx->limits.max_triangles)
        res = wm_error(r->ctx, WM_ERR_LIMIT, "%s: %s: the render meshes have more than %llu triangles", r->cur.source,
                       r->node, (unsigned long long)r->ctx->limits.max_triangles);
    if (res) return res;
    uint32_t base = mesh->vertex_count, first = mesh->triangle_count;
    res = wm_mesh_add_object(r->ctx, mesh, r->render->meshes < MDL_RENDER_OBJECTS ? r->node : "more meshes", &object);
    if (!res) res = add_vertices(r, &m, world);
    if (!res) res = add_faces(r, &m, base);
    for (uint32_t t = first; !res && t < mesh->triangle_count; t++) mesh->objects[t] = object;
    r->render->meshes += res == WM_OK;
    return res;
}
