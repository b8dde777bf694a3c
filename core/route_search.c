/* The shortest route in plan over walkable faces: a search over windows of
 * portals seen from turning points (the any-angle search known as Polyanya,
 * Cui, Harabor and Grastien 2017): a window is followed across each face
 * while the root sees it, and the route turns only at a portal's end beside
 * a corner vertex (one on the border of the walkable ground). Exact for a
 * point agent up to the 1 mm the turning points keep from their corners. */
#include "route_search_internal.h"

#include <math.h>
#include <string.h>


/* A radius keeps portals that far from their corner vertices. */
static double corner_gap(const route_search *s, uint32_t face, uint32_t corner)
{
    return s->graph->corner[route_vertex_of(s, face, corner)] ? s->radius : 0;
}

/* The part of edge k of face (parameter 0 at its first vertex) a route may cross:
 * 0 when the edge joins no walkable face or is too short for the gaps at its ends. */
static int portal_range(const route_search *s, uint32_t face, uint32_t k, double *lo, double *hi)
{
    if (s->graph->neighbour[3 * (size_t)face + k] < 0)
        return 0;
    double x[2], y[2];
    route_vertex2(s->graph, face, k, x);
    route_vertex2(s->graph, face, k + 1, y);
    double length = route_dist(x, y);
    if (!(length > 0))
        return 0;
    *lo = corner_gap(s, face, k) / length;
    *hi = 1.0 - corner_gap(s, face, k + 1) / length;
    return *hi - *lo > 1e-9;
}

/* The goal on a face folded back over the window: the route touches the window on its way. */
static wm_result push_final_on_fold(route_search *s, route_node *n)
{
    const double *r = s->roots[n->root].p;
    route_touch_point(r, n->a, n->b, s->goal, n->a);
    n->final = 1;
    n->via = 1;
    n->f = s->roots[n->root].g + route_dist(r, n->a) + route_dist(n->a, s->goal);
    return route_push(s, n);
}

/* Lowers a landmark's bounds pair to below and above. */
static void spread_lower(float *pair, double below, double above)
{
    float lo = route_float_below(below), hi = route_float_above(above);
    pair[0] = lo < pair[0] ? lo : pair[0];
    pair[1] = hi < pair[1] ? hi : pair[1];
}

/* Every point of face lies no nearer than lower, and no farther than g_at (the length to the
 * point at, in the face's closure) plus at's distance to the farthest vertex (a triangle is
 * convex). */
static void spread_face(route_search *s, uint32_t face, double lower, const double at[2], double g_at)
{
    double far = 0, v[2];
    for (uint32_t k = 0; k < 3; k++) {
        route_vertex2(s->graph, face, k, v);
        far = fmax(far, route_dist(at, v));
    }
    spread_lower(s->spread + 2 * ((size_t)face * s->spread_count + s->spread_index), lower, g_at + far);
}

/* A turning point's root; a landmark's search notes the face it lies on. */
static wm_result add_root(route_search *s, const route_root *root, int32_t *out_index)
{
    if (s->spread)
        spread_face(s, root->face, root->g, root->p, root->g);
    return route_add_root(s, root, out_index);
}

/* The landmarks' lower bound of the plan distance from any point of face to the goal. */
static double landmark_rest(const route_search *s, uint32_t face)
{
    uint32_t count = s->graph->landmark_count;
    const float *f = s->graph->landmarks + 2 * (size_t)count * face, *g = s->goal_bounds;
    double best = 0;
    for (uint32_t k = 0; k < 2 * count; k += 2) {
        double ahead = (double)g[k] - f[k + 1], behind = (double)f[k] - g[k + 1];
        best = ahead > best ? ahead : best;
        best = behind > best ? behind : best;
    }
    return best;
}

