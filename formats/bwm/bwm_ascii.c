/* ASCII walkmeshes (read only): KOTORMax `.wok.ascii` exports, `node aabb`
 * walkmesh nodes inside `.mdl.ascii` models, PyKotor and MDLOps text.
 * Vertices are node-relative: the node's orientation (axis-angle) and
 * position are applied. Face rows end with the surfacemat id; roomlinks
 * rows are `face*3+edge room` in the text's face order. */
#include "bwm/bwm.h"
#include "bwm/bwm_text.h"
#include "wm_geometry.h"
#include "wm_surface.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef enum vertex_frame {
    FRAME_GUESS,    /* node-relative unless the aabb list encloses the vertices as stored (PyKotor) */
    FRAME_ABSOLUTE, /* KOTORMax .wok.ascii: vertices hold the node position already */
    FRAME_NODE      /* a model's walkmesh node: node-relative, as in the binary model it compiles to */
} vertex_frame;

/* How the text's walkmesh nodes are placed, or (render) which meshes are read. */
typedef struct placement {
    vertex_frame frame;
    const bwm_model_nodes *model; /* a model's nodes (FRAME_NODE): the parent chains */
    const double *room_offset;    /* NULL: none */
    int render;                   /* a model's render meshes instead of its walkmesh */
    float join_tolerance;         /* walkmesh nodes joined where their vertices meet (bwm_ascii_weld.c) */
    uint32_t meshes, hidden;      /* render meshes read, and left out (render 0, bitmap NULL) */
} placement;

typedef struct ascii_node {
    bwm_xform local;              /* position and orientation */
    char parent[BWM_TEXT_NAME];
    uint32_t first_vertex, vertex_count, first_face;
    int has_root_box, has_verts;
    double root_box[6]; /* first row of an `aabb` list */
    placement *place;
} ascii_node;

/* Three coordinates from fields[at..at+3): numbers within WM_COORD_LIMIT (a float walkmesh
 * holds no more, and 1e39 would become an infinite float), else an error naming the line. */
static wm_result read_coordinates(bwm_text *t, int at, const char *what, double out[3])
{
    for (int k = 0; k < 3; k++) {
        if (at + k >= t->fields || !bwm_text_double(t->field[at + k], &out[k])) {
            char message[96];
            snprintf(message, sizeof message, "expected a %s \"x y z\"", what);
            return bwm_text_error(t, message);
        }
        if (fabs(out[k]) > WM_COORD_LIMIT)
            return wm_error(t->ctx, WM_ERR_CORRUPT, "%s: line %lu: %s coordinate %s beyond the bound of 1e7 game units",
                            t->source, t->line_no, what, t->field[at + k]);
    }
    return WM_OK;
}

/* Room for `more` vertices (or triangles) past the count, growing the capacity at least
 * twofold: a text of 100,000 one-face nodes reserves 100,000 times, and exact reserves
 * copied the arrays each time (quadratic). */
static uint32_t grown(uint32_t count, uint32_t capacity, uint32_t more)
{
    uint64_t need = (uint64_t)count + more, doubled = 2 * (uint64_t)capacity;
    if (need <= capacity) return capacity;
    need = need > doubled ? need : doubled;
    return need > UINT32_MAX ? UINT32_MAX : (uint32_t)need;
}

static wm_result read_verts(bwm_text *t, ascii_node *node, wm_mesh *mesh)
{
    uint32_t n;
    if (node->has_verts) return bwm_text_error(t, "a second vertex list in one node");
    node->has_verts = 1;
    wm_result r = bwm_text_count(t, &n);
    if (!r) r = wm_mesh_reserve(t->ctx, mesh, grown(mesh->vertex_count, mesh->vertex_capacity, n), mesh->triangle_count);
    node->first_vertex = mesh->vertex_count;
    node->vertex_count = n;
    for (uint32_t i = 0; !r && i < n; i++) {
        double v[3];
        if (bwm_text_line(t) != 1) return bwm_text_error(t, "expected a vertex row \"x y z\"");
        r = read_coordinates(t, 0, "vertex row", v);
        if (!r) r = wm_mesh_add_vertex(t->ctx, mesh, (float)v[0], (float)v[1], (float)v[2], NULL);
    }
    return r;
}

