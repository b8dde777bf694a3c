/* ASCII walkmeshes (read only): KOTORMax `.wok.ascii` exports, `node aabb`
 * walkmesh nodes inside `.mdl.ascii` models, PyKotor and MDLOps text.
 * Vertices are node-relative: the node's orientation (axis-angle) and
 * position are applied. Face rows end with the surfacemat id; roomlinks
 * rows are `face*3+edge room` in the text's face order. */
#include "bwm/bwm.h"
#include "wm_geometry.h"
#include "wm_surface.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ASCII_MAX_LINE 1024
#define ASCII_MAX_FIELDS 16

typedef struct text_reader {
    const char *p, *end;
    const char *source;
    unsigned long line_no;
    char line[ASCII_MAX_LINE];
    char *field[ASCII_MAX_FIELDS];
    int fields;
    wm_ctx *ctx;
} text_reader;

/* Next line split into whitespace-separated fields (comments after '#' dropped).
 * Returns 0 at the end of the text, -1 on a line too long. */
static int next_line(text_reader *t)
{
    if (t->p >= t->end) return 0;
    const char *start = t->p, *nl = memchr(t->p, '\n', (size_t)(t->end - t->p));
    const char *stop = nl ? nl : t->end;
    t->p = nl ? nl + 1 : t->end;
    t->line_no++;
    size_t n = (size_t)(stop - start);
    if (n >= ASCII_MAX_LINE) return -1;
    memcpy(t->line, start, n);
    t->line[n] = 0;
    char *hash = strchr(t->line, '#');
    if (hash) *hash = 0;
    t->fields = 0;
    for (char *s = t->line; *s && t->fields < ASCII_MAX_FIELDS;) {
        while (*s && isspace((unsigned char)*s)) *s++ = 0;
        if (!*s) break;
        t->field[t->fields++] = s;
        while (*s && !isspace((unsigned char)*s)) s++;
    }
    return 1;
}

static wm_result text_error(text_reader *t, const char *what)
{
    return wm_error(t->ctx, WM_ERR_CORRUPT, "%s: line %lu: %s", t->source, t->line_no, what);
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return end != s && *end == 0 && errno == 0 && isfinite(*out);
}

/* Three coordinates from fields[at..at+3): numbers within WM_COORD_LIMIT (a float walkmesh
 * holds no more, and 1e39 would become an infinite float), else an error naming the line. */
static wm_result read_coordinates(text_reader *t, int at, const char *what, double out[3])
{
    for (int k = 0; k < 3; k++) {
        if (at + k >= t->fields || !parse_double(t->field[at + k], &out[k])) {
            char message[96];
            snprintf(message, sizeof message, "expected a %s \"x y z\"", what);
            return text_error(t, message);
        }
        if (fabs(out[k]) > WM_COORD_LIMIT)
            return wm_error(t->ctx, WM_ERR_CORRUPT, "%s: line %lu: %s coordinate %s beyond the bound of 1e7 game units",
                            t->source, t->line_no, what, t->field[at + k]);
    }
    return WM_OK;
}

static int parse_long(const char *s, long *out)
{
    double d;
    if (!parse_double(s, &d) || d != floor(d) || fabs(d) > 2147483647.0) return 0;
    *out = (long)d;
    return 1;
}

/* Reads a `keyword N` count and checks it against the limit and the text left
 * (every row takes at least two bytes) before anything is allocated. */
static wm_result read_count(text_reader *t, uint32_t *out)
{
    long n;
    if (t->fields < 2 || !parse_long(t->field[1], &n) || n < 0) return text_error(t, "bad count");
    if ((uint64_t)n > t->ctx->limits.max_triangles)
        return wm_error(t->ctx, WM_ERR_LIMIT, "%s: line %lu: count %ld over the limit", t->source, t->line_no, n);
    if ((uint64_t)n * 2 > (uint64_t)(t->end - t->p))
        return wm_error(t->ctx, WM_ERR_TRUNCATED, "%s: line %lu: %ld rows announced, the text ends before",
                        t->source, t->line_no, n);
    *out = (uint32_t)n;
    return WM_OK;
}

typedef struct ascii_node {
    double position[3];
    double axis[3], angle;
    uint32_t first_vertex, vertex_count, first_face;
    int has_root_box;
    double root_box[6]; /* first row of an `aabb` list */
    const double *room_offset;
    int absolute; /* KOTORMax .wok.ascii: vertices hold the node position already */
} ascii_node;

