/* Opens StormLib by the name it had when walkmesh was built (WM_STORM_LIBRARY, set by CMake:
 * its SONAME, or its DLL's name) and resolves the functions walkmesh calls. */
#include "storm_api.h"

#include "wm_platform.h"

#include <stdio.h>
#include <string.h>

#ifndef WM_STORM_LIBRARY
#ifdef _WIN32
#define WM_STORM_LIBRARY "libstorm" /* LoadLibrary adds .dll; not in the Windows package (no source) */
#else
#define WM_STORM_LIBRARY "libstorm.so.9"
#endif
#endif

static wm_once loaded = WM_ONCE_INIT;
static wm_storm_api api;
static int api_ready;
static char failure[256];

/* A function pointer from a symbol's address (POSIX and Win32 both allow the conversion;
 * ISO C does not, hence the copy). */
static int resolve(void *library, const char *name, void *slot, size_t slot_size)
{
    void *address = wm_platform_library_symbol(library, name);
    if (!address) {
        snprintf(failure, sizeof failure, "%s has no function %s", WM_STORM_LIBRARY, name);
        return 0;
    }
    memcpy(slot, &address, slot_size < sizeof address ? slot_size : sizeof address);
    return 1;
}

#define RESOLVE(field) resolve(library, "SFile" #field, &table.field, sizeof table.field)

static void load(void)
{
    void *library = wm_platform_library_open(WM_STORM_LIBRARY);
    if (!library) {
        snprintf(failure, sizeof failure, "cannot load %s: %s", WM_STORM_LIBRARY, wm_platform_library_error());
        return;
    }
    wm_storm_api table;
    if (RESOLVE(OpenArchive) && RESOLVE(CloseArchive) && RESOLVE(OpenFileEx) && RESOLVE(GetFileSize) &&
        RESOLVE(ReadFile) && RESOLVE(CloseFile) && RESOLVE(HasFile) && RESOLVE(CreateFile) && RESOLVE(WriteFile) &&
        RESOLVE(FinishFile) && RESOLVE(RemoveFile) && RESOLVE(SetMaxFileCount) &&
        resolve(library, "GetLastError", &table.GetLastError, sizeof table.GetLastError)) {
        api = table;
        api_ready = 1;
    }
}

const wm_storm_api *wm_storm_api_load(wm_ctx *ctx)
{
    wm_platform_once(&loaded, load);
    if (api_ready)
        return &api;
    if (ctx)
        wm_error(ctx, WM_ERR_UNSUPPORTED, "StormLib, which reads MPQ archives, is not available: %s", failure);
    return NULL;
}
