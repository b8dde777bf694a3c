/* MPQ archives (WoW up to 3.3.5a, and every MPQ v1-v4: StarCraft, Warcraft III, Heroes replays)
 * read through StormLib, opened when an MPQ is first opened. The members are the names of the
 * archive's "(listfile)" that the archive holds (an MPQ stores hashes, not names: a member the
 * list does not name cannot be found by name, as in the games); each name is "World\wmo\X.wmo",
 * found with '/' or '\' in any case, and passes the name guard as a relative path. StormLib
 * opens the archive by its file name, so an MPQ in memory is not read. */
#include "storm_api.h"

#include "wm_archive.h"
#include "wm_platform.h"

#include <stdlib.h>
#include <string.h>

enum {
    STORM_READ_ONLY = 0x100, /* STREAM_FLAG_READ_ONLY */
    MPQ_MAX_MEMBERS = 1 << 20
};

static const char listfile_name[] = "(listfile)";

static int mpq_probe(const wm_input *in)
{
    /* "MPQ\x1a" is the archive's header; "MPQ\x1b" a user-data header before it (replays) */
    return in->size >= 32 && memcmp(in->data, "MPQ", 3) == 0 && (in->data[3] == 0x1a || in->data[3] == 0x1b) ? 100 : 0;
}

static wm_result storm_error(wm_ctx *ctx, const wm_storm_api *storm, wm_result code, const char *what)
{
    return wm_error(ctx, code, "%s (StormLib error %u)", what, (unsigned)storm->GetLastError());
}

wm_result wm_mpq_open_handle(wm_ctx *ctx, const wm_storm_api *storm, const char *path, int writable, storm_handle *out);
wm_result wm_mpq_open_handle(wm_ctx *ctx, const wm_storm_api *storm, const char *path, int writable, storm_handle *out)
{
    *out = NULL;
#ifdef _WIN32
    wchar_t *name = wm_platform_widen(path);
    if (!name)
        return WM_ERR_NOMEM;
#else
    const char *name = path;
#endif
    bool opened = storm->OpenArchive(name, 0, writable ? 0 : STORM_READ_ONLY, out);
#ifdef _WIN32
    free(name);
#endif
    return opened ? WM_OK : storm_error(ctx, storm, WM_ERR_CORRUPT, "StormLib cannot open it as an MPQ archive");
}

/* The member's bytes: exactly size of them (a file that reads short or fails is refused). */
static wm_result read_file(wm_ctx *ctx, const wm_storm_api *storm, storm_handle mpq, const char *name, uint64_t limit,
                           uint8_t **out, size_t *out_size)
{
    storm_handle file = NULL;
    if (!storm->OpenFileEx(mpq, name, 0, &file))
        return storm_error(ctx, storm, WM_ERR_CORRUPT, "cannot open the member");
    storm_dword high = 0, low = storm->GetFileSize(file, &high);
    wm_result r = WM_OK;
    if (low == UINT32_MAX || high != 0)
        r = storm_error(ctx, storm, WM_ERR_CORRUPT, "its size cannot be read, or is over 4 GiB");
    else if (low > limit)
        r = wm_error(ctx, WM_ERR_LIMIT, "%u bytes unpacked is over the limit of %llu bytes", (unsigned)low,
                     (unsigned long long)limit);
    uint8_t *data = r ? NULL : wm_realloc_array(ctx, NULL, low ? low : 1, 1);
    if (!r && !data)
        r = WM_ERR_NOMEM;
    storm_dword got = 0;
    if (!r && low && (!storm->ReadFile(file, data, low, &got, NULL) || got != low))
        r = storm_error(ctx, storm, WM_ERR_CORRUPT, "its bytes cannot be read (past the end, or corrupt)");
    storm->CloseFile(file);
    if (r) {
        wm_free(ctx, data);
        return r;
    }
    *out = data;
    *out_size = low;
    return WM_OK;
}

static const char *listed_name(const void *user, uint32_t item, size_t *out_length)
{
    const char *const *lines = user;
    *out_length = strlen(lines[item]);
    return lines[item];
}

