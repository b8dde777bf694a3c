/* walkmesh path and walkmesh reach: the shortest route between two points over the walkable
 * faces, and the walkable regions a point cannot reach (wm_route.h), on any file walkmesh
 * reads (a .lyt: the assembled area, its room links crossed). */
#include "cli.h"
#include "report_print.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_RADIUS, OPT_TABLES };

static const cli_option path_options[] = {
    [OPT_RADIUS] = {"--radius", 0, "R", 1,
                    "keep R away from blocking edges where the route crosses a face edge; passages "
                    "narrower than 2R are closed (see docs/routes.md)"},
    [OPT_TABLES] = {"--tables", 0, NULL, 0,
                    "NWN2 .trx: follow the file's stored path tables instead, and say where they and the "
                    "shortest route part"},
    {NULL, 0, NULL, 0, NULL}};

static const cli_spec path_spec = {
    .name = "path",
    .features = CLI_RESULTS | CLI_MESH | CLI_NAVMESH,
    .usage = "Usage: walkmesh path FILE X1,Y1[,Z1] X2,Y2[,Z2] [--radius R] [--tables] [--json]\n\n"
             "The shortest route over the walkable faces of FILE from (X1,Y1) to (X2,Y2), for an agent\n"
             "of no size (or of radius R): its length over the ground and its waypoints (the start,\n"
             "each corner where it turns, the goal). Faces join where they share an edge, and, in an\n"
             "area (.lyt), through the room links. A Z picks the floor nearest to it where floors\n"
             "overlap (default: the highest). --json prints {\"length\": L, \"points\": [[x, y, z], ...]}.\n"
             "FILE may also be a .navmesh, or a collision mesh (WMO, OBJ, glTF ...) of which a navmesh\n"
             "is built with the navmesh options below: Detour's findPath + findStraightPath answer.\n",
    .footer = "Example:\n  walkmesh path m10aa.lyt 80,20 120,-4 --json\n\n"
              "Exit status: 0 a route, 1 usage, 2 unreadable input, 4 unknown format or Recast/Detour not\n"
              "available, 6 no route (the points are not joined, or a point is over no walkable face).\n",
    .options = path_options,
    .min_inputs = 3,
    .max_inputs = 3,
};

static const cli_spec reach_spec = {
    .name = "reach",
    .features = CLI_RESULTS | CLI_MESH | CLI_NAVMESH,
    .usage = "Usage: walkmesh reach FILE X,Y[,Z] [--json]\n\n"
             "The walkable regions of FILE that a character standing at (X,Y) cannot reach: faces\n"
             "joined through the walkmesh's own adjacency (and room links in an area, .lyt), each\n"
             "with its face count, area and a point inside, the largest first. A Z picks the floor\n"
             "as for path. On a .navmesh or a collision mesh (a navmesh built with the options\n"
             "below), a region is the polygons Detour links and its faces their count. --json prints\n"
             "{\"regions\": N, \"unreachable\": [{\"faces\": n, \"area\": a, \"point\": [x, y, z]}, ...]}.\n",
    .footer = "Exit status: 0 done, 1 usage, 2 unreadable input, 4 unknown format or Recast/Detour not\n"
              "available, 6 the point is over no walkable face (no polygon near it).\n",
    .min_inputs = 2,
    .max_inputs = 2,
};

/* "X,Y" or "X,Y,Z": 2 or 3 finite numbers. Returns how many, 0 (reported) when it is not that. */
static int parse_point(const char *command, const char *text, float out[3])
{
    const char *p = text;
    int count = 0;
    while (count < 3) {
        char *end;
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || errno || !isfinite(v) || fabs(v) > WM_COORD_LIMIT)
            break;
        out[count++] = (float)v;
        if (*end != ',') {
            p = end;
            break;
        }
        p = end + 1;
    }
    if (count < 2 || *p) {
        cli_error("%s: '%s' is not a point X,Y or X,Y,Z of finite numbers", command, text);
        return 0;
    }
    if (count == 2)
        out[2] = 0;
    return count;
}


int path_is_navmesh_file(const char *path);
int path_navmesh_of_mesh(wm_ctx *ctx, const cli_args *args, const wm_mesh *mesh, wm_navmesh *out);
int path_navmesh_load(wm_ctx *ctx, const cli_args *args, wm_navmesh *out);
int path_on_navmesh(wm_ctx *ctx, const cli_args *args, wm_navmesh *navmesh, float ends[2][3], const int has_z[2]);

