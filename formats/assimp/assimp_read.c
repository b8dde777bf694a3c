/* Import through Assimp: triangulate, bake node transforms, map material
 * names to surfaces, convert the file's up axis to Z-up. */
#include "assimp_module.h"

#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct import_state {
    wm_ctx *ctx;
    const wm_options *opts;
    const struct aiScene *scene;
    wm_mesh *out;
    int y_up;
    int axis_from_file; /* the file states its up axis (glTF, FBX): no orientation guess */
    float scale;        /* file units -> game units */
    float slope;        /* degrees: faces without a known material steeper than this block */
    const char *path;
    /* per Assimp material: surface, walkable, known */
    uint16_t *material_surface;
    uint8_t *material_walkable;
    uint8_t *material_known;
    /* faces without a known material, per material (+1: meshes without one), and how many became walkable */
    uint32_t *unknown_faces, *unknown_walkable;
    /* area of candidate floor faces (walkable or unknown material): total, facing up, facing down,
     * and facing up if the other up axis were right */
    double floor_area, up_area, down_area, other_axis_up_area;
    /* transition edges read from "transition_<value>" line meshes, Z-up */
    float *segment_points; /* 6 per segment */
    int32_t *segment_values;
    size_t segment_count, segment_capacity;
    /* "transition_<value>" objects that arrived without any edge */
    unsigned empty_transition_objects;
    char first_empty_transition[64];
} import_state;

/* The surface of faces without a known material that are flat enough. */
static uint16_t slope_walk_surface(const wm_surface_table *table)
{
    return wm_surface_walkable(table, table->fallback) ? table->fallback : WM_SURF_STONE;
}

static int material_is_placeholder(const char *name)
{
    /* Assimp invents this one when a file has no materials. */
    return name[0] == '\0' || strcmp(name, AI_DEFAULT_MATERIAL_NAME) == 0;
}

static wm_result map_materials(import_state *st)
{
    const wm_surface_table *table = wm_surfaces(st->ctx);
    unsigned n = st->scene->mNumMaterials;
    st->material_surface = wm_alloc_array(st->ctx, n, sizeof(uint16_t));
    st->material_walkable = wm_alloc_array(st->ctx, n, 1);
    st->material_known = wm_alloc_array(st->ctx, n, 1);
    st->unknown_faces = wm_alloc_array(st->ctx, (size_t)n + 1, sizeof(uint32_t));
    st->unknown_walkable = wm_alloc_array(st->ctx, (size_t)n + 1, sizeof(uint32_t));
    if (!st->material_surface || !st->material_walkable || !st->material_known || !st->unknown_faces ||
        !st->unknown_walkable)
        return WM_ERR_NOMEM;
    for (unsigned m = 0; m < n; m++) {
        struct aiString name;
        name.length = 0;
        name.data[0] = '\0';
        aiGetMaterialString(st->scene->mMaterials[m], AI_MATKEY_NAME, &name);
        uint16_t surface;
        int walkable;
        if (wm_assimp_material_to_surface(table, name.data, &surface, &walkable)) {
            st->material_surface[m] = surface;
            st->material_walkable[m] = (uint8_t)walkable;
            st->material_known[m] = 1;
        } else { /* classified by slope, face by face */
            st->material_surface[m] = table->fallback;
            st->material_walkable[m] = 0;
        }
    }
    return WM_OK;
}

/* One warning per material without a known surface, counting its faces. */
static void warn_unknown_materials(import_state *st)
{
    const wm_surface_table *table = wm_surfaces(st->ctx);
    unsigned n = st->scene->mNumMaterials;
    for (unsigned m = 0; m <= n; m++) {
        uint32_t faces = st->unknown_faces[m], walkable = st->unknown_walkable[m];
        if (faces == 0)
            continue;
        struct aiString name;
        name.length = 0;
        name.data[0] = '\0';
        if (m < n)
            aiGetMaterialString(st->scene->mMaterials[m], AI_MATKEY_NAME, &name);
        char what[160];
        if (m == n || material_is_placeholder(name.data))
            snprintf(what, sizeof what, "%u face(s) without a material", faces);
        else
            snprintf(what, sizeof what, "material '%s' names no known surface: its %u face(s)", name.data, faces);
        wm_warn(st->ctx,
                "%s: %s classified by slope: %u walkable ('%s'), %u steeper than %g degrees ('%s') "
                "(see --materials, --walkable-slope)",
                st->path, what, walkable, wm_surface_name(table, slope_walk_surface(table)), faces - walkable,
                (double)st->slope, wm_surface_name(table, WM_SURF_NONWALK));
    }
}

