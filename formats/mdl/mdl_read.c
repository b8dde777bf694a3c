/* The node tree of a binary KotOR model and its walkmesh (AABB) node.
 * Offsets inside the model count from byte 12 (after the file header);
 * every read goes through the bounded cursor, every array is checked
 * against the bytes before anything is allocated. */
#include "mdl/mdl_reader.h"
#include "wm_geometry.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MDL_MAX_DEPTH 64
#define MDL_CTRL_POSITION 8u
#define MDL_CTRL_ORIENTATION 20u

/* Geometry header function pointers the games' compilers write (PC and Xbox builds). */
static const uint32_t k1_pointers[] = {4273776u, 4273392u, 4254992u};
static const uint32_t k2_pointers[] = {4285200u, 4284816u, 4285872u};

mdl_game mdl_detect(const uint8_t *head, size_t head_size, uint64_t file_size)
{
    if (head_size < 16 || wm_le32(head) != 0) return MDL_GAME_UNKNOWN;
    if (file_size && (uint64_t)wm_le32(head + 4) + MDL_FILE_HEADER > file_size) return MDL_GAME_UNKNOWN;
    uint32_t fp = wm_le32(head + 12);
    for (size_t i = 0; i < sizeof k1_pointers / sizeof k1_pointers[0]; i++)
        if (fp == k1_pointers[i]) return MDL_GAME_K1;
    for (size_t i = 0; i < sizeof k2_pointers / sizeof k2_pointers[0]; i++)
        if (fp == k2_pointers[i]) return MDL_GAME_K2;
    return MDL_GAME_UNKNOWN;
}

wm_result mdl_seek(mdl_reader *r, uint32_t offset, const char *what)
{
    if ((uint64_t)offset + MDL_FILE_HEADER > r->cur.size)
        return wm_cursor_error(&r->cur, WM_ERR_CORRUPT, "%s%s%s: offset %u points past the end of the file", r->node,
                               r->node[0] ? ": " : "", what, offset);
    return wm_cursor_seek(&r->cur, MDL_FILE_HEADER + (size_t)offset, what);
}

/* A unit quaternion, or identity when the stored one is zero or not finite. */
static void normalize_q(double q[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 1e-12) || !isfinite(n)) {
        q[0] = q[1] = q[2] = 0;
        q[3] = 1;
        return;
    }
    for (int k = 0; k < 4; k++) q[k] /= n;
}

/* Floats past WM_COORD_LIMIT are refused: a walkmesh built from them would
 * have non-finite planes or every vertex rounded onto one point. */
wm_result mdl_read_f32s(mdl_reader *r, double *out, int n, const char *what)
{
    for (int k = 0; k < n; k++) {
        float f;
        wm_result res = wm_read_f32(&r->cur, &f, what);
        if (res) return res;
        if (!isfinite(f)) return wm_cursor_error(&r->cur, WM_ERR_CORRUPT, "%s: %s is not a finite number", r->node, what);
        if (fabsf(f) > WM_COORD_LIMIT)
            return wm_cursor_error(&r->cur, WM_ERR_CORRUPT, "%s: %s %g is beyond the bound of 1e7 game units", r->node,
                                   what, (double)f);
        out[k] = f;
    }
    return WM_OK;
}

/* The first key of a position or orientation controller replaces the header's
 * value: the game places a node by its controllers. */
