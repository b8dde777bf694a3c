/* StormLib's C functions walkmesh calls, resolved from its shared library when an MPQ is first
 * opened (never when a game format is read), as formats/assimp/assimp_api.c opens Assimp. The
 * types are StormLib's own on every platform walkmesh builds for (HANDLE a pointer, DWORD 32 bits). */
#ifndef WM_STORM_API_H
#define WM_STORM_API_H

#include "wm_context.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef _WIN32
#define STORM_CALL __stdcall
typedef wchar_t storm_char; /* StormLib's TCHAR: its Windows build takes wide file names */
#else
#define STORM_CALL
typedef char storm_char;
#endif

typedef void *storm_handle;
typedef uint32_t storm_dword;

typedef struct wm_storm_api {
    bool(STORM_CALL *OpenArchive)(const storm_char *name, storm_dword priority, storm_dword flags, storm_handle *out);
    bool(STORM_CALL *CloseArchive)(storm_handle mpq);
    bool(STORM_CALL *OpenFileEx)(storm_handle mpq, const char *name, storm_dword scope, storm_handle *out);
    storm_dword(STORM_CALL *GetFileSize)(storm_handle file, storm_dword *high);
    bool(STORM_CALL *ReadFile)(storm_handle file, void *buffer, storm_dword size, storm_dword *read, void *overlapped);
    bool(STORM_CALL *CloseFile)(storm_handle file);
    bool(STORM_CALL *HasFile)(storm_handle mpq, const char *name);
    bool(STORM_CALL *CreateFile)(storm_handle mpq, const char *name, unsigned long long time, storm_dword size,
                                 storm_dword locale, storm_dword flags, storm_handle *out);
    bool(STORM_CALL *WriteFile)(storm_handle file, const void *data, storm_dword size, storm_dword compression);
    bool(STORM_CALL *FinishFile)(storm_handle file);
    bool(STORM_CALL *RemoveFile)(storm_handle mpq, const char *name, storm_dword scope);
    bool(STORM_CALL *SetMaxFileCount)(storm_handle mpq, storm_dword count);
    storm_dword(STORM_CALL *GetLastError)(void);
} wm_storm_api;

/* The functions, or NULL with an error in ctx (StormLib missing or too old). */
const wm_storm_api *wm_storm_api_load(wm_ctx *ctx);

#endif
