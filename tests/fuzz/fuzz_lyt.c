/* libFuzzer target for the layout reader: parse, write, parse again (the
 * second read must succeed and hold the same counts), and a split of an
 * empty area against the layout. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

#include "wm_layout.h"

static void quiet(void *user, const char *message)
{
    (void)user;
    (void)message;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wm_ctx ctx;
    wm_layout layout, again;
    wm_ctx_init(&ctx);
    ctx.warn = quiet;
    ctx.limits.max_triangles = 1u << 16;
    if (wm_layout_parse(&ctx, data, size, "fuzz.lyt", &layout) != WM_OK) return 0;
    wm_buffer text;
    if (wm_layout_serialize(&ctx, &layout, &text) == WM_OK) {
        if (wm_layout_parse(&ctx, text.data, text.size, "again.lyt", &again) != WM_OK ||
            again.room_count != layout.room_count || again.doorhook_count != layout.doorhook_count)
            abort(); /* what the writer writes, the reader reads */
        wm_layout_free(&ctx, &again);
        wm_buffer_free(&text);
    }
    wm_mesh area, *rooms = calloc((size_t)layout.room_count + 1, sizeof *rooms);
    wm_mesh_init(&area);
    if (rooms && wm_area_split(&ctx, &area, &layout, 1e-3f, rooms) == WM_OK)
        for (uint32_t i = 0; i < layout.room_count; i++) wm_mesh_free(&ctx, &rooms[i]);
    free(rooms);
    wm_layout_free(&ctx, &layout);
    return 0;
}
