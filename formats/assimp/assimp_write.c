/* Export through Assimp's exporter (PLY, STL, DAE; OBJ and glTF are our own writers,
 * obj_write.c and gltf_write.c): one material per surface (coloured from
 * the surface table), one node per mesh object, Y-up unless --up z. */
#include "assimp_module.h"
#include "wm_platform.h"

#include "assimp_api.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The scene is built with plain calloc/free: we own it, Assimp only reads it. */
/* Names are written as UTF-8 (glTF and DAE require it): bytes that are not
 * (Latin-1 names) become U+FFFD; a name too long is cut between characters. */
static void set_string(struct aiString *s, const char *text)
{
    static const char replacement[] = "\xef\xbf\xbd";
    size_t n = 0;
    while (*text) {
        int len = wm_utf8_length(text);
        const char *piece = len ? text : replacement;
        size_t piece_len = len ? (size_t)len : 3;
        if (n + piece_len >= sizeof s->data)
            break;
        memcpy(s->data + n, piece, piece_len);
        n += piece_len;
        text += len ? len : 1;
    }
    s->length = (ai_uint32)n;
    s->data[n] = '\0';
}

static struct aiMaterialProperty *new_property(const char *key, enum aiPropertyTypeInfo type, const void *data,
                                               unsigned length)
{
    struct aiMaterialProperty *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    set_string(&p->mKey, key);
    p->mType = type;
    p->mDataLength = length;
    p->mData = malloc(length);
    if (!p->mData) {
        free(p);
        return NULL;
    }
    memcpy(p->mData, data, length);
    return p;
}

static struct aiMaterial *new_material(const char *name, const uint8_t rgb[3])
{
    struct aiMaterial *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->mProperties = calloc(2, sizeof *m->mProperties);
    if (!m->mProperties) {
        free(m);
        return NULL;
    }
    m->mNumAllocated = 2;
    /* A string property is stored as its 32-bit length, the bytes and a NUL. */
    struct aiString s;
    set_string(&s, name);
    m->mProperties[0] = new_property("?mat.name", aiPTI_String, &s, (unsigned)(s.length + 1 + 4));
    float colour[4] = {rgb[0] / 255.0f, rgb[1] / 255.0f, rgb[2] / 255.0f, 1.0f};
    m->mProperties[1] = new_property("$clr.diffuse", aiPTI_Float, colour, sizeof colour);
    m->mNumProperties = (m->mProperties[0] != NULL) + (m->mProperties[1] != NULL);
    return m;
}

static void free_material(struct aiMaterial *m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < m->mNumAllocated; i++)
        if (m->mProperties[i]) {
            free(m->mProperties[i]->mData);
            free(m->mProperties[i]);
        }
    free(m->mProperties);
    free(m);
}

static void free_scene(struct aiScene *scene)
{
    if (!scene)
        return;
    for (unsigned i = 0; i < scene->mNumMeshes; i++) {
        struct aiMesh *mesh = scene->mMeshes[i];
        if (!mesh)
            continue;
        if (mesh->mFaces) /* every face's indices live in one block, the first face's */
            free(mesh->mFaces[0].mIndices);
        free(mesh->mFaces);
        free(mesh->mVertices);
        free(mesh);
    }
    free(scene->mMeshes);
    for (unsigned i = 0; i < scene->mNumMaterials; i++)
        free_material(scene->mMaterials[i]);
    free(scene->mMaterials);
    if (scene->mRootNode) {
        for (unsigned c = 0; c < scene->mRootNode->mNumChildren; c++) {
            free(scene->mRootNode->mChildren[c]->mMeshes);
            free(scene->mRootNode->mChildren[c]);
        }
        free(scene->mRootNode->mChildren);
        free(scene->mRootNode);
    }
    free(scene);
}

static void identity(struct aiMatrix4x4 *m)
{
    memset(m, 0, sizeof *m);
    m->a1 = m->b2 = m->c3 = m->d4 = 1.0f;
}

/* Material slot of a (surface, walkable) pair; slots are created on first use. */
typedef struct material_map {
    int32_t *slot; /* [surface * 2 + walkable] -> material index, -1 unused */
    unsigned count;
} material_map;

