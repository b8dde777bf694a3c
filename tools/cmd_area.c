/* walkmesh area: a KotOR area's rooms as one mesh (assemble, with room edits) and back into
 * per-room .wok files (split). */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_MOVE, OPT_ROTATE, OPT_MIRROR, OPT_REMAP, OPT_LAYOUT_OUT, OPT_ROOMS, OPT_TOLERANCE };

static const cli_option area_options[] = {
    [OPT_MOVE] = {"--move", 0, "ROOM=X,Y,Z", 1, "assemble: shift the room (and its layout position)"},
    [OPT_ROTATE] = {"--rotate", 0, "ROOM=DEG", 1, "assemble: turn the room about the vertical through its layout position"},
    [OPT_MIRROR] = {"--mirror", 0, "ROOM=x|y", 1, "assemble: mirror the room across its layout position (faces keep facing up)"},
    [OPT_REMAP] = {"--remap", 0, "OLD=NEW,...", 1, "assemble: room links to room index OLD become links to NEW (every room)"},
    [OPT_LAYOUT_OUT] = {"--layout-out", 0, "NEW.lyt", 1, "assemble: write the edited layout"},
    [OPT_ROOMS] = {"--rooms", 0, "DIR", 1, "assemble: find the rooms' .wok or .mdl in DIR (default: beside the layout)"},
    [OPT_TOLERANCE] = {"--tolerance", 0, "T", 1, "split: how close two rooms' edge ends must be (default 0.001)"},
    {NULL, 0, NULL, 0, NULL}};

static const cli_spec area_spec = {
    .name = "area",
    .features = CLI_WRITES | CLI_MESH,
    .usage = "Usage: walkmesh area assemble LAYOUT.lyt OUT [edits] [--rooms DIR] [--layout-out NEW.lyt] [options]\n"
             "       walkmesh area split AREA LAYOUT.lyt OUTDIR [--tolerance T] [options]\n\n"
             "assemble: every room of the layout (its .wok beside the layout or in --rooms DIR, else its\n"
             "  .mdl placed at the room's layout position) as one mesh, one object per room, in the\n"
             "  layout's order: a transition's room index is the index of the object that names the room.\n"
             "  Edits (--move, --rotate, --mirror, --remap; each may be repeated) apply in the order given.\n"
             "split: the objects of AREA named like the layout's rooms become OUTDIR/<room>.wok; an edge\n"
             "  of a walkable face that meets a walkable face of another room links to that room's\n"
             "  index; links already in AREA are kept.\n",
    .output_help = "OUT|OUTDIR\tthe assembled mesh, or split's folder (instead of the last argument)",
    .footer = "Examples:\n"
              "  walkmesh area assemble m10aa.lyt m10aa.obj --rotate m10aa_01c=90\n"
              "  walkmesh area split m10aa.obj m10aa.lyt rooms/\n\n"
              "Exit status: 0 done, 1 usage, 2 input missing or unreadable, 3 output not written\n"
              "(exists without --force), 4 unsupported format.\n",
    .options = area_options,
    .min_inputs = 1,
    .max_inputs = 4,
};

/* The edits in the order given ("--move", "ROOM=..." pairs): the parser keeps one value per
 * option, so the words it accepted are read again here. Returns the pair count. */
static int collect_edits(int argc, char **argv, const char **edits)
{
    int n = 0;
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *arg = argv[i];
        for (int k = 0; area_options[k].name; k++) {
            size_t len = strlen(area_options[k].name);
            if (strncmp(arg, area_options[k].name, len) != 0 || (arg[len] && arg[len] != '='))
                continue;
            const char *value = arg[len] ? arg + len + 1 : argv[++i];
            if (k <= OPT_REMAP) {
                edits[2 * n] = area_options[k].name;
                edits[2 * n++ + 1] = value;
            }
            break;
        }
        if (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0)
            i++;
    }
    return n;
}

static wm_result remap_links(wm_ctx *ctx, wm_mesh *area, uint32_t rooms, const char *list)
{
    int32_t *map = wm_alloc_array(ctx, (size_t)rooms + 1, sizeof *map);
    if (!map)
        return WM_ERR_NOMEM;
    for (uint32_t i = 0; i < rooms; i++)
        map[i] = (int32_t)i;
    for (const char *p = list; *p;) {
        int from, to, n = 0;
        if (sscanf(p, "%d=%d%n", &from, &to, &n) != 2 || from < 0 || (uint32_t)from >= rooms || to < -1) {
            wm_free(ctx, map);
            return wm_error(ctx, WM_ERR_OPTION, "--remap %s: not OLD=NEW,... with OLD a room index", list);
        }
        map[from] = to;
        p += n;
        if (*p == ',')
            p++;
    }
    wm_room_remap_links(area, WM_ALL_ROOMS, map, rooms);
    wm_free(ctx, map);
    return WM_OK;
}

