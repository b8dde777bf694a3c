/* Fewer faces where the floor is flat: Recast cuts a flat floor into convex polygons of up to
 * six corners along its region borders, so a room comes out with several times the faces of
 * BioWare's walkmesh. A corner whose faces all lie in one plane (within `flat`), and that lies
 * on a straight stretch of the outline when on it, is removed and the hole it leaves is filled
 * again by ear clipping in plan view. Passes remove corners that do not touch each other, with
 * the adjacency built again each pass (linear per pass); they stop when a pass removes none. */
#include "generate_internal.h"

#include <math.h>
#include <string.h>

#define RING_MAX 32
#define SIMPLIFY_PASSES 40

typedef struct corner_faces {
    uint32_t *first; /* vertex_count + 1 */
    uint32_t *faces;
} corner_faces;

static wm_result build_corner_faces(wm_ctx *ctx, const wm_mesh *m, const uint8_t *alive, corner_faces *cf)
{
    cf->first = wm_alloc_array(ctx, (size_t)m->vertex_count + 1, sizeof *cf->first);
    cf->faces = wm_alloc_array(ctx, 3 * (size_t)m->triangle_count + 1, sizeof *cf->faces);
    if (!cf->first || !cf->faces)
        return WM_ERR_NOMEM;
    memset(cf->first, 0, ((size_t)m->vertex_count + 1) * sizeof *cf->first);
    for (uint32_t t = 0; t < m->triangle_count; t++)
        for (int k = 0; alive[t] && k < 3; k++)
            cf->first[m->indices[3 * (size_t)t + k] + 1]++;
    for (uint32_t v = 0; v < m->vertex_count; v++)
        cf->first[v + 1] += cf->first[v];
    uint32_t *fill = wm_alloc_array(ctx, (size_t)m->vertex_count + 1, sizeof *fill);
    if (!fill)
        return WM_ERR_NOMEM;
    memcpy(fill, cf->first, ((size_t)m->vertex_count + 1) * sizeof *fill);
    for (uint32_t t = 0; t < m->triangle_count; t++)
        for (int k = 0; alive[t] && k < 3; k++)
            cf->faces[fill[m->indices[3 * (size_t)t + k]]++] = t;
    wm_free(ctx, fill);
    return WM_OK;
}

static const float *at(const wm_mesh *m, uint32_t v)
{
    return m->positions + 3 * (size_t)v;
}

static double cross2(const float *a, const float *b, const float *c)
{
    return (double)(b[0] - a[0]) * (c[1] - a[1]) - (double)(b[1] - a[1]) * (c[0] - a[0]);
}

/* The corners around v in order: each face (v, a, b) gives the step a -> b. Returns the ring's
 * length, *closed 1 when it comes back to its start (v inside), 0 when it runs from one outline
 * neighbour to the other; 0 when the faces do not make one fan. */
static int ring_of(const wm_mesh *m, const corner_faces *cf, uint32_t v, uint32_t ring[RING_MAX], int *closed)
{
    uint32_t from[RING_MAX], to[RING_MAX], n = cf->first[v + 1] - cf->first[v];
    if (n < 2 || n >= RING_MAX - 1)
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t *t = m->indices + 3 * (size_t)cf->faces[cf->first[v] + i];
        int k = t[0] == v ? 0 : t[1] == v ? 1 : 2;
        from[i] = t[(k + 1) % 3], to[i] = t[(k + 2) % 3];
    }
    uint32_t start = 0; /* an open fan starts at the step whose `from` no step reaches */
    for (uint32_t i = 0; i < n; i++) {
        int reached = 0;
        for (uint32_t j = 0; j < n; j++)
            reached += to[j] == from[i];
        if (reached > 1)
            return 0;
        if (!reached)
            start = i;
    }
    int len = 0;
    ring[len++] = from[start];
    for (uint32_t step = 0, i = start; step < n; step++) {
        ring[len++] = to[i];
        uint32_t next = n;
        for (uint32_t j = 0; j < n; j++)
            if (from[j] == to[i])
                next = j;
        if (next == n)
            break;
        i = next;
    }
    *closed = len == (int)n + 1 && ring[len - 1] == ring[0];
    if (*closed)
        len--;
    else if (len != (int)n + 1)
        return 0;
    return len;
}

/* v and its ring within `flat` of the plane through v with the faces' mean normal, and (open
 * ring) v within `flat` of the straight line between its two outline neighbours. */
static int removable(const wm_mesh *m, const corner_faces *cf, uint32_t v, const uint32_t *ring, int len, int closed,
                     float flat)
{
    double n[3] = {0, 0, 0};
    for (uint32_t i = cf->first[v]; i < cf->first[v + 1]; i++) {
        uint32_t t = cf->faces[i], t0 = cf->faces[cf->first[v]];
        if (m->surfaces[t] != m->surfaces[t0] || m->walkable[t] != m->walkable[t0])
            return 0; /* a corner where surfaces meet stays: it holds their border */
        float f[3];
        wm_mesh_triangle_normal(m, cf->faces[i], f);
        if (f[2] < 0.5f)
            return 0;
        for (int k = 0; k < 3; k++)
            n[k] += f[k];
    }
    double length = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    const float *p = at(m, v);
    for (int i = 0; i < len; i++) {
        const float *q = at(m, ring[i]);
        double d = ((q[0] - p[0]) * n[0] + (q[1] - p[1]) * n[1] + (q[2] - p[2]) * n[2]) / length;
        if (fabs(d) > flat)
            return 0;
    }
    if (closed)
        return 1;
    const float *a = at(m, ring[0]), *b = at(m, ring[len - 1]);
    double span = hypot(b[0] - a[0], b[1] - a[1]);
    return span > 0 && fabs(cross2(a, b, p)) / span <= flat;
}

