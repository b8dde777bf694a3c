/* The output transaction's state, shared by core/io_sink.c (files and folders) and
 * core/io_sink_memory.c (an archive member kept in memory until commit). Internal. */
#ifndef WM_IO_SINK_INTERNAL_H
#define WM_IO_SINK_INTERNAL_H

#include "wm_format.h"
#include "wm_io.h"

#include <stddef.h>
#include <stdint.h>

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

/* A write into a memory sink: at offset, or appended when offset is UINT64_MAX. */
wm_result wm_sink_memory_write(wm_sink *sink, const char *suffix, uint64_t offset, const void *data, size_t size);

#endif