/* "ROOM=value": the room's layout index (= its object index), and the value. */
static int32_t edit_target(const wm_layout *layout, const char *arg, const char **value)
{
    char room[WM_LAYOUT_NAME];
    const char *eq = strchr(arg, '=');
    if (!eq || (size_t)(eq - arg) >= sizeof room)
        return -1;
    snprintf(room, sizeof room, "%.*s", (int)(eq - arg), arg);
    *value = eq + 1;
    return wm_layout_find_room(layout, room);
}

/* After an edit of room `index`: its layout position and every vertex of the area within
 * WM_COORD_LIMIT (and finite), else the edit is refused by name. */
static wm_result check_edit(wm_ctx *ctx, const wm_mesh *area, const float at[3], const char *kind, const char *arg)
{
    for (uint64_t i = 0; i < 3 + 3 * (uint64_t)area->vertex_count; i++) {
        float value = i < 3 ? at[i] : area->positions[i - 3];
        if (!(fabsf(value) <= WM_COORD_LIMIT))
            return wm_error(ctx, WM_ERR_OPTION, "%s %s: puts %s at %g, beyond %g", kind, arg,
                            i < 3 ? "the room's layout position" : "a vertex", (double)value, (double)WM_COORD_LIMIT);
    }
    return WM_OK;
}

static wm_result move_or_rotate(wm_ctx *ctx, wm_mesh *area, float *at, int32_t index, const char *kind,
                                const char *arg, const char *value)
{
    float v[3];
    char end;
    wm_result r;
    if (strcmp(kind, "--move") == 0) {
        if (sscanf(value, "%f,%f,%f%c", &v[0], &v[1], &v[2], &end) != 3)
            return wm_error(ctx, WM_ERR_OPTION, "--move %s: not ROOM=X,Y,Z", arg);
        for (int k = 0; k < 3; k++)
            at[k] += v[k];
        r = wm_room_move(ctx, area, (uint16_t)index, v);
    } else {
        if (sscanf(value, "%f%c", &v[0], &end) != 1 || !isfinite(v[0]))
            return wm_error(ctx, WM_ERR_OPTION, "--rotate %s: not ROOM=DEGREES", arg);
        r = wm_room_rotate_z(ctx, area, (uint16_t)index, v[0], at);
    }
    return r ? r : check_edit(ctx, area, at, kind, arg);
}

static wm_result apply_edit(wm_ctx *ctx, wm_mesh *area, wm_layout *layout, const char *kind, const char *arg)
{
    const char *value;
    if (strcmp(kind, "--remap") == 0)
        return remap_links(ctx, area, layout->room_count, arg);
    int32_t index = edit_target(layout, arg, &value);
    if (index < 0)
        return wm_error(ctx, WM_ERR_OPTION, "%s %s: not ROOM=VALUE with a room of the layout", kind, arg);
    float *at = layout->rooms[index].position;
    if (strcmp(kind, "--move") == 0 || strcmp(kind, "--rotate") == 0)
        return move_or_rotate(ctx, area, at, index, kind, arg, value);
    int axis = strcmp(value, "x") == 0 ? 0 : strcmp(value, "y") == 0 ? 1 : -1;
    if (axis < 0)
        return wm_error(ctx, WM_ERR_OPTION, "--mirror %s: not ROOM=x or ROOM=y", arg);
    wm_result r = wm_room_mirror(ctx, area, (uint16_t)index, axis, at[axis]);
    return r ? r : check_edit(ctx, area, at, kind, arg); /* mirrored about a far pivot, a vertex goes further */
}

static wm_result write_layout(wm_ctx *ctx, const wm_layout *layout, const char *path, int force)
{
    wm_buffer text;
    wm_result r = wm_layout_serialize(ctx, layout, &text);
    if (!r)
        r = wm_file_write_atomic(ctx, path, text.data, text.size, force);
    wm_buffer_free(&text);
    return r;
}

/* The edits, then the mesh and the edited layout. Returns an exit code. */
static int edit_and_write(wm_ctx *ctx, const cli_args *args, int argc, char **argv, wm_mesh *area,
                          wm_layout *layout, const char *out)
{
    const char **edits = calloc((size_t)argc + 1, sizeof *edits);
    if (!edits)
        return cli_fail(ctx, wm_error(ctx, WM_ERR_NOMEM, "out of memory"), 0);
    int count = collect_edits(argc, argv, edits);
    wm_result r = WM_OK;
    for (int i = 0; !r && i < count; i++)
        r = apply_edit(ctx, area, layout, edits[2 * i], edits[2 * i + 1]);
    free(edits);
    if (r)
        return cli_fail(ctx, r, 0);
    r = wm_mesh_save(ctx, area, out, NULL, &args->mesh.opts, args->force);
    const char *layout_out = cli_value(args, OPT_LAYOUT_OUT, 0);
    if (!r && layout_out)
        r = write_layout(ctx, layout, layout_out, args->force);
    return r ? cli_fail(ctx, r, 1) : EXIT_OK;
}

