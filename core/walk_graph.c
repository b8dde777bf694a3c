/* The walk graph: walkable faces joined through shared edges (and room links),
 * its regions, and where a point lies on it. */
#include "walk_graph_internal.h"

#include <math.h>
#include <string.h>

/* Room links join edges whose ends lie this close (game units): an assembled
 * area places rooms by layout offsets written with a few decimals. */
#define WALK_LINK_TOLERANCE 0.01f

static wm_result copy_mesh(wm_ctx *ctx, const wm_mesh *mesh, wm_walk_graph *g)
{
    size_t n = mesh->triangle_count;
    for (size_t i = 0; i < 3 * n; i++)
        if (mesh->indices[i] >= mesh->vertex_count)
            return wm_error(ctx, WM_ERR_INVALID, "face %zu: vertex %u out of range (%u vertices)", i / 3,
                            mesh->indices[i], mesh->vertex_count);
    if (wm_mesh_check_finite(ctx, mesh))
        return WM_ERR_INVALID;
    g->vertex_count = mesh->vertex_count;
    g->triangle_count = mesh->triangle_count;
    g->positions = wm_alloc_array(ctx, 3 * (size_t)mesh->vertex_count, sizeof *g->positions);
    g->indices = wm_alloc_array(ctx, 3 * n, sizeof *g->indices);
    g->walkable = wm_alloc_array(ctx, n, 1);
    g->neighbour = wm_alloc_array(ctx, 3 * n, sizeof *g->neighbour);
    g->open = wm_alloc_array(ctx, 3 * n, 1);
    g->corner = wm_alloc_array(ctx, mesh->vertex_count, 1);
    g->region = wm_alloc_array(ctx, n, sizeof *g->region);
    if (!g->positions || !g->indices || !g->walkable || !g->neighbour || !g->open || !g->corner || !g->region)
        return WM_ERR_NOMEM;
    if (mesh->vertex_count) /* an empty mesh has no arrays to copy from */
        memcpy(g->positions, mesh->positions, 3 * (size_t)mesh->vertex_count * sizeof *g->positions);
    if (n)
        memcpy(g->indices, mesh->indices, 3 * n * sizeof *g->indices);
    for (size_t t = 0; t < n; t++)
        g->walkable[t] = mesh->walkable ? mesh->walkable[t] != 0 : 1;
    return WM_OK;
}

/* Marks the walkable edges that meet no face at all (not even a blocking one). */
static wm_result mark_open_edges(wm_ctx *ctx, wm_walk_graph *g)
{
    int32_t *all = wm_alloc_array(ctx, 3 * (size_t)g->triangle_count, sizeof *all);
    if (!all)
        return WM_ERR_NOMEM;
    wm_result r = wm_edge_adjacency(ctx, g->indices, g->triangle_count, NULL, all, NULL);
    for (size_t c = 0; !r && c < 3 * (size_t)g->triangle_count; c++)
        g->open[c] = g->walkable[c / 3] && g->neighbour[c] < 0 && all[c] < 0;
    wm_free(ctx, all);
    return r;
}

typedef struct link_slot {
    uint64_t key; /* 0: empty */
    uint32_t code;
} link_slot;

static uint64_t link_key(uint32_t a, uint32_t b)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    return (((uint64_t)lo << 32) | hi) + 1;
}

/* Joins open walkable edges with a transition to the edge of another object at the same places. */
static wm_result join_room_links(wm_ctx *ctx, const wm_mesh *mesh, wm_walk_graph *g)
{
    if (!mesh->transitions || !mesh->objects)
        return WM_OK;
    uint32_t *map = NULL, merged = 0;
    wm_result r = wm_mesh_weld_map(ctx, mesh, WALK_LINK_TOLERANCE, &map, &merged);
    if (r || !map)
        return r;
    size_t slots = 16;
    while (slots < 6 * (size_t)g->triangle_count)
        slots <<= 1;
    link_slot *table = wm_alloc_array(ctx, slots, sizeof *table);
    if (!table) {
        wm_free(ctx, map);
        return WM_ERR_NOMEM;
    }
    for (uint32_t code = 0; code < 3 * g->triangle_count; code++) {
        if (!g->walkable[code / 3] || g->neighbour[code] >= 0 || mesh->transitions[code] < 0)
            continue;
        uint32_t a = map[g->indices[code]], b = map[g->indices[code - code % 3 + (code % 3 + 1) % 3]];
        uint64_t key = link_key(a, b);
        size_t s = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (slots - 1);
        while (table[s].key && (table[s].key != key || mesh->objects[table[s].code / 3] == mesh->objects[code / 3]))
            s = (s + 1) & (slots - 1);
        if (!table[s].key) {
            table[s].key = key;
            table[s].code = code;
        } else if (g->neighbour[table[s].code] < 0) {
            g->neighbour[code] = (int32_t)table[s].code;
            g->neighbour[table[s].code] = (int32_t)code;
        }
    }
    wm_free(ctx, table);
    wm_free(ctx, map);
    return WM_OK;
}