/* What routes run over: a walkmesh's walk graph, else a navmesh (tiles set). */
typedef struct route_ground {
    wm_walk_graph *graph;
    wm_navmesh navmesh;
} route_ground;

/* Reads FILE and joins its walkable faces; a .navmesh, or a collision mesh (built into a
 * navmesh with the Recast options), leaves ground->graph NULL. */
static int load_ground(wm_ctx *ctx, cli_args *args, route_ground *ground)
{
    ground->graph = NULL;
    wm_navmesh_init(&ground->navmesh);
    int code = cli_mesh_options_apply(&args->mesh, ctx);
    if (!code)
        code = cli_check_inputs(args->inputs, 1);
    if (code)
        return code;
    if (path_is_navmesh_file(args->inputs[0]))
        return path_navmesh_load(ctx, args, &ground->navmesh);
    wm_mesh mesh;
    const wm_format *format = NULL;
    wm_result r = cli_load_mesh(ctx, &args->mesh, args->inputs[0], &mesh, &format, NULL);
    if (r)
        return cli_fail(ctx, r, 0);
    if (!format || !(format->capabilities & WM_IS_WALKMESH)) {
        code = path_navmesh_of_mesh(ctx, args, &mesh, &ground->navmesh);
        wm_mesh_free(ctx, &mesh);
        return code;
    }
    r = wm_walk_graph_build(ctx, &mesh, 1, &ground->graph);
    wm_mesh_free(ctx, &mesh);
    if (r) {
        wm_error_prefix(ctx, args->inputs[0]);
        return cli_fail(ctx, r, 0);
    }
    return EXIT_OK;
}

static void ground_free(wm_ctx *ctx, route_ground *ground)
{
    wm_walk_graph_free(ctx, ground->graph);
    wm_navmesh_free(ctx, &ground->navmesh);
}

static void put_points(wm_buffer *out, const float *points, uint32_t count)
{
    wm_put_text(out, "[");
    for (uint32_t i = 0; i < count; i++) {
        wm_put_text(out, i ? ", [" : "[");
        for (int k = 0; k < 3; k++) {
            wm_put_text(out, k ? ", " : "");
            json_float(out, points[3 * (size_t)i + k]);
        }
        wm_put_text(out, "]");
    }
    wm_put_text(out, "]");
}

void path_print_route(wm_buffer *out, int json, const wm_route *route, const char *extra);

void path_print_route(wm_buffer *out, int json, const wm_route *route, const char *extra)
{
    if (json) {
        wm_put_text(out, "{\"length\": ");
        json_number(out, route->length);
        wm_put_text(out, ", \"points\": ");
        put_points(out, route->points, route->count);
        wm_put_text(out, "%s}\n", extra ? extra : "");
        return;
    }
    wm_put_text(out, "length %.6g over %u waypoints\n", route->length, route->count);
    for (uint32_t i = 0; i < route->count; i++) {
        const float *p = route->points + 3 * (size_t)i;
        wm_put_text(out, "%.6g %.6g %.6g\n", p[0], p[1], p[2]);
    }
}

int path_tables(wm_ctx *ctx, const cli_args *args, const float ends[2][3], const wm_route *shortest,
                const wm_walk_graph *graph);

/* Either end over no walkable face, or a route that does not exist: said on stderr, exit 6. */
static int no_route(wm_ctx *ctx, const cli_args *args, wm_result r)
{
    if (r && r != WM_ERR_INVALID)
        return cli_fail(ctx, r, 0);
    if (!r)
        wm_error(ctx, WM_ERR_INVALID, "no route from %s to %s", args->inputs[1], args->inputs[2]);
    wm_error_prefix(ctx, args->inputs[0]);
    cli_error("path: %s", wm_ctx_message(ctx));
    return EXIT_NOT_FOUND;
}

