/* Invariant checks of FORMAT-NOTES section 1, written independently of
 * the builder: nothing here calls bwm_build or shares its helpers. */
#include "bwm/bwm.h"
#include "wm_geometry.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FINDINGS_PER_KIND 5
#define MAX_KINDS 64

/* Findings are capped per kind (one kind = one message format) so that a
 * file broken everywhere still shows every kind of problem. */
typedef struct finding_kind {
    const char *fmt;
    wm_severity severity;
    unsigned count;
    char first_location[48];
} finding_kind;

typedef struct checker {
    wm_report *report;
    const bwm_file *f;
    wm_ctx *ctx;
    finding_kind kinds[MAX_KINDS];
    unsigned kind_count;
} checker;

#if defined(__GNUC__)
WM_PRINTF(4, 5)
#endif
static void finding(checker *c, wm_severity sev, const char *location, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    finding_kind *kind = NULL;
    for (unsigned i = 0; i < c->kind_count && !kind; i++)
        if (c->kinds[i].fmt == fmt) kind = &c->kinds[i];
    if (!kind && c->kind_count < MAX_KINDS) {
        kind = &c->kinds[c->kind_count++];
        kind->fmt = fmt;
        kind->severity = sev;
        kind->count = 0;
        snprintf(kind->first_location, sizeof kind->first_location, "%s", location);
    }
    if (kind && kind->count++ >= MAX_FINDINGS_PER_KIND) return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    wm_report_finding(c->report, sev, location, "%s", msg);
}

static void summarize(checker *c)
{
    for (unsigned i = 0; i < c->kind_count; i++)
        if (c->kinds[i].count > MAX_FINDINGS_PER_KIND)
            wm_report_finding(c->report, c->kinds[i].severity, c->kinds[i].first_location,
                              "and %u more places with the same kind of problem (not listed)",
                              c->kinds[i].count - MAX_FINDINGS_PER_KIND);
}

static const float *vtx(const bwm_file *f, uint32_t face, int corner)
{
    return &f->vertices[3 * (size_t)f->faces[3 * (size_t)face + corner]];
}

static void check_layout(checker *c, size_t file_size)
{
    const bwm_file *f = c->f;
    const uint64_t counts[BWM_SEC_COUNT] = {f->vertex_count, f->face_count, f->face_count, f->face_count,
                                            f->face_count, f->aabb_count, f->adjacency_count, f->edge_count,
                                            f->perimeter_count};
    static const size_t sizes[BWM_SEC_COUNT] = {12, 12, 4, 12, 4, 44, 12, 8, 4};
    static const char *names[BWM_SEC_COUNT] = {"vertices", "faces", "materials", "normals", "distances",
                                               "AABB", "adjacency", "edges", "perimeters"};
    char loc[64];
    uint64_t pos = BWM_HEADER_SIZE;
    if (f->type != BWM_TYPE_AREA && f->type != BWM_TYPE_PLACEABLE)
        finding(c, WM_SEV_ERROR, "header 0x08", "walkmesh type %u is neither 1 (WOK) nor 0 (PWK/DWK)", f->type);
    if (f->aabb_root != 0)
        finding(c, WM_SEV_WARNING, "header 0x6C", "field is %u; every real file has 0", f->aabb_root);
    for (int s = 0; s < BWM_SEC_COUNT; s++) {
        if (counts[s] && f->offsets[s] != pos) {
            snprintf(loc, sizeof loc, "%s section", names[s]);
            finding(c, WM_SEV_WARNING, loc, "starts at 0x%X, expected 0x%llX (sections are contiguous in order)",
                    f->offsets[s], (unsigned long long)pos);
        }
        pos += counts[s] * sizes[s];
    }
    if (file_size && file_size != pos)
        finding(c, WM_SEV_WARNING, "end of file", "%zu bytes, sections end at %llu", file_size,
                (unsigned long long)pos);
}

