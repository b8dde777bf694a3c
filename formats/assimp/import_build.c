/* Building the neutral mesh on import: shared by the Assimp scene walk
 * (assimp_read.c) and the OBJ reader (obj_read.c). */
#include "import_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The surface of faces without a known material that are flat enough. */
static uint16_t slope_walk_surface(const wm_surface_table *table)
{
    return wm_surface_walkable(table, table->fallback) ? table->fallback : WM_SURF_STONE;
}

static int material_is_placeholder(const char *name)
{
    /* Assimp invents this one when a file has no materials. */
    return name[0] == '\0' || strcmp(name, "DefaultMaterial") == 0;
}

wm_result wm_import_add_material(import_state *st, const char *name)
{
    const wm_surface_table *table = wm_surfaces(st->ctx);
    unsigned m = st->material_count, n = m + 1;
    uint16_t *surface = wm_realloc_array(st->ctx, st->material_surface, n, sizeof(uint16_t));
    if (surface)
        st->material_surface = surface;
    uint8_t *walkable = wm_realloc_array(st->ctx, st->material_walkable, n, 1);
    if (walkable)
        st->material_walkable = walkable;
    uint8_t *known = wm_realloc_array(st->ctx, st->material_known, n, 1);
    if (known)
        st->material_known = known;
    uint32_t *faces = wm_realloc_array(st->ctx, st->unknown_faces, n, sizeof(uint32_t));
    if (faces)
        st->unknown_faces = faces;
    uint32_t *walkable_faces = wm_realloc_array(st->ctx, st->unknown_walkable, n, sizeof(uint32_t));
    if (walkable_faces)
        st->unknown_walkable = walkable_faces;
    if (!surface || !walkable || !known || !faces || !walkable_faces)
        return WM_ERR_NOMEM;
    uint16_t s;
    int w;
    st->material_known[m] = (uint8_t)wm_assimp_material_to_surface(table, name, &s, &w);
    /* unknown: classified by slope, face by face */
    st->material_surface[m] = st->material_known[m] ? s : table->fallback;
    st->material_walkable[m] = (uint8_t)(st->material_known[m] ? w : 0);
    st->unknown_faces[m] = st->unknown_walkable[m] = 0;
    st->material_count = n;
    return WM_OK;
}

wm_result wm_import_materials(import_state *st, const char *const *names, unsigned n)
{
    st->material_names = names;
    for (unsigned m = 0; m < n; m++) {
        wm_result r = wm_import_add_material(st, names[m]);
        if (r)
            return r;
    }
    return WM_OK;
}

/* One warning per material without a known surface, counting its faces. */
static void warn_unknown_materials(import_state *st)
{
    const wm_surface_table *table = wm_surfaces(st->ctx);
    unsigned n = st->material_count;
    for (unsigned m = 0; m <= n; m++) {
        uint32_t faces = m < n ? st->unknown_faces[m] : st->none_faces;
        uint32_t walkable = m < n ? st->unknown_walkable[m] : st->none_walkable;
        if (faces == 0)
            continue;
        const char *name = m < n ? st->material_names[m] : "";
        char what[160];
        if (material_is_placeholder(name))
            snprintf(what, sizeof what, "%u face(s) without a material", faces);
        else
            snprintf(what, sizeof what, "material '%.64s' names no known surface: its %u face(s)", name, faces);
        wm_warn(st->ctx,
                "%s: %s classified by slope: %u walkable ('%s'), %u steeper than %g degrees ('%s') "
                "(see --materials, --walkable-slope)",
                st->path, what, walkable, wm_surface_name(table, slope_walk_surface(table)), faces - walkable,
                (double)st->slope, wm_surface_name(table, WM_SURF_NONWALK));
    }
}

/* File coordinates -> game units, Z-up. */
void wm_import_to_game(const import_state *st, float v[3])
{
    if (st->y_up) { /* (x, y, z) Y-up -> (x, -z, y) Z-up */
        float y = v[1], z = v[2];
        v[1] = -z + 0.0f; /* no negative zero */
        v[2] = y;
    }
    for (int k = 0; k < 3; k++)
        v[k] *= st->scale;
}

