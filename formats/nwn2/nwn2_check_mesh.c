/* Structural checks of a TRN/TRX (FORMAT-NOTES section 2): container
 * packets, the ASWM header, vertices, edges and triangles, and their
 * agreement. Toolset quirks seen in real files are warnings (docs/nwn2.md). */
#include "nwn2_check.h"

#include <math.h>
#include <stdlib.h>

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

void nwn2_check_container(nwn2_check_state *v, const nwn2_file *f)
{
    const nwn2_container *c = &f->container;
    char where[64];
    if (c->major != 2 || c->minor != 3)
        nwn2_check_add(v, WM_SEV_WARNING, "container", "version %u.%u (real files are 2.3)", c->major, c->minor);
    int32_t trwh = nwn2_container_find(c, "TRWH", 0);
    if (trwh < 0) {
        nwn2_check_add(v, WM_SEV_WARNING, "container", "no TRWH packet");
    } else {
        nwn2_trwh wh;
        if (nwn2_trwh_parse(v->ctx, c->packets[trwh].payload, c->packets[trwh].size, "TRWH", &wh))
            nwn2_check_add(v, WM_SEV_ERROR, nwn2_check_where(where, sizeof where, "packet %d (TRWH)", (int)trwh),
                           "%u bytes, 12 expected", c->packets[trwh].size);
        else if (f->aswm_packet >= 0 && (wh.width != f->aswm.grid_width || wh.height != f->aswm.grid_height))
            nwn2_check_add(v, WM_SEV_WARNING, nwn2_check_where(where, sizeof where, "packet %d (TRWH)", (int)trwh),
                           "size %ux%u differs from the ASWM tile grid %ux%u", wh.width, wh.height, f->aswm.grid_width,
                           f->aswm.grid_height);
    }
    if (f->aswm_packet < 0)
        nwn2_check_add(v, WM_SEV_ERROR, "container", "no ASWM (walkmesh) packet");
    else if (nwn2_container_find(c, "ASWM", (uint32_t)f->aswm_packet + 1) >= 0)
        nwn2_check_add(v, WM_SEV_WARNING, "container", "several ASWM packets; only the first is used");
}

void nwn2_check_header_and_vertices(nwn2_check_state *v)
{
    const nwn2_aswm *a = v->a;
    char where[64];
    if (a->owns_data != 1)
        nwn2_check_add(v, WM_SEV_WARNING, "ASWM header", "owns_data is %u (1 in real files)", a->owns_data);
    if (a->reserved != 0)
        nwn2_check_add(v, WM_SEV_WARNING, "ASWM header", "reserved field is %u (0 in real files)", a->reserved);
    for (uint32_t i = 0; i < a->vertex_count; i++) {
        const float *p = &a->vertices[3 * (size_t)i];
        if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
            nwn2_check_add(v, WM_SEV_ERROR, nwn2_check_where(where, sizeof where, "vertex %u", i),
                           "coordinate is not finite");
    }
}

