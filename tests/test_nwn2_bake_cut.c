/* The cutter on a dense cutter: fh_settlement.TRN (uncut terrain) cut by its GIT's largest cutter with its
 * edges divided into 2,000 and into 16,384 (the most a GIT may hold) zig-zag corners. The area the
 * cut removes (x/y projection, every level) must equal the area of polygon ∩ walkmesh computed
 * independently: the polygon clipped against each input triangle (Sutherland-Hodgman, the triangle
 * being convex). And no triangle left may have its centre inside the polygon (even-odd rule, over
 * every edge). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "nwn2/bake/bake_internal.h"

#define ZIGZAG 0.01

static double projected_area(const nwn2_aswm *a)
{
    double sum = 0;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        const float *p = &a->vertices[3 * a->triangles[t].v[0]], *q = &a->vertices[3 * a->triangles[t].v[1]],
                    *r = &a->vertices[3 * a->triangles[t].v[2]];
        sum += fabs(((double)q[0] - p[0]) * ((double)r[1] - p[1]) - ((double)q[1] - p[1]) * ((double)r[0] - p[0])) / 2;
    }
    return sum;
}

static double shoelace(const double *pts, int n)
{
    double twice = 0;
    for (int i = 0, j = n - 1; i < n; j = i++)
        twice += pts[2 * j] * pts[2 * i + 1] - pts[2 * i] * pts[2 * j + 1];
    return twice / 2;
}

/* Area of polygon ∩ triangle (a, b, c counter-clockwise). */
static double clipped_area(const float *poly, int n, const double tri[6], double *buf_a, double *buf_b)
{
    int count = n;
    for (int i = 0; i < n; i++) {
        buf_a[2 * i] = poly[2 * i];
        buf_a[2 * i + 1] = poly[2 * i + 1];
    }
    for (int e = 0; e < 3 && count > 0; e++) {
        const double *u = &tri[2 * e], *w = &tri[2 * ((e + 1) % 3)];
        int out = 0;
        for (int i = 0; i < count; i++) {
            const double *p = &buf_a[2 * i], *q = &buf_a[2 * ((i + 1) % count)];
            double sp = (w[0] - u[0]) * (p[1] - u[1]) - (w[1] - u[1]) * (p[0] - u[0]);
            double sq = (w[0] - u[0]) * (q[1] - u[1]) - (w[1] - u[1]) * (q[0] - u[0]);
            if (sp >= 0) {
                buf_b[2 * out] = p[0];
                buf_b[2 * out + 1] = p[1];
                out++;
            }
            if ((sp >= 0) != (sq >= 0)) {
                double t = sp / (sp - sq);
                buf_b[2 * out] = p[0] + t * (q[0] - p[0]);
                buf_b[2 * out + 1] = p[1] + t * (q[1] - p[1]);
                out++;
            }
        }
        memcpy(buf_a, buf_b, sizeof(double) * 2 * (size_t)out);
        count = out;
    }
    return count >= 3 ? fabs(shoelace(buf_a, count)) : 0.0;
}

/* The cutter's edges divided into `corners` corners, the added ones 1 cm to alternate sides. */
static nwn2_cutter zigzag(const nwn2_cutter *c, uint32_t corners)
{
    nwn2_cutter out = {malloc(sizeof(float) * 2 * corners), 0, c->source_index};
    assert_non_null(out.points);
    const uint32_t per_edge = corners / c->point_count;
    for (uint32_t i = 0; i < c->point_count; i++) {
        uint32_t j = (i + 1) % c->point_count;
        double dx = c->points[2 * j] - c->points[2 * i], dy = c->points[2 * j + 1] - c->points[2 * i + 1];
        double len = hypot(dx, dy);
        uint32_t k_end = i + 1 == c->point_count ? corners - out.point_count : per_edge;
        for (uint32_t k = 0; k < k_end; k++) {
            double off = k == 0 ? 0.0 : (k % 2 ? ZIGZAG : -ZIGZAG);
            out.points[2 * out.point_count] = (float)(c->points[2 * i] + dx * k / k_end - dy / len * off);
            out.points[2 * out.point_count + 1] = (float)(c->points[2 * i + 1] + dy * k / k_end + dx / len * off);
            out.point_count++;
        }
    }
    return out;
}

/* Even-odd rule over every edge of the polygon. */
static int inside(const nwn2_cutter *c, double x, double y)
{
    return wmt_inside_polygon(c->points, c->point_count, x, y);
}

/* Cuts the walkmesh at `mesh` with the one cutter `dense` (bake_cut: the exact cut, not the
 * bake's redo of crowded tiles) and checks the area removed against polygon ∩ walkmesh clipped
 * here; with check_centres, also that no centre left lies inside (even-odd over every edge). */
