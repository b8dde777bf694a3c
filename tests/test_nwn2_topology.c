/* Edges and neighbours rebuilt from triangle vertex indices (nwn2_topology.c) on crafted
 * meshes an attacker could send (issue 19): one triangle repeated 300,000 times, which once
 * cost O(g^2) side comparisons (4.5e10 here: far past the test's timeout). The facts checked
 * are the documented pairing rules (FORMAT-NOTES section 2 and nwn2.h): two triangles on
 * the same three vertices are never each other's neighbour, every side pairs at most once,
 * and a triangle sharing a side with the copies is linked to the first copy. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "test_support.h"
#include "nwn2/nwn2.h"

#define COPIES 300000u

static void test_copies_of_one_triangle(void **state)
{
    (void)state;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    nwn2_aswm a;
    memset(&a, 0, sizeof a);
    a.vertex_count = 4;
    a.triangle_count = COPIES + 1;
    a.vertices = wm_alloc_array(&ctx, 3 * a.vertex_count, sizeof *a.vertices);
    a.triangles = wm_alloc_array(&ctx, a.triangle_count, sizeof *a.triangles);
    assert_non_null(a.vertices);
    assert_non_null(a.triangles);
    const float xy[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, -1}};
    for (int v = 0; v < 4; v++)
        memcpy(&a.vertices[3 * v], xy[v], sizeof xy[v]);
    /* triangle 0 shares side 0-1 with the copies, from the other side */
    a.triangles[0].v[0] = 1;
    a.triangles[0].v[1] = 0;
    a.triangles[0].v[2] = 3;
    for (uint32_t t = 1; t <= COPIES; t++) {
        a.triangles[t].v[0] = 0;
        a.triangles[t].v[1] = 1;
        a.triangles[t].v[2] = 2;
    }
    assert_int_equal(nwn2_aswm_rebuild_edges(&ctx, &a), WM_OK);
    /* 3 (COPIES + 1) sides, one pair among them */
    assert_int_equal(a.edge_count, 3 * (COPIES + 1) - 1);
    uint32_t linked = 0;
    for (uint32_t t = 0; t < a.triangle_count; t++)
        for (int k = 0; k < 3; k++) {
            uint32_t n = a.triangles[t].neighbour[k];
            if (n == NWN2_NONE32)
                continue;
            linked++;
            assert_true((t == 0 && n == 1) || (t == 1 && n == 0));
        }
    assert_int_equal(linked, 2);
    nwn2_aswm_free(&ctx, &a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copies_of_one_triangle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
