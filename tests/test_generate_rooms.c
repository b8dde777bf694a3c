/* walkmesh generate against BioWare's own walkmeshes: every corpus KotOR room model with a
 * walkmesh node is generated from its render meshes alone (KotOR defaults) and written as a
 * .wok; the .wok's triangles are read here by the header offsets of FORMAT-NOTES §1 and,
 * like the model's walkmesh node, rasterised from above on a 5 cm grid by this file's own
 * code. Per room: intersection over union of the walkable area, the share of the common area
 * whose top walkable heights agree within 5 cm, and the face counts. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRID 0.05
#define HEIGHT_TOLERANCE 0.05

/* surfacemat.2da rows walkable as shipped (FORMAT-NOTES §1). */
static int walkable_material(uint32_t m)
{
    static const uint32_t rows[] = {1, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 16, 18, 20, 21, 22};
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        if (rows[i] == m)
            return 1;
    return 0;
}

typedef struct triangles {
    float *xyz; /* 9 per walkable triangle */
    uint32_t count, faces;
} triangles;

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The walkable triangles of a binary .wok, from its header's counts and offsets. */
static triangles wok_triangles(const uint8_t *b, size_t size)
{
    triangles t = {NULL, 0, 0};
    assert_true(size >= 136 && memcmp(b, "BWM V1.0", 8) == 0);
    uint32_t verts = le32(b + 0x48), vert_at = le32(b + 0x4C), faces = le32(b + 0x50), face_at = le32(b + 0x54),
             material_at = le32(b + 0x58);
    assert_true((uint64_t)vert_at + 12ull * verts <= size && (uint64_t)face_at + 12ull * faces <= size &&
                (uint64_t)material_at + 4ull * faces <= size);
    t.xyz = malloc(36ull * (faces ? faces : 1));
    t.faces = faces;
    for (uint32_t f = 0; f < faces; f++) {
        if (!walkable_material(le32(b + material_at + 4 * f)))
            continue;
        for (int k = 0; k < 3; k++) {
            uint32_t v = le32(b + face_at + 12 * f + 4 * (uint32_t)k);
            assert_true(v < verts);
            memcpy(t.xyz + 9 * t.count + 3 * k, b + vert_at + 12 * v, 12);
        }
        t.count++;
    }
    return t;
}

static triangles mesh_triangles(const wm_mesh *m, int walkable_only)
{
    triangles t = {malloc(36ull * (m->triangle_count ? m->triangle_count : 1)), 0, m->triangle_count};
    for (uint32_t f = 0; f < m->triangle_count; f++) {
        if (walkable_only && !m->walkable[f])
            continue;
        for (int k = 0; k < 3; k++)
            memcpy(t.xyz + 9 * t.count + 3 * k, m->positions + 3 * (size_t)m->indices[3 * f + k], 12);
        t.count++;
    }
    return t;
}

/* The highest walkable height over each 5 cm cell centre (NAN: none), over a shared frame. */
typedef struct raster {
    double x0, y0;
    int w, h;
    float *top;
} raster;