/* A triangle without a known material is walkable when its normal is within
 * the slope of +Z (fallback surface), else blocking: an unknown name alone
 * never makes a wall walkable. */
static void classify_by_slope(import_state *st, uint32_t t, unsigned material, const float n[3])
{
    const wm_surface_table *table = wm_surfaces(st->ctx);
    int walkable = n[2] > 0.0f && n[2] >= cosf(st->slope * 3.14159265f / 180.0f);
    st->out->walkable[t] = (uint8_t)walkable;
    st->out->surfaces[t] = walkable ? slope_walk_surface(table) : WM_SURF_NONWALK;
    if (material < st->material_count) {
        st->unknown_faces[material]++;
        st->unknown_walkable[material] += (uint32_t)walkable;
    } else {
        st->none_faces++;
        st->none_walkable += (uint32_t)walkable;
    }
}

/* Floor candidates (walkable or unknown material) by the way they face (unit normal n). */
static void measure_orientation(import_state *st, const float n[3], double area)
{
    /* read Y-up: file z = -game y; read Z-up: file y = game y */
    float other_up = st->y_up ? -n[1] : n[1];
    st->floor_area += area;
    st->up_area += n[2] > 0.5f ? area : 0.0;
    st->down_area += n[2] < -0.5f ? area : 0.0;
    st->other_axis_up_area += other_up > 0.5f ? area : 0.0;
}

/* OBJ, PLY and STL do not say which axis is up: warn when the floor does not face up. */
static void warn_orientation(import_state *st)
{
    if (st->axis_from_file || !(st->floor_area > 0.0) || st->up_area >= 0.5 * st->floor_area)
        return;
    if (st->other_axis_up_area > st->up_area)
        wm_warn(st->ctx,
                "%s: most walkable faces stand on their side with %s up; the file looks %s-up (as Blender writes "
                "%s): convert again with --up %s",
                st->path, st->y_up ? "Y" : "Z", st->y_up ? "Z" : "Y", st->y_up ? "PLY and STL" : "OBJ",
                st->y_up ? "z" : "y");
    else if (st->down_area > st->up_area)
        wm_warn(st->ctx,
                "%s: most walkable faces point down with %s up: check the file's up axis (--up %s) or its "
                "face winding",
                st->path, st->y_up ? "Y" : "Z", st->y_up ? "z" : "y");
}

const char *wm_import_point_name(const char *object_name)
{
    size_t n = strlen(WM_ASSIMP_POINT_PREFIX);
    return strncmp(object_name, WM_ASSIMP_POINT_PREFIX, n) == 0 && object_name[n] ? object_name + n : NULL;
}

wm_result wm_import_point(import_state *st, const char *name, const float p[3], const float q[3])
{
    return wm_mesh_set_point(st->ctx, st->out, name, p[2] <= q[2] ? p : q);
}

/* The writer stores transitions as line meshes named "transition_<value>"
 * (see assimp_write.c); other line meshes carry no walkmesh data. */
int wm_import_transition_value(const char *name, int32_t *value)
{
    if (strncmp(name, "transition_", 11) != 0)
        return 0;
    char *end;
    long v = strtol(name + 11, &end, 10);
    if (end == name + 11 || v < -1 || v > INT32_MAX)
        return 0;
    *value = (int32_t)v;
    return 1;
}

wm_result wm_import_segment(import_state *st, const float p[3], const float q[3], int32_t value)
{
    if (st->segment_count == st->segment_capacity) {
        size_t capacity = st->segment_capacity ? 2 * st->segment_capacity : 64;
        float *points = wm_realloc_array(st->ctx, st->segment_points, capacity, 6 * sizeof(float));
        if (!points)
            return WM_ERR_NOMEM;
        st->segment_points = points;
        int32_t *values = wm_realloc_array(st->ctx, st->segment_values, capacity, sizeof(int32_t));
        if (!values)
            return WM_ERR_NOMEM;
        st->segment_values = values;
        st->segment_capacity = capacity;
    }
    memcpy(st->segment_points + 6 * st->segment_count, p, 3 * sizeof(float));
    memcpy(st->segment_points + 6 * st->segment_count + 3, q, 3 * sizeof(float));
    st->segment_values[st->segment_count++] = value;
    return WM_OK;
}

