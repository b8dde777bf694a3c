/* Output transactions: every output of one write goes to a temporary beside its target;
 * wm_sink_commit syncs them all and moves them into place together, with SIGINT/SIGTERM
 * held off; anything else (an error, an interrupt, wm_sink_close before commit) removes
 * the temporaries and leaves the targets as they were. */
#include "wm_format.h"
#include "wm_io.h"
#include "wm_names.h"
#include "wm_platform.h"

#include <errno.h>
#include <string.h>

typedef struct sink_output {
    char *suffix; /* NULL: the main output */
    char *target;
    char *temp;   /* the named temporary; NULL while unnamed (or after placing) */
    int fd;       /* -1 once closed */
    int slot;     /* signal-cleanup registration of temp, -1 when none */
    int placed;
} sink_output;

struct wm_sink {
    wm_ctx *ctx;
    char *path;
    int overwrite, to_stdout;
    int folder; /* opened with wm_sink_open_folder: path is the folder, no main output */
    wm_buffer *memory;        /* a member of an archive: the bytes, handed to finish at commit */
    wm_sink_finish_fn finish;
    void (*release)(wm_ctx *ctx, void *user);
    void *user;
    unsigned lacking; /* WM_CAN_* the writer said this output does not hold */
    wm_result status;
    sink_output *outputs;
    size_t count, capacity;
    /* The side outputs by suffix under wm_name_hash (output + 1; 0 = empty), so that a sink
     * of many outputs finds one in constant time; the main output is `main` (-1: none yet). */
    size_t *slots, slot_mask;
    ptrdiff_t main;
};

static wm_result exists_error(wm_ctx *ctx, const char *path)
{
    return wm_error(ctx, WM_ERR_EXISTS, "%s: exists already (use --force to overwrite)", path);
}

wm_result wm_sink_open_file(wm_ctx *ctx, const char *path, int overwrite, wm_sink **out)
{
    *out = NULL;
    if (!path) /* a binding's None: refused, not dereferenced */
        return wm_error(ctx, WM_ERR_INVALID, "no output path given");
    int to_stdout = strcmp(path, "-") == 0;
    if (!to_stdout && !overwrite && wm_platform_path_kind(path) != WM_PATH_MISSING)
        return exists_error(ctx, path);
    wm_sink *sink = wm_alloc_array(ctx, 1, sizeof *sink);
    if (!sink)
        return WM_ERR_NOMEM;
    sink->ctx = ctx;
    sink->overwrite = overwrite;
    sink->to_stdout = to_stdout;
    sink->main = -1;
    if (!(sink->path = wm_strdup(ctx, path))) {
        wm_free(ctx, sink);
        return WM_ERR_NOMEM;
    }
    *out = sink;
    return WM_OK;
}

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
static wm_result memory_write(wm_sink *sink, const char *suffix, uint64_t offset, const void *data, size_t size)
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

const char *wm_sink_path(const wm_sink *sink)
{
    return sink->path;
}

void wm_sink_set_lacking(wm_sink *sink, unsigned capabilities)
{
    sink->lacking |= capabilities;
}

unsigned wm_sink_lacking(const wm_sink *sink)
{
    return sink->lacking;
}

/* <folder><stem><suffix>, the stem being the main file name without its extension; in a
 * folder sink, <folder>/<suffix>. */
static char *side_target(const wm_sink *sink, const char *path, const char *suffix)
{
    wm_ctx *ctx = sink->ctx;
    if (sink->folder) {
        char *target;
        return wm_path_join(ctx, path, suffix, NULL, &target) == WM_OK ? target : NULL;
    }
    const char *name = wm_path_file_name(path), *dot = strrchr(name, '.');
    size_t stem_end = dot && dot != name ? (size_t)(dot - path) : strlen(path), n = strlen(suffix);
    char *target = wm_alloc_array(ctx, stem_end + n + 1, 1);
    if (target) {
        memcpy(target, path, stem_end);
        memcpy(target + stem_end, suffix, n + 1);
    }
    return target;
}

static wm_result fail(wm_sink *sink, wm_result code, const char *target, const char *what)
{
    if (code == WM_ERR_EXISTS)
        sink->status = exists_error(sink->ctx, target);
    else if (errno == EISDIR)
        sink->status = wm_error(sink->ctx, code, "%s: %s: it is a folder", target, what);
    else
        sink->status = wm_error(sink->ctx, code, "%s: %s: %s", target, what, strerror(errno));
    return sink->status;
}

/* The side output whose suffix is the same name as suffix under wm_name_compare (exactly
 * the same when exact), or -1. */
