/* Every operating-system call of the library (see wm_platform.h). */
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#include <wchar.h>
#else
#define _GNU_SOURCE /* madvise, posix_memalign, O_DIRECT */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#endif
#endif

#include "wm_io.h"
#include "wm_platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32

/* UTF-8 to a malloc'ed wide string; NULL (errno EINVAL or ENOMEM) when not valid UTF-8. */
wchar_t *wm_platform_widen(const char *text)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text, -1, NULL, 0);
    if (n <= 0) {
        errno = EINVAL;
        return NULL;
    }
    wchar_t *wide = malloc((size_t)n * sizeof *wide);
    if (!wide) {
        errno = ENOMEM;
        return NULL;
    }
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text, -1, wide, n);
    return wide;
}

int wm_platform_open_wide(const char *path, int flags, int mode)
{
    wchar_t *wide = wm_platform_widen(path);
    if (!wide)
        return -1;
    int fd = _wopen(wide, flags | _O_BINARY | _O_NOINHERIT, mode);
    free(wide);
    return fd;
}

int wm_platform_open_read(const char *path)
{
    return wm_platform_open_wide(path, _O_RDONLY, 0);
}

int wm_platform_file_info(int fd, int *out_regular, uint64_t *out_size)
{
    struct _stat64 st;
    if (_fstat64(fd, &st) != 0)
        return -1;
    *out_regular = (st.st_mode & _S_IFMT) == _S_IFREG;
    *out_size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    return 0;
}

ptrdiff_t wm_platform_read(int fd, void *buffer, size_t size)
{
    return _read(fd, buffer, size > 0x40000000u ? 0x40000000u : (unsigned)size);
}

ptrdiff_t wm_platform_read_at(int fd, void *buffer, size_t size, uint64_t offset)
{
    if (_lseeki64(fd, (__int64)offset, SEEK_SET) < 0)
        return -1;
    return wm_platform_read(fd, buffer, size);
}

ptrdiff_t wm_platform_write(int fd, const void *buffer, size_t size)
{
    return _write(fd, buffer, size > 0x40000000u ? 0x40000000u : (unsigned)size);
}

int wm_platform_close(int fd)
{
    return _close(fd);
}

int wm_platform_standard_stream(int output)
{
    _setmode(output ? 1 : 0, _O_BINARY);
    return output ? 1 : 0;
}

int wm_platform_remove(const char *path)
{
    wchar_t *wide = wm_platform_widen(path);
    if (!wide)
        return -1;
    int r = _wremove(wide);
    free(wide);
    return r;
}

int wm_platform_path_kind(const char *path)
{
    wchar_t *wide = wm_platform_widen(path);
    struct _stat64 st;
    int r = wide && _wstat64(wide, &st) == 0;
    free(wide);
    if (!r)
        return WM_PATH_MISSING;
    return (st.st_mode & _S_IFMT) == _S_IFREG ? WM_PATH_FILE : WM_PATH_OTHER;
}

char *wm_platform_folder_entry(const char *folder, const char *name, int (*same)(const char *, const char *))
{
    (void)folder; /* Windows' own names are case-insensitive: the name as given finds it */
    (void)same;
    return _strdup(name);
}

FILE *wm_platform_fopen(const char *path, const char *mode)
{
    wchar_t *wide = wm_platform_widen(path), *wide_mode = wm_platform_widen(mode);
    FILE *f = wide && wide_mode ? _wfopen(wide, wide_mode) : NULL;
    free(wide);
    free(wide_mode);
    return f;
}

static BOOL CALLBACK run_once(PINIT_ONCE once, PVOID init, PVOID *context)
{
    (void)once;
    (void)context;
    ((void (*)(void))(uintptr_t)init)();
    return TRUE;
}

void wm_platform_once(wm_once *once, void (*init)(void))
{
    InitOnceExecuteOnce((PINIT_ONCE)once, run_once, (PVOID)(uintptr_t)init, NULL);
}

/* name in the folder of the walkmesh DLL itself. A program that loaded walkmesh from another
 * folder (Python's ctypes, Blender) does not search that folder for a LoadLibraryW, so Assimp
 * shipped beside walkmesh would not be found; LOAD_WITH_ALTERED_SEARCH_PATH then finds its own
 * DLLs (the C++ runtime) beside it too. NULL when it is not there. */