/* Regions: walkable faces reached from each other through the joins, numbered by first face. */
static wm_result number_regions(wm_ctx *ctx, wm_walk_graph *g)
{
    uint32_t *stack = wm_alloc_array(ctx, g->triangle_count + 1, sizeof *stack);
    if (!stack)
        return WM_ERR_NOMEM;
    for (uint32_t t = 0; t < g->triangle_count; t++)
        g->region[t] = WM_NO_REGION;
    for (uint32_t t = 0; t < g->triangle_count; t++) {
        if (!g->walkable[t] || g->region[t] != WM_NO_REGION)
            continue;
        uint32_t top = 0, id = g->region_count++;
        g->region[t] = id;
        stack[top++] = t;
        while (top) {
            uint32_t f = stack[--top];
            for (uint32_t e = 0; e < 3; e++) {
                int32_t n = g->neighbour[3 * (size_t)f + e];
                if (n >= 0 && g->region[n / 3] == WM_NO_REGION) {
                    g->region[n / 3] = id;
                    stack[top++] = (uint32_t)n / 3;
                }
            }
        }
    }
    wm_free(ctx, stack);
    g->region_faces = wm_alloc_array(ctx, g->region_count, sizeof *g->region_faces);
    if (!g->region_faces)
        return WM_ERR_NOMEM;
    for (uint32_t t = 0; t < g->triangle_count; t++)
        if (g->region[t] != WM_NO_REGION)
            g->region_faces[g->region[t]]++;
    return WM_OK;
}

/* The plan angle of a face at one of its vertices (0 where an edge is a point in plan). */
static double plan_angle(const wm_walk_graph *g, size_t c)
{
    size_t base = c - c % 3;
    const float *v = g->positions + 3 * (size_t)g->indices[c];
    const float *p = g->positions + 3 * (size_t)g->indices[base + (c + 1) % 3];
    const float *q = g->positions + 3 * (size_t)g->indices[base + (c + 2) % 3];
    double a[2] = {(double)p[0] - v[0], (double)p[1] - v[1]}, b[2] = {(double)q[0] - v[0], (double)q[1] - v[1]};
    if ((a[0] == 0 && a[1] == 0) || (b[0] == 0 && b[1] == 0))
        return 0;
    return atan2(fabs(a[0] * b[1] - a[1] * b[0]), a[0] * b[0] + a[1] * b[1]);
}

/* A vertex whose walkable faces do not go once round it in plan is a corner too, though every
 * edge of it is shared: faces standing on edge, or folded over one another, close its fan in
 * the mesh while in plan the ground pinches there (or overlaps itself), and a route turns on it. */
static wm_result mark_pinched_corners(wm_ctx *ctx, wm_walk_graph *g)
{
    double *turn = wm_alloc_array(ctx, (size_t)g->vertex_count + 1, sizeof *turn);
    if (!turn)
        return WM_ERR_NOMEM;
    for (uint32_t v = 0; v < g->vertex_count; v++)
        turn[v] = 0;
    for (size_t c = 0; c < 3 * (size_t)g->triangle_count; c++)
        if (g->walkable[c / 3])
            turn[g->indices[c]] += plan_angle(g, c);
    for (uint32_t v = 0; v < g->vertex_count; v++)
        if (turn[v] > 0 && fabs(turn[v] - 6.283185307179586) > 1e-4)
            g->corner[v] = 1;
    wm_free(ctx, turn);
    return WM_OK;
}

