/* path and reach over a navmesh: a .navmesh file, or one Recast builds on the fly from a
 * collision mesh (a WMO, OBJ, glTF ...), queried through Detour (wm_navmesh.h). */
#include "cli.h"

#include <math.h>
#include <string.h>

int path_is_navmesh_file(const char *path);
int path_navmesh_of_mesh(wm_ctx *ctx, const cli_args *args, const wm_mesh *mesh, wm_navmesh *out);
int path_navmesh_load(wm_ctx *ctx, const cli_args *args, wm_navmesh *out);
void path_print_route(wm_buffer *out, int json, const wm_route *route, const char *extra);
int path_on_navmesh(wm_ctx *ctx, const cli_args *args, wm_navmesh *navmesh, float ends[2][3], const int has_z[2]);

int path_is_navmesh_file(const char *path)
{
    const char *dot = strrchr(wm_path_file_name(path), '.');
    return dot && strcmp(dot, ".navmesh") == 0;
}

int path_navmesh_load(wm_ctx *ctx, const cli_args *args, wm_navmesh *out)
{
    wm_navmesh_init(out);
    wm_result r = wm_navmesh_load(ctx, args->inputs[0], out);
    return r ? cli_fail(ctx, r, 0) : EXIT_OK;
}

int path_navmesh_of_mesh(wm_ctx *ctx, const cli_args *args, const wm_mesh *mesh, wm_navmesh *out)
{
    wm_navmesh_init(out);
    wm_navmesh_config config;
    int code = cli_navmesh_config(args, &config);
    if (code)
        return code;
    wm_result r = wm_navmesh_build(ctx, mesh, &config, out);
    if (r) {
        wm_error_prefix(ctx, args->inputs[0]);
        return cli_fail(ctx, r, 0);
    }
    return EXIT_OK;
}

/* Each end must have a polygon near it; said in the user's own terms (not the raised point). */
static int check_end(wm_ctx *ctx, const cli_args *args, wm_navmesh *navmesh, const wm_navmesh_query *query,
                     const float at[3], int which)
{
    int found = 0;
    wm_navmesh_poly poly;
    float on[3];
    wm_result r = wm_navmesh_nearest(ctx, navmesh, query, at, &found, &poly, on);
    if (r)
        return r == WM_ERR_INVALID ? EXIT_NOT_FOUND : cli_fail(ctx, r, 0);
    if (found)
        return EXIT_OK;
    cli_error("path: %s: no navmesh polygon within 2 units across%s of %s (%s)", args->inputs[0],
              query->search[2] > 0 ? "" : " and 4 up or down", which ? "the goal" : "the start",
              args->inputs[1 + which]);
    return EXIT_NOT_FOUND;
}

/* Detour's findPath + findStraightPath; a route that stops short of the goal is no route. */
int path_on_navmesh(wm_ctx *ctx, const cli_args *args, wm_navmesh *navmesh, float ends[2][3], const int has_z[2])
{
    wm_navmesh_query query = {0}; /* one search box serves both ends: the wider one */
    for (int which = 0; which < 2; which++)
        wm_navmesh_query_point(&query, has_z[which], ends[which]);
    for (int which = 0; which < 2; which++) {
        int code = check_end(ctx, args, navmesh, &query, ends[which], which);
        if (code)
            return code;
    }
    wm_route route;
    wm_result r = wm_navmesh_route(ctx, navmesh, &query, ends[0], ends[1], &route);
    if (r == WM_ERR_UNSUPPORTED || (r && r != WM_ERR_INVALID))
        return cli_fail(ctx, r, 0);
    if (r || !route.found) {
        if (!r)
            wm_error(ctx, WM_ERR_INVALID, "no route from %s to %s (Detour's route ends as near as it gets)",
                     args->inputs[1], args->inputs[2]);
        wm_error_prefix(ctx, args->inputs[0]);
        cli_error("path: %s", wm_ctx_message(ctx));
        return EXIT_NOT_FOUND;
    }
    wm_buffer out;
    wm_buffer_init(&out, ctx);
    path_print_route(&out, args->json, &route, NULL);
    fwrite(out.data, 1, out.size, stdout);
    wm_buffer_free(&out);
    wm_route_free(ctx, &route);
    return EXIT_OK;
}