void wm_import_empty_transition_object(import_state *st, const char *name)
{
    if (st->empty_transition_objects++ == 0)
        snprintf(st->first_empty_transition, sizeof st->first_empty_transition, "%.40s", name);
}

wm_result wm_import_vertex(import_state *st, const float file_xyz[3])
{
    float xyz[3] = {file_xyz[0], file_xyz[1], file_xyz[2]};
    wm_import_to_game(st, xyz);
    if (!isfinite(xyz[0]) || !isfinite(xyz[1]) || !isfinite(xyz[2]))
        return wm_error(st->ctx, WM_ERR_CORRUPT, "%s: vertex %u: not finite once placed and scaled", st->path,
                        st->out->vertex_count);
    return wm_mesh_add_vertex(st->ctx, st->out, xyz[0], xyz[1], xyz[2], NULL) ? WM_ERR_NOMEM : WM_OK;
}

wm_result wm_import_triangle(import_state *st, uint32_t a, uint32_t b, uint32_t c, unsigned material, uint16_t object)
{
    unsigned m = material < st->material_count ? material : st->material_count;
    int known = m < st->material_count ? st->material_known[m] : 0;
    uint16_t surface = m < st->material_count ? st->material_surface[m] : wm_surfaces(st->ctx)->fallback;
    int walkable = m < st->material_count ? st->material_walkable[m] : 0;
    wm_mesh *out = st->out;
    wm_result r = wm_mesh_add_triangle(st->ctx, out, a, b, c, surface, walkable);
    if (r)
        return r;
    out->objects[out->triangle_count - 1] = object;
    if (known && !walkable)
        return WM_OK;
    uint32_t t = out->triangle_count - 1;
    const float *p = out->positions;
    float n[3]; /* one cross product for the slope and the orientation: wm_tri_area is half its length */
    double area = 0.5f * wm_tri_normal(p + 3 * (size_t)a, p + 3 * (size_t)b, p + 3 * (size_t)c, n);
    if (!known)
        classify_by_slope(st, t, m, n);
    measure_orientation(st, n, area);
    return WM_OK;
}

typedef struct vertex_x {
    float x;
    uint32_t vertex;
} vertex_x;

static int compare_vertex_x(const void *a, const void *b)
{
    const vertex_x *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return (p->vertex > q->vertex) - (p->vertex < q->vertex);
}

/* Vertex whose position equals p within 1e-5, through vertices sorted by x. */
static uint32_t find_vertex(const wm_mesh *m, const vertex_x *by_x, const float *p)
{
    const float tol = 1e-5f;
    uint32_t lo = 0, hi = m->vertex_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (by_x[mid].x < p[0] - tol)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t i = lo; i < m->vertex_count && by_x[i].x <= p[0] + tol; i++) {
        const float *q = m->positions + 3 * (size_t)by_x[i].vertex;
        if (fabsf(q[1] - p[1]) <= tol && fabsf(q[2] - p[2]) <= tol)
            return by_x[i].vertex;
    }
    return UINT32_MAX;
}

typedef struct edge_value {
    uint64_t key;
    int32_t value;
} edge_value;

