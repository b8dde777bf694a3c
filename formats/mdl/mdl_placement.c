/* A room model read from a module is placed as the game places it: at its room's position in the
 * module's layout (FORMAT-NOTES 4: a K1R room model plus its .lyt position equals the module's
 * own .wok within 1e-4). The layout is found among the files beside the model (its archive's
 * members), through the input's source: the model knows nothing of archives. */
#include "mdl/mdl.h"
#include "wm_layout.h"

#include <string.h>

static int is_layout(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && (name[n - 4] == '.') && (name[n - 3] | 0x20) == 'l' && (name[n - 2] | 0x20) == 'y' &&
           (name[n - 1] | 0x20) == 't';
}

wm_result mdl_layout_offset(wm_ctx *ctx, const wm_input *in, const char *room, double offset[3], int *found)
{
    *found = 0;
    if (!in->source || !in->source->name_at)
        return WM_OK;
    const char *name;
    for (uint32_t i = 0; !*found && (name = in->source->name_at(in->source, i)) != NULL; i++) {
        if (!is_layout(name))
            continue;
        uint8_t *data = NULL;
        size_t size = 0;
        wm_layout layout;
        wm_result r = wm_input_beside(ctx, in, name, NULL, &data, &size);
        if (!r) r = wm_layout_parse(ctx, data, size, name, &layout);
        wm_free(ctx, data);
        if (r)
            return r; /* the module's own layout is broken: say so rather than place the room wrong */
        int32_t index = wm_layout_find_room(&layout, room);
        if (index >= 0) {
            for (int k = 0; k < 3; k++)
                offset[k] = layout.rooms[index].position[k];
            *found = 1;
        }
        wm_layout_free(ctx, &layout);
    }
    return WM_OK;
}