static void rotate(const ascii_node *n, const double in[3], double out[3])
{
    double len = sqrt(n->axis[0] * n->axis[0] + n->axis[1] * n->axis[1] + n->axis[2] * n->axis[2]);
    if (n->angle == 0.0 || len == 0.0) {
        memcpy(out, in, sizeof(double) * 3);
        return;
    }
    double k[3] = {n->axis[0] / len, n->axis[1] / len, n->axis[2] / len}, c = cos(n->angle), s = sin(n->angle);
    double dot = k[0] * in[0] + k[1] * in[1] + k[2] * in[2];
    double cross[3] = {k[1] * in[2] - k[2] * in[1], k[2] * in[0] - k[0] * in[2], k[0] * in[1] - k[1] * in[0]};
    for (int i = 0; i < 3; i++) out[i] = in[i] * c + cross[i] * s + k[i] * dot * (1 - c); /* Rodrigues */
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

static wm_result read_verts(text_reader *t, ascii_node *node, wm_mesh *mesh)
{
    uint32_t n;
    wm_result r = read_count(t, &n);
    if (!r) r = wm_mesh_reserve(t->ctx, mesh, grown(mesh->vertex_count, mesh->vertex_capacity, n), mesh->triangle_count);
    node->first_vertex = mesh->vertex_count;
    node->vertex_count = n;
    for (uint32_t i = 0; !r && i < n; i++) {
        double v[3];
        if (next_line(t) != 1) return text_error(t, "expected a vertex row \"x y z\"");
        r = read_coordinates(t, 0, "vertex row", v);
        if (!r) r = wm_mesh_add_vertex(t->ctx, mesh, (float)v[0], (float)v[1], (float)v[2], NULL);
    }
    return r;
}

static wm_result read_faces(text_reader *t, ascii_node *node, wm_mesh *mesh, uint32_t *unknown_materials)
{
    const wm_surface_table *table = wm_surfaces(t->ctx);
    uint32_t n;
    wm_result r = read_count(t, &n);
    if (!r) r = wm_mesh_reserve(t->ctx, mesh, mesh->vertex_count, grown(mesh->triangle_count, mesh->triangle_capacity, n));
    node->first_face = mesh->triangle_count;
    for (uint32_t i = 0; !r && i < n; i++) {
        long v[3], material;
        if (next_line(t) != 1 || t->fields < 4 || !parse_long(t->field[0], &v[0]) || !parse_long(t->field[1], &v[1]) ||
            !parse_long(t->field[2], &v[2]) || !parse_long(t->field[t->fields - 1], &material))
            return text_error(t, "expected a face row \"v1 v2 v3 ... material\"");
        for (int k = 0; k < 3; k++)
            if (v[k] < 0 || (uint64_t)v[k] >= node->vertex_count) return text_error(t, "face vertex index out of range");
        uint16_t s = material >= 0 && material <= 0x7FFFFFFFL ? bwm_surface_of_material(table, (uint32_t)material) : WM_SURFACE_NONE;
        if (s == WM_SURFACE_NONE) {
            (*unknown_materials)++;
            s = WM_SURF_UNDEFINED;
        }
        r = wm_mesh_add_triangle(t->ctx, mesh, node->first_vertex + (uint32_t)v[0], node->first_vertex + (uint32_t)v[1],
                                 node->first_vertex + (uint32_t)v[2], s, wm_surface_walkable(table, s));
    }
    return r;
}

static wm_result read_roomlinks(text_reader *t, const ascii_node *node, wm_mesh *mesh)
{
    uint32_t n;
    wm_result r = read_count(t, &n);
    for (uint32_t i = 0; !r && i < n; i++) {
        long code, room;
        if (next_line(t) != 1 || t->fields < 2 || !parse_long(t->field[0], &code) || !parse_long(t->field[1], &room))
            return text_error(t, "expected a roomlinks row \"face*3+edge room\"");
        uint64_t faces = mesh->triangle_count - node->first_face;
        if (code < 0 || (uint64_t)code >= faces * 3 || room < -1) return text_error(t, "roomlink out of range");
        mesh->transitions[3 * (size_t)node->first_face + (size_t)code] = (int32_t)room;
    }
    return r;
}

/* Node-relative vertices (KOTORMax) get the node's orientation and position
 * (and the LYT room offset when given). A node whose `aabb` list encloses
 * the vertices as stored (PyKotor writes absolute vertices beside the
 * position) is already in place. */
static void place_vertices(const ascii_node *node, wm_mesh *mesh)
{
    if (node->vertex_count == 0 || node->absolute) return;
    float *p = &mesh->positions[3 * (size_t)node->first_vertex];
    if (node->has_root_box) {
        double mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (uint32_t i = 0; i < node->vertex_count; i++)
            for (int k = 0; k < 3; k++) {
                mn[k] = fmin(mn[k], p[3 * i + k]);
                mx[k] = fmax(mx[k], p[3 * i + k]);
            }
        int absolute = 1;
        for (int k = 0; k < 3; k++)
            absolute &= fabs(node->root_box[k] - mn[k]) < 0.05 && fabs(node->root_box[3 + k] - mx[k]) < 0.05;
        if (absolute) return;
    }
    for (uint32_t i = 0; i < node->vertex_count; i++) {
        double v[3] = {p[3 * i], p[3 * i + 1], p[3 * i + 2]}, w[3];
        rotate(node, v, w);
        for (int k = 0; k < 3; k++)
            p[3 * i + k] = (float)(w[k] + node->position[k] + (node->room_offset ? node->room_offset[k] : 0.0));
    }
}

/* A vertex within the bound can leave it once the node's position (and room offset) is added. */
static wm_result check_placed(text_reader *t, const ascii_node *node, const wm_mesh *mesh)
{
    const float *p = &mesh->positions[3 * (size_t)node->first_vertex];
    for (uint32_t i = 0; i < node->vertex_count; i++)
        for (int k = 0; k < 3; k++)
            if (!(fabsf(p[3 * (size_t)i + k]) <= WM_COORD_LIMIT))
                return wm_error(t->ctx, WM_ERR_CORRUPT,
                                "%s: line %lu: the node's vertex %u placed at (%g, %g, %g) is beyond the bound of 1e7 "
                                "game units", t->source, t->line_no, i, (double)p[3 * (size_t)i],
                                (double)p[3 * (size_t)i + 1], (double)p[3 * (size_t)i + 2]);
    return WM_OK;
}

/* Parses one node body up to `endnode`. */
static wm_result read_node(text_reader *t, wm_mesh *mesh, const double *room_offset, int absolute, uint32_t *unknown)
{
    ascii_node node;
    memset(&node, 0, sizeof node);
    node.first_face = mesh->triangle_count;
    node.room_offset = room_offset;
    node.absolute = absolute;
    int status;
    while ((status = next_line(t)) == 1) {
        if (t->fields == 0) continue;
        const char *key = t->field[0];
        wm_result r = WM_OK;
        if (strcasecmp(key, "endnode") == 0) {
            place_vertices(&node, mesh);
            r = check_placed(t, &node, mesh);
            if (r) return r;
            float at[3] = {(float)node.position[0], (float)node.position[1], (float)node.position[2]};
            /* the node's position is the .wok header's; the first walkmesh node gives it */
            return wm_mesh_find_point(mesh, BWM_POINT_POSITION) ? WM_OK
                                                                : wm_mesh_set_point(t->ctx, mesh, BWM_POINT_POSITION, at);
        }
        if (strcasecmp(key, "position") == 0 && t->fields >= 4) {
            r = read_coordinates(t, 1, "position", node.position);
        } else if (strcasecmp(key, "orientation") == 0 && t->fields >= 5) {
            for (int k = 0; k < 3; k++)
                if (!parse_double(t->field[1 + k], &node.axis[k])) return text_error(t, "bad orientation");
            if (!parse_double(t->field[4], &node.angle)) return text_error(t, "bad orientation");
        } else if (strcasecmp(key, "verts") == 0) {
            r = read_verts(t, &node, mesh);
        } else if (strcasecmp(key, "faces") == 0) {
            r = read_faces(t, &node, mesh, unknown);
        } else if (strcasecmp(key, "roomlinks") == 0) {
            r = read_roomlinks(t, &node, mesh);
        } else if (strcasecmp(key, "aabb") == 0) {
            /* the first box row (on the keyword's line or the next) is the root's */
            int at = 1;
            if (t->fields < 7 && next_line(t) == 1) at = 0;
            if (t->fields - at >= 6 && !node.has_root_box) {
                node.has_root_box = 1;
                for (int k = 0; k < 6; k++)
                    if (!parse_double(t->field[at + k], &node.root_box[k])) node.has_root_box = 0;
            }
        } /* everything else (further aabb rows, tverts, render settings) is derived or not a walkmesh's */
        if (r) return r;
    }
    if (status < 0) return text_error(t, "line too long");
    return text_error(t, "node without endnode");
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

static wm_result read_hook_node(text_reader *t, wm_mesh *mesh, const char *point)
{
    float at[3] = {0, 0, 0};
    int status;
    while ((status = next_line(t)) == 1) {
        if (t->fields == 0) continue;
        if (strcasecmp(t->field[0], "endnode") == 0) return wm_mesh_set_point(t->ctx, mesh, point, at);
        if (strcasecmp(t->field[0], "position") == 0 && t->fields >= 4) {
            double d[3];
            wm_result r = read_coordinates(t, 1, "position", d);
            if (r) return r;
            for (int k = 0; k < 3; k++) at[k] = (float)d[k];
        }
    }
    return text_error(t, status < 0 ? "line too long" : "node without endnode");
}

wm_result bwm_ascii_parse(wm_ctx *ctx, const char *text, size_t size, const char *source, const double *room_offset,
                          wm_mesh *out)
{
    return bwm_ascii_parse_joined(ctx, text, size, source, room_offset, BWM_ASCII_JOIN_TOLERANCE, out);
}

wm_result bwm_ascii_parse_joined(wm_ctx *ctx, const char *text, size_t size, const char *source,
                                 const double *room_offset, float join_tolerance, wm_mesh *out)
{
    text_reader t;
    memset(&t, 0, sizeof t);
    t.p = text;
    t.end = text + size;
    t.source = source ? source : "<memory>";
    t.ctx = ctx;
    /* Walkmesh nodes: `node aabb` when the text has any, else `node trimesh` (a
     * .wok.ascii or an NWN1 .pwk); a model's trimesh nodes are render geometry. */
    const char *wanted = contains(text, size, "node aabb") ? "aabb" : "trimesh";
    if (wanted[0] == 't' && contains(text, size, "newmodel"))
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: an ASCII model without a walkmesh node (\"node aabb\"): its trimesh "
                        "nodes are render geometry, not a walkmesh", t.source);
    /* KOTORMax's exports ("# WOKMESH  ASCII", and this writer's PWK/DWK) hold
     * absolute vertices; NWmax's ("#NWmaxPWKMESH") and models are node-relative */
    int absolute = contains(text, size, "# WOKMESH") || contains(text, size, "# PWKMESH") ||
                   contains(text, size, "# DWKMESH");
    uint32_t nodes = 0, unknown = 0, *node_start = NULL, starts_room = 0;
    wm_result r = WM_OK;
    int status;
    while (!r && (status = next_line(&t)) == 1) {
        if (t.fields < 2 || strcasecmp(t.field[0], "node") != 0) continue;
        const char *point = t.fields >= 3 && strcasecmp(t.field[1], "dummy") == 0 ? hook_point(t.field[2]) : NULL;
        if (point) {
            r = read_hook_node(&t, out, point);
            continue;
        }
        if (strcasecmp(t.field[1], wanted) != 0) continue;
        if (nodes == 0 && t.fields >= 3) snprintf(out->name, sizeof out->name, "%s", t.field[2]);
        if (nodes == starts_room) { /* doubled: a text of many small nodes stays linear */
            starts_room = starts_room ? 2 * starts_room : 16;
            uint32_t *grown_starts = wm_realloc_array(ctx, node_start, starts_room, sizeof *node_start);
            if (!grown_starts) r = WM_ERR_NOMEM;
            else node_start = grown_starts;
        }
        if (!r) {
            node_start[nodes++] = out->vertex_count;
            r = read_node(&t, out, room_offset, absolute, &unknown);
        }
    }
    if (!r && status < 0) r = text_error(&t, "line too long");
    if (!r && nodes == 0)
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: no walkmesh node (\"node aabb\" or \"node trimesh\")", t.source);
    if (!r) r = bwm_ascii_join_nodes(ctx, out, node_start, nodes, join_tolerance);
    wm_free(ctx, node_start);
    if (!r && unknown)
        wm_warn(ctx, "%s: %u faces have materials unknown to the surface table (read as undefined)", t.source, unknown);
    return r;
}

/* One `aabb` row: six box floats and the face (-1 on internal nodes). */
static int parse_row(text_reader *t, int at, double row[7])
{
    if (t->fields - at != 7) return 0;
    for (int k = 0; k < 7; k++) /* a box beyond the bound is no row: the boxes are derived instead */
        if (!parse_double(t->field[at + k], &row[k]) || (k < 6 && fabs(row[k]) > WM_COORD_LIMIT)) return 0;
    return 1;
}

wm_result bwm_ascii_aabb_rows(wm_ctx *ctx, const char *text, size_t size, uint32_t max_rows, double **rows,
                              uint32_t *count)
{
    text_reader t;
    memset(&t, 0, sizeof t);
    t.p = text, t.end = text + size, t.source = "<text>", t.ctx = ctx;
    *rows = NULL;
    *count = 0;
    int status, in_list = 0;
    while ((status = next_line(&t)) == 1) {
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
