/* The "mdl" format: the walkmesh node of KotOR I/II binary room models.
 * It claims .mdl so that no other game's model reaches Assimp's MDL reader
 * as if it were KotOR's: those are refused as unsupported. */
#include "mdl/mdl.h"
#include "bwm/bwm.h"
#include "lyt/lyt.h"
#include "wm_geometry.h"
#include "wm_surface.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct placed_vertex {
    float p[3];
    uint32_t v;
} placed_vertex;

static int by_position(const void *x, const void *y)
{
    const placed_vertex *a = x, *b = y;
    int c = memcmp(a->p, b->p, sizeof a->p); /* any total order: only equality matters */
    return c ? c : (a->v > b->v) - (a->v < b->v);
}

/* The compiled .wok numbers each distinct position once, in the order the
 * walkable-first faces first use it (true of every KOTORMax-compiled corpus
 * file); the model repeats a position per face. new_index[v] = that number. */
static wm_result number_vertices(wm_ctx *ctx, const mdl_walkmesh *w, const uint8_t *walkable, uint32_t *new_index,
                                 uint32_t *count)
{
    uint32_t n = w->vertex_count, *same = wm_alloc_array(ctx, (size_t)n + 1, sizeof *same);
    placed_vertex *order = wm_alloc_array(ctx, (size_t)n + 1, sizeof *order);
    if (!order || !same) {
        wm_free(ctx, order);
        wm_free(ctx, same);
        return WM_ERR_NOMEM;
    }
    for (uint32_t v = 0; v < n; v++) {
        memcpy(order[v].p, &w->vertices[3 * (size_t)v], sizeof order[v].p);
        order[v].v = v;
        new_index[v] = UINT32_MAX;
    }
    qsort(order, n, sizeof *order, by_position);
    for (uint32_t i = 0; i < n; i++) /* same[v] = the first vertex at v's position */
        same[order[i].v] = i && !memcmp(order[i].p, order[i - 1].p, sizeof order[i].p) ? same[order[i - 1].v] : order[i].v;
    *count = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t f = 0; f < w->face_count; f++)
            for (int k = 0; (walkable[f] != 0) == (pass == 0) && k < 3; k++) {
                uint32_t first = same[w->faces[3 * (size_t)f + k]];
                if (new_index[first] == UINT32_MAX) new_index[first] = (*count)++;
            }
    for (uint32_t v = 0; v < n; v++) new_index[v] = new_index[same[v]];
    wm_free(ctx, order);
    wm_free(ctx, same);
    return WM_OK;
}

static wm_result add_vertices(wm_ctx *ctx, const mdl_walkmesh *w, const uint32_t *new_index, uint32_t count,
                              const double *room_offset, wm_mesh *out)
{
    double o[3] = {0, 0, 0};
    if (room_offset) memcpy(o, room_offset, sizeof o);
    wm_result r = wm_mesh_reserve(ctx, out, count, w->face_count);
    for (uint32_t v = 0; !r && v < count; v++) r = wm_mesh_add_vertex(ctx, out, 0, 0, 0, NULL);
    for (uint32_t v = 0; !r && v < w->vertex_count; v++) {
        if (new_index[v] == UINT32_MAX) continue; /* no face uses it */
        const float *p = &w->vertices[3 * (size_t)v];
        float *q = &out->positions[3 * (size_t)new_index[v]];
        for (int k = 0; !r && k < 3; k++) {
            double at = p[k] + o[k];
            if (fabs(at) > WM_COORD_LIMIT)
                r = wm_error(ctx, WM_ERR_INVALID, "%s: vertex %u moved by the room offset lies at %g, beyond the "
                             "bound of 1e7 game units", w->model_name, v, at);
            q[k] = (float)at;
        }
    }
    return r;
}

static wm_result check_kept_apart(wm_ctx *ctx, const mdl_walkmesh *w, const wm_mesh *out)
{
    uint32_t first = 0, collapsed = bwm_faces_losing_corners(w->stored, w->faces, out->positions, 0, out->indices,
                                                             w->face_count, &first);
    if (!collapsed) return WM_OK;
    return wm_error(ctx, WM_ERR_INVALID, "%s: node %s placed at %g %g %g is too far out for float coordinates: %u faces "
                    "(the first: face %u) lose corners the model keeps apart", w->model_name, w->node_name,
                    w->position[0], w->position[1], w->position[2], collapsed, first);
}

