/* `walkmesh convert m40ad.lyt area.obj`: a layout read as the mesh of its
 * rooms, each room's .wok (or its model) found beside the layout. */
#include "lyt/lyt.h"
#include "bwm/bwm.h"
#include "mdl/mdl.h"

#include "wm_names.h"
#include "wm_platform.h"

#include <stdio.h>
#include <stdlib.h>
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

wm_result lyt_folder_of(wm_ctx *ctx, const char *path, char **out)
{
    size_t n = (size_t)(wm_path_file_name(path) - path);
    *out = wm_alloc_array(ctx, n + 2, 1);
    if (!*out) return WM_ERR_NOMEM;
    memcpy(*out, n ? path : ".", n ? n : 1);
    (*out)[n ? n : 1] = '\0';
    return WM_OK;
}

static int is_room_file(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (wm_name_compare(dot, ".wok") == 0 || wm_name_compare(dot, ".mdl") == 0);
}

static int keep_entry(void *user, const char *name)
{
    lyt_room_folder *f = user;
    if (!is_room_file(name)) return 0;
    if (f->count == f->capacity) {
        uint32_t capacity = f->capacity ? 2 * f->capacity : 64;
        char **grown = capacity > f->capacity ? wm_realloc_array(f->ctx, f->entries, capacity, sizeof *grown) : NULL;
        if (!grown) return f->listed = -2;
        f->entries = grown, f->capacity = capacity;
    }
    if (!(f->entries[f->count] = wm_strdup(f->ctx, name))) return f->listed = -2;
    f->count++;
    return 0;
}

static int compare_entries(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static const char *entry_name_of(const void *user, uint32_t item, size_t *out_length)
{
    const lyt_room_folder *f = user;
    *out_length = strlen(f->entries[item]);
    return f->entries[item];
}

/* The folder's .wok and .mdl files, listed once and indexed without case. Two names
 * that differ only in case (a case-sensitive file system; the game sees one file): the first
 * in byte order is found, the same on every run, and a warning names the pair. */
static wm_result list_folder(lyt_room_folder *f)
{
    f->listed = 1;
    int failed = wm_platform_list_folder(f->folder, keep_entry, f) != 0;
    if (f->listed == -2) return wm_error(f->ctx, WM_ERR_NOMEM, "%s: out of memory listing the rooms", f->folder);
    if (failed) return f->listed = -1, WM_OK; /* no folder: every room is missing */
    if (f->count) qsort(f->entries, f->count, sizeof *f->entries, compare_entries);
    uint32_t twins[2];
    wm_result r = wm_name_index_build(f->ctx, &f->index, f->count, entry_name_of, f, twins);
    if (!r && twins[0] != UINT32_MAX)
        wm_warn(f->ctx, "%s: %s and %s differ only in case, and the game sees one file: %s is used", f->folder,
                f->entries[twins[0]], f->entries[twins[1]], f->entries[twins[0]]);
    return r;
}

void lyt_room_folder_init(wm_ctx *ctx, const char *folder, lyt_room_folder *out)
{
    memset(out, 0, sizeof *out);
    out->ctx = ctx;
    out->folder = folder;
}

void lyt_room_folder_free(lyt_room_folder *f)
{
    for (uint32_t i = 0; i < f->count; i++) wm_free(f->ctx, f->entries[i]);
    wm_free(f->ctx, f->entries);
    wm_name_index_free(f->ctx, &f->index);
    memset(f, 0, sizeof *f);
}

/* folder/<the entry named room.ext, any case>, allocated, or NULL in *out when none. */
static wm_result find_room_file(lyt_room_folder *f, const char *room, const char *ext, char **out)
{
    char *wanted;
    *out = NULL;
    wm_result r = f->listed ? WM_OK : list_folder(f);
    if (r || f->listed < 0) return r;
    if ((r = wm_path_join(f->ctx, NULL, room, ext, &wanted))) return r;
    uint32_t found = wm_name_index_find(&f->index, wanted, strlen(wanted));
    wm_free(f->ctx, wanted);
    return found == UINT32_MAX ? WM_OK : wm_path_join(f->ctx, f->folder, f->entries[found], NULL, out);
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
    lyt_room_folder *f = user;
    char *path = NULL;
    wm_result r = wm_name_check(ctx, room, strlen(room), WM_NAME_COMPONENT, "room");
    if (!r) r = find_room_file(f, room, "wok", &path);
    if (!r && path) {
        bwm_file file;
        r = bwm_read_file(ctx, path, &file);
        if (!r) {
            r = bwm_to_mesh(ctx, &file, room, out); /* .wok vertices are absolute: the layout offset is in them */
            bwm_file_free(ctx, &file);
        }
    } else if (!r && !(r = find_room_file(f, room, "mdl", &path)) && path) {
        r = load_model(ctx, path, position, out);
    } else if (!r) {
        r = wm_error(ctx, WM_ERR_IO, "no %s.wok or %s.mdl in %s", room, room, f->folder);
    }
    wm_free(ctx, path);
    return r;
}

wm_result lyt_assemble_in(wm_ctx *ctx, const wm_layout *layout, const char *folder, wm_mesh *out)
{
    lyt_room_folder rooms;
    lyt_room_folder_init(ctx, folder, &rooms);
    wm_result r = wm_area_assemble(ctx, layout, lyt_load_room_file, &rooms, out);
    lyt_room_folder_free(&rooms);
    return r;
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
    char *beside = NULL;
    const char *rooms = opts ? wm_option_get(opts, "rooms") : NULL;
    wm_mesh_init(out);
    wm_result r = wm_layout_parse(ctx, in->data, in->size, in->name, &layout);
    if (r) return r;
    if (in->source && !rooms)
        r = wm_area_assemble(ctx, &layout, lyt_load_room_beside, (void *)in, out);
    else {
        if (!rooms && !(r = lyt_folder_of(ctx, in->path ? in->path : "", &beside))) rooms = beside;
        if (!r) r = lyt_assemble_in(ctx, &layout, rooms, out);
        wm_free(ctx, beside);
    }
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
    .capabilities = WM_CAN_TRANSITIONS | WM_IS_WALKMESH,
    .probe = lyt_probe,
    .read = lyt_read_hook,
    .options = lyt_options,
};
