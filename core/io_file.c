#define _POSIX_C_SOURCE 200809L
#include "wm_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int wm_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

wm_result wm_file_read(wm_ctx *ctx, const char *path, uint8_t **out_data, size_t *out_size)
{
    *out_data = NULL;
    *out_size = 0;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below. */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return wm_error(ctx, WM_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return wm_error(ctx, WM_ERR_IO, "%s: not a regular file", path);
    }
    if ((uint64_t)st.st_size > ctx->limits.max_bytes) {
        close(fd);
        return wm_error(ctx, WM_ERR_LIMIT, "%s: file of %lld bytes is over the limit of %llu bytes", path,
                        (long long)st.st_size, (unsigned long long)ctx->limits.max_bytes);
    }
    size_t size = (size_t)st.st_size;
    uint8_t *data = wm_realloc_array(ctx, NULL, size ? size : 1, 1);
    if (!data) {
        close(fd);
        return WM_ERR_NOMEM;
    }
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, data + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            wm_free(ctx, data);
            close(fd);
            return wm_error(ctx, WM_ERR_IO, "%s: read failed at byte %zu", path, got);
        }
        got += (size_t)n;
    }
    close(fd);
    *out_data = data;
    *out_size = size;
    return WM_OK;
}

wm_result wm_file_write_atomic(wm_ctx *ctx, const char *path, const void *data, size_t size, int overwrite)
{
    if (!overwrite && wm_file_exists(path))
        return wm_error(ctx, WM_ERR_EXISTS, "%s: exists already (use --force to overwrite)", path);
    size_t plen = strlen(path);
    char *tmp = wm_realloc_array(ctx, NULL, plen + 16, 1);
    if (!tmp)
        return WM_ERR_NOMEM;
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp-XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        wm_result r = wm_error(ctx, WM_ERR_IO, "%s: cannot create a temporary file beside it: %s", path, strerror(errno));
        wm_free(ctx, tmp);
        return r;
    }
    const uint8_t *p = data;
    size_t left = size;
    while (left > 0) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            wm_result r = wm_error(ctx, WM_ERR_IO, "%s: write failed: %s", path, strerror(errno));
            close(fd);
            unlink(tmp);
            wm_free(ctx, tmp);
            return r;
        }
        p += n;
        left -= (size_t)n;
    }
    /* mkstemp creates 0600; give the file the usual permissions. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || close(fd) != 0) {
        wm_result r = wm_error(ctx, WM_ERR_IO, "%s: cannot finish the temporary file: %s", path, strerror(errno));
        unlink(tmp);
        wm_free(ctx, tmp);
        return r;
    }
    if (!overwrite && wm_file_exists(path)) {
        unlink(tmp);
        wm_free(ctx, tmp);
        return wm_error(ctx, WM_ERR_EXISTS, "%s: exists already (use --force to overwrite)", path);
    }
    if (rename(tmp, path) != 0) {
        wm_result r = wm_error(ctx, WM_ERR_IO, "%s: cannot rename the temporary file into place: %s", path, strerror(errno));
        unlink(tmp);
        wm_free(ctx, tmp);
        return r;
    }
    wm_free(ctx, tmp);
    return WM_OK;
}