/* Builds one aiMesh per (object, material) with its own compact vertex list. */
static struct aiMesh *build_mesh(const wm_mesh *mesh, uint16_t object, unsigned material, const material_map *mm,
                                 uint32_t *vertex_slot, int y_up, const char *name)
{
    unsigned faces = 0;
    for (uint32_t t = 0; t < mesh->triangle_count; t++)
        if (mesh->objects[t] == object && (unsigned)mm->slot[mesh->surfaces[t] * 2 + mesh->walkable[t]] == material)
            faces++;
    if (faces == 0)
        return NULL;
    struct aiMesh *out = calloc(1, sizeof *out);
    if (!out)
        return NULL;
    out->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    out->mMaterialIndex = material;
    set_string(&out->mName, name);
    out->mFaces = calloc(faces, sizeof *out->mFaces);
    out->mVertices = calloc(3 * (size_t)faces, sizeof *out->mVertices);
    unsigned *indices = out->mFaces ? malloc(3 * (size_t)faces * sizeof *indices) : NULL;
    if (out->mFaces)
        out->mFaces[0].mIndices = indices; /* one block for all faces (free_scene frees it) */
    if (!out->mFaces || !out->mVertices || !indices)
        return out; /* caller sees mNumFaces == 0 and fails */
    for (uint32_t v = 0; v < mesh->vertex_count; v++)
        vertex_slot[v] = UINT32_MAX;
    unsigned vertices = 0, f = 0;
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        if (mesh->objects[t] != object || (unsigned)mm->slot[mesh->surfaces[t] * 2 + mesh->walkable[t]] != material)
            continue;
        struct aiFace *face = &out->mFaces[f];
        face->mIndices = indices + 3 * (size_t)f;
        face->mNumIndices = 3;
        for (int k = 0; k < 3; k++) {
            uint32_t v = mesh->indices[3 * (size_t)t + k];
            if (vertex_slot[v] == UINT32_MAX) {
                const float *p = mesh->positions + 3 * (size_t)v;
                struct aiVector3D *q = &out->mVertices[vertices];
                q->x = p[0];
                q->y = y_up ? p[2] : p[1]; /* Z-up (x, y, z) -> Y-up (x, z, -y) */
                q->z = y_up ? -p[1] + 0.0f : p[2];
                vertex_slot[v] = vertices++;
            }
            face->mIndices[k] = vertex_slot[v];
        }
        f++;
    }
    out->mNumFaces = f;
    out->mNumVertices = vertices;
    return out;
}

static wm_result add_transition_lines(const wm_mesh *mesh, struct aiScene *scene, int y_up, unsigned material)
{
    size_t count;
    transition_edge *edges = wm_assimp_transition_edges(mesh, &count);
    if (count == 0)
        return WM_OK;
    if (!edges)
        return WM_ERR_NOMEM;
    wm_result r = WM_OK;
    for (size_t first = 0; first < count && r == WM_OK;) {
        size_t last = first;
        while (last < count && edges[last].value == edges[first].value)
            last++;
        char name[48];
        snprintf(name, sizeof name, "transition_%d", (int)edges[first].value);
        struct aiMesh *lines = calloc(1, sizeof *lines);
        struct aiNode *node = calloc(1, sizeof *node);
        if (!lines || !node) {
            free(lines);
            free(node);
            r = WM_ERR_NOMEM;
            break;
        }
        scene->mMeshes[scene->mNumMeshes] = lines;
        scene->mRootNode->mChildren[scene->mRootNode->mNumChildren++] = node;
        node->mParent = scene->mRootNode;
        set_string(&node->mName, name);
        identity(&node->mTransformation);
        node->mMeshes = calloc(1, sizeof(unsigned));
        if (!node->mMeshes) {
            r = WM_ERR_NOMEM;
            break;
        }
        node->mMeshes[0] = scene->mNumMeshes++;
        node->mNumMeshes = 1;
        set_string(&lines->mName, name);
        lines->mPrimitiveTypes = aiPrimitiveType_LINE;
        lines->mMaterialIndex = material;
        size_t n = last - first;
        lines->mFaces = calloc(n, sizeof *lines->mFaces);
        lines->mVertices = calloc(2 * n, sizeof *lines->mVertices);
        unsigned *indices = lines->mFaces ? malloc(2 * n * sizeof *indices) : NULL;
        if (lines->mFaces)
            lines->mFaces[0].mIndices = indices; /* one block, as the triangles' */
        if (!lines->mFaces || !lines->mVertices || !indices) {
            r = WM_ERR_NOMEM;
            break;
        }
        for (size_t i = 0; i < n; i++) {
            struct aiFace *face = &lines->mFaces[i];
            face->mIndices = indices + 2 * i;
            face->mNumIndices = 2;
            lines->mNumFaces = (unsigned)i + 1;
            for (int k = 0; k < 2; k++) {
                const float *p = mesh->positions + 3 * (size_t)(k ? edges[first + i].b : edges[first + i].a);
                struct aiVector3D *q = &lines->mVertices[2 * i + k];
                q->x = p[0];
                q->y = y_up ? p[2] : p[1];
                q->z = y_up ? -p[1] + 0.0f : p[2];
                face->mIndices[k] = (unsigned)(2 * i + k);
            }
            lines->mNumVertices = 2 * ((unsigned)i + 1);
        }
        first = last;
    }
    free(edges);
    return r;
}