static wm_result read_faces(bwm_text *t, ascii_node *node, wm_mesh *mesh, uint32_t *unknown_materials)
{
    const wm_surface_table *table = wm_surfaces(t->ctx);
    uint32_t n;
    wm_result r = bwm_text_count(t, &n);
    if (!r) r = wm_mesh_reserve(t->ctx, mesh, mesh->vertex_count, grown(mesh->triangle_count, mesh->triangle_capacity, n));
    node->first_face = mesh->triangle_count;
    for (uint32_t i = 0; !r && i < n; i++) {
        long v[3], material;
        if (bwm_text_line(t) != 1 || t->fields < 4 || !bwm_text_long(t->field[0], &v[0]) || !bwm_text_long(t->field[1], &v[1]) ||
            !bwm_text_long(t->field[2], &v[2]) || !bwm_text_long(t->field[t->fields - 1], &material))
            return bwm_text_error(t, "expected a face row \"v1 v2 v3 ... material\"");
        for (int k = 0; k < 3; k++)
            if (v[k] < 0 || (uint64_t)v[k] >= node->vertex_count) return bwm_text_error(t, "face vertex index out of range");
        uint16_t s = material >= 0 && material <= 0x7FFFFFFFL ? bwm_surface_of_material(table, (uint32_t)material) : WM_SURFACE_NONE;
        if (node->place->render) /* a render face's last number is no surface */
            s = WM_SURF_UNDEFINED;
        else if (s == WM_SURFACE_NONE) {
            (*unknown_materials)++;
            s = WM_SURF_UNDEFINED;
        }
        r = wm_mesh_add_triangle(t->ctx, mesh, node->first_vertex + (uint32_t)v[0], node->first_vertex + (uint32_t)v[1],
                                 node->first_vertex + (uint32_t)v[2], s, wm_surface_walkable(table, s));
    }
    return r;
}

static wm_result read_roomlinks(bwm_text *t, const ascii_node *node, wm_mesh *mesh)
{
    uint32_t n;
    wm_result r = bwm_text_count(t, &n);
    for (uint32_t i = 0; !r && i < n; i++) {
        long code, room;
        if (bwm_text_line(t) != 1 || t->fields < 2 || !bwm_text_long(t->field[0], &code) || !bwm_text_long(t->field[1], &room))
            return bwm_text_error(t, "expected a roomlinks row \"face*3+edge room\"");
        uint64_t faces = mesh->triangle_count - node->first_face;
        if (code < 0 || (uint64_t)code >= faces * 3 || room < -1) return bwm_text_error(t, "roomlink out of range");
        mesh->transitions[3 * (size_t)node->first_face + (size_t)code] = (int32_t)room;
    }
    return r;
}

/* Whether the node's `aabb` list encloses the vertices as stored: PyKotor's
 * walkmesh text writes absolute vertices beside the position. In a model the
 * list is the binary's tree, in the node's own frame like its vertices, so
 * there it says nothing (every corpus binary model's tree root is its raw
 * vertices' box). */
static int stored_in_place(const ascii_node *node, const float *p)
{
    if (node->place->frame != FRAME_GUESS || !node->has_root_box) return 0;
    double mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < node->vertex_count; i++)
        for (int k = 0; k < 3; k++) {
            mn[k] = fmin(mn[k], p[3 * i + k]);
            mx[k] = fmax(mx[k], p[3 * i + k]);
        }
    int absolute = 1;
    for (int k = 0; k < 3; k++)
        absolute &= fabs(node->root_box[k] - mn[k]) < 0.05 && fabs(node->root_box[3 + k] - mx[k]) < 0.05;
    return absolute;
}

/* Node-relative vertices get the node's orientation and position, in a model
 * through its parent chain as in the binary (world), and the LYT room offset
 * when given; refused where floats would merge their faces' corners. */
