/* Walkable pieces: triangles joined through shared corners (after the weld). Recast keeps
 * every flat top an agent fits on (roofs, tables, the ground outside a room's walls);
 * a game room's walkmesh is the floor the player reaches, which in the corpus rooms is the
 * largest piece (FORMAT-NOTES §5: IoU 0.80 -> 0.93 keeping only it). Blocking faces are
 * joined among themselves and stay where they touch a kept walkable piece: the floor's border
 * and the ground under props, not the steep roofs and terrain beyond the walls. */
#include "generate_internal.h"

#include <math.h>
#include <stdlib.h>

static uint32_t root_of(uint32_t *parent, uint32_t v)
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]]; /* path halving keeps the walk short */
        v = parent[v];
    }
    return v;
}

static double triangle_area(const wm_mesh *m, uint32_t t)
{
    const uint32_t *i = m->indices + 3 * (size_t)t;
    const float *a = m->positions + 3 * (size_t)i[0], *b = m->positions + 3 * (size_t)i[1],
                *c = m->positions + 3 * (size_t)i[2];
    return 0.5 * fabs((double)(b[0] - a[0]) * (c[1] - a[1]) - (double)(c[0] - a[0]) * (b[1] - a[1]));
}

/* Joins (in parent, over vertices) the corners of the triangles whose walkable flag is `walkable`. */
static void join_corners(const wm_mesh *m, uint32_t *parent, int walkable)
{
    for (uint32_t v = 0; v < m->vertex_count; v++)
        parent[v] = v;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        if (m->walkable[t] != walkable)
            continue;
        const uint32_t *i = m->indices + 3 * (size_t)t;
        uint32_t a = root_of(parent, i[0]);
        for (int k = 1; k < 3; k++) {
            uint32_t b = root_of(parent, i[k]);
            if (a != b)
                parent[b] = a;
        }
    }
}

typedef struct edge_key {
    uint64_t corners; /* the lower corner's index above the higher's */
    uint32_t triangle;
    int forward;      /* the face runs the edge from its lower corner to its higher */
} edge_key;

static int by_corners(const void *a, const void *b)
{
    uint64_t x = ((const edge_key *)a)->corners, y = ((const edge_key *)b)->corners;
    return (x > y) - (x < y);
}

/* The edges of m's triangles (only the walkable ones' with walkable_only), sorted so that the
 * faces of one edge come together; edges holds 3 per triangle. Returns how many. */
static size_t sorted_edges(const wm_mesh *m, int walkable_only, edge_key *edges)
{
    size_t count = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++)
        for (int k = 0; k < 3 && (m->walkable[t] || !walkable_only); k++) {
            uint64_t a = m->indices[3 * (size_t)t + k], b = m->indices[3 * (size_t)t + (k + 1) % 3];
            edges[count++] = (edge_key){a < b ? a << 32 | b : b << 32 | a, t, a < b};
        }
    qsort(edges, count, sizeof *edges, by_corners);
    return count;
}

/* Joins (in parent, over triangles) the walkable triangles that share an edge: a blocking
 * strip's corner touching two walkable floors does not make them one piece. */
static wm_result join_walkable_edges(wm_ctx *ctx, const wm_mesh *m, uint32_t *parent)
{
    edge_key *edges = wm_alloc_array(ctx, 3 * (size_t)m->triangle_count + 1, sizeof *edges);
    if (!edges)
        return WM_ERR_NOMEM;
    for (uint32_t t = 0; t < m->triangle_count; t++)
        parent[t] = t;
    size_t count = sorted_edges(m, 1, edges);
    for (size_t i = 1; i < count; i++)
        if (edges[i].corners == edges[i - 1].corners) {
            uint32_t a = root_of(parent, edges[i - 1].triangle), b = root_of(parent, edges[i].triangle);
            if (a != b)
                parent[b] = a;
        }
    wm_free(ctx, edges);
    return WM_OK;
}

/* keep[t] for the walkable triangles of the pieces whose area reaches min_area and
 * keep_fraction of the largest's. */
