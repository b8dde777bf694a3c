/* Plane geometry of the route search: the goal across a window, the lower bound through a
 * window, where a ray leaves a face. */
#include "route_search_internal.h"

#include <math.h>

/* The goal as a route from r through the window a-b must reach it: reflected across the
 * window's line when r and the goal lie on the same side of it. */
static void goal_across(const double r[2], const double a[2], const double b[2], const double goal[2], double out[2])
{
    out[0] = goal[0], out[1] = goal[1];
    if (!(route_cross(a, b, r) * route_cross(a, b, goal) > 0))
        return;
    double dx = b[0] - a[0], dy = b[1] - a[1]; /* a != b: r lies off their line */
    double k = ((goal[0] - a[0]) * dx + (goal[1] - a[1]) * dy) / (dx * dx + dy * dy);
    out[0] = 2 * (a[0] + k * dx) - goal[0];
    out[1] = 2 * (a[1] + k * dy) - goal[1];
}

/* A lower bound of the plan length from root through the window a-b to the goal. */
double route_estimate(const double r[2], const double a[2], const double b[2], const double goal[2], int folded)
{
    double t[2] = {goal[0], goal[1]};
    if (!folded)
        goal_across(r, a, b, goal, t);
    double ca = route_cross(r, a, t), cb = route_cross(r, b, t);
    if ((ca <= 0 && cb >= 0) || (ca >= 0 && cb <= 0))
        return route_dist(r, t);
    double via_a = route_dist(r, a) + route_dist(a, t), via_b = route_dist(r, b) + route_dist(b, t);
    return via_a < via_b ? via_a : via_b;
}

/* Where the ray from r through p (on the face's entry edge) leaves the face: a position on
 * its far border, 0..1 along edge+1 (from its second vertex), 1..2 along edge+2. */
double route_exit_position(const route_search *s, uint32_t face, uint32_t edge, const double r[2], const double p[2])
{
    double v[3][2], d[2] = {p[0] - r[0], p[1] - r[1]};
    for (uint32_t i = 0; i < 3; i++)
        route_vertex2(s->graph, face, edge + i, v[i]);
    double best = 1, best_miss = INFINITY, best_t = -INFINITY;
    for (uint32_t side = 0; side < 2; side++) {
        const double *x = v[1 + side], *y = v[(2 + side) % 3];
        double e[2] = {y[0] - x[0], y[1] - x[1]};
        double denom = e[0] * d[1] - e[1] * d[0];
        if (fabs(denom) < 1e-18)
            continue;
        double u = ((r[0] - x[0]) * d[1] - (r[1] - x[1]) * d[0]) / denom;
        double t = ((r[0] - x[0]) * e[1] - (r[1] - x[1]) * e[0]) / denom;
        double miss = u < -1e-12 ? -u : u > 1 + 1e-12 ? u - 1 : 0;
        /* a ray through an end of the entry edge meets the far border there too: the exit is the
         * farther meeting along the ray */
        if (miss < best_miss || (miss == best_miss && t > best_t)) {
            best_miss = miss;
            best_t = t;
            best = side + (u < 0 ? 0 : u > 1 ? 1 : u);
        }
    }
    return best;
}

/* The point of window a-b where a line from r touching it and going on to goal is shortest:
 * where r and goal (reflected across the window's line when on r's side) see each other. */
void route_touch_point(const double r[2], const double a[2], const double b[2], const double goal[2], double out[2])
{
    double d[2] = {b[0] - a[0], b[1] - a[1]}, len2 = d[0] * d[0] + d[1] * d[1];
    double target[2], side_r = route_cross(a, b, r);
    goal_across(r, a, b, goal, target);
    double side_t = route_cross(a, b, target), u = side_r != side_t ? side_r / (side_r - side_t) : 0;
    double hit[2] = {r[0] + u * (target[0] - r[0]), r[1] + u * (target[1] - r[1])};
    double along = len2 > 0 ? ((hit[0] - a[0]) * d[0] + (hit[1] - a[1]) * d[1]) / len2 : 0;
    along = along < 0 ? 0 : along > 1 ? 1 : along;
    out[0] = a[0] + along * d[0];
    out[1] = a[1] + along * d[1];
}

/* Whether p, on the line of x-y, lies between them and not on either. */
int route_strictly_between(const double p[2], const double x[2], const double y[2])
{
    double d[2] = {y[0] - x[0], y[1] - x[1]}, len2 = d[0] * d[0] + d[1] * d[1];
    double u = len2 > 0 ? ((p[0] - x[0]) * d[0] + (p[1] - x[1]) * d[1]) / len2 : 0;
    return u > 1e-9 && u < 1 - 1e-9;
}

double route_segment_distance(const double r[2], const double a[2], const double b[2])
{
    double d[2] = {b[0] - a[0], b[1] - a[1]}, len2 = d[0] * d[0] + d[1] * d[1];
    double u = len2 > 0 ? ((r[0] - a[0]) * d[0] + (r[1] - a[1]) * d[1]) / len2 : 0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    double p[2] = {a[0] + u * d[0], a[1] + u * d[1]};
    return route_dist(r, p);
}
