/* OBJ polygons of any size triangulated exactly or refused (issue 19: a
 * 1,026-vertex star used to be fanned from its first corner and covered
 * 94 times its area). Areas are checked against the shoelace formula on
 * the coordinates the test wrote, computed here; coordinates are multiples
 * of 1/1024, which floats hold exactly. */
#include "test_support.h"

#include "assimp/assimp_module.h"
#include "assimp/obj_polygon.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct polygon_file {
    char *text;
    size_t size, capacity;
    double shoelace; /* area of the outline written, by the shoelace formula */
} polygon_file;

static void put(polygon_file *f, const char *format, ...)
{
    if (f->size + 128 > f->capacity) {
        f->capacity = 2 * f->capacity + 4096;
        f->text = realloc(f->text, f->capacity);
        assert_non_null(f->text);
    }
    va_list args;
    va_start(args, format);
    f->size += (size_t)vsnprintf(f->text + f->size, f->capacity - f->size, format, args);
    va_end(args);
}

/* The outline xy (n corners, game x-y plane) as one OBJ face (OBJ Y-up:
 * "v x 0 -y"), after `skip` comment lines. */
static polygon_file polygon(const double *xy, unsigned n, unsigned skip)
{
    polygon_file f = {NULL, 0, 0, 0};
    for (unsigned i = 0; i < skip; i++)
        put(&f, "# comment %u\n", i);
    put(&f, "o floor\nusemtl stone\n");
    for (unsigned i = 0; i < n; i++)
        put(&f, "v %.10g 0 %.10g\n", xy[2 * i], -xy[2 * i + 1]);
    put(&f, "f");
    for (unsigned i = 0; i < n; i++)
        put(&f, " %u", i + 1);
    put(&f, "\n");
    for (unsigned i = 0; i < n; i++) {
        const double *p = xy + 2 * i, *q = xy + 2 * ((i + 1) % n);
        f.shoelace += 0.5 * (p[0] * q[1] - q[0] * p[1]);
    }
    return f;
}

/* A star of 2 * spikes corners (radii 10 and 4 m, every other corner reflex). */
static polygon_file star(unsigned spikes, unsigned skip)
{
    unsigned n = 2 * spikes;
    double *xy = malloc(2 * n * sizeof *xy);
    for (unsigned i = 0; i < n; i++) {
        double angle = 2 * 3.14159265358979323846 * i / n, radius = i % 2 ? 4.0 : 10.0;
        xy[2 * i] = round(radius * cos(angle) * 1024) / 1024;
        xy[2 * i + 1] = round(radius * sin(angle) * 1024) / 1024;
    }
    polygon_file f = polygon(xy, n, skip);
    free(xy);
    return f;
}

static int by_angle(const void *x, const void *y)
{
    const double *p = x, *q = y;
    double a = atan2(p[1], p[0]), b = atan2(q[1], q[0]);
    return (a > b) - (a < b);
}

static int coprime(int a, int b)
{
    a = abs(a), b = abs(b);
    while (b) {
        int t = a % b;
        a = b, b = t;
    }
    return a == 1;
}

/* A strictly convex lattice polygon of about 10,000 corners (integer
 * coordinates): its edges are every primitive vector (a, b) with |a|, |b| <= 64,
 * in order of angle; they add up to zero, so the outline closes. */
static polygon_file lattice_polygon(unsigned *corners)
{
    double *edges = malloc(2 * 129 * 129 * sizeof *edges);
    unsigned n = 0;
    for (int a = -64; a <= 64; a++)
        for (int b = -64; b <= 64; b++)
            if (coprime(a, b)) {
                edges[2 * n] = a;
                edges[2 * n + 1] = b;
                n++;
            }
    qsort(edges, n, 2 * sizeof *edges, by_angle);
    double *xy = malloc(2 * n * sizeof *xy), x = 0, y = 0;
    for (unsigned i = 0; i < n; i++) {
        xy[2 * i] = x, xy[2 * i + 1] = y;
        x += edges[2 * i], y += edges[2 * i + 1];
    }
    assert_true(x == 0 && y == 0);
    polygon_file f = polygon(xy, n, 0);
    free(edges);
    free(xy);
    *corners = n;
    return f;
}

static wm_result read_text(wm_ctx *ctx, const char *text, size_t size, wm_mesh *m)
{
    wmt_ctx_init(ctx);
    wm_mesh_init(m);
    return wm_obj_check_and_read(ctx, "polygon.obj", NULL, (const uint8_t *)text, size, m);
}

