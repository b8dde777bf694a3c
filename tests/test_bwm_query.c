/* Spatial queries through a .wok's own AABB tree, checked against the
 * planes stored in vanilla files (normal . p + distance = 0). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"

static const char *const VANILLA[] = {
    "pykotor-generated_kit-blackvulkar-m10aa_01c.wok", "pykotor-generated_kit-blackvulkar-m10aa_03a.wok",
    "pykotor-generated_kit-blackvulkar-m10aa_05a.wok", "pykotor-generated_kit-blackvulkar-m10aa_08b.wok",
    "pykotor-models-203tell.wok", "pykotor-tests-test.wok", "pykotor-tests-zio006j.wok"};

static void face_centroid(const bwm_file *f, uint32_t face, double c[3])
{
    c[0] = c[1] = c[2] = 0;
    for (int k = 0; k < 3; k++)
        for (int a = 0; a < 3; a++) c[a] += f->vertices[3 * (size_t)f->faces[3 * (size_t)face + k] + a] / 3.0;
}

/* Two faces are coplanar neighbours when they share an edge and their stored planes agree. */
static int coplanar_neighbour(const bwm_file *f, uint32_t a, uint32_t b)
{
    int shared = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) shared += f->faces[3 * a + i] == f->faces[3 * b + j];
    if (shared < 2) return 0;
    for (int k = 0; k < 3; k++)
        if (fabsf(f->normals[3 * a + k] - f->normals[3 * b + k]) > 1e-4f) return 0;
    return fabsf(f->distances[a] - f->distances[b]) < 1e-3f;
}

static void test_height_and_raycast_at_every_walkable_centroid(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof VANILLA / sizeof VANILLA[0]; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "bwm/%s", VANILLA[i]);
        char *path = wmt_corpus_path_or_skip(rel);
        wm_ctx ctx;
        bwm_file f;
        wmt_ctx_init(&ctx);
        assert_int_equal(bwm_read_file(&ctx, path, &f), WM_OK);
        uint32_t checked = 0, vertical = 0, coplanar_hits = 0;
        double worst = 0;
        for (uint32_t face = 0; face < f.adjacency_count; face++) {
            const float *n = &f.normals[3 * face];
            if (fabsf(n[2]) < 1e-3f) { /* a vertical face has no height */
                vertical++;
                continue;
            }
            double c[3];
            face_centroid(&f, face, c);
            /* the stored plane's height at the centroid: n.p + d = 0 */
            double expected = -(f.distances[face] + n[0] * c[0] + n[1] * c[1]) / n[2];
            float z = 0;
            uint32_t found = 0;
            if (bwm_face_at(&ctx, &f, (float)c[0], (float)c[1], (float)c[2], &found, &z))
                fail_msg("%s: face %u: %s", VANILLA[i], face, wm_ctx_message(&ctx));
            worst = fmax(worst, fabs(z - expected));
            if (fabs(z - expected) > 1e-4)
                fail_msg("%s: face %u: height %.6f, plane gives %.6f (found face %u)", VANILLA[i], face, z, expected,
                         found);

            float origin[3] = {(float)c[0], (float)c[1], (float)expected + 0.5f}, down[3] = {0, 0, -1};
            uint32_t hit = 0;
            float t = 0;
            if (bwm_raycast(&ctx, &f, origin, down, &hit, &t))
                fail_msg("%s: face %u: ray from above misses: %s", VANILLA[i], face, wm_ctx_message(&ctx));
            if (hit != face && !coplanar_neighbour(&f, hit, face))
                fail_msg("%s: face %u: ray from above hits face %u", VANILLA[i], face, hit);
            coplanar_hits += hit != face;
            assert_true(fabs(t - 0.5) < 1e-3);
            checked++;
        }
        print_message("%-50s walkable %4u checked %4u vertical %u coplanar-neighbour hits %u max height error %.2g\n",
                      VANILLA[i], f.adjacency_count, checked, vertical, coplanar_hits, worst);
        assert_true(checked > 0);
        bwm_file_free(&ctx, &f);
        free(path);
    }
}

