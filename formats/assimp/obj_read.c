/* OBJ read directly (after wm_obj_check has vouched for its structure):
 * Assimp's OBJ import welds and copies per mesh and was most of the time
 * and memory of a large conversion, and walkmesh welds again anyway. The
 * result is what the Assimp path gives: one object per `o` or `g` (faces
 * before any: "defaultobject"), a material per `usemtl` name (none before the
 * first), polygons triangulated (ear clipping, so concave faces stay
 * inside their outline), `l` edges of transition_<value> objects as
 * transitions. Vertex, normal and texture data other than positions is
 * not needed. */
#include "import_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_EAR_CLIPPED = 1024 }; /* larger polygons are fanned: ear clipping is quadratic */

typedef struct name_table {
    char **names;
    uint32_t count, capacity;
    uint32_t *slots; /* open addressing: index + 1, 0 = empty */
    uint32_t slot_mask;
} name_table;

static uint32_t hash_name(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

/* Index of the name (added when new), or UINT32_MAX when out of memory. */
static uint32_t intern(wm_ctx *ctx, name_table *t, const char *s, size_t n)
{
    if (2 * (t->count + 1) > t->slot_mask) {
        uint32_t slots = t->slot_mask ? 2 * (t->slot_mask + 1) : 64;
        uint32_t *fresh = wm_alloc_array(ctx, slots, sizeof(uint32_t));
        if (!fresh)
            return UINT32_MAX;
        for (uint32_t i = 0; i < t->count; i++) {
            uint32_t h = hash_name(t->names[i], strlen(t->names[i])) & (slots - 1);
            while (fresh[h])
                h = (h + 1) & (slots - 1);
            fresh[h] = i + 1;
        }
        wm_free(ctx, t->slots);
        t->slots = fresh;
        t->slot_mask = slots - 1;
    }
    uint32_t h = hash_name(s, n) & t->slot_mask;
    for (; t->slots[h]; h = (h + 1) & t->slot_mask) {
        const char *name = t->names[t->slots[h] - 1];
        if (strncmp(name, s, n) == 0 && name[n] == '\0')
            return t->slots[h] - 1;
    }
    if (t->count == t->capacity) {
        uint32_t capacity = t->capacity ? 2 * t->capacity : 16;
        char **names = wm_realloc_array(ctx, t->names, capacity, sizeof *names);
        if (!names)
            return UINT32_MAX;
        t->names = names;
        t->capacity = capacity;
    }
    char *copy = wm_alloc_array(ctx, n + 1, 1);
    if (!copy)
        return UINT32_MAX;
    memcpy(copy, s, n);
    t->names[t->count] = copy;
    t->slots[h] = t->count + 1;
    return t->count++;
}

static void free_names(wm_ctx *ctx, name_table *t)
{
    for (uint32_t i = 0; i < t->count; i++)
        wm_free(ctx, t->names[i]);
    wm_free(ctx, t->names);
    wm_free(ctx, t->slots);
}

typedef struct obj_reader {
    import_state st;
    const char *line, *end; /* the current line without its line break */
    uint32_t file_vertices;  /* `v` lines so far (OBJ indices are 1-based, or negative from here) */
    name_table materials;
    uint32_t material; /* UINT32_MAX until the first usemtl */
    char object[256];
    int object_is_transition, object_has_edges, object_started;
    const char *object_point; /* "point_<name>" objects: the named point, else NULL */
    int32_t transition;
    int have_object;
    uint16_t object_index;
    uint32_t *polygon; /* vertex indices of the current face */
    uint32_t polygon_capacity;
} obj_reader;

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}

/* The rest of the line after the keyword, trimmed (a name). */
static size_t rest_of_line(const obj_reader *r, const char *p, const char **start)
{
    p = skip_blanks(p, r->end);
    const char *e = r->end;
    while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    *start = p;
    return (size_t)(e - p);
}

/* Fast path for plain decimals ("-12.375", "3"); anything else (exponents,
 * inf...) goes through strtod. The numbers were checked by wm_obj_check. */