static int compare_edge_values(const void *a, const void *b)
{
    const edge_value *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

static uint64_t undirected_key(uint32_t a, uint32_t b)
{
    return a < b ? ((uint64_t)a << 32) | b : ((uint64_t)b << 32) | a;
}

/* Puts each transition segment onto every triangle edge it coincides with. */
static wm_result apply_transitions(import_state *st)
{
    wm_mesh *m = st->out;
    vertex_x *by_x = wm_alloc_array(st->ctx, m->vertex_count, sizeof *by_x);
    edge_value *edges = wm_alloc_array(st->ctx, st->segment_count, sizeof *edges);
    if (!by_x || !edges) {
        wm_free(st->ctx, by_x);
        wm_free(st->ctx, edges);
        return WM_ERR_NOMEM;
    }
    for (uint32_t v = 0; v < m->vertex_count; v++) {
        by_x[v].x = m->positions[3 * (size_t)v];
        by_x[v].vertex = v;
    }
    qsort(by_x, m->vertex_count, sizeof *by_x, compare_vertex_x);
    size_t n = 0, unmatched = 0;
    for (size_t s = 0; s < st->segment_count; s++) {
        uint32_t a = find_vertex(m, by_x, st->segment_points + 6 * s);
        uint32_t b = find_vertex(m, by_x, st->segment_points + 6 * s + 3);
        if (a == UINT32_MAX || b == UINT32_MAX || a == b) {
            unmatched++;
            continue;
        }
        edges[n].key = undirected_key(a, b);
        edges[n].value = st->segment_values[s];
        n++;
    }
    qsort(edges, n, sizeof *edges, compare_edge_values);
    for (uint32_t t = 0; t < m->triangle_count; t++)
        for (int e = 0; e < 3; e++) {
            edge_value probe = {undirected_key(m->indices[3 * (size_t)t + e], m->indices[3 * (size_t)t + (e + 1) % 3]), 0};
            const edge_value *hit = bsearch(&probe, edges, n, sizeof *edges, compare_edge_values);
            if (hit)
                m->transitions[3 * (size_t)t + e] = hit->value;
        }
    if (unmatched)
        wm_warn(st->ctx, "%s: %zu transition edge(s) match no triangle edge and were dropped", st->path, unmatched);
    wm_free(st->ctx, by_x);
    wm_free(st->ctx, edges);
    return WM_OK;
}

wm_result wm_import_begin(import_state *st, wm_ctx *ctx, const char *path, const char *ext, const wm_options *opts,
                          wm_mesh *out)
{
    memset(st, 0, sizeof *st);
    if (!opts) {
        wm_options_init(&st->defaults);
        opts = &st->defaults;
    }
    st->ctx = ctx;
    st->opts = opts;
    st->out = out;
    st->path = path;
    st->slope = opts->walkable_slope >= 0 ? opts->walkable_slope : WM_ASSIMP_DEFAULT_SLOPE;
    wm_assimp_stem(path, out->name, sizeof out->name);
    /* glTF is Y-up in metres by its specification; elsewhere --up decides
     * unless the file says (FBX: see assimp_read.c) */
    st->y_up = opts->up != WM_UP_Z;
    st->scale = 1.0f;
    if (strcmp(ext, "gltf") == 0 || strcmp(ext, "glb") == 0) {
        st->y_up = 1;
        st->axis_from_file = 1;
    }
    const char *scale = wm_option_get(opts, "scale");
    if (scale) {
        char *end;
        double f = strtod(scale, &end);
        if (end == scale || *end || !(f > 0) || !isfinite(f) || f > 1e6)
            return wm_error(ctx, WM_ERR_OPTION, "--scale: '%s' is not a positive number up to 1e6", scale);
        st->scale = (float)f;
    }
    return WM_OK;
}

wm_result wm_import_finish(import_state *st, wm_result r)
{
    wm_ctx *ctx = st->ctx;
    wm_mesh *out = st->out;
    if (!r && st->empty_transition_objects)
        wm_warn(ctx,
                "%s: %u transition object(s) ('%s'...) hold no edges: those transitions are lost (Blender's glTF "
                "export leaves out loose edges unless Include > Data > Loose Edges is ticked; its OBJ export keeps "
                "them)",
                st->path, st->empty_transition_objects, st->first_empty_transition);
    if (!r) {
        warn_unknown_materials(st);
        warn_orientation(st);
    }
    wm_free(ctx, st->unknown_faces);
    wm_free(ctx, st->unknown_walkable);
    wm_free(ctx, st->material_surface);
    wm_free(ctx, st->material_walkable);
    wm_free(ctx, st->material_known);
    if (!r && out->triangle_count) {
        /* Vertices of different meshes or objects that share a position become one. */
        uint32_t merged;
        r = wm_mesh_weld(ctx, out, 1e-6f, &merged);
        if (!r && !merged)
            r = wm_mesh_compact(ctx, out); /* vertices no face uses */
    }
    if (!r && st->segment_count)
        r = apply_transitions(st);
    wm_free(ctx, st->segment_points);
    wm_free(ctx, st->segment_values);
    if (!r && out->triangle_count == 0)
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: the file holds no triangles", st->path);
    if (r)
        wm_mesh_free(ctx, out);
    return r;
}