static void rasterise(const triangles *t, raster *r)
{
    for (size_t i = 0; i < (size_t)r->w * r->h; i++)
        r->top[i] = NAN;
    for (uint32_t f = 0; f < t->count; f++) {
        const float *a = t->xyz + 9 * f, *b = a + 3, *c = a + 6;
        double d = (double)(b[0] - a[0]) * (c[1] - a[1]) - (double)(c[0] - a[0]) * (b[1] - a[1]);
        if (fabs(d) < 1e-12)
            continue;
        double lo[2] = {fmin(a[0], fmin(b[0], c[0])), fmin(a[1], fmin(b[1], c[1]))};
        double hi[2] = {fmax(a[0], fmax(b[0], c[0])), fmax(a[1], fmax(b[1], c[1]))};
        int i0 = (int)floor((lo[0] - r->x0) / GRID), i1 = (int)floor((hi[0] - r->x0) / GRID);
        int j0 = (int)floor((lo[1] - r->y0) / GRID), j1 = (int)floor((hi[1] - r->y0) / GRID);
        for (int j = j0 < 0 ? 0 : j0; j <= j1 && j < r->h; j++)
            for (int i = i0 < 0 ? 0 : i0; i <= i1 && i < r->w; i++) {
                double x = r->x0 + (i + 0.5) * GRID, y = r->y0 + (j + 0.5) * GRID;
                double u = ((x - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (y - a[1])) / d;
                double v = ((b[0] - a[0]) * (y - a[1]) - (x - a[0]) * (b[1] - a[1])) / d;
                if (u < 0 || v < 0 || u + v > 1)
                    continue;
                float z = (float)(a[2] + u * (b[2] - a[2]) + v * (c[2] - a[2]));
                float *top = &r->top[(size_t)j * r->w + i];
                if (isnan(*top) || z > *top)
                    *top = z;
            }
    }
}

static void frame(const triangles *p, const triangles *q, raster *r)
{
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    const triangles *both[2] = {p, q};
    for (int s = 0; s < 2; s++)
        for (uint32_t i = 0; i < both[s]->count * 3; i++)
            for (int k = 0; k < 2; k++)
                lo[k] = fmin(lo[k], both[s]->xyz[3 * i + k]), hi[k] = fmax(hi[k], both[s]->xyz[3 * i + k]);
    r->x0 = lo[0], r->y0 = lo[1];
    r->w = (int)ceil((hi[0] - lo[0]) / GRID) + 1, r->h = (int)ceil((hi[1] - lo[1]) / GRID) + 1;
    r->top = malloc(sizeof(float) * (size_t)r->w * r->h);
}

typedef struct comparison {
    double iou, heights_agree;
    uint32_t faces, reference_faces;
} comparison;

static comparison compare(const triangles *generated, const triangles *reference)
{
    raster g, ref;
    frame(generated, reference, &g);
    ref = g;
    ref.top = malloc(sizeof(float) * (size_t)g.w * g.h);
    rasterise(generated, &g);
    rasterise(reference, &ref);
    size_t both = 0, either = 0, agree = 0;
    for (size_t i = 0; i < (size_t)g.w * g.h; i++) {
        int in_g = !isnan(g.top[i]), in_r = !isnan(ref.top[i]);
        either += in_g || in_r;
        both += in_g && in_r;
        agree += in_g && in_r && fabsf(g.top[i] - ref.top[i]) <= HEIGHT_TOLERANCE;
    }
    free(g.top), free(ref.top);
    comparison c = {either ? (double)both / either : 0, both ? (double)agree / both : 0, generated->faces,
                    reference->faces};
    return c;
}

/* walkmesh's validator finds no error in the written file. */
static void validates_without_errors(wm_ctx *ctx, const char *path)
{
    wm_report report;
    wm_report_init(&report, ctx);
    assert_int_equal(wm_validate(ctx, path, NULL, NULL, &report), WM_OK);
    assert_int_equal(report.errors, 0);
    wm_report_free(&report);
}

/* Every corner of the written file lies within the render geometry's height range, give or take
 * two voxel heights (a corner with no render floor near it keeps its voxel height, which Recast
 * rounds up by up to a cell or two): a walkmesh cannot stand above the highest thing drawn
 * (Recast's unset detail height put a corner of blackvulkar m10aa_05a 3,276.75 units up). */
static void corners_within_the_render_heights(const char *model, const triangles *gen, const wm_mesh *render)
{
    float lo = INFINITY, hi = -INFINITY;
    for (uint32_t v = 0; v < render->vertex_count; v++)
        lo = fminf(lo, render->positions[3 * (size_t)v + 2]), hi = fmaxf(hi, render->positions[3 * (size_t)v + 2]);
    for (uint32_t i = 0; i < 3 * gen->count; i++) {
        float z = gen->xyz[3 * (size_t)i + 2];
        if (z < lo - 0.1f || z > hi + 0.1f)
            fail_msg("%s: a generated corner at height %g, outside the render geometry's %g to %g", model, z, lo, hi);
    }
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One room: reference from the walkmesh node, generated from the render meshes; 0 when the
 * model has no walkmesh node. */
static int generate_room(const char *model, const char *dir, comparison *out)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh reference, render, generated;
    if (wm_mesh_load(&ctx, model, NULL, NULL, &reference) != WM_OK)
        return 0; /* no walkmesh node (a door, a room drawn only) */
    wm_options opts;
    wm_options_init(&opts);
    assert_int_equal(wm_option_set(&ctx, &opts, "geometry", "render"), WM_OK);
    assert_int_equal(wm_mesh_load(&ctx, model, NULL, &opts, &render), WM_OK);
    wm_generate_config config;
    assert_int_equal(wm_generate_config_game(&ctx, "kotor", &config), WM_OK);
    wm_result r = wm_generate(&ctx, &render, &config, &generated, NULL);
    if (r)
        fail_msg("%s: %s", model, ctx.message);
    char *path = wmt_join(dir, "room.wok");
    assert_int_equal(wm_mesh_save(&ctx, &generated, path, NULL, NULL, 1), WM_OK);
    validates_without_errors(&ctx, path);
    size_t size;
    uint8_t *bytes = wmt_read_file(path, &size);
    triangles gen = wok_triangles(bytes, size), ref = mesh_triangles(&reference, 1);
    corners_within_the_render_heights(model, &gen, &render);
    *out = compare(&gen, &ref);
    free(gen.xyz), free(ref.xyz), free(bytes), free(path);
    wm_mesh_free(&ctx, &generated), wm_mesh_free(&ctx, &render), wm_mesh_free(&ctx, &reference);
    return 1;
}

static void rooms_against_their_walkmesh_nodes(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".mdl", NULL};
    char **models;
    size_t count = wmt_corpus_list("bwm-models", suffixes, &models);
    char *dir = wmt_make_temp_dir();
    double iou[64];
    size_t rooms = 0, within_height = 0, within_faces = 0, above_floor = 0;
    for (size_t i = 0; i < count && rooms < 64; i++) {
        comparison c;
        if (!generate_room(models[i], dir, &c))
            continue;
        const char *name = strrchr(models[i], '/') ? strrchr(models[i], '/') + 1 : models[i];
        print_message("%-48s IoU %.3f  heights within 5 cm %5.1f %%  faces %4u (reference %4u, %.2fx)\n", name, c.iou,
                      100 * c.heights_agree, c.faces, c.reference_faces, (double)c.faces / c.reference_faces);
        iou[rooms++] = c.iou;
        within_height += c.heights_agree >= 0.95;
        within_faces += c.faces <= 3 * c.reference_faces;
        above_floor += c.iou >= 0.75;
    }
    qsort(iou, rooms, sizeof *iou, by_value);
    double median = rooms % 2 ? iou[rooms / 2] : (iou[rooms / 2 - 1] + iou[rooms / 2]) / 2;
    print_message("%zu rooms: median IoU %.3f (goal 0.9); IoU >= 0.75: %zu; heights >= 95 %%: %zu; faces <= 3x: "
                  "%zu\n", rooms, median, above_floor, within_height, within_faces);
    /* every corpus room model with a walkmesh node (FORMAT-NOTES: 12 binary rooms) */
    assert_int_equal(rooms, 12);
    assert_true(median >= 0.8);
    wmt_remove_tree(dir);
    free(dir);
    wmt_free_list(models, count);
}

