/* Layouts in memory and as text again. */
#include "wm_layout.h"

#include <string.h>

void wm_layout_init(wm_layout *layout)
{
    memset(layout, 0, sizeof *layout);
}

void wm_layout_free(const wm_ctx *ctx, wm_layout *layout)
{
    wm_free(ctx, layout->rooms);
    wm_free(ctx, layout->tracks);
    wm_free(ctx, layout->obstacles);
    wm_free(ctx, layout->doorhooks);
    wm_layout_init(layout);
}

int32_t wm_layout_find_room(const wm_layout *layout, const char *name)
{
    for (uint32_t i = 0; i < layout->room_count; i++)
        if (wm_name_compare(layout->rooms[i].name, name) == 0) return (int32_t)i;
    return -1;
}

static void put_places(wm_buffer *out, const char *keyword, const wm_layout_place *places, uint32_t count)
{
    wm_put_text(out, "   %s %u\r\n", keyword, count);
    for (uint32_t i = 0; i < count; i++)
        wm_put_text(out, "      %s %.9g %.9g %.9g\r\n", places[i].name, (double)places[i].position[0],
                    (double)places[i].position[1], (double)places[i].position[2]);
}

wm_result wm_layout_serialize(wm_ctx *ctx, const wm_layout *layout, wm_buffer *out)
{
    wm_buffer_init(out, ctx);
    wm_put_text(out, "#MAXLAYOUT ASCII\r\n");
    if (layout->dependency[0]) wm_put_text(out, "filedependancy %s\r\n", layout->dependency);
    wm_put_text(out, "beginlayout\r\n");
    put_places(out, "roomcount", layout->rooms, layout->room_count);
    put_places(out, "trackcount", layout->tracks, layout->track_count);
    put_places(out, "obstaclecount", layout->obstacles, layout->obstacle_count);
    wm_put_text(out, "   doorhookcount %u\r\n", layout->doorhook_count);
    for (uint32_t i = 0; i < layout->doorhook_count; i++) {
        const wm_layout_doorhook *d = &layout->doorhooks[i];
        wm_put_text(out, "      %s %s %d %.9g %.9g %.9g %.9g %.9g %.9g %.9g\r\n", d->room, d->door, d->unknown,
                    (double)d->position[0], (double)d->position[1], (double)d->position[2], (double)d->orientation[0],
                    (double)d->orientation[1], (double)d->orientation[2], (double)d->orientation[3]);
    }
    wm_put_text(out, "donelayout\r\n");
    if (out->status) wm_buffer_free(out);
    return out->status;
}
