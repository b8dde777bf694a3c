/* The "bwm-ascii" format: ASCII walkmesh text read into a mesh (KotOR and
 * NWN1) and written in the form KOTORMax and MDLOps read. */
#include "bwm/bwm.h"

#include <stddef.h>

static int ascii_probe(const wm_input *in)
{
    return bwm_ascii_probe_text(in->data, in->size);
}

static wm_result ascii_read_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out,
                                 wm_report *facts)
{
    double offset[3];
    int given = 0;
    (void)facts;
    wm_mesh_init(out);
    wm_result r = bwm_room_offset_option(ctx, opts, offset, &given);
    if (!r) r = bwm_ascii_parse_joined(ctx, (const char *)in->data, in->size, in->name, given ? offset : NULL,
                                       bwm_ascii_join_tolerance(opts), out);
    if (r) wm_mesh_free(ctx, out);
    return r;
}

/* Pictures: read here (with --room-offset), drawn by bwm_picture.c. */
static wm_result ascii_picture_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts,
                                   struct wm_picture *picture)
{
    wm_mesh mesh;
    wm_result r = ascii_read_hook(ctx, in, opts, &mesh, NULL);
    if (!r) r = bwm_picture_of_mesh(ctx, &mesh, in->name, picture);
    wm_mesh_free(ctx, &mesh);
    return r;
}

static const char *const ascii_extensions[] = {"ascii", NULL};

static const wm_option_desc ascii_options[] = {
    {"room-offset", "X,Y,Z", "the room's LYT position, added to node-relative vertices"},
    {NULL, NULL, NULL}};

const wm_format wm_format_bwm_ascii = {
    .name = "bwm-ascii",
    .description = "KotOR/NWN1 ASCII walkmesh: KOTORMax .wok.ascii, the node aabb of a .mdl.ascii (written in the form "
                   "KOTORMax and MDLOps read, with room links), NWN1 text .wok/.pwk/.dwk",
    .extensions = ascii_extensions,
    .probe = ascii_probe,
    .capabilities = WM_CAN_TRANSITIONS,
    .read = ascii_read_hook,
    .write = bwm_ascii_write_hook,
    .options = ascii_options,
    .picture = ascii_picture_hook,
};