static wm_result keep_large_pieces(wm_ctx *ctx, const wm_mesh *m, uint32_t *parent, double *area, float min_area,
                                   float keep_fraction, uint8_t *keep)
{
    wm_result r = join_walkable_edges(ctx, m, parent);
    if (r)
        return r;
    for (uint32_t t = 0; t < m->triangle_count; t++)
        area[t] = 0;
    double largest = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        if (!m->walkable[t])
            continue;
        uint32_t root = root_of(parent, t);
        area[root] += triangle_area(m, t);
        largest = fmax(largest, area[root]);
    }
    double least = fmax((double)min_area, largest * keep_fraction);
    for (uint32_t t = 0; t < m->triangle_count; t++)
        keep[t] = m->walkable[t] && area[root_of(parent, t)] >= least;
    return WM_OK;
}

/* keep[t] for the blocking triangles joined (among themselves, through corners) to a corner of
 * a kept walkable one, in pieces of at least min_area. */
static void keep_touching_blocking(const wm_mesh *m, uint32_t *parent, double *area, uint8_t *touched, float min_area,
                                   uint8_t *keep)
{
    join_corners(m, parent, 0);
    for (uint32_t v = 0; v < m->vertex_count; v++)
        touched[v] = 0, area[v] = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        for (int k = 0; k < 3 && keep[t]; k++)
            touched[m->indices[3 * (size_t)t + k]] = 1;
        if (!m->walkable[t])
            area[root_of(parent, m->indices[3 * (size_t)t])] += triangle_area(m, t);
    }
    for (uint32_t v = 0; v < m->vertex_count; v++)
        if (touched[v])
            touched[root_of(parent, v)] = 1;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        uint32_t root = root_of(parent, m->indices[3 * (size_t)t]);
        if (!m->walkable[t])
            keep[t] = touched[root] && area[root] >= min_area;
    }
}

static void drop_unkept(wm_mesh *m, const uint8_t *keep, uint32_t *dropped)
{
    uint32_t kept = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        if (!keep[t]) {
            (*dropped)++;
            continue;
        }
        for (int k = 0; k < 3; k++)
            m->indices[3 * (size_t)kept + k] = m->indices[3 * (size_t)t + k];
        m->surfaces[kept] = m->surfaces[t], m->walkable[kept] = m->walkable[t], m->objects[kept] = m->objects[t];
        for (int k = 0; k < 3; k++)
            m->transitions[3 * (size_t)kept + k] = m->transitions[3 * (size_t)t + k];
        kept++;
    }
    m->triangle_count = kept;
}

wm_result generate_drop_pieces(wm_ctx *ctx, wm_mesh *m, float min_area, float keep_fraction, uint32_t *dropped)
{
    *dropped = 0;
    size_t items = (m->vertex_count > m->triangle_count ? m->vertex_count : m->triangle_count) + (size_t)1;
    uint32_t *parent = wm_alloc_array(ctx, items, sizeof *parent);
    double *area = wm_alloc_array(ctx, items, sizeof *area);
    uint8_t *keep = wm_alloc_array(ctx, items, 1), *touched = wm_alloc_array(ctx, items, 1);
    wm_result r = parent && area && keep && touched ? WM_OK : WM_ERR_NOMEM;
    uint32_t walkable = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++)
        walkable += m->walkable[t] != 0;
    /* with nothing walkable (a floor all lava) there is no piece to judge by: all stays */
    if (!r && walkable)
        r = keep_large_pieces(ctx, m, parent, area, min_area, keep_fraction, keep);
    if (!r && walkable)
        keep_touching_blocking(m, parent, area, touched, min_area, keep);
    if (!r && walkable)
        drop_unkept(m, keep, dropped);
    wm_free(ctx, parent), wm_free(ctx, area), wm_free(ctx, keep), wm_free(ctx, touched);
    return r;
}

/* Joins faces[a] and faces[b] (both at v) in group when they share an edge from v. */
static void join_fans(const wm_mesh *m, const uint32_t *faces, uint32_t n, uint32_t v, uint8_t *group)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t b = a + 1; b < n; b++) {
                const uint32_t *p = m->indices + 3 * (size_t)faces[a], *q = m->indices + 3 * (size_t)faces[b];
                int shared = 0;
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j < 3; j++)
                        shared += p[i] == q[j] && p[i] != v;
                uint8_t low = group[a] < group[b] ? group[a] : group[b];
                if (shared && group[a] != group[b])
                    group[a] = group[b] = low, changed = 1;
            }
    }
}

/* A corner where walkable fans meet at the point only (two floors touching across a blocking
 * strip's corner) becomes one corner per fan: a walkmesh's perimeters pass each corner once. */