static ptrdiff_t find_side(const wm_sink *sink, const char *suffix, int exact)
{
    if (!sink->slots)
        return -1;
    size_t n = strlen(suffix);
    for (size_t slot = (size_t)wm_name_hash(suffix, n) & sink->slot_mask;; slot = (slot + 1) & sink->slot_mask) {
        size_t held = sink->slots[slot];
        if (held == 0)
            return -1;
        const char *other = sink->outputs[held - 1].suffix;
        if (exact ? strcmp(other, suffix) == 0 : wm_name_compare(other, suffix) == 0)
            return (ptrdiff_t)held - 1;
    }
}

static void index_side(wm_sink *sink, size_t output)
{
    const char *suffix = sink->outputs[output].suffix;
    size_t slot = (size_t)wm_name_hash(suffix, strlen(suffix)) & sink->slot_mask;
    while (sink->slots[slot])
        slot = (slot + 1) & sink->slot_mask;
    sink->slots[slot] = output + 1;
}

/* Room for one more output in the array and (at most half full) in the index. */
static wm_result grow_outputs(wm_sink *sink)
{
    wm_ctx *ctx = sink->ctx;
    if (sink->count == sink->capacity) {
        size_t capacity = sink->capacity ? 2 * sink->capacity : 4;
        sink_output *grown = wm_realloc_array(ctx, sink->outputs, capacity, sizeof *grown);
        if (!grown)
            return sink->status = WM_ERR_NOMEM;
        sink->outputs = grown;
        sink->capacity = capacity;
    }
    if (sink->slots && 2 * (sink->count + 1) <= sink->slot_mask + 1)
        return WM_OK;
    size_t slot_count = sink->slots ? 2 * (sink->slot_mask + 1) : 16;
    size_t *slots = wm_alloc_array(ctx, slot_count, sizeof *slots);
    if (!slots)
        return sink->status = WM_ERR_NOMEM;
    memset(slots, 0, slot_count * sizeof *slots);
    wm_free(ctx, sink->slots);
    sink->slots = slots;
    sink->slot_mask = slot_count - 1;
    for (size_t i = 0; i < sink->count; i++)
        if (sink->outputs[i].suffix)
            index_side(sink, i);
    return WM_OK;
}

static sink_output *open_output(wm_sink *sink, const char *suffix)
{
    ptrdiff_t found = suffix ? find_side(sink, suffix, 1) : sink->main;
    if (found >= 0)
        return &sink->outputs[found];
    wm_ctx *ctx = sink->ctx;
    if (grow_outputs(sink))
        return NULL;
    sink_output *o = &sink->outputs[sink->count];
    memset(o, 0, sizeof *o);
    o->fd = o->slot = -1;
    o->target = suffix ? side_target(sink, sink->path, suffix) : wm_strdup(ctx, sink->path);
    if (!o->target || (suffix && !(o->suffix = wm_strdup(ctx, suffix)))) {
        wm_free(ctx, o->target);
        sink->status = WM_ERR_NOMEM;
        return NULL;
    }
    if (suffix)
        index_side(sink, sink->count);
    else
        sink->main = (ptrdiff_t)sink->count;
    sink->count++;
    if (suffix && !sink->overwrite && wm_platform_path_kind(o->target) != WM_PATH_MISSING) {
        fail(sink, WM_ERR_EXISTS, o->target, "");
        return NULL;
    }
    if ((o->fd = wm_platform_temp_open(o->target, &o->temp)) < 0) {
        fail(sink, WM_ERR_IO, o->target, "cannot create a temporary file beside it");
        return NULL;
    }
    if (o->temp)
        o->slot = wm_platform_cleanup_register(o->temp);
    return o;
}

static wm_result write_all(wm_sink *sink, int fd, const char *target, const void *data, size_t size)
{
    const uint8_t *p = data;
    while (size > 0) {
        ptrdiff_t n = wm_platform_write(fd, p, size);
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            return fail(sink, WM_ERR_IO, target, "write failed");
        }
        p += n;
        size -= (size_t)n;
    }
    return WM_OK;
}

