/* A mesh's named points (a KotOR walkmesh's header position and use hooks) as
 * empties "point_<name>" of an export scene: nodes without a mesh, placed by
 * their translation. Blender imports them as empties and exports them again. */
#include "assimp_module.h"

#include <assimp/scene.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

wm_result wm_assimp_add_point_empties(const wm_mesh *mesh, struct aiScene *scene, int y_up)
{
    for (uint32_t i = 0; i < mesh->point_count && i < WM_MESH_MAX_POINTS; i++) {
        const float *p = mesh->points[i].xyz;
        struct aiNode *node = calloc(1, sizeof *node);
        if (!node)
            return WM_ERR_NOMEM;
        scene->mRootNode->mChildren[scene->mRootNode->mNumChildren++] = node;
        node->mParent = scene->mRootNode;
        /* point names are ASCII (WM_MESH_POINT_NAME bytes at most): no UTF-8 to repair */
        int n = snprintf(node->mName.data, sizeof node->mName.data, "%s%s", WM_ASSIMP_POINT_PREFIX,
                         mesh->points[i].name);
        node->mName.length = (uint32_t)(n < 0 ? 0 : n);
        /* Assimp's glTF exporter leaves out a matrix within 1e-2 of identity, and a small
         * translation with it: the empty's size (scale 2) keeps it written */
        node->mTransformation.a1 = node->mTransformation.b2 = node->mTransformation.c3 = 2.0f;
        node->mTransformation.d4 = 1.0f;
        node->mTransformation.a4 = p[0]; /* Z-up game (x, y, z) -> Y-up (x, z, -y), as the vertices */
        node->mTransformation.b4 = y_up ? p[2] : p[1];
        node->mTransformation.c4 = y_up ? -p[1] + 0.0f : p[2];
    }
    return WM_OK;
}