/* File coordinates -> game units, Z-up. */
static void to_game(const import_state *st, float v[3])
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
static void classify_by_slope(import_state *st, uint32_t t, unsigned material)
{
    const wm_surface_table *table = wm_surfaces(st->ctx);
    float n[3];
    wm_mesh_triangle_normal(st->out, t, n);
    int walkable = n[2] > 0.0f && n[2] >= cosf(st->slope * 3.14159265f / 180.0f);
    st->out->walkable[t] = (uint8_t)walkable;
    st->out->surfaces[t] = walkable ? slope_walk_surface(table) : WM_SURF_NONWALK;
    st->unknown_faces[material]++;
    st->unknown_walkable[material] += (uint32_t)walkable;
}

/* Floor candidates (walkable or unknown material) by the way they face. */
static void measure_orientation(import_state *st, uint32_t t)
{
    const wm_mesh *m = st->out;
    const uint32_t *tri = m->indices + 3 * (size_t)t;
    double area = wm_tri_area(m->positions + 3 * (size_t)tri[0], m->positions + 3 * (size_t)tri[1],
                              m->positions + 3 * (size_t)tri[2]);
    float n[3];
    wm_mesh_triangle_normal(m, t, n);
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

/* The writer stores transitions as line meshes named "transition_<value>"
 * (see assimp_write.c); other line meshes carry no walkmesh data. */
static int transition_value(const char *name, int32_t *value)
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

static wm_result collect_transition_lines(import_state *st, const struct aiNode *node, const struct aiMesh *mesh,
                                          const struct aiMatrix4x4 *transform)
{
    int32_t value;
    if (!transition_value(mesh->mName.data, &value) && !transition_value(node->mName.data, &value))
        return WM_OK;
    for (unsigned f = 0; f < mesh->mNumFaces; f++) {
        const struct aiFace *face = &mesh->mFaces[f];
        if (face->mNumIndices != 2 || face->mIndices[0] >= mesh->mNumVertices ||
            face->mIndices[1] >= mesh->mNumVertices)
            continue;
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
        for (int k = 0; k < 2; k++) {
            struct aiVector3D p = mesh->mVertices[face->mIndices[k]];
            aiTransformVecByMatrix4(&p, transform);
            float *q = st->segment_points + 6 * st->segment_count + 3 * k;
            q[0] = p.x;
            q[1] = p.y;
            q[2] = p.z;
            to_game(st, q);
        }
        st->segment_values[st->segment_count++] = value;
    }
    return WM_OK;
}

static wm_result add_mesh(import_state *st, const struct aiMesh *mesh, const struct aiMatrix4x4 *transform,
                          uint16_t object)
{
    wm_ctx *ctx = st->ctx;
    wm_mesh *out = st->out;
    uint32_t base = out->vertex_count;
    if ((uint64_t)base + mesh->mNumVertices > st->ctx->limits.max_triangles * 3ull)
        return wm_error(ctx, WM_ERR_LIMIT, "%s: more vertices than the limit allows", st->path);
    for (unsigned v = 0; v < mesh->mNumVertices; v++) {
        struct aiVector3D p = mesh->mVertices[v];
        if (!isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z))
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: mesh '%s' vertex %u: coordinates (%g, %g, %g) are not all finite",
                            st->path, mesh->mName.data, v, (double)p.x, (double)p.y, (double)p.z);
        aiTransformVecByMatrix4(&p, transform);
        float xyz[3] = {p.x, p.y, p.z};
        if (!isfinite(xyz[0]) || !isfinite(xyz[1]) || !isfinite(xyz[2]))
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: mesh '%s' vertex %u: the node transform makes it infinite",
                            st->path, mesh->mName.data, v);
        to_game(st, xyz);
        if (wm_mesh_add_vertex(ctx, out, xyz[0], xyz[1], xyz[2], NULL))
            return WM_ERR_NOMEM;
    }
    unsigned materials = st->scene->mNumMaterials;
    unsigned m = mesh->mMaterialIndex < materials ? mesh->mMaterialIndex : materials;
    int known = m < materials ? st->material_known[m] : 0;
    uint16_t surface = m < materials ? st->material_surface[m] : wm_surfaces(ctx)->fallback;
    int walkable = m < materials ? st->material_walkable[m] : 0;
    for (unsigned f = 0; f < mesh->mNumFaces; f++) {
        const struct aiFace *face = &mesh->mFaces[f];
        if (face->mNumIndices != 3)
            continue; /* points and lines carry no walkable area */
        uint32_t idx[3];
        for (int k = 0; k < 3; k++) {
            if (face->mIndices[k] >= mesh->mNumVertices)
                return wm_error(ctx, WM_ERR_CORRUPT, "%s: mesh '%s' face %u refers to vertex %u of %u", st->path,
                                mesh->mName.data, f, face->mIndices[k], mesh->mNumVertices);
            idx[k] = base + face->mIndices[k];
        }
        wm_result r = wm_mesh_add_triangle(ctx, out, idx[0], idx[1], idx[2], surface, walkable);
        if (r)
            return r;
        out->objects[out->triangle_count - 1] = object;
        if (!known)
            classify_by_slope(st, out->triangle_count - 1, m);
        if (!known || walkable)
            measure_orientation(st, out->triangle_count - 1);
    }
    return WM_OK;
}