static void check_faces(checker *c, uint32_t *out_walkable)
{
    const bwm_file *f = c->f;
    char loc[64];
    uint32_t walkable = 0, total_walkable = 0;
    int order_broken = 0;
    for (uint32_t i = 0; i < f->face_count; i++) {
        int w = bwm_material_walkable(c->ctx, f->materials[i]);
        snprintf(loc, sizeof loc, "face %u", i);
        if (w && walkable != i && !order_broken) {
            finding(c, WM_SEV_ERROR, loc, "walkable (material %u) after non-walkable faces: walkable faces must come first",
                    f->materials[i]);
            order_broken = 1;
        }
        if (w && walkable == i) walkable++;
        total_walkable += w != 0;
        const float *a = vtx(f, i, 0);
        double n[3];
        double len = bwm_face_cross(f, i, n);
        const float *fn = &f->normals[3 * (size_t)i];
        if (len <= 1e-12) {
            finding(c, WM_SEV_WARNING, loc, "degenerate (zero area)");
            continue;
        }
        double err = 0, d = 0;
        for (int k = 0; k < 3; k++) {
            n[k] /= len;
            err = fmax(err, fabs(n[k] - fn[k]));
            d -= (double)fn[k] * a[k];
        }
        if (err > 1e-3)
            finding(c, WM_SEV_ERROR, loc, "stored normal (%g, %g, %g) differs from the geometry's (%g, %g, %g)", fn[0],
                    fn[1], fn[2], n[0], n[1], n[2]);
        else if (fabs(d - f->distances[i]) > 1e-3 * fmax(1.0, fabs(d)))
            finding(c, WM_SEV_ERROR, loc, "stored plane distance %g, the geometry gives %g", f->distances[i], d);
        if (w && n[2] < -1e-3) finding(c, WM_SEV_WARNING, loc, "walkable face faces down (normal z %.3f)", n[2]);
    }
    *out_walkable = total_walkable;
}

static void check_placeable(checker *c)
{
    const bwm_file *f = c->f;
    if (f->aabb_count || f->adjacency_count || f->edge_count || f->perimeter_count)
        finding(c, WM_SEV_ERROR, "header", "a PWK/DWK (type 0) has no AABB, adjacency, edges or perimeters (counts %u/%u/%u/%u)",
                f->aabb_count, f->adjacency_count, f->edge_count, f->perimeter_count);
}

static int box_holds(const float *outer_min, const float *outer_max, const float *mn, const float *mx, float tol)
{
    for (int k = 0; k < 3; k++)
        if (mn[k] < outer_min[k] - tol || mx[k] > outer_max[k] + tol) return 0;
    return 1;
}