static wm_result place_vertices(bwm_text *t, const ascii_node *node, const bwm_xform *world, wm_mesh *mesh)
{
    const double *offset = node->place->room_offset;
    if (node->vertex_count == 0 || node->place->frame == FRAME_ABSOLUTE) return WM_OK;
    float *p = &mesh->positions[3 * (size_t)node->first_vertex];
    if (stored_in_place(node, p)) return WM_OK;
    float *placed = wm_alloc_array(t->ctx, (size_t)node->vertex_count * 3, sizeof(float));
    if (!placed) return WM_ERR_NOMEM;
    wm_result r = WM_OK;
    for (uint32_t i = 0; !r && i < node->vertex_count; i++) {
        double v[3] = {p[3 * i], p[3 * i + 1], p[3 * i + 2]}, w[3];
        bwm_rotate(world->q, v, w);
        for (int k = 0; k < 3; k++) placed[3 * (size_t)i + (size_t)k] = (float)(w[k] + world->t[k] + (offset ? offset[k] : 0.0));
        const float *q = &placed[3 * (size_t)i]; /* within the bound each, a vertex can leave it once placed */
        if (!(fabsf(q[0]) <= WM_COORD_LIMIT && fabsf(q[1]) <= WM_COORD_LIMIT && fabsf(q[2]) <= WM_COORD_LIMIT))
            r = wm_error(t->ctx, WM_ERR_CORRUPT, "%s: line %lu: the node's vertex %u placed at (%g, %g, %g) is beyond the "
                         "bound of 1e7 game units", t->source, t->line_no, i, (double)q[0], (double)q[1], (double)q[2]);
    }
    uint32_t first = 0, faces = mesh->triangle_count - node->first_face;
    const uint32_t *corners = faces ? &mesh->indices[3 * (size_t)node->first_face] : NULL;
    if (!r && faces && bwm_faces_losing_corners(mesh->positions, corners, placed, node->first_vertex, corners, faces, &first))
        r = bwm_text_error(t, "the node is placed too far out for float coordinates: its faces lose corners it keeps apart");
    if (!r) memcpy(p, placed, (size_t)node->vertex_count * 3 * sizeof(float));
    wm_free(t->ctx, placed);
    return r;
}

/* Parses one node body up to `endnode`. */
static wm_result read_node(bwm_text *t, wm_mesh *mesh, placement *place, uint32_t *unknown)
{
    ascii_node node;
    double axis_angle[4];
    memset(&node, 0, sizeof node);
    node.local = bwm_xform_identity;
    node.first_face = mesh->triangle_count;
    node.place = place;
    int status;
    while ((status = bwm_text_line(t)) == 1) {
        if (t->fields == 0) continue;
        const char *key = t->field[0];
        wm_result r = WM_OK;
        if (strcasecmp(key, "endnode") == 0) {
            bwm_xform world = node.local;
            if (place->model) bwm_xform_compose(bwm_model_node_world(place->model, node.parent), &node.local, &world);
            wm_result placed = place_vertices(t, &node, &world, mesh);
            if (placed || place->render) return placed;
            float at[3] = {(float)world.t[0], (float)world.t[1], (float)world.t[2]};
            /* the node's position is the .wok header's; the first walkmesh node gives it */
            return wm_mesh_find_point(mesh, BWM_POINT_POSITION) ? WM_OK
                                                                : wm_mesh_set_point(t->ctx, mesh, BWM_POINT_POSITION, at);
        }
        if (strcasecmp(key, "position") == 0 && t->fields >= 4) {
            r = read_coordinates(t, 1, "position", node.local.t);
        } else if (strcasecmp(key, "orientation") == 0 && t->fields >= 5) {
            for (int k = 0; k < 4; k++)
                if (!bwm_text_coord(t->field[1 + k], &axis_angle[k])) return bwm_text_error(t, "bad orientation");
            bwm_axis_angle(axis_angle, node.local.q);
        } else if (strcasecmp(key, "parent") == 0 && t->fields >= 2) {
            snprintf(node.parent, sizeof node.parent, "%s", t->field[1]);
        } else if (strcasecmp(key, "verts") == 0) {
            r = read_verts(t, &node, mesh);
        } else if (strcasecmp(key, "faces") == 0) {
            r = read_faces(t, &node, mesh, unknown);
        } else if (strcasecmp(key, "roomlinks") == 0) {
            r = read_roomlinks(t, &node, mesh);
        } else if (strcasecmp(key, "aabb") == 0) {
            /* the first box row (on the keyword's line or the next) is the root's */
            int at = 1;
            if (t->fields < 7 && bwm_text_line(t) == 1) at = 0;
            if (t->fields - at >= 6 && !node.has_root_box) {
                node.has_root_box = 1;
                for (int k = 0; k < 6; k++)
                    if (!bwm_text_double(t->field[at + k], &node.root_box[k])) node.has_root_box = 0;
            }
        } /* everything else (further aabb rows, tverts, render settings) is derived or not a walkmesh's */
        if (r) return r;
    }
    if (status < 0) return bwm_text_error(t, "line too long");
    return bwm_text_error(t, "node without endnode");
}