static wm_result push_window(route_search *s, int32_t root, uint32_t face, uint32_t k, double u0, double u1)
{
    const wm_walk_graph *g = s->graph;
    double lo, hi;
    if (!portal_range(s, face, k, &lo, &hi))
        return WM_OK;
    int corner0 = u0 <= lo && s->graph->corner[route_vertex_of(s, face, k)];
    int corner1 = u1 >= hi && s->graph->corner[route_vertex_of(s, face, k + 1)];
    u0 = u0 < lo ? lo : u0;
    u1 = u1 > hi ? hi : u1;
    if (!(u1 - u0 > 1e-12))
        return WM_OK;
    double x[2], y[2];
    route_vertex2(g, face, k, x);
    route_vertex2(g, face, k + 1, y);
    double p0[2] = {x[0] + u0 * (y[0] - x[0]), x[1] + u0 * (y[1] - x[1])};
    double p1[2] = {x[0] + u1 * (y[0] - x[0]), x[1] + u1 * (y[1] - x[1])};
    int32_t code = g->neighbour[3 * (size_t)face + k];
    route_node n = {.root = root, .face = (uint32_t)code / 3, .edge = (uint8_t)(code % 3),
                    .flat_passes = (uint8_t)(root == s->expanding_root ? s->expanding_passes : 0)};
    if (!s->spread && n.face != s->goal_face && g->neighbour[3 * (size_t)n.face + (n.edge + 1u) % 3] < 0 &&
        g->neighbour[3 * (size_t)n.face + (n.edge + 2u) % 3] < 0)
        return WM_OK; /* a dead end: no way on from there */
    double first[2];
    route_vertex2(g, n.face, n.edge, first);
    int same_way = route_dist(first, x) <= route_dist(first, y);
    memcpy(n.a, same_way ? p0 : p1, sizeof n.a);
    memcpy(n.b, same_way ? p1 : p0, sizeof n.b);
    n.corner_a = (uint8_t)(same_way ? corner0 : corner1);
    n.corner_b = (uint8_t)(same_way ? corner1 : corner0);
    const double *r = s->roots[root].p;
    if (s->spread) { /* no goal: the length to the window's nearest point */
        n.f = s->roots[root].g + route_segment_distance(r, n.a, n.b);
        spread_face(s, n.face, n.f, n.a, s->roots[root].g + route_dist(r, n.a));
        return route_push(s, &n);
    }
    double far[2];
    route_vertex2(g, n.face, n.edge + 2u, far);
    int folded = route_cross(n.a, n.b, r) * route_cross(n.a, n.b, far) > 0; /* the face lies back on the root's side */
    if (n.face != s->goal_face) {
        n.f = s->roots[root].g + route_estimate(r, n.a, n.b, s->goal, folded);
        if (s->goal_bounds) /* either bound holds, so the greater does */
            n.f = fmax(n.f, s->roots[root].g + route_segment_distance(r, n.a, n.b) + landmark_rest(s, n.face));
        return route_push(s, &n);
    }
    if (folded)
        return push_final_on_fold(s, &n);
    double side_b = route_cross(r, n.a, n.b), at_a = route_cross(r, n.a, s->goal), at_b = route_cross(r, n.b, s->goal);
    int beyond_a = (side_b > 0 && at_a < 0) || (side_b < 0 && at_a > 0);
    int beyond_b = (side_b > 0 && at_b > 0) || (side_b < 0 && at_b < 0);
    n.final = 1;
    n.via = beyond_a ? 1 : beyond_b ? 2 : 0;
    const double *via = n.via == 1 ? n.a : n.b;
    n.f = s->roots[root].g + (n.via ? route_dist(r, via) + route_dist(via, s->goal) : route_dist(r, s->goal));
    return route_push(s, &n);
}

/* The goal seen straight from a root on a face's corner: the route's whole length. */
static wm_result push_final(route_search *s, int32_t root)
{
    route_node n = {.root = root, .face = s->goal_face, .final = 1};
    n.f = s->roots[root].g + route_dist(s->roots[root].p, s->goal);
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
    double g = from->g + route_dist(from->p, p);
    uint64_t key = ((uint64_t)3 * n->face + n->edge) * 2 + (at_a ? 0u : 1u);
    wm_result error = WM_OK;
    if (route_key_seen(s, key, g, &error))
        return error;
    route_root root = {.p = {p[0], p[1]}, .z = walk_face_height(s->graph, n->face, p[0], p[1]), .g = g,
                       .parent = n->root, .face = n->face, .key = key};
    return add_root(s, &root, out_root);
}

/* Without a radius a route turns on a corner vertex itself: the root is the vertex, reached
 * once by its shortest way, and it sees each of its walkable faces whole, so the windows are
 * the edges across from it in every face of its fan. */
static wm_result turn_on_vertex(route_search *s, const route_node *n, int at_a)
{
    uint32_t vertex = route_vertex_of(s, n->face, n->edge + (at_a ? 0u : 1u));
    const float *v = s->graph->positions + 3 * (size_t)vertex;
    const route_root *from = &s->roots[n->root];
    double p[2] = {v[0], v[1]}, g = from->g + route_dist(from->p, p);
    wm_result res = WM_OK;
    if (route_key_seen(s, vertex, g, &res))
        return res;
    route_root root = {.p = {p[0], p[1]}, .z = v[2], .g = g, .parent = n->root, .face = n->face, .key = vertex};
    int32_t index;
    if ((res = add_root(s, &root, &index)) != WM_OK)
        return res;
    for (uint32_t i = s->graph->fan_start[vertex]; !res && i < s->graph->fan_start[vertex + 1]; i++) {
        uint32_t code = s->graph->fan_corners[i], face = code / 3;
        if (s->spread)
            spread_face(s, face, g, p, g);
        res = face == s->goal_face ? push_final(s, index) : push_window(s, index, face, (code % 3 + 1) % 3, 0, 1);
    }
    return res;
}

