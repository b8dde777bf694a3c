/* The operating-system side of output files (see wm_platform.h): temporaries beside
 * their targets, placing them without a check-then-rename race, and the SIGINT/SIGTERM
 * cleanup of named temporaries. Used by core/io_sink.c only. */
#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>
#else
#define _DEFAULT_SOURCE /* syscall, fchmod */
#define _GNU_SOURCE     /* O_TMPFILE, linkat */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#endif

#include "wm_io.h"
#include "wm_platform.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "<target>.tmp-XXXXXX", malloc'ed (errno ENOMEM when memory ran out). */
static char *temp_name_for(const char *target)
{
    size_t n = strlen(target);
    char *temp = malloc(n + 12);
    if (!temp) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(temp, target, n);
    memcpy(temp + n, ".tmp-XXXXXX", 12);
    return temp;
}

#ifdef _WIN32

static int create_temp(char *path_template)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    size_t n = strlen(path_template);
    /* Names from the clock, the process and a counter; O_EXCL makes a clash a retry. */
    static volatile LONG counter;
    for (int attempt = 0; attempt < 100; attempt++) {
        uint64_t seed = (uint64_t)GetTickCount64() * 2654435761u ^ (uint64_t)GetCurrentProcessId() << 20 ^
                        (uint64_t)InterlockedIncrement(&counter) * 40503u;
        for (size_t i = 0; i < 6; i++, seed /= 36)
            path_template[n - 6 + i] = letters[seed % 36];
        int fd = wm_platform_open_wide(path_template, _O_WRONLY | _O_CREAT | _O_EXCL, _S_IREAD | _S_IWRITE);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

int wm_platform_temp_open(const char *target, char **out_temp)
{
    *out_temp = NULL;
    char *temp = temp_name_for(target);
    if (!temp)
        return -1;
    int fd = create_temp(temp);
    if (fd < 0) {
        free(temp);
        return -1;
    }
    *out_temp = temp;
    return fd;
}

int wm_platform_temp_finish(int fd, const char *temp)
{
    (void)temp;
    if (_commit(fd) != 0) {
        wm_platform_close_quietly(fd);
        return -1;
    }
    return _close(fd);
}

int wm_platform_temp_name(int fd, const char *target, char **out_temp)
{
    (void)fd;
    (void)target;
    *out_temp = NULL;
    errno = EINVAL; /* no unnamed temporaries here */
    return -1;
}

static int set_errno_from_windows(void)
{
    switch (GetLastError()) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND: errno = ENOENT; break;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION: errno = EACCES; break;
    case ERROR_ALREADY_EXISTS:
    case ERROR_FILE_EXISTS: errno = EEXIST; break;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL: errno = ENOSPC; break;
    default: errno = EIO; break;
    }
    return -1;
}

int wm_platform_place(const char *temp, const char *target, int replace)
{
    wchar_t *wide_from = wm_platform_widen(temp), *wide_to = wm_platform_widen(target);
    int r = -1;
    /* without MOVEFILE_REPLACE_EXISTING an existing target makes the move fail */
    if (wide_from && wide_to)
        r = MoveFileExW(wide_from, wide_to, (replace ? MOVEFILE_REPLACE_EXISTING : 0) | MOVEFILE_WRITE_THROUGH)
                ? 0
                : set_errno_from_windows();
    free(wide_from);
    free(wide_to);
    return r;
}

int wm_platform_place_unnamed(int fd, const char *target)
{
    (void)fd;
    (void)target;
    errno = EINVAL;
    return -1;
}

int wm_platform_close_quietly(int fd)
{
    int saved = errno;
    int r = _close(fd);
    errno = saved;
    return r;
}

/* Console interrupts arrive on a thread of their own; the temporaries are named and removed
 * by the failing write instead. */
int wm_platform_cleanup_register(const char *temp)
{
    (void)temp;
    return -1;
}

void wm_platform_cleanup_unregister(int slot)
{
    (void)slot;
}

void wm_platform_hold_signals(int hold)
{
    (void)hold;
}

int wm_platform_interrupted(void)
{
    return 0;
}

#else /* POSIX */

#if defined(__linux__) && defined(O_TMPFILE)
/* Unnamed temporaries are placed through /proc/self/fd (linkat of an O_TMPFILE file). */
static int unnamed_temporaries(void)
{
    static int usable = -1;
    if (usable < 0)
        usable = access("/proc/self/fd", X_OK) == 0;
    return usable;
}

static char *folder_of(const char *target)
{
    size_t n = (size_t)(wm_path_file_name(target) - target);
    char *dir = malloc(n + 2);
    if (!dir) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(dir, n ? target : ".", n ? n : 1);
    dir[n ? n : 1] = '\0';
    return dir;
}
#endif

int wm_platform_temp_open(const char *target, char **out_temp)
{
    *out_temp = NULL;
#if defined(__linux__) && defined(O_TMPFILE)
    if (unnamed_temporaries()) {
        char *dir = folder_of(target);
        if (!dir)
            return -1;
        int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666); /* the umask applies, as to any new file */
        free(dir);
        if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
            return fd;
    }
#endif
    char *temp = temp_name_for(target);
    if (!temp)
        return -1;
    int fd = mkstemp(temp);
    if (fd < 0) {
        free(temp);
        return -1;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    *out_temp = temp;
    return fd;
}

