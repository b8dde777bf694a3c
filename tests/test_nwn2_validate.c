/* NWN2 validation catches broken invariants, one at a time, in a real file
 * (abandoned_house.trx): a wrong neighbour, edge, centre, island, exit, next hop,
 * island path, normal or plane is an error naming it; a plane drifting by less than
 * the tolerance is only a warning. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"
#include "test_nwn2_corpus.h"
#include "nwn2/nwn2.h"

/* Validation must catch broken invariants: break one thing at a time. */
/* Errors after breaker ran; a finding of severity sev containing expect must be among them. */
static uint32_t findings_after(void (*breaker)(nwn2_aswm *), wm_severity sev, const char *expect)
{
    size_t size;
    nwn2_file f;
    wm_ctx ctx;
    uint8_t *data = nwn2t_parse_corpus("nwn2/abandoned_house.trx", &ctx, &f, &size);
    breaker(&f.aswm);
    wm_report report;
    wm_report_init(&report, &ctx);
    assert_int_equal(nwn2_validate(&ctx, &f, &report), WM_OK);
    uint32_t errors = report.errors;
    int found = 0;
    for (uint32_t k = 0; k < report.count; k++)
        found |= report.items[k].severity == sev && strstr(report.items[k].value, expect) != NULL;
    if (!found)
        fail_msg("no finding containing \"%s\"", expect);
    wm_report_free(&report);
    nwn2_file_free(&ctx, &f);
    free(data);
    return errors;
}

static uint32_t errors_after(void (*breaker)(nwn2_aswm *), const char *expect)
{
    return findings_after(breaker, WM_SEV_ERROR, expect);
}

static uint32_t first_walkable_with_node(nwn2_aswm *a, uint32_t *tile)
{
    for (uint32_t i = 0; i < a->grid_width * a->grid_height; i++)
        if (a->tiles[i].node_count >= 3) {
            *tile = i;
            return i;
        }
    fail_msg("no baked tile");
    return 0;
}

static void break_neighbour(nwn2_aswm *a) { a->triangles[5].neighbour[0] ^= 1; }
static void break_edge_tri(nwn2_aswm *a) { a->edges[7].tri[0] = a->edges[7].tri[0] == 0 ? 1 : 0; }
static void break_centre(nwn2_aswm *a) { a->triangles[3].centre[0] += 0.5f; }
static void break_island(nwn2_aswm *a)
{
    for (uint32_t t = 0; t < a->triangle_count; t++)
        if (a->triangles[t].flags & NWN2_TRI_WALKABLE) {
            a->triangles[t].island = (uint16_t)((a->triangles[t].island + 1) % a->island_count);
            return;
        }
}
static void break_exit(nwn2_aswm *a)
{
    for (uint32_t i = 0; i < a->island_count; i++)
        if (a->islands[i].exit_count) {
            a->islands[i].exit[0] = a->triangle_count + 5;
            return;
        }
}
static void break_next_hop(nwn2_aswm *a)
{
    uint32_t ti = 0;
    first_walkable_with_node(a, &ti);
    nwn2_tile *t = &a->tiles[ti];
    /* a two-node cycle: 0 -> 1 -> 0 when heading for node 2 */
    t->nodes[0 * t->node_count + 2] = 1;
    t->nodes[1 * t->node_count + 2] = 0;
}
static void break_island_path(nwn2_aswm *a)
{
    uint32_t n = a->island_count;
    a->island_paths[0 * n + 1].next = 0; /* 0 -> 1 "via 0": not adjacent to itself */
}

/* Triangle 3 of abandoned_house is an ordinary (not near-degenerate) triangle. */
static double longest_side(const nwn2_aswm *a, uint32_t t)
{
    double best = 0;
    for (int i = 0; i < 3; i++) {
        const float *p = &a->vertices[3 * a->triangles[t].v[i]], *q = &a->vertices[3 * a->triangles[t].v[(i + 1) % 3]];
        double s = sqrt(((double)q[0] - p[0]) * (q[0] - p[0]) + ((double)q[1] - p[1]) * (q[1] - p[1]) +
                        ((double)q[2] - p[2]) * (q[2] - p[2]));
        best = s > best ? s : best;
    }
    return best;
}
static void break_normal(nwn2_aswm *a)
{
    for (int k = 0; k < 3; k++)
        a->triangles[3].normal[k] = -a->triangles[3].normal[k];
}
static void break_plane(nwn2_aswm *a) { a->triangles[3].d += (float)(0.05 * longest_side(a, 3)); }

static void test_validate_detects(void **state)
{
    (void)state;
    assert_true(errors_after(break_neighbour, "neighbour slot") > 0);
    assert_true(errors_after(break_edge_tri, "") > 0);
    assert_true(errors_after(break_centre, "centre") > 0);
    assert_true(errors_after(break_island, "island") > 0);
    assert_true(errors_after(break_exit, "exit triangle") > 0);
    assert_true(errors_after(break_next_hop, "") > 0);
    assert_true(errors_after(break_island_path, "") > 0);
    assert_true(errors_after(break_normal, "is not the triangle's") > 0);
    assert_true(errors_after(break_plane, "misses a vertex") > 0);
}

/* A plane off by 0.2% of the triangle's size (as the toolset's drift on
 * near-degenerate triangles, FORMAT-NOTES section 2) is a warning with the
 * figures, not an error. */
static void nudge_plane(nwn2_aswm *a) { a->triangles[3].d += (float)(0.002 * longest_side(a, 3)); }

static void test_validate_small_drift_warns(void **state)
{
    (void)state;
    assert_int_equal(findings_after(nudge_plane, WM_SEV_WARNING, "drift from a recomputation"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validate_detects),
        cmocka_unit_test(test_validate_small_drift_warns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