/* A face seen edge-on from above is a line in plan: the window goes on, unchanged, through the
 * parts of its other edges that lie over it. Slivers and faces of micrometres can close a ring in
 * plan (pykotor-root-out.wok: two slivers and three specks round one vertex, faces wound both
 * ways), round which a window would go for ever: a root passes at most FLAT_PASSES_MOST of them
 * (and of folds on which it stands itself). */

#define FLAT_PASSES_MOST 200u

/* 0 when n's root has passed its last flat face; else its successors from that root count one
 * pass more. */
static int pass_again(route_search *s, const route_node *n)
{
    if (n->flat_passes >= FLAT_PASSES_MOST)
        return 0;
    s->expanding_passes = n->flat_passes + 1u;
    return 1;
}

static wm_result pass_flat_face(route_search *s, const route_node *n)
{
    if (!pass_again(s, n))
        return WM_OK;
    wm_result res = WM_OK;
    for (uint32_t k = 1; !res && k < 3; k++) {
        uint32_t edge = (n->edge + k) % 3;
        double x[2], y[2];
        route_vertex2(s->graph, n->face, edge, x);
        route_vertex2(s->graph, n->face, edge + 1u, y);
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
#define AIMED_MILLIMETRES (UINT64_C(1) << 20)

/* place: a point of the portal's grid (0..FOLD_POINTS), or FOLD_AIMED: the point aimed at the
 * goal from this root, its own key */
static wm_result fold_root(route_search *s, const route_node *n, const double x[2], const double y[2],
                           const double p[2], uint32_t place)
{
    const route_root *from = &s->roots[n->root];
    double g = from->g + route_dist(from->p, p), near = 1e-9 * (1 + fabs(p[0]) + fabs(p[1]));
    int32_t index = n->root;
    wm_result res = WM_OK;
    if (route_dist(from->p, p) > near) {
        uint64_t portal = (uint64_t)3 * n->face + n->edge;
        /* an aimed point is keyed by its millimetre of the portal: keyed by its root, a ring of
         * specks made a new root, micrometres on, each time round */
        double mm = fmin(route_dist(x, p) * 1000.0, (double)(AIMED_MILLIMETRES - 1));
        uint64_t key = place == FOLD_AIMED ? ROUTE_AIMED_KEYS + portal * AIMED_MILLIMETRES + (uint64_t)mm
                                           : ROUTE_FOLD_KEYS + portal * (FOLD_POINTS + 1) + place;
        if (route_key_seen(s, key, g, &res))
            return res;
        route_root root = {.p = {p[0], p[1]}, .z = walk_face_height(s->graph, n->face, p[0], p[1]), .g = g,
                           .parent = n->root, .face = n->face, .key = key};
        if ((res = add_root(s, &root, &index)) != WM_OK)
            return res;
    } else if (!pass_again(s, n)) {
        return WM_OK; /* the root stands on this portal too: it goes on as through a flat face */
    }
    if (n->face == s->goal_face)
        return push_final(s, index);
    /* on a vertex of the portal (x, y) the root would see its fan whole, face after face, without end */
    for (uint32_t k = 1; !res && k < 3; k++)
        if (!(k == 2 && route_dist(p, x) <= near) && !(k == 1 && route_dist(p, y) <= near))
            res = push_window(s, index, n->face, (n->edge + k) % 3, 0, 1);
    return res;
}

static wm_result turn_on_fold(route_search *s, const route_node *n)
{
    double x[2], y[2];
    route_vertex2(s->graph, n->face, n->edge, x);
    route_vertex2(s->graph, n->face, n->edge + 1u, y);
    double length = route_dist(x, y);
    uint32_t places = length / FOLD_STEP < FOLD_POINTS ? (uint32_t)ceil(length / FOLD_STEP) : FOLD_POINTS;
    if (places == 0)
        places = 1;
    double ua = route_dist(x, n->a) / length, ub = route_dist(x, n->b) / length;
    wm_result res = fold_root(s, n, x, y, n->a, (uint32_t)lround(ua * places));
    if (!res)
        res = fold_root(s, n, x, y, n->b, (uint32_t)lround(ub * places));
    if (!res && !s->spread) { /* the best for a route going on straight to the goal (a landmark's has none) */
        double aimed[2];
        route_touch_point(s->roots[n->root].p, n->a, n->b, s->goal, aimed);
        res = fold_root(s, n, x, y, aimed, FOLD_AIMED);
    }
    for (uint32_t i = (uint32_t)floor(ua * places) + 1; !res && i < ub * places; i++) {
        double p[2] = {x[0] + (y[0] - x[0]) * i / places, x[1] + (y[1] - x[1]) * i / places};
        res = fold_root(s, n, x, y, p, i);
    }
    return res;
}

static wm_result expand(route_search *s, const route_node *n)
{
    const route_root *root = &s->roots[n->root];
    if (root->key != ROUTE_START_KEY && route_key_best(s, root->key) < root->g)
        return WM_OK; /* a shorter way to this turning point was found since */
    s->expanding_root = n->root;
    s->expanding_passes = n->flat_passes;
    wm_result res = WM_OK;
    double r[2] = {root->p[0], root->p[1]}, x[2], y[2];
    route_vertex2(s->graph, n->face, n->edge, x);
    route_vertex2(s->graph, n->face, n->edge + 1u, y);
    double at_a = 2, at_b = 0, far[2], side_r = route_cross(x, y, r);
    route_vertex2(s->graph, n->face, n->edge + 2u, far);
    double span = route_dist(x, y) + route_dist(y, far) + route_dist(far, x);
    if (fabs(route_cross(x, y, far)) <= 1e-9 * span * span)
        return pass_flat_face(s, n);
    if (side_r * route_cross(x, y, far) > 0) /* folded back over the portal; a sliver under 0.1 mm is a line */
        return fabs(route_cross(x, y, far)) <= FOLD_SLIVER * route_dist(x, y) ? pass_flat_face(s, n) : turn_on_fold(s, n);
    int on_line = !(fabs(side_r) > 1e-9 * (route_dist(x, y) + 1));
    if (!on_line) {
        at_a = route_exit_position(s, n->face, n->edge, r, n->a);
        at_b = route_exit_position(s, n->face, n->edge, r, n->b);
    }
    if (at_b > at_a) {
        double mid = (at_a + at_b) / 2;
        at_a = at_b = mid;
    }
    /* a root on the portal (the start on an edge, a turn on a fold) sees the whole face; one on its
     * line beyond an end sees it edge-on, nothing through it; either sees past no corner end */
    if (!on_line || route_strictly_between(r, x, y))
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

/* The search from `from` on start_face: pops windows by f until a final one (copied to *final,
 * *found set) or none is left. */
static wm_result search(route_search *s, const float from[3], uint32_t start_face, route_node *final, int *found)
{
    *found = 0;
    uint64_t windows = (uint64_t)ROUTE_WINDOWS_PER_FACE * s->graph->walkable_count;
    s->node_limit = (uint32_t)(windows < ROUTE_WINDOWS_MOST ? windows : ROUTE_WINDOWS_MOST) + (1u << 20);
    route_root start = {.p = {from[0], from[1]}, .z = from[2], .parent = -1, .face = start_face,
                        .key = ROUTE_START_KEY};
    int32_t start_root;
    wm_result r = add_root(s, &start, &start_root);
    for (uint32_t k = 0; !r && k < 3; k++)
        r = push_window(s, start_root, start_face, k, 0, 1);
    int32_t top;
    while (!r && (top = route_pop(s)) >= 0) {
        route_node n = s->nodes[top];
        if (n.final) {
            *final = n;
            *found = 1;
            return WM_OK;
        }
        /* a window with one successor on the way (no turn, not the goal's face) goes on at once
         * (with landmarks, while the heap would pop it next anyway: ways away from the goal stop) */
        do {
            s->holding = 1;
            s->held_count = 0;
            r = expand(s, &n);
            n = s->held;
        } while (!r && s->held_count == 1 && !n.final && (!s->goal_bounds || !s->heap_count || n.f <= s->heap[0].f));
        if (!r)
            r = route_release_held(s);
    }
    return r;
}

wm_result route_search_run(wm_ctx *ctx, const wm_walk_graph *graph, const float from[3], const float to[3],
                           float radius, wm_route *out)
{
    route_search s = {.ctx = ctx, .graph = graph, .goal = {to[0], to[1]}, .goal_face = out->goal_face,
                      .radius = radius};
    if (graph->landmark_count)
        s.goal_bounds = graph->landmarks + 2 * (size_t)graph->landmark_count * out->goal_face;
    route_node final;
    wm_result r = search(&s, from, out->start_face, &final, &out->found);
    if (!r && out->found) {
        r = collect_points(&s, &final, to, out);
        out->found = !r;
    }
    route_search_free(&s);
    return r;
}

wm_result route_search_all(wm_ctx *ctx, const wm_walk_graph *graph, const float from[3], uint32_t face,
                           float *bounds, uint32_t count, uint32_t index)
{
    route_search s = {.ctx = ctx, .graph = graph, .goal_face = UINT32_MAX, .spread = bounds, .spread_count = count,
                      .spread_index = index};
    route_node unused;
    int found;
    wm_result r = search(&s, from, face, &unused, &found);
    route_search_free(&s);
    return r;
}