static void cut_matches_clipping(const char *mesh, nwn2_cutter *dense, double relative, int check_centres)
{
    char *path = wmt_corpus_path_or_skip(mesh);
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_file f;
    assert_int_equal(nwn2_file_read(&ctx, path, &f), WM_OK);
    const uint32_t corners = dense->point_count;
    nwn2_cutter_set one = {dense, 1};

    /* independent: the dense polygon clipped against every input triangle */
    double *buf_a = malloc(sizeof(double) * 4 * (corners + 8)), *buf_b = malloc(sizeof(double) * 4 * (corners + 8));
    assert_non_null(buf_a);
    assert_non_null(buf_b);
    double expected = 0, perimeter = 0;
    for (uint32_t i = 0, j = corners - 1; i < corners; j = i++)
        perimeter += hypot(dense->points[2 * i] - dense->points[2 * j], dense->points[2 * i + 1] - dense->points[2 * j + 1]);
    for (uint32_t t = 0; t < f.aswm.triangle_count; t++) {
        double tri[6];
        for (int k = 0; k < 3; k++) {
            tri[2 * k] = f.aswm.vertices[3 * f.aswm.triangles[t].v[k]];
            tri[2 * k + 1] = f.aswm.vertices[3 * f.aswm.triangles[t].v[k] + 1];
        }
        if (shoelace(tri, 3) < 0) { /* counter-clockwise for the clipper */
            double x = tri[2], y = tri[3];
            tri[2] = tri[4];
            tri[3] = tri[5];
            tri[4] = x;
            tri[5] = y;
        }
        expected += clipped_area(dense->points, (int)corners, tri, buf_a, buf_b);
    }

    const double before = projected_area(&f.aswm);
    uint32_t added = 0, removed = 0;
    assert_int_equal(bake_cut(&ctx, &f.aswm, &one, NULL, &added, &removed), WM_OK);
    const double cut = before - projected_area(&f.aswm);
    /* corners within 1e-4 of an edge go onto it: at most that much along the outline */
    const double tolerance = relative > 0 ? relative * expected + 1e-3 : perimeter * 2e-4 + 1e-3;
    print_message("%s, %u-corner cutter: removed %.4f m2, polygon ∩ walkmesh %.4f m2 (tolerance %.4f); "
                  "%u pieces added, %u removed\n",
                  mesh, corners, cut, expected, tolerance, added, removed);
    assert_true(expected > 1.0);
    assert_true(fabs(cut - expected) <= tolerance);
    uint32_t left_inside = 0;
    for (uint32_t t = 0; check_centres && t < f.aswm.triangle_count; t++) {
        float centre[2];
        const uint32_t *v = f.aswm.triangles[t].v;
        nwn2_toolset_centre(&f.aswm.vertices[3 * v[0]], &f.aswm.vertices[3 * v[1]], &f.aswm.vertices[3 * v[2]], centre);
        left_inside += inside(dense, centre[0], centre[1]);
    }
    assert_int_equal(left_inside, 0);
    free(buf_a);
    free(buf_b);
    nwn2_file_free(&ctx, &f);
    free(path);
}

static void dense_cutter_removes_its_area(uint32_t corners)
{
    char *git = wmt_corpus_path_or_skip("nwn2/fh_settlement.GIT");
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_cutter_set set;
    assert_int_equal(nwn2_git_read_cutters(&ctx, git, &set), WM_OK);
    assert_true(set.count > 0);
    const nwn2_cutter *largest = &set.cutters[0];
    for (uint32_t i = 1; i < set.count; i++) {
        double a = 0, b = 0;
        for (uint32_t k = 0, j = set.cutters[i].point_count - 1; k < set.cutters[i].point_count; j = k++)
            a += (double)set.cutters[i].points[2 * j] * set.cutters[i].points[2 * k + 1] -
                 (double)set.cutters[i].points[2 * k] * set.cutters[i].points[2 * j + 1];
        for (uint32_t k = 0, j = largest->point_count - 1; k < largest->point_count; j = k++)
            b += (double)largest->points[2 * j] * largest->points[2 * k + 1] -
                 (double)largest->points[2 * k] * largest->points[2 * j + 1];
        if (fabs(a) > fabs(b))
            largest = &set.cutters[i];
    }
    nwn2_cutter dense = zigzag(largest, corners);
    cut_matches_clipping("nwn2/fh_settlement.TRN", &dense, 0, 1);
    free(dense.points);
    nwn2_cutter_set_free(&ctx, &set);
    free(git);
}

static void test_dense_cutter_removes_its_area(void **state)
{
    (void)state;
    dense_cutter_removes_its_area(2000);
}

/* The most corners a GIT may give (issue 19: the cutter once took hours here; now the pieces
 * stay about as many as the corners). */
static void test_largest_cutter_removes_its_area(void **state)
{
    (void)state;
    dense_cutter_removes_its_area(16384);
}

/* Issue 26: a star of 16,384 corners alternating between radii 25 and 5 around (40, 40) on
 * fh_settlement.trx once took minutes and gigabytes: its long thin spikes cross the same
 * triangles side by side. The area it removes must still be the clipped one, to 0.1 %. */
static void test_star_cutter_removes_its_area(void **state)
{
    (void)state;
    free(wmt_corpus_path_or_skip("nwn2/fh_settlement.trx")); /* skip before allocating */
    const uint32_t corners = 16384;
    nwn2_cutter star = {malloc(sizeof(float) * 2 * corners), corners, 0};
    assert_non_null(star.points);
    for (uint32_t i = 0; i < corners; i++) {
        const double angle = 2 * 3.14159265358979323846 * i / corners, r = i % 2 ? 5.0 : 25.0;
        star.points[2 * i] = (float)(40 + r * cos(angle));
        star.points[2 * i + 1] = (float)(40 + r * sin(angle));
    }
    cut_matches_clipping("nwn2/fh_settlement.trx", &star, 1e-3, 0);
    free(star.points);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dense_cutter_removes_its_area),
        cmocka_unit_test(test_largest_cutter_removes_its_area),
        cmocka_unit_test(test_star_cutter_removes_its_area),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
