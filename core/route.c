/* wm_route_find: the points checked and located, the search, and the route's length over
 * the ground (each straight leg followed across the faces it crosses). */
#include "route_search_internal.h"

#include <math.h>
#include <string.h>

static int finite3(const float p[3], int has_z)
{
    return isfinite(p[0]) && isfinite(p[1]) && (!has_z || isfinite(p[2]));
}

static wm_result locate_end(wm_ctx *ctx, const wm_walk_graph *g, const float p[3], int has_z, const char *which,
                            uint32_t *face, float out[3])
{
    float height;
    wm_result r = wm_walk_locate(ctx, g, p, has_z, face, &height);
    if (r)
        return r;
    if (*face == WM_NO_REGION)
        return wm_error(ctx, WM_ERR_INVALID, "the %s point (%g, %g) is over no walkable face", which, p[0], p[1]);
    out[0] = p[0];
    out[1] = p[1];
    out[2] = height;
    return WM_OK;
}

/* The edge of face that the leg from p toward q leaves it through (entered: the edge it came
 * in by, or 3), or 3 when q lies in the face. *at is where the leg came in (a parameter on it):
 * the crossing is no nearer p than that (a face wound the other way round beside it must not
 * send the walk back), and *at becomes it. */
static uint32_t leaving_edge(const wm_walk_graph *g, uint32_t face, uint32_t entered, const double p[2],
                             const double q[2], double *at)
{
    const float *v[3] = {walk_vertex(g, face, 0), walk_vertex(g, face, 1), walk_vertex(g, face, 2)};
    float qf[3] = {(float)q[0], (float)q[1], 0};
    if (wm_point_in_tri_xy(v[0], v[1], v[2], qf[0], qf[1], 1e-6f))
        return 3;
    uint32_t best = 3;
    double best_miss = INFINITY, d[2] = {q[0] - p[0], q[1] - p[1]}, came_in = *at;
    for (uint32_t k = 0; k < 3; k++) {
        if (k == entered)
            continue;
        const float *x = v[k], *y = v[(k + 1) % 3];
        double e[2] = {y[0] - x[0], y[1] - x[1]}, denom = e[0] * d[1] - e[1] * d[0];
        if (fabs(denom) < 1e-18)
            continue;
        double u = ((p[0] - x[0]) * d[1] - (p[1] - x[1]) * d[0]) / denom;
        double t = ((p[0] - x[0]) * e[1] - (p[1] - x[1]) * e[0]) / denom;
        double miss = (u < 0 ? -u : u > 1 ? u - 1 : 0) + (g->neighbour[3 * (size_t)face + k] < 0 ? 1e-6 : 0);
        if (t > came_in - 1e-9 && miss < best_miss) {
            best_miss = miss;
            best = k;
            *at = t < 0 ? 0 : t > 1 ? 1 : t;
        }
    }
    return best;
}

static void add_face(wm_ctx *ctx, wm_route *route, uint32_t face, uint32_t *capacity)
{
    if (route->face_count && route->faces[route->face_count - 1] == face)
        return;
    if (route->face_count == *capacity) {
        uint32_t wanted = *capacity ? *capacity * 2 : 64;
        uint32_t *bigger = wm_realloc_array(ctx, route->faces, wanted, sizeof *bigger);
        if (!bigger)
            return; /* the list stays short; the route and its length do not depend on it */
        route->faces = bigger;
        *capacity = wanted;
    }
    route->faces[route->face_count++] = face;
}

