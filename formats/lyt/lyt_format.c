/* `walkmesh convert m40ad.lyt area.obj`: a layout read as the mesh of its
 * rooms, each room's .wok (or its model) found beside the layout. */
#include "lyt/lyt.h"
#include "bwm/bwm.h"
#include "mdl/mdl.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

wm_result lyt_read_file(wm_ctx *ctx, const char *path, wm_layout *out)
{
    wm_input in; /* a file, or an archive's member */
    wm_layout_init(out);
    wm_result r = wm_input_load(ctx, path, &in);
    if (!r) r = wm_layout_parse(ctx, in.data, in.size, path, out);
    wm_input_free(ctx, &in);
    return r;
}

void lyt_folder_of(const char *path, char *out, size_t size)
{
    const char *name = wm_path_file_name(path);
    size_t n = (size_t)(name - path);
    if (n == 0) {
        snprintf(out, size, ".");
        return;
    }
    snprintf(out, size, "%.*s", (int)n, path);
}

/* folder/room.ext with the room's name as written, in lower case, in upper case. */
static int find_room_file(const char *folder, const char *room, const char *ext, char *out, size_t size)
{
    for (int variant = 0; variant < 3; variant++) {
        char name[WM_LAYOUT_NAME];
        size_t i = 0;
        for (; room[i] && i + 1 < sizeof name; i++)
            name[i] = variant == 0 ? room[i] : (char)(variant == 1 ? tolower((unsigned char)room[i]) : toupper((unsigned char)room[i]));
        name[i] = 0;
        snprintf(out, size, "%s%s%s.%s", folder, folder[0] && folder[strlen(folder) - 1] != '/' ? "/" : "", name, ext);
        if (wm_file_exists(out)) return 1;
    }
    return 0;
}

static wm_result load_model(wm_ctx *ctx, const char *path, const float position[3], wm_mesh *out)
{
    uint8_t *data = NULL;
    size_t size = 0;
    mdl_walkmesh w;
    double offset[3] = {position[0], position[1], position[2]};
    wm_result r = wm_file_read(ctx, path, &data, &size);
    if (!r) r = mdl_parse_walkmesh(ctx, data, size, path, &w);
    wm_free(ctx, data);
    if (r) return r;
    r = mdl_walkmesh_to_mesh(ctx, &w, offset, out);
    mdl_walkmesh_free(ctx, &w);
    return r;
}

wm_result lyt_load_room_file(wm_ctx *ctx, void *user, const char *room, const float position[3], wm_mesh *out)
{
    const char *folder = user;
    char path[1024];
    if (find_room_file(folder, room, "wok", path, sizeof path)) {
        bwm_file file;
        wm_result r = bwm_read_file(ctx, path, &file);
        if (r) return r;
        r = bwm_to_mesh(ctx, &file, room, out); /* .wok vertices are absolute: the layout offset is in them */
        bwm_file_free(ctx, &file);
        return r;
    }
    if (find_room_file(folder, room, "mdl", path, sizeof path)) return load_model(ctx, path, position, out);
    return wm_error(ctx, WM_ERR_IO, "no %s.wok or %s.mdl in %s", room, room, folder);
}

/* A layout that is an archive's member: its rooms are members of the same archive (the room's
 * .wok, else its model placed at the layout's position), never files on disk. */
