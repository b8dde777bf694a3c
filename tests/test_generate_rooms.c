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

/* The walkable (or, walkable 0, the non-walkable) triangles of a binary .wok, from its header's
 * counts and offsets. */
static triangles wok_triangles(const uint8_t *b, size_t size, int walkable)
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
        if (walkable_material(le32(b + material_at + 4 * f)) != walkable)
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

/* The mesh's triangles whose walkable flag is `walkable` (-1: all). */
static triangles mesh_triangles(const wm_mesh *m, int walkable)
{
    triangles t = {malloc(36ull * (m->triangle_count ? m->triangle_count : 1)), 0, m->triangle_count};
    for (uint32_t f = 0; f < m->triangle_count; f++) {
        if (walkable >= 0 && m->walkable[f] != walkable)
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

/* The room generated from its render meshes alone (KotOR defaults, blocking ground as asked),
 * written as a .wok that validates: its bytes, with the walkmesh node as *reference; NULL when
 * the model has no walkmesh node. */
static uint8_t *generated_wok(wm_ctx *ctx, const char *model, const char *dir, int blocking, wm_mesh *reference,
                              wm_mesh *render, size_t *size)
{
    if (wm_mesh_load(ctx, model, NULL, NULL, reference) != WM_OK)
        return NULL; /* no walkmesh node (a door, a room drawn only) */
    wm_options opts;
    wm_options_init(&opts);
    assert_int_equal(wm_option_set(ctx, &opts, "geometry", "render"), WM_OK);
    assert_int_equal(wm_mesh_load(ctx, model, NULL, &opts, render), WM_OK);
    wm_generate_config config;
    assert_int_equal(wm_generate_config_game(ctx, "kotor", &config), WM_OK);
    config.blocking = blocking;
    wm_mesh generated;
    if (wm_generate(ctx, render, &config, &generated, NULL))
        fail_msg("%s: %s", model, ctx->message);
    char *path = wmt_join(dir, "room.wok");
    assert_int_equal(wm_mesh_save(ctx, &generated, path, NULL, NULL, 1), WM_OK);
    validates_without_errors(ctx, path);
    uint8_t *bytes = wmt_read_file(path, size);
    free(path);
    wm_mesh_free(ctx, &generated);
    return bytes;
}

/* One room: reference from the walkmesh node, generated from the render meshes; 0 when the
 * model has no walkmesh node. */
static int generate_room(const char *model, const char *dir, comparison *out)
{
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh reference, render;
    size_t size;
    uint8_t *bytes = generated_wok(&ctx, model, dir, 0, &reference, &render, &size);
    if (!bytes)
        return 0;
    triangles gen = wok_triangles(bytes, size, 1), ref = mesh_triangles(&reference, 1);
    corners_within_the_render_heights(model, &gen, &render);
    *out = compare(&gen, &ref);
    free(gen.xyz), free(ref.xyz), free(bytes);
    wm_mesh_free(&ctx, &render), wm_mesh_free(&ctx, &reference);
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
        triangles model = mesh_triangles(&render, -1), shape = mesh_triangles(&footprint, -1);
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

/* Seen from above on the 5 cm grid: BioWare's non-walkable faces (those with area in plan; most
 * are walls) and how much of them the generated walkable faces alone, and walkable and blocking
 * together, cover; and the cells where the top blocking and walkable faces both lie (stacked:
 * a floor over another), and where they lie within half a step (0.2) of each other (the same floor
 * twice), not counting cells at the edge of either. */
#define SAME_FLOOR 0.2f
typedef struct blocking_cover {
    size_t reference, by_walkable, by_both, blocking, stacked, overlap;
    uint32_t blocking_faces;
} blocking_cover;

static int both_at(const raster *a, const raster *b, int i, int j, float within)
{
    if (i < 0 || j < 0 || i >= a->w || j >= a->h)
        return 0;
    size_t c = (size_t)j * a->w + i;
    return !isnan(a->top[c]) && !isnan(b->top[c]) && fabsf(a->top[c] - b->top[c]) <= within;
}

static int inside_both(const raster *a, const raster *b, int i, int j, float within)
{
    return both_at(a, b, i, j, within) && both_at(a, b, i - 1, j, within) && both_at(a, b, i + 1, j, within) &&
           both_at(a, b, i, j - 1, within) && both_at(a, b, i, j + 1, within);
}

static void cover(const triangles *walkable, const triangles *blocking, const triangles *nonwalk, blocking_cover *out)
{
    triangles all = {malloc(36ull * (walkable->count + blocking->count + 1)), 0, 0};
    memcpy(all.xyz, walkable->xyz, 36ull * walkable->count);
    memcpy(all.xyz + 9 * (size_t)walkable->count, blocking->xyz, 36ull * blocking->count);
    all.count = walkable->count + blocking->count;
    raster w, b, n;
    frame(&all, nonwalk, &w);
    b = n = w;
    b.top = malloc(sizeof(float) * (size_t)w.w * w.h), n.top = malloc(sizeof(float) * (size_t)w.w * w.h);
    rasterise(walkable, &w), rasterise(blocking, &b), rasterise(nonwalk, &n);
    for (int j = 0; j < w.h; j++)
        for (int i = 0; i < w.w; i++) {
            size_t c = (size_t)j * w.w + i;
            int in_walkable = !isnan(w.top[c]), in_blocking = !isnan(b.top[c]);
            out->reference += !isnan(n.top[c]);
            out->blocking += in_blocking;
            out->by_walkable += !isnan(n.top[c]) && in_walkable;
            out->by_both += !isnan(n.top[c]) && (in_walkable || in_blocking);
            out->stacked += inside_both(&w, &b, i, j, INFINITY);
            out->overlap += inside_both(&w, &b, i, j, SAME_FLOOR);
        }
    free(all.xyz), free(w.top), free(b.top), free(n.top);
}

/* --blocking on the same 12 rooms: every file validates; the blocking faces cover more of
 * BioWare's non-walkable floor than the walkable faces alone do, and lie on the walkable floor
 * itself (within half a step of it) almost nowhere but at their edges; over or under it, a floor
 * apart, they may (BioWare's rooms stack their non-walkable faces over walkable ones too). */
static void blocking_faces_beside_the_floor(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".mdl", NULL};
    char **models;
    size_t count = wmt_corpus_list("bwm-models", suffixes, &models);
    char *dir = wmt_make_temp_dir();
    blocking_cover total = {0, 0, 0, 0, 0, 0, 0};
    size_t rooms = 0;
    for (size_t i = 0; i < count; i++) {
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        wm_mesh reference, render;
        size_t size;
        uint8_t *bytes = generated_wok(&ctx, models[i], dir, 1, &reference, &render, &size);
        if (!bytes)
            continue;
        triangles walkable = wok_triangles(bytes, size, 1), blocking = wok_triangles(bytes, size, 0),
                  nonwalk = mesh_triangles(&reference, 0);
        blocking_cover c = {0, 0, 0, 0, 0, 0, blocking.count};
        cover(&walkable, &blocking, &nonwalk, &c);
        print_message("%-48s faces %4u (%4u blocking); BioWare's non-walkable %7.2f m2: %5.1f %% covered by walkable, "
                      "%5.1f %% with blocking; stacked %zu cells, the same floor %zu\n", strrchr(models[i], '/') + 1,
                      walkable.faces, c.blocking_faces, c.reference * GRID * GRID,
                      c.reference ? 100.0 * c.by_walkable / c.reference : 0,
                      c.reference ? 100.0 * c.by_both / c.reference : 0, c.stacked, c.overlap);
        total.reference += c.reference, total.by_walkable += c.by_walkable, total.by_both += c.by_both;
        total.blocking += c.blocking, total.stacked += c.stacked, total.overlap += c.overlap, total.blocking_faces += c.blocking_faces;
        rooms++;
        free(walkable.xyz), free(blocking.xyz), free(nonwalk.xyz), free(bytes);
        wm_mesh_free(&ctx, &render), wm_mesh_free(&ctx, &reference);
    }
    print_message("%zu rooms: %u blocking faces; BioWare's non-walkable %.1f m2, %.1f %% covered by walkable, %.1f %% "
                  "with blocking; stacked %zu cells, the same floor %zu\n", rooms, total.blocking_faces,
                  total.reference * GRID * GRID, 100.0 * total.by_walkable / total.reference,
                  100.0 * total.by_both / total.reference, total.stacked, total.overlap);
    assert_int_equal(rooms, 12);
    assert_true(total.by_both > total.by_walkable);
    /* Recast's own polygons of two layers a step apart, their corners put on the render floor,
     * come within half a step over a few cells of the outdoor room m14aa_01c (5 cells before the
     * simplification): at most a thousandth of the blocking ground */
    assert_true(total.overlap * 1000 <= total.blocking);
    wmt_remove_tree(dir);
    free(dir);
    wmt_free_list(models, count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rooms_against_their_walkmesh_nodes),
        cmocka_unit_test(footprints_cover_the_silhouette),
        cmocka_unit_test(blocking_faces_beside_the_floor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