wm_result mdl_walkmesh_to_mesh(wm_ctx *ctx, const mdl_walkmesh *w, const double *room_offset, wm_mesh *out)
{
    const wm_surface_table *table = wm_surfaces(ctx);
    uint16_t object, *surface = wm_alloc_array(ctx, (size_t)w->face_count + 1, sizeof *surface);
    uint8_t *walkable = wm_alloc_array(ctx, (size_t)w->face_count + 1, 1);
    uint32_t unknown = 0, count = 0, *new_index = wm_alloc_array(ctx, (size_t)w->vertex_count + 1, sizeof *new_index);
    wm_mesh_init(out);
    snprintf(out->name, sizeof out->name, "%s", w->model_name);
    wm_result r = surface && walkable && new_index ? WM_OK : WM_ERR_NOMEM;
    for (uint32_t f = 0; !r && f < w->face_count; f++) {
        surface[f] = bwm_surface_of_material(table, w->materials[f] & 0x7FFFFFFFu);
        if (surface[f] == WM_SURFACE_NONE) {
            unknown++;
            surface[f] = WM_SURF_UNDEFINED;
        }
        walkable[f] = (uint8_t)wm_surface_walkable(table, surface[f]);
    }
    if (!r) r = number_vertices(ctx, w, walkable, new_index, &count);
    if (!r) r = wm_mesh_add_object(ctx, out, w->model_name[0] ? w->model_name : "room", &object);
    if (!r) r = add_vertices(ctx, w, new_index, count, room_offset, out);
    for (uint32_t f = 0; !r && f < w->face_count; f++) {
        const uint32_t *t = &w->faces[3 * (size_t)f];
        r = wm_mesh_add_triangle(ctx, out, new_index[t[0]], new_index[t[1]], new_index[t[2]], surface[f], walkable[f]);
    }
    if (!r) r = check_kept_apart(ctx, w, out);
    if (!r) r = wm_mesh_set_point(ctx, out, BWM_POINT_POSITION, w->position);
    if (!r && unknown)
        wm_warn(ctx, "%s: %u faces have materials unknown to the surface table (read as undefined)", w->model_name,
                unknown);
    wm_free(ctx, surface);
    wm_free(ctx, walkable);
    wm_free(ctx, new_index);
    if (r) wm_mesh_free(ctx, out);
    return r;
}

static int mdl_probe(const wm_input *in)
{
    return mdl_detect(in->data, in->size, 0) != MDL_GAME_UNKNOWN ? 95 : 0; /* truncated: still a model */
}

static void walkmesh_facts(const mdl_walkmesh *w, wm_report *report)
{
    wm_report_fact(report, "game", "%s", w->game == MDL_GAME_K2 ? "KotOR II" : "KotOR I");
    wm_report_fact(report, "model", "%s", w->model_name);
    wm_report_fact(report, "nodes", "%u", w->node_count);
    wm_report_fact(report, "walkmesh node", "%s", w->node_name);
    wm_report_fact(report, "walkmesh nodes", "%u", w->aabb_nodes);
    wm_report_fact(report, "node position", "%g %g %g", w->position[0], w->position[1], w->position[2]);
    wm_report_fact(report, "node orientation", "%g %g %g %g", w->orientation[0], w->orientation[1], w->orientation[2],
                   w->orientation[3]);
    wm_report_fact(report, "model vertices", "%u", w->vertex_count);
    wm_report_fact(report, "faces", "%u", w->face_count);
    wm_report_fact(report, "room links", "none (binary models do not store them: they come from the .wok or the layout)");
}

/* The render meshes (--geometry render), placed like the walkmesh. */
static wm_result read_render(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out, wm_report *facts,
                             int warn)
{
    mdl_walkmesh info;
    mdl_render render = {out, 0, 0};
    double offset[3];
    int given = 0;
    wm_mesh_init(out);
    wm_result r = mdl_parse_render(ctx, in->data, in->size, in->name, &render, &info);
    if (r) {
        wm_mesh_free(ctx, out);
        return r;
    }
    snprintf(out->name, sizeof out->name, "%s", info.model_name);
    r = lyt_room_placement(ctx, opts, info.model_name, offset, &given);
    if (!r && !given) r = mdl_layout_offset(ctx, in, info.model_name, offset, &given); /* a module's room */
    if (!r && given) r = lyt_move_room(ctx, out, offset, info.model_name);
    if (!r && render.hidden && warn)
        wm_warn(ctx, "%s: %u of %u meshes left out: not rendered, or textured NULL (invisible)", in->name, render.hidden,
                render.hidden + render.meshes);
    if (!r && !given && warn) lyt_warn_unplaced(ctx, in->name, info.model_name);
    if (!r && facts) {
        wm_report_fact(facts, "model", "%s", info.model_name);
        wm_report_fact(facts, "render meshes", "%u (%u left out: not rendered, or textured NULL)", render.meshes,
                       render.hidden);
        r = facts->status;
    }
    if (r) wm_mesh_free(ctx, out);
    mdl_walkmesh_free(ctx, &info);
    return r;
}

