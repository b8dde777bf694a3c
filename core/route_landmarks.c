/* Landmarks for repeated routes (the ALT bound of Goldberg and Harrelson, 2005): bounds of the
 * plan distance from a few points to every face, each from one search over the whole region.
 * A route's search then knows by the triangle inequality how far at least a face lies from its
 * goal, and the windows leading away from the goal stay in the heap. */
#include "route_search_internal.h"
#include "parallel_jobs_internal.h"

#include <math.h>

#define LANDMARKS_MOST 64u
#define LANDMARK_VALUES_MOST ((size_t)1 << 28) /* 1 GiB of bounds */
/* Landmarks are placed ROUND at a time, their searches run side by side: the same places on
 * every machine, whatever its processor count. */
#define ROUND 4u

float route_float_below(double x)
{
    float f = (float)x;
    return (double)f > x ? nextafterf(f, -INFINITY) : f;
}

float route_float_above(double x)
{
    float f = (float)x;
    return (double)f < x ? nextafterf(f, INFINITY) : f;
}

static uint32_t largest_region(const wm_walk_graph *g)
{
    uint32_t best = 0;
    for (uint32_t r = 1; r < g->region_count; r++)
        if (g->region_faces[r] > g->region_faces[best])
            best = r;
    return best;
}

/* The first landmark: the region's face farthest in plan from the mean of its face centres. */
static uint32_t outermost_face(const wm_walk_graph *g, uint32_t region)
{
    double mean[2] = {0, 0}, n = 0;
    float c[3];
    for (uint32_t t = 0; t < g->triangle_count; t++)
        if (g->region[t] == region) {
            walk_face_centre(g, t, c);
            mean[0] += c[0], mean[1] += c[1], n++;
        }
    uint32_t best = UINT32_MAX;
    double best_d = -1;
    for (uint32_t t = 0; t < g->triangle_count; t++)
        if (g->region[t] == region) {
            walk_face_centre(g, t, c);
            double d = hypot(c[0] - mean[0] / n, c[1] - mean[1] / n);
            if (d > best_d)
                best_d = d, best = t;
        }
    return best;
}

/* The next landmark: the face whose nearest landmark so far is farthest (by the distances of
 * those placed, and in plan from those chosen since, a plan distance being no longer). */
static uint32_t farthest_face(const wm_walk_graph *g, uint32_t region, const float *bounds, uint32_t count,
                              uint32_t placed, const uint32_t *chosen, uint32_t chosen_count)
{
    float chosen_at[ROUND][3], centre[3], best_d = -1;
    for (uint32_t c = 0; c < chosen_count; c++)
        walk_face_centre(g, chosen[c], chosen_at[c]);
    uint32_t best = UINT32_MAX;
    for (uint32_t t = 0; t < g->triangle_count; t++) {
        if (g->region[t] != region)
            continue;
        float nearest = INFINITY;
        for (uint32_t k = 0; k < placed; k++)
            nearest = fminf(nearest, bounds[2 * ((size_t)t * count + k)]);
        walk_face_centre(g, t, centre);
        for (uint32_t c = 0; c < chosen_count; c++)
            nearest = fminf(nearest, hypotf(centre[0] - chosen_at[c][0], centre[1] - chosen_at[c][1]));
        if (isfinite(nearest) && nearest > best_d)
            best_d = nearest, best = t;
    }
    return best;
}


typedef struct landmark_round {
    const wm_walk_graph *graph;
    float *bounds;
    uint32_t count, first; /* landmarks first.. of count stand on faces[0..] */
    const uint32_t *faces;
} landmark_round;

static wm_result search_landmark(wm_ctx *ctx, void *user, uint32_t index)
{
    const landmark_round *round = user;
    uint32_t face = round->faces[index - round->first];
    float at[3];
    walk_face_centre(round->graph, face, at);
    return route_search_all(ctx, round->graph, at, face, round->bounds, round->count, index);
}

/* Landmarks first.. of count, on `faces`, searched side by side. */
static wm_result search_round(wm_ctx *ctx, const wm_walk_graph *g, float *bounds, uint32_t count, uint32_t first,
                              const uint32_t *faces, uint32_t n)
{
    landmark_round round = {.graph = g, .bounds = bounds, .count = count, .first = first, .faces = faces};
    wm_result results[ROUND];
    return parallel_jobs_run(ctx, 0, first, n, search_landmark, &round, results);
}

wm_result wm_walk_graph_add_landmarks(wm_ctx *ctx, wm_walk_graph *g, uint32_t count)
{
    if (!g)
        return wm_error(ctx, WM_ERR_INVALID, "landmarks: no graph");
    if (count > LANDMARKS_MOST)
        return wm_error(ctx, WM_ERR_INVALID, "landmarks: %u asked, at most %u", count, LANDMARKS_MOST);
    wm_free(ctx, g->landmarks);
    g->landmarks = NULL;
    g->landmark_count = 0;
    if (!count || !g->walkable_count)
        return WM_OK;
    size_t values = 2 * (size_t)count * g->triangle_count;
    if (values > LANDMARK_VALUES_MOST)
        return wm_error(ctx, WM_ERR_LIMIT, "landmarks: %u on %u faces would take %zu MB (at most %u MB)", count,
                        g->triangle_count, values * sizeof(float) >> 20, (unsigned)(LANDMARK_VALUES_MOST * 4 >> 20));
    float *bounds = wm_alloc_array(ctx, values, sizeof *bounds);
    if (!bounds)
        return WM_ERR_NOMEM;
    for (size_t i = 0; i < values; i++)
        bounds[i] = INFINITY;
    uint32_t region = largest_region(g), faces[ROUND] = {outermost_face(g, region)};
    wm_result r = search_round(ctx, g, bounds, count, 0, faces, 1);
    for (uint32_t placed = 1; !r && placed < count; ) {
        uint32_t n = 0;
        while (n < ROUND && placed + n < count &&
               (faces[n] = farthest_face(g, region, bounds, count, placed, faces, n)) != UINT32_MAX)
            n++;
        if (!n)
            break;
        r = search_round(ctx, g, bounds, count, placed, faces, n);
        placed += n;
    }
    if (r) {
        wm_free(ctx, bounds);
        return r;
    }
    for (size_t i = 0; i < values; i += 2)
        if (isinf(bounds[i]))
            bounds[i] = 0; /* not reached: no lower bound but 0, no upper bound */
    g->landmarks = bounds;
    g->landmark_count = count;
    return WM_OK;
}
