/* An ASCII walkmesh read as the binary file it describes, so that binary ->
 * ASCII -> binary keeps every vertex bit-exact and in its place, and the
 * AABB tree where the text lists one. Normals, distances and plane flags are
 * not in the text: they are derived as the builder derives them. */
#include "bwm/bwm.h"

#include <string.h>

/* rank[text face] = its position among the tree's leaves (preorder), or NULL
 * when the leaves do not hold every face exactly once. */
static uint32_t *leaf_ranks(wm_ctx *ctx, const double *rows, uint32_t count, uint32_t faces)
{
    uint32_t *rank = wm_alloc_array(ctx, (size_t)faces + 1, sizeof *rank), leaves = 0;
    if (!rank) return NULL;
    memset(rank, 0xFF, ((size_t)faces + 1) * sizeof *rank);
    for (uint32_t i = 0; i < count; i++) {
        double face = rows[7 * (size_t)i + 6];
        if (face < 0) continue;
        if (face >= faces || rank[(uint32_t)face] != UINT32_MAX) {
            leaves = 0; /* a face out of range or twice: not this text's tree */
            break;
        }
        rank[(uint32_t)face] = leaves++;
    }
    if (leaves != faces) {
        wm_free(ctx, rank);
        return NULL;
    }
    return rank;
}

/* The text's boxes replace the derived ones where the tree has the same
 * shape: the same face (or none) at every preorder node. */
static void keep_text_boxes(bwm_file *file, const double *rows, uint32_t count, const uint32_t *text_to_file)
{
    if (count != file->aabb_count) return;
    for (uint32_t i = 0; i < count; i++) {
        double face = rows[7 * (size_t)i + 6];
        if (face >= file->face_count) return;
        int32_t want = face < 0 ? -1 : (int32_t)text_to_file[(uint32_t)face];
        if (file->aabb[i].face != want) return;
    }
    for (uint32_t i = 0; i < count; i++)
        for (int k = 0; k < 3; k++) {
            file->aabb[i].min[k] = (float)rows[7 * (size_t)i + k];
            file->aabb[i].max[k] = (float)rows[7 * (size_t)i + 3 + k];
        }
}

/* Where each text face lands: walkable faces first, each group in text order. */
static wm_result face_order(wm_ctx *ctx, const wm_mesh *mesh, uint32_t **out)
{
    uint32_t n = mesh->triangle_count, next = 0;
    *out = wm_alloc_array(ctx, (size_t)n + 1, sizeof **out);
    if (!*out) return WM_ERR_NOMEM;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t f = 0; f < n; f++)
            if ((mesh->walkable[f] != 0) == (pass == 0)) (*out)[f] = next++;
    return WM_OK;
}

wm_result bwm_ascii_read_file(wm_ctx *ctx, const char *text, size_t size, const char *source, uint32_t type,
                              bwm_file *out)
{
    wm_mesh mesh;
    double *rows = NULL;
    uint32_t count = 0, *rank = NULL, *order = NULL;
    wm_mesh_init(&mesh);
    bwm_file_init(out);
    wm_result r = bwm_ascii_parse(ctx, text, size, source, NULL, &mesh);
    if (!r && mesh.triangle_count == 0)
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: the walkmesh node has no faces", source ? source : "<text>");
    uint32_t max_rows = mesh.triangle_count ? 2 * mesh.triangle_count - 1 : 0;
    if (!r && type == BWM_TYPE_AREA) r = bwm_ascii_aabb_rows(ctx, text, size, max_rows, &rows, &count);
    if (!r && rows) rank = leaf_ranks(ctx, rows, count, mesh.triangle_count);
    if (!r) r = face_order(ctx, &mesh, &order);
    if (!r) r = bwm_from_mesh_exact(ctx, &mesh, type, BWM_PLANES_BIOWARE, rank, out);
    if (!r) bwm_points_from_mesh(&mesh, out);
    if (!r && rank) keep_text_boxes(out, rows, count, order);
    wm_free(ctx, rows);
    wm_free(ctx, rank);
    wm_free(ctx, order);
    wm_mesh_free(ctx, &mesh);
    return r;
}