static int contains(const char *text, size_t size, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= size; i++)
        if (strncasecmp(text + i, needle, n) == 0) return 1;
    return 0;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcasecmp(s + n - m, tail) == 0;
}

/* PWK/DWK use hooks: dummy nodes named *use01 / *use02 (relative, as NWN and
 * KotOR tools name them) and *abs_use01 / *abs_use02 (the absolute pair). */
static const char *hook_point(const char *node_name)
{
    if (ends_with(node_name, "abs_use01")) return BWM_POINT_ABS_HOOK1;
    if (ends_with(node_name, "abs_use02")) return BWM_POINT_ABS_HOOK2;
    if (ends_with(node_name, "use01")) return BWM_POINT_HOOK1;
    if (ends_with(node_name, "use02")) return BWM_POINT_HOOK2;
    return NULL;
}

static wm_result read_hook_node(bwm_text *t, wm_mesh *mesh, const char *point)
{
    float at[3] = {0, 0, 0};
    int status;
    while ((status = bwm_text_line(t)) == 1) {
        if (t->fields == 0) continue;
        if (strcasecmp(t->field[0], "endnode") == 0) return wm_mesh_set_point(t->ctx, mesh, point, at);
        if (strcasecmp(t->field[0], "position") == 0 && t->fields >= 4) {
            double d[3];
            wm_result r = read_coordinates(t, 1, "position", d);
            if (r) return r;
            for (int k = 0; k < 3; k++) at[k] = (float)d[k];
        }
    }
    return bwm_text_error(t, status < 0 ? "line too long" : "node without endnode");
}

/* Every walkmesh node (`node <wanted>`) and PWK/DWK hook outside animations. */
/* The kinds of node that hold geometry the game draws. */
static int renders(const char *kind)
{
    return strcasecmp(kind, "trimesh") == 0 || strcasecmp(kind, "danglymesh") == 0 || strcasecmp(kind, "skin") == 0 ||
           strcasecmp(kind, "animmesh") == 0;
}

/* Render meshes: one object each (found by name, so capped: past the cap they
 * share one and many thousand nodes stay linear). */
#define ASCII_RENDER_OBJECTS 4096u

static wm_result read_render_node(bwm_text *t, placement *place, wm_mesh *out, uint32_t *unknown)
{
    uint16_t object;
    uint32_t first = out->triangle_count;
    const bwm_model_node *known = t->fields >= 3 ? bwm_model_node_find(place->model, t->field[2]) : NULL;
    if (known && known->hidden) { /* not drawn, or drawn invisible: left out */
        int status;
        place->hidden++;
        while ((status = bwm_text_line(t)) == 1)
            if (t->fields && strcasecmp(t->field[0], "endnode") == 0) return WM_OK;
        return bwm_text_error(t, status < 0 ? "line too long" : "node without endnode");
    }
    const char *name = t->fields >= 3 && place->meshes < ASCII_RENDER_OBJECTS ? t->field[2] : "more meshes";
    wm_result r = wm_mesh_add_object(t->ctx, out, name, &object);
    if (!r) r = read_node(t, out, place, unknown);
    for (uint32_t i = first; !r && i < out->triangle_count; i++) out->objects[i] = object;
    place->meshes += r == WM_OK;
    return r;
}