wm_result wm_sink_write(wm_sink *sink, const char *suffix, const void *data, size_t size)
{
    if (sink->status)
        return sink->status;
    if (sink->memory)
        return memory_write(sink, suffix, UINT64_MAX, data, size);
    if (sink->folder && !suffix)
        return sink->status = wm_error(sink->ctx, WM_ERR_INVALID, "%s: a folder has no main output", sink->path);
    if (sink->to_stdout) {
        if (suffix)
            return sink->status = wm_error(sink->ctx, WM_ERR_UNSUPPORTED,
                                           "standard output holds one file, and this format writes a side file "
                                           "too (%s): name an output file",
                                           suffix);
        return write_all(sink, wm_platform_standard_stream(1), "(standard output)", data, size);
    }
    sink_output *o = open_output(sink, suffix);
    return o ? write_all(sink, o->fd, o->target, data, size) : sink->status;
}

wm_result wm_sink_open_folder(wm_ctx *ctx, const char *folder, int overwrite, wm_sink **out)
{
    *out = NULL;
    if (!folder)
        return wm_error(ctx, WM_ERR_INVALID, "no output folder given");
    wm_result r = wm_sink_open(ctx, "-", overwrite, out); /* standard output: nothing checked */
    if (r)
        return r;
    wm_sink *sink = *out;
    wm_free(ctx, sink->path);
    sink->to_stdout = 0;
    sink->folder = 1;
    if (!(sink->path = wm_strdup(ctx, folder[0] ? folder : "."))) {
        wm_sink_close(sink);
        *out = NULL;
        return WM_ERR_NOMEM;
    }
    return WM_OK;
}

/* Synced and closed now (named first when unnamed): a transaction of thousands of files
 * holds no descriptor per file until its commit. */
static wm_result finish_early(wm_sink *sink, sink_output *o)
{
    int failed = wm_platform_temp_finish(o->fd, o->temp) != 0; /* closes a named one, and on failure */
    if (!failed && !o->temp && wm_platform_temp_name(o->fd, o->target, &o->temp) != 0) {
        wm_platform_close_quietly(o->fd);
        failed = 1;
    }
    o->fd = -1;
    if (failed)
        return fail(sink, WM_ERR_IO, o->target, "write failed");
    if (o->slot < 0)
        o->slot = wm_platform_cleanup_register(o->temp);
    return WM_OK;
}

wm_result wm_sink_write_file(wm_sink *sink, const char *name, const void *data, size_t size)
{
    if (sink->status)
        return sink->status;
    if (!sink->folder)
        return sink->status = wm_error(sink->ctx, WM_ERR_INVALID, "%s: not a folder sink", sink->path);
    if ((sink->status = wm_name_check(sink->ctx, name, strlen(name), WM_NAME_COMPONENT, sink->path)) != WM_OK)
        return sink->status;
    ptrdiff_t same = find_side(sink, name, 0);
    if (same >= 0)
        return sink->status = wm_error(sink->ctx, WM_ERR_EXISTS, "%s: %s and %s would be one file", sink->path,
                                       sink->outputs[same].suffix, name);
    sink_output *o = open_output(sink, name);
    if (!o || write_all(sink, o->fd, o->target, data, size))
        return sink->status;
    return finish_early(sink, o);
}

int wm_sink_can_write_at(const wm_sink *sink)
{
    return sink->memory || (!sink->to_stdout && !sink->folder);
}

wm_result wm_sink_write_at(wm_sink *sink, uint64_t offset, const void *data, size_t size)
{
    if (sink->status)
        return sink->status;
    if (sink->memory)
        return memory_write(sink, NULL, offset, data, size);
    if (!wm_sink_can_write_at(sink))
        return sink->status = wm_error(sink->ctx, WM_ERR_UNSUPPORTED, "%s cannot be written at an offset",
                                       sink->to_stdout ? "standard output" : "a folder");
    sink_output *o = open_output(sink, NULL);
    if (!o)
        return sink->status;
    const uint8_t *p = data;
    while (size > 0) {
        ptrdiff_t n = wm_platform_write_at(o->fd, p, size, offset);
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            return fail(sink, WM_ERR_IO, o->target, "write failed");
        }
        p += n;
        offset += (uint64_t)n;
        size -= (size_t)n;
    }
    return WM_OK;
}

/* Removes what this sink created: the temporaries and, after a failed placing without
 * overwrite, the targets it had already placed (they did not exist before). */
static void discard(wm_sink *sink)
{
    for (size_t i = 0; i < sink->count; i++) {
        sink_output *o = &sink->outputs[i];
        if (o->fd >= 0)
            wm_platform_close_quietly(o->fd);
        o->fd = -1;
        if (o->temp)
            wm_platform_remove(o->temp);
        wm_platform_cleanup_unregister(o->slot);
        o->slot = -1;
        if (o->placed && !sink->overwrite)
            wm_platform_remove(o->target);
        o->placed = 0;
    }
}

