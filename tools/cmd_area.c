/* walkmesh area: a KotOR area's rooms as one mesh (assemble, with room
 * edits) and back into per-room .wok files (split). */
#include "cli.h"
#include "bwm/bwm.h"
#include "lyt/lyt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void help(void)
{
    printf("Usage: walkmesh area assemble LAYOUT.lyt OUT [edits] [--rooms DIR] [--layout-out NEW.lyt] [options]\n"
           "       walkmesh area split AREA LAYOUT.lyt OUTDIR [--tolerance T] [options]\n\n"
           "assemble: every room of the layout (its .wok beside the layout or in --rooms DIR, else its\n"
           "  .mdl placed at the room's layout position) as one mesh, one object per room, in the\n"
           "  layout's order: a transition's room index is the index of the object that names the room.\n"
           "split: the objects of AREA named like the layout's rooms become OUTDIR/<room>.wok; an edge\n"
           "  of a walkable face that meets a walkable face of another room links to that room's\n"
           "  index; links already in AREA are kept.\n\n"
           "Edits (assemble; in the order given; the layout's room position follows --move):\n"
           "  --move ROOM=X,Y,Z      shift the room\n"
           "  --rotate ROOM=DEG      turn the room about the vertical through its layout position\n"
           "  --mirror ROOM=x|y      mirror the room across its layout position (winding kept upward)\n"
           "  --remap OLD=NEW,...    room links to room OLD become links to NEW (every room)\n"
           "  --layout-out FILE      write the edited layout\n"
           "  --tolerance T          split: how close two rooms' edge ends must be (default 0.001)\n");
    cli_print_mesh_options_help();
}

typedef struct area_args {
    const char *positional[3];
    int count;
    const char *layout_out;
    float tolerance;
    char **edits; /* "--move", "ROOM=..." pairs, in order */
    int edit_count;
} area_args;

