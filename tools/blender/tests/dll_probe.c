/* Loads a DLL the way Python's ctypes does on Windows for the walkmesh package: the package's
 * folder added with AddDllDirectory (os.add_dll_directory), then LoadLibraryExW of the full path
 * with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR (ctypes.CDLL of a
 * path, Python 3.8+), so the DLLs it needs are found only beside it or in the system folders.
 * Then looks up each named export, prints wm_version() and reads MODEL with wm_mesh_load (a
 * glTF: Assimp, opened at run time by the library, must be found beside it although this
 * program runs from elsewhere).
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

static void (*export_of(HMODULE library, const char *name))(void)
{
    return (void (*)(void))GetProcAddress(library, name);
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
