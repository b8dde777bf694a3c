/* Invariant checks of a TRN/TRX (FORMAT-NOTES section 2), edge/triangle
 * agreement, tiles and their path tables, islands and the island path table.
 * Toolset quirks seen in real files are warnings (docs/nwn2.md). */
#include "nwn2.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LISTED 200u

typedef struct vstate {
    wm_report *rep;
    wm_ctx *ctx;
    const nwn2_aswm *a;
    uint32_t listed;
    uint32_t dropped[3];
} vstate;

static void add(vstate *v, wm_severity sev, const char *loc, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(4, 5)
#endif
    ;

static void add(vstate *v, wm_severity sev, const char *loc, const char *fmt, ...)
{
    if (v->listed >= MAX_LISTED) {
        v->dropped[sev]++;
        return;
    }
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    wm_report_finding(v->rep, sev, loc, "%s", msg);
    v->listed++;
}

static const char *loc(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(3, 4)
#endif
    ;

static const char *loc(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return buf;
}

static int tri_has_side(const nwn2_triangle *t, uint32_t p, uint32_t q, int *out_side)
{
    for (int k = 0; k < 3; k++) {
        uint32_t a = t->v[k], b = t->v[(k + 1) % 3];
        if ((a == p && b == q) || (a == q && b == p)) {
            if (out_side)
                *out_side = k;
            return 1;
        }
    }
    return 0;
}

static int near(double stored, double computed, double tol)
{
    return fabs(stored - computed) <= tol * (1.0 + fabs(computed));
}

static int is_walkable(const nwn2_aswm *a, uint32_t t)
{
    return t < a->triangle_count && (a->triangles[t].flags & NWN2_TRI_WALKABLE);
}

static void check_container(vstate *v, const nwn2_file *f)
{
    const nwn2_container *c = &f->container;
    char where[64];
    if (c->major != 2 || c->minor != 3)
        add(v, WM_SEV_WARNING, "container", "version %u.%u (real files are 2.3)", c->major, c->minor);
    int32_t trwh = nwn2_container_find(c, "TRWH", 0);
    if (trwh < 0) {
        add(v, WM_SEV_WARNING, "container", "no TRWH packet");
    } else {
        nwn2_trwh wh;
        if (nwn2_trwh_parse(v->ctx, c->packets[trwh].payload, c->packets[trwh].size, "TRWH", &wh))
            add(v, WM_SEV_ERROR, loc(where, sizeof where, "packet %d (TRWH)", (int)trwh), "%u bytes, 12 expected",
                c->packets[trwh].size);
        else if (f->aswm_packet >= 0 && (wh.width != f->aswm.grid_width || wh.height != f->aswm.grid_height))
            add(v, WM_SEV_WARNING, loc(where, sizeof where, "packet %d (TRWH)", (int)trwh),
                "size %ux%u differs from the ASWM tile grid %ux%u", wh.width, wh.height, f->aswm.grid_width,
                f->aswm.grid_height);
    }
    if (f->aswm_packet < 0)
        add(v, WM_SEV_ERROR, "container", "no ASWM (walkmesh) packet");
    else if (nwn2_container_find(c, "ASWM", (uint32_t)f->aswm_packet + 1) >= 0)
        add(v, WM_SEV_WARNING, "container", "several ASWM packets; only the first is used");
}

static void check_header_and_vertices(vstate *v)
{
    const nwn2_aswm *a = v->a;
    char where[64];
    if (a->owns_data != 1)
        add(v, WM_SEV_WARNING, "ASWM header", "owns_data is %u (1 in real files)", a->owns_data);
    if (a->reserved != 0)
        add(v, WM_SEV_WARNING, "ASWM header", "reserved field is %u (0 in real files)", a->reserved);
    for (uint32_t i = 0; i < a->vertex_count; i++) {
        const float *p = &a->vertices[3 * (size_t)i];
        if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
            add(v, WM_SEV_ERROR, loc(where, sizeof where, "vertex %u", i), "coordinate is not finite");
    }
}

static void check_edges(vstate *v)
{
    const nwn2_aswm *a = v->a;
    char where[64];
    for (uint32_t e = 0; e < a->edge_count; e++) {
        const nwn2_edge *ed = &a->edges[e];
        loc(where, sizeof where, "edge %u", e);
        if (ed->v[0] >= a->vertex_count || ed->v[1] >= a->vertex_count) {
            add(v, WM_SEV_ERROR, where, "vertex index %u/%u out of range (%u vertices)", ed->v[0], ed->v[1],
                a->vertex_count);
            continue;
        }
        if (ed->tri[0] == NWN2_NONE32)
            add(v, WM_SEV_ERROR, where, "first triangle is none");
        for (int s = 0; s < 2; s++) {
            uint32_t t = ed->tri[s];
            if (t == NWN2_NONE32)
                continue;
            if (t >= a->triangle_count) {
                add(v, WM_SEV_ERROR, where, "triangle %u out of range (%u triangles)", t, a->triangle_count);
                continue;
            }
            const nwn2_triangle *tri = &a->triangles[t];
            if (!tri_has_side(tri, ed->v[0], ed->v[1], NULL))
                add(v, WM_SEV_ERROR, where, "vertices %u-%u are not a side of triangle %u", ed->v[0], ed->v[1], t);
            else if (tri->edge[0] != e && tri->edge[1] != e && tri->edge[2] != e)
                add(v, WM_SEV_ERROR, where, "triangle %u does not list this edge", t);
        }
        if (ed->tri[0] != NWN2_NONE32 && ed->tri[0] == ed->tri[1])
            add(v, WM_SEV_ERROR, where, "both sides are triangle %u", ed->tri[0]);
    }
}

/* The stored plane (normal, d) against the triangle's vertices. The toolset's
 * own files drift on near-degenerate triangles (FORMAT-NOTES section 2), so
 * drift is judged against the triangle's size: an error only when the plane
 * misses a vertex by more than PLANE_ERROR_FRACTION of the longest side or
 * the normal is not a unit vector facing the triangle's way (heights and
 * slopes the engine takes from it would be wrong); else a warning with the
 * figures. */
#define PLANE_ERROR_FRACTION 0.01
#define PLANE_WARN_DRIFT 1e-3

static void check_plane(vstate *v, uint32_t t, const char *where, const float normal[3], float d)
{
    const nwn2_aswm *a = v->a;
    const nwn2_triangle *tri = &a->triangles[t];
    double dn = fabs(tri->normal[0] - normal[0]) + fabs(tri->normal[1] - normal[1]) + fabs(tri->normal[2] - normal[2]);
    double sliver = nwn2_triangle_sliver(a, t);
    if (sliver < NWN2_SLIVER_RATIO) {
        /* quirk: the toolset writes (1,0,0) and d = -v0.x for slivers */
        if (dn > 1e-3 || !near(tri->d, d, 1e-3))
            add(v, WM_SEV_WARNING, where, "sliver (area ratio %.2g): normal (%g, %g, %g) and d %g not checked", sliver,
                (double)tri->normal[0], (double)tri->normal[1], (double)tri->normal[2], (double)tri->d);
        return;
    }
    double len = 0.0, dot = 0.0, drift = 0.0, longest = 0.0;
    for (int k = 0; k < 3; k++) {
        len += (double)tri->normal[k] * tri->normal[k];
        dot += (double)tri->normal[k] * normal[k];
    }
    len = sqrt(len);
    for (int i = 0; i < 3; i++) {
        const float *p = &a->vertices[3 * (size_t)tri->v[i]], *q = &a->vertices[3 * (size_t)tri->v[(i + 1) % 3]];
        double off = (double)tri->d, side = 0.0;
        for (int k = 0; k < 3; k++) {
            off += (double)tri->normal[k] * p[k];
            side += ((double)q[k] - p[k]) * ((double)q[k] - p[k]);
        }
        drift = fabs(off) > drift ? fabs(off) : drift;
        longest = side > longest ? side : longest;
    }
    longest = sqrt(longest);
    double angle = acos(dot / (len > 0.0 ? len : 1.0) > 1.0 ? 1.0 : dot / (len > 0.0 ? len : 1.0)) * 57.29577951308232;
    if (!(fabs(len - 1.0) <= 1e-2) || !(dot > 0.5))
        add(v, WM_SEV_ERROR, where,
            "normal (%g, %g, %g) is not the triangle's: length %.4g, %.3g degrees from the computed (%g, %g, %g)",
            (double)tri->normal[0], (double)tri->normal[1], (double)tri->normal[2], len, angle, (double)normal[0],
            (double)normal[1], (double)normal[2]);
    else if (!(drift <= PLANE_ERROR_FRACTION * longest))
        add(v, WM_SEV_ERROR, where,
            "stored plane (d %g) misses a vertex by %.3g (%.2g of the longest side %.3g; at most %g allowed)",
            (double)tri->d, drift, drift / longest, longest, PLANE_ERROR_FRACTION);
    else if (dn > 1e-3 || drift > PLANE_WARN_DRIFT)
        add(v, WM_SEV_WARNING, where,
            "stored normal and d drift from a recomputation: normal %.3g degrees off, vertices up to %.3g from "
            "the stored plane (%.2g of the longest side %.3g; area ratio %.2g)",
            angle, drift, drift / longest, longest, sliver);
}

static void check_triangle(vstate *v, uint32_t t)
{
    const nwn2_aswm *a = v->a;
    const nwn2_triangle *tri = &a->triangles[t];
    char where[64];
    loc(where, sizeof where, "triangle %u", t);
    for (int k = 0; k < 3; k++)
        if (tri->v[k] >= a->vertex_count) {
            add(v, WM_SEV_ERROR, where, "vertex index %u out of range (%u vertices)", tri->v[k], a->vertex_count);
            return;
        }
    if (tri->v[0] == tri->v[1] || tri->v[1] == tri->v[2] || tri->v[0] == tri->v[2])
        add(v, WM_SEV_WARNING, where, "repeats a vertex (%u %u %u)", tri->v[0], tri->v[1], tri->v[2]);
    int covered = 0;
    for (int k = 0; k < 3; k++) {
        uint32_t e = tri->edge[k];
        if (e >= a->edge_count) {
            add(v, WM_SEV_ERROR, where, "edge slot %d: edge %u out of range (%u edges)", k, e, a->edge_count);
            continue;
        }
        const nwn2_edge *ed = &a->edges[e];
        int side;
        if (!tri_has_side(tri, ed->v[0], ed->v[1], &side)) {
            add(v, WM_SEV_ERROR, where, "edge slot %d: edge %u (%u-%u) is not a side", k, e, ed->v[0], ed->v[1]);
            continue;
        }
        if (covered & (1 << side))
            add(v, WM_SEV_ERROR, where, "edge slot %d: side %d listed twice", k, side);
        covered |= 1 << side;
        uint32_t other;
        if (ed->tri[0] == t)
            other = ed->tri[1];
        else if (ed->tri[1] == t)
            other = ed->tri[0];
        else {
            add(v, WM_SEV_ERROR, where, "edge slot %d: edge %u belongs to triangles %u/%u, not this one", k, e,
                ed->tri[0], ed->tri[1]);
            continue;
        }
        if (tri->neighbour[k] != other)
            add(v, WM_SEV_ERROR, where, "neighbour slot %d is %u but edge %u joins triangle %u", k, tri->neighbour[k],
                e, other);
    }
    float centre[2], normal[3], d;
    nwn2_triangle_geometry(a, t, centre, normal, &d);
    if (!near(tri->centre[0], centre[0], 1e-4) || !near(tri->centre[1], centre[1], 1e-4))
        add(v, WM_SEV_ERROR, where, "centre (%g, %g) is not the vertex mean (%g, %g)", (double)tri->centre[0],
            (double)tri->centre[1], (double)centre[0], (double)centre[1]);
    check_plane(v, t, where, normal, d);
    if (tri->flags & ~(uint16_t)(NWN2_TRI_WALKABLE | NWN2_TRI_CLOCKWISE | NWN2_TRI_SURFACE_MASK))
        add(v, WM_SEV_WARNING, where, "unknown flag bits 0x%x", tri->flags & ~0x3FFDu);
    uint32_t surf = tri->flags & NWN2_TRI_SURFACE_MASK;
    if (surf & (surf - 1))
        add(v, WM_SEV_WARNING, where, "several surface flags (0x%x)", surf);
}

/* Triangles with the same three vertex positions as an earlier one. The
 * toolset's files hold some (FORMAT-NOTES section 2; its edge links keep
 * pointing at the real neighbours): a warning. */
static wm_result check_duplicates(vstate *v)
{
    const nwn2_aswm *a = v->a;
    nwn2_corner_key *keys = wm_alloc_array(v->ctx, a->triangle_count ? a->triangle_count : 1, sizeof *keys);
    if (!keys)
        return WM_ERR_NOMEM;
    uint32_t n = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        const uint32_t *tv = a->triangles[t].v;
        if (tv[0] >= a->vertex_count || tv[1] >= a->vertex_count || tv[2] >= a->vertex_count)
            continue; /* reported by check_triangle */
        nwn2_corner_key_make(&keys[n++], a->vertices, tv, t);
    }
    qsort(keys, n, sizeof *keys, nwn2_corner_key_cmp);
    char where[64];
    for (uint32_t i = 1; i < n; i++)
        if (nwn2_corner_key_same(&keys[i], &keys[i - 1]))
            add(v, WM_SEV_WARNING, loc(where, sizeof where, "triangle %u", keys[i].index),
                "duplicate of triangle %u (the same three vertex positions)", keys[i - 1].index);
    wm_free(v->ctx, keys);
    return WM_OK;
}

typedef struct tile_box {
    double x0, y0, x1, y1;
} tile_box;

static tile_box tile_bounds(const nwn2_aswm *a, uint32_t i)
{
    tile_box b;
    b.x0 = (double)(i % a->grid_width) * a->tile_width;
    b.y0 = (double)(i / a->grid_width) * a->tile_width;
    b.x1 = b.x0 + a->tile_width;
    b.y1 = b.y0 + a->tile_width;
    return b;
}

/* Follows next hops toward `to` for every start, memoising results so a
 * table costs O(n^2) per target set. next(from) returns a node or NONE. */
typedef uint32_t (*next_fn)(const void *user, uint32_t from, uint32_t to);

/* state: 0 unknown, 1 on the current walk, 2 reaches, 3 fails; steps valid for 2. */
static int walk_reaches(const void *user, next_fn next, uint32_t n, uint32_t from, uint32_t to, uint8_t *state,
                        uint32_t *steps, uint32_t *stack)
{
    uint32_t depth = 0, cur = from;
    int ok;
    for (;;) {
        if (cur == to) {
            ok = 1;
            steps[cur] = 0;
            break;
        }
        if (state[cur] == 2 || state[cur] == 3) {
            ok = state[cur] == 2;
            break;
        }
        if (state[cur] == 1) {
            ok = 0; /* a cycle */
            break;
        }
        state[cur] = 1;
        stack[depth++] = cur;
        uint32_t nx = next(user, cur, to);
        if (nx >= n) {
            ok = 0;
            break;
        }
        cur = nx;
    }
    uint32_t s = ok ? steps[cur] : 0;
    while (depth) {
        uint32_t node = stack[--depth];
        s++;
        steps[node] = s;
        state[node] = (ok && s <= n) ? 2 : 3;
        ok = state[node] == 2;
    }
    return state[from] == 2 || from == to;
}

typedef struct tile_walk {
    const nwn2_tile *tile;
} tile_walk;

static uint32_t tile_next(const void *user, uint32_t from, uint32_t to)
{
    const nwn2_tile *t = ((const tile_walk *)user)->tile;
    uint8_t e = t->nodes[(size_t)from * t->node_count + to];
    return e == NWN2_PATH_NONE ? NWN2_NONE32 : (uint32_t)(e & NWN2_PATH_NODE_MASK);
}

static uint32_t island_next(const void *user, uint32_t from, uint32_t to)
{
    const nwn2_aswm *a = user;
    uint16_t nx = a->island_paths[(size_t)from * a->island_count + to].next;
    return nx == NWN2_NO_ISLAND ? NWN2_NONE32 : nx;
}

static int are_neighbours(const nwn2_aswm *a, uint32_t t, uint32_t u)
{
    const nwn2_triangle *tri = &a->triangles[t];
    return tri->neighbour[0] == u || tri->neighbour[1] == u || tri->neighbour[2] == u;
}

static void check_path_table(vstate *v, uint32_t ti, uint8_t *state, uint32_t *steps, uint32_t *stack)
{
    const nwn2_aswm *a = v->a;
    const nwn2_tile *t = &a->tiles[ti];
    char where[96];
    uint32_t nc = t->node_count;
    loc(where, sizeof where, "tile %u", ti);
    if (t->local_count != t->triangle_count) {
        add(v, WM_SEV_ERROR, where, "path table has %u local entries for %u triangles", t->local_count,
            t->triangle_count);
        return;
    }
    if (nc > NWN2_MAX_TILE_NODES) {
        add(v, WM_SEV_ERROR, where, "%u path nodes (at most %u can be addressed)", nc, NWN2_MAX_TILE_NODES);
        return;
    }
    int ok = 1;
    for (uint32_t n = 0; n < nc; n++) {
        uint32_t l = t->node_to_local[n];
        if (l >= t->local_count || t->local_to_node[l] != n) {
            add(v, WM_SEV_ERROR, loc(where, sizeof where, "tile %u node %u", ti, n),
                "node_to_local %u does not map back to this node", l);
            ok = 0;
        } else if (n > 0 && l <= t->node_to_local[n - 1]) {
            add(v, WM_SEV_WARNING, loc(where, sizeof where, "tile %u node %u", ti, n),
                "node_to_local not ascending (%u after %u)", l, t->node_to_local[n - 1]);
        }
    }
    for (uint32_t l = 0; l < t->local_count; l++) {
        uint32_t g = t->triangle_offset + l;
        uint8_t node = t->local_to_node[l];
        int walkable = is_walkable(a, g);
        loc(where, sizeof where, "tile %u triangle %u", ti, g);
        if (node == NWN2_PATH_NONE) {
            if (walkable) {
                add(v, WM_SEV_ERROR, where, "walkable but has no path node");
                ok = 0;
            }
        } else if (node >= nc || t->node_to_local[node] != l) {
            add(v, WM_SEV_ERROR, where, "local_to_node %u does not map back (%u nodes)", node, nc);
            ok = 0;
        } else if (!walkable) {
            add(v, WM_SEV_ERROR, where, "not walkable but has path node %u", node);
        }
    }
    if (!ok)
        return;
    for (uint32_t from = 0; from < nc; from++) {
        uint32_t gfrom = t->triangle_offset + t->node_to_local[from];
        for (uint32_t to = 0; to < nc; to++) {
            uint8_t e = t->nodes[(size_t)from * nc + to];
            loc(where, sizeof where, "tile %u node %u to %u", ti, from, to);
            if (from == to) {
                if (e != NWN2_PATH_NONE)
                    add(v, WM_SEV_WARNING, where, "diagonal entry 0x%02x (0xFF in real files)", e);
                continue;
            }
            if ((e & NWN2_PATH_LOS) != (t->nodes[(size_t)to * nc + from] & NWN2_PATH_LOS) && e != NWN2_PATH_NONE &&
                t->nodes[(size_t)to * nc + from] != NWN2_PATH_NONE)
                add(v, WM_SEV_WARNING, where, "line-of-sight bit not symmetric");
            if (e == NWN2_PATH_NONE)
                continue;
            uint32_t next = e & NWN2_PATH_NODE_MASK;
            if (next >= nc) {
                add(v, WM_SEV_ERROR, where, "next node %u out of range (%u nodes)", next, nc);
                ok = 0;
                continue;
            }
            uint32_t gnext = t->triangle_offset + t->node_to_local[next];
            if (!are_neighbours(a, gfrom, gnext))
                add(v, WM_SEV_ERROR, where, "next triangle %u is not adjacent to triangle %u", gnext, gfrom);
        }
    }
    if (!ok)
        return;
    tile_walk tw = {t};
    for (uint32_t to = 0; to < nc; to++) {
        memset(state, 0, nc);
        for (uint32_t from = 0; from < nc; from++) {
            if (from == to || t->nodes[(size_t)from * nc + to] == NWN2_PATH_NONE)
                continue;
            if (!walk_reaches(&tw, tile_next, nc, from, to, state, steps, stack))
                add(v, WM_SEV_ERROR, loc(where, sizeof where, "tile %u node %u to %u", ti, from, to),
                    "following next hops does not reach the target within %u steps", nc);
        }
    }
}

static void check_tiles(vstate *v, int baked, uint32_t *owner)
{
    const nwn2_aswm *a = v->a;
    char where[96];
    uint32_t tiles = a->grid_width * a->grid_height;
    uint8_t state[256];
    uint32_t steps[256], stack[256];
    for (uint32_t i = 0; i < tiles; i++) {
        const nwn2_tile *t = &a->tiles[i];
        loc(where, sizeof where, "tile %u", i);
        if (t->owns_data)
            add(v, WM_SEV_WARNING, where, "owns_data is %u (0 in real files; its own vertices and edges are unused)",
                t->owns_data);
        if (t->flags != a->grid_flags)
            add(v, WM_SEV_WARNING, where, "tile flags %u differ from the grid flags %u", t->flags, a->grid_flags);
        if ((uint64_t)t->triangle_offset + t->triangle_count > a->triangle_count) {
            add(v, WM_SEV_ERROR, where, "triangles %u..+%u out of range (%u triangles)", t->triangle_offset,
                t->triangle_count, a->triangle_count);
            continue;
        }
        tile_box box = tile_bounds(a, i);
        double slack = 1e-3 * (1.0 + a->tile_width);
        uint32_t walkable = 0;
        for (uint32_t k = 0; k < t->triangle_count; k++) {
            uint32_t g = t->triangle_offset + k;
            if (owner[g] != NWN2_NONE32) {
                add(v, WM_SEV_ERROR, loc(where, sizeof where, "triangle %u", g), "claimed by tiles %u and %u", owner[g],
                    i);
                continue;
            }
            owner[g] = i;
            const nwn2_triangle *tri = &a->triangles[g];
            if (tri->flags & NWN2_TRI_WALKABLE) {
                walkable++;
                if (tri->centre[0] < box.x0 - slack || tri->centre[0] > box.x1 + slack ||
                    tri->centre[1] < box.y0 - slack || tri->centre[1] > box.y1 + slack)
                    add(v, WM_SEV_WARNING, loc(where, sizeof where, "tile %u triangle %u", i, g),
                        "walkable centre (%g, %g) lies outside the tile", (double)tri->centre[0],
                        (double)tri->centre[1]);
            }
        }
        if (baked && walkable > NWN2_MAX_TILE_NODES)
            add(v, WM_SEV_ERROR, where, "%u walkable triangles (at most %u per tile)", walkable, NWN2_MAX_TILE_NODES);
        if (baked)
            check_path_table(v, i, state, steps, stack);
    }
    uint32_t unowned = 0, first = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++)
        if (owner[t] == NWN2_NONE32 && unowned++ == 0)
            first = t;
    if (unowned)
        add(v, WM_SEV_WARNING, loc(where, sizeof where, "triangle %u", first), "%u triangles belong to no tile",
            unowned);
}