/* Area of the convex hull of the triangles' corners seen from above (gift wrapping). */
static double hull_area(const triangles *t)
{
    uint32_t n = 3 * t->count, start = 0;
    for (uint32_t i = 1; i < n; i++)
        if (t->xyz[3 * i] < t->xyz[3 * start] || (t->xyz[3 * i] == t->xyz[3 * start] && t->xyz[3 * i + 1] < t->xyz[3 * start + 1]))
            start = i;
    double area = 0;
    uint32_t at = start;
    for (uint32_t steps = 0; steps <= n; steps++) {
        uint32_t next = at == 0 ? 1 : 0;
        const float *p = t->xyz + 3 * at;
        for (uint32_t i = 0; i < n; i++) {
            const float *q = t->xyz + 3 * next, *c = t->xyz + 3 * i;
            double turn = (double)(q[0] - p[0]) * (c[1] - p[1]) - (double)(q[1] - p[1]) * (c[0] - p[0]);
            double dq = hypot(q[0] - p[0], q[1] - p[1]), dc = hypot(c[0] - p[0], c[1] - p[1]);
            if (turn < 0 || (turn == 0 && dc > dq))
                next = i;
        }
        const float *q = t->xyz + 3 * next;
        area += 0.5 * ((double)p[0] * q[1] - (double)q[0] * p[1]);
        at = next;
        if (at == start)
            break;
    }
    return fabs(area);
}

