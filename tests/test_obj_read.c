#define _GNU_SOURCE
/* walkmesh's own OBJ reader against Assimp's (the peer it replaces for
 * OBJ): on every OBJ of Assimp's test models, the same outcome, triangle
 * count and area; and concave faces triangulated inside their outline
 * (areas by the shoelace formula). */
#include "test_support.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double triangle_area(const float *a, const float *b, const float *c)
{
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    double x = u[1] * v[2] - u[2] * v[1], y = u[2] * v[0] - u[0] * v[2], z = u[0] * v[1] - u[1] * v[0];
    return 0.5 * sqrt(x * x + y * y + z * z);
}

/* Triangles and their total area as Assimp imports the file (node transforms
 * of OBJ are identities; the axis change is a rotation: areas agree). */
static int assimp_triangles(const char *path, unsigned *count, double *area)
{
    const struct aiScene *scene = aiImportFile(path, aiProcess_Triangulate | aiProcess_SortByPType);
    if (!scene)
        return 0;
    *count = 0;
    *area = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; m++) {
        const struct aiMesh *mesh = scene->mMeshes[m];
        for (unsigned f = 0; f < mesh->mNumFaces; f++) {
            const struct aiFace *face = &mesh->mFaces[f];
            if (face->mNumIndices != 3)
                continue;
            const struct aiVector3D *a = &mesh->mVertices[face->mIndices[0]], *b = &mesh->mVertices[face->mIndices[1]],
                                    *c = &mesh->mVertices[face->mIndices[2]];
            float pa[3] = {a->x, a->y, a->z}, pb[3] = {b->x, b->y, b->z}, pc[3] = {c->x, c->y, c->z};
            *area += triangle_area(pa, pb, pc);
            (*count)++;
        }
    }
    aiReleaseImport(scene);
    return *count > 0;
}

/* True when a face of the OBJ names one corner three times or more: an
 * outline winding over itself, which has no one right triangulation. */
static int has_self_overlapping_face(const char *path)
{
    size_t size;
    char *text = (char *)wmt_read_file(path, &size);
    text = realloc(text, size + 1);
    text[size] = '\0';
    int found = 0;
    for (char *line = text; line && !found; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, "f ", 2) != 0)
            continue;
        long refs[4096];
        int n = 0;
        for (char *p = line + 2; *p && *p != '\n' && n < 4096;) {
            char *end;
            long v = strtol(p, &end, 10);
            if (end == p)
                break;
            refs[n++] = v;
            p = end;
            while (*p && *p != ' ' && *p != '\n')
                p++;
        }
        for (int i = 0; i < n && !found; i++) {
            int same = 0;
            for (int j = 0; j < n; j++)
                same += refs[j] == refs[i];
            found = same >= 3;
        }
    }
    free(text);
    return found;
}

static void every_obj_model_reads_as_assimp_reads_it(void **state)
{
    (void)state;
    static const char *const suffixes[] = {".obj", NULL};
    char **files;
    size_t n = wmt_corpus_list("assimp-models/OBJ", suffixes, &files);
    const wm_format *format = wm_format_by_name("assimp");
    size_t same = 0, both_refuse = 0, count_only = 0, malformed = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned peer_count = 0;
        double peer_area = 0;
        int peer_ok = assimp_triangles(files[i], &peer_count, &peer_area);
        wm_ctx ctx;
        wmt_ctx_init(&ctx);
        wm_mesh m;
        wm_result r = wm_mesh_load(&ctx, files[i], format->name, NULL, &m);
        if (r) {
            /* Assimp reads some malformed numbers ("3.1+e2") silently; we name the line */
            if (strstr(ctx.message, ": line ")) {
                print_message("%s: refused: %s (Assimp reads %u triangles)\n", files[i], ctx.message, peer_count);
                malformed++;
            } else if (peer_ok) {
                fail_msg("%s: refused (%s); Assimp reads %u triangles", files[i], ctx.message, peer_count);
            } else {
                both_refuse++;
            }
            continue;
        }
        double area = 0;
        for (uint32_t t = 0; t < m.triangle_count; t++)
            area += triangle_area(m.positions + 3 * m.indices[3 * t], m.positions + 3 * m.indices[3 * t + 1],
                                  m.positions + 3 * m.indices[3 * t + 2]);
        int overlapping = has_self_overlapping_face(files[i]);
        count_only += overlapping;
        if (!peer_ok || m.triangle_count != peer_count ||
            (!overlapping && fabs(area - peer_area) > 1e-4 * (1 + peer_area)))
            fail_msg("%s: %u triangles, area %.6g; Assimp: %u, %.6g", files[i], m.triangle_count, area, peer_count,
                     peer_area);
        same++;
        wm_mesh_free(&ctx, &m);
    }
    print_message("%zu OBJ files: %zu read with Assimp's triangle count (%zu of them also its area; the others have "
                  "a face winding over itself), %zu refused by both, %zu refused naming a malformed line\n",
                  n, same, same - count_only, both_refuse, malformed);
    assert_int_equal(same + both_refuse + malformed, n);
    wmt_free_list(files, n);
}