/* Each vertex's walkable faces (a route turning at a corner vertex looks out over all of them). */
static wm_result build_fans(wm_ctx *ctx, wm_walk_graph *g)
{
    g->fan_start = wm_alloc_array(ctx, (size_t)g->vertex_count + 1, sizeof *g->fan_start);
    g->fan_corners = wm_alloc_array(ctx, 3 * (size_t)g->walkable_count, sizeof *g->fan_corners);
    if (!g->fan_start || !g->fan_corners)
        return WM_ERR_NOMEM;
    for (size_t c = 0; c < 3 * (size_t)g->triangle_count; c++)
        if (g->walkable[c / 3])
            g->fan_start[g->indices[c] + 1]++;
    for (uint32_t v = 0; v < g->vertex_count; v++)
        g->fan_start[v + 1] += g->fan_start[v];
    for (size_t c = 0; c < 3 * (size_t)g->triangle_count; c++)
        if (g->walkable[c / 3])
            g->fan_corners[g->fan_start[g->indices[c]]++] = (uint32_t)c;
    for (uint32_t v = g->vertex_count; v > 0; v--)
        g->fan_start[v] = g->fan_start[v - 1];
    g->fan_start[0] = 0;
    return WM_OK;
}

static wm_result build_locator(wm_ctx *ctx, wm_walk_graph *g)
{
    for (uint32_t t = 0; t < g->triangle_count; t++)
        g->walkable_count += g->walkable[t];
    g->walkable_faces = wm_alloc_array(ctx, g->walkable_count, sizeof *g->walkable_faces);
    g->walkable_indices = wm_alloc_array(ctx, 3 * (size_t)g->walkable_count, sizeof *g->walkable_indices);
    if (!g->walkable_faces || !g->walkable_indices)
        return WM_ERR_NOMEM;
    uint32_t k = 0;
    for (uint32_t t = 0; t < g->triangle_count; t++)
        if (g->walkable[t]) {
            g->walkable_faces[k] = t;
            memcpy(g->walkable_indices + 3 * (size_t)k++, g->indices + 3 * (size_t)t, 3 * sizeof(uint32_t));
        }
    if (!g->walkable_count)
        return WM_OK;
    return wm_aabb_build(ctx, g->positions, g->walkable_indices, g->walkable_count, &g->tree);
}

wm_result wm_walk_graph_build(wm_ctx *ctx, const wm_mesh *mesh, int link_rooms, wm_walk_graph **out)
{
    *out = NULL;
    if (!mesh)
        return wm_error(ctx, WM_ERR_INVALID, "walk graph: no mesh");
    wm_walk_graph *g = wm_alloc_array(ctx, 1, sizeof *g);
    if (!g)
        return WM_ERR_NOMEM;
    wm_result r = copy_mesh(ctx, mesh, g);
    if (!r)
        r = wm_edge_adjacency(ctx, g->indices, g->triangle_count, g->walkable, g->neighbour, NULL);
    if (!r && link_rooms)
        r = join_room_links(ctx, mesh, g);
    if (!r)
        r = mark_open_edges(ctx, g);
    for (uint32_t c = 0; !r && c < 3 * g->triangle_count; c++)
        if (g->walkable[c / 3] && g->neighbour[c] < 0) {
            g->corner[g->indices[c]] = 1;
            g->corner[g->indices[c - c % 3 + (c % 3 + 1) % 3]] = 1;
        }
    if (!r)
        r = mark_pinched_corners(ctx, g);
    if (!r)
        r = number_regions(ctx, g);
    if (!r)
        r = build_locator(ctx, g);
    if (!r)
        r = build_fans(ctx, g);
    if (r) {
        wm_walk_graph_free(ctx, g);
        return r;
    }
    *out = g;
    return WM_OK;
}

void wm_walk_graph_free(const wm_ctx *ctx, wm_walk_graph *g)
{
    if (!g)
        return;
    wm_aabb_free(ctx, &g->tree);
    wm_free(ctx, g->positions);
    wm_free(ctx, g->indices);
    wm_free(ctx, g->walkable);
    wm_free(ctx, g->neighbour);
    wm_free(ctx, g->open);
    wm_free(ctx, g->corner);
    wm_free(ctx, g->region);
    wm_free(ctx, g->region_faces);
    wm_free(ctx, g->fan_start);
    wm_free(ctx, g->fan_corners);
    wm_free(ctx, g->walkable_faces);
    wm_free(ctx, g->walkable_indices);
    wm_free(ctx, g->landmarks);
    wm_free(ctx, g);
}