static wm_result read_walkmesh_nodes(bwm_text *t, const char *wanted, placement *place, wm_mesh *out)
{
    uint32_t nodes = 0, unknown = 0, *node_start = NULL, starts_room = 0;
    int status = 0, animation = 0;
    wm_ctx *ctx = t->ctx;
    wm_result r = WM_OK;
    while (!r && (status = bwm_text_line(t)) == 1) {
        if (t->fields >= 1 && strcasecmp(t->field[0], "newanim") == 0) animation = 1;
        if (t->fields >= 1 && strcasecmp(t->field[0], "doneanim") == 0) animation = 0;
        if (animation || t->fields < 2 || strcasecmp(t->field[0], "node") != 0) continue;
        const char *point = t->fields >= 3 && strcasecmp(t->field[1], "dummy") == 0 ? hook_point(t->field[2]) : NULL;
        if (point) {
            r = read_hook_node(t, out, point);
            continue;
        }
        if (place->render ? !renders(t->field[1]) : strcasecmp(t->field[1], wanted) != 0) continue;
        if (nodes == 0 && t->fields >= 3 && !place->render) snprintf(out->name, sizeof out->name, "%s", t->field[2]);
        if (nodes == starts_room) { /* doubled: a text of many small nodes stays linear */
            starts_room = starts_room ? 2 * starts_room : 16;
            uint32_t *grown_starts = wm_realloc_array(ctx, node_start, starts_room, sizeof *node_start);
            if (!grown_starts) r = WM_ERR_NOMEM;
            else node_start = grown_starts;
        }
        if (r) break;
        node_start[nodes++] = out->vertex_count;
        r = place->render ? read_render_node(t, place, out, &unknown) : read_node(t, out, place, &unknown);
    }
    if (!r && status < 0) r = bwm_text_error(t, "line too long");
    if (!r && nodes == 0)
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: no %s", t->source,
                     place->render ? "render mesh node (trimesh, danglymesh, skin)" : "walkmesh node (\"node aabb\" or \"node trimesh\")");
    if (!r && place->render && place->meshes == 0)
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: no render mesh: all %u left out (render 0 or bitmap NULL)", t->source,
                     place->hidden);
    if (!r && !place->render) r = bwm_ascii_join_nodes(ctx, out, node_start, nodes, place->join_tolerance);
    wm_free(ctx, node_start);
    if (!r && unknown)
        wm_warn(ctx, "%s: %u faces have materials unknown to the surface table (read as undefined)", t->source, unknown);
    return r;
}

wm_result bwm_ascii_parse(wm_ctx *ctx, const char *text, size_t size, const char *source, const double *room_offset,
                          wm_mesh *out)
{
    return bwm_ascii_parse_joined(ctx, text, size, source, room_offset, BWM_ASCII_JOIN_TOLERANCE, out);
}

wm_result bwm_ascii_parse_joined(wm_ctx *ctx, const char *text, size_t size, const char *source,
                                 const double *room_offset, float join_tolerance, wm_mesh *out)
{
    bwm_text t;
    bwm_text_init(&t, ctx, text, size, source);
    /* Walkmesh nodes: `node aabb` when the text has any, else `node trimesh` (a
     * .wok.ascii or an NWN1 .pwk); a model's trimesh nodes are render geometry. */
    const char *wanted = contains(text, size, "node aabb") ? "aabb" : "trimesh";
    if (wanted[0] == 't' && contains(text, size, "newmodel"))
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: an ASCII model without a walkmesh node (\"node aabb\"): its trimesh "
                        "nodes are render geometry, not a walkmesh", t.source);
    /* KOTORMax's exports ("# WOKMESH  ASCII", and this writer's PWK/DWK) hold
     * absolute vertices; NWmax's ("#NWmaxPWKMESH") and models are node-relative */
    placement place = {FRAME_GUESS, NULL, room_offset, 0, join_tolerance, 0, 0};
    bwm_model_nodes model;
    if (contains(text, size, "# WOKMESH") || contains(text, size, "# PWKMESH") || contains(text, size, "# DWKMESH"))
        place.frame = FRAME_ABSOLUTE;
    else if (contains(text, size, "newmodel"))
        place.frame = FRAME_NODE;
    wm_result r = place.frame == FRAME_NODE ? bwm_model_nodes_read(ctx, text, size, t.source, &model) : WM_OK;
    if (r) return r;
    place.model = place.frame == FRAME_NODE ? &model : NULL;
    r = read_walkmesh_nodes(&t, wanted, &place, out);
    if (place.model) bwm_model_nodes_free(ctx, &model);
    return r;
}


