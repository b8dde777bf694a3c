/* Windows: the library takes UTF-8 paths, but main() receives the arguments in the
 * ANSI code page, which cannot hold every file name. They are taken again from the
 * wide-character command line instead, and the console is switched to UTF-8. */
#include "cli.h"

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <shellapi.h>
#include <stdlib.h>

void cli_utf8_arguments(int *argc, char ***argv)
{
    int count = 0;
    LPWSTR *wide = CommandLineToArgvW(GetCommandLineW(), &count);
    if (!wide)
        return;
    /* Kept for the life of the process, like the argv it replaces. */
    char **utf8 = calloc((size_t)count + 1, sizeof *utf8);
    for (int i = 0; utf8 && i < count; i++) {
        int size = WideCharToMultiByte(CP_UTF8, 0, wide[i], -1, NULL, 0, NULL, NULL);
        utf8[i] = size > 0 ? malloc((size_t)size) : NULL;
        if (!utf8[i]) {
            LocalFree(wide);
            return; /* out of memory: keep the ANSI arguments */
        }
        WideCharToMultiByte(CP_UTF8, 0, wide[i], -1, utf8[i], size, NULL, NULL);
    }
    LocalFree(wide);
    if (!utf8)
        return;
    SetConsoleOutputCP(CP_UTF8);
    *argc = count;
    *argv = utf8;
}

unsigned cli_cpu_count(void)
{
    SYSTEM_INFO info;
    GetSystemInfo(&info);
    return info.dwNumberOfProcessors ? (unsigned)info.dwNumberOfProcessors : 1;
}
#else
#include <unistd.h>

unsigned cli_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (unsigned)n;
}

void cli_utf8_arguments(int *argc, char ***argv)
{
    (void)argc;
    (void)argv; /* already UTF-8 (or bytes the file system takes as they are) */
}
#endif
