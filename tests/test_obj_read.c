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
static void concave_faces_stay_inside_their_outline(void **state)
{
    (void)state;
    char *dir = wmt_make_temp_dir();
    char *path = wmt_join(dir, "l_shape.obj");
    /* game (x, y) corners (1,2) (0,2) (0,0) (2,0) (2,1) (1,1); OBJ Y-up: v x 0 -y */
    const char *text = "o floor\nusemtl stone\nv 1 0 -2\nv 0 0 -2\nv 0 0 0\nv 2 0 0\nv 2 0 -1\nv 1 0 -1\n"
                       "f 1 2 3 4 5 6\n";
    wmt_write_file(path, text, strlen(text));
    wm_ctx ctx;
    wmt_ctx_init(&ctx);
    wm_mesh m;
    assert_int_equal(wm_mesh_load(&ctx, path, wm_format_by_name("assimp")->name, NULL, &m), WM_OK);
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
    wmt_remove_tree(dir);
    free(path);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_obj_model_reads_as_assimp_reads_it),
        cmocka_unit_test(concave_faces_stay_inside_their_outline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