void nwn2_check_edges(nwn2_check_state *v)
{
    const nwn2_aswm *a = v->a;
    char where[64];
    for (uint32_t e = 0; e < a->edge_count; e++) {
        const nwn2_edge *ed = &a->edges[e];
        nwn2_check_where(where, sizeof where, "edge %u", e);
        if (ed->v[0] >= a->vertex_count || ed->v[1] >= a->vertex_count) {
            nwn2_check_add(v, WM_SEV_ERROR, where, "vertex index %u/%u out of range (%u vertices)", ed->v[0], ed->v[1],
                           a->vertex_count);
            continue;
        }
        if (ed->tri[0] == NWN2_NONE32)
            nwn2_check_add(v, WM_SEV_ERROR, where, "first triangle is none");
        for (int s = 0; s < 2; s++) {
            uint32_t t = ed->tri[s];
            if (t == NWN2_NONE32)
                continue;
            if (t >= a->triangle_count) {
                nwn2_check_add(v, WM_SEV_ERROR, where, "triangle %u out of range (%u triangles)", t, a->triangle_count);
                continue;
            }
            const nwn2_triangle *tri = &a->triangles[t];
            if (!tri_has_side(tri, ed->v[0], ed->v[1], NULL))
                nwn2_check_add(v, WM_SEV_ERROR, where, "vertices %u-%u are not a side of triangle %u", ed->v[0],
                               ed->v[1], t);
            else if (tri->edge[0] != e && tri->edge[1] != e && tri->edge[2] != e)
                nwn2_check_add(v, WM_SEV_ERROR, where, "triangle %u does not list this edge", t);
        }
        if (ed->tri[0] != NWN2_NONE32 && ed->tri[0] == ed->tri[1])
            nwn2_check_add(v, WM_SEV_ERROR, where, "both sides are triangle %u", ed->tri[0]);
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

static void check_plane(nwn2_check_state *v, uint32_t t, const char *where, const float normal[3], float d)
{
    const nwn2_aswm *a = v->a;
    const nwn2_triangle *tri = &a->triangles[t];
    double dn = fabs(tri->normal[0] - normal[0]) + fabs(tri->normal[1] - normal[1]) + fabs(tri->normal[2] - normal[2]);
    double sliver = nwn2_triangle_sliver(a, t);
    if (sliver < NWN2_SLIVER_RATIO) {
        /* quirk: the toolset writes (1,0,0) and d = -v0.x for slivers */
        if (dn > 1e-3 || !nwn2_check_near(tri->d, d, 1e-3))
            nwn2_check_add(v, WM_SEV_WARNING, where,
                           "sliver (area ratio %.2g): normal (%g, %g, %g) and d %g not checked", sliver,
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
        nwn2_check_add(
            v, WM_SEV_ERROR, where,
            "normal (%g, %g, %g) is not the triangle's: length %.4g, %.3g degrees from the computed (%g, %g, %g)",
            (double)tri->normal[0], (double)tri->normal[1], (double)tri->normal[2], len, angle, (double)normal[0],
            (double)normal[1], (double)normal[2]);
    else if (!(drift <= PLANE_ERROR_FRACTION * longest))
        nwn2_check_add(
            v, WM_SEV_ERROR, where,
            "stored plane (d %g) misses a vertex by %.3g (%.2g of the longest side %.3g; at most %g allowed)",
            (double)tri->d, drift, drift / longest, longest, PLANE_ERROR_FRACTION);
    else if (dn > 1e-3 || drift > PLANE_WARN_DRIFT)
        nwn2_check_add(
            v, WM_SEV_WARNING, where,
            "stored normal and d drift from a recomputation: normal %.3g degrees off, vertices up to %.3g from "
            "the stored plane (%.2g of the longest side %.3g; area ratio %.2g)",
            angle, drift, drift / longest, longest, sliver);
}

void nwn2_check_triangle(nwn2_check_state *v, uint32_t t)
{
    const nwn2_aswm *a = v->a;
    const nwn2_triangle *tri = &a->triangles[t];
    char where[64];
    nwn2_check_where(where, sizeof where, "triangle %u", t);
    for (int k = 0; k < 3; k++)
        if (tri->v[k] >= a->vertex_count) {
            nwn2_check_add(v, WM_SEV_ERROR, where, "vertex index %u out of range (%u vertices)", tri->v[k],
                           a->vertex_count);
            return;
        }
    if (tri->v[0] == tri->v[1] || tri->v[1] == tri->v[2] || tri->v[0] == tri->v[2])
        nwn2_check_add(v, WM_SEV_WARNING, where, "repeats a vertex (%u %u %u)", tri->v[0], tri->v[1], tri->v[2]);
    int covered = 0;
    for (int k = 0; k < 3; k++) {
        uint32_t e = tri->edge[k];
        if (e >= a->edge_count) {
            nwn2_check_add(v, WM_SEV_ERROR, where, "edge slot %d: edge %u out of range (%u edges)", k, e,
                           a->edge_count);
            continue;
        }
        const nwn2_edge *ed = &a->edges[e];
        int side;
        if (!tri_has_side(tri, ed->v[0], ed->v[1], &side)) {
            nwn2_check_add(v, WM_SEV_ERROR, where, "edge slot %d: edge %u (%u-%u) is not a side", k, e, ed->v[0],
                           ed->v[1]);
            continue;
        }
        if (covered & (1 << side))
            nwn2_check_add(v, WM_SEV_ERROR, where, "edge slot %d: side %d listed twice", k, side);
        covered |= 1 << side;
        uint32_t other;
        if (ed->tri[0] == t)
            other = ed->tri[1];
        else if (ed->tri[1] == t)
            other = ed->tri[0];
        else {
            nwn2_check_add(v, WM_SEV_ERROR, where, "edge slot %d: edge %u belongs to triangles %u/%u, not this one", k,
                           e, ed->tri[0], ed->tri[1]);
            continue;
        }
        if (tri->neighbour[k] != other)
            nwn2_check_add(v, WM_SEV_ERROR, where, "neighbour slot %d is %u but edge %u joins triangle %u", k,
                           tri->neighbour[k], e, other);
    }
    float centre[2], normal[3], d;
    nwn2_triangle_geometry(a, t, centre, normal, &d);
    if (!nwn2_check_near(tri->centre[0], centre[0], 1e-4) || !nwn2_check_near(tri->centre[1], centre[1], 1e-4))
        nwn2_check_add(v, WM_SEV_ERROR, where, "centre (%g, %g) is not the vertex mean (%g, %g)",
                       (double)tri->centre[0], (double)tri->centre[1], (double)centre[0], (double)centre[1]);
    check_plane(v, t, where, normal, d);
    if (tri->flags & ~(uint16_t)(NWN2_TRI_WALKABLE | NWN2_TRI_CLOCKWISE | NWN2_TRI_SURFACE_MASK))
        nwn2_check_add(v, WM_SEV_WARNING, where, "unknown flag bits 0x%x", tri->flags & ~0x3FFDu);
    uint32_t surf = tri->flags & NWN2_TRI_SURFACE_MASK;
    if (surf & (surf - 1))
        nwn2_check_add(v, WM_SEV_WARNING, where, "several surface flags (0x%x)", surf);
}

/* Triangles with the same three vertex positions as an earlier one. The
 * toolset's files hold some (FORMAT-NOTES section 2; its edge links keep
 * pointing at the real neighbours): a warning. */
wm_result nwn2_check_duplicates(nwn2_check_state *v)
{
    const nwn2_aswm *a = v->a;
    nwn2_corner_key *keys = wm_alloc_array(v->ctx, a->triangle_count ? a->triangle_count : 1, sizeof *keys);
    if (!keys)
        return WM_ERR_NOMEM;
    uint32_t n = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        const uint32_t *tv = a->triangles[t].v;
        if (tv[0] >= a->vertex_count || tv[1] >= a->vertex_count || tv[2] >= a->vertex_count)
            continue; /* reported by nwn2_check_triangle */
        nwn2_corner_key_make(&keys[n++], a->vertices, tv, t);
    }
    qsort(keys, n, sizeof *keys, nwn2_corner_key_cmp);
    char where[64];
    for (uint32_t i = 1; i < n; i++)
        if (nwn2_corner_key_same(&keys[i], &keys[i - 1]))
            nwn2_check_add(v, WM_SEV_WARNING, nwn2_check_where(where, sizeof where, "triangle %u", keys[i].index),
                           "duplicate of triangle %u (the same three vertex positions)", keys[i - 1].index);
    wm_free(v->ctx, keys);
    return WM_OK;
}
