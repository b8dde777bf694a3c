/* Loads the walkmesh-recast module (recast_module.cpp) the first time a navmesh is built or
 * queried: beside the program or library that holds this code (the build tree, the Windows
 * folder, the Python package) or by the system's search rules, else where `cmake --install`
 * puts it (<libdir>/walkmesh/), seen from the installed program or library, then at the
 * configured prefix. */
#include "recast_api.h"

#include "wm_platform.h"

#include <stdio.h>
#include <string.h>

/* WM_RECAST_MODULE (the module's file name) is set by CMake when Recast/Detour were found. */

static wm_once loaded = WM_ONCE_INIT;
static const wmrc_functions *functions;
static char failure[WMRC_WHY + 128];

#ifndef WM_RECAST_MODULE
static void load(void)
{
    snprintf(failure, sizeof failure, "this walkmesh was built without them (librecast-dev)");
}
#else
static void *open_module(void)
{
    void *library = wm_platform_library_open(WM_RECAST_MODULE);
#ifdef WM_RECAST_INSTALLED
    const char *installed[] = {WM_RECAST_FROM_BINDIR, WM_RECAST_FROM_LIBDIR, WM_RECAST_INSTALLED};
    for (size_t i = 0; i < sizeof installed / sizeof *installed && !library; i++)
        library = wm_platform_library_open(installed[i]);
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
#endif

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
