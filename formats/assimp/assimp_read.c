/* Import through Assimp: triangulate, bake node transforms, map material
 * names to surfaces, convert the file's up axis to Z-up. */
#include "import_state.h"

#include "assimp_api.h"

#include <assimp/postprocess.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The scene being walked and its material names. */
typedef struct scene_walk {
    import_state st;
    const struct aiScene *scene;
    const wm_assimp_api *ai;
} scene_walk;

static wm_result collect_transition_lines(scene_walk *w, const struct aiNode *node, const struct aiMesh *mesh,
                                          const struct aiMatrix4x4 *transform)
{
    int32_t value;
    if (!wm_import_transition_value(mesh->mName.data, &value) && !wm_import_transition_value(node->mName.data, &value))
        return WM_OK;
    for (unsigned f = 0; f < mesh->mNumFaces; f++) {
        const struct aiFace *face = &mesh->mFaces[f];
        if (face->mNumIndices != 2 || face->mIndices[0] >= mesh->mNumVertices ||
            face->mIndices[1] >= mesh->mNumVertices)
            continue;
        float ends[2][3];
        for (int k = 0; k < 2; k++) {
            struct aiVector3D p = mesh->mVertices[face->mIndices[k]];
            w->ai->TransformVecByMatrix4(&p, transform);
            ends[k][0] = p.x;
            ends[k][1] = p.y;
            ends[k][2] = p.z;
            wm_import_to_game(&w->st, ends[k]);
        }
        wm_result r = wm_import_segment(&w->st, ends[0], ends[1], value);
        if (r)
            return r;
    }
    return WM_OK;
}

static wm_result add_mesh(scene_walk *w, const struct aiMesh *mesh, const struct aiMatrix4x4 *transform,
                          uint16_t object)
{
    import_state *st = &w->st;
    wm_ctx *ctx = st->ctx;
    uint32_t base = st->out->vertex_count;
    if ((uint64_t)base + mesh->mNumVertices > ctx->limits.max_triangles * 3ull)
        return wm_error(ctx, WM_ERR_LIMIT, "%s: more vertices than the limit allows", st->path);
    for (unsigned v = 0; v < mesh->mNumVertices; v++) {
        struct aiVector3D p = mesh->mVertices[v];
        if (!isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z))
            return wm_error(ctx, WM_ERR_CORRUPT, "%s: mesh '%s' vertex %u: coordinates (%g, %g, %g) are not all finite",
                            st->path, mesh->mName.data, v, (double)p.x, (double)p.y, (double)p.z);
        w->ai->TransformVecByMatrix4(&p, transform);
        float xyz[3] = {p.x, p.y, p.z};
        wm_result r = wm_import_vertex(st, xyz);
        if (r)
            return r;
    }
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
        wm_result r = wm_import_triangle(st, idx[0], idx[1], idx[2], mesh->mMaterialIndex, object);
        if (r)
            return r;
    }
    return WM_OK;
}

/* An empty named "point_<name>": a named point of the mesh at the node's place. */
static wm_result read_point_empty(import_state *st, const struct aiNode *node, const struct aiMatrix4x4 *transform)
{
    const char *name = wm_import_point_name(node->mName.data);
    if (!name)
        return WM_OK;
    float at[3] = {transform->a4, transform->b4, transform->c4};
    wm_import_to_game(st, at);
    return wm_import_point(st, name, at, at);
}

