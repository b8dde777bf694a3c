/* Loads the walkmesh-recast module (recast_module.cpp) the first time a navmesh is built or
 * queried: beside the program or library that holds this code (the build tree, the Windows
 * folder, the Python package), else in the folder it was installed to, else by the system's
 * search rules. */
#include "recast_api.h"

#include "wm_platform.h"

#include <stdio.h>
#include <string.h>

#ifndef WM_RECAST_MODULE
#error "WM_RECAST_MODULE (the file name of the walkmesh-recast module) is set by CMake"
#endif

static wm_once loaded = WM_ONCE_INIT;
static const wmrc_functions *functions;
static char failure[WMRC_WHY + 128];

static void *open_module(void)
{
    void *library = wm_platform_library_open(WM_RECAST_MODULE);
#ifdef WM_RECAST_INSTALLED
    if (!library)
        library = wm_platform_library_open(WM_RECAST_INSTALLED);
#endif
    return library;
}

static void load(void)
{
    void *library = open_module();
    if (!library) {
        snprintf(failure, sizeof failure, "cannot load %s: %s", WM_RECAST_MODULE, wm_platform_library_error());
        return;
    }
    void *address = wm_platform_library_symbol(library, WMRC_ENTRY);
    wmrc_entry_fn entry;
    if (!address) {
        snprintf(failure, sizeof failure, "%s has no function %s", WM_RECAST_MODULE, WMRC_ENTRY);
        return;
    }
    memcpy(&entry, &address, sizeof entry); /* POSIX and Win32 allow it; ISO C has no cast for it */
    const wmrc_functions *table = entry();
    if (!table || table->interface_version != WMRC_INTERFACE_VERSION) {
        snprintf(failure, sizeof failure, "%s is of another walkmesh version (interface %d, expected %d)",
                 WM_RECAST_MODULE, table ? table->interface_version : -1, WMRC_INTERFACE_VERSION);
        return;
    }
    functions = table;
}

const wmrc_functions *wm_recast_load(wm_ctx *ctx)
{
    wm_platform_once(&loaded, load);
    if (functions)
        return functions;
    if (ctx)
        wm_error(ctx, WM_ERR_UNSUPPORTED, "Recast/Detour, which build and query navmeshes, are not available: %s",
                 failure);
    return NULL;
}
