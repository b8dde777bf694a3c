/* ASCII walkmeshes written in the form KOTORMax and MDLOps read: a
 * `.wok.ascii` (KOTORMax's "WOKMESH" export: one trimesh node, vertices
 * with the node position in them) or the walkmesh node of a `.mdl.ascii`
 * (a `node aabb` under the model's root dummy, vertices relative to the
 * node). Floats are printed with 9 significant digits, so every float comes
 * back bit-exact. Room links are `face*3+edge room` rows; PWK/DWK use hooks
 * are dummy nodes <name>_use01/_use02 (relative) and _abs_use01/_abs_use02. */
#include "bwm/bwm.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static void put_vec(wm_buffer *out, const char *key, const float v[3])
{
    wm_put_text(out, "  %s %.9g %.9g %.9g\n", key, (double)v[0], (double)v[1], (double)v[2]);
}

static void put_vertices(wm_buffer *out, const bwm_file *file, const float *origin)
{
    wm_put_text(out, "  verts %u\n", file->vertex_count);
    for (uint32_t i = 0; i < file->vertex_count; i++) {
        const float *v = &file->vertices[3 * (size_t)i];
        if (origin) /* model form: node-relative, as the compiler stores it */
            wm_put_text(out, "    %.9g %.9g %.9g\n", (double)(v[0] - origin[0]), (double)(v[1] - origin[1]),
                        (double)(v[2] - origin[2]));
        else
            wm_put_text(out, "    %.9g %.9g %.9g\n", (double)v[0], (double)v[1], (double)v[2]);
    }
}

/* Faces "v1 v2 v3 smoothgroup tv1 tv2 tv3 material", the AABB tree in
 * preorder (box and face, -1 on internal nodes) and the room links. */
static void put_faces_tree_links(wm_buffer *out, const bwm_file *file)
{
    wm_put_text(out, "  faces %u\n", file->face_count);
    for (uint32_t f = 0; f < file->face_count; f++) {
        const uint32_t *t = &file->faces[3 * (size_t)f];
        wm_put_text(out, "    %u %u %u 1 0 0 0 %u\n", t[0], t[1], t[2], file->materials[f]);
    }
    if (file->aabb_count) {
        wm_put_text(out, "  aabb\n");
        for (uint32_t i = 0; i < file->aabb_count; i++) {
            const bwm_aabb_node *n = &file->aabb[i];
            wm_put_text(out, "    %.9g %.9g %.9g %.9g %.9g %.9g %d\n", (double)n->min[0], (double)n->min[1],
                        (double)n->min[2], (double)n->max[0], (double)n->max[1], (double)n->max[2], n->face);
        }
    }
    uint32_t links = 0;
    for (uint32_t e = 0; e < file->edge_count; e++) links += file->edges[e].transition >= 0;
    if (!links) return;
    wm_put_text(out, "  roomlinks %u\n", links);
    for (uint32_t e = 0; e < file->edge_count; e++)
        if (file->edges[e].transition >= 0)
            wm_put_text(out, "    %u %d\n", file->edges[e].code, file->edges[e].transition);
}

static void put_hooks(wm_buffer *out, const bwm_file *file, const char *name, const char *parent)
{
    static const char *const suffix[4] = {"use01", "use02", "abs_use01", "abs_use02"};
    for (int i = 0; i < 4; i++) {
        wm_put_text(out, "node dummy %s_%s\n  parent %s\n", name, suffix[i], parent);
        put_vec(out, "position", i < 2 ? file->rel_hook[i] : file->abs_hook[i - 2]);
        wm_put_text(out, "endnode\n");
    }
}

wm_result bwm_ascii_serialize(wm_ctx *ctx, const bwm_file *file, int model_form, const char *name, wm_buffer *out)
{
    wm_buffer_init(out, ctx);
    name = name && name[0] ? name : "walkmesh";
    wm_put_text(out, "# written by walkmesh\n");
    if (model_form) {
        wm_put_text(out, "newmodel %s\nsetsupermodel %s NULL\nclassification Tile\nsetanimationscale 1.0\n"
                         "beginmodelgeom %s\nnode dummy %s\n  parent NULL\nendnode\n",
                    name, name, name, name);
        wm_put_text(out, "node aabb %s_wg\n  parent %s\n", name, name);
    } else {
        wm_put_text(out, "# %s  ASCII\nnode trimesh %s_wg\n  parent %s\n",
                    file->type == BWM_TYPE_AREA ? "WOKMESH" : "PWKMESH", name, name);
    }
    put_vec(out, "position", file->position);
    wm_put_text(out, "  orientation 0 0 0 0\n");
    put_vertices(out, file, model_form ? file->position : NULL);
    put_faces_tree_links(out, file);
    wm_put_text(out, "endnode\n");
    if (file->type == BWM_TYPE_PLACEABLE) put_hooks(out, file, name, name);
    if (model_form) wm_put_text(out, "endmodelgeom %s\ndonemodel %s\n", name, name);
    if (out->status) wm_buffer_free(out);
    return out->status;
}

/* "room.mdl.ascii" is a model, any other "*.ascii" a .wok/.pwk/.dwk export. */
static int model_form_of(const char *path, uint32_t *type)
{
    const char *file = wm_path_file_name(path);
    size_t n = strlen(file);
    const char *tail = n >= 10 ? file + n - 10 : "";
    *type = BWM_TYPE_AREA;
    if (strcasecmp(tail, ".pwk.ascii") == 0 || strcasecmp(tail, ".dwk.ascii") == 0) *type = BWM_TYPE_PLACEABLE;
    return strcasecmp(tail, ".mdl.ascii") == 0;
}

static void stem(const char *path, char *out, size_t size)
{
    snprintf(out, size, "%s", wm_path_file_name(path));
    char *dot = strchr(out, '.');
    if (dot && dot != out) *dot = 0;
}

wm_result bwm_ascii_write_hook(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, const wm_options *opts)
{
    const char *path = wm_sink_path(sink);
    uint32_t type;
    int model_form = model_form_of(path, &type);
    char name[128];
    bwm_file file;
    wm_buffer text;
    stem(path, name, sizeof name);
    wm_result r = bwm_file_for_mesh(ctx, mesh, type, opts, &file);
    if (r) return r;
    r = bwm_ascii_serialize(ctx, &file, model_form, name, &text);
    bwm_file_free(ctx, &file);
    if (r) return r;
    r = wm_sink_write(sink, NULL, text.data, text.size);
    wm_buffer_free(&text);
    return r;
}
