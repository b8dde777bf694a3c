/* The shortest route in plan over walkable faces: a search over windows of
 * portals seen from turning points (the any-angle search known as Polyanya,
 * Cui, Harabor and Grastien 2017): a window is followed across each face
 * while the root sees it, and the route turns only at a portal's end beside
 * a corner vertex (one on the border of the walkable ground). Exact for a
 * point agent up to the 1 mm the turning points keep from their corners. */
#include "route_search_internal.h"

#include <math.h>
#include <string.h>


static double cross(const double o[2], const double a[2], const double b[2])
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/* sqrt, not hypot: the coordinates come from floats, whose squares (up to 1.2e77) fit a double
 * with room to spare; hypot's care for overflow cost a sixth of a route's time. */
static double dist(const double a[2], const double b[2])
{
    double dx = a[0] - b[0], dy = a[1] - b[1];
    return sqrt(dx * dx + dy * dy);
}

static void vertex2(const wm_walk_graph *g, uint32_t face, uint32_t corner, double out[2])
{
    const float *v = walk_vertex(g, face, corner % 3);
    out[0] = v[0];
    out[1] = v[1];
}

static uint32_t vertex_of(const route_search *s, uint32_t face, uint32_t corner)
{
    return s->graph->indices[3 * (size_t)face + corner % 3];
}

/* A radius keeps portals that far from their corner vertices. */
static double corner_gap(const route_search *s, uint32_t face, uint32_t corner)
{
    return s->graph->corner[vertex_of(s, face, corner)] ? s->radius : 0;
}

/* The part of edge k of face (parameter 0 at its first vertex) a route may cross:
 * 0 when the edge joins no walkable face or is too short for the gaps at its ends. */
static int portal_range(const route_search *s, uint32_t face, uint32_t k, double *lo, double *hi)
{
    if (s->graph->neighbour[3 * (size_t)face + k] < 0)
        return 0;
    double x[2], y[2];
    vertex2(s->graph, face, k, x);
    vertex2(s->graph, face, k + 1, y);
    double length = dist(x, y);
    if (!(length > 0))
        return 0;
    *lo = corner_gap(s, face, k) / length;
    *hi = 1.0 - corner_gap(s, face, k + 1) / length;
    return *hi - *lo > 1e-9;
}

/* The goal as a route from r through the window a-b must reach it: reflected across the
 * window's line when r and the goal lie on the same side of it. */
static void goal_across(const double r[2], const double a[2], const double b[2], const double goal[2], double out[2])
{
    out[0] = goal[0], out[1] = goal[1];
    if (!(cross(a, b, r) * cross(a, b, goal) > 0))
        return;
    double dx = b[0] - a[0], dy = b[1] - a[1]; /* a != b: r lies off their line */
    double k = ((goal[0] - a[0]) * dx + (goal[1] - a[1]) * dy) / (dx * dx + dy * dy);
    out[0] = 2 * (a[0] + k * dx) - goal[0];
    out[1] = 2 * (a[1] + k * dy) - goal[1];
}

/* A lower bound of the plan length from root through the window a-b to the goal. */
static double estimate(const double r[2], const double a[2], const double b[2], const double goal[2], int folded)
{
    double t[2] = {goal[0], goal[1]};
    if (!folded)
        goal_across(r, a, b, goal, t);
    double ca = cross(r, a, t), cb = cross(r, b, t);
    if ((ca <= 0 && cb >= 0) || (ca >= 0 && cb <= 0))
        return dist(r, t);
    double via_a = dist(r, a) + dist(a, t), via_b = dist(r, b) + dist(b, t);
    return via_a < via_b ? via_a : via_b;
}

/* Where the ray from r through p (on the face's entry edge) leaves the face: a position on
 * its far border, 0..1 along edge+1 (from its second vertex), 1..2 along edge+2. */