static wm_result apply_controller(mdl_reader *r, uint32_t type, uint32_t data_offset, uint32_t data_count,
                                  uint32_t data_index, uint32_t columns, bwm_xform *local)
{
    uint32_t values = columns & 0x0Fu; /* 0x10 flags bezier keys: the value comes first */
    if (type == MDL_CTRL_ORIENTATION && values == 2) values = 1; /* one compressed u32 */
    if ((uint64_t)data_index + values > data_count)
        return wm_cursor_error(&r->cur, WM_ERR_CORRUPT, "%s: controller %u reads past its %u data values", r->node,
                               type, data_count);
    wm_result res = mdl_seek(r, data_offset + 4 * data_index, "controller data");
    if (res) return res;
    if (type == MDL_CTRL_POSITION && values >= 3) return mdl_read_f32s(r, local->t, 3, "position key");
    if (type == MDL_CTRL_ORIENTATION && values == 4) return mdl_read_f32s(r, local->q, 4, "orientation key");
    if (type == MDL_CTRL_ORIENTATION && (columns & 0x0Fu) == 2) {
        uint32_t c;
        res = wm_read_u32(&r->cur, &c, "compressed orientation key");
        if (res) return res;
        double x = (c & 0x7FFu) / 1023.0 - 1.0, y = ((c >> 11) & 0x7FFu) / 1023.0 - 1.0, z = (c >> 22) / 511.0 - 1.0;
        double m = x * x + y * y + z * z;
        local->q[0] = x, local->q[1] = y, local->q[2] = z, local->q[3] = m < 1.0 ? sqrt(1.0 - m) : 0.0;
    }
    return WM_OK;
}

static wm_result read_controllers(mdl_reader *r, const uint32_t keys[2], const uint32_t data[2], bwm_xform *local)
{
    if (keys[1] == 0) return WM_OK;
    wm_result res = mdl_seek(r, keys[0], "controller keys");
    if (!res) res = wm_cursor_check_array(&r->cur, keys[1], 16, 0, "controller keys");
    for (uint32_t i = 0; !res && i < keys[1]; i++) {
        uint32_t type;
        uint16_t unknown, rows, time_index, data_index;
        uint8_t columns;
        res = mdl_seek(r, keys[0] + 16 * i, "controller key");
        if (!res) res = wm_read_u32(&r->cur, &type, "controller type");
        if (!res) res = wm_read_u16(&r->cur, &unknown, "controller key");
        if (!res) res = wm_read_u16(&r->cur, &rows, "controller rows");
        if (!res) res = wm_read_u16(&r->cur, &time_index, "controller time index");
        if (!res) res = wm_read_u16(&r->cur, &data_index, "controller data index");
        if (!res) res = wm_read_u8(&r->cur, &columns, "controller columns");
        if (!res && rows > 0 && (type == MDL_CTRL_POSITION || type == MDL_CTRL_ORIENTATION))
            res = apply_controller(r, type, data[0], data[1], data_index, columns, local);
    }
    return res;
}

static void node_name(mdl_reader *r, uint16_t index, char *out, size_t size)
{
    snprintf(out, size, "node #%u", (unsigned)index);
    uint32_t at;
    const uint8_t *text;
    if (index >= r->name_count || mdl_seek(r, r->names_offset + 4u * index, "name") ||
        wm_read_u32(&r->cur, &at, "name offset") || (uint64_t)at + MDL_FILE_HEADER >= r->cur.size)
        return;
    size_t left = r->cur.size - MDL_FILE_HEADER - at, n = 0;
    text = r->cur.data + MDL_FILE_HEADER + at;
    while (n < left && n + 1 < size && text[n] >= 0x20 && text[n] < 0x7F) n++;
    if (n == 0) return;
    memcpy(out, text, n);
    out[n] = 0;
}

static wm_result read_vertices(mdl_reader *r, const bwm_xform *world, uint32_t offset, uint32_t count)
{
    mdl_walkmesh *w = r->out;
    wm_result res = mdl_seek(r, offset, "walkmesh vertices");
    if (!res) res = wm_cursor_check_array(&r->cur, count, 12, 0, "walkmesh vertices");
    if (res) return res;
    w->vertices = wm_alloc_array(r->ctx, (size_t)count * 3 + 1, sizeof(float));
    w->stored = wm_alloc_array(r->ctx, (size_t)count * 3 + 1, sizeof(float));
    if (!w->vertices || !w->stored) return WM_ERR_NOMEM;
    for (uint32_t i = 0; i < count; i++) {
        double v[3], p[3];
        res = mdl_read_f32s(r, v, 3, "walkmesh vertex");
        if (res) return res;
        bwm_rotate(world->q, v, p);
        for (int k = 0; k < 3; k++) {
            w->stored[3 * (size_t)i + k] = (float)v[k];
            p[k] += world->t[k];
            if (fabs(p[k]) > WM_COORD_LIMIT) /* each value within the limit, their sum along the node chain not */
                return wm_cursor_error(&r->cur, WM_ERR_CORRUPT, "%s: walkmesh vertex %u placed by the node chain lies "
                                       "at %g, beyond the bound of 1e7 game units", r->node, i, p[k]);
            w->vertices[3 * (size_t)i + k] = (float)p[k];
        }
    }
    w->vertex_count = count;
    return WM_OK;
}