/* The list's lines ("\r\n", "\n" or ';' between names), each once (in any case). */
static wm_result split_list(wm_ctx *ctx, char *text, size_t size, char ***out_lines, uint32_t *out_count)
{
    uint32_t count = 0;
    for (size_t i = 0; i < size; i++) {
        if (text[i] == '\r' || text[i] == '\n' || text[i] == ';' || text[i] == '\0')
            text[i] = '\0';
        else if (i == 0 || text[i - 1] == '\0')
            count++;
    }
    if (count > MPQ_MAX_MEMBERS)
        return wm_error(ctx, WM_ERR_LIMIT, "(listfile) names %u files, over the limit of %u", count, MPQ_MAX_MEMBERS);
    char **lines = wm_alloc_array(ctx, count ? count : 1, sizeof *lines);
    if (!lines)
        return WM_ERR_NOMEM;
    uint32_t n = 0;
    for (size_t i = 0; i < size; i++)
        if (text[i] != '\0' && (i == 0 || text[i - 1] == '\0'))
            lines[n++] = text + i;
    *out_lines = lines;
    *out_count = n;
    return WM_OK;
}

static wm_result add_listed(wm_ctx *ctx, wm_archive *archive, const wm_storm_api *storm, storm_handle mpq,
                            char **lines, uint32_t count)
{
    wm_name_index seen = {0};
    wm_result r = wm_name_index_build(ctx, &seen, count, listed_name, lines, NULL);
    uint32_t held = 0;
    for (uint32_t i = 0; i < count && !r; i++) {
        if (wm_name_index_find(&seen, lines[i], strlen(lines[i])) != i || !storm->HasFile(mpq, lines[i]))
            lines[i] = NULL; /* a name listed twice, or not in the archive */
        else
            held++;
    }
    if (!r) r = wm_archive_reserve(ctx, archive, held, 0);
    uint32_t index = 0;
    for (uint32_t i = 0; i < count && !r; i++) {
        if (!lines[i])
            continue;
        wm_archive_member m = {.type = UINT32_MAX};
        r = wm_archive_add_member(ctx, archive, index++, lines[i], strlen(lines[i]), NULL, &m);
    }
    wm_name_index_free(ctx, &seen);
    return r;
}

static wm_result mpq_list(wm_ctx *ctx, wm_archive *archive)
{
    if (!wm_archive_on_disk(archive))
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "an MPQ is read from its file (StormLib), not from memory");
    const wm_storm_api *storm = wm_storm_api_load(ctx);
    storm_handle mpq = NULL;
    wm_result r = storm ? wm_mpq_open_handle(ctx, storm, wm_archive_path(archive), 0, &mpq) : WM_ERR_UNSUPPORTED;
    if (r)
        return r;
    wm_archive_set_state(archive, mpq);
    uint8_t *list = NULL;
    size_t size = 0;
    char **lines = NULL;
    uint32_t count = 0;
    if (!storm->HasFile(mpq, listfile_name))
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "no (listfile): its members have no names to find them by");
    r = read_file(ctx, storm, mpq, listfile_name, ctx->limits.max_bytes, &list, &size);
    if (r)
        wm_error_prefix(ctx, "member (listfile)");
    if (!r) r = split_list(ctx, (char *)list, size, &lines, &count);
    if (!r) r = add_listed(ctx, archive, storm, mpq, lines, count);
    wm_free(ctx, lines);
    wm_free(ctx, list);
    return r;
}

static wm_result mpq_read_member(wm_ctx *ctx, wm_archive *archive, uint32_t index, uint8_t **out_data,
                                 size_t *out_size)
{
    const wm_storm_api *storm = wm_storm_api_load(ctx);
    const wm_archive_member *m = wm_archive_member_at(archive, index);
    wm_result r = storm ? read_file(ctx, storm, wm_archive_state(archive), m->name, ctx->limits.max_bytes, out_data,
                                    out_size)
                        : WM_ERR_UNSUPPORTED;
    if (r) {
        char what[WM_NAME_MAX_COMPONENT + 16];
        snprintf(what, sizeof what, "member %s", m->name);
        wm_error_prefix(ctx, what);
    }
    return r;
}

static void mpq_close(wm_ctx *ctx, wm_archive *archive)
{
    (void)ctx;
    const wm_storm_api *storm = wm_storm_api_load(NULL);
    if (storm && wm_archive_state(archive))
        storm->CloseArchive(wm_archive_state(archive));
    wm_archive_set_state(archive, NULL);
}

wm_result mpq_write(wm_ctx *ctx, const wm_archive *archive, const wm_archive_change *change, wm_sink *sink);

static const char *const mpq_extensions[] = {"mpq", "stormreplay", "sc2replay", "w3x", "w3m", "scx", "scm", NULL};

const wm_container wm_container_mpq = {
    .name = "mpq",
    .description = "Blizzard MPQ v1-v4 through StormLib (WoW up to 3.3.5a; a (listfile) names the members)",
    .extensions = mpq_extensions,
    .probe = mpq_probe,
    .list = mpq_list,
    .read_member = mpq_read_member,
    .close = mpq_close,
    .write = mpq_write,
};
