/* Import through Assimp: triangulate, bake node transforms, map material
 * names to surfaces, convert the file's up axis to Z-up. */
#include "assimp_module.h"

#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <math.h>
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
            if (!material_is_placeholder(name.data) && st->opts->walkable_slope < 0)
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
    if (node->mNumMeshes) {
        const char *name = node->mName.length ? node->mName.data : "object";
        uint16_t object;
        wm_result r = wm_mesh_add_object(st->ctx, st->out, name, &object);
        if (r)
            return r;
        for (unsigned i = 0; i < node->mNumMeshes; i++) {
            if (node->mMeshes[i] >= st->scene->mNumMeshes)
                return wm_error(st->ctx, WM_ERR_CORRUPT, "%s: node '%s' refers to mesh %u of %u", st->path,
                                node->mName.data, node->mMeshes[i], st->scene->mNumMeshes);
            r = add_mesh(st, st->scene->mMeshes[node->mMeshes[i]], &transform, object);
            if (r)
                return r;
        }
    }
    for (unsigned c = 0; c < node->mNumChildren; c++) {
        wm_result r = walk_nodes(st, node->mChildren[c], &transform, depth + 1);
        if (r)
            return r;
    }
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
    const char *slash = strrchr(path, '/');
    const char *start = slash ? slash + 1 : path;
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
    if (!r && out->triangle_count == 0)
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: the file holds no triangles", path);
    if (!r) {
        /* Assimp joins vertices per mesh only; seams between meshes share positions exactly. */
        uint32_t merged;
        r = wm_mesh_weld(ctx, out, 1e-6f, &merged);
    }
    if (r)
        wm_mesh_free(ctx, out);
    return r;
}
