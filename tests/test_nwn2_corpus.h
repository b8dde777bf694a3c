/* A corpus NWN2 file read and parsed for a test: skipped when the corpus is
 * absent, failed with the library's message when it does not parse. */
#ifndef TEST_NWN2_CORPUS_H
#define TEST_NWN2_CORPUS_H

#include "test_support.h"
#include "nwn2/nwn2.h"

#include <stdlib.h>

/* The file's bytes (free them after nwn2_file_free: f may point into them). */
static inline uint8_t *nwn2t_parse_corpus(const char *relative, wm_ctx *ctx, nwn2_file *f, size_t *size)
{
    char *path = wmt_corpus_path_or_skip(relative);
    uint8_t *data = wmt_read_file(path, size);
    wmt_ctx_init(ctx);
    if (nwn2_file_parse(ctx, data, *size, path, f) != WM_OK)
        fail_msg("%s: %s", relative, wm_ctx_message(ctx));
    free(path);
    return data;
}

#endif
