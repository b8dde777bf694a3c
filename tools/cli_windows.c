/* What the command line needs from the system beyond the library: arguments in UTF-8 with
 * wildcards expanded (Windows; a POSIX shell has done both), folders, binary standard I/O.
 *
 * Windows: main() receives the arguments in the ANSI code page, which cannot hold every file
 * name, so they are taken again from the wide-character command line; and cmd passes `*.wok`
 * through unexpanded, so an argument with * or ? is replaced by the files it matches (sorted;
 * kept as it is when nothing matches, so the command reports it as a missing file). */
#include "cli.h"

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <shellapi.h>
#include <fcntl.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static char *to_utf8(const wchar_t *wide)
{
    int size = WideCharToMultiByte(CP_UTF8, 0, wide, -1, NULL, 0, NULL, NULL);
    char *text = size > 0 ? malloc((size_t)size) : NULL;
    if (text)
        WideCharToMultiByte(CP_UTF8, 0, wide, -1, text, size, NULL, NULL);
    return text;
}

static wchar_t *to_wide(const char *text)
{
    int size = MultiByteToWideChar(CP_UTF8, 0, text, -1, NULL, 0);
    wchar_t *wide = size > 0 ? malloc((size_t)size * sizeof *wide) : NULL;
    if (wide)
        MultiByteToWideChar(CP_UTF8, 0, text, -1, wide, size);
    return wide;
}

static int by_name(const void *a, const void *b)
{
    return wcscmp(*(const wchar_t *const *)a, *(const wchar_t *const *)b);
}

typedef struct arg_list {
    char **items;
    int count, capacity;
} arg_list;

static int push(arg_list *list, char *item)
{
    if (!item)
        return 0;
    if (list->count + 1 >= list->capacity) {
        int capacity = list->capacity ? list->capacity * 2 : 64;
        char **items = realloc(list->items, (size_t)capacity * sizeof *items);
        if (!items)
            return 0;
        list->items = items;
        list->capacity = capacity;
    }
    list->items[list->count++] = item;
    list->items[list->count] = NULL;
    return 1;
}

/* The files matching pattern (folder part kept as typed), sorted; 0 matches adds nothing. */
static int expand(arg_list *list, const wchar_t *pattern)
{
    const wchar_t *slash = pattern;
    for (const wchar_t *p = pattern; *p; p++)
        if (*p == L'\\' || *p == L'/' || *p == L':')
            slash = p + 1;
    size_t folder = (size_t)(slash - pattern);
    WIN32_FIND_DATAW found;
    HANDLE h = FindFirstFileW(pattern, &found);
    if (h == INVALID_HANDLE_VALUE)
        return 0;
    wchar_t **names = NULL;
    int count = 0, capacity = 0, ok = 1;
    do {
        if (wcscmp(found.cFileName, L".") == 0 || wcscmp(found.cFileName, L"..") == 0)
            continue;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 32;
            wchar_t **grown = realloc(names, (size_t)capacity * sizeof *grown);
            if (!(ok = grown != NULL))
                break;
            names = grown;
        }
        size_t length = folder + wcslen(found.cFileName) + 1;
        if (!(ok = (names[count] = malloc(length * sizeof(wchar_t))) != NULL))
            break;
        wmemcpy(names[count], pattern, folder);
        wcscpy(names[count] + folder, found.cFileName);
        count++;
    } while (FindNextFileW(h, &found));
    FindClose(h);
    qsort(names, (size_t)count, sizeof *names, by_name);
    for (int i = 0; i < count; i++) {
        ok = ok && push(list, to_utf8(names[i]));
        free(names[i]);
    }
    free(names);
    return ok ? count : -1;
}

void cli_utf8_arguments(int *argc, char ***argv)
{
    int count = 0;
    LPWSTR *wide = CommandLineToArgvW(GetCommandLineW(), &count);
    if (!wide)
        return;
    /* Kept for the life of the process, like the argv it replaces. */
    arg_list list = {0};
    int ok = 1;
    for (int i = 0; ok && i < count; i++) {
        int matched = i > 0 && wcspbrk(wide[i], L"*?") ? expand(&list, wide[i]) : 0;
        if (matched < 0)
            ok = 0;
        else if (matched == 0)
            ok = push(&list, to_utf8(wide[i]));
    }
    LocalFree(wide);
    if (!ok)
        return; /* out of memory: keep the ANSI arguments */
    SetConsoleOutputCP(CP_UTF8);
    *argc = list.count;
    *argv = list.items;
}

int cli_platform_mkdir(const char *path)
{
    wchar_t *wide = to_wide(path);
    int ok = wide && CreateDirectoryW(wide, NULL);
    free(wide);
    return ok ? 0 : -1;
}

int cli_is_folder(const char *path)
{
    wchar_t *wide = to_wide(path);
    DWORD attributes = wide ? GetFileAttributesW(wide) : INVALID_FILE_ATTRIBUTES;
    free(wide);
    return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY);
}

void cli_platform_binary(FILE *stream)
{
    _setmode(_fileno(stream), _O_BINARY);
}
#else
#include <sys/stat.h>

void cli_utf8_arguments(int *argc, char ***argv)
{
    (void)argc;
    (void)argv; /* already UTF-8 (or bytes the file system takes as they are), expanded by the shell */
}

int cli_platform_mkdir(const char *path)
{
    return mkdir(path, 0777);
}

int cli_is_folder(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void cli_platform_binary(FILE *stream)
{
    (void)stream;
}
#endif
