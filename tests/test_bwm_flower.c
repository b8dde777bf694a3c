/* The BWM builder at one vertex of very high degree (issue 19): a "flower" of 100,000 quads
 * that touch only at a centre vertex, each quad the triangles (p, q, r) and (r, c, p), the second
 * halves listed in reverse order. Adjacency and perimeter chaining once scanned, for each edge
 * at the centre, every other edge there: 4e10 steps here, far past the test's timeout. The facts
 * checked follow from the mesh, not from the builder: each triangle has exactly one walkable
 * neighbour (its quad's other half, across p-r), the boundary is the 4 outer sides of every
 * quad, and every perimeter loop is a closed chain (each edge starts where the last ended). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "bwm/bwm.h"

#define PETALS 100000u
#define STONE 4 /* a walkable surface */

static uint32_t corner(const bwm_file *f, uint32_t code, int end)
{
    return f->faces[3 * (code / 3) + (end ? (code % 3 + 1) % 3 : code % 3)];
}

static void test_flower(void **state)
{
    (void)state;
    const uint32_t nv = 1 + 3 * PETALS, nf = 2 * PETALS;
    float *verts = calloc(3 * (size_t)nv, sizeof *verts);
    uint32_t *faces = malloc(3 * sizeof *faces * nf), *materials = malloc(sizeof *materials * nf);
    assert_non_null(verts);
    assert_non_null(faces);
    assert_non_null(materials);
    const double step = 2 * 3.14159265358979 / PETALS;
    for (uint32_t i = 0; i < PETALS; i++) {
        const double a = i * step, radius[3] = {10, 20, 10}, angle[3] = {a, a + 0.25 * step, a + 0.5 * step};
        for (int k = 0; k < 3; k++) {
            verts[3 * (1 + 3 * i + k)] = (float)(radius[k] * cos(angle[k]));
            verts[3 * (1 + 3 * i + k) + 1] = (float)(radius[k] * sin(angle[k]));
        }
        const uint32_t p = 1 + 3 * i, q = p + 1, r = p + 2, back = nf - 1 - i;
        const uint32_t first[3] = {p, q, r}, second[3] = {r, 0, p};
        memcpy(&faces[3 * i], first, sizeof first);
        memcpy(&faces[3 * back], second, sizeof second);
    }
    for (uint32_t t = 0; t < nf; t++)
        materials[t] = STONE;
    bwm_build_input in = {BWM_TYPE_AREA, verts, nv, faces, nf, materials, NULL, NULL, BWM_PLANES_BIOWARE, NULL, NULL,
                          NULL};
    bwm_file f;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    assert_int_equal(bwm_build(&ctx, &in, &f), WM_OK);
    assert_int_equal(f.adjacency_count, nf);
    for (uint32_t t = 0; t < nf; t++) {
        uint32_t linked = 0;
        for (int k = 0; k < 3; k++)
            if (f.adjacency[3 * t + k] >= 0) {
                linked++;
                uint32_t other = (uint32_t)f.adjacency[3 * t + k];
                assert_int_equal(f.adjacency[other], (int32_t)(3 * t + k)); /* mutual */
                assert_true(corner(&f, other, 0) == corner(&f, 3 * t + k, 1) &&
                            corner(&f, other, 1) == corner(&f, 3 * t + k, 0));
            }
        assert_int_equal(linked, 1);
    }
    assert_int_equal(f.edge_count, 4 * PETALS);
    uint32_t start = 0;
    for (uint32_t l = 0; l < f.perimeter_count; l++) {
        const uint32_t end = f.perimeters[l];
        assert_true(end > start);
        for (uint32_t e = start; e < end; e++) {
            uint32_t next = e + 1 < end ? e + 1 : start;
            assert_int_equal(corner(&f, f.edges[e].code, 1), corner(&f, f.edges[next].code, 0));
        }
        start = end;
    }
    assert_int_equal(start, f.edge_count);
    bwm_file_free(&ctx, &f);
    free(verts);
    free(faces);
    free(materials);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flower),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
