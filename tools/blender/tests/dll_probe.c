/* Loads a DLL the way Python's ctypes does on Windows for the walkmesh package: the package's
 * folder added with AddDllDirectory (os.add_dll_directory), then LoadLibraryExW of the full path
 * with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR (ctypes.CDLL of a
 * path, Python 3.8+), so the DLLs it needs are found only beside it or in the system folders.
 * Then looks up each named export and prints wm_version().
 *
 *   dll_probe.exe FOLDER DLL-PATH NAME...      exit 0: loaded, every name exported */
#include <stdio.h>
#include <windows.h>

static wchar_t *widen(const char *text)
{
    static wchar_t buffers[2][MAX_PATH * 2];
    static int next;
    wchar_t *out = buffers[next++ % 2];
    MultiByteToWideChar(CP_UTF8, 0, text, -1, out, MAX_PATH * 2);
    return out;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: dll_probe FOLDER DLL NAME...\n");
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
    for (int i = 3; i < argc; i++)
        if (!GetProcAddress(library, argv[i])) {
            printf("missing export %s\n", argv[i]);
            missing++;
        }
    const char *(*version)(void) = (const char *(*)(void))(void (*)(void))GetProcAddress(library, "wm_version");
    printf("version %s\n", version ? version() : "?");
    return missing ? 1 : 0;
}
