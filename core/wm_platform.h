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
/* read()/write() that retry on EINTR; the count moved, or -1 with errno set. On Linux a
 * write of 64 KiB or more to a descriptor above 2 (the library's output temporaries,
 * synced before they are placed), aligned to 4 KiB in memory, length and file offset, goes
 * around the file cache (O_DIRECT, through a second descriptor); else through it. */
ptrdiff_t wm_platform_read(int fd, void *buffer, size_t size);
/* Reads at an offset of the file (an archive's member); the count moved, or -1 with errno set. */
ptrdiff_t wm_platform_read_at(int fd, void *buffer, size_t size, uint64_t offset);
ptrdiff_t wm_platform_write(int fd, const void *buffer, size_t size);
/* Writes at an offset of a file (its end, where plain writes go, stays where it was). */
ptrdiff_t wm_platform_write_at(int fd, const void *buffer, size_t size, uint64_t offset);
int wm_platform_close(int fd);
/* The descriptor of standard input (0) or output (1), switched to binary where that matters. */
int wm_platform_standard_stream(int output);
/* The open file's first size (> 0) bytes mapped read-only and private; NULL where files
 * are not mapped (Windows) or mapping fails: then read them. */
void *wm_platform_map_file(int fd, size_t size);
void wm_platform_unmap_file(void *data, size_t size);
/* The whole pages in [data, data + size) leave the process's memory now: those of a
 * read-only file mapping read from the file again; those of a block the caller is about
 * to free, read for the last time, read as zeros until then. */
void wm_platform_release_pages(const void *data, size_t size);


/* Output files, written as temporaries and placed when complete (core/io_sink.c).
 * Opens a temporary for binary writing in target's folder: unnamed where the system
 * offers it (Linux O_TMPFILE: nothing is left behind, even after SIGKILL), else named
 * "<target>.tmp-XXXXXX", that name in *out_temp (malloc'ed; NULL for an unnamed one).
 * -1 with errno set on failure. */
int wm_platform_temp_open(const char *target, char **out_temp);
/* Syncs the file's data to the disk, gives it the permissions a new file gets and closes it
 * (a named temporary) or keeps it open (an unnamed one, placed from its descriptor). */
int wm_platform_temp_finish(int fd, const char *temp);
/* Gives an unnamed temporary a name beside target ("<target>.tmp-XXXXXX", malloc'ed into
 * *out_temp) and closes it; a named one is only closed. */
int wm_platform_temp_name(int fd, const char *target, char **out_temp);
/* Moves the named temporary to target in one step. replace == 0: fails with EEXIST when
 * target exists, also when it appears meanwhile (no check-then-rename race). */
int wm_platform_place(const char *temp, const char *target, int replace);
/* Places an unnamed temporary at target without replacing (EEXIST when it exists). */
int wm_platform_place_unnamed(int fd, const char *target);
int wm_platform_close_quietly(int fd);
int wm_platform_remove(const char *path);
/* While a temporary is registered, SIGINT and SIGTERM remove every registered temporary
 * (async-signal-safe), then do what they did before (end the process by default). The
 * string must stay valid until unregistered. Returns a slot, or -1 (not registered). */
int wm_platform_cleanup_register(const char *temp);
void wm_platform_cleanup_unregister(int slot);
/* Holds SIGINT and SIGTERM off in the calling thread (hold != 0) or lets them through. */
void wm_platform_hold_signals(int hold);
/* Whether SIGINT or SIGTERM arrived while temporaries were registered (and the process
 * went on: a handler of the caller's ran instead of the default). */
int wm_platform_interrupted(void);

/* Calls each(user, name) for every entry of the folder ("." and ".." included), in no
 * particular order, until it returns non-zero (returned). -1 with errno set when the folder
 * cannot be listed. */
typedef int (*wm_platform_entry_fn)(void *user, const char *name);
int wm_platform_list_folder(const char *folder, wm_platform_entry_fn each, void *user);

enum { WM_PATH_MISSING = 0, WM_PATH_FILE, WM_PATH_OTHER };
/* What the path names: nothing, a regular file, or something else (folder, FIFO, device). */
int wm_platform_path_kind(const char *path);
#ifdef _WIN32
#include <wchar.h>
/* UTF-8 to a malloc'ed wide string; NULL (errno EINVAL or ENOMEM) when not valid UTF-8. */
wchar_t *wm_platform_widen(const char *text);
/* _wopen of a UTF-8 path, binary and not inherited. */
int wm_platform_open_wide(const char *path, int flags, int mode);
#endif
/* The name of the entry of folder ("" the current one) that `same` finds equal to name (0:
 * equal), malloc'ed; NULL when none is. For names a file gives in another case than the disk's
 * (a key's BIFs): Windows compares names without case itself and returns name. */
char *wm_platform_folder_entry(const char *folder, const char *name, int (*same)(const char *, const char *));
/* fopen() for a UTF-8 path. */
FILE *wm_platform_fopen(const char *path, const char *mode);

/* The default allocator (large blocks in huge pages where the system offers them). */
void *wm_platform_realloc(void *user, void *ptr, size_t size);
void wm_platform_free(void *user, void *ptr);

/* A shared library opened by file name: first in the folder of the program or
 * library holding walkmesh's code, then with the system's search rules (dlopen,
 * LoadLibraryW); a relative path with folders only from that folder (POSIX), an
 * absolute one as it is; NULL when it cannot be. A symbol in it, NULL when absent; why
 * the last open failed. Libraries stay loaded until exit. */
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