static const char *parse_float(const char *p, const char *end, float *out)
{
    p = skip_blanks(p, end);
    const char *q = p;
    int negative = q < end && *q == '-';
    if (q < end && (*q == '-' || *q == '+'))
        q++;
    double v = 0;
    int digits = 0;
    while (q < end && *q >= '0' && *q <= '9' && digits < 15) {
        v = v * 10 + (*q++ - '0');
        digits++;
    }
    if (q < end && *q == '.') {
        q++;
        double scale = 1;
        while (q < end && *q >= '0' && *q <= '9' && digits < 15) {
            v = v * 10 + (*q++ - '0');
            scale *= 10;
            digits++;
        }
        v /= scale;
    }
    if (digits > 0 && (q == end || *q == ' ' || *q == '\t')) {
        *out = (float)(negative ? -v : v);
        return q;
    }
    char buf[64];
    size_t n = 0;
    while (p < end && *p != ' ' && *p != '\t' && n + 1 < sizeof buf)
        buf[n++] = *p++;
    buf[n] = '\0';
    *out = strtof(buf, NULL);
    while (p < end && *p != ' ' && *p != '\t')
        p++;
    return p;
}

/* Reads the vertex references of an `f` or `l` line into r->polygon. */
static wm_result read_references(obj_reader *r, const char *p, uint32_t *count)
{
    *count = 0;
    for (;;) {
        p = skip_blanks(p, r->end);
        if (p >= r->end)
            return WM_OK;
        int negative = *p == '-';
        p += negative || *p == '+';
        long index = 0;
        while (p < r->end && *p >= '0' && *p <= '9' && index < 0x7fffffffL)
            index = index * 10 + (*p++ - '0');
        while (p < r->end && *p != ' ' && *p != '\t') /* "/vt/vn" */
            p++;
        long resolved = negative ? (long)r->file_vertices - index : index - 1;
        if (resolved < 0 || resolved >= (long)r->file_vertices)
            return wm_error(r->st.ctx, WM_ERR_CORRUPT, "%s: a face refers to vertex %s%ld of %u", r->st.path,
                            negative ? "-" : "", index, r->file_vertices);
        if (*count == r->polygon_capacity) {
            uint32_t capacity = r->polygon_capacity ? 2 * r->polygon_capacity : 16;
            uint32_t *grown = wm_realloc_array(r->st.ctx, r->polygon, capacity, sizeof(uint32_t));
            if (!grown)
                return WM_ERR_NOMEM;
            r->polygon = grown;
            r->polygon_capacity = capacity;
        }
        r->polygon[(*count)++] = (uint32_t)resolved;
    }
}

static wm_result add_triangle(obj_reader *r, uint32_t a, uint32_t b, uint32_t c)
{
    if (!r->have_object) {
        wm_result e = wm_mesh_add_object(r->st.ctx, r->st.out, r->object, &r->object_index);
        if (e)
            return e;
        r->have_object = 1;
    }
    return wm_import_triangle(&r->st, a, b, c, r->material, r->object_index);
}

/* Signed doubled area of 2-D triangle (p, q, s). */
static double cross2(const double *p, const double *q, const double *s)
{
    return (q[0] - p[0]) * (s[1] - p[1]) - (q[1] - p[1]) * (s[0] - p[0]);
}

static int same_point(const double *p, const double *q)
{
    return p[0] == q[0] && p[1] == q[1];
}

/* Ear clipping on the polygon projected along its largest normal axis;
 * falls back to a fan when no ear is found (self-intersecting outline). */