/* The door model and two placeable meshes: the footprint covers their silhouette from above and
 * stays within 1.5 times the convex hull's area (issue 29's bounds). */
static void footprints_cover_the_silhouette(void **state)
{
    (void)state;
    static const char *const models[] = {"bwm-models/kotor-pykotor-dor_lhr02.mdl", "assimp-models/OBJ/WusonOBJ.obj",
                                         "assimp-models/OBJ/box.obj"};
    for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
        char *path = wmt_corpus_path_or_skip(models[i]);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        wm_options opts;
        wm_options_init(&opts);
        assert_int_equal(wm_option_set(&ctx, &opts, "geometry", "render"), WM_OK);
        wm_mesh render, footprint;
        assert_int_equal(wm_mesh_load(&ctx, path, NULL, &opts, &render), WM_OK);
        assert_int_equal(wm_generate_footprint(&ctx, &render, 0.05f, NULL, NULL, &footprint), WM_OK);
        triangles model = mesh_triangles(&render, 0), shape = mesh_triangles(&footprint, 0);
        raster silhouette, covered;
        frame(&model, &shape, &silhouette);
        covered = silhouette;
        covered.top = malloc(sizeof(float) * (size_t)silhouette.w * silhouette.h);
        rasterise(&model, &silhouette);
        rasterise(&shape, &covered);
        size_t cells = 0, inside = 0, footprint_cells = 0;
        for (size_t c = 0; c < (size_t)silhouette.w * silhouette.h; c++) {
            cells += !isnan(silhouette.top[c]);
            inside += !isnan(silhouette.top[c]) && !isnan(covered.top[c]);
            footprint_cells += !isnan(covered.top[c]);
        }
        double hull = hull_area(&model), area = footprint_cells * GRID * GRID;
        print_message("%-40s silhouette %.3f covered %.4f; footprint %.3f = %.2fx the hull (%.3f); %u faces\n",
                      models[i], cells * GRID * GRID, (double)inside / cells, area, area / hull, hull,
                      footprint.triangle_count);
        assert_true(inside >= 0.99 * cells);
        assert_true(area <= 1.5 * hull);
        for (uint32_t f = 0; f < footprint.triangle_count; f++)
            assert_false(footprint.walkable[f]);
        char *dir = wmt_make_temp_dir(), *written = wmt_join(dir, i == 0 ? "door.dwk" : "placeable.pwk");
        assert_int_equal(wm_mesh_save(&ctx, &footprint, written, NULL, NULL, 1), WM_OK);
        validates_without_errors(&ctx, written);
        wmt_remove_tree(dir);
        free(dir), free(written);
        free(silhouette.top), free(covered.top), free(model.xyz), free(shape.xyz), free(path);
        wm_mesh_free(&ctx, &render), wm_mesh_free(&ctx, &footprint);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rooms_against_their_walkmesh_nodes),
        cmocka_unit_test(footprints_cover_the_silhouette),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
