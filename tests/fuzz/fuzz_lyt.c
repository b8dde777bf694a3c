/* libFuzzer target for the layout reader: parse, write, parse again (the
 * second read must succeed and hold the same counts), a split of an
 * empty area against the layout, and an assemble whose rooms are missing
 * or one triangle (the room-name guard and its index on every layout). */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "wm_layout.h"

static void quiet(void *user, const char *message)
{
    (void)user;
    (void)message;
}

/* Rooms named with an even length are missing, the others one triangle. */
static wm_result fake_room(wm_ctx *ctx, void *user, const char *room, const float position[3], wm_mesh *out)
{
    (void)user;
    if (strlen(room) % 2 == 0) return wm_error(ctx, WM_ERR_IO, "missing");
    for (int i = 0; i < 3; i++)
        if (wm_mesh_add_vertex(ctx, out, position[0] + (float)(i == 1), position[1] + (float)(i == 2), 0, NULL))
            return WM_ERR_NOMEM;
    return wm_mesh_add_triangle(ctx, out, 0, 1, 2, 1, 1);
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
    if (wm_area_assemble(&ctx, &layout, fake_room, NULL, &area) == WM_OK) {
        if (area.object_count != layout.room_count) abort(); /* object i is room i */
        wm_mesh_free(&ctx, &area);
    }
    wm_layout_free(&ctx, &layout);
    return 0;
}
