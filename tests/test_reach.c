/* Reach over every corpus walkmesh (KotOR .wok/.pwk/.dwk and ASCII, NWN2 .trn/.trx): the
 * walk graph's regions are the classes of a union-find of the test's own, over the file's
 * stored adjacency for a binary .wok (the file's own facts) and over shared edges for the
 * rest; wm_reach_find from a point of each of a few regions lists every other region with
 * its face count, its area (summed here) and a point on one of its faces. Where the
 * regions differ from a union-find by positions (vertices at one place kept apart), the
 * count of files is printed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_support.h"
#include "walkmesh.h"
#include "bwm/bwm.h"

typedef struct reach_totals {
    unsigned files, from_file_adjacency, stored_differs, stored_is_position, differ_by_position, stacked, regions;
} reach_totals;

/* Two class arrays (classes named by a face of theirs) describe one partition. */
static int partition_equal(const uint32_t *x, const uint32_t *y, uint32_t n)
{
    uint32_t *x_to_y = malloc(((size_t)n + 1) * sizeof *x_to_y), *y_to_x = malloc(((size_t)n + 1) * sizeof *y_to_x);
    for (uint32_t i = 0; i < n; i++)
        x_to_y[i] = y_to_x[i] = UINT32_MAX;
    int equal = 1;
    for (uint32_t i = 0; i < n && equal; i++) {
        if (x[i] == UINT32_MAX || y[i] == UINT32_MAX) {
            equal = x[i] == y[i];
            continue;
        }
        if (x_to_y[x[i]] == UINT32_MAX)
            x_to_y[x[i]] = y[i];
        if (y_to_x[y[i]] == UINT32_MAX)
            y_to_x[y[i]] = x[i];
        equal = x_to_y[x[i]] == y[i] && y_to_x[y[i]] == x[i];
    }
    free(x_to_y);
    free(y_to_x);
    return equal;
}

static const float *vtx(const wm_mesh *m, uint32_t t, int k)
{
    return m->positions + 3 * (size_t)m->indices[3 * (size_t)t + k];
}

static double face_area(const wm_mesh *m, uint32_t t)
{
    const float *a = vtx(m, t, 0), *b = vtx(m, t, 1), *c = vtx(m, t, 2);
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    return 0.5 * sqrt(pow(u[1] * v[2] - u[2] * v[1], 2) + pow(u[2] * v[0] - u[0] * v[2], 2) +
                      pow(u[0] * v[1] - u[1] * v[0], 2));
}

static double plan_area(const wm_mesh *m, uint32_t t)
{
    const float *a = vtx(m, t, 0), *b = vtx(m, t, 1), *c = vtx(m, t, 2);
    return fabs(((double)b[0] - a[0]) * ((double)c[1] - a[1]) - ((double)b[1] - a[1]) * ((double)c[0] - a[0])) / 2;
}

static uint32_t root_of(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x)
        x = parent[x] = parent[parent[x]];
    return x;
}

/* The classes of a binary .wok's walkable faces through its stored adjacency rows. NULL
 * when the file is not one, or its faces are not the mesh's. */
static uint32_t *stored_adjacency_classes(const char *path, const wm_mesh *m)
{
    size_t n = strlen(path);
    if (n < 4 || strcmp(path + n - 4, ".wok") != 0)
        return NULL;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    bwm_file f;
    bwm_file_init(&f);
    if (bwm_read_file(&ctx, path, &f) || f.face_count != m->triangle_count || !f.adjacency_count ||
        memcmp(f.faces, m->indices, 3 * (size_t)f.face_count * sizeof *f.faces) != 0) {
        bwm_file_free(&ctx, &f);
        return NULL;
    }
    uint32_t *parent = malloc(((size_t)m->triangle_count + 1) * sizeof *parent);
    for (uint32_t t = 0; t < m->triangle_count; t++)
        parent[t] = t;
    parent[m->triangle_count] = 0;
    for (uint32_t row = 0; row < f.adjacency_count && row < m->triangle_count; row++)
        for (int e = 0; e < 3; e++) {
            int32_t code = f.adjacency[3 * (size_t)row + e];
            if (code >= 0 && (uint32_t)code / 3 < m->triangle_count && m->walkable[code / 3] && m->walkable[row])
                parent[root_of(parent, row)] = root_of(parent, (uint32_t)code / 3);
        }
    for (uint32_t t = 0; t < m->triangle_count; t++)
        parent[t] = m->walkable[t] ? root_of(parent, t) : UINT32_MAX;
    bwm_file_free(&ctx, &f);
    return parent;
}

/* The same partition: each class is one region and each region one class. */
static int same_partition(const wm_walk_graph *g, const uint32_t *klass, uint32_t faces, uint32_t *classes)
{
    uint32_t regions = wm_walk_graph_region_count(g);
    uint32_t *class_of_region = malloc(((size_t)regions + 1) * sizeof *class_of_region);
    uint32_t *region_of_class = malloc(((size_t)faces + 1) * sizeof *region_of_class);
    for (uint32_t i = 0; i < regions; i++)
        class_of_region[i] = UINT32_MAX;
    for (uint32_t i = 0; i < faces; i++)
        region_of_class[i] = UINT32_MAX;
    int same = 1;
    *classes = 0;
    for (uint32_t t = 0; t < faces && same; t++) {
        uint32_t region = wm_walk_graph_region(g, t), c = klass[t];
        if ((region == WM_NO_REGION) != (c == UINT32_MAX)) {
            same = 0;
            break;
        }
        if (c == UINT32_MAX)
            continue;
        *classes += region_of_class[c] == UINT32_MAX;
        if (region_of_class[c] == UINT32_MAX)
            region_of_class[c] = region;
        if (class_of_region[region] == UINT32_MAX)
            class_of_region[region] = c;
        same = region_of_class[c] == region && class_of_region[region] == c;
    }
    free(class_of_region);
    free(region_of_class);
    return same && *classes == regions;
}

