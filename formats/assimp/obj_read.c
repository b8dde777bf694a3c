/* OBJ read directly, in one pass: each line is parsed once, by a fast
 * parser for the plain forms ("v -1.25 0 3", "f 1 2/5 -3//2"), and any line
 * it does not take is checked (obj_check.c: errors name the line) and, when
 * sound, parsed by strtod. Assimp's OBJ import welds and copies per mesh and was most of the time
 * and memory of a large conversion, and walkmesh welds again anyway. The
 * result is what the Assimp path gives: one object per `o` or `g` (faces
 * before any: "defaultobject"), a material per `usemtl` name (none before the
 * first), polygons triangulated exactly (obj_polygon.c: concave faces
 * stay inside their outline), `l` edges of transition_<value> objects as
 * transitions. Vertex, normal and texture data other than positions is
 * not needed. */
#include "import_state.h"
#include "obj_names.h"
#include "obj_polygon.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct obj_reader {
    import_state st;
    const char *line, *end; /* the current line without its line break */
    uint32_t file_vertices;  /* `v` lines so far (OBJ indices are 1-based, or negative from here) */
    name_table materials, objects; /* objects: the mesh's, in its order (named on their first face) */
    uint32_t material; /* UINT32_MAX until the first usemtl */
    char object[256];
    int object_is_transition, object_has_edges, object_started;
    const char *object_point; /* "point_<name>" objects: the named point, else NULL */
    int32_t transition;
    int have_object;
    uint16_t object_index;
    uint32_t *polygon; /* vertex indices of the current face */
    uint32_t polygon_capacity;
    wm_polygon_work work;
    unsigned long line_number, face_lines;
    unsigned long odd_faces[2], odd_face_line[2]; /* not planar, self-intersecting */
    int plain; /* no control byte but tab, line feed and CR before LF: lines need no check */
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

/* A plain decimal ("-12.375", "3", at most 15 digits) ending at a blank or
 * the line's end; NULL for anything else (exponents, inf, garbage), which
 * the slow path judges. The digits are gathered in an integer (exact, as in
 * a double: 15 digits < 2^53, without a floating-point multiply-add chain),
 * then divided by the power of ten of its fraction digits, as before. */
