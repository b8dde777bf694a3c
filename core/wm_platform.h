/* The operating-system calls the library makes, in one place (core/platform.c):
 * POSIX on Linux and macOS, the wide-character Win32/CRT API on Windows (paths
 * are UTF-8 everywhere; files are always binary). Internal: not installed. */
#ifndef WM_PLATFORM_H
#define WM_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Opens a file for binary reading (never blocking on a FIFO); -1 with errno set on failure. */
int wm_platform_open_read(const char *path);
/* Whether the open file is a regular file, and its size; -1 with errno set on failure. */
int wm_platform_file_info(int fd, int *out_regular, uint64_t *out_size);
/* read()/write() that retry on EINTR; the count moved, or -1 with errno set. */
ptrdiff_t wm_platform_read(int fd, void *buffer, size_t size);
ptrdiff_t wm_platform_write(int fd, const void *buffer, size_t size);
int wm_platform_close(int fd);

/* Creates a new file from a template ending in "XXXXXX" (replaced in place), open for
 * binary writing; -1 with errno set on failure. */
int wm_platform_create_temp(char *path_template);
/* Gives a finished temporary file the permissions a new file gets, and closes it. */
int wm_platform_finish_temp(int fd);
/* Moves `from` to `to` in one step, replacing `to` when it exists. */
int wm_platform_replace(const char *from, const char *to);
int wm_platform_remove(const char *path);

enum { WM_PATH_MISSING = 0, WM_PATH_FILE, WM_PATH_OTHER };
/* What the path names: nothing, a regular file, or something else (folder, FIFO, device). */
int wm_platform_path_kind(const char *path);
/* fopen() for a UTF-8 path. */
FILE *wm_platform_fopen(const char *path, const char *mode);

/* The default allocator (large blocks in huge pages where the system offers them). */
void *wm_platform_realloc(void *user, void *ptr, size_t size);
void wm_platform_free(void *user, void *ptr);

/* A shared library opened by file name with the system's search rules
 * (dlopen, LoadLibraryW), NULL when it cannot be; a symbol in it, NULL when
 * absent; why the last open failed. Libraries stay loaded until exit. */
void *wm_platform_library_open(const char *name);
void *wm_platform_library_symbol(void *library, const char *name);
const char *wm_platform_library_error(void);

/* Runs `init` exactly once across threads; a wm_once starts as WM_ONCE_INIT. */
#ifdef _WIN32
typedef union wm_once {
    void *state; /* laid out as the INIT_ONCE it is used as */
} wm_once;
#define WM_ONCE_INIT {0}
#else
#include <pthread.h>
typedef pthread_once_t wm_once;
#define WM_ONCE_INIT PTHREAD_ONCE_INIT
#endif
void wm_platform_once(wm_once *once, void (*init)(void));

#endif