static wm_result walk_nodes(import_state *st, const struct aiNode *node, const struct aiMatrix4x4 *parent, int depth)
{
    if (depth > 256)
        return wm_error(st->ctx, WM_ERR_CORRUPT, "%s: node hierarchy deeper than 256", st->path);
    struct aiMatrix4x4 transform = *parent;
    aiMultiplyMatrix4(&transform, &node->mTransformation);
    int have_object = 0;
    uint16_t object = 0;
    size_t segments_before = st->segment_count;
    for (unsigned i = 0; i < node->mNumMeshes; i++) {
        if (node->mMeshes[i] >= st->scene->mNumMeshes)
            return wm_error(st->ctx, WM_ERR_CORRUPT, "%s: node '%s' refers to mesh %u of %u", st->path,
                            node->mName.data, node->mMeshes[i], st->scene->mNumMeshes);
        const struct aiMesh *mesh = st->scene->mMeshes[node->mMeshes[i]];
        wm_result r = WM_OK;
        if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) {
            if (mesh->mPrimitiveTypes & aiPrimitiveType_LINE)
                r = collect_transition_lines(st, node, mesh, &transform);
        } else {
            if (!have_object) {
                r = wm_mesh_add_object(st->ctx, st->out, node->mName.length ? node->mName.data : "object", &object);
                have_object = 1;
            }
            if (!r)
                r = add_mesh(st, mesh, &transform, object);
        }
        if (r)
            return r;
    }
    int32_t value;
    if (transition_value(node->mName.data, &value) && st->segment_count == segments_before &&
        st->empty_transition_objects++ == 0)
        snprintf(st->first_empty_transition, sizeof st->first_empty_transition, "%.40s", node->mName.data);
    for (unsigned c = 0; c < node->mNumChildren; c++) {
        wm_result r = walk_nodes(st, node->mChildren[c], &transform, depth + 1);
        if (r)
            return r;
    }
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

/* Assimp reports its own errors in varied words; name the file once. */
static wm_result import_error(wm_ctx *ctx, const char *path)
{
    const char *why = aiGetErrorString();
    return wm_error(ctx, WM_ERR_CORRUPT, "%s: cannot import: %s", path, why && *why ? why : "unknown Assimp error");
}

/* A number from the scene's metadata (FBX: UpAxis, UnitScaleFactor); 0 when absent. */
static int metadata_number(const struct aiScene *scene, const char *key, double *out)
{
    const struct aiMetadata *meta = scene->mMetaData;
    for (unsigned i = 0; meta && i < meta->mNumProperties; i++) {
        if (strcmp(meta->mKeys[i].data, key) != 0 || !meta->mValues[i].mData)
            continue;
        const void *data = meta->mValues[i].mData;
        switch (meta->mValues[i].mType) {
        case AI_INT32: *out = *(const int32_t *)data; return 1;
        case AI_UINT64: *out = (double)*(const uint64_t *)data; return 1;
        case AI_FLOAT: *out = *(const float *)data; return 1;
        case AI_DOUBLE: *out = *(const double *)data; return 1;
        default: return 0;
        }
    }
    return 0;
}

/* Up axis and unit where the file states them: glTF is Y-up in metres by
 * its specification; FBX names its up axis and its unit in centimetres
 * (Blender writes 1, with the object scaled by 100). Elsewhere --up decides. */
