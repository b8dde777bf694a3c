/* Import through Assimp: triangulate, bake node transforms, map material
 * names to surfaces, convert the file's up axis to Z-up. */
#include "assimp_module.h"

#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct import_state {
    wm_ctx *ctx;
    const wm_options *opts;
    const struct aiScene *scene;
    wm_mesh *out;
    int y_up;
    const char *path;
    /* per Assimp material: surface, walkable, known */
    uint16_t *material_surface;
    uint8_t *material_walkable;
    uint8_t *material_known;
    /* transition edges read from "transition_<value>" line meshes, Z-up */
    float *segment_points; /* 6 per segment */
    int32_t *segment_values;
    size_t segment_count, segment_capacity;
} import_state;

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
    if (!st->material_surface || !st->material_walkable || !st->material_known)
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
        } else {
            st->material_surface[m] = table->fallback;
            st->material_walkable[m] = (uint8_t)wm_surface_walkable(table, table->fallback);
            if (!material_is_placeholder(name.data) && strncmp(name.data, "transition", 10) != 0 &&
                st->opts->walkable_slope < 0)
                wm_warn(st->ctx, "%s: material '%s' names no known surface: using '%s'%s", st->path, name.data,
                        wm_surface_name(table, table->fallback),
                        " (see --materials, or --walkable-slope)");
        }
    }
    return WM_OK;
}

static void to_z_up(const import_state *st, float v[3])
{
    if (st->y_up) { /* (x, y, z) Y-up -> (x, -z, y) Z-up */
        float y = v[1], z = v[2];
        v[1] = -z + 0.0f; /* no negative zero */
        v[2] = y;
    }
}

/* --walkable-slope: a triangle without a known material is walkable when its
 * normal is within the slope of +Z (fallback surface), else blocking. */
static void classify_by_slope(import_state *st, uint32_t t)
{
    const wm_surface_table *table = wm_surfaces(st->ctx);
    uint16_t walk_surface = wm_surface_walkable(table, table->fallback) ? table->fallback : WM_SURF_STONE;
    float n[3];
    wm_mesh_triangle_normal(st->out, t, n);
    int walkable = n[2] > 0.0f && n[2] >= cosf(st->opts->walkable_slope * 3.14159265f / 180.0f);
    st->out->walkable[t] = (uint8_t)walkable;
    st->out->surfaces[t] = walkable ? walk_surface : WM_SURF_NONWALK;
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
            to_z_up(st, q);
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
        aiTransformVecByMatrix4(&p, transform);
        float xyz[3] = {p.x, p.y, p.z};
        to_z_up(st, xyz);
        if (wm_mesh_add_vertex(ctx, out, xyz[0], xyz[1], xyz[2], NULL))
            return WM_ERR_NOMEM;
    }
    unsigned m = mesh->mMaterialIndex < st->scene->mNumMaterials ? mesh->mMaterialIndex : 0;
    int known = st->scene->mNumMaterials ? st->material_known[m] : 0;
    uint16_t surface = st->scene->mNumMaterials ? st->material_surface[m] : wm_surfaces(ctx)->fallback;
    int walkable = st->scene->mNumMaterials ? st->material_walkable[m]
                                            : wm_surface_walkable(wm_surfaces(ctx), surface);
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
        if (!known && st->opts->walkable_slope >= 0)
            classify_by_slope(st, out->triangle_count - 1);
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

static void base_name(const char *path, char *out, size_t out_size)
{
    const char *start = wm_path_file_name(path);
    const char *dot = strrchr(start, '.');
    size_t n = dot && dot != start ? (size_t)(dot - start) : strlen(start);
    if (n >= out_size)
        n = out_size - 1;
    memcpy(out, start, n);
    out[n] = '\0';
}

wm_result wm_assimp_read(wm_ctx *ctx, const char *path, const wm_options *opts, wm_mesh *out)
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
    wm_result r = wm_file_read(ctx, path, &data, &size);
    if (r)
        return r;
    if (strcmp(ext, "obj") == 0)
        r = wm_obj_check(ctx, path, data, size);
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
    st.y_up = opts->up != WM_UP_Z;
    base_name(path, out->name, sizeof out->name);
    r = map_materials(&st);
    if (!r && scene->mRootNode) {
        struct aiMatrix4x4 identity;
        aiIdentityMatrix4(&identity);
        r = walk_nodes(&st, scene->mRootNode, &identity, 0);
    }
    aiReleaseImport(scene);
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