static int assemble(wm_ctx *ctx, const cli_args *args, int argc, char **argv, const char *out)
{
    const char *path = args->inputs[1], *layout_out = cli_value(args, OPT_LAYOUT_OUT, 0);
    int code = cli_check_inputs(&path, 1);
    if (!code)
        code = cli_check_output(out, args->force);
    if (!code && layout_out)
        code = cli_check_output(layout_out, args->force);
    if (code)
        return code;
    wm_layout layout;
    wm_mesh area;
    wm_result r = wm_layout_load(ctx, path, &layout);
    if (!r && (r = wm_area_assemble_files(ctx, &layout, path, cli_value(args, OPT_ROOMS, 0), &area)) == WM_OK) {
        code = edit_and_write(ctx, args, argc, argv, &area, &layout, out);
        wm_mesh_free(ctx, &area);
    } else {
        code = cli_fail(ctx, r, 0);
    }
    wm_layout_free(ctx, &layout);
    return code;
}

static int split_rooms(wm_ctx *ctx, const cli_args *args, const wm_mesh *area, const char *dir)
{
    const char *tolerance_text = cli_value(args, OPT_TOLERANCE, 0);
    char *end = NULL;
    float tolerance = tolerance_text ? strtof(tolerance_text, &end) : 1e-3f;
    if (tolerance_text && (*end || !(tolerance > 0))) {
        cli_error("area: --tolerance %s: not a positive number", tolerance_text);
        return EXIT_USAGE;
    }
    wm_layout layout;
    wm_result r = wm_layout_load(ctx, args->inputs[2], &layout);
    wm_mesh *rooms = r ? NULL : calloc((size_t)layout.room_count + 1, sizeof *rooms);
    if (!r && !rooms)
        r = wm_error(ctx, WM_ERR_NOMEM, "out of memory");
    if (!r)
        r = wm_area_split(ctx, area, &layout, tolerance, rooms);
    int code = r ? cli_fail(ctx, r, 0) : cli_make_folder(dir);
    if (!r && !code && (r = wm_area_save_rooms(ctx, &layout, rooms, dir, args->force)) != WM_OK)
        code = cli_fail(ctx, r, 1);
    for (uint32_t i = 0; rooms && i < layout.room_count; i++)
        wm_mesh_free(ctx, &rooms[i]);
    free(rooms);
    wm_layout_free(ctx, &layout);
    return code;
}

static int split(wm_ctx *ctx, const cli_args *args, const char *dir)
{
    int code = cli_check_inputs(args->inputs + 1, 2);
    if (code)
        return code;
    wm_mesh area;
    wm_result r = cli_load_mesh(ctx, &args->mesh, args->inputs[1], &area, NULL, NULL);
    if (r)
        return cli_fail(ctx, r, 0);
    code = split_rooms(ctx, args, &area, dir);
    wm_mesh_free(ctx, &area);
    return code;
}

/* The action and its arguments: OUT (OUTDIR) is the last argument or -o. */
static int check_grammar(const cli_args *args, int *assembling, const char **out)
{
    const char *action = args->inputs[0];
    *assembling = strcmp(action, "assemble") == 0;
    if (!*assembling && strcmp(action, "split") != 0) {
        cli_error("area: unknown action '%s': assemble or split (see 'walkmesh area --help')", action);
        return EXIT_USAGE;
    }
    int named = *assembling ? 1 : 2; /* inputs before OUT */
    if (args->input_count == 2 + named && !args->output) {
        *out = args->inputs[1 + named];
        return EXIT_OK;
    }
    if (args->input_count == 1 + named && args->output) {
        *out = args->output;
        return EXIT_OK;
    }
    cli_error("area %s: needs %s (see 'walkmesh area --help')", action,
              *assembling ? "LAYOUT and OUT" : "AREA, LAYOUT and OUTDIR");
    return EXIT_USAGE;
}

int cmd_area(int argc, char **argv)
{
    cli_args args;
    int code = cli_parse(&area_spec, argc, argv, &args);
    if (code >= 0)
        return code;
    wm_ctx ctx;
    cli_ctx_init(&ctx, args.quiet);
    int assembling = 0;
    const char *out = NULL;
    code = check_grammar(&args, &assembling, &out);
    if (!code && assembling && (wm_option_get(&args.mesh.opts, "layout") || wm_option_get(&args.mesh.opts, "room-offset"))) {
        /* accepted as reading options, they would otherwise be ignored here */
        cli_error("area assemble: LAYOUT places every room; --layout and --room-offset place one room model "
                  "(walkmesh convert room.mdl room.wok --layout LAYOUT)");
        code = EXIT_USAGE;
    }
    if (!code)
        code = cli_mesh_options_apply(&args.mesh, &ctx);
    if (!code)
        code = assembling ? assemble(&ctx, &args, argc, argv, out) : split(&ctx, &args, out);
    cli_args_free(&args, &ctx);
    return code;
}