static wm_result decide_axes_and_units(import_state *st, const char *ext)
{
    st->y_up = st->opts->up != WM_UP_Z;
    st->scale = 1.0f;
    if (strcmp(ext, "gltf") == 0 || strcmp(ext, "glb") == 0) {
        st->y_up = 1;
        st->axis_from_file = 1;
    }
    double up, sign, unit;
    if (strcmp(ext, "fbx") == 0 && metadata_number(st->scene, "UpAxis", &up) && (up == 1 || up == 2) &&
        (!metadata_number(st->scene, "UpAxisSign", &sign) || sign > 0)) {
        st->y_up = up == 1;
        st->axis_from_file = 1;
    }
    if (strcmp(ext, "fbx") == 0 && metadata_number(st->scene, "UnitScaleFactor", &unit) && unit > 0 &&
        isfinite(unit))
        st->scale = (float)(unit / 100.0);
    const char *scale = wm_option_get(st->opts, "scale");
    if (scale) {
        char *end;
        double f = strtod(scale, &end);
        if (end == scale || *end || !(f > 0) || !isfinite(f) || f > 1e6)
            return wm_error(st->ctx, WM_ERR_OPTION, "--scale: '%s' is not a positive number up to 1e6", scale);
        st->scale *= (float)f;
    }
    return WM_OK;
}

static void base_name(const char *path, char *out, size_t out_size)
{
    const char *slash = strrchr(path, '/');
    const char *start = slash ? slash + 1 : path;
    const char *dot = strrchr(start, '.');
    size_t n = dot && dot != start ? (size_t)(dot - start) : strlen(start);
    if (n >= out_size)
        n = out_size - 1;
    memcpy(out, start, n);
    out[n] = '\0';
}

wm_result wm_assimp_read_in_process(wm_ctx *ctx, const char *path, const wm_options *opts, wm_mesh *out)
{
    wm_options defaults;
    if (!opts) {
        wm_options_init(&defaults);
        opts = &defaults;
    }
    wm_mesh_init(out);
    char ext[16];
    wm_assimp_extension(path, ext, sizeof ext);
    uint8_t *data;
    size_t size;
    wm_result r = wm_assimp_unreadable(ctx, path, ext);
    if (!r)
        r = wm_file_read(ctx, path, &data, &size);
    if (r)
        return r;
    if (strcmp(ext, "obj") == 0)
        r = wm_obj_check(ctx, path, data, size);
    else if (strcmp(ext, "blend") == 0)
        r = wm_assimp_blend_refusal(ctx, path, data, size);
    wm_free(ctx, data);
    if (r)
        return r;

    const struct aiScene *scene = aiImportFile(
        path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_ValidateDataStructure |
                  aiProcess_SortByPType);
    if (!scene)
        return import_error(ctx, path);
    import_state st = {0};
    st.ctx = ctx;
    st.opts = opts;
    st.scene = scene;
    st.out = out;
    st.path = path;
    st.slope = opts->walkable_slope >= 0 ? opts->walkable_slope : WM_ASSIMP_DEFAULT_SLOPE;
    base_name(path, out->name, sizeof out->name);
    r = decide_axes_and_units(&st, ext);
    if (!r)
        r = map_materials(&st);
    if (!r && scene->mRootNode) {
        struct aiMatrix4x4 identity;
        aiIdentityMatrix4(&identity);
        r = walk_nodes(&st, scene->mRootNode, &identity, 0);
    }
    if (!r && st.empty_transition_objects)
        wm_warn(ctx,
                "%s: %u transition object(s) ('%s'...) hold no edges: those transitions are lost (Blender's glTF "
                "export leaves out loose edges unless Include > Data > Loose Edges is ticked; its OBJ export keeps "
                "them)",
                path, st.empty_transition_objects, st.first_empty_transition);
    if (!r) {
        warn_unknown_materials(&st);
        warn_orientation(&st);
    }
    aiReleaseImport(scene);
    wm_free(ctx, st.unknown_faces);
    wm_free(ctx, st.unknown_walkable);
    wm_free(ctx, st.material_surface);
    wm_free(ctx, st.material_walkable);
    wm_free(ctx, st.material_known);
    if (!r && out->triangle_count) {
        /* Assimp joins vertices per mesh only; seams between meshes share positions exactly. */
        uint32_t merged;
        r = wm_mesh_weld(ctx, out, 1e-6f, &merged);
    }
    if (!r && st.segment_count)
        r = apply_transitions(&st);
    wm_free(ctx, st.segment_points);
    wm_free(ctx, st.segment_values);
    if (!r && out->triangle_count == 0)
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: the file holds no triangles", path);
    if (r)
        wm_mesh_free(ctx, out);
    return r;
}