static double exit_position(const route_search *s, uint32_t face, uint32_t edge, const double r[2], const double p[2])
{
    double v[3][2], d[2] = {p[0] - r[0], p[1] - r[1]};
    for (uint32_t i = 0; i < 3; i++)
        vertex2(s->graph, face, edge + i, v[i]);
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
static void touch_point(const double r[2], const double a[2], const double b[2], const double goal[2], double out[2])
{
    double d[2] = {b[0] - a[0], b[1] - a[1]}, len2 = d[0] * d[0] + d[1] * d[1];
    double target[2], side_r = cross(a, b, r);
    goal_across(r, a, b, goal, target);
    double side_t = cross(a, b, target), u = side_r != side_t ? side_r / (side_r - side_t) : 0;
    double hit[2] = {r[0] + u * (target[0] - r[0]), r[1] + u * (target[1] - r[1])};
    double along = len2 > 0 ? ((hit[0] - a[0]) * d[0] + (hit[1] - a[1]) * d[1]) / len2 : 0;
    along = along < 0 ? 0 : along > 1 ? 1 : along;
    out[0] = a[0] + along * d[0];
    out[1] = a[1] + along * d[1];
}

/* The goal on a face folded back over the window: the route touches the window on its way. */
static wm_result push_final_on_fold(route_search *s, route_node *n)
{
    const double *r = s->roots[n->root].p;
    touch_point(r, n->a, n->b, s->goal, n->a);
    n->final = 1;
    n->via = 1;
    n->f = s->roots[n->root].g + dist(r, n->a) + dist(n->a, s->goal);
    return route_push(s, n);
}

static wm_result push_window(route_search *s, int32_t root, uint32_t face, uint32_t k, double u0, double u1)
{
    const wm_walk_graph *g = s->graph;
    double lo, hi;
    if (!portal_range(s, face, k, &lo, &hi))
        return WM_OK;
    int corner0 = u0 <= lo && s->graph->corner[vertex_of(s, face, k)];
    int corner1 = u1 >= hi && s->graph->corner[vertex_of(s, face, k + 1)];
    u0 = u0 < lo ? lo : u0;
    u1 = u1 > hi ? hi : u1;
    if (!(u1 - u0 > 1e-12))
        return WM_OK;
    double x[2], y[2];
    vertex2(g, face, k, x);
    vertex2(g, face, k + 1, y);
    double p0[2] = {x[0] + u0 * (y[0] - x[0]), x[1] + u0 * (y[1] - x[1])};
    double p1[2] = {x[0] + u1 * (y[0] - x[0]), x[1] + u1 * (y[1] - x[1])};
    int32_t code = g->neighbour[3 * (size_t)face + k];
    route_node n = {.root = root, .face = (uint32_t)code / 3, .edge = (uint8_t)(code % 3)};
    if (n.face != s->goal_face && g->neighbour[3 * (size_t)n.face + (n.edge + 1u) % 3] < 0 &&
        g->neighbour[3 * (size_t)n.face + (n.edge + 2u) % 3] < 0)
        return WM_OK; /* a dead end: no way on from there */
    double first[2];
    vertex2(g, n.face, n.edge, first);
    int same_way = dist(first, x) <= dist(first, y);
    memcpy(n.a, same_way ? p0 : p1, sizeof n.a);
    memcpy(n.b, same_way ? p1 : p0, sizeof n.b);
    n.corner_a = (uint8_t)(same_way ? corner0 : corner1);
    n.corner_b = (uint8_t)(same_way ? corner1 : corner0);
    const double *r = s->roots[root].p;
    double far[2];
    vertex2(g, n.face, n.edge + 2u, far);
    int folded = cross(n.a, n.b, r) * cross(n.a, n.b, far) > 0; /* the face lies back on the root's side */
    if (n.face != s->goal_face) {
        n.f = s->roots[root].g + estimate(r, n.a, n.b, s->goal, folded);
        return route_push(s, &n);
    }
    if (folded)
        return push_final_on_fold(s, &n);
    double side_b = cross(r, n.a, n.b), at_a = cross(r, n.a, s->goal), at_b = cross(r, n.b, s->goal);
    int beyond_a = (side_b > 0 && at_a < 0) || (side_b < 0 && at_a > 0);
    int beyond_b = (side_b > 0 && at_b > 0) || (side_b < 0 && at_b < 0);
    n.final = 1;
    n.via = beyond_a ? 1 : beyond_b ? 2 : 0;
    const double *via = n.via == 1 ? n.a : n.b;
    n.f = s->roots[root].g + (n.via ? dist(r, via) + dist(via, s->goal) : dist(r, s->goal));
    return route_push(s, &n);
}

/* The goal seen straight from a root on a face's corner: the route's whole length. */
static wm_result push_final(route_search *s, int32_t root)
{
    route_node n = {.root = root, .face = s->goal_face, .final = 1};
    n.f = s->roots[root].g + dist(s->roots[root].p, s->goal);
    return route_push(s, &n);
}

/* Windows on the far border between positions lo and hi (exit_position's), seen from root. */
static wm_result push_border(route_search *s, int32_t root, uint32_t face, uint32_t edge, double lo, double hi)
{
    wm_result r = WM_OK;
    if (lo < 1 && hi > lo) /* edge+1 runs from position 0 to 1 */
        r = push_window(s, root, face, (edge + 1) % 3, lo, hi < 1 ? hi : 1);
    if (!r && hi > 1 && hi > lo) /* edge+2 runs from position 1 to 2 */
        r = push_window(s, root, face, (edge + 2) % 3, lo > 1 ? lo - 1 : 0, hi - 1);
    return r;
}

/* A turning point at a window's end: a new root, unless that portal end was reached shorter. */
static wm_result turn_at(route_search *s, const route_node *n, int at_a, int32_t *out_root)
{
    *out_root = -1;
    const route_root *from = &s->roots[n->root];
    const double *p = at_a ? n->a : n->b;
    double g = from->g + dist(from->p, p);
    uint64_t key = ((uint64_t)3 * n->face + n->edge) * 2 + (at_a ? 0u : 1u);
    wm_result error = WM_OK;
    if (route_key_seen(s, key, g, &error))
        return error;
    route_root root = {.p = {p[0], p[1]}, .z = walk_face_height(s->graph, n->face, p[0], p[1]), .g = g,
                       .parent = n->root, .face = n->face, .key = key};
    return route_add_root(s, &root, out_root);
}

/* Without a radius a route turns on a corner vertex itself: the root is the vertex, reached
 * once by its shortest way, and it sees each of its walkable faces whole, so the windows are
 * the edges across from it in every face of its fan. */
static wm_result turn_on_vertex(route_search *s, const route_node *n, int at_a)
{
    uint32_t vertex = vertex_of(s, n->face, n->edge + (at_a ? 0u : 1u));
    const float *v = s->graph->positions + 3 * (size_t)vertex;
    const route_root *from = &s->roots[n->root];
    double p[2] = {v[0], v[1]}, g = from->g + dist(from->p, p);
    wm_result res = WM_OK;
    if (route_key_seen(s, vertex, g, &res))
        return res;
    route_root root = {.p = {p[0], p[1]}, .z = v[2], .g = g, .parent = n->root, .face = n->face, .key = vertex};
    int32_t index;
    if ((res = route_add_root(s, &root, &index)) != WM_OK)
        return res;
    for (uint32_t i = s->graph->fan_start[vertex]; !res && i < s->graph->fan_start[vertex + 1]; i++) {
        uint32_t code = s->graph->fan_corners[i], face = code / 3;
        res = face == s->goal_face ? push_final(s, index) : push_window(s, index, face, (code % 3 + 1) % 3, 0, 1);
    }
    return res;
}

/* A face seen edge-on from above is a line in plan: the window goes on, unchanged, through the
 * parts of its other edges that lie over it. */
static wm_result pass_flat_face(route_search *s, const route_node *n)
{
    wm_result res = WM_OK;
    for (uint32_t k = 1; !res && k < 3; k++) {
        uint32_t edge = (n->edge + k) % 3;
        double x[2], y[2];
        vertex2(s->graph, n->face, edge, x);
        vertex2(s->graph, n->face, edge + 1u, y);
        double e[2] = {y[0] - x[0], y[1] - x[1]}, len2 = e[0] * e[0] + e[1] * e[1];
        if (!(len2 > 0))
            continue;
        double ua = ((n->a[0] - x[0]) * e[0] + (n->a[1] - x[1]) * e[1]) / len2;
        double ub = ((n->b[0] - x[0]) * e[0] + (n->b[1] - x[1]) * e[1]) / len2;
        double lo = fmax(fmin(ua, ub), 0), hi = fmin(fmax(ua, ub), 1);
        if (hi > lo)
            res = push_window(s, n->root, n->face, edge, lo, hi);
    }
    /* the ground pinches to a line there: past a corner end only a turn on it goes on */
    for (int at_a = 0; !res && at_a < 2; at_a++) {
        if (!(at_a ? n->corner_a : n->corner_b))
            continue;
        if (s->radius <= 0) {
            res = turn_on_vertex(s, n, at_a);
            continue;
        }
        int32_t turned;
        if (!(res = turn_at(s, n, at_a, &turned)) && turned >= 0)
            for (uint32_t k = 1; !res && k < 3; k++)
                res = push_window(s, turned, n->face, (n->edge + k) % 3, 0, 1);
    }
    return res;
}

/* A face folded back over its portal lies in plan on the root's side of it: a line from the
 * root may leave the ground there, so the route turns on the portal: at the point aimed at the
 * goal, at the window's ends and at up to FOLD_POINTS - 1 points between, FOLD_STEP apart or
 * more (a point on a face's border sees the whole face). More points cost more than they gain:
 * on dm_dungeon.trx 5 cm spacing doubled the mean query and ran 4 of 200 past the bound. Keyed
 * by their place on the portal, they are shared by every window that reaches it. */
#define FOLD_STEP 0.05
#define FOLD_SLIVER 1e-4
#define FOLD_POINTS 4u
#define FOLD_AIMED UINT32_MAX

/* place: a point of the portal's grid (0..FOLD_POINTS), or FOLD_AIMED: the point aimed at the
 * goal from this root, its own key */
static wm_result fold_root(route_search *s, const route_node *n, const double x[2], const double y[2],
                           const double p[2], uint32_t place)
{
    const route_root *from = &s->roots[n->root];
    double g = from->g + dist(from->p, p);
    uint64_t portal = (uint64_t)3 * n->face + n->edge;
    uint64_t key = place == FOLD_AIMED ? ROUTE_AIMED_KEYS + ((uint64_t)n->root << 32) + portal
                                       : ROUTE_FOLD_KEYS + portal * (FOLD_POINTS + 1) + place;
    wm_result res = WM_OK;
    if (route_key_seen(s, key, g, &res))
        return res;
    route_root root = {.p = {p[0], p[1]}, .z = walk_face_height(s->graph, n->face, p[0], p[1]), .g = g,
                       .parent = n->root, .face = n->face, .key = key};
    int32_t index;
    if ((res = route_add_root(s, &root, &index)) != WM_OK || n->face == s->goal_face)
        return res ? res : push_final(s, index);
    /* on a vertex of the portal (x, y) the root would see its fan whole, face after face, without end */
    double near = 1e-9 * (1 + fabs(p[0]) + fabs(p[1]));
    for (uint32_t k = 1; !res && k < 3; k++)
        if (!(k == 2 && dist(p, x) <= near) && !(k == 1 && dist(p, y) <= near))
            res = push_window(s, index, n->face, (n->edge + k) % 3, 0, 1);
    return res;
}

static wm_result turn_on_fold(route_search *s, const route_node *n)
{
    double x[2], y[2];
    vertex2(s->graph, n->face, n->edge, x);
    vertex2(s->graph, n->face, n->edge + 1u, y);
    double length = dist(x, y);
    uint32_t places = length / FOLD_STEP < FOLD_POINTS ? (uint32_t)ceil(length / FOLD_STEP) : FOLD_POINTS;
    if (places == 0)
        places = 1;
    double ua = dist(x, n->a) / length, ub = dist(x, n->b) / length;
    wm_result res = fold_root(s, n, x, y, n->a, (uint32_t)lround(ua * places));
    if (!res)
        res = fold_root(s, n, x, y, n->b, (uint32_t)lround(ub * places));
    double aimed[2]; /* the best for a route going on straight to the goal */
    touch_point(s->roots[n->root].p, n->a, n->b, s->goal, aimed);
    if (!res)
        res = fold_root(s, n, x, y, aimed, FOLD_AIMED);
    for (uint32_t i = (uint32_t)floor(ua * places) + 1; !res && i < ub * places; i++) {
        double p[2] = {x[0] + (y[0] - x[0]) * i / places, x[1] + (y[1] - x[1]) * i / places};
        res = fold_root(s, n, x, y, p, i);
    }
    return res;
}

/* Whether p, on the line of x-y, lies between them and not on either. */
static int strictly_between(const double p[2], const double x[2], const double y[2])
{
    double d[2] = {y[0] - x[0], y[1] - x[1]}, len2 = d[0] * d[0] + d[1] * d[1];
    double u = len2 > 0 ? ((p[0] - x[0]) * d[0] + (p[1] - x[1]) * d[1]) / len2 : 0;
    return u > 1e-9 && u < 1 - 1e-9;
}

static wm_result expand(route_search *s, const route_node *n)
{
    const route_root *root = &s->roots[n->root];
    if (root->key != ROUTE_START_KEY && route_key_best(s, root->key) < root->g)
        return WM_OK; /* a shorter way to this turning point was found since */
    wm_result res = WM_OK;
    double r[2] = {root->p[0], root->p[1]}, x[2], y[2];
    vertex2(s->graph, n->face, n->edge, x);
    vertex2(s->graph, n->face, n->edge + 1u, y);
    double at_a = 2, at_b = 0, far[2], side_r = cross(x, y, r);
    vertex2(s->graph, n->face, n->edge + 2u, far);
    double span = dist(x, y) + dist(y, far) + dist(far, x);
    if (fabs(cross(x, y, far)) <= 1e-9 * span * span)
        return pass_flat_face(s, n);
    if (side_r * cross(x, y, far) > 0) /* folded back over the portal; a sliver under 0.1 mm is a line */
        return fabs(cross(x, y, far)) <= FOLD_SLIVER * dist(x, y) ? pass_flat_face(s, n) : turn_on_fold(s, n);
    int on_line = !(fabs(side_r) > 1e-9 * (dist(x, y) + 1));
    if (!on_line) {
        at_a = exit_position(s, n->face, n->edge, r, n->a);
        at_b = exit_position(s, n->face, n->edge, r, n->b);
    }
    if (at_b > at_a) {
        double mid = (at_a + at_b) / 2;
        at_a = at_b = mid;
    }
    /* a root on the portal (the start on an edge, a turn on a fold) sees the whole face; one on its
     * line beyond an end sees it edge-on, nothing through it; either sees past no corner end */
    if (!on_line || strictly_between(r, x, y))
        res = push_border(s, n->root, n->face, n->edge, at_b, at_a);
    int turn_b = n->corner_b && (at_b > 0 || on_line), turn_a = n->corner_a && (at_a < 2 || on_line);
    if (s->radius <= 0) {
        if (!res && turn_b)
            res = turn_on_vertex(s, n, 0);
        if (!res && turn_a)
            res = turn_on_vertex(s, n, 1);
        return res;
    }
    int32_t turned;
    if (!res && turn_b && !(res = turn_at(s, n, 0, &turned)) && turned >= 0)
        res = push_border(s, turned, n->face, n->edge, 0, on_line ? 2 : at_b);
    if (!res && turn_a && !(res = turn_at(s, n, 1, &turned)) && turned >= 0)
        res = push_border(s, turned, n->face, n->edge, on_line ? 0 : at_a, 2);
    return res;
}

/* The waypoints from the final window back through its roots, start first. */
static wm_result collect_points(route_search *s, const route_node *final, const float goal[3], wm_route *out)
{
    uint32_t count = 1 + (final->via != 0);
    for (int32_t k = final->root; k >= 0; k = s->roots[k].parent)
        count++;
    out->points = wm_alloc_array(s->ctx, 3 * (size_t)count, sizeof *out->points);
    if (!out->points)
        return WM_ERR_NOMEM;
    out->count = count;
    float *p = out->points + 3 * (size_t)(count - 1);
    memcpy(p, goal, 3 * sizeof *p);
    if (final->via) {
        const double *via = final->via == 1 ? final->a : final->b;
        p -= 3;
        p[0] = (float)via[0];
        p[1] = (float)via[1];
        p[2] = walk_face_height(s->graph, s->goal_face, via[0], via[1]);
    }
    for (int32_t k = final->root; k >= 0; k = s->roots[k].parent) {
        p -= 3;
        p[0] = (float)s->roots[k].p[0];
        p[1] = (float)s->roots[k].p[1];
        p[2] = s->roots[k].z;
    }
    return WM_OK;
}

wm_result route_search_run(wm_ctx *ctx, const wm_walk_graph *graph, const float from[3], const float to[3],
                           float radius, wm_route *out)
{
    route_search s = {.ctx = ctx, .graph = graph, .goal = {to[0], to[1]}, .goal_face = out->goal_face,
                      .radius = radius};
    s.node_limit = 128u * (graph->walkable_count < 30000000u ? graph->walkable_count : 30000000u) + 1048576u;
    route_root start = {.p = {from[0], from[1]}, .z = from[2], .parent = -1, .face = out->start_face,
                        .key = ROUTE_START_KEY};
    int32_t start_root;
    wm_result r = route_add_root(&s, &start, &start_root);
    for (uint32_t k = 0; !r && k < 3; k++)
        r = push_window(&s, start_root, out->start_face, k, 0, 1);
    int32_t top;
    while (!r && (top = route_pop(&s)) >= 0) {
        route_node n = s.nodes[top];
        if (n.final) {
            r = collect_points(&s, &n, to, out);
            out->found = !r;
            break;
        }
        /* a window with one successor on the way (no turn, not the goal's face) goes on at once */
        do {
            s.holding = 1;
            s.held_count = 0;
            r = expand(&s, &n);
            n = s.held;
        } while (!r && s.held_count == 1 && !n.final);
        if (!r)
            r = route_release_held(&s);
    }
    route_search_free(&s);
    return r;
}