/* Face record: normal, plane distance, material, three neighbour faces
 * (0xFFFF = none), three vertex indices. */
static wm_result read_faces(mdl_reader *r, uint32_t offset, uint32_t count)
{
    mdl_walkmesh *w = r->out;
    wm_result res = mdl_seek(r, offset, "walkmesh faces");
    if (!res) res = wm_cursor_check_array(&r->cur, count, MDL_FACE_SIZE, 0, "walkmesh faces");
    if (res) return res;
    w->faces = wm_alloc_array(r->ctx, (size_t)count * 3 + 1, sizeof(uint32_t));
    w->materials = wm_alloc_array(r->ctx, (size_t)count + 1, sizeof(uint32_t));
    if (!w->faces || !w->materials) return WM_ERR_NOMEM;
    for (uint32_t f = 0; f < count; f++) {
        uint16_t adjacent[3], vertex[3];
        res = wm_cursor_skip(&r->cur, 16, "face plane");
        if (!res) res = wm_read_u32(&r->cur, &w->materials[f], "face material");
        for (int k = 0; !res && k < 3; k++) res = wm_read_u16(&r->cur, &adjacent[k], "face neighbour");
        for (int k = 0; !res && k < 3; k++) res = wm_read_u16(&r->cur, &vertex[k], "face vertex");
        if (res) return res;
        for (int k = 0; k < 3; k++) {
            if (vertex[k] >= w->vertex_count)
                return wm_cursor_error(&r->cur, WM_ERR_CORRUPT, "node %s: face %u: vertex %u out of range (%u vertices)",
                                       r->node, f, vertex[k], w->vertex_count);
            w->faces[3 * (size_t)f + k] = vertex[k];
            w->boundary_edges += adjacent[k] == 0xFFFFu;
        }
    }
    w->face_count = count;
    return WM_OK;
}

/* The mesh header after the node header: faces array at +8, vertex count
 * (u16) at +304, the vertex array's offset in the model at its end. */
static wm_result read_walkmesh(mdl_reader *r, uint32_t node, const bwm_xform *world)
{
    mdl_walkmesh *w = r->out;
    uint32_t header = w->game == MDL_GAME_K2 ? MDL_K2_MESH_HEADER : MDL_K1_MESH_HEADER;
    uint32_t face_offset, face_count, vertex_offset;
    uint16_t vertex_count;
    wm_result res = mdl_seek(r, node + MDL_NODE_HEADER + 8, "walkmesh faces array");
    if (!res) res = wm_read_u32(&r->cur, &face_offset, "faces offset");
    if (!res) res = wm_read_u32(&r->cur, &face_count, "faces count");
    if (!res) res = mdl_seek(r, node + MDL_NODE_HEADER + 304, "walkmesh vertex count");
    if (!res) res = wm_read_u16(&r->cur, &vertex_count, "vertex count");
    if (!res) res = mdl_seek(r, node + MDL_NODE_HEADER + header - 4, "walkmesh vertex offset");
    if (!res) res = wm_read_u32(&r->cur, &vertex_offset, "vertex offset");
    if (!res) res = read_vertices(r, world, vertex_offset, vertex_count);
    if (!res) res = read_faces(r, face_offset, face_count);
    if (res) return res;
    for (int k = 0; k < 3; k++) w->position[k] = (float)world->t[k];
    for (int k = 0; k < 4; k++) w->orientation[k] = (float)world->q[k];
    memcpy(w->node_name, r->node, sizeof w->node_name);
    return WM_OK;
}