/* with_lines == 0: no transition line objects (for formats of triangles only). */
static wm_result build_scene(wm_ctx *ctx, const wm_mesh *mesh, int y_up, int with_lines, struct aiScene **out_scene)
{
    const wm_surface_table *table = wm_surfaces(ctx);
    struct aiScene *scene = calloc(1, sizeof *scene);
    material_map mm = {0};
    uint32_t *vertex_slot = NULL;
    if (!scene)
        goto nomem;
    mm.slot = malloc(sizeof(int32_t) * 2 * ((size_t)table->count + 1));
    vertex_slot = malloc(sizeof(uint32_t) * ((size_t)mesh->vertex_count + 1));
    if (!mm.slot || !vertex_slot)
        goto nomem;
    for (size_t i = 0; i < 2 * (size_t)table->count; i++)
        mm.slot[i] = -1;
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        int32_t *slot = &mm.slot[mesh->surfaces[t] * 2 + mesh->walkable[t]];
        if (*slot < 0)
            *slot = (int32_t)mm.count++;
    }
    uint32_t transition_values = with_lines ? wm_assimp_transition_values(mesh) : 0;
    int has_transitions = transition_values > 0;
    scene->mMaterials = calloc(mm.count + 1, sizeof *scene->mMaterials);
    if (!scene->mMaterials)
        goto nomem;
    scene->mNumMaterials = mm.count;
    if (has_transitions) {
        static const uint8_t amber[3] = {0xff, 0xab, 0x00};
        scene->mMaterials[mm.count] = new_material("transition", amber);
        if (!scene->mMaterials[mm.count])
            goto nomem;
        scene->mNumMaterials = mm.count + 1;
    }
    for (size_t i = 0; i < 2 * (size_t)table->count; i++) {
        if (mm.slot[i] < 0)
            continue;
        char name[96];
        uint16_t surface = (uint16_t)(i / 2);
        wm_assimp_surface_material_name(table, surface, (int)(i % 2), name, sizeof name);
        scene->mMaterials[mm.slot[i]] = new_material(name, table->entries[surface].color);
        if (!scene->mMaterials[mm.slot[i]])
            goto nomem;
    }
    uint32_t objects = mesh->object_count ? mesh->object_count : 1;
    scene->mRootNode = calloc(1, sizeof *scene->mRootNode);
    if (!scene->mRootNode)
        goto nomem;
    set_string(&scene->mRootNode->mName, mesh->name[0] ? mesh->name : "walkmesh");
    identity(&scene->mRootNode->mTransformation);
    scene->mRootNode->mChildren =
        calloc((size_t)objects + transition_values + mesh->point_count, sizeof *scene->mRootNode->mChildren);
    scene->mMeshes = calloc((size_t)objects * (mm.count ? mm.count : 1) + transition_values, sizeof *scene->mMeshes);
    if (!scene->mRootNode->mChildren || !scene->mMeshes)
        goto nomem;
    for (uint32_t o = 0; o < objects; o++) {
        const char *name = mesh->object_count ? mesh->object_names[o] : "walkmesh";
        struct aiNode *node = calloc(1, sizeof *node);
        if (!node)
            goto nomem;
        scene->mRootNode->mChildren[scene->mRootNode->mNumChildren++] = node;
        node->mParent = scene->mRootNode;
        set_string(&node->mName, name);
        identity(&node->mTransformation);
        node->mMeshes = calloc(mm.count ? mm.count : 1, sizeof(unsigned));
        if (!node->mMeshes)
            goto nomem;
        for (unsigned m = 0; m < mm.count; m++) {
            struct aiMesh *am = build_mesh(mesh, (uint16_t)o, m, &mm, vertex_slot, y_up, name);
            if (!am)
                continue;
            scene->mMeshes[scene->mNumMeshes] = am;
            node->mMeshes[node->mNumMeshes++] = scene->mNumMeshes++;
            if (am->mNumFaces == 0)
                goto nomem;
        }
    }
    if (has_transitions && add_transition_lines(mesh, scene, y_up, (unsigned)mm.count) != WM_OK)
        goto nomem;
    if (wm_assimp_add_point_empties(mesh, scene, y_up) != WM_OK)
        goto nomem;
    free(mm.slot);
    free(vertex_slot);
    *out_scene = scene;
    return WM_OK;
