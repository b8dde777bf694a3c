#include "assimp_module.h"

#include "assimp_api.h"
#include <stdio.h>
#include <string.h>

/* The extensions listed here are matched directly; any other extension
 * Assimp knows is still found by probing. */
static const char *const assimp_extensions[] = {"obj", "gltf", "glb", "fbx", "dae", "ply", "stl", "3ds", "blend", "x",
                                                "off", "lwo", "ase", "ms3d", "3mf",
                                                /* refused with advice (see wm_assimp_unreadable) */
                                                "usd", "usda", "usdc", "usdz", "m3d", "a3d", NULL};

static int assimp_probe(const wm_input *in)
{
    char ext[16], dotted[18];
    wm_assimp_extension(in->name, ext, sizeof ext);
    if (!ext[0])
        return 0;
    snprintf(dotted, sizeof dotted, ".%s", ext);
    /* Assimp decides by extension; a low score leaves room for a game format's magic.
     * Assimp is loaded only for an extension the list does not name. */
    for (const char *const *known = assimp_extensions; *known; known++)
        if (strcmp(*known, ext) == 0)
            return wm_assimp_unreadable_extension(ext) ? 5 : 10;
    const wm_assimp_api *ai = wm_assimp_api_load(NULL);
    return ai && ai->IsExtensionSupported(dotted) ? 10 : 0;
}

/* OBJ is walkmesh's own reader, on the bytes. Assimp reads the others from the file
 * (their side files, .bin or textures, sit beside it), in a contained process. */
static wm_result assimp_read_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out,
                                  wm_report *facts)
{
    (void)facts;
    char ext[16];
    wm_assimp_extension(in->name, ext, sizeof ext);
    wm_options defaults;
    if (!opts) {
        wm_options_init(&defaults);
        opts = &defaults;
    }
    wm_mesh_init(out);
    if (strcmp(ext, "obj") == 0)
        return wm_obj_read_input(ctx, opts, in, out);
    if (!in->path)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: Assimp reads '.%s' files from disk only: save it as a file",
                        in->name, ext);
    return wm_assimp_read(ctx, in->path, opts, out);
}

static const wm_option_desc assimp_options[] = {
    {"scale", "F", "multiply interchange coordinates by F on import (after the file's own unit: FBX)"},
    {NULL, NULL, NULL},
};

const wm_format wm_format_assimp = {
    .name = "assimp",
    .description = "interchange meshes: OBJ (+MTL) read and written by walkmesh itself; glTF/GLB, FBX, DAE, PLY, STL "
                   "and every other format Assimp reads (in a contained process); writes glTF and GLB itself, PLY, STL, "
                   "DAE through Assimp; .blend of Blender 3+, USD and M3D are refused with advice",
    .extensions = assimp_extensions,
    .capabilities = WM_CAN_TRANSITIONS, /* as lines; STL, which has none, says so itself */
    .probe = assimp_probe,
    .read = assimp_read_hook,
    .write = wm_assimp_write,
    .options = assimp_options,
};