typedef struct node_header {
    uint16_t type, index, name;
    uint32_t children[2], keys[2], data[2];
} node_header;

static wm_result read_node_header(mdl_reader *r, uint32_t offset, node_header *h, bwm_xform *local)
{
    uint16_t pad;
    uint32_t root, parent, dup;
    double wxyz[4];
    snprintf(r->node, sizeof r->node, "node at offset %u", offset); /* never the node read before */
    wm_result res = mdl_seek(r, offset, "node header");
    if (!res) res = wm_read_u16(&r->cur, &h->type, "node type");
    if (!res) res = wm_read_u16(&r->cur, &h->index, "node index");
    if (!res) res = wm_read_u16(&r->cur, &h->name, "node name index");
    if (res) return res;
    node_name(r, h->name, r->node, sizeof r->node); /* errors from here on name this node */
    res = mdl_seek(r, offset + 6, "node header");
    if (!res) res = wm_read_u16(&r->cur, &pad, "node header");
    if (!res) res = wm_read_u32(&r->cur, &root, "node root offset");
    if (!res) res = wm_read_u32(&r->cur, &parent, "node parent offset");
    if (!res) res = mdl_read_f32s(r, local->t, 3, "node position");
    if (!res) res = mdl_read_f32s(r, wxyz, 4, "node orientation");
    uint32_t *arrays[3] = {h->children, h->keys, h->data};
    for (int a = 0; a < 3 && !res; a++) {
        res = wm_read_u32(&r->cur, &arrays[a][0], "node array offset");
        if (!res) res = wm_read_u32(&r->cur, &arrays[a][1], "node array count");
        if (!res) res = wm_read_u32(&r->cur, &dup, "node array count");
    }
    local->q[0] = wxyz[1], local->q[1] = wxyz[2], local->q[2] = wxyz[3], local->q[3] = wxyz[0];
    return res;
}

static wm_result read_node(mdl_reader *r, uint32_t offset, const bwm_xform *parent, unsigned depth)
{
    node_header h;
    bwm_xform local, world;
    if (++r->visits > r->max_visits || depth > MDL_MAX_DEPTH)
        return wm_cursor_error(&r->cur, WM_ERR_CORRUPT, "node tree at offset %u: more nodes or levels than the model "
                               "holds (a loop?)", offset);
    wm_result res = read_node_header(r, offset, &h, &local);
    if (res) return res;
    res = read_controllers(r, h.keys, h.data, &local);
    if (res) return res;
    normalize_q(local.q);
    bwm_xform_compose(parent, &local, &world);
    int walkmesh = (h.type & MDL_NODE_AABB) && (h.type & MDL_NODE_MESH);
    if (r->render && (h.type & MDL_NODE_MESH) && !(h.type & (MDL_NODE_AABB | MDL_NODE_SABER)))
        res = mdl_read_render_mesh(r, offset, &world);
    else if (!r->render && walkmesh && r->out->aabb_nodes == 0)
        res = read_walkmesh(r, offset, &world);
    r->out->aabb_nodes += walkmesh;
    if (res) return res;
    if (h.children[1] == 0) return WM_OK;
    res = mdl_seek(r, h.children[0], "child array");
    if (!res) res = wm_cursor_check_array(&r->cur, h.children[1], 4, r->max_visits, "child array");
    for (uint32_t i = 0; !res && i < h.children[1]; i++) {
        uint32_t child;
        res = mdl_seek(r, h.children[0] + 4 * i, "child array");
        if (!res) res = wm_read_u32(&r->cur, &child, "child offset");
        if (!res) res = read_node(r, child, &world, depth + 1);
    }
    return res;
}

void mdl_walkmesh_free(const wm_ctx *ctx, mdl_walkmesh *w)
{
    wm_free(ctx, w->vertices);
    wm_free(ctx, w->stored);
    wm_free(ctx, w->faces);
    wm_free(ctx, w->materials);
    memset(w, 0, sizeof *w);
}

/* Geometry header (80 bytes: function pointers, name, root node, node
 * count...), then the model header whose names array is at model offset 184. */