/* Ear clipping of the polygon ring (counter-clockwise in plan view) into len - 2 faces. */
static int clip_ears(const wm_mesh *m, const uint32_t *ring, int len, uint32_t *out)
{
    uint32_t poly[RING_MAX];
    memcpy(poly, ring, sizeof *poly * (size_t)len);
    int count = len, made = 0;
    while (count > 3) {
        int cut = -1;
        for (int i = 0; i < count && cut < 0; i++) {
            const float *a = at(m, poly[(i + count - 1) % count]), *b = at(m, poly[i]), *c = at(m, poly[(i + 1) % count]);
            if (cross2(a, b, c) <= 1e-9)
                continue;
            int inside = 0;
            for (int j = 0; j < count && !inside; j++) {
                const float *q = at(m, poly[j]);
                if (q == a || q == b || q == c)
                    continue;
                inside = cross2(a, b, q) >= 0 && cross2(b, c, q) >= 0 && cross2(c, a, q) >= 0;
            }
            if (!inside)
                cut = i;
        }
        if (cut < 0)
            return 0;
        out[3 * made] = poly[(cut + count - 1) % count], out[3 * made + 1] = poly[cut];
        out[3 * made + 2] = poly[(cut + 1) % count];
        made++;
        memmove(poly + cut, poly + cut + 1, sizeof *poly * (size_t)(count - cut - 1));
        count--;
    }
    if (cross2(at(m, poly[0]), at(m, poly[1]), at(m, poly[2])) <= 1e-9)
        return 0;
    out[3 * made] = poly[0], out[3 * made + 1] = poly[1], out[3 * made + 2] = poly[2];
    return made + 1;
}

/* Whether a and b share a face already (a new diagonal there would stack two faces on it). */
static int joined(const wm_mesh *m, const corner_faces *cf, const uint8_t *alive, uint32_t a, uint32_t b)
{
    for (uint32_t i = cf->first[a]; i < cf->first[a + 1]; i++) {
        const uint32_t *t = m->indices + 3 * (size_t)cf->faces[i];
        if (alive[cf->faces[i]] && (t[0] == b || t[1] == b || t[2] == b))
            return 1;
    }
    return 0;
}

/* Removes v when it may go; its faces are rewritten in place (the last one or two die). */
static int remove_corner(wm_mesh *m, const corner_faces *cf, uint8_t *alive, uint8_t *locked, uint32_t v, float flat)
{
    uint32_t ring[RING_MAX], made[3 * RING_MAX];
    int closed = 0, len = ring_of(m, cf, v, ring, &closed);
    if (len < 3 || !removable(m, cf, v, ring, len, closed, flat))
        return 0;
    for (int i = 0; i < len; i++)
        if (locked[ring[i]])
            return 0;
    int faces = clip_ears(m, ring, len, made);
    if (faces != len - 2)
        return 0;
    for (int f = 0; f < faces; f++)
        for (int k = 0; k < 3; k++) {
            uint32_t a = made[3 * f + k], b = made[3 * f + (k + 1) % 3];
            int on_ring = 0;
            for (int i = 0; i < len; i++)
                on_ring |= (ring[i] == a && ring[(i + 1) % len] == b) || (ring[i] == b && ring[(i + 1) % len] == a);
            if (!on_ring && joined(m, cf, alive, a, b))
                return 0;
        }
    uint32_t old = cf->first[v + 1] - cf->first[v];
    for (uint32_t i = 0; i < old; i++) {
        uint32_t t = cf->faces[cf->first[v] + i];
        if ((int)i < faces)
            memcpy(m->indices + 3 * (size_t)t, made + 3 * i, 3 * sizeof(uint32_t));
        else
            alive[t] = 0;
    }
    locked[v] = 1;
    for (int i = 0; i < len; i++)
        locked[ring[i]] = 1;
    return 1;
}

static void drop_dead(wm_mesh *m, const uint8_t *alive)
{
    uint32_t kept = 0;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        if (!alive[t])
            continue;
        memmove(m->indices + 3 * (size_t)kept, m->indices + 3 * (size_t)t, 3 * sizeof(uint32_t));
        m->surfaces[kept] = m->surfaces[t], m->walkable[kept] = m->walkable[t], m->objects[kept] = m->objects[t];
        memmove(m->transitions + 3 * (size_t)kept, m->transitions + 3 * (size_t)t, 3 * sizeof(int32_t));
        kept++;
    }
    m->triangle_count = kept;
}

wm_result generate_simplify(wm_ctx *ctx, wm_mesh *m, float flat)
{
    uint8_t *alive = wm_alloc_array(ctx, (size_t)m->triangle_count + 1, 1);
    uint8_t *locked = wm_alloc_array(ctx, (size_t)m->vertex_count + 1, 1);
    wm_result r = alive && locked ? WM_OK : WM_ERR_NOMEM;
    if (!r)
        memset(alive, 1, (size_t)m->triangle_count + 1);
    for (int pass = 0, removed = 1; !r && removed && pass < SIMPLIFY_PASSES; pass++) {
        corner_faces cf = {NULL, NULL};
        r = build_corner_faces(ctx, m, alive, &cf);
        memset(locked, 0, (size_t)m->vertex_count + 1);
        removed = 0;
        for (uint32_t v = 0; !r && v < m->vertex_count; v++)
            if (!locked[v])
                removed += remove_corner(m, &cf, alive, locked, v, flat);
        wm_free(ctx, cf.first), wm_free(ctx, cf.faces);
    }
    if (!r)
        drop_dead(m, alive);
    wm_free(ctx, alive), wm_free(ctx, locked);
    return r;
}