/* An L-shaped floor (2 x 2 m minus a 1 x 1 m corner: 3 m2) written as one
 * hexagon starting next to its reflex corner, where a fan would fold over. */
/* What walkmesh makes of an OBJ of this text (a file in a temporary folder, removed again). */
static wm_result read_obj_text(wm_ctx *ctx, const char *text, size_t size, wm_mesh *m)
{
    char *dir = wmt_make_temp_dir();
    char *path = wmt_join(dir, "text.obj");
    wmt_write_file(path, text, size);
    wmt_ctx_init(ctx);
    wm_result r = wm_mesh_load(ctx, path, wm_format_by_name("assimp")->name, NULL, m);
    wmt_remove_tree(dir);
    free(path);
    free(dir);
    return r;
}

static void load_obj_text(wm_ctx *ctx, const char *text, size_t size, wm_mesh *m)
{
    if (read_obj_text(ctx, text, size, m)) fail_msg("%s", wm_ctx_message(ctx));
}

/* Face references as the OBJ format defines them: 1-based, negative ones
 * counted back from the last vertex so far, texture and normal indices after
 * slashes ignored; 0, one past the vertices, one before the first, or a
 * reference that is not a number refuse the file naming the face's line. */
static void face_references_follow_the_format(void **state)
{
    (void)state;
    static const char vertices[] = "o floor\nv 0 0 0\nv 1 0 0\nv 0 0 -1\n";
    static const char *const good[] = {"f 1 2 3\n", "f 1/1/1 2//2 -1\n", "f -3/5 +2 3/4\n"};
    static const char *const bad[] = {"f 0 1 2\n", "f 1 2 4\n", "f 1 2 -4\n", "f 1 2 3x\n", "f 1 2 /3\n"};
    char text[128];
    wm_ctx ctx;
    wm_mesh m;
    for (int i = 0; i < 3; i++) {
        snprintf(text, sizeof text, "%s%s", vertices, good[i]);
        load_obj_text(&ctx, text, strlen(text), &m);
        assert_int_equal(m.triangle_count, 1);
        for (int k = 0; k < 3; k++) /* vertex k is (k == 1, 0, k == 2) in game axes */
            assert_true(m.positions[3 * m.indices[k]] == (k == 1) && m.positions[3 * m.indices[k] + 1] == (k == 2));
        wm_mesh_free(&ctx, &m);
    }
    for (int i = 0; i < 5; i++) {
        snprintf(text, sizeof text, "%s%s", vertices, bad[i]);
        assert_int_equal(read_obj_text(&ctx, text, strlen(text), &m), WM_ERR_CORRUPT);
        assert_non_null(strstr(wm_ctx_message(&ctx), "line 5"));
    }
}