nomem:
    free(mm.slot);
    free(vertex_slot);
    free_scene(scene);
    return wm_error(ctx, WM_ERR_NOMEM, "out of memory building the export scene");
}

/* Assimp names side files after a placeholder ("$blobfile"); point the main
 * file at our real side-file names instead. */
static wm_result rewrite_references(wm_ctx *ctx, const struct aiExportDataBlob *blob, const char *stem,
                                    wm_buffer *out)
{
    static const char placeholder[] = "$blobfile";
    const char *data = blob->data;
    size_t size = blob->size, pos = 0;
    wm_buffer_init(out, ctx);
    while (pos < size) {
        const char *hit = NULL;
        for (size_t i = pos; i + sizeof placeholder - 1 <= size; i++)
            if (memcmp(data + i, placeholder, sizeof placeholder - 1) == 0) {
                hit = data + i;
                break;
            }
        size_t upto = hit ? (size_t)(hit - data) : size;
        wm_put_bytes(out, data + pos, upto - pos);
        if (!hit)
            break;
        wm_put_bytes(out, stem, strlen(stem));
        pos = upto + sizeof placeholder - 1;
    }
    return out->status;
}

wm_result wm_assimp_write(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, const wm_options *opts)
{
    const char *path = wm_sink_path(sink);
    char ext[16];
    wm_assimp_extension(path, ext, sizeof ext);
    const char *format_id = strcmp(ext, "obj") == 0    ? "obj"
                            : strcmp(ext, "gltf") == 0 ? "gltf2"
                            : strcmp(ext, "glb") == 0  ? "glb2"
                            : strcmp(ext, "ply") == 0  ? "ply"
                            : strcmp(ext, "stl") == 0  ? "stl"
                            : strcmp(ext, "dae") == 0  ? "collada"
                                                       : NULL;
    if (!format_id)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: cannot write '.%s' (writes obj, gltf, glb, ply, stl, dae)", path,
                        ext);
    wm_result r = wm_mesh_validate(ctx, mesh);
    if (r) {
        wm_error_prefix(ctx, path);
        return r;
    }
    if (mesh->triangle_count == 0)
        return wm_error(ctx, WM_ERR_INVALID, "%s: nothing to write: the mesh has no triangles", path);
    if (strcmp(format_id, "obj") == 0) /* our own writer decides what Blender keeps */
        return wm_obj_write(ctx, mesh, sink, opts == NULL || opts->up != WM_UP_Z);
    /* our own streaming writer (Y-up by the specification): Assimp's copies the scene */
    if (strcmp(format_id, "gltf2") == 0 || strcmp(format_id, "glb2") == 0)
        return wm_gltf_write(ctx, mesh, sink, strcmp(format_id, "glb2") == 0);
    int y_up = opts == NULL || opts->up != WM_UP_Z;
    /* STL has no lines: Assimp would write the transition lines as broken two-vertex facets */
    int with_lines = strcmp(format_id, "stl") != 0;
    if (!with_lines || strcmp(format_id, "ply") == 0) /* Assimp's PLY keeps no lines either */
        wm_sink_set_lacking(sink, WM_CAN_TRANSITIONS);
    if (!with_lines && wm_assimp_transition_values(mesh) > 0)
        wm_warn(ctx, "%s: STL holds triangles only: the transitions are left out", path);
    const wm_assimp_api *ai = wm_assimp_api_load(ctx);
    if (!ai)
        return WM_ERR_UNSUPPORTED;
    struct aiScene *scene = NULL;
    r = build_scene(ctx, mesh, y_up, with_lines, &scene);
    if (r)
        return r;
    const struct aiExportDataBlob *blob = ai->ExportSceneToBlob(scene, format_id, 0);
    free_scene(scene);
    if (!blob)
        return wm_error(ctx, WM_ERR_IO, "%s: Assimp could not export: %s", path, ai->GetErrorString());
    char stem[512];
    wm_assimp_stem(path, stem, sizeof stem);

    wm_buffer main_file;
    r = rewrite_references(ctx, blob, stem, &main_file);
    output_file files[65]; /* the main file and up to 64 side files */
    unsigned count = 0;
    files[count++] = (output_file){NULL, main_file.data, main_file.size};
    for (const struct aiExportDataBlob *side = blob->next; !r && side; side = side->next) {
        if (count == sizeof files / sizeof files[0]) {
            r = wm_error(ctx, WM_ERR_IO, "%s: Assimp produced more than 64 side files", path);
            break;
        }
        files[count++] = (output_file){side->name.data, side->data, side->size};
    }
    if (!r)
        r = wm_assimp_write_outputs(sink, files, count);
    wm_buffer_free(&main_file);
    ai->ReleaseExportBlob(blob);
    return r;
}
