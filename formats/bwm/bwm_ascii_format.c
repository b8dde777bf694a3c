/* The "bwm-ascii" format: ASCII walkmesh text read into a mesh (KotOR and
 * NWN1) and written in the form KOTORMax and MDLOps read. */
#include "bwm/bwm.h"

#include <stddef.h>

static int ascii_probe(const uint8_t *head, size_t head_size, uint64_t file_size, const char *path)
{
    (void)file_size;
    (void)path;
    return bwm_ascii_probe_text(head, head_size);
}

static wm_result ascii_read_hook(wm_ctx *ctx, const char *path, const wm_options *opts, wm_mesh *out)
{
    uint8_t *data = NULL;
    size_t size = 0;
    double offset[3];
    int given = 0;
    wm_mesh_init(out);
    wm_result r = bwm_room_offset_option(ctx, opts, offset, &given);
    if (!r) r = wm_file_read(ctx, path, &data, &size);
    if (r) return r;
    r = bwm_ascii_parse(ctx, (const char *)data, size, path, given ? offset : NULL, out);
    wm_free(ctx, data);
    if (r) wm_mesh_free(ctx, out);
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
    .read = ascii_read_hook,
    .write = bwm_ascii_write_hook,
    .options = ascii_options,
};
