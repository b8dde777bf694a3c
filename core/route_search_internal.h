/* The route search's nodes, heap and root table (core only; route_search.c, route_heap.c). */
#ifndef WM_ROUTE_SEARCH_INTERNAL_H
#define WM_ROUTE_SEARCH_INTERNAL_H

#include "walk_graph_internal.h"

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
    uint32_t held_count;
    route_node held;
    route_heap_entry *heap; uint32_t heap_count;
    route_root *roots;  uint32_t root_count, root_capacity;
    route_key_slot *keys; uint32_t key_slots, key_count;
} route_search;

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

#endif
