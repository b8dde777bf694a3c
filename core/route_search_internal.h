/* The route search's nodes, heap and root table (core only; route_search.c, route_heap.c). */
#ifndef WM_ROUTE_SEARCH_INTERNAL_H
#define WM_ROUTE_SEARCH_INTERNAL_H

#include "walk_graph_internal.h"

#include <math.h>

/* A point where the route may turn: the start, or a portal's end beside a
 * corner vertex (moved along the portal by the agent's radius, at least 1 mm). */
typedef struct route_root {
    double p[2];
    float z;
    double g;        /* plan length from the start */
    int32_t parent;  /* the root before it, -1 for the start */
    uint32_t face;   /* a face the point lies on, whose interior the route enters from it */
    uint64_t key;    /* which portal end or vertex it is (the start: ROUTE_START_KEY) */
} route_root;

#define ROUTE_START_KEY UINT64_MAX
/* A search gives up after this many windows a walkable face (a 213 m route over the 17,267 of
 * dm_dungeon.trx needs over 128), at most ROUTE_WINDOWS_MOST in all (tens of seconds), plus 2^20. */
#define ROUTE_WINDOWS_PER_FACE 1024u
#define ROUTE_WINDOWS_MOST (64u << 20)
/* Turning points on a fold's portal are keyed apart from vertices and portal ends. */
#define ROUTE_FOLD_KEYS (UINT64_C(1) << 40)
#define ROUTE_AIMED_KEYS (UINT64_C(1) << 62)

/* A window of the portal through which the face `face` is entered, seen from a root. */
typedef struct route_node {
    double a[2], b[2];        /* the window's ends; a nearer the face's vertex `edge` */
    double f;                 /* root's g + a lower bound of the rest */
    int32_t root;
    uint32_t face;
    uint8_t edge;
    uint8_t corner_a, corner_b; /* the end is a portal end beside a corner vertex */
    uint8_t final;            /* the face holds the goal: f is the route's whole length */
    uint8_t via;              /* final: 0 straight to the goal, 1 through a, 2 through b */
    uint8_t flat_passes;      /* faces seen edge-on this window's root has passed through */
} route_node;

typedef struct route_key_slot {
    uint64_t key; /* UINT64_MAX: empty */
    double g;
} route_key_slot;

/* A heap entry carries its node's f, so that ordering the heap reads no node. */
typedef struct route_heap_entry {
    double f;
    uint32_t node;
} route_heap_entry;

typedef struct route_search {
    wm_ctx *ctx;
    const wm_walk_graph *graph;
    double goal[2];
    uint32_t goal_face;
    float radius;
    /* a popped node's slot is taken again by the next push (free_slots): the nodes in use are
     * those in the heap, far fewer than the windows pushed over a search (pushed) */
    route_node *nodes;  uint32_t node_count, node_capacity, node_limit, pushed;
    uint32_t *free_slots; uint32_t free_count;
    /* while holding, the first node pushed waits in held: the one successor of a node is
     * expanded at once, without the heap (its f is no less than its parent's) */
    int holding;
    /* the node being expanded: its successors from the same root inherit its flat passes */
    int32_t expanding_root;
    uint32_t expanding_passes;
    uint32_t held_count;
    route_node held;
    route_heap_entry *heap; uint32_t heap_count;
    route_root *roots;  uint32_t root_count, root_capacity;
    route_key_slot *keys; uint32_t key_slots, key_count;
    /* a landmark's search (route_search_all): no goal; the bounds of the distance to every face
     * are lowered in landmark spread_index's pairs (spread_count pairs per face) */
    float *spread;
    uint32_t spread_count, spread_index;
    /* with landmarks: the goal face's bounds (graph->landmarks) */
    const float *goal_bounds;
} route_search;

static inline double route_cross(const double o[2], const double a[2], const double b[2])
{
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/* sqrt, not hypot: the coordinates come from floats, whose squares (up to 1.2e77) fit a double
 * with room to spare; hypot's care for overflow cost a sixth of a route's time. */
static inline double route_dist(const double a[2], const double b[2])
{
    double dx = a[0] - b[0], dy = a[1] - b[1];
    return sqrt(dx * dx + dy * dy);
}

static inline void route_vertex2(const wm_walk_graph *g, uint32_t face, uint32_t corner, double out[2])
{
    const float *v = walk_vertex(g, face, corner % 3);
    out[0] = v[0];
    out[1] = v[1];
}

static inline uint32_t route_vertex_of(const route_search *s, uint32_t face, uint32_t corner)
{
    return s->graph->indices[3 * (size_t)face + corner % 3];
}

/* A lower bound of the plan length from root through the window a-b to the goal. */
double route_estimate(const double r[2], const double a[2], const double b[2], const double goal[2], int folded);
/* Where the ray from r through p (on the face's entry edge) leaves the face: a position on
 * its far border, 0..1 along edge+1 (from its second vertex), 1..2 along edge+2. */
double route_exit_position(const route_search *s, uint32_t face, uint32_t edge, const double r[2], const double p[2]);
/* The point of window a-b where a line from r touching it and going on to goal is shortest. */
void route_touch_point(const double r[2], const double a[2], const double b[2], const double goal[2], double out[2]);
/* Whether p, on the line of x-y, lies between them and not on either. */
int route_strictly_between(const double p[2], const double x[2], const double y[2]);

wm_result route_push(route_search *s, const route_node *node);
/* Ends holding: a node held alone goes to the heap. */
wm_result route_release_held(route_search *s);
/* The node with the least f, or -1 when none is left; its slot goes to the next push, so the
 * caller copies the node first. */
int32_t route_pop(route_search *s);
wm_result route_add_root(route_search *s, const route_root *root, int32_t *out_index);
/* 1 when key was reached before with a plan length no greater than g; else records g. */
int route_key_seen(route_search *s, uint64_t key, double g, wm_result *error);
/* The best g recorded for key (infinite when none). */
double route_key_best(const route_search *s, uint64_t key);
void route_search_free(route_search *s);
/* The search between the points on out->start_face and out->goal_face (different faces of
 * one region): fills out->points and out->found. */
wm_result route_search_run(wm_ctx *ctx, const wm_walk_graph *graph, const float from[3], const float to[3],
                           float radius, wm_route *out);

/* Landmark index's search from `from` on `face` over its whole region: lowers its pair of
 * bounds (count pairs per face) of the distance to each face reached. */
wm_result route_search_all(wm_ctx *ctx, const wm_walk_graph *graph, const float from[3], uint32_t face,
                           float *bounds, uint32_t count, uint32_t index);
/* Doubles rounded to floats on the far side: a lower bound stays below, an upper one above. */
float route_float_below(double x);
float route_float_above(double x);
/* The plan distance from r to the segment a-b. */
double route_segment_distance(const double r[2], const double a[2], const double b[2]);

#endif