static wm_result walk_nodes(scene_walk *w, const struct aiNode *node, const struct aiMatrix4x4 *parent, int depth)
{
    import_state *st = &w->st;
    if (depth > 256)
        return wm_error(st->ctx, WM_ERR_CORRUPT, "%s: node hierarchy deeper than 256", st->path);
    struct aiMatrix4x4 transform = *parent;
    w->ai->MultiplyMatrix4(&transform, &node->mTransformation);
    int have_object = 0;
    uint16_t object = 0;
    size_t segments_before = st->segment_count;
    for (unsigned i = 0; i < node->mNumMeshes; i++) {
        if (node->mMeshes[i] >= w->scene->mNumMeshes)
            return wm_error(st->ctx, WM_ERR_CORRUPT, "%s: node '%s' refers to mesh %u of %u", st->path,
                            node->mName.data, node->mMeshes[i], w->scene->mNumMeshes);
        const struct aiMesh *mesh = w->scene->mMeshes[node->mMeshes[i]];
        wm_result r = WM_OK;
        if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) {
            if (mesh->mPrimitiveTypes & aiPrimitiveType_LINE)
                r = collect_transition_lines(w, node, mesh, &transform);
        } else {
            if (!have_object) {
                r = wm_mesh_add_object(st->ctx, st->out, node->mName.length ? node->mName.data : "object", &object);
                have_object = 1;
            }
            if (!r)
                r = add_mesh(w, mesh, &transform, object);
        }
        if (r)
            return r;
    }
    wm_result pr = node->mNumMeshes == 0 ? read_point_empty(st, node, &transform) : WM_OK;
    if (pr)
        return pr;
    int32_t value;
    if (wm_import_transition_value(node->mName.data, &value) && st->segment_count == segments_before)
        wm_import_empty_transition_object(st, node->mName.data);
    for (unsigned c = 0; c < node->mNumChildren; c++) {
        wm_result r = walk_nodes(w, node->mChildren[c], &transform, depth + 1);
        if (r)
            return r;
    }
    return WM_OK;
}

/* Assimp reports its own errors in varied words; name the file once. */
static wm_result import_error(wm_ctx *ctx, const wm_assimp_api *ai, const char *path)
{
    const char *why = ai->GetErrorString();
    if (why && strstr(why, "bad_alloc")) /* the address-space limit of the import process (assimp_contained.c) */
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: cannot import: Assimp ran out of memory on this file (the import is "
                        "limited to 1 GiB): refused", path);
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

/* FBX names its up axis and its unit in centimetres (Blender writes 1,
 * with the object scaled by 100). */
static void fbx_axes_and_units(scene_walk *w)
{
    double up, sign, unit;
    if (metadata_number(w->scene, "UpAxis", &up) && (up == 1 || up == 2) &&
        (!metadata_number(w->scene, "UpAxisSign", &sign) || sign > 0)) {
        w->st.y_up = up == 1;
        w->st.axis_from_file = 1;
    }
    if (metadata_number(w->scene, "UnitScaleFactor", &unit) && unit > 0 && isfinite(unit))
        w->st.scale *= (float)(unit / 100.0);
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
    if (strcmp(ext, "obj") == 0) {
        r = wm_obj_check_and_read(ctx, path, opts, data, size, out);
        wm_free(ctx, data);
        return r;
    }
    if (strcmp(ext, "blend") == 0)
        r = wm_assimp_blend_refusal(ctx, path, data, size);
    wm_free(ctx, data);
    if (r)
        return r;

    const wm_assimp_api *ai = wm_assimp_api_load(ctx);
    if (!ai)
        return WM_ERR_UNSUPPORTED;
    const struct aiScene *scene = ai->ImportFile(
        path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_ValidateDataStructure |
                  aiProcess_SortByPType);
    if (!scene)
        return import_error(ctx, ai, path);
    scene_walk w;
    w.scene = scene;
    w.ai = ai;
    r = wm_import_begin(&w.st, ctx, path, ext, opts, out);
    if (!r && strcmp(ext, "fbx") == 0)
        fbx_axes_and_units(&w);
    /* material names, valid until the scene is released */
    struct aiString *names = wm_alloc_array(ctx, scene->mNumMaterials, sizeof *names);
    const char **name_list = wm_alloc_array(ctx, scene->mNumMaterials, sizeof *name_list);
    if (!r && (!names || !name_list))
        r = WM_ERR_NOMEM;
    for (unsigned m = 0; !r && m < scene->mNumMaterials; m++) {
        names[m].length = 0;
        names[m].data[0] = '\0';
        ai->GetMaterialString(scene->mMaterials[m], AI_MATKEY_NAME, &names[m]);
        name_list[m] = names[m].data;
    }
    if (!r)
        r = wm_import_materials(&w.st, name_list, scene->mNumMaterials);
    if (!r && scene->mRootNode) {
        struct aiMatrix4x4 identity;
        ai->IdentityMatrix4(&identity);
        r = walk_nodes(&w, scene->mRootNode, &identity, 0);
    }
    r = wm_import_finish(&w.st, r);
    wm_free(ctx, names);
    wm_free(ctx, name_list);
    ai->ReleaseImport(scene);
    return r;
}