static void check_aabb(checker *c)
{
    const bwm_file *f = c->f;
    char loc[64];
    uint32_t expected = f->face_count ? 2 * f->face_count - 1 : 0;
    if (f->aabb_count != expected) {
        finding(c, WM_SEV_ERROR, "AABB", "%u nodes, expected 2*faces-1 = %u", f->aabb_count, expected);
    }
    uint32_t *seen = wm_alloc_array(c->ctx, f->face_count, sizeof(uint32_t));
    uint8_t *reached = wm_alloc_array(c->ctx, f->aabb_count, 1);
    uint32_t inverted = 0;
    if (!seen || !reached) {
        wm_free(c->ctx, seen);
        wm_free(c->ctx, reached);
        wm_report_finding(c->report, WM_SEV_ERROR, "AABB", "out of memory while checking");
        return;
    }
    if (f->aabb_count) reached[0] = 1;
    for (uint32_t i = 0; i < f->aabb_count; i++) {
        const bwm_aabb_node *n = &f->aabb[i];
        snprintf(loc, sizeof loc, "AABB node %u", i);
        if (n->constant != BWM_AABB_CONSTANT)
            finding(c, WM_SEV_ERROR, loc, "constant field is %u, expected 4", n->constant);
        if (!reached[i]) finding(c, WM_SEV_ERROR, loc, "not reachable from the root in preorder");
        int bad_box = 0;
        for (int k = 0; k < 3; k++) bad_box |= n->min[k] > n->max[k];
        if (bad_box && ++inverted)
            finding(c, WM_SEV_ERROR, loc, "box inverted: min (%g, %g, %g) > max (%g, %g, %g)", n->min[0], n->min[1],
                    n->min[2], n->max[0], n->max[1], n->max[2]);
        if (n->face >= 0) {
            if (n->left != BWM_NONE || n->right != BWM_NONE)
                finding(c, WM_SEV_ERROR, loc, "leaf (face %d) has children %u/%u", n->face, n->left, n->right);
            if (n->plane != 0) finding(c, WM_SEV_ERROR, loc, "leaf has plane flag %u, expected 0", n->plane);
            if ((uint32_t)n->face >= f->face_count) {
                finding(c, WM_SEV_ERROR, loc, "face %d out of range (%u faces)", n->face, f->face_count);
                continue;
            }
            seen[n->face]++;
            float fmn[3], fmx[3];
            for (int k = 0; k < 3; k++) {
                fmn[k] = fminf(fminf(vtx(f, n->face, 0)[k], vtx(f, n->face, 1)[k]), vtx(f, n->face, 2)[k]);
                fmx[k] = fmaxf(fmaxf(vtx(f, n->face, 0)[k], vtx(f, n->face, 1)[k]), vtx(f, n->face, 2)[k]);
            }
            if (!bad_box && !box_holds(n->min, n->max, fmn, fmx, 1e-4f))
                finding(c, WM_SEV_ERROR, loc, "box does not contain its face %d", n->face);
            continue;
        }
        if (n->face != -1) finding(c, WM_SEV_ERROR, loc, "face field %d on an internal node (expected -1)", n->face);
        if (n->plane != 1 && n->plane != 2 && n->plane != 4 && n->plane != 8 && n->plane != 16 && n->plane != 32)
            finding(c, WM_SEV_ERROR, loc, "plane flag %u is not one of 1, 2, 4, 8, 16, 32", n->plane);
        if (n->left != i + 1) {
            finding(c, WM_SEV_ERROR, loc, "left child %u, expected %u (preorder, 0-based)", n->left, i + 1);
        }
        if (n->right == BWM_NONE || n->right <= i + 1 || n->right >= f->aabb_count) {
            finding(c, WM_SEV_ERROR, loc, "right child %u out of range or not after the left child", n->right);
            continue;
        }
        if (n->left < f->aabb_count && n->left > i) {
            reached[n->left] = 1;
            if (!bad_box && !box_holds(n->min, n->max, f->aabb[n->left].min, f->aabb[n->left].max, 1e-5f))
                finding(c, WM_SEV_ERROR, loc, "box does not contain its left child %u", n->left);
        }
        reached[n->right] = 1;
        if (!bad_box && !box_holds(n->min, n->max, f->aabb[n->right].min, f->aabb[n->right].max, 1e-5f))
            finding(c, WM_SEV_ERROR, loc, "box does not contain its right child %u", n->right);
    }
    if (inverted > MAX_FINDINGS_PER_KIND) finding(c, WM_SEV_INFO, "AABB", "%u inverted boxes in all", inverted);
    uint32_t missing = 0;
    for (uint32_t i = 0; i < f->face_count; i++) {
        snprintf(loc, sizeof loc, "face %u", i);
        if (seen[i] == 0 && ++missing) finding(c, WM_SEV_ERROR, loc, "in no AABB leaf");
        if (seen[i] > 1) finding(c, WM_SEV_ERROR, loc, "in %u AABB leaves", seen[i]);
    }
    if (missing) finding(c, WM_SEV_INFO, "AABB", "%u faces are in no leaf", missing);
    wm_free(c->ctx, seen);
    wm_free(c->ctx, reached);
}

typedef struct edge_key {
    uint32_t lo, hi, code;
} edge_key;

static int edge_key_cmp(const void *pa, const void *pb)
{
    const edge_key *a = pa, *b = pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return a->code < b->code ? -1 : a->code > b->code;
}

static void edge_ends(const bwm_file *f, uint32_t code, uint32_t *a, uint32_t *b)
{
    *a = f->faces[3 * (size_t)(code / 3) + code % 3];
    *b = f->faces[3 * (size_t)(code / 3) + (code % 3 + 1) % 3];
}

/* Every adjacency entry names an edge of the table that links back and
 * joins the same two vertices. n = checked rows * 3. */
static void check_adjacency_reciprocal(checker *c, uint32_t n)
{
    const bwm_file *f = c->f;
    char loc[64];
    for (uint32_t i = 0; i < n; i++) {
        int32_t v = f->adjacency[i];
        if (v == -1) continue;
        snprintf(loc, sizeof loc, "face %u edge %u", i / 3, i % 3);
        if (v < 0 || (uint32_t)v >= n) {
            finding(c, WM_SEV_ERROR, loc, "neighbour %d outside the adjacency table", v);
            continue;
        }
        if (f->adjacency[v] != (int32_t)i) {
            finding(c, WM_SEV_ERROR, loc, "links to face %d edge %d, which links back to %d (not reciprocal)", v / 3,
                    v % 3, f->adjacency[v]);
            continue;
        }
        uint32_t a0, a1, b0, b1;
        edge_ends(f, i, &a0, &a1);
        edge_ends(f, (uint32_t)v, &b0, &b1);
        if (!((a0 == b1 && a1 == b0) || (a0 == b0 && a1 == b1)))
            finding(c, WM_SEV_ERROR, loc, "linked to face %d edge %d but they share no vertex pair", v / 3, v % 3);
    }
}