static HMODULE open_beside_self(const wchar_t *name)
{
    HMODULE self = NULL;
    wchar_t path[MAX_PATH];
    if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                            (LPCWSTR)(uintptr_t)&open_beside_self, &self))
        return NULL;
    DWORD length = GetModuleFileNameW(self, path, MAX_PATH);
    wchar_t *slash = length && length < MAX_PATH ? wcsrchr(path, L'\\') : NULL;
    size_t folder = slash ? (size_t)(slash + 1 - path) : 0, name_length = wcslen(name);
    if (!slash || folder + name_length >= MAX_PATH)
        return NULL;
    memcpy(slash + 1, name, (name_length + 1) * sizeof *name);
    return LoadLibraryExW(path, NULL, LOAD_WITH_ALTERED_SEARCH_PATH);
}

void *wm_platform_library_open(const char *name)
{
    wchar_t *wide = wm_platform_widen(name);
    HMODULE module = wide ? open_beside_self(wide) : NULL;
    if (!module && wide)
        module = LoadLibraryW(wide);
    free(wide);
    return (void *)module;
}

void *wm_platform_library_symbol(void *library, const char *name)
{
    return (void *)(uintptr_t)GetProcAddress((HMODULE)library, name);
}

const char *wm_platform_library_error(void)
{
    static char message[64];
    snprintf(message, sizeof message, "Windows error %lu", (unsigned long)GetLastError());
    return message;
}

void *wm_platform_map_file(int fd, size_t size)
{
    (void)fd;
    (void)size;
    return NULL; /* read instead */
}

void wm_platform_unmap_file(void *data, size_t size)
{
    (void)data;
    (void)size;
}

void wm_platform_release_pages(const void *data, size_t size)
{
    (void)data;
    (void)size;
}

#else /* POSIX */

int wm_platform_open_read(const char *path)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused as not a regular file. */
    return open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

void *wm_platform_map_file(int fd, size_t size)
{
    void *data = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data == MAP_FAILED)
        return NULL;
    madvise(data, size, MADV_SEQUENTIAL); /* read ahead; advice only */
    return data;
}

void wm_platform_unmap_file(void *data, size_t size)
{
    munmap(data, size);
}

void wm_platform_release_pages(const void *data, size_t size)
{
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t lo = (uintptr_t)data, hi = lo + size;
    if (page <= 0)
        return;
    lo = (lo + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    hi &= ~((uintptr_t)page - 1);
    if (hi > lo) /* a private mapping never written comes back from the file, anonymous memory zeroed */
        madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

int wm_platform_file_info(int fd, int *out_regular, uint64_t *out_size)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return -1;
    *out_regular = S_ISREG(st.st_mode);
    *out_size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    return 0;
}

ptrdiff_t wm_platform_read(int fd, void *buffer, size_t size)
{
    ssize_t n;
    while ((n = read(fd, buffer, size)) < 0 && errno == EINTR)
        ;
    return n;
}

ptrdiff_t wm_platform_read_at(int fd, void *buffer, size_t size, uint64_t offset)
{
    ssize_t n;
    while ((n = pread(fd, buffer, size, (off_t)offset)) < 0 && errno == EINTR)
        ;
    return n;
}

#if defined(__linux__) && defined(O_DIRECT)
/* The library writes only its output temporaries and standard output (core/io_sink.c).
 * The temporaries are synced before they are placed, so their large aligned blocks can
 * go to the disk around the page cache without more waiting: the kernel then neither
 * copies them nor takes fresh pages for them, which on this project's VMs cost a quarter
 * of a 5M-triangle WOK conversion's CPU (689 MB). The block goes through a second
 * descriptor of the same file opened with O_DIRECT, so the temporary's own descriptor
 * never changes mode (a pwrite of another part of the library on it is unaffected);
 * where that open or the write is refused, the block goes through the cache as before. */
#define DIRECT_ALIGN 4096
#define DIRECT_LEAST ((size_t)64 << 10)

/* The block written around the cache at the descriptor's offset, which then moves past
 * it; -1 when it cannot be (then nothing was written). */
static ptrdiff_t write_direct(int fd, const void *buffer, size_t size)
{
    if (fd <= 2 || size < DIRECT_LEAST || size % DIRECT_ALIGN || (uintptr_t)buffer % DIRECT_ALIGN)
        return -1;
    off_t at = lseek(fd, 0, SEEK_CUR);
    if (at < 0 || at % DIRECT_ALIGN)
        return -1;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    int direct = open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);
    if (direct < 0)
        return -1;
    ssize_t n;
    while ((n = pwrite(direct, buffer, size, at)) < 0 && errno == EINTR)
        ;
    close(direct);
    if (n <= 0 || lseek(fd, at + n, SEEK_SET) < 0)
        return -1; /* a refused block (EINVAL: other alignment) goes through the cache */
    return n;
}