static wm_result split_fan(wm_ctx *ctx, wm_mesh *m, const uint32_t *faces, uint32_t n, uint32_t v)
{
    uint8_t group[GENERATE_RING_MAX];
    for (uint32_t i = 0; i < n; i++)
        group[i] = (uint8_t)i;
    join_fans(m, faces, n, v, group);
    for (uint8_t g = 1; g < n; g++) {
        uint32_t copy = UINT32_MAX;
        for (uint32_t i = 0; i < n; i++) {
            if (group[i] != g)
                continue;
            if (copy == UINT32_MAX) {
                const float *p = m->positions + 3 * (size_t)v;
                wm_result r = wm_mesh_add_vertex(ctx, m, p[0], p[1], p[2], &copy);
                if (r)
                    return r;
            }
            uint32_t *t = m->indices + 3 * (size_t)faces[i];
            for (int k = 0; k < 3; k++)
                t[k] = t[k] == v ? copy : t[k];
        }
    }
    return WM_OK;
}

wm_result generate_split_touching_corners(wm_ctx *ctx, wm_mesh *m)
{
    uint32_t vertices = m->vertex_count;
    uint32_t *first = wm_alloc_array(ctx, (size_t)vertices + 2, sizeof *first);
    uint32_t *faces = wm_alloc_array(ctx, 3 * (size_t)m->triangle_count + 1, sizeof *faces);
    wm_result r = first && faces ? WM_OK : WM_ERR_NOMEM;
    for (uint32_t v = 0; !r && v <= vertices + 1; v++)
        first[v] = 0;
    for (uint32_t t = 0; !r && t < m->triangle_count; t++)
        for (int k = 0; k < 3 && m->walkable[t]; k++)
            first[m->indices[3 * (size_t)t + k] + 2]++;
    for (uint32_t v = 0; !r && v < vertices; v++)
        first[v + 2] += first[v + 1];
    for (uint32_t t = 0; !r && t < m->triangle_count; t++)
        for (int k = 0; k < 3 && m->walkable[t]; k++)
            faces[first[m->indices[3 * (size_t)t + k] + 1]++] = t;
    /* first[v] .. first[v + 1] now hold v's walkable faces */
    for (uint32_t v = 0; !r && v < vertices; v++) {
        uint32_t n = first[v + 1] - first[v];
        if (n >= 2 && n < GENERATE_RING_MAX)
            r = split_fan(ctx, m, faces + first[v], n, v);
    }
    wm_free(ctx, first), wm_free(ctx, faces);
    return r;
}

/* In a run of edge keys (one edge), drops each face that lies on the same side of the edge as a
 * larger one (the edge in the same direction): two faces stacked there, one too many. */
static void drop_stacked(const wm_mesh *m, const edge_key *run, size_t count, uint8_t *keep)
{
    for (size_t i = 0; i < count; i++)
        for (size_t j = 0; j < count; j++) {
            uint32_t a = run[i].triangle, b = run[j].triangle;
            if (a == b || run[i].forward != run[j].forward)
                continue;
            double area_a = triangle_area(m, a), area_b = triangle_area(m, b);
            if (area_a < area_b || (area_a == area_b && a > b))
                keep[a] = 0;
        }
}

wm_result generate_drop_stacked_faces(wm_ctx *ctx, wm_mesh *m, uint32_t *dropped)
{
    *dropped = 0;
    edge_key *edges = wm_alloc_array(ctx, 3 * (size_t)m->triangle_count + 1, sizeof *edges);
    uint8_t *keep = wm_alloc_array(ctx, (size_t)m->triangle_count + 1, 1);
    if (!edges || !keep) {
        wm_free(ctx, edges), wm_free(ctx, keep);
        return WM_ERR_NOMEM;
    }
    for (uint32_t t = 0; t < m->triangle_count; t++)
        keep[t] = 1;
    size_t count = sorted_edges(m, 0, edges);
    for (size_t i = 0, j; i < count; i = j) {
        for (j = i + 1; j < count && edges[j].corners == edges[i].corners;)
            j++;
        if (j - i > 2)
            drop_stacked(m, edges + i, j - i, keep);
    }
    drop_unkept(m, keep, dropped);
    wm_free(ctx, edges), wm_free(ctx, keep);
    return WM_OK;
}
