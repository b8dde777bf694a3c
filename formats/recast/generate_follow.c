/* Whether simplified faces still follow the render floor: each new face is sampled along its
 * edges and on a grid inside it, and every sample must find the render floor within the error.
 * The error is measured against the floor itself, not against the faces replaced, so removals
 * do not add up: a face many removals old is as close to the floor as the first one. */
#include "generate_internal.h"

#include <math.h>

/* Faces larger than this many cells of samples together stay as they are: one removal's work
 * is bounded whatever the input (4 Mi cells: 42,000 square metres at KotOR's 10 cm). */
#define FOLLOW_MAX_CELLS (4.0 * 1024 * 1024)

typedef struct face_plan {
    const float *corner[3];
    float lo[2], hi[2]; /* the box in plan view */
} face_plan;

static void plan_of(const wm_mesh *m, const uint32_t *corners, face_plan *f)
{
    f->lo[0] = f->lo[1] = INFINITY, f->hi[0] = f->hi[1] = -INFINITY;
    for (int k = 0; k < 3; k++) {
        f->corner[k] = m->positions + 3 * (size_t)corners[k];
        for (int a = 0; a < 2; a++)
            f->lo[a] = fminf(f->lo[a], f->corner[k][a]), f->hi[a] = fmaxf(f->hi[a], f->corner[k][a]);
    }
}

/* The face's height at (x, y); 0 when (x, y) lies outside it by more than `slack`. */
static int height_on(const face_plan *f, double x, double y, double slack, double *z)
{
    float height, outside;
    if (!corners_height(f->corner[0], f->corner[1], f->corner[2], (float)x, (float)y, &height, &outside) ||
        outside > slack)
        return 0;
    *z = height;
    return 1;
}

typedef struct follow {
    const floor_limits *limits;
    const wm_mesh *mesh;
    const uint32_t *old;
    uint32_t old_count;
    face_plan old_plan[GENERATE_RING_MAX]; /* the old faces' corners and boxes, found once */
    uint32_t hint; /* the floor triangle the last sample found */
} follow;

static int old_height(const follow *w, double x, double y, double *z)
{
    for (uint32_t i = 0; i < w->old_count; i++)
        if (height_on(&w->old_plan[i], x, y, 1e-5, z))
            return 1;
    return 0;
}

/* A point of a new face at height z: within the error of the floor, or no farther from it than
 * the old faces were there (Recast's own faces across a step stay as they were, no worse); with
 * no floor under it, within the error of the old faces. A point outside the old faces (ground
 * the outline gains) needs the floor within the error, or no floor at all (the outline's
 * distance from Recast's decides there: generate_simplify.c). */
static int sample_fits(follow *w, double x, double y, double z)
{
    float floor_z;
    int on_floor = floor_under(w->limits, (float)x, (float)y, (float)z, &w->hint, &floor_z);
    double error = w->limits->error, old_z;
    if (on_floor && fabs(z - floor_z) <= error)
        return 1;
    if (!old_height(w, x, y, &old_z))
        return !on_floor; /* ground the outline gains: over no floor the outline's rule decides */
    if (!on_floor)
        return fabs(old_z - z) <= error;
    return fabs(z - floor_z) <= fabs(old_z - floor_z) + 1e-4;
}

/* An edge of the old faces (both ends on one of them) is where it was. */
static int old_edge(const follow *w, const uint32_t *made, int a, int b)
{
    for (uint32_t i = 0; i < w->old_count; i++) {
        const uint32_t *t = w->mesh->indices + 3 * (size_t)w->old[i];
        int has_a = t[0] == made[a] || t[1] == made[a] || t[2] == made[a];
        int has_b = t[0] == made[b] || t[1] == made[b] || t[2] == made[b];
        if (has_a && has_b)
            return 1;
    }
    return 0;
}

static int edge_fits(follow *w, const float *a, const float *b)
{
    double length = hypot(b[0] - a[0], b[1] - a[1]);
    int steps = (int)ceil(length / w->limits->step);
    steps = steps < 2 ? 2 : steps;
    for (int i = 1; i < steps; i++) {
        double t = (double)i / steps;
        if (!sample_fits(w, a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])))
            return 0;
    }
    return 1;
}