/* warn: say so when the walkmesh stays in the room's own space (not when validating,
 * where the place does not matter, nor for info, which states it as a fact). */
static wm_result read_model(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out, wm_report *facts,
                            int warn)
{
    mdl_walkmesh w;
    double offset[3];
    int given = 0, render = 0;
    wm_mesh_init(out);
    wm_result r = lyt_geometry_option(ctx, opts, &render);
    if (r || render) return r ? r : read_render(ctx, in, opts, out, facts, warn);
    r = mdl_parse_walkmesh(ctx, in->data, in->size, in->name, &w);
    if (r) return r;
    r = lyt_room_placement(ctx, opts, w.model_name, offset, &given);
    if (!r && !given) r = mdl_layout_offset(ctx, in, w.model_name, offset, &given); /* a module's room: its layout */
    if (!r) r = mdl_walkmesh_to_mesh(ctx, &w, given ? offset : NULL, out);
    if (!r && !given && warn) lyt_warn_unplaced(ctx, in->name, w.model_name);
    if (!r && facts) {
        walkmesh_facts(&w, facts);
        if (given)
            wm_report_fact(facts, "placed at", "%g %g %g (the room's layout position)", offset[0], offset[1], offset[2]);
        else
            wm_report_fact(facts, "placed at", "the room's own space (no --layout or --room-offset)");
        r = facts->status;
    }
    if (r) wm_mesh_free(ctx, out);
    mdl_walkmesh_free(ctx, &w);
    return r;
}

static wm_result mdl_read_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out,
                               wm_report *facts)
{
    return read_model(ctx, in, opts, out, facts, facts == NULL);
}

/* The walkmesh the game would build from the model, checked like a .wok. */
static wm_result mdl_validate_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_report *report)
{
    wm_mesh mesh;
    bwm_file file;
    wm_result r = read_model(ctx, in, opts, &mesh, NULL, 0);
    if (r) return r;
    r = bwm_from_mesh(ctx, &mesh, BWM_TYPE_AREA, opts ? opts->weld_tolerance : -1.0f, BWM_PLANES_BIOWARE, &file);
    wm_mesh_free(ctx, &mesh);
    if (r) return r;
    wm_buffer image;
    r = bwm_serialize(ctx, &file, &image);
    bwm_file_free(ctx, &file);
    if (r) return r;
    r = bwm_parse(ctx, image.data, image.size, in->name, &file);
    if (!r) r = bwm_validate(ctx, &file, image.size, report);
    if (!r) bwm_file_free(ctx, &file);
    wm_buffer_free(&image);
    return r ? r : report->status;
}

static const char *const mdl_extensions[] = {"mdl", NULL};

/* Read by the room models of this module and of bwm-ascii (.mdl.ascii). */
static const wm_option_desc mdl_options[] = {
    {"layout", "AREA.lyt", "room models (.mdl, .mdl.ascii): place the room at its position in the layout (found by "
                           "the model's name)"},
    {"room-offset", "X,Y,Z", "room models: place the room at X,Y,Z (its layout position); ASCII walkmesh text: added "
                             "to node-relative vertices"},
    {"geometry", "walkmesh|render", "room models: read the walkmesh (default) or the render meshes the game draws "
                                    "(one object per mesh node; invisible ones left out)"},
    {NULL, NULL, NULL}};

const wm_format wm_format_mdl = {
    .name = "mdl",
    .capabilities = WM_IS_WALKMESH,
    .description = "KotOR I/II binary room model (.mdl): its walkmesh (AABB) node, placed as the game places it; "
                   "read only; other games' .mdl are refused",
    .extensions = mdl_extensions,
    .probe = mdl_probe,
    .read = mdl_read_hook,
    .write = NULL,
    .validate = mdl_validate_hook,
    .options = mdl_options,
};