static void concave_faces_stay_inside_their_outline(void **state)
{
    (void)state;
    /* game (x, y) corners (1,2) (0,2) (0,0) (2,0) (2,1) (1,1); OBJ Y-up: v x 0 -y */
    const char *text = "o floor\nusemtl stone\nv 1 0 -2\nv 0 0 -2\nv 0 0 0\nv 2 0 0\nv 2 0 -1\nv 1 0 -1\n"
                       "f 1 2 3 4 5 6\n";
    wm_ctx ctx;
    wm_mesh m;
    load_obj_text(&ctx, text, strlen(text), &m);
    assert_int_equal(m.triangle_count, 4); /* a hexagon: n - 2 */
    double area = 0;
    int up = 0, down = 0;
    for (uint32_t t = 0; t < m.triangle_count; t++) {
        area += triangle_area(m.positions + 3 * m.indices[3 * t], m.positions + 3 * m.indices[3 * t + 1],
                              m.positions + 3 * m.indices[3 * t + 2]);
        float n[3];
        wm_mesh_triangle_normal(&m, t, n);
        up += n[2] > 0.99f;
        down += n[2] < -0.99f;
    }
    assert_true(fabs(area - 3.0) < 1e-6); /* the shoelace area of the outline */
    assert_true(up == 4 || down == 4);    /* no triangle folded over */
    wm_mesh_free(&ctx, &m);
}

/* A plain decimal of up to 15 digits reads as the nearest float to the
 * nearest double of its value, which is (float)strtod of its text: random
 * ones of every length, signs, a bare fraction (".5"), a trailing point
 * ("7.") and zeros; each vertex its own x, far from the others, so none welds. */
static void plain_decimals_read_as_strtod_reads_them(void **state)
{
    (void)state;
    enum { N = 3000 };
    static char text[N * 80 + 64];
    static char numbers[N][3][24];
    size_t used = (size_t)snprintf(text, sizeof text, "o floor\n");
    srand(11);
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < 3; k++) { /* [sign] [whole digits] [. [fraction digits]], a digit at least */
            int whole = rand() % 8, fraction = rand() % (k == 0 ? 10 : 16 - whole); /* at most 15 digits */
            char *n = numbers[i][k];
            size_t at = 0;
            if (rand() % 3 == 0) n[at++] = rand() % 4 ? '-' : '+';
            if (k == 0) /* 1 to 5 digits: its own x, 10 apart */
                at += (size_t)sprintf(n + at, "%d", i * 10 + 1);
            for (int d = 0; k != 0 && d < whole; d++) n[at++] = (char)('0' + rand() % 10);
            if (k != 0 && whole == 0 && (fraction == 0 || rand() % 2)) n[at++] = '0';
            if (fraction || rand() % 5 == 0) n[at++] = '.';
            for (int d = 0; d < fraction; d++) n[at++] = (char)('0' + rand() % 10);
            n[at] = '\0';
        }
        used += (size_t)snprintf(text + used, sizeof text - used, "v %s %s %s\n", numbers[i][0], numbers[i][1],
                                 numbers[i][2]);
    }
    for (int i = 0; i + 2 < N; i += 3)
        used += (size_t)snprintf(text + used, sizeof text - used, "f %d %d %d\n", i + 1, i + 2, i + 3);
    wm_ctx ctx;
    wm_mesh m;
    load_obj_text(&ctx, text, used, &m);
    assert_int_equal(m.vertex_count, N);
    for (int i = 0; i < N; i++) {
        float x = (float)strtod(numbers[i][0], NULL), y = (float)strtod(numbers[i][1], NULL);
        float z = (float)strtod(numbers[i][2], NULL);
        const float *p = m.positions + 3 * (size_t)i; /* Y-up file: game (x, -z, y) */
        if (memcmp(&p[0], &x, 4) || p[1] != -z || memcmp(&p[2], &y, 4))
            fail_msg("v %s %s %s read as %.9g %.9g %.9g", numbers[i][0], numbers[i][1], numbers[i][2], (double)p[0],
                     (double)p[1], (double)p[2]);
    }
    wm_mesh_free(&ctx, &m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_obj_model_reads_as_assimp_reads_it),
        cmocka_unit_test(concave_faces_stay_inside_their_outline),
        cmocka_unit_test(plain_decimals_read_as_strtod_reads_them),
        cmocka_unit_test(face_references_follow_the_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
