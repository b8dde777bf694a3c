/* Walkmesh cutters from an area's GIT file: triggers of Type 3. */
#include "nwn2_git.h"
#include "gff.h"

#include <string.h>

#define TRIGGER_TYPE_WALKMESH_CUTTER 3

void nwn2_cutter_set_free(const wm_ctx *ctx, nwn2_cutter_set *set)
{
    if (set->cutters)
        for (uint32_t i = 0; i < set->count; i++)
            wm_free(ctx, set->cutters[i].points);
    wm_free(ctx, set->cutters);
    set->cutters = NULL;
    set->count = 0;
}

static wm_result read_cutter(nwn2_gff *g, uint32_t st, uint32_t index, uint32_t points_so_far,
                             nwn2_cutter *out, int *is_cutter)
{
    int64_t type = 0;
    *is_cutter = 0;
    wm_result r = nwn2_gff_int(g, st, "Type", -1, &type);
    if (r || type != TRIGGER_TYPE_WALKMESH_CUTTER)
        return r;
    float x = 0, y = 0;
    nwn2_gff_field geometry;
    int found = 0;
    uint32_t count = 0;
    r = nwn2_gff_float(g, st, "XPosition", 0.0f, &x);
    if (!r)
        r = nwn2_gff_float(g, st, "YPosition", 0.0f, &y);
    if (!r)
        r = nwn2_gff_find(g, st, "Geometry", &geometry, &found);
    if (r || !found)
        return r;
    r = nwn2_gff_list_count(g, &geometry, &count);
    if (r || count < 3)
        return r;
    if ((uint64_t)points_so_far + count > NWN2_MAX_CUTTER_POINTS)
        return wm_error(g->ctx, WM_ERR_LIMIT,
                        "%s: trigger %u: walkmesh cutter with %u points brings the cutters past %u points in all",
                        g->source, index, count, NWN2_MAX_CUTTER_POINTS);
    out->points = wm_alloc_array(g->ctx, count, 2 * sizeof(float));
    if (!out->points)
        return WM_ERR_NOMEM;
    out->point_count = count;
    out->source_index = index;
    for (uint32_t k = 0; k < count && !r; k++) {
        uint32_t pst = 0;
        float px = 0, py = 0;
        r = nwn2_gff_list_struct(g, &geometry, k, &pst);
        if (!r)
            r = nwn2_gff_float(g, pst, "PointX", 0.0f, &px);
        if (!r)
            r = nwn2_gff_float(g, pst, "PointY", 0.0f, &py);
        out->points[2 * k] = x + px;
        out->points[2 * k + 1] = y + py;
    }
    *is_cutter = 1;
    return r;
}

wm_result nwn2_git_cutters(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, nwn2_cutter_set *out)
{
    memset(out, 0, sizeof *out);
    nwn2_gff g;
    wm_result r = nwn2_gff_open(ctx, data, size, source, &g);
    if (r)
        return r;
    if (memcmp(g.file_type, "GIT ", 4) != 0)
        return wm_error(ctx, WM_ERR_CORRUPT, "%s: GFF file type \"%.4s\", expected \"GIT \"", g.source, g.file_type);
    nwn2_gff_field list;
    int found = 0;
    uint32_t count = 0;
    r = nwn2_gff_find(&g, 0, "TriggerList", &list, &found);
    if (r || !found)
        return r;
    r = nwn2_gff_list_count(&g, &list, &count);
    if (r || count == 0)
        return r;
    out->cutters = wm_alloc_array(ctx, count, sizeof *out->cutters);
    if (!out->cutters)
        return WM_ERR_NOMEM;
    uint32_t points = 0;
    for (uint32_t i = 0; i < count && !r; i++) {
        uint32_t st = 0;
        int is_cutter = 0;
        r = nwn2_gff_list_struct(&g, &list, i, &st);
        if (!r)
            r = read_cutter(&g, st, i, points, &out->cutters[out->count], &is_cutter);
        if (is_cutter || out->cutters[out->count].points)
            points += out->cutters[out->count++].point_count;
    }
    if (r)
        nwn2_cutter_set_free(ctx, out);
    return r;
}

wm_result nwn2_git_read_cutters(wm_ctx *ctx, const char *path, nwn2_cutter_set *out)
{
    uint8_t *data = NULL;
    size_t size = 0;
    memset(out, 0, sizeof *out);
    wm_result r = wm_file_read(ctx, path, &data, &size);
    if (r)
        return r;
    r = nwn2_git_cutters(ctx, data, size, path, out);
    wm_free(ctx, data);
    return r;
}