/* Where the row at height y crosses the face's edges, as [*lo, *hi] in x. */
static int row_span(const face_plan *f, double y, double *lo, double *hi)
{
    *lo = INFINITY, *hi = -INFINITY;
    for (int k = 0; k < 3; k++) {
        const float *p = f->corner[k], *q = f->corner[(k + 1) % 3];
        if ((y < p[1] && y < q[1]) || (y > p[1] && y > q[1]) || p[1] == q[1])
            continue;
        double x = p[0] + (y - p[1]) / (q[1] - p[1]) * (q[0] - p[0]);
        *lo = fmin(*lo, x), *hi = fmax(*hi, x);
    }
    return *lo <= *hi;
}

typedef struct corner_visit {
    follow *w;
    const face_plan *face;
} corner_visit;

static int corner_fits(void *user, const float *corner)
{
    corner_visit *visit = user;
    double z;
    const face_plan *f = visit->face;
    if (corner[0] < f->lo[0] || corner[0] > f->hi[0] || corner[1] < f->lo[1] || corner[1] > f->hi[1] ||
        !height_on(f, corner[0], corner[1], 0, &z))
        return 1;
    /* the corner is a point of the floor: within the error of it, the face fits there */
    return fabs(z - corner[2]) <= visit->w->limits->error || sample_fits(visit->w, corner[0], corner[1], z);
}

/* The render floor is flat between its corners, so the face strays farthest from it at a floor
 * corner inside the face or where a floor edge crosses the face's edge (near an edge sample). */
static int floor_corners_fit(follow *w, const face_plan *f)
{
    corner_visit visit = {w, f};
    return floor_each_corner(w->limits->floor, f->lo, f->hi, corner_fits, &visit);
}

/* The face's inside on the grid of `step` (rows, then the cells across each row). */
static int inside_fits(follow *w, const face_plan *f)
{
    double step = w->limits->step, lo_y = INFINITY, hi_y = -INFINITY;
    for (int k = 0; k < 3; k++)
        lo_y = fmin(lo_y, f->corner[k][1]), hi_y = fmax(hi_y, f->corner[k][1]);
    for (double row = floor(lo_y / step) + 0.5; row * step <= hi_y; row += 1) {
        double y = row * step, lo, hi, z;
        if (y < lo_y || !row_span(f, y, &lo, &hi))
            continue;
        for (double col = ceil(lo / step - 0.5) + 0.5; col * step <= hi; col += 1)
            if (height_on(f, col * step, y, 1e-5, &z) && !sample_fits(w, col * step, y, z))
                return 0;
    }
    return 1;
}

int faces_follow_floor(const floor_limits *limits, const wm_mesh *m, const uint32_t *made, int faces,
                       const uint32_t *old, uint32_t old_count)
{
    if (old_count > GENERATE_RING_MAX)
        return 0;
    follow w = {.limits = limits, .mesh = m, .old = old, .old_count = old_count, .hint = UINT32_MAX};
    for (uint32_t i = 0; i < old_count; i++)
        plan_of(m, m->indices + 3 * (size_t)old[i], &w.old_plan[i]);
    double area = 0;
    for (int i = 0; i < faces; i++) {
        face_plan f;
        plan_of(m, made + 3 * i, &f);
        area += fabs((double)(f.corner[1][0] - f.corner[0][0]) * (f.corner[2][1] - f.corner[0][1]) -
                     (double)(f.corner[2][0] - f.corner[0][0]) * (f.corner[1][1] - f.corner[0][1])) / 2;
    }
    if (area > FOLLOW_MAX_CELLS * limits->step * limits->step)
        return 0;
    for (int i = 0; i < faces; i++) {
        face_plan f;
        plan_of(m, made + 3 * i, &f);
        for (int k = 0; k < 3; k++)
            if (!old_edge(&w, made + 3 * i, k, (k + 1) % 3) && !edge_fits(&w, f.corner[k], f.corner[(k + 1) % 3]))
                return 0;
        if (!inside_fits(&w, &f) || !floor_corners_fit(&w, &f))
            return 0;
    }
    return 1;
}
