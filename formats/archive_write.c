/* Outputs that go into archives: "mod.mod/room.wok" as an output adds or replaces that member.
 * The member is written into memory (bounded by the member), and at commit the whole archive is
 * written again to a temporary beside it, every other member's bytes copied from the old one,
 * and placed over it: all or nothing, like every other output (core/io_sink.c). */
#include "archive_internal.h"
#include "wm_io.h"

#include <string.h>

typedef struct member_output {
    char *archive; /* the archive's path */
    char *member;  /* the member's name as given */
    int overwrite;
} member_output;

static void release_output(wm_ctx *ctx, void *user)
{
    member_output *o = user;
    wm_free(ctx, o->archive);
    wm_free(ctx, o->member);
    wm_free(ctx, o);
}

/* The archive as it is now, and the member's index in it (UINT32_MAX: not there); a member that
 * is there is replaced only with overwrite. */
static wm_result open_for_writing(wm_ctx *ctx, const member_output *o, wm_archive **archive, uint32_t *index)
{
    wm_result r = wm_archive_open(ctx, o->archive, archive);
    if (r)
        return r;
    *index = wm_archive_find(*archive, o->member, strlen(o->member));
    if (!(*archive)->kind->write)
        r = wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: walkmesh does not write into %s archives", o->archive,
                     (*archive)->kind->name);
    else if (*index != UINT32_MAX && !o->overwrite)
        r = wm_error(ctx, WM_ERR_EXISTS, "%s/%s: exists already (use --force to overwrite)", o->archive, o->member);
    if (r) {
        wm_archive_close(ctx, *archive);
        *archive = NULL;
    }
    return r;
}

static wm_result finish_member(wm_ctx *ctx, void *user, const uint8_t *data, size_t size)
{
    const member_output *o = user;
    wm_archive *archive = NULL;
    uint32_t index;
    wm_result r = open_for_writing(ctx, o, &archive, &index);
    if (r)
        return r;
    wm_archive_change change = {index, o->member, data, size};
    wm_sink *sink = NULL;
    r = wm_sink_open_file(ctx, o->archive, 1, &sink);
    if (!r) r = archive->kind->write(ctx, archive, &change, sink);
    if (!r) r = wm_sink_commit(sink);
    wm_sink_close(sink);
    wm_archive_close(ctx, archive);
    return r;
}

wm_result wm_sink_open(wm_ctx *ctx, const char *path, int overwrite, wm_sink **out)
{
    const char *member = NULL;
    size_t archive_length = wm_archive_split_path(path, &member);
    *out = NULL;
    if (!archive_length)
        return wm_sink_open_file(ctx, path, overwrite, out);
    member_output *o = wm_alloc_array(ctx, 1, sizeof *o);
    if (!o)
        return WM_ERR_NOMEM;
    o->overwrite = overwrite;
    o->member = wm_strdup(ctx, member);
    o->archive = wm_alloc_array(ctx, archive_length + 1, 1);
    if (!o->member || !o->archive) {
        release_output(ctx, o);
        return WM_ERR_NOMEM;
    }
    memcpy(o->archive, path, archive_length);
    wm_archive *archive = NULL;
    uint32_t index;
    wm_result r = open_for_writing(ctx, o, &archive, &index); /* refused now rather than after the work */
    wm_archive_close(ctx, archive);
    if (r) {
        release_output(ctx, o);
        return r;
    }
    return wm_sink_open_memory(ctx, path, finish_member, release_output, o, out);
}

wm_result wm_file_write_atomic(wm_ctx *ctx, const char *path, const void *data, size_t size, int overwrite)
{
    wm_sink *sink = NULL;
    wm_result r = wm_sink_open(ctx, path, overwrite, &sink);
    if (!r && !(r = wm_sink_write(sink, NULL, data, size)))
        r = wm_sink_commit(sink);
    wm_sink_close(sink);
    return r;
}
