/* An MPQ written back with one member added or replaced, through StormLib: the archive's bytes
 * are copied to a scratch file beside it (a named temporary, removed on SIGINT or SIGTERM),
 * StormLib adds the member there (compressed with zlib, its name in the archive's list file),
 * and the scratch file's bytes go to the sink, which places them over the archive like every
 * other output: the archive itself is never opened for writing. */
#include "storm_api.h"

#include "wm_archive.h"
#include "wm_io.h"
#include "wm_platform.h"

#include <stdlib.h>
#include <string.h>

enum {
    FILE_COMPRESS = 0x200,           /* MPQ_FILE_COMPRESS */
    FILE_REPLACE_EXISTING = 0x80000000u, /* MPQ_FILE_REPLACEEXISTING */
    COMPRESSION_ZLIB = 0x02,         /* MPQ_COMPRESSION_ZLIB */
    COPY_CHUNK = 1 << 20
};

wm_result wm_mpq_open_handle(wm_ctx *ctx, const wm_storm_api *storm, const char *path, int writable, storm_handle *out);
wm_result mpq_write(wm_ctx *ctx, const wm_archive *archive, const wm_archive_change *change, wm_sink *sink);

static wm_result write_all(wm_ctx *ctx, int fd, const uint8_t *data, size_t size, const char *scratch)
{
    for (size_t done = 0; done < size;) {
        ptrdiff_t n = wm_platform_write(fd, data + done, size - done);
        if (n <= 0)
            return wm_error(ctx, WM_ERR_IO, "%s: write failed (disk full?)", scratch);
        done += (size_t)n;
    }
    return WM_OK;
}

/* The archive's bytes in a named scratch file beside it (*out_scratch, malloc'ed). */
static wm_result copy_to_scratch(wm_ctx *ctx, const wm_archive *archive, char **out_scratch)
{
    const char *path = wm_archive_path(archive);
    const wm_input *bytes = wm_archive_bytes(archive);
    char *scratch = NULL;
    int fd = wm_platform_temp_open(path, &scratch);
    if (fd < 0)
        return wm_error(ctx, WM_ERR_IO, "%s: cannot create a temporary file beside it", path);
    wm_result r = write_all(ctx, fd, bytes->data, bytes->size, path);
    if (wm_platform_temp_name(fd, path, &scratch) != 0 && !r)
        r = wm_error(ctx, WM_ERR_IO, "%s: cannot name a temporary file beside it", path);
    if (r && scratch)
        wm_platform_remove(scratch);
    if (r) {
        free(scratch);
        return r;
    }
    *out_scratch = scratch;
    return WM_OK;
}

/* The member's name as WoW writes it: folders joined by '\'. */
static wm_result stored_name(wm_ctx *ctx, const wm_archive *archive, const wm_archive_change *change, char **out)
{
    const char *given = change->replaced == UINT32_MAX ? change->name : wm_archive_member_at(archive, change->replaced)->name;
    wm_result r = wm_name_check(ctx, given, strlen(given), WM_NAME_RELATIVE, "the member's name");
    char *name = r ? NULL : wm_strdup(ctx, given);
    if (!r && !name)
        r = WM_ERR_NOMEM;
    for (char *c = name; c && *c; c++)
        if (*c == '/')
            *c = '\\';
    *out = name;
    return r;
}

/* The member's entry: when the hash table is full (smpq sizes it to the files it was given), it
 * is grown to twice the members and tried once more. */
static int create_member(const wm_storm_api *storm, storm_handle mpq, const char *name, uint32_t members,
                         const wm_archive_change *change, storm_handle *file)
{
    storm_dword flags = FILE_COMPRESS | FILE_REPLACE_EXISTING, size = (storm_dword)change->size;
    if (storm->CreateFile(mpq, name, 0, size, 0, flags, file))
        return 1;
    uint64_t room = 2 * ((uint64_t)members + 4); /* the list file, attributes, the new member */
    return room <= UINT32_MAX && storm->SetMaxFileCount(mpq, (storm_dword)room) &&
           storm->CreateFile(mpq, name, 0, size, 0, flags, file);
}

static wm_result add_member(wm_ctx *ctx, const wm_storm_api *storm, const char *scratch, const char *name,
                            uint32_t members, const wm_archive_change *change)
{
    if (change->size > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "%s: over 4 GiB, more than an MPQ member holds", name);
    storm_handle mpq = NULL, file = NULL;
    wm_result r = wm_mpq_open_handle(ctx, storm, scratch, 1, &mpq);
    if (!r && !create_member(storm, mpq, name, members, change, &file))
        r = wm_error(ctx, WM_ERR_IO, "%s: StormLib cannot add it (StormLib error %u)", name,
                     (unsigned)storm->GetLastError());
    if (!r && change->size && !storm->WriteFile(file, change->data, (storm_dword)change->size, COMPRESSION_ZLIB))
        r = wm_error(ctx, WM_ERR_IO, "%s: StormLib cannot write it (StormLib error %u)", name,
                     (unsigned)storm->GetLastError());
    if (file && !storm->FinishFile(file) && !r)
        r = wm_error(ctx, WM_ERR_IO, "%s: StormLib cannot finish it (StormLib error %u)", name,
                     (unsigned)storm->GetLastError());
    if (mpq && !storm->CloseArchive(mpq) && !r) /* its tables and list file are written now */
        r = wm_error(ctx, WM_ERR_IO, "StormLib cannot write the archive's tables (error %u)",
                     (unsigned)storm->GetLastError());
    return r;
}

/* The scratch file into the sink, a chunk at a time. */
static wm_result copy_to_sink(wm_ctx *ctx, const char *scratch, wm_sink *sink)
{
    int fd = wm_platform_open_read(scratch);
    uint8_t *chunk = fd < 0 ? NULL : wm_realloc_array(ctx, NULL, COPY_CHUNK, 1);
    wm_result r = fd < 0 ? wm_error(ctx, WM_ERR_IO, "%s: cannot read it back", scratch) : chunk ? WM_OK : WM_ERR_NOMEM;
    while (!r) {
        ptrdiff_t n = wm_platform_read(fd, chunk, COPY_CHUNK);
        if (n < 0)
            r = wm_error(ctx, WM_ERR_IO, "%s: read failed", scratch);
        if (n <= 0)
            break;
        r = wm_sink_write(sink, NULL, chunk, (size_t)n);
    }
    wm_free(ctx, chunk);
    if (fd >= 0)
        wm_platform_close(fd);
    return r;
}

wm_result mpq_write(wm_ctx *ctx, const wm_archive *archive, const wm_archive_change *change, wm_sink *sink)
{
    const wm_storm_api *storm = wm_storm_api_load(ctx);
    if (!storm)
        return WM_ERR_UNSUPPORTED;
    char *name = NULL, *scratch = NULL;
    wm_result r = stored_name(ctx, archive, change, &name);
    if (!r) r = copy_to_scratch(ctx, archive, &scratch);
    int slot = scratch ? wm_platform_cleanup_register(scratch) : -1;
    if (!r) r = add_member(ctx, storm, scratch, name, wm_archive_member_count(archive), change);
    if (!r) r = copy_to_sink(ctx, scratch, sink);
    if (scratch) {
        wm_platform_remove(scratch);
        wm_platform_cleanup_unregister(slot);
        free(scratch);
    }
    wm_free(ctx, name);
    return r;
}