/* Every temporary named, so the renames are all that is left. */
static wm_result name_all(wm_sink *sink)
{
    for (size_t i = 0; i < sink->count; i++) {
        sink_output *o = &sink->outputs[i];
        if (o->temp)
            continue;
        if (wm_platform_temp_name(o->fd, o->target, &o->temp) != 0)
            return fail(sink, WM_ERR_IO, o->target, "cannot name the temporary file");
        o->fd = -1;
        o->slot = wm_platform_cleanup_register(o->temp);
    }
    return WM_OK;
}

static wm_result place(wm_sink *sink, sink_output *o)
{
    int r = o->temp ? wm_platform_place(o->temp, o->target, sink->overwrite)
                    : wm_platform_place_unnamed(o->fd, o->target);
    if (r != 0)
        return fail(sink, errno == EEXIST ? WM_ERR_EXISTS : WM_ERR_IO, o->target,
                    "cannot move the temporary file into place");
    o->placed = 1;
    if (o->fd >= 0)
        wm_platform_close_quietly(o->fd);
    o->fd = -1;
    wm_platform_cleanup_unregister(o->slot);
    o->slot = -1;
    wm_free(sink->ctx, o->temp);
    o->temp = NULL;
    return WM_OK;
}

/* A target that is a folder (or a device) cannot be replaced: found before anything moves. */
static wm_result check_targets(wm_sink *sink)
{
    for (size_t i = 0; i < sink->count; i++)
        if (wm_platform_path_kind(sink->outputs[i].target) == WM_PATH_OTHER) {
            errno = EISDIR;
            return fail(sink, WM_ERR_IO, sink->outputs[i].target, "cannot be replaced");
        }
    return WM_OK;
}

/* Side outputs first and the main one last, so a reader of the main file finds its sides. */
static wm_result place_all(wm_sink *sink)
{
    wm_result r = check_targets(sink);
    if (!r && sink->overwrite)
        r = name_all(sink);
    for (size_t i = 0; !r && i < sink->count; i++)
        if (sink->outputs[i].suffix)
            r = place(sink, &sink->outputs[i]);
    for (size_t i = 0; !r && i < sink->count; i++)
        if (!sink->outputs[i].suffix)
            r = place(sink, &sink->outputs[i]);
    return r;
}

wm_result wm_sink_commit(wm_sink *sink)
{
    if (sink->memory && !sink->status) {
        sink->status = sink->finish(sink->ctx, sink->user, sink->memory->data, sink->memory->size);
        return sink->status;
    }
    if (sink->to_stdout || sink->status) {
        if (sink->status)
            discard(sink);
        return sink->status;
    }
    if (!sink->count && !sink->folder && !open_output(sink, NULL)) /* an empty main output is still a file */
        return sink->status;
    for (size_t i = 0; i < sink->count && !sink->status; i++) {
        sink_output *o = &sink->outputs[i];
        if (o->fd < 0)
            continue; /* finished early (wm_sink_write_file) */
        if (wm_platform_temp_finish(o->fd, o->temp) != 0)
            fail(sink, WM_ERR_IO, o->target, "write failed");
        else if (o->temp)
            o->fd = -1; /* a named temporary is closed; an unnamed one stays open to be placed */
    }
    if (!sink->status && wm_platform_interrupted())
        sink->status = wm_error(sink->ctx, WM_ERR_IO, "%s: interrupted", sink->path);
    if (!sink->status) {
        wm_platform_hold_signals(1);
        place_all(sink);
        if (sink->status)
            discard(sink);
        for (size_t i = 0; i < sink->count; i++)
            sink->outputs[i].placed = 0; /* in place for good: closing keeps them */
        wm_platform_hold_signals(0);
    } else {
        discard(sink);
    }
    return sink->status;
}

void wm_sink_close(wm_sink *sink)
{
    if (!sink)
        return;
    discard(sink);
    for (size_t i = 0; i < sink->count; i++) {
        wm_free(sink->ctx, sink->outputs[i].suffix);
        wm_free(sink->ctx, sink->outputs[i].target);
        wm_free(sink->ctx, sink->outputs[i].temp);
    }
    wm_free(sink->ctx, sink->outputs);
    wm_free(sink->ctx, sink->slots);
    wm_free(sink->ctx, sink->path);
    if (sink->memory) {
        wm_buffer_free(sink->memory);
        wm_free(sink->ctx, sink->memory);
    }
    if (sink->release)
        sink->release(sink->ctx, sink->user);
    wm_free(sink->ctx, sink);
}