static int parse_args(int argc, char **argv, cli_mesh_options *o, area_args *a)
{
    for (int i = 2; i < argc; i++) {
        int used = cli_parse_mesh_option(o, argc, argv, &i);
        if (used < 0) return EXIT_USAGE;
        if (used) continue;
        const char *arg = argv[i];
        int edit = !strcmp(arg, "--move") || !strcmp(arg, "--rotate") || !strcmp(arg, "--mirror") || !strcmp(arg, "--remap");
        if (edit || !strcmp(arg, "--layout-out") || !strcmp(arg, "--tolerance")) {
            if (i + 1 >= argc) {
                cli_error("%s needs a value", arg);
                return EXIT_USAGE;
            }
            if (edit) {
                a->edits[a->edit_count++] = argv[i];
                a->edits[a->edit_count++] = argv[i + 1];
            } else if (!strcmp(arg, "--layout-out")) {
                a->layout_out = argv[i + 1];
            } else if (sscanf(argv[i + 1], "%f", &a->tolerance) != 1 || !(a->tolerance > 0)) {
                cli_error("--tolerance: \"%s\" is not a positive number", argv[i + 1]);
                return EXIT_USAGE;
            }
            i++;
        } else if (arg[0] == '-' && arg[1]) {
            cli_error("area: unknown option '%s' (see 'walkmesh area --help')", arg);
            return EXIT_USAGE;
        } else if (a->count < 3) {
            a->positional[a->count++] = arg;
        } else {
            cli_error("area: too many arguments (see 'walkmesh area --help')");
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

/* "ROOM=value": the room's object index (= its layout index) and the value. */
static int edit_target(const wm_layout *layout, const char *arg, char *room, size_t size, const char **value)
{
    const char *eq = strchr(arg, '=');
    if (!eq || (size_t)(eq - arg) >= size) return -1;
    snprintf(room, size, "%.*s", (int)(eq - arg), arg);
    *value = eq + 1;
    return wm_layout_find_room(layout, room);
}

static wm_result remap_links(wm_ctx *ctx, wm_mesh *area, uint32_t rooms, const char *list)
{
    int32_t *map = wm_alloc_array(ctx, (size_t)rooms + 1, sizeof *map);
    if (!map) return WM_ERR_NOMEM;
    for (uint32_t i = 0; i < rooms; i++) map[i] = (int32_t)i;
    for (const char *p = list; *p;) {
        int from, to, n = 0;
        if (sscanf(p, "%d=%d%n", &from, &to, &n) != 2 || from < 0 || (uint32_t)from >= rooms || to < -1) {
            wm_free(ctx, map);
            return wm_error(ctx, WM_ERR_OPTION, "--remap: \"%s\" is not OLD=NEW,... with OLD a room index", list);
        }
        map[from] = to;
        p += n;
        if (*p == ',') p++;
    }
    wm_room_remap_links(area, WM_ALL_ROOMS, map, rooms);
    wm_free(ctx, map);
    return WM_OK;
}

static wm_result apply_edit(wm_ctx *ctx, wm_mesh *area, wm_layout *layout, const char *kind, const char *arg)
{
    char room[WM_LAYOUT_NAME];
    const char *value;
    if (!strcmp(kind, "--remap")) return remap_links(ctx, area, layout->room_count, arg);
    int32_t index = edit_target(layout, arg, room, sizeof room, &value);
    if (index < 0) return wm_error(ctx, WM_ERR_OPTION, "%s %s: not ROOM=VALUE with a room of the layout", kind, arg);
    float *at = layout->rooms[index].position, v[3];
    if (!strcmp(kind, "--move")) {
        if (sscanf(value, "%f,%f,%f", &v[0], &v[1], &v[2]) != 3)
            return wm_error(ctx, WM_ERR_OPTION, "--move %s: not ROOM=X,Y,Z", arg);
        for (int k = 0; k < 3; k++) at[k] += v[k];
        return wm_room_move(ctx, area, (uint16_t)index, v);
    }
    if (!strcmp(kind, "--rotate")) {
        if (sscanf(value, "%f", &v[0]) != 1) return wm_error(ctx, WM_ERR_OPTION, "--rotate %s: not ROOM=DEGREES", arg);
        return wm_room_rotate_z(ctx, area, (uint16_t)index, v[0], at);
    }
    int axis = !strcmp(value, "x") ? 0 : !strcmp(value, "y") ? 1 : -1;
    if (axis < 0) return wm_error(ctx, WM_ERR_OPTION, "--mirror %s: not ROOM=x or ROOM=y", arg);
    return wm_room_mirror(ctx, area, (uint16_t)index, axis, at[axis]);
}

static wm_result write_layout(wm_ctx *ctx, const wm_layout *layout, const char *path, int force)
{
    wm_buffer text;
    wm_result r = wm_layout_serialize(ctx, layout, &text);
    if (r) return r;
    r = wm_file_write_atomic(ctx, path, text.data, text.size, force);
    wm_buffer_free(&text);
    return r;
}

static int assemble(wm_ctx *ctx, cli_mesh_options *o, const area_args *a)
{
    wm_layout layout;
    wm_mesh area;
    char folder[1024];
    const char *rooms = wm_option_get(&o->opts, "rooms");
    wm_result r = lyt_read_file(ctx, a->positional[0], &layout);
    if (r) return cli_fail(ctx, r, 0);
    if (rooms)
        snprintf(folder, sizeof folder, "%s", rooms);
    else
        lyt_folder_of(a->positional[0], folder, sizeof folder);
    r = wm_area_assemble(ctx, &layout, lyt_load_room_file, folder, &area);
    if (r) {
        wm_layout_free(ctx, &layout);
        return cli_fail(ctx, r, 0);
    }
    for (int i = 0; !r && i < a->edit_count; i += 2) r = apply_edit(ctx, &area, &layout, a->edits[i], a->edits[i + 1]);
    int code = r ? cli_fail(ctx, r, 0) : EXIT_OK;
    if (!code && (r = wm_mesh_save(ctx, &area, a->positional[1], o->to, &o->opts, o->force)))
        code = cli_fail(ctx, r, 1);
    if (!code && a->layout_out && (r = write_layout(ctx, &layout, a->layout_out, o->force))) code = cli_fail(ctx, r, 1);
    wm_mesh_free(ctx, &area);
    wm_layout_free(ctx, &layout);
    return code;
}

/* Each room's mesh as OUTDIR/<room>.wok, built without welding (the area holds the rooms' own vertices). */
static wm_result write_rooms(wm_ctx *ctx, const wm_layout *layout, wm_mesh *rooms, const char *dir, int force)
{
    wm_result r = WM_OK;
    for (uint32_t i = 0; !r && i < layout->room_count; i++) {
        if (rooms[i].triangle_count == 0) continue;
        char path[1024];
        bwm_file file;
        snprintf(path, sizeof path, "%s/%s.wok", dir, layout->rooms[i].name);
        r = bwm_from_mesh_exact(ctx, &rooms[i], BWM_TYPE_AREA, BWM_PLANES_BIOWARE, NULL, &file);
        if (!r) {
            r = bwm_write_file(ctx, &file, path, force);
            bwm_file_free(ctx, &file);
        }
        if (r) wm_error_prefix(ctx, path);
    }
    return r;
}

static int split(wm_ctx *ctx, cli_mesh_options *o, const area_args *a)
{
    wm_layout layout;
    wm_mesh area;
    int code = cli_load_mesh(ctx, a->positional[0], o->from, &o->opts, &area, NULL);
    if (code) return code;
    wm_result r = lyt_read_file(ctx, a->positional[1], &layout);
    wm_mesh *rooms = r ? NULL : calloc((size_t)layout.room_count + 1, sizeof *rooms);
    if (!r && !rooms) r = WM_ERR_NOMEM;
    if (!r) r = wm_area_split(ctx, &area, &layout, a->tolerance, rooms);
    if (r) {
        code = cli_fail(ctx, r, 0);
    } else {
        r = write_rooms(ctx, &layout, rooms, a->positional[2], o->force);
        if (r) code = cli_fail(ctx, r, 1);
        for (uint32_t i = 0; i < layout.room_count; i++) wm_mesh_free(ctx, &rooms[i]);
    }
    free(rooms);
    wm_layout_free(ctx, &layout);
    wm_mesh_free(ctx, &area);
    return code;
}

int cmd_area(int argc, char **argv)
{
    cli_mesh_options o;
    area_args a;
    memset(&a, 0, sizeof a);
    a.tolerance = 1e-3f;
    if (argc < 2 || cli_is_help(argv[1])) {
        help();
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    int assembling = !strcmp(argv[1], "assemble");
    if (!assembling && strcmp(argv[1], "split") != 0) {
        cli_error("area: unknown action '%s': assemble or split (see 'walkmesh area --help')", argv[1]);
        return EXIT_USAGE;
    }
    cli_mesh_options_init(&o);
    a.edits = calloc((size_t)argc + 1, sizeof *a.edits);
    int code = a.edits ? parse_args(argc, argv, &o, &a) : EXIT_INPUT;
    if (!code && a.count != (assembling ? 2 : 3)) {
        cli_error("area %s: needs %s (see 'walkmesh area --help')", argv[1],
                  assembling ? "LAYOUT and OUT" : "AREA, LAYOUT and OUTDIR");
        code = EXIT_USAGE;
    }
    wm_ctx ctx;
    cli_ctx_init(&ctx, o.quiet);
    if (!code) code = cli_mesh_options_apply(&o, &ctx);
    if (!code) code = assembling ? assemble(&ctx, &o, &a) : split(&ctx, &o, &a);
    cli_mesh_options_free(&o, &ctx);
    free(a.edits);
    return code;
}
