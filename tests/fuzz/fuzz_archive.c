/* libFuzzer target for the containers (ERF V1.0/V1.1, RIM, KEY): open the bytes as an archive,
 * then read every member (a key's BIFs cannot be found from memory: each such read must fail
 * cleanly) and look each one up by its name, which must find it again. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "wm_archive.h"

static void quiet(void *user, const char *message)
{
    (void)user;
    (void)message;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.warn = quiet;
    wm_archive *archive = NULL;
    if (wm_archive_open_memory(&ctx, data, size, "fuzz.erf", &archive) != WM_OK)
        return 0;
    for (uint32_t i = 0; i < wm_archive_member_count(archive); i++) {
        const char *name = wm_archive_member_at(archive, i)->name;
        if (wm_archive_find(archive, name, strlen(name)) != i)
            abort(); /* every listed member is found by its own name */
        wm_input in;
        if (wm_archive_member_input(&ctx, archive, i, &in) != WM_OK)
            continue;
        volatile uint8_t sum = 0;
        for (size_t k = 0; k < in.size; k++) /* the view lies inside the archive's bytes */
            sum += in.data[k];
        (void)sum;
        wm_input_free(&ctx, &in);
    }
    wm_archive_close(&ctx, archive);
    return 0;
}