wm_result bwm_ascii_render(wm_ctx *ctx, const char *text, size_t size, const char *source, wm_mesh *out,
                           uint32_t *meshes, uint32_t *hidden)
{
    bwm_text t;
    bwm_model_nodes model;
    placement place = {FRAME_NODE, &model, NULL, 1, 0.0f, 0, 0};
    bwm_text_init(&t, ctx, text, size, source);
    if (!contains(text, size, "newmodel"))
        return wm_error(ctx, WM_ERR_OPTION, "%s: --geometry render reads models (newmodel): this is walkmesh text", t.source);
    wm_result r = bwm_model_nodes_read(ctx, text, size, t.source, &model);
    if (r) return r;
    r = read_walkmesh_nodes(&t, NULL, &place, out);
    bwm_model_nodes_free(ctx, &model);
    *meshes = place.meshes;
    *hidden = place.hidden;
    return r;
}

int bwm_ascii_room_name(const char *text, size_t size, char *out, size_t out_size)
{
    bwm_text t;
    memset(&t, 0, sizeof t);
    t.p = text, t.end = text + size;
    out[0] = 0;
    int status;
    while ((status = bwm_text_line(&t)) != 0) {
        if (status < 0 || t.fields < 2) continue;
        if (strcasecmp(t.field[0], "newmodel") == 0) {
            snprintf(out, out_size, "%s", t.field[1]);
            return 1;
        }
        if (!out[0] && strcasecmp(t.field[0], "parent") == 0 && strcasecmp(t.field[1], "NULL") != 0)
            snprintf(out, out_size, "%s", t.field[1]);
    }
    return 0;
}

/* One `aabb` row: six box floats and the face (-1 on internal nodes). */
static int parse_row(bwm_text *t, int at, double row[7])
{
    if (t->fields - at != 7) return 0;
    for (int k = 0; k < 7; k++) /* a box beyond the bound is no row: the boxes are derived instead */
        if (!bwm_text_double(t->field[at + k], &row[k]) || (k < 6 && fabs(row[k]) > WM_COORD_LIMIT)) return 0;
    return 1;
}

wm_result bwm_ascii_aabb_rows(wm_ctx *ctx, const char *text, size_t size, uint32_t max_rows, double **rows,
                              uint32_t *count)
{
    bwm_text t;
    memset(&t, 0, sizeof t);
    t.p = text, t.end = text + size, t.source = "<text>", t.ctx = ctx;
    *rows = NULL;
    *count = 0;
    int status, in_list = 0;
    while ((status = bwm_text_line(&t)) == 1) {
        double row[7];
        if (!in_list) {
            in_list = t.fields >= 1 && strcasecmp(t.field[0], "aabb") == 0;
            if (!in_list || !parse_row(&t, 1, row)) continue;
        } else if (!parse_row(&t, 0, row)) {
            break; /* the list ends at the first line that is not a row */
        }
        if (*count >= max_rows) break; /* more rows than a tree of these faces has: not kept */
        if (!*rows && !(*rows = wm_alloc_array(ctx, (size_t)max_rows + 1, 7 * sizeof(double)))) return WM_ERR_NOMEM;
        memcpy(&(*rows)[7 * (size_t)(*count)++], row, sizeof row);
    }
    return WM_OK;
}

int bwm_ascii_probe_text(const uint8_t *head, size_t head_size)
{
    if (head_size > 4096) head_size = 4096; /* the head is enough, and stays linear */
    const char *text = (const char *)head;
    int node = 0, verts = 0;
    for (size_t i = 0; i < head_size; i++) {
        if (head[i] == 0) return 0; /* binary */
        if (i + 9 <= head_size && (strncasecmp(text + i, "node aabb", 9) == 0 || strncasecmp(text + i, "node trim", 9) == 0))
            node = 1;
        if (i + 6 <= head_size && strncasecmp(text + i, "verts ", 6) == 0) verts = 1;
    }
    return node ? (verts ? 90 : 60) : 0;
}