/* Every shared walkable edge must be linked (matched by vertex index). */
static void check_shared_edges_linked(checker *c, uint32_t walkable, uint32_t n)
{
    const bwm_file *f = c->f;
    char loc[64];
    edge_key *keys = wm_alloc_array(c->ctx, (size_t)walkable * 3, sizeof(edge_key));
    if (keys && walkable <= f->face_count) {
        for (uint32_t i = 0; i < walkable * 3; i++) {
            uint32_t a, b;
            edge_ends(f, i, &a, &b);
            keys[i].lo = a < b ? a : b;
            keys[i].hi = a < b ? b : a;
            keys[i].code = i;
        }
        qsort(keys, (size_t)walkable * 3, sizeof(edge_key), edge_key_cmp);
        for (uint32_t i = 0; i < walkable * 3;) {
            uint32_t j = i + 1;
            while (j < walkable * 3 && keys[j].lo == keys[i].lo && keys[j].hi == keys[i].hi) j++;
            snprintf(loc, sizeof loc, "face %u edge %u", keys[i].code / 3, keys[i].code % 3);
            if (j - i >= 3)
                finding(c, WM_SEV_WARNING, loc, "walkable edge (vertices %u-%u) shared by %u faces", keys[i].lo,
                        keys[i].hi, j - i);
            else if (j - i == 2 && keys[i].code < n && keys[i + 1].code < n &&
                     f->adjacency[keys[i].code] != (int32_t)keys[i + 1].code)
                finding(c, WM_SEV_ERROR, loc, "shares vertices %u-%u with face %u edge %u but is not linked to it",
                        keys[i].lo, keys[i].hi, keys[i + 1].code / 3, keys[i + 1].code % 3);
            i = j;
        }
    }
    wm_free(c->ctx, keys);
}

/* The edge list holds each unlinked walkable edge exactly once. Returns 0
 * when out of memory (the checks after it are then skipped). */
static int check_boundary_edges(checker *c, uint32_t n)
{
    const bwm_file *f = c->f;
    char loc[64];
    uint8_t *listed = wm_alloc_array(c->ctx, n, 1);
    if (!listed) return 0;
    for (uint32_t e = 0; e < f->edge_count; e++) {
        uint32_t code = f->edges[e].code;
        snprintf(loc, sizeof loc, "edge %u", e);
        if (code >= n) {
            finding(c, WM_SEV_ERROR, loc, "face %u edge %u is not an edge of a walkable face", code / 3, code % 3);
            continue;
        }
        if (f->adjacency[code] != -1)
            finding(c, WM_SEV_ERROR, loc, "face %u edge %u has a neighbour, so it is not a boundary edge", code / 3,
                    code % 3);
        if (listed[code]++) finding(c, WM_SEV_ERROR, loc, "face %u edge %u listed twice", code / 3, code % 3);
        if (f->edges[e].transition < -1)
            finding(c, WM_SEV_ERROR, loc, "transition %d (expected -1 or a room index)", f->edges[e].transition);
    }
    for (uint32_t i = 0; i < n; i++) {
        if (f->adjacency[i] == -1 && !listed[i]) {
            snprintf(loc, sizeof loc, "face %u edge %u", i / 3, i % 3);
            finding(c, WM_SEV_ERROR, loc, "boundary edge missing from the edge list");
        }
    }
    wm_free(c->ctx, listed);
    return 1;
}

