/* Fewer faces: Recast cuts a floor into convex polygons of up to six corners along its region
 * borders and its detail mesh samples every bump of the voxel heights, so a room comes out with
 * several times the faces of BioWare's walkmesh. A corner is removed and the hole it leaves
 * filled again by ear clipping in plan view when the new faces stay within the error of the
 * render floor itself (generate_follow.c) and, on the outline, the new outline edge stays within
 * its error of Recast's outline (every corner removed from it so far, not only this one). Passes
 * remove corners that do not touch each other, with the adjacency built again each pass (linear
 * per pass); a corner is tried again only when its ring has changed; they stop when a pass
 * removes none. */
#include "generate_internal.h"
#include "wm_geometry.h"
#include "wm_surface.h"

#include <math.h>
#include <string.h>

#define RING_MAX GENERATE_RING_MAX
#define SIMPLIFY_PASSES 100

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

/* The outline corners removed so far, in outline order, behind the corner that starts the edge
 * now spanning them: a new outline edge is measured against Recast's outline itself, so the
 * removals do not add up. `count` caps the corners one edge may span (bounded work). */
typedef struct outline_trail {
    uint32_t *head, *tail, *next, *count;
} outline_trail;

#define TRAIL_NONE UINT32_MAX
#define TRAIL_MAX 64

static double distance_to_segment(const float *a, const float *b, const float *p)
{
    double dx = b[0] - a[0], dy = b[1] - a[1], length2 = dx * dx + dy * dy;
    double t = length2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1]);
}

/* The outline edge from -> to, replacing from -> v -> to, stays within `outline` of every
 * removed corner it spans and of v. */
static int trail_fits(const wm_mesh *m, const outline_trail *trail, uint32_t from, uint32_t v, uint32_t to,
                      float outline)
{
    const float *a = at(m, from), *b = at(m, to);
    if (trail->count[from] + trail->count[v] + 1 > TRAIL_MAX || distance_to_segment(a, b, at(m, v)) > outline)
        return 0;
    const uint32_t starts[2] = {trail->head[from], trail->head[v]};
    for (int s = 0; s < 2; s++)
        for (uint32_t c = starts[s]; c != TRAIL_NONE; c = trail->next[c])
            if (distance_to_segment(a, b, at(m, c)) > outline)
                return 0;
    return 1;
}

/* from's trail becomes its own, then v, then v's. */
static void trail_join(outline_trail *trail, uint32_t from, uint32_t v)
{
    trail->next[v] = trail->head[v];
    if (trail->head[v] == TRAIL_NONE)
        trail->tail[v] = v;
    trail->head[v] = v, trail->count[v]++;
    if (trail->head[from] == TRAIL_NONE)
        trail->head[from] = trail->head[v];
    else
        trail->next[trail->tail[from]] = trail->head[v];
    trail->tail[from] = trail->tail[v], trail->count[from] += trail->count[v];
}

/* v's faces are of one surface and upright (walkable faces steeper than 60 degrees stay as they
 * are), and (open ring) the outline edge replacing v's two stays within `outline` of Recast's
 * outline. The ring runs from v's outline successor to its predecessor. */
