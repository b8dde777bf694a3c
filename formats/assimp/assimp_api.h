/* Assimp's C API, loaded on first use (assimp_api.c): the game formats and
 * walkmesh's own OBJ reader and writer never load Assimp, its C++ runtime
 * or its codecs (3.8 ms, 417 page faults and 43,863 relocations a process,
 * measured in issue 20); only a format that needs Assimp does. */
#ifndef WM_ASSIMP_API_H
#define WM_ASSIMP_API_H

#include "walkmesh.h"

#include <assimp/cexport.h>
#include <assimp/cimport.h>
#include <assimp/material.h>
#include <assimp/scene.h>

typedef struct wm_assimp_api {
    const struct aiScene *(*ImportFile)(const char *file, unsigned int flags);
    void (*ReleaseImport)(const struct aiScene *scene);
    const char *(*GetErrorString)(void);
    aiBool (*IsExtensionSupported)(const char *extension);
    enum aiReturn (*GetMaterialString)(const struct aiMaterial *material, const char *key, unsigned int type,
                                       unsigned int index, struct aiString *out);
    void (*IdentityMatrix4)(struct aiMatrix4x4 *m);
    void (*MultiplyMatrix4)(struct aiMatrix4x4 *dst, const struct aiMatrix4x4 *src);
    void (*TransformVecByMatrix4)(struct aiVector3D *v, const struct aiMatrix4x4 *m);
    const struct aiExportDataBlob *(*ExportSceneToBlob)(const struct aiScene *scene, const char *format_id,
                                                        unsigned int preprocessing);
    void (*ReleaseExportBlob)(const struct aiExportDataBlob *blob);
} wm_assimp_api;

/* The API, loading the library the first time (thread-safe); NULL with a
 * WM_ERR_UNSUPPORTED message in ctx (when given) if it cannot be loaded. */
const wm_assimp_api *wm_assimp_api_load(wm_ctx *ctx);

#endif