int wm_platform_temp_finish(int fd, const char *temp)
{
    if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
        wm_platform_close_quietly(fd);
        return -1;
    }
    if (!temp)
        return 0; /* unnamed: stays open until placed */
    /* mkstemp creates 0600; give the file the permissions a new file gets. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) {
        wm_platform_close_quietly(fd);
        return -1;
    }
    return close(fd);
}

static int proc_fd_path(int fd, char *out, size_t size)
{
    return snprintf(out, size, "/proc/self/fd/%d", fd) < (int)size ? 0 : -1;
}

int wm_platform_temp_name(int fd, const char *target, char **out_temp)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    static unsigned counter;
    char from[64];
    *out_temp = NULL;
    char *temp = temp_name_for(target);
    if (!temp || proc_fd_path(fd, from, sizeof from) != 0) {
        free(temp);
        return -1;
    }
    size_t n = strlen(temp);
    for (int attempt = 0; attempt < 100; attempt++) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        uint64_t seed = (uint64_t)now.tv_nsec * 2654435761u ^ (uint64_t)getpid() << 20 ^ (uint64_t)++counter * 40503u;
        for (size_t i = 0; i < 6; i++, seed /= 36)
            temp[n - 6 + i] = letters[seed % 36];
        if (linkat(AT_FDCWD, from, AT_FDCWD, temp, AT_SYMLINK_FOLLOW) == 0) {
            close(fd);
            *out_temp = temp;
            return 0;
        }
        if (errno != EEXIST)
            break;
    }
    int saved = errno;
    free(temp);
    errno = saved;
    return -1;
}

int wm_platform_place(const char *temp, const char *target, int replace)
{
    if (replace)
        return rename(temp, target);
#if defined(__linux__) && defined(SYS_renameat2)
    if (syscall(SYS_renameat2, AT_FDCWD, temp, AT_FDCWD, target, 1 /* RENAME_NOREPLACE */) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
#endif
    /* link() never replaces; the temporary's name goes once the target has the file */
    if (link(temp, target) != 0)
        return -1;
    unlink(temp);
    return 0;
}

int wm_platform_place_unnamed(int fd, const char *target)
{
    char from[64];
    if (proc_fd_path(fd, from, sizeof from) != 0)
        return -1;
    return linkat(AT_FDCWD, from, AT_FDCWD, target, AT_SYMLINK_FOLLOW);
}

int wm_platform_close_quietly(int fd)
{
    int saved = errno;
    int r = close(fd);
    errno = saved;
    return r;
}

#define CLEANUP_SLOTS 64
static const char *volatile cleanup_slots[CLEANUP_SLOTS];
static pthread_mutex_t cleanup_lock = PTHREAD_MUTEX_INITIALIZER;
static int cleanup_count;
static int cleanup_installed[2];
static struct sigaction cleanup_previous[2];
static volatile sig_atomic_t cleanup_interrupted;
static const int cleanup_signals[2] = {SIGINT, SIGTERM};

/* Only async-signal-safe calls: unlink, sigaction, raise. */
static void cleanup_on_signal(int sig)
{
    int saved = errno;
    for (int i = 0; i < CLEANUP_SLOTS; i++) {
        const char *temp = cleanup_slots[i];
        if (temp)
            unlink(temp);
    }
    cleanup_interrupted = 1;
    int k = sig == SIGINT ? 0 : 1;
    sigaction(sig, &cleanup_previous[k], NULL);
    cleanup_installed[k] = 0;
    if (cleanup_previous[k].sa_handler == SIG_DFL)
        raise(sig); /* SA_NODEFER: the default action (the end of the process) happens now */
    else if (!(cleanup_previous[k].sa_flags & SA_SIGINFO) && cleanup_previous[k].sa_handler != SIG_IGN)
        cleanup_previous[k].sa_handler(sig);
    errno = saved;
}

static void cleanup_install(int install)
{
    for (int k = 0; k < 2; k++) {
        if (!install) {
            if (cleanup_installed[k])
                sigaction(cleanup_signals[k], &cleanup_previous[k], NULL);
            cleanup_installed[k] = 0;
            continue;
        }
        struct sigaction act;
        memset(&act, 0, sizeof act);
        act.sa_handler = cleanup_on_signal;
        act.sa_flags = SA_NODEFER | SA_RESTART;
        sigemptyset(&act.sa_mask);
        if (sigaction(cleanup_signals[k], NULL, &cleanup_previous[k]) == 0 &&
            cleanup_previous[k].sa_handler != SIG_IGN)
            cleanup_installed[k] = sigaction(cleanup_signals[k], &act, NULL) == 0;
    }
}

int wm_platform_cleanup_register(const char *temp)
{
    pthread_mutex_lock(&cleanup_lock);
    int slot = -1;
    for (int i = 0; i < CLEANUP_SLOTS && slot < 0; i++)
        if (!cleanup_slots[i])
            slot = i;
    if (slot >= 0) {
        cleanup_slots[slot] = temp;
        if (cleanup_count++ == 0) {
            cleanup_interrupted = 0;
            cleanup_install(1);
        }
    }
    pthread_mutex_unlock(&cleanup_lock);
    return slot;
}

void wm_platform_cleanup_unregister(int slot)
{
    if (slot < 0 || slot >= CLEANUP_SLOTS)
        return;
    pthread_mutex_lock(&cleanup_lock);
    cleanup_slots[slot] = NULL;
    if (--cleanup_count == 0)
        cleanup_install(0);
    pthread_mutex_unlock(&cleanup_lock);
}

static _Thread_local sigset_t held_previous;

void wm_platform_hold_signals(int hold)
{
    if (!hold) {
        pthread_sigmask(SIG_SETMASK, &held_previous, NULL);
        return;
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, &held_previous);
}

int wm_platform_interrupted(void)
{
    return cleanup_interrupted != 0;
}


#endif