static wm_result triangulate(obj_reader *r, uint32_t n)
{
    const uint32_t *v = r->polygon;
    if (n == 3)
        return add_triangle(r, v[0], v[1], v[2]);
    const float *pos = r->st.out->positions;
    wm_result e = WM_OK;
    if (n > MAX_EAR_CLIPPED) {
        for (uint32_t i = 1; !e && i + 1 < n; i++)
            e = add_triangle(r, v[0], v[i], v[i + 1]);
        return e;
    }
    double normal[3] = {0, 0, 0}; /* Newell */
    for (uint32_t i = 0; i < n; i++) {
        const float *a = pos + 3 * (size_t)v[i], *b = pos + 3 * (size_t)v[(i + 1) % n];
        normal[0] += ((double)a[1] - b[1]) * ((double)a[2] + b[2]);
        normal[1] += ((double)a[2] - b[2]) * ((double)a[0] + b[0]);
        normal[2] += ((double)a[0] - b[0]) * ((double)a[1] + b[1]);
    }
    int drop = fabs(normal[0]) > fabs(normal[1]) ? (fabs(normal[0]) > fabs(normal[2]) ? 0 : 2)
                                                   : (fabs(normal[1]) > fabs(normal[2]) ? 1 : 2);
    /* (u, w) keeps the projection's winding that of the normal: (y,z), (z,x), (x,y) */
    int u = (drop + 1) % 3, w = (drop + 2) % 3;
    double flip = normal[drop] < 0 ? -1 : 1; /* counter-clockwise in the projection */
    double *flat = wm_alloc_array(r->st.ctx, 2 * (size_t)n, sizeof(double));
    uint32_t *left = wm_alloc_array(r->st.ctx, n, sizeof(uint32_t));
    if (!flat || !left) {
        wm_free(r->st.ctx, flat);
        wm_free(r->st.ctx, left);
        return WM_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < n; i++) {
        flat[2 * i] = pos[3 * (size_t)v[i] + u];
        flat[2 * i + 1] = pos[3 * (size_t)v[i] + w] * flip;
        left[i] = i;
    }
    uint32_t remaining = n;
    while (!e && remaining > 3) {
        int clipped = 0;
        for (uint32_t i = 0; i < remaining && !clipped; i++) {
            uint32_t ia = left[(i + remaining - 1) % remaining], ib = left[i], ic = left[(i + 1) % remaining];
            const double *a = flat + 2 * ia, *b = flat + 2 * ib, *c = flat + 2 * ic;
            if (cross2(a, b, c) <= 0)
                continue; /* reflex or flat corner */
            int inside = 0;
            for (uint32_t k = 0; k < remaining && !inside; k++) {
                uint32_t ik = left[k];
                const double *p = flat + 2 * ik;
                if (same_point(p, a) || same_point(p, b) || same_point(p, c))
                    continue; /* the outline passing through a corner again (a slit) */
                inside = cross2(a, b, p) >= 0 && cross2(b, c, p) >= 0 && cross2(c, a, p) >= 0;
            }
            if (inside)
                continue;
            e = add_triangle(r, v[ia], v[ib], v[ic]);
            memmove(left + i, left + i + 1, (remaining - i - 1) * sizeof *left);
            remaining--;
            clipped = 1;
        }
        if (!clipped) /* no ear: fan what is left */
            break;
    }
    for (uint32_t i = 1; !e && i + 1 < remaining; i++)
        e = add_triangle(r, v[left[0]], v[left[i]], v[left[i + 1]]);
    wm_free(r->st.ctx, flat);
    wm_free(r->st.ctx, left);
    return e;
}

static void end_object(obj_reader *r)
{
    if (r->object_started && r->object_is_transition && !r->object_has_edges)
        wm_import_empty_transition_object(&r->st, r->object);
}

static void begin_object(obj_reader *r, const char *name, size_t n)
{
    end_object(r);
    if (n >= sizeof r->object)
        n = sizeof r->object - 1;
    memcpy(r->object, name, n);
    r->object[n] = '\0';
    r->object_is_transition = wm_import_transition_value(r->object, &r->transition);
    r->object_point = wm_import_point_name(r->object);
    r->object_has_edges = 0;
    r->object_started = 1;
    r->have_object = 0;
}