static void check_islands(vstate *v, const uint32_t *owner, uint32_t *members)
{
    const nwn2_aswm *a = v->a;
    uint32_t n = a->island_count;
    char where[96];
    memset(members, 0, (size_t)(n ? n : 1) * sizeof *members);
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        const nwn2_triangle *tri = &a->triangles[t];
        loc(where, sizeof where, "triangle %u", t);
        if (!(tri->flags & NWN2_TRI_WALKABLE)) {
            if (tri->island != NWN2_NO_ISLAND)
                add(v, WM_SEV_WARNING, where, "not walkable but in island %u", tri->island);
            continue;
        }
        if (tri->island >= n) {
            add(v, WM_SEV_ERROR, where, "walkable but island %u does not exist (%u islands)", tri->island, n);
            continue;
        }
        members[tri->island]++;
        for (int k = 0; k < 3; k++) {
            uint32_t u = tri->neighbour[k];
            if (u >= a->triangle_count || !is_walkable(a, u) || owner[u] != owner[t])
                continue;
            if (a->triangles[u].island != tri->island)
                add(v, WM_SEV_ERROR, where, "island %u but its walkable neighbour %u in the same tile is in island %u",
                    tri->island, u, a->triangles[u].island);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        const nwn2_island *is = &a->islands[i];
        loc(where, sizeof where, "island %u", i);
        if (is->index != i)
            add(v, WM_SEV_ERROR, where, "index field is %u", is->index);
        if (is->tile != a->islands[0].tile)
            add(v, WM_SEV_WARNING, where, "tile field %u differs from island 0's %u", is->tile, a->islands[0].tile);
        if (is->centre[2] != 0.0f)
            add(v, WM_SEV_WARNING, where, "centre z is %g (0 in real files)", (double)is->centre[2]);
        if (is->triangle_count != members[i])
            add(v, WM_SEV_ERROR, where, "triangle count %u but %u walkable triangles name it", is->triangle_count,
                members[i]);
        if (is->adjacent_count != is->distance_count || is->adjacent_count != is->exit_count) {
            add(v, WM_SEV_ERROR, where, "link arrays differ in length (%u adjacent, %u distances, %u exits)",
                is->adjacent_count, is->distance_count, is->exit_count);
            continue;
        }
        for (uint32_t j = 0; j < is->adjacent_count; j++) {
            uint32_t o = is->adjacent[j], x = is->exit[j];
            loc(where, sizeof where, "island %u link %u", i, j);
            if (o >= n || o == i) {
                add(v, WM_SEV_ERROR, where, "adjacent island %u invalid (%u islands)", o, n);
                continue;
            }
            const nwn2_island *other = &a->islands[o];
            int back = 0;
            for (uint32_t m = 0; m < other->adjacent_count; m++)
                back |= other->adjacent[m] == i;
            if (!back)
                add(v, WM_SEV_ERROR, where, "island %u does not link back", o);
            double dx = (double)is->centre[0] - other->centre[0], dy = (double)is->centre[1] - other->centre[1];
            if (!near(is->distance[j], sqrt(dx * dx + dy * dy), 1e-3))
                add(v, WM_SEV_WARNING, where, "distance %g, centres are %g apart", (double)is->distance[j],
                    sqrt(dx * dx + dy * dy));
            if (x >= a->triangle_count || a->triangles[x].island != i) {
                add(v, WM_SEV_ERROR, where, "exit triangle %u is not in this island", x);
                continue;
            }
            const nwn2_triangle *xt = &a->triangles[x];
            int leads = 0;
            for (int k = 0; k < 3; k++)
                leads |= xt->neighbour[k] < a->triangle_count && a->triangles[xt->neighbour[k]].island == o;
            if (!leads)
                add(v, WM_SEV_ERROR, where, "exit triangle %u has no neighbour in island %u", x, o);
        }
    }
}