int cmd_path(int argc, char **argv)
{
    cli_args args;
    int code = cli_parse(&path_spec, argc, argv, &args);
    if (code >= 0)
        return code;
    wm_ctx ctx;
    cli_ctx_init(&ctx, args.quiet);
    float ends[2][3];
    wm_route_options options = {0};
    int from_given = parse_point("path", args.inputs[1], ends[0]);
    int to_given = from_given ? parse_point("path", args.inputs[2], ends[1]) : 0;
    if (!to_given)
        code = EXIT_USAGE;
    options.from_has_z = from_given == 3;
    options.to_has_z = to_given == 3;
    const char *radius = cli_value(&args, OPT_RADIUS, 0);
    char *end = NULL;
    double r_value = radius ? strtod(radius, &end) : 0;
    if (code < 0 && radius && (end == radius || *end || !isfinite(r_value) || r_value < 0 || r_value > WM_COORD_LIMIT)) {
        cli_error("path: --radius %s: expected a length of 0 or more", radius);
        code = EXIT_USAGE;
    }
    options.radius = (float)r_value;
    route_ground ground = {0};
    if (code < 0)
        code = load_ground(&ctx, &args, &ground);
    wm_route route = {0};
    if (!code && !ground.graph) {
        const int has_z[2] = {options.from_has_z, options.to_has_z};
        if (radius || args.given[OPT_TABLES]) {
            cli_error("path: %s: %s is for walkmeshes; on a navmesh the agent's size is --agent-radius",
                      args.inputs[0], radius ? "--radius" : "--tables");
            code = EXIT_USAGE;
        } else {
            code = path_on_navmesh(&ctx, &args, &ground.navmesh, ends, has_z);
        }
    } else if (!code) {
        const wm_walk_graph *graph = ground.graph;
        wm_result r = wm_route_find(&ctx, graph, ends[0], ends[1], &options, &route);
        if (r || !route.found)
            code = no_route(&ctx, &args, r);
        else if (args.given[OPT_TABLES])
            code = path_tables(&ctx, &args, ends, &route, graph);
        else {
            wm_buffer out;
            wm_buffer_init(&out, &ctx);
            path_print_route(&out, args.json, &route, NULL);
            fwrite(out.data, 1, out.size, stdout);
            wm_buffer_free(&out);
        }
    }
    wm_route_free(&ctx, &route);
    ground_free(&ctx, &ground);
    cli_args_free(&args, &ctx);
    return code < 0 ? EXIT_USAGE : code;
}

static void print_reach(const cli_args *args, const wm_reach *reach, wm_buffer *out)
{
    if (args->json) {
        wm_put_text(out, "{\"regions\": %u, \"unreachable\": [", reach->region_count);
        for (uint32_t i = 0; i < reach->unreachable_count; i++) {
            const wm_region *g = &reach->unreachable[i];
            wm_put_text(out, "%s{\"faces\": %u, \"area\": ", i ? ", " : "", g->faces);
            json_number(out, g->area);
            wm_put_text(out, ", \"point\": ");
            put_points(out, g->point, 1);
            wm_put_text(out, "}");
        }
        wm_put_text(out, "]}\n");
        return;
    }
    wm_put_text(out, "%u walkable region%s; %u cannot be reached from face %u\n", reach->region_count,
                reach->region_count == 1 ? "" : "s", reach->unreachable_count, reach->start_face);
    for (uint32_t i = 0; i < reach->unreachable_count; i++) {
        const wm_region *g = &reach->unreachable[i];
        wm_put_text(out, "%u faces, area %.6g, at %.6g %.6g %.6g\n", g->faces, g->area, g->point[0], g->point[1],
                    g->point[2]);
    }
}

int cmd_reach(int argc, char **argv)
{
    cli_args args;
    int code = cli_parse(&reach_spec, argc, argv, &args);
    if (code >= 0)
        return code;
    wm_ctx ctx;
    cli_ctx_init(&ctx, args.quiet);
    float at[3];
    int given = parse_point("reach", args.inputs[1], at);
    route_ground ground = {0};
    code = given ? load_ground(&ctx, &args, &ground) : EXIT_USAGE;
    if (!code) {
        wm_reach reach;
        float raised[3] = {at[0], at[1], at[2]};
        wm_navmesh_query query = {0};
        wm_navmesh_query_point(&query, given == 3, raised);
        wm_result r = ground.graph ? wm_reach_find(&ctx, ground.graph, at, given == 3, &reach)
                                   : wm_navmesh_reach(&ctx, &ground.navmesh, &query, raised, &reach);
        if (r == WM_ERR_INVALID) {
            wm_error_prefix(&ctx, args.inputs[0]);
            cli_error("reach: %s", wm_ctx_message(&ctx));
            code = EXIT_NOT_FOUND;
        } else if (r) {
            code = cli_fail(&ctx, r, 0);
        } else {
            wm_buffer out;
            wm_buffer_init(&out, &ctx);
            print_reach(&args, &reach, &out);
            fwrite(out.data, 1, out.size, stdout);
            wm_buffer_free(&out);
        }
        wm_reach_free(&ctx, &reach);
    }
    ground_free(&ctx, &ground);
    cli_args_free(&args, &ctx);
    return code;
}
