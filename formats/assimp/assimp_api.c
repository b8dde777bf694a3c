/* Loads Assimp's shared library by the name it had when walkmesh was built
 * (WM_ASSIMP_LIBRARY, set by CMake: its SONAME, or its DLL's name) and
 * resolves the C functions walkmesh calls. */
#include "assimp_api.h"

#include "wm_platform.h"

#include <stdio.h>
#include <string.h>

#ifndef WM_ASSIMP_LIBRARY
#error "WM_ASSIMP_LIBRARY (the file name of Assimp's shared library) is set by CMake"
#endif

static wm_once loaded = WM_ONCE_INIT;
static wm_assimp_api api;
static int api_ready;
static char failure[256];

/* A function pointer from the address of a symbol (POSIX and Win32 both
 * guarantee the conversion; ISO C does not, hence the copy). */
static int resolve(void *library, const char *name, void *slot, size_t slot_size)
{
    void *address = wm_platform_library_symbol(library, name);
    if (!address) {
        snprintf(failure, sizeof failure, "%s has no function %s", WM_ASSIMP_LIBRARY, name);
        return 0;
    }
    memcpy(slot, &address, slot_size < sizeof address ? slot_size : sizeof address);
    return 1;
}

#define RESOLVE(field) resolve(library, "ai" #field, &table.field, sizeof table.field)

static void load(void)
{
    void *library = wm_platform_library_open(WM_ASSIMP_LIBRARY);
    if (!library) {
        snprintf(failure, sizeof failure, "cannot load %s: %s", WM_ASSIMP_LIBRARY, wm_platform_library_error());
        return;
    }
    wm_assimp_api table;
    if (RESOLVE(ImportFile) && RESOLVE(ReleaseImport) && RESOLVE(GetErrorString) && RESOLVE(IsExtensionSupported) &&
        RESOLVE(GetMaterialString) && RESOLVE(IdentityMatrix4) && RESOLVE(MultiplyMatrix4) &&
        RESOLVE(TransformVecByMatrix4) && RESOLVE(ExportSceneToBlob) && RESOLVE(ReleaseExportBlob)) {
        api = table;
        api_ready = 1;
    }
}

const wm_assimp_api *wm_assimp_api_load(wm_ctx *ctx)
{
    wm_platform_once(&loaded, load);
    if (api_ready)
        return &api;
    if (ctx)
        wm_error(ctx, WM_ERR_UNSUPPORTED, "Assimp, which reads and writes this format, is not available: %s", failure);
    return NULL;
}
