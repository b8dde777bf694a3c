/* Listing a folder (see wm_platform.h): the one read of a folder's names, so that finding
 * many files in it by name costs one pass, not a probe per name and spelling. */
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <dirent.h>
#endif

#include "wm_platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32

/* A wide name as malloc'ed UTF-8, NULL when it cannot be. */
static char *narrow(const wchar_t *wide)
{
    int size = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, wide, -1, NULL, 0, NULL, NULL);
    char *text = size > 0 ? malloc((size_t)size) : NULL;
    if (text && WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, wide, -1, text, size, NULL, NULL) != size) {
        free(text);
        text = NULL;
    }
    return text;
}

int wm_platform_list_folder(const char *folder, wm_platform_entry_fn each, void *user)
{
    size_t n = strlen(folder);
    char *pattern = malloc(n + 3);
    if (!pattern) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(pattern, folder, n);
    memcpy(pattern + n, n && (folder[n - 1] == '/' || folder[n - 1] == '\\') ? "*" : "/*", 3);
    wchar_t *wide = wm_platform_widen(pattern);
    free(pattern);
    WIN32_FIND_DATAW entry;
    HANDLE find = wide ? FindFirstFileExW(wide, FindExInfoBasic, &entry, FindExSearchNameMatch, NULL, 0)
                       : INVALID_HANDLE_VALUE;
    free(wide);
    if (find == INVALID_HANDLE_VALUE) {
        errno = ENOENT;
        return -1;
    }
    int r = 0;
    do {
        char *name = narrow(entry.cFileName);
        if (name) /* a name that is not UTF-8 names no room: skipped */
            r = each(user, name);
        free(name);
    } while (r == 0 && FindNextFileW(find, &entry));
    FindClose(find);
    return r;
}

#else

int wm_platform_list_folder(const char *folder, wm_platform_entry_fn each, void *user)
{
    DIR *dir = opendir(folder[0] ? folder : ".");
    if (!dir)
        return -1;
    int r = 0;
    struct dirent *entry;
    while (r == 0 && (entry = readdir(dir)) != NULL)
        r = each(user, entry->d_name);
    closedir(dir);
    return r;
}

#endif
