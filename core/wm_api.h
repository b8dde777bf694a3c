/* WM_API marks the library's public functions: the only names a shared
 * build exports (everything else is hidden). Consumers of a static build
 * define WM_STATIC (the CMake package and walkmesh.pc do it for them). */
#ifndef WM_API_H
#define WM_API_H

#if defined(WM_BUILDING) && defined(_WIN32)
#define WM_API __declspec(dllexport)
#elif defined(WM_STATIC)
#define WM_API
#elif defined(_WIN32)
#define WM_API __declspec(dllimport)
#elif defined(__GNUC__)
#define WM_API __attribute__((visibility("default")))
#else
#define WM_API
#endif

/* printf-style checking of the library's message functions. MinGW builds use MinGW's own
 * C99 printf (__USE_MINGW_ANSI_STDIO), so %zu and %llu are checked as GNU formats there. */
#if defined(__MINGW32__)
#define WM_PRINTF(format_index, first_arg) __attribute__((format(gnu_printf, format_index, first_arg)))
#elif defined(__GNUC__)
#define WM_PRINTF(format_index, first_arg) __attribute__((format(printf, format_index, first_arg)))
#else
#define WM_PRINTF(format_index, first_arg)
#endif

#endif