static const char *fast_float(const char *p, const char *end, float *out)
{
    static const double ten_to[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    p = skip_blanks(p, end);
    int negative = p < end && *p == '-';
    if (p < end && (*p == '-' || *p == '+'))
        p++;
    uint64_t v = 0;
    int digits = 0, fraction = 0;
    while (p < end && (unsigned)(*p - '0') <= 9u && digits < 15) {
        v = v * 10 + (uint64_t)(*p++ - '0');
        digits++;
    }
    if (p < end && *p == '.') {
        p++;
        while (p < end && (unsigned)(*p - '0') <= 9u && digits < 15) {
            v = v * 10 + (uint64_t)(*p++ - '0');
            fraction++;
            digits++;
        }
    }
    if (digits == 0 || (p < end && *p != ' ' && *p != '\t'))
        return NULL;
    double d = (double)v;
    *out = (float)((negative ? -d : d) / ten_to[fraction]);
    return p;
}

/* Any number wm_obj_check_line accepted. */
static const char *slow_float(const char *p, const char *end, float *out)
{
    p = skip_blanks(p, end);
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

static wm_result read_vertex(obj_reader *r, const char *p)
{
    float xyz[3];
    const char *q = p;
    for (int k = 0; k < 3 && q; k++)
        q = fast_float(q, r->end, &xyz[k]);
    if (!q || skip_blanks(q, r->end) != r->end) { /* not plain, or more than x y z (w, colours) */
        long vertices = r->file_vertices, faces = 0;
        wm_result e = wm_obj_check_line(r->st.ctx, r->st.path, r->line_number, p - 2, r->end, &vertices, &faces);
        if (e)
            return e;
        for (int k = 0; k < 3; k++)
            p = slow_float(p, r->end, &xyz[k]);
    }
    r->file_vertices++;
    return wm_import_vertex(&r->st, xyz);
}

static wm_result grow_polygon(obj_reader *r)
{
    uint32_t capacity = r->polygon_capacity ? 2 * r->polygon_capacity : 16;
    uint32_t *grown = wm_realloc_array(r->st.ctx, r->polygon, capacity, sizeof(uint32_t));
    if (!grown)
        return WM_ERR_NOMEM;
    r->polygon = grown;
    r->polygon_capacity = capacity;
    return WM_OK;
}

/* Reads the vertex references "v", "v/t", "v//n", "v/t/n" of an `f` or `l`
 * line into r->polygon; *sound is 0 when one is malformed or out of range.
 * Locals, not r's fields or *count: stores into the polygon may alias those. */
static wm_result read_references(obj_reader *r, const char *p, uint32_t *count, int *sound)
{
    const char *end = r->end;
    const long vertices = (long)r->file_vertices;
    uint32_t n = 0;
    for (;;) {
        p = skip_blanks(p, end);
        if (p >= end)
            break;
        int negative = *p == '-';
        p += negative || *p == '+';
        long index = 0;
        const char *digits = p;
        while (p < end && (unsigned)(*p - '0') <= 9u && index < 0x7fffffffL)
            index = index * 10 + (*p++ - '0');
        int ended = p != digits && (p == end || *p == '/' || *p == ' ' || *p == '\t');
        while (p < end && *p != ' ' && *p != '\t') /* "/vt/vn" */
            p++;
        long resolved = negative ? vertices - index : index - 1;
        if (!ended || index == 0 || resolved < 0 || resolved >= vertices) {
            *count = n;
            *sound = 0;
            return WM_OK;
        }
        if (n == r->polygon_capacity && grow_polygon(r))
            return WM_ERR_NOMEM;
        r->polygon[n++] = (uint32_t)resolved;
    }
    *count = n;
    *sound = 1;
    return WM_OK;
}

static wm_result add_triangle(obj_reader *r, uint32_t a, uint32_t b, uint32_t c)
{
    if (!r->have_object) {
        uint32_t known = r->objects.count, i = obj_name_intern(r->st.ctx, &r->objects, r->object, strlen(r->object));
        int in_step = r->st.out->object_count == known; /* the mesh's objects are the names interned, in order */
        wm_result e = i == UINT32_MAX ? WM_ERR_NOMEM : WM_OK;
        if (!e && !in_step)
            e = wm_mesh_add_object(r->st.ctx, r->st.out, r->object, &r->object_index);
        else if (!e && i == known) /* a new name: no search of the mesh's (65,535 objects were quadratic) */
            e = wm_mesh_append_object(r->st.ctx, r->st.out, r->object, &r->object_index);
        else if (!e)
            r->object_index = (uint16_t)i;
        if (e)
            return e;
        r->have_object = 1;
    }
    return wm_import_triangle(&r->st, a, b, c, r->material, r->object_index);
}

/* The polygon in r->polygon: a triangle as it is, anything larger through
 * wm_polygon_triangulate; a face that cannot be triangulated faithfully is
 * an input error naming its line. */
static wm_result triangulate(obj_reader *r, uint32_t n)
{
    const uint32_t *v = r->polygon;
    if (n == 3)
        return add_triangle(r, v[0], v[1], v[2]);
    wm_polygon_verdict verdict;
    unsigned flags;
    wm_result e = wm_polygon_triangulate(r->st.ctx, &r->work, r->st.out->positions, v, n, &verdict, &flags);
    if (e)
        return e;
    if (verdict == WM_POLYGON_TOO_LARGE)
        return wm_error(r->st.ctx, WM_ERR_CORRUPT,
                        "%s: line %lu: a concave face of %u vertices: walkmesh triangulates concave faces of up to "
                        "%u vertices (convex ones of any size); split it",
                        r->st.path, r->line_number, n, (unsigned)WM_POLYGON_MAX_CONCAVE);
    if (verdict == WM_POLYGON_NO_EAR)
        return wm_error(r->st.ctx, WM_ERR_CORRUPT,
                        "%s: line %lu: the face of %u vertices crosses itself and cannot be triangulated faithfully",
                        r->st.path, r->line_number, n);
    for (int k = 0; k < 2; k++)
        if (flags & (k ? WM_POLYGON_SELF_INTERSECTING : WM_POLYGON_NOT_PLANAR) && r->odd_faces[k]++ == 0)
            r->odd_face_line[k] = r->line_number;
    for (uint32_t t = 0; !e && t < n - 2; t++)
        e = add_triangle(r, v[r->work.triangles[3 * t]], v[r->work.triangles[3 * t + 1]],
                         v[r->work.triangles[3 * t + 2]]);
    return e;
}

/* Faces triangulated with a doubt: not flat, or crossing themselves. */
static void warn_odd_faces(const obj_reader *r)
{
    static const char *const what[2] = {"not planar (triangulated on their mean plane)",
                                        "crossing themselves (triangulated as drawn; check the area)"};
    for (int k = 0; k < 2; k++)
        if (r->odd_faces[k])
            wm_warn(r->st.ctx, "%s: %lu face(s) %s, the first on line %lu", r->st.path, r->odd_faces[k], what[k],
                    r->odd_face_line[k]);
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

static wm_result read_face(obj_reader *r, const char *p)
{
    uint32_t count;
    int sound;
    wm_result e = read_references(r, p, &count, &sound);
    if (!e && (!sound || count < 3)) {
        long vertices = r->file_vertices, faces = 0;
        e = wm_obj_check_line(r->st.ctx, r->st.path, r->line_number, p - 2, r->end, &vertices, &faces);
        if (!e) /* the check and this parser disagree: refuse rather than guess */
            e = wm_error(r->st.ctx, WM_ERR_CORRUPT, "%s: line %lu: malformed face", r->st.path, r->line_number);
    }
    r->face_lines++;
    return e ? e : triangulate(r, count);
}

static wm_result read_transition_edges(obj_reader *r, const char *p)
{
    uint32_t count;
    int sound;
    wm_result e = read_references(r, p, &count, &sound);
    if (!e && !sound)
        return wm_error(r->st.ctx, WM_ERR_CORRUPT, "%s: line %lu: malformed or out-of-range vertex reference",
                        r->st.path, r->line_number);
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

/* Whether the text holds a control character (other than tab): written
 * without an early exit so the compiler can vectorise it. */
static int has_control(const char *p, const char *end)
{
    int found = 0;
    for (; p < end; p++)
        found |= (unsigned char)*p < 0x20 && *p != '\t';
    return found;
}

static wm_result read_line(obj_reader *r)
{
    const char *p = skip_blanks(r->line, r->end);
    while (r->end > p && (r->end[-1] == ' ' || r->end[-1] == '\t'))
        r->end--;
    if (p == r->end || *p == '#')
        return WM_OK;
    if (!r->plain && has_control(p, r->end)) {
        long vertices = 0, faces = 0;
        return wm_obj_check_line(r->st.ctx, r->st.path, r->line_number, p, r->end, &vertices, &faces);
    }
    size_t n = (size_t)(r->end - p);
    if (n < 2 || (p[1] != ' ' && p[1] != '\t' && !(n >= 7 && strncmp(p, "usemtl", 6) == 0)))
        return WM_OK;
    if (p[0] == 'v')
        return read_vertex(r, p + 2);
    if (p[0] == 'f')
        return read_face(r, p + 2);
    if (p[0] == 'l')
        return read_transition_edges(r, p + 2);
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
        r->material = obj_name_intern(r->st.ctx, &r->materials, name, len);
        if (r->material == UINT32_MAX)
            return WM_ERR_NOMEM;
        r->st.material_names = (const char *const *)r->materials.names;
        return r->material == known ? wm_import_add_material(&r->st, r->materials.names[known]) : WM_OK;
    }
    return WM_OK;
}

/* A mapped input's pages behind the reader go every this many bytes (wm_input_release):
 * the file's text need not be in memory all at once beside the mesh. */
#define RELEASE_EVERY ((size_t)8 << 20)

/* What one pass over the text finds, a block at a time: its lines, whether it holds a NUL
 * byte, and whether it is plain: no byte below 0x20 but tab, line feed and carriage
 * returns right before a line feed (the ones read_text strips), so that no line holds one. */
typedef struct text_scan {
    uint64_t lines;
    int has_nul, plain;
} text_scan;

static text_scan scan_text(const char *text, size_t size, const wm_input *source)
{
    text_scan scan = {1, 0, 1};
    for (size_t at = 0; at < size; at += RELEASE_EVERY) {
        size_t n = size - at < RELEASE_EVERY ? size - at : RELEASE_EVERY;
        const unsigned char *block = (const unsigned char *)text + at;
        scan.has_nul |= memchr(block, '\0', n) != NULL;
        uint64_t breaks = 0;
        unsigned char controls = 0, returns = 0;
        for (size_t i = 0; i < n; i++) { /* without branches: vectorised */
            breaks += block[i] == '\n';
            returns |= block[i] == '\r';
            controls |= block[i] < 0x20 && block[i] != '\t' && block[i] != '\n' && block[i] != '\r';
        }
        scan.lines += breaks;
        scan.plain &= !controls;
        if (returns) { /* every one right before a line feed? */
            uint64_t all = 0, before_breaks = 0;
            for (size_t i = 0; i < n; i++) {
                all += block[i] == '\r';
                before_breaks += (block[i] == '\r') & (at + i + 1 < size && block[i + 1] == '\n');
            }
            scan.plain &= all == before_breaks;
        }
        wm_input_release(source, at + n);
    }
    return scan;
}

/* Room for the mesh, sized once: no more vertices and no more triangles
 * (beyond faces of four corners or more) than the file has lines. Counting
 * line breaks costs a few milliseconds; regrowing arrays of hundreds of MB
 * costs copies and fresh pages. Untouched room costs address space only. */
static wm_result reserve(wm_ctx *ctx, uint64_t lines, wm_mesh *out)
{
    uint64_t most = ctx->limits.max_triangles;
    return wm_mesh_reserve(ctx, out, (uint32_t)(lines < 3 * most ? lines : 3 * most),
                           (uint32_t)(lines < most ? lines : most));
}

/* source: the input the bytes belong to, whose pages may go behind the reader; NULL: none. */
static wm_result read_text(wm_ctx *ctx, const char *path, const wm_options *opts, const uint8_t *data, size_t size,
                           const wm_input *source, wm_mesh *out)
{
    obj_reader r;
    memset(&r, 0, sizeof r);
    text_scan scan = scan_text((const char *)data, size, source);
    r.plain = scan.plain;
    if (scan.has_nul)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: not a text OBJ file (contains NUL bytes)", path);
    wm_result e = wm_import_begin(&r.st, ctx, path, "obj", opts, out);
    if (!e && reserve(ctx, scan.lines, out))
        e = WM_ERR_NOMEM;
    r.material = UINT32_MAX;
    snprintf(r.object, sizeof r.object, "defaultobject");
    const char *text = (const char *)data, *end = text + size;
    size_t released = 0;
    for (const char *line = text; !e && line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        r.line = line;
        r.end = nl ? nl : end;
        r.line_number++;
        while (r.end > line && r.end[-1] == '\r')
            r.end--;
        e = read_line(&r);
        line = nl ? nl + 1 : end;
        if ((size_t)(line - text) - released >= RELEASE_EVERY) {
            released = (size_t)(line - text);
            wm_input_release(source, released);
        }
    }
    end_object(&r);
    if (!e && r.face_lines == 0)
        e = wm_obj_no_faces(ctx, path, (long)r.file_vertices, r.line_number);
    if (!e)
        warn_odd_faces(&r);
    e = wm_import_finish(&r.st, e);
    wm_polygon_work_free(ctx, &r.work);
    obj_names_free(ctx, &r.materials);
    obj_names_free(ctx, &r.objects);
    wm_free(ctx, r.polygon);
    return e;
}

wm_result wm_obj_check_and_read(wm_ctx *ctx, const char *path, const wm_options *opts, const uint8_t *data,
                                size_t size, wm_mesh *out)
{
    return read_text(ctx, path, opts, data, size, NULL, out);
}

wm_result wm_obj_read_input(wm_ctx *ctx, const wm_options *opts, const wm_input *in, wm_mesh *out)
{
    return read_text(ctx, in->name, opts, in->data, in->size, in, out);
}