static wm_result read_headers(mdl_reader *r, uint32_t *root)
{
    uint32_t node_count, dup;
    const uint8_t *name;
    wm_result res = mdl_seek(r, 8, "model name");
    if (!res) res = wm_read_view(&r->cur, &name, 32, "model name");
    if (!res) res = wm_read_u32(&r->cur, root, "root node offset");
    if (!res) res = wm_read_u32(&r->cur, &node_count, "node count");
    if (!res) res = mdl_seek(r, 184, "names array");
    if (!res) res = wm_read_u32(&r->cur, &r->names_offset, "names offset");
    if (!res) res = wm_read_u32(&r->cur, &r->name_count, "names count");
    if (!res) res = wm_read_u32(&r->cur, &dup, "names count");
    if (res) return res;
    size_t n = 0;
    while (n < 32 && name[n] >= 0x20 && name[n] < 0x7F) n++;
    memcpy(r->out->model_name, name, n);
    r->out->model_name[n] = 0;
    /* the header's count bounds the walk; a node takes at least 80 bytes */
    uint64_t by_size = r->cur.size / MDL_NODE_HEADER;
    r->max_visits = (uint32_t)(node_count < by_size ? node_count : by_size);
    return WM_OK;
}

/* The node tree: the first walkmesh node into out, or (render given) the render meshes. */
static wm_result parse_model(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name, mdl_walkmesh *out,
                             mdl_render *render)
{
    mdl_reader r;
    memset(&r, 0, sizeof r);
    memset(out, 0, sizeof *out);
    name = name ? name : "<memory>";
    wm_cursor_init(&r.cur, ctx, data, size, name);
    r.ctx = ctx;
    r.out = out;
    r.render = render;
    out->game = mdl_detect(data, size, 0); /* the game's pointers say "KotOR model", whole or not */
    if (out->game != MDL_GAME_UNKNOWN && (uint64_t)wm_le32(data + 4) + MDL_FILE_HEADER > size)
        return wm_error(ctx, WM_ERR_TRUNCATED, "%s: truncated: the header gives the model %u bytes after its 12-byte "
                        "header, the file holds %zu in all", name, wm_le32(data + 4), size);
    if (out->game == MDL_GAME_UNKNOWN) {
        if (size >= 4 && (memcmp(data, "IDPO", 4) == 0 || memcmp(data, "IDST", 4) == 0))
            return wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: a Quake model, not a KotOR model (walkmesh reads the walkmesh "
                            "node of KotOR I and II binary models)", name);
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: not a KotOR I or II binary model (no KotOR geometry header at "
                        "offset 12): walkmesh reads only KotOR's .mdl", name);
    }
    uint32_t root;
    wm_result res = read_headers(&r, &root);
    if (!res) res = read_node(&r, root, &bwm_xform_identity, 0);
    out->node_count = r.visits;
    if (render) {
        if (!res && render->meshes == 0)
            res = wm_error(ctx, WM_ERR_CORRUPT, "%s: model %s has no render mesh among its %u nodes (%u left out: not "
                           "rendered or textured NULL)", name, out->model_name, r.visits, render->hidden);
        return res;
    }
    if (!res && out->aabb_nodes == 0)
        res = wm_error(ctx, WM_ERR_CORRUPT, "%s: model %s has no walkmesh (AABB) node among its %u nodes", name,
                       out->model_name, r.visits);
    if (!res && out->aabb_nodes > 1)
        wm_warn(ctx, "%s: %u walkmesh nodes; read the first, %s", name, out->aabb_nodes, out->node_name);
    if (res) mdl_walkmesh_free(ctx, out);
    return res;
}

wm_result mdl_parse_walkmesh(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name, mdl_walkmesh *out)
{
    return parse_model(ctx, data, size, name, out, NULL);
}

wm_result mdl_parse_render(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name, mdl_render *render,
                           mdl_walkmesh *info)
{
    render->meshes = render->hidden = 0;
    wm_result r = parse_model(ctx, data, size, name, info, render);
    if (r) mdl_walkmesh_free(ctx, info);
    return r;
}