wm_result lyt_load_room_beside(wm_ctx *ctx, void *user, const char *room, const float position[3], wm_mesh *out)
{
    const wm_input *layout = user;
    static const char *const kinds[] = {"wok", "mdl"};
    for (int k = 0; k < 2; k++) {
        char name[WM_LAYOUT_NAME + 8];
        uint8_t *data = NULL;
        size_t size = 0;
        snprintf(name, sizeof name, "%s.%s", room, kinds[k]);
        wm_ctx quiet = *ctx;
        if (wm_input_beside(&quiet, layout, name, NULL, &data, &size) != WM_OK)
            continue;
        wm_result r;
        if (k == 0) {
            bwm_file file;
            if (!(r = bwm_parse(ctx, data, size, name, &file))) {
                r = bwm_to_mesh(ctx, &file, room, out); /* .wok vertices are absolute */
                bwm_file_free(ctx, &file);
            }
        } else {
            mdl_walkmesh w;
            double offset[3] = {position[0], position[1], position[2]};
            if (!(r = mdl_parse_walkmesh(ctx, data, size, name, &w))) {
                r = mdl_walkmesh_to_mesh(ctx, &w, offset, out);
                mdl_walkmesh_free(ctx, &w);
            }
        }
        wm_free(ctx, data);
        return r;
    }
    return wm_error(ctx, WM_ERR_IO, "no %s.wok or %s.mdl beside %s", room, room, layout->name);
}

static void layout_facts(const wm_layout *layout, wm_report *report)
{
    wm_report_fact(report, "rooms", "%u", layout->room_count);
    for (uint32_t i = 0; i < layout->room_count; i++) {
        char key[32];
        snprintf(key, sizeof key, "room %u", i);
        wm_report_fact(report, key, "%s at %g %g %g", layout->rooms[i].name, layout->rooms[i].position[0],
                       layout->rooms[i].position[1], layout->rooms[i].position[2]);
    }
    wm_report_fact(report, "tracks", "%u", layout->track_count);
    wm_report_fact(report, "obstacles", "%u", layout->obstacle_count);
    wm_report_fact(report, "door hooks", "%u", layout->doorhook_count);
}

/* The rooms are found in --rooms DIR, else beside the layout. `walkmesh info` on a
 * layout whose rooms are not there still describes it (an empty mesh, a warning). */
static wm_result lyt_read_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out,
                               wm_report *facts)
{
    wm_layout layout;
    char folder[1024];
    const char *rooms = opts ? wm_option_get(opts, "rooms") : NULL;
    wm_mesh_init(out);
    wm_result r = wm_layout_parse(ctx, in->data, in->size, in->name, &layout);
    if (r) return r;
    if (rooms)
        snprintf(folder, sizeof folder, "%s", rooms);
    else
        lyt_folder_of(in->path ? in->path : "", folder, sizeof folder);
    if (in->source && !rooms)
        r = wm_area_assemble(ctx, &layout, lyt_load_room_beside, (void *)in, out);
    else
        r = wm_area_assemble(ctx, &layout, lyt_load_room_file, folder, out);
    if (r == WM_ERR_IO && facts) {
        wm_warn(ctx, "%s", wm_ctx_message(ctx));
        wm_mesh_init(out);
        r = WM_OK;
    }
    if (!r) snprintf(out->name, sizeof out->name, "%s", wm_path_file_name(in->name));
    if (!r && facts) {
        layout_facts(&layout, facts);
        r = facts->status;
    }
    if (r) wm_mesh_free(ctx, out);
    wm_layout_free(ctx, &layout);
    return r;
}

static int lyt_probe(const wm_input *in)
{
    size_t n = in->size < 4096 ? in->size : 4096;
    for (size_t i = 0; i + 11 <= n; i++)
        if (memcmp(in->data + i, "beginlayout", 11) == 0) return 90;
    return 0;
}

static const char *const lyt_extensions[] = {"lyt", NULL};

static const wm_option_desc lyt_options[] = {
    {"rooms", "DIR", "where a layout's rooms (.wok, else .mdl) are (default: beside the layout)"},
    {NULL, NULL, NULL}};

const wm_format wm_format_lyt = {
    .name = "lyt",
    .description = "KotOR area layout (.lyt): the area's rooms as one mesh, one object per room (read only; "
                   "'walkmesh area' splits, edits and writes layouts)",
    .extensions = lyt_extensions,
    .capabilities = WM_CAN_TRANSITIONS,
    .probe = lyt_probe,
    .read = lyt_read_hook,
    .options = lyt_options,
};
