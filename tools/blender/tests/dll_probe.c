/* Loads a DLL the way Python's ctypes does on Windows for the walkmesh package: the package's
 * folder added with AddDllDirectory (os.add_dll_directory), then LoadLibraryExW of the full path
 * with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR (ctypes.CDLL of a
 * path, Python 3.8+), so the DLLs it needs are found only beside it or in the system folders.
 * Then looks up each named export, prints wm_version() and reads MODEL with wm_mesh_load (a
 * glTF: Assimp, opened at run time by the library, must be found beside it although this
 * program runs from elsewhere), then builds a navmesh of it when the library has navmeshes
 * (the walkmesh-recast module, also opened at run time and found beside the library).
 *
 *   dll_probe.exe FOLDER DLL-PATH MODEL NAME...      exit 0: loaded, every name exported, read */
#include <stdio.h>
#include <windows.h>

#include "walkmesh.h"

static wchar_t *widen(const char *text)
{
    static wchar_t buffers[2][MAX_PATH * 2];
    static int next;
    wchar_t *out = buffers[next++ % 2];
    MultiByteToWideChar(CP_UTF8, 0, text, -1, out, MAX_PATH * 2);
    return out;
}

typedef void (*ctx_init_fn)(wm_ctx *);
typedef wm_result (*load_fn)(wm_ctx *, const char *, const char *, const wm_options *, wm_mesh *);
typedef void (*free_fn)(const wm_ctx *, wm_mesh *);
typedef const char *(*version_fn)(void);
typedef void (*config_fn)(wm_navmesh_config *);
typedef void (*navmesh_init_fn)(wm_navmesh *);
typedef wm_result (*navmesh_build_fn)(wm_ctx *, const wm_mesh *, const wm_navmesh_config *, wm_navmesh *);
typedef void (*navmesh_free_fn)(const wm_ctx *, wm_navmesh *);

static void (*export_of(HMODULE library, const char *name))(void)
{
    return (void (*)(void))GetProcAddress(library, name);
}

/* Prints "navmesh N polygons", or why there is none (the caller judges which it expects). */
static void build_navmesh(HMODULE library, const wm_mesh *mesh)
{
    config_fn config_recast = (config_fn)export_of(library, "wm_navmesh_config_recast");
    navmesh_init_fn navmesh_init = (navmesh_init_fn)export_of(library, "wm_navmesh_init");
    navmesh_build_fn navmesh_build = (navmesh_build_fn)export_of(library, "wm_navmesh_build");
    navmesh_free_fn navmesh_free = (navmesh_free_fn)export_of(library, "wm_navmesh_free");
    ctx_init_fn ctx_init = (ctx_init_fn)export_of(library, "wm_ctx_init");
    if (!config_recast || !navmesh_init || !navmesh_build || !navmesh_free || !ctx_init) {
        printf("navmesh: no navmesh functions exported\n");
        return;
    }
    wm_ctx ctx;
    wm_navmesh_config config;
    wm_navmesh navmesh;
    ctx_init(&ctx);
    config_recast(&config);
    navmesh_init(&navmesh);
    if (navmesh_build(&ctx, mesh, &config, &navmesh))
        printf("navmesh: %s\n", ctx.message);
    else
        printf("navmesh %u polygons\n", navmesh.poly_count);
    navmesh_free(&ctx, &navmesh);
}

/* Reads the model through the DLL; 0 when it was read. */
static int read_model(HMODULE library, const char *model)
{
    ctx_init_fn ctx_init = (ctx_init_fn)export_of(library, "wm_ctx_init");
    load_fn load = (load_fn)export_of(library, "wm_mesh_load");
    free_fn mesh_free = (free_fn)export_of(library, "wm_mesh_free");
    if (!ctx_init || !load || !mesh_free)
        return 1;
    wm_ctx ctx;
    wm_mesh mesh;
    ctx_init(&ctx);
    wm_result r = load(&ctx, model, NULL, NULL, &mesh);
    if (r) {
        printf("read %s: %s\n", model, ctx.message);
        return 1;
    }
    printf("read %u triangles\n", mesh.triangle_count);
    build_navmesh(library, &mesh);
    mesh_free(&ctx, &mesh);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: dll_probe FOLDER DLL MODEL NAME...\n");
        return 2;
    }
    if (!AddDllDirectory(widen(argv[1]))) {
        printf("AddDllDirectory failed: %lu\n", GetLastError());
        return 1;
    }
    HMODULE library = LoadLibraryExW(widen(argv[2]), NULL,
                                     LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR);
    if (!library) {
        printf("LoadLibraryExW failed: %lu\n", GetLastError());
        return 1;
    }
    int missing = 0;
    for (int i = 4; i < argc; i++)
        if (!GetProcAddress(library, argv[i])) {
            printf("missing export %s\n", argv[i]);
            missing++;
        }
    version_fn version = (version_fn)export_of(library, "wm_version");
    printf("version %s\n", version ? version() : "?");
    return read_model(library, argv[3]) || missing ? 1 : 0;
}
