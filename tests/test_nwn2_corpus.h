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

/* Calls visit for every corpus TRX of nwn2/ and nwn2-areas/, read into f
 * (freed after); returns how many. */
static inline size_t nwn2t_each_corpus_trx(void (*visit)(const char *path, wm_ctx *ctx, nwn2_file *f, void *user),
                                           void *user)
{
    static const char *const suffixes[] = {".trx", NULL};
    const char *folders[2] = {"nwn2", "nwn2-areas"};
    size_t files = 0;
    for (int k = 0; k < 2; k++) {
        char **list;
        const size_t n = wmt_corpus_list(folders[k], suffixes, &list);
        for (size_t i = 0; i < n; i++, files++) {
            wm_ctx ctx;
            nwn2_file f;
            wmt_ctx_init(&ctx);
            nwn2_file_init(&f);
            if (nwn2_file_read(&ctx, list[i], &f))
                fail_msg("%s: %s", list[i], wm_ctx_message(&ctx));
            visit(list[i], &ctx, &f, user);
            nwn2_file_free(&ctx, &f);
        }
        wmt_free_list(list, n);
    }
    return files;
}

#endif
