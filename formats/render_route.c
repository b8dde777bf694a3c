/* render --path on any walkmesh: the shortest route (wm_route.h) drawn over the picture the
 * format drew, with its length in the legend and its waypoints in the picture's facts. On a
 * collision mesh (WMO, OBJ ...), the route Detour finds on a navmesh of it, as `walkmesh path`
 * answers there. */
#include "picture.h"
#include "recast/wm_navmesh.h"
#include "render_route.h"
#include "wm_route.h"

#include <math.h>
#include <stdlib.h>

/* "X1,Y1[,Z1] X2,Y2[,Z2]": each point's coordinates and whether a Z was given. */
static int parse_points(const char *text, float points[2][3], int has_z[2])
{
    const char *p = text;
    for (int i = 0; i < 2; i++) {
        int count = 0;
        while (*p == ' ')
            p++;
        for (;;) {
            char *end;
            double v = strtod(p, &end);
            if (end == p || !isfinite(v) || count == 3)
                return 0;
            points[i][count++] = (float)v;
            p = end;
            if (*p != ',')
                break;
            p++;
        }
        if (count < 2)
            return 0;
        has_z[i] = count == 3;
    }
    while (*p == ' ')
        p++;
    return *p == '\0';
}

static void draw(wm_picture *plot, const wm_route *route)
{
    uint16_t line = wm_picture_style(plot, "gr", "fill:none;stroke:#1565c0;stroke-width:3;stroke-linejoin:round;"
                                                 "stroke-linecap:round;stroke-dasharray:9 4");
    uint16_t from = wm_picture_style(plot, "gs", "fill:#00c853;stroke:#000;stroke-width:1.5");
    uint16_t to = wm_picture_style(plot, "ge", "fill:#1565c0;stroke:#000;stroke-width:1.5");
    wm_picture_line(plot, line, route->points, route->count, 0);
    wm_picture_dot(plot, from, route->points, 6, WM_PIC_MARK_DOT);
    wm_picture_dot(plot, to, route->points + 3 * (size_t)(route->count - 1), 6, WM_PIC_MARK_DOT);
    wm_picture_legend(plot, WM_PIC_LEGEND_LINE, line, "shortest route: %.2f long, %u corners", route->length,
                      route->count > 2 ? route->count - 2 : 0);
    wm_picture_describe(plot, "shortest route length %.6g", route->length);
    for (uint32_t i = 0; i < route->count; i++) {
        const float *p = route->points + 3 * (size_t)i;
        wm_picture_describe(plot, "shortest route point %.6g %.6g %.6g", p[0], p[1], p[2]);
    }
}

/* A navmesh of the collision mesh with Recast's defaults (what `walkmesh path` builds without
 * options), and Detour's findPath + findStraightPath on it; a point without a Z finds the
 * highest floor under it. A point with no polygon near it, or a route that stops short, is no
 * route. */
static wm_result navmesh_route(wm_ctx *ctx, const wm_mesh *mesh, float points[2][3], const int has_z[2],
                               wm_route *route)
{
    wm_navmesh_config config;
    wm_navmesh_config_recast(&config);
    wm_navmesh nav;
    wm_navmesh_init(&nav);
    wm_result r = wm_navmesh_build(ctx, mesh, &config, &nav);
    wm_navmesh_query query = {0};
    for (int i = 0; i < 2; i++)
        wm_navmesh_query_point(&query, has_z[i], points[i]);
    if (!r && (r = wm_navmesh_route(ctx, &nav, &query, points[0], points[1], route)) == WM_ERR_INVALID)
        r = WM_OK; /* no polygon near a point */
    wm_navmesh_free(ctx, &nav);
    return r;
}

wm_result wm_render_route(wm_ctx *ctx, const wm_input *in, const wm_format *format, const wm_options *opts,
                          wm_picture *plot)
{
    const char *text = wm_option_get(opts, "path");
    if (!text)
        return WM_OK;
    float points[2][3];
    int has_z[2];
    if (!parse_points(text, points, has_z))
        return wm_error(ctx, WM_ERR_OPTION, "--path %s: expected X1,Y1[,Z1] X2,Y2[,Z2]", text);
    if (!format->read)
        return wm_error(ctx, WM_ERR_OPTION, "--path: %s files are not read", format->name);
    wm_mesh mesh;
    wm_result r = format->read(ctx, in, opts, &mesh, NULL);
    if (r)
        return r;
    wm_walk_graph *graph = NULL;
    wm_route route = {0};
    wm_route_options o = {has_z[0], has_z[1], 0};
    float asked[2][2] = {{points[0][0], points[0][1]}, {points[1][0], points[1][1]}};
    if (!(format->capabilities & WM_IS_WALKMESH))
        r = navmesh_route(ctx, &mesh, points, has_z, &route);
    else if (!(r = wm_walk_graph_build(ctx, &mesh, 1, &graph)))
        r = wm_route_find(ctx, graph, points[0], points[1], &o, &route);
    wm_mesh_free(ctx, &mesh);
    if (!r && route.found)
        draw(plot, &route);
    else if (!r)
        wm_picture_legend(plot, WM_PIC_LEGEND_TEXT, 0, "no route from (%g, %g) to (%g, %g)", asked[0][0],
                          asked[0][1], asked[1][0], asked[1][1]);
    if (!r && !route.found)
        wm_picture_describe(plot, "shortest route none");
    wm_route_free(ctx, &route);
    wm_walk_graph_free(ctx, graph);
    return r;
}