static wm_result read_line(obj_reader *r)
{
    const char *p = skip_blanks(r->line, r->end);
    size_t n = (size_t)(r->end - p);
    if (n < 2 || (p[1] != ' ' && p[1] != '\t' && !(n >= 7 && strncmp(p, "usemtl", 6) == 0)))
        return WM_OK;
    if (p[0] == 'v' && (p[1] == ' ' || p[1] == '\t')) {
        float xyz[3];
        const char *q = p + 2;
        for (int k = 0; k < 3; k++)
            q = parse_float(q, r->end, &xyz[k]);
        r->file_vertices++;
        return wm_import_vertex(&r->st, xyz);
    }
    if (p[0] == 'f') {
        uint32_t count;
        wm_result e = read_references(r, p + 2, &count);
        if (!e && count >= 3)
            e = triangulate(r, count);
        return e;
    }
    if (p[0] == 'l') {
        uint32_t count;
        wm_result e = read_references(r, p + 2, &count);
        for (uint32_t i = 0; !e && r->object_is_transition && i + 1 < count; i++) {
            const float *a = r->st.out->positions + 3 * (size_t)r->polygon[i];
            const float *b = r->st.out->positions + 3 * (size_t)r->polygon[i + 1];
            e = wm_import_segment(&r->st, a, b, r->transition);
            r->object_has_edges = 1;
        }
        if (!e && r->object_point && count >= 2)
            e = wm_import_point(&r->st, r->object_point, r->st.out->positions + 3 * (size_t)r->polygon[0],
                                r->st.out->positions + 3 * (size_t)r->polygon[1]);
        return e;
    }
    if (p[0] == 'o' || p[0] == 'g') { /* Assimp maps groups to objects too */
        const char *name;
        size_t len = rest_of_line(r, p + 1, &name);
        if (len)
            begin_object(r, name, len);
        return WM_OK;
    }
    if (strncmp(p, "usemtl", 6) == 0 && (p[6] == ' ' || p[6] == '\t')) {
        const char *name;
        size_t len = rest_of_line(r, p + 6, &name);
        uint32_t known = r->materials.count;
        r->material = intern(r->st.ctx, &r->materials, name, len);
        if (r->material == UINT32_MAX)
            return WM_ERR_NOMEM;
        r->st.material_names = (const char *const *)r->materials.names;
        return r->material == known ? wm_import_add_material(&r->st, r->materials.names[known]) : WM_OK;
    }
    return WM_OK;
}

wm_result wm_obj_check_and_read(wm_ctx *ctx, const char *path, const wm_options *opts, const uint8_t *data,
                                size_t size, wm_mesh *out)
{
    uint32_t vertices, faces;
    wm_result r = wm_obj_check_counting(ctx, path, data, size, &vertices, &faces);
    if (r)
        return r;
    /* every face is at least one triangle: no regrowing of the big arrays */
    if (vertices <= ctx->limits.max_triangles * 3ull && faces <= ctx->limits.max_triangles &&
        wm_mesh_reserve(ctx, out, vertices, faces)) {
        wm_mesh_free(ctx, out);
        return WM_ERR_NOMEM;
    }
    return wm_obj_read(ctx, path, opts, data, size, out);
}

wm_result wm_obj_read(wm_ctx *ctx, const char *path, const wm_options *opts, const uint8_t *data, size_t size,
                      wm_mesh *out)
{
    obj_reader r;
    memset(&r, 0, sizeof r);
    wm_result e = wm_import_begin(&r.st, ctx, path, "obj", opts, out);
    r.material = UINT32_MAX;
    snprintf(r.object, sizeof r.object, "defaultobject");
    const char *text = (const char *)data, *end = text + size;
    for (const char *line = text; !e && line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        r.line = line;
        r.end = nl ? nl : end;
        while (r.end > line && r.end[-1] == '\r')
            r.end--;
        e = read_line(&r);
        line = nl ? nl + 1 : end;
    }
    end_object(&r);
    e = wm_import_finish(&r.st, e);
    free_names(ctx, &r.materials);
    wm_free(ctx, r.polygon);
    return e;
}