ptrdiff_t wm_platform_write(int fd, const void *buffer, size_t size)
{
    ptrdiff_t done = write_direct(fd, buffer, size);
    if (done >= 0)
        return done;
    ssize_t n;
    while ((n = write(fd, buffer, size)) < 0 && errno == EINTR)
        ;
    return n;
}
#else
ptrdiff_t wm_platform_write(int fd, const void *buffer, size_t size)
{
    ssize_t n;
    while ((n = write(fd, buffer, size)) < 0 && errno == EINTR)
        ;
    return n;
}
#endif

int wm_platform_close(int fd)
{
    return close(fd);
}

int wm_platform_standard_stream(int output)
{
    return output ? 1 : 0;
}

int wm_platform_remove(const char *path)
{
    return unlink(path);
}

int wm_platform_path_kind(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return WM_PATH_MISSING;
    return S_ISREG(st.st_mode) ? WM_PATH_FILE : WM_PATH_OTHER;
}

FILE *wm_platform_fopen(const char *path, const char *mode)
{
    return fopen(path, mode);
}

char *wm_platform_folder_entry(const char *folder, const char *name, int (*same)(const char *, const char *))
{
    DIR *dir = opendir(folder[0] ? folder : ".");
    if (!dir)
        return NULL;
    char *found = NULL;
    for (struct dirent *entry; !found && (entry = readdir(dir)) != NULL;)
        if (same(entry->d_name, name) == 0)
            found = strdup(entry->d_name);
    closedir(dir);
    return found;
}

void wm_platform_once(wm_once *once, void (*init)(void))
{
    pthread_once(once, init);
}

/* name (or a relative path) from the folder of the object holding this code (the program,
 * libwalkmesh.so, or the Python package's copy), as on Windows: a module of walkmesh's own shipped beside it is
 * found wherever that is, without a search path. glibc names the main program as it was
 * started (argv[0], perhaps no folder at all), hence /proc/self/exe then. NULL: not there. */
static void *open_beside_self(const char *name)
{
    Dl_info self;
    char path[4096];
    const char *object = dladdr((void *)(uintptr_t)&open_beside_self, &self) ? self.dli_fname : NULL;
    if (object && !strchr(object, '/')) {
        ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
        path[length > 0 ? length : 0] = 0;
        object = path;
    }
    const char *slash = object ? strrchr(object, '/') : NULL;
    size_t folder = slash ? (size_t)(slash + 1 - object) : 0, name_length = strlen(name);
    if (!slash || folder + name_length >= sizeof path)
        return NULL;
    memmove(path, object, folder);
    memcpy(path + folder, name, name_length + 1);
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

void *wm_platform_library_open(const char *name)
{
    if (name[0] == '/')
        return dlopen(name, RTLD_NOW | RTLD_LOCAL);
    void *library = open_beside_self(name);
    if (!library && !strchr(name, '/'))
        library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    return library;
}

void *wm_platform_library_symbol(void *library, const char *name)
{
    return dlsym(library, name);
}

const char *wm_platform_library_error(void)
{
    const char *message = dlerror();
    return message ? message : "unknown error";
}

#endif

const char *wm_path_file_name(const char *path)
{
    const char *name = path;
    for (const char *p = path; *p; p++) {
#ifdef _WIN32
        if (*p == '\\' || *p == ':')
            name = p + 1;
#endif
        if (*p == '/')
            name = p + 1;
    }
    return name;
}

#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
/* Large arrays (AABB trees, whole output files) are written once, front to
 * back, right after allocation; with 4 KiB pages the kernel's page faults
 * then cost more than the work itself (measured: 11 us a page in this
 * project's VMs, 0.4 s for a 1M-triangle WOK). Blocks this large are 2 MiB
 * aligned and marked for transparent huge pages instead. */
#define HUGE_BLOCK ((size_t)2 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

void *wm_platform_realloc(void *user, void *ptr, size_t size)
{
    (void)user;
    if (size < HUGE_BLOCK)
        return realloc(ptr, size);
    void *block = NULL;
    if (posix_memalign(&block, HUGE_PAGE, size) != 0)
        return NULL;
    madvise(block, size, MADV_HUGEPAGE); /* advice only: failure just keeps small pages */
    if (ptr) {
        size_t old = malloc_usable_size(ptr);
        memcpy(block, ptr, old < size ? old : size);
        free(ptr);
    }
    return block;
}
#else
void *wm_platform_realloc(void *user, void *ptr, size_t size)
{
    (void)user;
    return realloc(ptr, size);
}
#endif

void wm_platform_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}