static void check_island_paths(vstate *v, uint8_t *state, uint32_t *steps, uint32_t *stack)
{
    const nwn2_aswm *a = v->a;
    uint32_t n = a->island_count;
    char where[96];
    int ok = 1;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            const nwn2_island_path *p = &a->island_paths[(size_t)i * n + j];
            loc(where, sizeof where, "island path %u to %u", i, j);
            if (i == j) {
                if (p->next != NWN2_NO_ISLAND)
                    add(v, WM_SEV_WARNING, where, "diagonal next is %u (none in real files)", p->next);
                continue;
            }
            if (p->next == NWN2_NO_ISLAND)
                continue;
            if (p->next >= n) {
                add(v, WM_SEV_ERROR, where, "next island %u out of range", p->next);
                ok = 0;
                continue;
            }
            const nwn2_island *is = &a->islands[i];
            uint32_t link = NWN2_NONE32;
            for (uint32_t m = 0; m < is->adjacent_count && m < is->distance_count; m++)
                if (is->adjacent[m] == p->next)
                    link = m;
            if (link == NWN2_NONE32)
                add(v, WM_SEV_ERROR, where, "next island %u is not adjacent", p->next);
            else if (!near(p->weight, is->distance[link], 1e-3))
                add(v, WM_SEV_WARNING, where, "weight %g differs from the link distance %g", (double)p->weight,
                    (double)is->distance[link]);
        }
    if (!ok)
        return;
    for (uint32_t j = 0; j < n; j++) {
        memset(state, 0, n);
        for (uint32_t i = 0; i < n; i++) {
            if (i == j || a->island_paths[(size_t)i * n + j].next == NWN2_NO_ISLAND)
                continue;
            if (!walk_reaches(a, island_next, n, i, j, state, steps, stack))
                add(v, WM_SEV_ERROR, loc(where, sizeof where, "island path %u to %u", i, j),
                    "following next islands does not reach the target within %u steps", n);
        }
    }
}

