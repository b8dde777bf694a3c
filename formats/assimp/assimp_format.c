#include "assimp_module.h"

#include <assimp/cimport.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

void wm_assimp_extension(const char *path, char *out, size_t out_size)
{
    const char *dot = strrchr(wm_path_file_name(path), '.');
    out[0] = '\0';
    if (!dot)
        return;
    size_t n = 0;
    for (const char *p = dot + 1; *p && n + 1 < out_size; p++)
        out[n++] = (char)tolower((unsigned char)*p);
    out[n] = '\0';
}

/* The extensions listed here are matched directly; any other extension
 * Assimp knows is still found by probing. */
static const char *const assimp_extensions[] = {"obj", "gltf", "glb", "fbx", "dae", "ply", "stl", "3ds",
                                                "blend", "x", "off", "lwo", "ase", "ms3d", "3mf", NULL};

static int assimp_probe(const uint8_t *head, size_t head_size, uint64_t file_size, const char *path)
{
    (void)head;
    (void)head_size;
    (void)file_size;
    char ext[16], dotted[18];
    wm_assimp_extension(path, ext, sizeof ext);
    if (!ext[0])
        return 0;
    snprintf(dotted, sizeof dotted, ".%s", ext);
    /* Assimp decides by extension; a low score leaves room for a game format's magic. */
    return aiIsExtensionSupported(dotted) ? 10 : 0;
}

static const wm_option_desc assimp_options[] = {
    {NULL, NULL, NULL},
};

const wm_format wm_format_assimp = {
    .name = "assimp",
    .description = "interchange meshes through Assimp: reads OBJ, glTF/GLB, FBX, DAE, PLY, STL and every other "
                   "format Assimp reads; writes OBJ (+MTL), glTF, GLB, PLY, STL, DAE",
    .extensions = assimp_extensions,
    .probe = assimp_probe,
    .read = wm_assimp_read,
    .write = wm_assimp_write,
    .info = NULL,
    .validate = NULL,
    .options = assimp_options,
};