/* Perimeter loop ends split the edge list into closed vertex chains. */
static void check_perimeters(checker *c, uint32_t n)
{
    const bwm_file *f = c->f;
    char loc[64];
    if (f->edge_count && f->perimeter_count == 0)
        finding(c, WM_SEV_ERROR, "perimeters", "%u boundary edges but no perimeter loops", f->edge_count);
    uint32_t start = 0;
    for (uint32_t p = 0; p < f->perimeter_count; p++) {
        uint32_t stop = f->perimeters[p];
        snprintf(loc, sizeof loc, "perimeter %u", p);
        if (stop <= start || stop > f->edge_count) {
            finding(c, WM_SEV_ERROR, loc, "end %u is not after %u and within the %u edges", stop, start,
                    f->edge_count);
            break;
        }
        for (uint32_t e = start; e < stop; e++) {
            uint32_t a0, a1, b0, b1, next = e + 1 < stop ? e + 1 : start;
            if (f->edges[e].code >= n || f->edges[next].code >= n) continue;
            edge_ends(f, f->edges[e].code, &a0, &a1);
            edge_ends(f, f->edges[next].code, &b0, &b1);
            if (a1 != b0) {
                snprintf(loc, sizeof loc, "perimeter %u edge %u", p, e);
                finding(c, WM_SEV_ERROR, loc, "ends at vertex %u but the next edge starts at vertex %u", a1, b0);
            }
        }
        start = stop;
    }
    if (f->perimeter_count && start != f->edge_count)
        finding(c, WM_SEV_ERROR, "perimeters", "last loop ends at %u, expected the edge count %u", start,
                f->edge_count);
}

/* Adjacency, boundary edges and perimeters. */
static void check_links(checker *c, uint32_t walkable)
{
    const bwm_file *f = c->f;
    if (f->adjacency_count != walkable)
        finding(c, WM_SEV_ERROR, "adjacency", "%u rows, expected one per walkable face (%u)", f->adjacency_count,
                walkable);
    uint32_t rows = f->adjacency_count < f->face_count ? f->adjacency_count : f->face_count;
    uint32_t n = rows * 3;
    check_adjacency_reciprocal(c, n);
    check_shared_edges_linked(c, walkable, n);
    if (!check_boundary_edges(c, n)) return;
    check_perimeters(c, n);
}

/* "not finite", "beyond the bound of 1e7" or NULL for a point within WM_COORD_LIMIT. */
static const char *coordinate_problem(const float *p)
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(p[k])) return "not finite";
    for (int k = 0; k < 3; k++)
        if (fabsf(p[k]) > WM_COORD_LIMIT) return "beyond the bound of 1e7 game units a float walkmesh can hold";
    return NULL;
}

/* Header points (use hooks, position) and vertices: what no reader accepts and no writer
 * writes (WM_COORD_LIMIT), an infinite position included. */
static void check_coordinates(checker *c)
{
    const bwm_file *f = c->f;
    const float *points[5] = {f->rel_hook[0], f->rel_hook[1], f->abs_hook[0], f->abs_hook[1], f->position};
    static const char *const names[5] = {"header 0x0C", "header 0x18", "header 0x24", "header 0x30", "header 0x3C"};
    static const char *const what[5] = {"relative use hook 1", "relative use hook 2", "absolute use hook 1",
                                        "absolute use hook 2", "position"};
    char loc[48];
    for (int i = 0; i < 5; i++) {
        const char *problem = coordinate_problem(points[i]);
        if (problem)
            finding(c, WM_SEV_ERROR, names[i], "%s (%g, %g, %g): %s", what[i], (double)points[i][0],
                    (double)points[i][1], (double)points[i][2], problem);
    }
    for (uint32_t v = 0; v < f->vertex_count; v++) {
        const float *p = &f->vertices[3 * (size_t)v];
        const char *problem = coordinate_problem(p);
        if (!problem) continue;
        snprintf(loc, sizeof loc, "vertex %u", v);
        finding(c, WM_SEV_ERROR, loc, "(%g, %g, %g): %s", (double)p[0], (double)p[1], (double)p[2], problem);
    }
}

wm_result bwm_validate(wm_ctx *ctx, const bwm_file *file, size_t file_size, wm_report *report)
{
    checker c;
    memset(&c, 0, sizeof c);
    c.report = report;
    c.f = file;
    c.ctx = ctx;
    uint32_t walkable = 0;
    check_layout(&c, file_size);
    check_coordinates(&c);
    check_faces(&c, &walkable);
    if (file->type == BWM_TYPE_AREA) {
        check_aabb(&c);
        check_links(&c, walkable);
    } else {
        check_placeable(&c);
    }
    summarize(&c);
    return report->status;
}
