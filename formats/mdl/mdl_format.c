/* The "mdl" format: the walkmesh node of KotOR I/II binary room models.
 * It claims .mdl so that no other game's model reaches Assimp's MDL reader
 * as if it were KotOR's: those are refused as unsupported. */
#include "mdl/mdl.h"
#include "bwm/bwm.h"
#include "wm_surface.h"

#include <stdio.h>
#include <string.h>

wm_result mdl_walkmesh_to_mesh(wm_ctx *ctx, const mdl_walkmesh *w, const double *room_offset, wm_mesh *out)
{
    const wm_surface_table *table = wm_surfaces(ctx);
    uint16_t object;
    uint32_t unknown = 0;
    wm_mesh_init(out);
    snprintf(out->name, sizeof out->name, "%s", w->model_name);
    wm_result r = wm_mesh_reserve(ctx, out, w->vertex_count, w->face_count);
    if (!r) r = wm_mesh_add_object(ctx, out, w->model_name[0] ? w->model_name : "room", &object);
    for (uint32_t i = 0; !r && i < w->vertex_count; i++) {
        const float *v = &w->vertices[3 * (size_t)i];
        double o[3] = {0, 0, 0};
        if (room_offset) memcpy(o, room_offset, sizeof o);
        r = wm_mesh_add_vertex(ctx, out, (float)(v[0] + o[0]), (float)(v[1] + o[1]), (float)(v[2] + o[2]), NULL);
    }
    for (uint32_t f = 0; !r && f < w->face_count; f++) {
        uint16_t s = wm_surface_from_kotor(table, (int32_t)(w->materials[f] & 0x7FFFFFFFu));
        if (s == WM_SURFACE_NONE) {
            unknown++;
            s = WM_SURF_UNDEFINED;
        }
        const uint32_t *t = &w->faces[3 * (size_t)f];
        r = wm_mesh_add_triangle(ctx, out, t[0], t[1], t[2], s, wm_surface_walkable(table, s));
    }
    if (!r) r = wm_mesh_set_point(ctx, out, BWM_POINT_POSITION, w->position);
    if (!r && unknown)
        wm_warn(ctx, "%s: %u faces have materials unknown to the surface table (read as undefined)", w->model_name,
                unknown);
    if (r) wm_mesh_free(ctx, out);
    return r;
}

static int mdl_probe(const uint8_t *head, size_t head_size, uint64_t file_size, const char *path)
{
    (void)path;
    return mdl_detect(head, head_size, file_size) != MDL_GAME_UNKNOWN ? 95 : 0;
}

/* Reads and parses the file named by path. */
static wm_result load(wm_ctx *ctx, const char *path, mdl_walkmesh *w)
{
    uint8_t *data = NULL;
    size_t size = 0;
    wm_result r = wm_file_read(ctx, path, &data, &size);
    if (r) return r;
    r = mdl_parse_walkmesh(ctx, data, size, path, w);
    wm_free(ctx, data);
    return r;
}

static wm_result mdl_read_hook(wm_ctx *ctx, const char *path, const wm_options *opts, wm_mesh *out)
{
    mdl_walkmesh w;
    double offset[3];
    int given = 0;
    wm_mesh_init(out);
    wm_result r = bwm_room_offset_option(ctx, opts, offset, &given);
    if (!r) r = load(ctx, path, &w);
    if (r) return r;
    r = mdl_walkmesh_to_mesh(ctx, &w, given ? offset : NULL, out);
    mdl_walkmesh_free(ctx, &w);
    return r;
}

static wm_result mdl_info_hook(wm_ctx *ctx, const char *path, const wm_options *opts, wm_report *report)
{
    mdl_walkmesh w;
    (void)opts;
    wm_result r = load(ctx, path, &w);
    if (r) return r;
    wm_report_fact(report, "game", "%s", w.game == MDL_GAME_K2 ? "KotOR II" : "KotOR I");
    wm_report_fact(report, "model", "%s", w.model_name);
    wm_report_fact(report, "nodes", "%u", w.node_count);
    wm_report_fact(report, "walkmesh node", "%s", w.node_name);
    wm_report_fact(report, "walkmesh nodes", "%u", w.aabb_nodes);
    wm_report_fact(report, "node position", "%g %g %g", w.position[0], w.position[1], w.position[2]);
    wm_report_fact(report, "node orientation", "%g %g %g %g", w.orientation[0], w.orientation[1], w.orientation[2],
                   w.orientation[3]);
    wm_report_fact(report, "model vertices", "%u", w.vertex_count);
    wm_report_fact(report, "faces", "%u", w.face_count);
    wm_report_fact(report, "room links", "none (binary models do not store them: they come from the .wok or the layout)");
    mdl_walkmesh_free(ctx, &w);
    return report->status;
}

/* The walkmesh the game would build from the model, checked like a .wok. */
static wm_result mdl_validate_hook(wm_ctx *ctx, const char *path, const wm_options *opts, wm_report *report)
{
    wm_mesh mesh;
    bwm_file file;
    wm_result r = mdl_read_hook(ctx, path, opts, &mesh);
    if (r) return r;
    r = bwm_from_mesh(ctx, &mesh, BWM_TYPE_AREA, opts ? opts->weld_tolerance : -1.0f, BWM_PLANES_BIOWARE, &file);
    wm_mesh_free(ctx, &mesh);
    if (r) return r;
    wm_buffer image;
    r = bwm_serialize(ctx, &file, &image);
    bwm_file_free(ctx, &file);
    if (r) return r;
    r = bwm_parse(ctx, image.data, image.size, path, &file);
    if (!r) r = bwm_validate(ctx, &file, image.size, report);
    if (!r) bwm_file_free(ctx, &file);
    wm_buffer_free(&image);
    return r ? r : report->status;
}

static const char *const mdl_extensions[] = {"mdl", NULL};

const wm_format wm_format_mdl = {
    .name = "mdl",
    .description = "KotOR I/II binary room model (.mdl): its walkmesh (AABB) node, placed as the game places it; "
                   "read only; other games' .mdl are refused",
    .extensions = mdl_extensions,
    .probe = mdl_probe,
    .read = mdl_read_hook,
    .write = NULL,
    .info = mdl_info_hook,
    .validate = mdl_validate_hook,
    .options = NULL,
};