static void test_queries_refuse_placeables_and_misses(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip("bwm/k1cp-plc_fccage2.pwk");
    wm_ctx ctx;
    bwm_file f;
    float z;
    wmt_ctx_init(&ctx);
    assert_int_equal(bwm_read_file(&ctx, path, &f), WM_OK);
    assert_int_equal(bwm_height_at(&ctx, &f, 0, 0, HUGE_VALF, &z), WM_ERR_UNSUPPORTED);
    bwm_file_free(&ctx, &f);
    free(path);

    path = wmt_corpus_path_or_skip("bwm/pykotor-tests-test.wok");
    assert_int_equal(bwm_read_file(&ctx, path, &f), WM_OK);
    assert_int_equal(bwm_height_at(&ctx, &f, 1e6f, 1e6f, HUGE_VALF, &z), WM_ERR_INVALID);
    float o[3] = {1e6f, 1e6f, 1e6f}, d[3] = {0, 0, 1}, zero[3] = {0, 0, 0};
    uint32_t face;
    float t;
    assert_int_equal(bwm_raycast(&ctx, &f, o, d, &face, &t), WM_ERR_INVALID);
    assert_int_equal(bwm_raycast(&ctx, &f, o, zero, &face, &t), WM_ERR_INVALID);
    /* a broken tree (child pointing back to the root) must not loop */
    f.aabb[0].right = 0;
    f.aabb[1].left = 0;
    (void)bwm_height_at(&ctx, &f, 0, 0, HUGE_VALF, &z);
    bwm_file_free(&ctx, &f);
    free(path);
}

static void test_query_cli(void **state)
{
    (void)state;
    char *path = wmt_corpus_path_or_skip("bwm/pykotor-tests-test.wok");
    wm_ctx ctx;
    bwm_file f;
    wmt_ctx_init(&ctx);
    assert_int_equal(bwm_read_file(&ctx, path, &f), WM_OK);
    double c[3];
    face_centroid(&f, 0, c);
    char x[32], y[32], oz[32];
    snprintf(x, sizeof x, "%.6f", c[0]);
    snprintf(y, sizeof y, "%.6f", c[1]);
    snprintf(oz, sizeof oz, "%.6f", c[2] + 1.0);
    char *out = NULL, *err = NULL;
    const char *height[] = {"query", path, "height", x, y, "--z", oz, NULL};
    assert_int_equal(wmt_run_cli(&out, &err, height), 0);
    assert_non_null(strstr(out, "height "));
    float z = 0;
    assert_int_equal(sscanf(out, "height %f", &z), 1);
    assert_true(fabs(z - c[2]) < 1e-3);
    free(out);
    free(err);

    const char *ray[] = {"query", path, "raycast", x, y, oz, "0", "0", "-1", NULL};
    assert_int_equal(wmt_run_cli(&out, &err, ray), 0);
    assert_non_null(strstr(out, "hit face "));
    free(out);
    free(err);

    const char *miss[] = {"query", path, "height", "100000", "100000", NULL};
    assert_int_equal(wmt_run_cli(&out, &err, miss), 6);
    free(out);
    free(err);
    const char *bad[] = {"query", path, "height", "abc", "1", NULL};
    assert_int_equal(wmt_run_cli(&out, &err, bad), 1);
    free(out);
    free(err);
    /* A zero ray direction is a bad argument (exit 1), not "nothing there" (exit 6). */
    const char *zero_ray[] = {"query", path, "raycast", x, y, oz, "0", "0", "0", NULL};
    assert_int_equal(wmt_run_cli(&out, &err, zero_ray), 1);
    assert_non_null(strstr(err, "direction"));
    free(out);
    free(err);
    /* A placeable has no AABB tree: exit 4, and the one-line error names the file. */
    char *placeable = wmt_corpus_path_or_skip("bwm/k1cp-plc_fccage2.pwk");
    const char *no_tree[] = {"query", placeable, "height", "0", "0", NULL};
    assert_int_equal(wmt_run_cli(&out, &err, no_tree), 4);
    assert_non_null(strstr(err, placeable));
    free(out);
    free(err);
    free(placeable);
    const char *missing[] = {"query", "/nonexistent/x.wok", "height", "1", "1", NULL};
    assert_int_equal(wmt_run_cli(&out, &err, missing), 2);
    free(out);
    free(err);
    const char *help[] = {"query", "--help", NULL};
    assert_int_equal(wmt_run_cli(&out, &err, help), 0);
    assert_non_null(strstr(out, "raycast"));
    free(out);
    free(err);
    bwm_file_free(&ctx, &f);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_height_and_raycast_at_every_walkable_centroid),
        cmocka_unit_test(test_queries_refuse_placeables_and_misses),
        cmocka_unit_test(test_query_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
