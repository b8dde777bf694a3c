/* The "bwm-ascii" format: ASCII walkmesh text read into a mesh (KotOR and
 * NWN1) and written in the form KOTORMax and MDLOps read. */
#include "bwm/bwm.h"
#include "lyt/lyt.h"

#include <stddef.h>
#include <stdio.h>

static int ascii_probe(const wm_input *in)
{
    return bwm_ascii_probe_text(in->data, in->size);
}

/* A model's walkmesh node is placed like a binary model's (--layout or
 * --room-offset) and said to be in the room's own space without them. */
static wm_result read_placed(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out, int warn)
{
    double offset[3];
    int given = 0, render = 0;
    uint32_t meshes = 0, hidden = 0;
    char room[WM_LAYOUT_NAME];
    const char *text = (const char *)in->data;
    wm_mesh_init(out);
    int model = bwm_ascii_room_name(text, in->size, room, sizeof room);
    if (!room[0]) snprintf(room, sizeof room, "%s", wm_path_file_name(in->name));
    wm_result r = lyt_geometry_option(ctx, opts, &render);
    if (!r) r = lyt_room_placement(ctx, opts, room, offset, &given);
    if (!r && render) {
        r = bwm_ascii_render(ctx, text, in->size, in->name, out, &meshes, &hidden);
        if (!r && given) r = lyt_move_room(ctx, out, offset, room);
        if (!r && hidden && warn)
            wm_warn(ctx, "%s: %u of %u meshes left out: render 0, or bitmap NULL (invisible)", in->name, hidden,
                    hidden + meshes);
    } else if (!r) {
        r = bwm_ascii_parse_joined(ctx, text, in->size, in->name, given ? offset : NULL, bwm_ascii_join_tolerance(opts),
                                   out);
    }
    if (!r && model && !given && warn) lyt_warn_unplaced(ctx, in->name, room);
    if (r) wm_mesh_free(ctx, out);
    return r;
}

static wm_result ascii_read_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out,
                                 wm_report *facts)
{
    return read_placed(ctx, in, opts, out, facts == NULL);
}

/* Pictures: read here (with --room-offset), drawn by bwm_picture.c. */
static wm_result ascii_picture_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts,
                                   struct wm_picture *picture)
{
    wm_mesh mesh;
    wm_result r = read_placed(ctx, in, opts, &mesh, 1);
    if (!r) r = bwm_picture_of_mesh(ctx, &mesh, in->name, picture);
    wm_mesh_free(ctx, &mesh);
    return r;
}

static const char *const ascii_extensions[] = {"ascii", NULL};

const wm_format wm_format_bwm_ascii = {
    .name = "bwm-ascii",
    .description = "KotOR/NWN1 ASCII walkmesh: KOTORMax .wok.ascii, the node aabb of a .mdl.ascii (written in the form "
                   "KOTORMax and MDLOps read, with room links), NWN1 text .wok/.pwk/.dwk",
    .extensions = ascii_extensions,
    .probe = ascii_probe,
    .capabilities = WM_CAN_TRANSITIONS | WM_IS_WALKMESH,
    .read = ascii_read_hook,
    .write = bwm_ascii_write_hook,
    .options = NULL, /* --layout and --room-offset: the mdl module's */
    .picture = ascii_picture_hook,
};