/* The 3-D length of the straight leg a-b in plan, across the faces from face on. */
static double ground_leg(wm_ctx *ctx, const wm_walk_graph *g, uint32_t face, const float a[3], const float b[3],
                         wm_route *route, uint32_t *capacity)
{
    add_face(ctx, route, face, capacity);
    double p[2] = {a[0], a[1]}, q[2] = {b[0], b[1]}, length = 0;
    double from[3] = {a[0], a[1], a[2]};
    uint32_t entered = 3;
    double at = 0;
    for (uint32_t steps = 0; steps <= g->triangle_count; steps++) {
        uint32_t k = leaving_edge(g, face, entered, p, q, &at);
        int32_t next = k < 3 ? g->neighbour[3 * (size_t)face + k] : -1;
        if (k == 3 || next < 0)
            break;
        double x = a[0] + at * (b[0] - a[0]), y = a[1] + at * (b[1] - a[1]);
        double z = walk_face_height(g, face, x, y);
        length += sqrt((x - from[0]) * (x - from[0]) + (y - from[1]) * (y - from[1]) + (z - from[2]) * (z - from[2]));
        from[0] = x;
        from[1] = y;
        from[2] = walk_face_height(g, (uint32_t)next / 3, x, y);
        length += fabs(from[2] - z); /* up or down a face standing on edge between the two */
        face = (uint32_t)next / 3;
        add_face(ctx, route, face, capacity);
        entered = (uint32_t)next % 3;
    }
    return length + sqrt((b[0] - from[0]) * (b[0] - from[0]) + (b[1] - from[1]) * (b[1] - from[1]) +
                         (b[2] - from[2]) * (b[2] - from[2]));
}

/* The face each waypoint's leg starts in: the start's, then the one whose plan holds the point
 * and lies in the route's region (the nearest in height when floors overlap). */
static void measure(wm_ctx *ctx, const wm_walk_graph *g, wm_route *route)
{
    uint32_t face = route->start_face, region = g->region[face], capacity = 0;
    for (uint32_t i = 0; i + 1 < route->count; i++) {
        const float *a = route->points + 3 * (size_t)i, *b = a + 3;
        route->plan_length += hypot((double)b[0] - a[0], (double)b[1] - a[1]);
        if (i > 0) {
            uint32_t here = WM_NO_REGION;
            float height;
            if (!wm_walk_locate(ctx, g, a, 1, &here, &height) && here != WM_NO_REGION && g->region[here] == region)
                face = here;
        }
        route->length += ground_leg(ctx, g, face, a, b, route, &capacity);
    }
}

wm_result wm_route_find(wm_ctx *ctx, const wm_walk_graph *g, const float from[3], const float to[3],
                        const wm_route_options *options, wm_route *out)
{
    memset(out, 0, sizeof *out);
    wm_route_options none = {0};
    const wm_route_options *o = options ? options : &none;
    if (!g || !from || !to)
        return wm_error(ctx, WM_ERR_INVALID, "route: no graph or point");
    if (!finite3(from, o->from_has_z) || !finite3(to, o->to_has_z))
        return wm_error(ctx, WM_ERR_INVALID, "route: a point is not finite");
    if (!isfinite(o->radius) || o->radius < 0)
        return wm_error(ctx, WM_ERR_INVALID, "route: the radius %g is not a finite length >= 0", o->radius);
    float start[3], goal[3];
    wm_result r = locate_end(ctx, g, from, o->from_has_z, "start", &out->start_face, start);
    if (!r)
        r = locate_end(ctx, g, to, o->to_has_z, "goal", &out->goal_face, goal);
    if (r || g->region[out->start_face] != g->region[out->goal_face])
        return r;
    if (out->start_face == out->goal_face) {
        out->points = wm_alloc_array(ctx, 6, sizeof *out->points);
        if (!out->points)
            return WM_ERR_NOMEM;
        memcpy(out->points, start, sizeof start);
        memcpy(out->points + 3, goal, sizeof goal);
        out->count = 2;
        out->found = 1;
    } else if ((r = route_search_run(ctx, g, start, goal, o->radius, out)) != WM_OK) {
        wm_route_free(ctx, out);
        return r;
    }
    if (out->found)
        measure(ctx, g, out);
    return WM_OK;
}

void wm_route_free(const wm_ctx *ctx, wm_route *route)
{
    if (!route)
        return;
    wm_free(ctx, route->points);
    wm_free(ctx, route->faces);
    route->points = NULL;
    route->faces = NULL;
    route->face_count = 0;
    route->count = 0;
    route->found = 0;
}
