/* libFuzzer target for the zip reader: whatever the end record, directory and local headers say,
 * a member read is exactly the size its directory entry declares (no bomb inflates past it), and
 * an archive refused or a member refused leaves nothing behind (LeakSanitizer). */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "wm_archive.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_ctx_init(&ctx);
    ctx.limits.max_bytes = 16u << 20; /* a declared size past this is refused before inflating */
    wm_archive *archive = NULL;
    if (wm_archive_open_memory(&ctx, data, size, "fuzz.zip", &archive) != WM_OK)
        return 0;
    int zip = strcmp(wm_archive_kind(archive)->name, "zip") == 0;
    for (uint32_t i = 0; zip && i < wm_archive_member_count(archive); i++) {
        const wm_archive_member *m = wm_archive_member_at(archive, i);
        wm_input in;
        if (wm_archive_member_input(&ctx, archive, i, &in) != WM_OK)
            continue;
        if (in.size != m->unpacked_size)
            abort();
        uint8_t last = in.size ? in.data[in.size - 1] : 0; /* the whole buffer is the member's */
        (void)last;
        wm_input_free(&ctx, &in);
    }
    wm_archive_close(&ctx, archive);
    return 0;
}