static int removable(const wm_mesh *m, const corner_faces *cf, uint32_t v, const uint32_t *ring, int len, int closed,
                     float outline, const outline_trail *trail)
{
    for (uint32_t i = cf->first[v]; i < cf->first[v + 1]; i++) {
        uint32_t t = cf->faces[i], t0 = cf->faces[cf->first[v]];
        if (m->surfaces[t] != m->surfaces[t0] || m->walkable[t] != m->walkable[t0])
            return 0; /* a corner where surfaces meet stays: it holds their border */
        float f[3];
        wm_mesh_triangle_normal(m, t, f);
        if (f[2] < 0.5f)
            return 0;
        const uint32_t *c = m->indices + 3 * (size_t)t;
        if (cross2(at(m, c[0]), at(m, c[1]), at(m, c[2])) <= 0)
            return 0; /* a face folded over in plan view: its ring is no simple polygon to clip */
    }
    if (closed)
        return 1;
    return trail_fits(m, trail, ring[len - 1], v, ring[0], outline);
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

/* Facing up within 60 degrees (a face without area passes: ear clipping decides on those). */
static int upright(const wm_mesh *m, const uint32_t *face)
{
    float n[3];
    return wm_tri_normal(at(m, face[0]), at(m, face[1]), at(m, face[2]), n) == 0 || n[2] >= 0.5f;
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

/* Per corner while simplifying: `locked` when a neighbour changed in this pass (its ring is
 * stale), `pending` until it has been tried since its ring last changed. */
typedef struct corner_marks {
    uint8_t *locked, *pending;
    outline_trail trail;
} corner_marks;

/* The limits a face is held to: blocking faces may lie on floor up to the blocking slope. */
static floor_limits limits_for(const floor_limits *limits, int walkable)
{
    floor_limits own = *limits;
    if (!walkable && limits->steep_floor)
        own.floor = limits->steep_floor;
    return own;
}

/* No edge of the new faces but the ring's own joins two corners that share a face already
 * (a new diagonal there would stack two faces on it), and every new face is upright. */
static int new_edges_free(const wm_mesh *m, const corner_faces *cf, const uint8_t *alive, const uint32_t *ring,
                          int len, const uint32_t *made, int faces)
{
    for (int f = 0; f < faces; f++) {
        if (!upright(m, made + 3 * f))
            return 0;
        for (int k = 0; k < 3; k++) {
            uint32_t a = made[3 * f + k], b = made[3 * f + (k + 1) % 3];
            int on_ring = 0;
            for (int i = 0; i < len; i++)
                on_ring |= (ring[i] == a && ring[(i + 1) % len] == b) || (ring[i] == b && ring[(i + 1) % len] == a);
            if (!on_ring && joined(m, cf, alive, a, b))
                return 0;
        }
    }
    return 1;
}

/* The new faces take the old faces' places (and their surfaces) in order; the places left die. */
static void rewrite(wm_mesh *m, uint8_t *alive, const uint32_t *slots, uint32_t count, const uint32_t *made, int faces)
{
    for (uint32_t i = 0; i < count; i++) {
        if ((int)i < faces)
            memcpy(m->indices + 3 * (size_t)slots[i], made + 3 * i, 3 * sizeof(uint32_t));
        else
            alive[slots[i]] = 0;
    }
}

static void mark_removed(corner_marks *marks, uint32_t v, const uint32_t *ring, int len)
{
    marks->locked[v] = 1;
    for (int i = 0; i < len; i++)
        marks->locked[ring[i]] = marks->pending[ring[i]] = 1;
}

/* The face round v from ring corner a to the next; UINT32_MAX when there is none. */
static uint32_t face_from(const wm_mesh *m, const corner_faces *cf, uint32_t v, uint32_t a)
{
    for (uint32_t i = cf->first[v]; i < cf->first[v + 1]; i++) {
        const uint32_t *t = m->indices + 3 * (size_t)cf->faces[i];
        int k = t[0] == v ? 0 : t[1] == v ? 1 : 2;
        if (t[(k + 1) % 3] == a)
            return cf->faces[i];
    }
    return UINT32_MAX;
}

/* Whether v's faces are all walkable or all blocking. */
static int one_kind(const wm_mesh *m, const corner_faces *cf, uint32_t v)
{
    for (uint32_t i = cf->first[v]; i < cf->first[v + 1]; i++)
        if (m->walkable[cf->faces[i]] != m->walkable[cf->faces[cf->first[v]]])
            return 0;
    return 1;
}

/* Ring positions where the walkable run of faces starts (*start) and the blocking run starts
 * (*end); 0 unless the ring is one run of each, of one surface each, upright and unfolded. */
static int border_runs(const wm_mesh *m, const uint32_t *face, int len, int *start, int *end)
{
    int changes = 0;
    uint16_t surface[2] = {WM_SURFACE_NONE, WM_SURFACE_NONE};
    for (int i = 0; i < len; i++) {
        int kind = m->walkable[face[i]] != 0, before = m->walkable[face[(i + len - 1) % len]] != 0;
        const uint32_t *c = m->indices + 3 * (size_t)face[i];
        if (!upright(m, c) || cross2(at(m, c[0]), at(m, c[1]), at(m, c[2])) <= 0)
            return 0;
        if (surface[kind] == WM_SURFACE_NONE)
            surface[kind] = m->surfaces[face[i]];
        if (m->surfaces[face[i]] != surface[kind])
            return 0;
        if (kind != before) {
            changes++;
            *(kind ? start : end) = i;
        }
    }
    return changes == 2;
}

/* The chord a-b (ring corners s and e) stays inside the ring: it crosses no ring edge that does
 * not end at a or b, and leaves a on the inner side of a's ring edges. */
static int chord_inside(const wm_mesh *m, const uint32_t *ring, int len, int s, int e)
{
    const float *a = at(m, ring[s]), *b = at(m, ring[e]);
    for (int i = 0; i < len; i++) {
        const uint32_t p = ring[i], q = ring[(i + 1) % len];
        if (p == ring[s] || p == ring[e] || q == ring[s] || q == ring[e])
            continue;
        const float *c = at(m, p), *d = at(m, q);
        if ((cross2(a, b, c) > 0) != (cross2(a, b, d) > 0) && (cross2(c, d, a) > 0) != (cross2(c, d, b) > 0))
            return 0;
    }
    /* at a, the chord turns into the ring between a's ring neighbours (the ring runs counter-clockwise) */
    const float *after = at(m, ring[(s + 1) % len]), *before = at(m, ring[(s + len - 1) % len]);
    if (cross2(before, a, after) > 0)
        return cross2(a, after, b) > 0 && cross2(before, a, b) > 0;
    return cross2(a, after, b) > 0 || cross2(before, a, b) > 0;
}

/* A corner inside the floor where walkable faces meet blocking ones along two border edges:
 * both fans are filled again without it, the border straight between the two edges' far
 * corners within the outline's tolerance (its trail oriented as the walkable faces run). */
static int remove_border_corner(wm_mesh *m, const corner_faces *cf, uint8_t *alive, corner_marks *marks, uint32_t v,
                                const uint32_t *ring, int len, const floor_limits *limits)
{
    uint32_t face[RING_MAX], poly[RING_MAX], made[3 * RING_MAX], slots[RING_MAX];
    int s = 0, e = 0;
    for (int i = 0; i < len; i++)
        if ((face[i] = face_from(m, cf, v, ring[i])) == UINT32_MAX)
            return 0;
    if (!border_runs(m, face, len, &s, &e))
        return 0;
    int walkable = (e - s + len) % len, blocking = len - walkable;
    if (walkable < 2 || blocking < 2 || !chord_inside(m, ring, len, s, e) ||
        !trail_fits(m, &marks->trail, ring[e], v, ring[s], limits->outline))
        return 0;
    for (int i = 0; i <= walkable; i++)
        poly[i] = ring[(s + i) % len];
    int made_walkable = clip_ears(m, poly, walkable + 1, made);
    for (int i = 0; i <= blocking; i++)
        poly[i] = ring[(e + i) % len];
    int made_blocking = clip_ears(m, poly, blocking + 1, made + 3 * (made_walkable > 0 ? made_walkable : 0));
    if (made_walkable != walkable - 1 || made_blocking != blocking - 1 || !new_edges_free(m, cf, alive, ring, len, made, len - 2))
        return 0;
    for (int i = 0; i < len; i++)
        slots[i] = face[(s + i) % len]; /* the walkable run, then the blocking run */
    floor_limits on_walkable = limits_for(limits, 1), on_blocking = limits_for(limits, 0);
    if (!faces_follow_floor(&on_walkable, m, made, made_walkable, slots, (uint32_t)walkable) ||
        !faces_follow_floor(&on_blocking, m, made + 3 * made_walkable, made_blocking, slots + walkable,
                            (uint32_t)blocking))
        return 0;
    rewrite(m, alive, slots, (uint32_t)walkable, made, made_walkable);
    rewrite(m, alive, slots + walkable, (uint32_t)blocking, made + 3 * made_walkable, made_blocking);
    trail_join(&marks->trail, ring[e], v);
    mark_removed(marks, v, ring, len);
    return 1;
}

/* Removes v when it may go; its faces are rewritten in place (the last one or two die). 1 when
 * removed, 0 when it stays, -1 when its ring changed in this pass (to be tried in the next). */
static int remove_corner(wm_mesh *m, const corner_faces *cf, uint8_t *alive, corner_marks *marks, uint32_t v,
                         const floor_limits *limits)
{
    uint32_t ring[RING_MAX], made[3 * RING_MAX];
    int closed = 0, len = ring_of(m, cf, v, ring, &closed);
    for (int i = 0; i < len; i++)
        if (marks->locked[ring[i]])
            return -1;
    if (len >= 3 && closed && !one_kind(m, cf, v))
        return remove_border_corner(m, cf, alive, marks, v, ring, len, limits);
    if (len < 3 || !removable(m, cf, v, ring, len, closed, limits->outline, &marks->trail))
        return 0;
    int faces = clip_ears(m, ring, len, made);
    if (faces != len - 2 || !new_edges_free(m, cf, alive, ring, len, made, faces))
        return 0;
    uint32_t old = cf->first[v + 1] - cf->first[v];
    floor_limits own = limits_for(limits, m->walkable[cf->faces[cf->first[v]]]);
    if (!faces_follow_floor(&own, m, made, faces, cf->faces + cf->first[v], old))
        return 0;
    rewrite(m, alive, cf->faces + cf->first[v], old, made, faces);
    if (!closed)
        trail_join(&marks->trail, ring[len - 1], v);
    mark_removed(marks, v, ring, len);
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

static void marks_free(wm_ctx *ctx, corner_marks *marks)
{
    wm_free(ctx, marks->locked), wm_free(ctx, marks->pending);
    wm_free(ctx, marks->trail.head), wm_free(ctx, marks->trail.tail);
    wm_free(ctx, marks->trail.next), wm_free(ctx, marks->trail.count);
}

static wm_result marks_init(wm_ctx *ctx, corner_marks *marks, uint32_t vertices)
{
    size_t n = (size_t)vertices + 1;
    marks->locked = wm_alloc_array(ctx, n, 1), marks->pending = wm_alloc_array(ctx, n, 1);
    uint32_t **arrays[4] = {&marks->trail.head, &marks->trail.tail, &marks->trail.next, &marks->trail.count};
    for (int i = 0; i < 4; i++)
        *arrays[i] = wm_alloc_array(ctx, n, sizeof(uint32_t));
    if (!marks->locked || !marks->pending || !marks->trail.head || !marks->trail.tail || !marks->trail.next ||
        !marks->trail.count)
        return WM_ERR_NOMEM;
    memset(marks->pending, 1, n);
    for (size_t v = 0; v < n; v++)
        marks->trail.head[v] = marks->trail.tail[v] = marks->trail.next[v] = TRAIL_NONE, marks->trail.count[v] = 0;
    return WM_OK;
}

wm_result generate_simplify(wm_ctx *ctx, wm_mesh *m, const floor_limits *limits)
{
    uint8_t *alive = wm_alloc_array(ctx, (size_t)m->triangle_count + 1, 1);
    corner_marks marks;
    wm_result r = marks_init(ctx, &marks, m->vertex_count);
    if (!r && !alive)
        r = WM_ERR_NOMEM;
    if (!r)
        memset(alive, 1, (size_t)m->triangle_count + 1);
    for (int pass = 0, removed = 1; !r && removed && pass < SIMPLIFY_PASSES; pass++) {
        corner_faces cf = {NULL, NULL};
        r = build_corner_faces(ctx, m, alive, &cf);
        memset(marks.locked, 0, (size_t)m->vertex_count + 1);
        removed = 0;
        for (uint32_t v = 0; !r && v < m->vertex_count; v++) {
            if (marks.locked[v] || !marks.pending[v])
                continue;
            int done = remove_corner(m, &cf, alive, &marks, v, limits);
            removed += done > 0;
            marks.pending[v] = done < 0;
        }
        wm_free(ctx, cf.first), wm_free(ctx, cf.faces);
    }
    if (!r)
        drop_dead(m, alive);
    wm_free(ctx, alive);
    marks_free(ctx, &marks);
    return r;
}