uint32_t wm_walk_graph_triangle_count(const wm_walk_graph *g) { return g ? g->triangle_count : 0; }
uint32_t wm_walk_graph_region_count(const wm_walk_graph *g) { return g ? g->region_count : 0; }

uint32_t wm_walk_graph_region(const wm_walk_graph *g, uint32_t t)
{
    return g && t < g->triangle_count ? g->region[t] : WM_NO_REGION;
}

int32_t wm_walk_graph_neighbour(const wm_walk_graph *g, uint32_t t, uint32_t e)
{
    return g && t < g->triangle_count && e < 3 ? g->neighbour[3 * (size_t)t + e] : -1;
}

float walk_face_height(const wm_walk_graph *g, uint32_t face, double x, double y)
{
    float z;
    const float *a = walk_vertex(g, face, 0);
    if (!wm_tri_height_at(a, walk_vertex(g, face, 1), walk_vertex(g, face, 2), (float)x, (float)y, &z))
        return a[2];
    return z;
}

void walk_face_centre(const wm_walk_graph *g, uint32_t face, float out[3])
{
    for (uint32_t k = 0; k < 3; k++)
        out[k] = (walk_vertex(g, face, 0)[k] + walk_vertex(g, face, 1)[k] + walk_vertex(g, face, 2)[k]) / 3.0f;
}

double walk_face_area(const wm_walk_graph *g, uint32_t face)
{
    return wm_tri_area(walk_vertex(g, face, 0), walk_vertex(g, face, 1), walk_vertex(g, face, 2));
}

typedef struct locate_state {
    const wm_walk_graph *graph;
    float x, y, z;
    int has_z;
    uint32_t best;
    float best_height, best_off;
} locate_state;

static int locate_visit(void *user, uint32_t k)
{
    locate_state *s = user;
    const wm_walk_graph *g = s->graph;
    uint32_t face = g->walkable_faces[k];
    const float *a = walk_vertex(g, face, 0), *b = walk_vertex(g, face, 1), *c = walk_vertex(g, face, 2);
    double plan = ((double)b[0] - a[0]) * ((double)c[1] - a[1]) - ((double)b[1] - a[1]) * ((double)c[0] - a[0]);
    if (fabs(plan) < 1e-9 || !wm_point_in_tri_xy(a, b, c, s->x, s->y, 1e-5f))
        return 0; /* a face seen edge-on from above holds no ground */
    float h = walk_face_height(g, face, s->x, s->y);
    /* faces at one place and height (a placeable's piece laid on a floor, a flipped copy): one
     * facing up wins over one facing down, then the one of the larger region */
    float off = (plan < 0 ? 1e-3f : 0.0f) + 1e-4f / (float)g->region_faces[g->region[face]];
    float score = s->has_z ? fabsf(h - s->z) + off : -h + off;
    if (s->best == WM_NO_REGION || score < s->best_off) {
        s->best = face;
        s->best_height = h;
        s->best_off = score;
    }
    return 0;
}

wm_result wm_walk_locate(wm_ctx *ctx, const wm_walk_graph *g, const float p[3], int has_z, uint32_t *out_face,
                         float *out_height)
{
    *out_face = WM_NO_REGION;
    if (!g || !p)
        return wm_error(ctx, WM_ERR_INVALID, "locate: no graph or point");
    if (!isfinite(p[0]) || !isfinite(p[1]) || (has_z && !isfinite(p[2])))
        return wm_error(ctx, WM_ERR_INVALID, "the point (%g, %g) is not finite", p[0], p[1]);
    locate_state s = {g, p[0], p[1], has_z ? p[2] : 0, has_z, WM_NO_REGION, 0, 0};
    if (g->walkable_count)
        wm_aabb_query_xy(&g->tree, p[0], p[1], locate_visit, &s);
    *out_face = s.best;
    if (out_height)
        *out_height = s.best_height;
    return WM_OK;
}