/* wm_reach_find from the first face of a class: every other class listed once, with its faces and area. */
static void check_reach_from(const wm_mesh *m, const wm_walk_graph *g, const uint32_t *klass, uint32_t face)
{
    float at[3];
    for (int k = 0; k < 3; k++)
        at[k] = (vtx(m, face, 0)[k] + vtx(m, face, 1)[k] + vtx(m, face, 2)[k]) / 3.0f;
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_reach reach;
    assert_int_equal(wm_reach_find(&ctx, g, at, 1, &reach), WM_OK);
    uint32_t start_class = klass[reach.start_face];
    assert_int_equal(reach.unreachable_count, reach.region_count - 1);
    for (uint32_t i = 0; i < reach.unreachable_count; i++) {
        const wm_region *region = &reach.unreachable[i];
        uint32_t c = klass[region->first_face], faces = 0;
        double area = 0;
        assert_int_not_equal(c, start_class);
        for (uint32_t t = 0; t < m->triangle_count; t++)
            if (klass[t] == c) {
                faces++;
                area += face_area(m, t);
            }
        assert_int_equal(region->faces, faces);
        assert_true(fabs(region->area - area) <= 1e-6 * (area + 1));
        int on_it = 0; /* the point is the centre of a face of the region */
        for (uint32_t t = 0; t < m->triangle_count && !on_it; t++) {
            if (klass[t] != c)
                continue;
            double d = 0;
            for (int k = 0; k < 3; k++)
                d += fabs((vtx(m, t, 0)[k] + vtx(m, t, 1)[k] + vtx(m, t, 2)[k]) / 3.0 - region->point[k]);
            on_it = d < 1e-3;
        }
        assert_true(on_it);
    }
    wm_reach_free(&ctx, &reach);
}

static void check_file(const char *path, reach_totals *sum)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    if (wm_mesh_load(&ctx, path, NULL, NULL, &m))
        fail_msg("%s: %s", path, ctx.message);
    wm_walk_graph *g;
    assert_int_equal(wm_walk_graph_build(&ctx, &m, 1, &g), WM_OK);
    uint32_t *stored = stored_adjacency_classes(path, &m);
    uint32_t *by_index = wmt_walkable_classes(&m, 0), *by_position = wmt_walkable_classes(&m, 1);
    uint32_t classes, position_classes;
    if (by_index[m.triangle_count]) {
        sum->stacked++; /* an edge of 3+ walkable faces: the graph joins the first two */
        print_message("reach: %s: an edge of three walkable faces or more, not compared\n", path);
    } else {
        if (!same_partition(g, by_index, m.triangle_count, &classes))
            fail_msg("%s: the regions are not the classes of the shared edges' union-find", path);
        sum->regions += classes;
        if (stored && same_partition(g, stored, m.triangle_count, &classes)) {
            sum->from_file_adjacency++;
        } else if (stored) { /* the file's own table joins other faces: say which way */
            sum->stored_differs++;
            sum->stored_is_position += partition_equal(stored, by_position, m.triangle_count);
            print_message("reach: %s: the stored adjacency joins faces differently from shared vertex indices\n",
                          path);
        }
        if (!same_partition(g, by_position, m.triangle_count, &position_classes))
            sum->differ_by_position++;
        for (uint32_t t = 0, tried = 0; t < m.triangle_count && tried < 3; t++)
            if (by_index[t] != UINT32_MAX && plan_area(&m, t) > 1e-4) { /* a face with ground seen from above */
                check_reach_from(&m, g, by_index, t);
                tried++;
                t += m.triangle_count / 3;
            }
    }
    sum->files++;
    free(stored);
    free(by_index);
    free(by_position);
    wm_walk_graph_free(&ctx, g);
    wm_mesh_free(&ctx, &m);
}

static void run_folder(const char *folder, const char *const *suffixes, reach_totals *sum)
{
    char **files;
    size_t count = wmt_corpus_list(folder, suffixes, &files);
    for (size_t i = 0; i < count; i++)
        check_file(files[i], sum);
    wmt_free_list(files, count);
}

static void test_reach_matches_union_find_over_the_corpus(void **state)
{
    (void)state;
    reach_totals sum = {0};
    static const char *const bwm[] = {".wok", ".pwk", ".dwk", ".ascii", NULL};
    static const char *const nwn2[] = {".trx", ".TRX", ".trn", ".TRN", NULL};
    run_folder("bwm", bwm, &sum);
    run_folder("nwn2", nwn2, &sum);
    run_folder("nwn2-areas", nwn2, &sum);
    printf("reach: %u files, %u regions, all equal to the shared edges' union-find; binary .wok: %u agree with "
           "the file's stored adjacency table, %u do not (%u of those join by position); %u not compared (an edge "
           "of 3+ walkable faces); %u whose regions a union-find by positions would join further (vertices at one "
           "place kept apart)\n",
           sum.files, sum.regions, sum.from_file_adjacency, sum.stored_differs, sum.stored_is_position, sum.stacked,
           sum.differ_by_position);
    assert_true(sum.files > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reach_matches_union_find_over_the_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