/* Total area of the mesh, and whether every triangle faces the same way (+z). */
static double mesh_area(const wm_mesh *m, int *all_up)
{
    double area = 0;
    *all_up = 1;
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        const float *a = m->positions + 3 * m->indices[3 * t], *b = m->positions + 3 * m->indices[3 * t + 1],
                    *c = m->positions + 3 * m->indices[3 * t + 2];
        double z = ((double)b[0] - a[0]) * ((double)c[1] - a[1]) - ((double)b[1] - a[1]) * ((double)c[0] - a[0]);
        area += 0.5 * fabs(z);
        *all_up &= z > 0;
    }
    return area;
}

static void assert_exact(polygon_file f, unsigned corners)
{
    wm_ctx ctx;
    wm_mesh m;
    assert_int_equal(read_text(&ctx, f.text, f.size, &m), WM_OK);
    int all_up;
    double area = mesh_area(&m, &all_up);
    print_message("%u corners: area %.9f, shoelace %.9f, %u triangles\n", corners, area, f.shoelace, m.triangle_count);
    assert_true(fabs(area - f.shoelace) <= 1e-6);
    assert_true(all_up); /* no triangle folded over */
    assert_int_equal(m.triangle_count, corners - 2);
    wm_mesh_free(&ctx, &m);
    free(f.text);
}

/* The acceptance case of issue 19, and the same star at 1,024 corners. */
static void star_of_1026_corners_keeps_its_area(void **state)
{
    (void)state;
    assert_exact(star(513, 0), 1026);
    assert_exact(star(512, 0), 1024);
}

/* Convex faces are fanned exactly, at any size (beyond the ear clipper's bound too). */
static void convex_face_of_10000_corners_is_fanned_exactly(void **state)
{
    (void)state;
    unsigned corners;
    polygon_file f = lattice_polygon(&corners);
    assert_true(corners > WM_POLYGON_MAX_CONCAVE);
    assert_exact(f, corners);
}

/* Beyond the ear clipper's bound a concave face is an input error naming its line. */
static void huge_concave_face_is_refused_naming_its_line(void **state)
{
    (void)state;
    polygon_file f = star(WM_POLYGON_MAX_CONCAVE / 2 + 1, 7);
    wm_ctx ctx;
    wm_mesh m;
    assert_int_equal(read_text(&ctx, f.text, f.size, &m), WM_ERR_CORRUPT);
    char line[64];
    snprintf(line, sizeof line, "line %u:", 7 + 2 + WM_POLYGON_MAX_CONCAVE + 2 + 1);
    print_message("%s\n", ctx.message);
    assert_non_null(strstr(ctx.message, line));
    assert_non_null(strstr(ctx.message, "concave"));
    free(f.text);
}

/* A pentagram drawn in one stroke crosses itself; a twisted quad is not
 * flat. Both are triangulated with a warning naming the first line. */
static void odd_faces_are_warned_about(void **state)
{
    (void)state;
    const char *text = "v 0 0 0\nv 2 0 0\nv 2 0 -2\nv 0 1 -2\n"
                       "v 0 0 -10\nv 0.951057 0 -10.309017\nv 0.587785 0 -10.809017\nv -0.587785 0 -10.809017\n"
                       "v -0.951057 0 -10.309017\n"
                       "f 1 2 3 4\nf 5 7 9 6 8\n";
    wm_ctx ctx;
    wm_mesh m;
    assert_int_equal(read_text(&ctx, text, strlen(text), &m), WM_OK);
    print_message("%s", wmt_warnings);
    assert_non_null(strstr(wmt_warnings, "1 face(s) not planar"));
    assert_non_null(strstr(wmt_warnings, "first on line 10"));
    assert_non_null(strstr(wmt_warnings, "1 face(s) crossing themselves"));
    assert_non_null(strstr(wmt_warnings, "first on line 11"));
    assert_int_equal(m.triangle_count, 2 + 3);
    wm_mesh_free(&ctx, &m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(star_of_1026_corners_keeps_its_area),
        cmocka_unit_test(convex_face_of_10000_corners_is_fanned_exactly),
        cmocka_unit_test(huge_concave_face_is_refused_naming_its_line),
        cmocka_unit_test(odd_faces_are_warned_about),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