static int is_baked(const nwn2_aswm *a)
{
    if (a->island_count)
        return 1;
    uint32_t tiles = a->grid_width * a->grid_height;
    for (uint32_t i = 0; i < tiles; i++)
        if (a->tiles[i].node_count)
            return 1;
    return 0;
}

wm_result nwn2_validate(wm_ctx *ctx, const nwn2_file *f, wm_report *report)
{
    vstate v = {report, ctx, &f->aswm, 0, {0, 0, 0}};
    check_container(&v, f);
    if (f->aswm_packet < 0)
        return WM_OK;
    const nwn2_aswm *a = &f->aswm;
    check_header_and_vertices(&v);
    check_edges(&v);
    for (uint32_t t = 0; t < a->triangle_count; t++)
        check_triangle(&v, t);
    wm_result dup = check_duplicates(&v);
    if (dup)
        return dup;
    if (a->grid_flags != NWN2_GRID_FLAGS_TRN && a->grid_flags != NWN2_GRID_FLAGS_TRX)
        add(&v, WM_SEV_WARNING, "tile grid", "flags %u (15 TRN, 31 TRX in real files)", a->grid_flags);
    if (!(a->tile_width > 0.0f) || !isfinite(a->tile_width))
        add(&v, WM_SEV_ERROR, "tile grid", "tile width %g is not a positive number", (double)a->tile_width);
    if ((uint64_t)a->border_size * 2 > a->grid_width || (uint64_t)a->border_size * 2 > a->grid_height)
        add(&v, WM_SEV_WARNING, "tile grid", "border of %u tiles leaves nothing of the %ux%u grid", a->border_size,
            a->grid_width, a->grid_height);
    int baked = is_baked(a);
    uint32_t n = a->island_count;
    size_t scratch = a->triangle_count > n ? a->triangle_count : n;
    uint32_t *owner = wm_alloc_array(ctx, scratch ? scratch : 1, sizeof *owner);
    uint8_t *state = wm_alloc_array(ctx, n ? n : 1, 1);
    uint32_t *steps = wm_alloc_array(ctx, n ? n : 1, sizeof *steps);
    uint32_t *stack = wm_alloc_array(ctx, n ? n : 1, sizeof *stack);
    uint32_t *members = wm_alloc_array(ctx, n ? n : 1, sizeof *members);
    wm_result r = WM_OK;
    if (!owner || !state || !steps || !stack || !members) {
        r = WM_ERR_NOMEM;
        goto done;
    }
    for (uint32_t t = 0; t < a->triangle_count; t++)
        owner[t] = NWN2_NONE32;
    if (!(a->tile_width > 0.0f) || a->grid_width == 0 || a->grid_height == 0)
        add(&v, WM_SEV_ERROR, "tile grid", "empty grid (%ux%u)", a->grid_width, a->grid_height);
    else
        check_tiles(&v, baked, owner);
    if (baked) {
        check_islands(&v, owner, members);
        check_island_paths(&v, state, steps, stack);
    } else {
        uint32_t walkable = 0;
        for (uint32_t t = 0; t < a->triangle_count; t++)
            walkable += is_walkable(a, t);
        add(&v, a->grid_flags == NWN2_GRID_FLAGS_TRX && walkable ? WM_SEV_WARNING : WM_SEV_INFO, "path tables",
            "not baked: tile path tables, islands and the island path table are empty%s",
            a->grid_flags == NWN2_GRID_FLAGS_TRX ? " (a TRX needs them: bake it)" : " (normal for a TRN)");
    }
    for (int s = WM_SEV_WARNING; s <= WM_SEV_ERROR; s++)
        if (v.dropped[s]) {
            v.listed = 0;
            add(&v, (wm_severity)s, "report", "%u more %s not listed", v.dropped[s],
                s == WM_SEV_ERROR ? "errors" : "warnings");
        }
done:
    wm_free(ctx, owner);
    wm_free(ctx, state);
    wm_free(ctx, steps);
    wm_free(ctx, stack);
    wm_free(ctx, members);
    return r ? r : report->status;
}
