/* Output to memory: an archive member's bytes are kept until commit, then handed to the
 * archive writer, which places the whole archive as one output (all or nothing). */
#include "io_sink_internal.h"

#include <string.h>

wm_result wm_sink_open_memory(wm_ctx *ctx, const char *path, wm_sink_finish_fn finish,
                              void (*release)(wm_ctx *ctx, void *user), void *user, wm_sink **out)
{
    wm_result r = wm_sink_open_file(ctx, "-", 1, out); /* nothing touches standard output: memory takes its place */
    wm_buffer *memory = r ? NULL : wm_alloc_array(ctx, 1, sizeof *memory);
    char *name = memory ? wm_strdup(ctx, path) : NULL;
    if (!name) {
        wm_free(ctx, memory);
        wm_sink_close(*out);
        *out = NULL;
        if (release)
            release(ctx, user);
        return r ? r : WM_ERR_NOMEM;
    }
    wm_buffer_init(memory, ctx);
    wm_sink *sink = *out;
    wm_free(ctx, sink->path);
    sink->path = name;
    sink->to_stdout = 0;
    sink->memory = memory;
    sink->finish = finish;
    sink->release = release;
    sink->user = user;
    return WM_OK;
}

/* The memory sink's writes: the main output only (an archive member is one file). */
wm_result wm_sink_memory_write(wm_sink *sink, const char *suffix, uint64_t offset, const void *data, size_t size)
{
    if (suffix)
        return sink->status = wm_error(sink->ctx, WM_ERR_UNSUPPORTED,
                                       "%s: this format writes a side file too (%s), and an archive member is one "
                                       "file: write it outside the archive",
                                       sink->path, suffix);
    wm_buffer *b = sink->memory;
    if (offset == UINT64_MAX) {
        if (wm_buffer_reserve(b, size))
            return sink->status = WM_ERR_NOMEM;
        wm_put_bytes(b, data, size);
        return b->status;
    }
    if (offset > b->size || size > b->size - offset)
        return sink->status = wm_error(sink->ctx, WM_ERR_INVALID, "%s: a write at %llu past what was written",
                                       sink->path, (unsigned long long)offset);
    memcpy(b->data + offset, data, size);
    return WM_OK;
}

