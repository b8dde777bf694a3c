/* walkmesh path --tables: the route an NWN2 file's own path tables give (wm_nwn2_route.h),
 * measured like the shortest route, and where the two part. */
#include "cli.h"
#include "report_print.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void path_print_route(wm_buffer *out, int json, const wm_route *route, const char *extra);
int path_tables(wm_ctx *ctx, const cli_args *args, const float ends[2][3], const wm_route *shortest,
                const wm_walk_graph *graph);

static int compare_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* The start, the centre of each triangle of the tables' route, the goal (when reached). */
static wm_result tables_as_route(wm_ctx *ctx, const wm_nwn2_route *t, const float ends[2][3], const wm_route *s,
                                 wm_route *out)
{
    memset(out, 0, sizeof *out);
    out->points = wm_alloc_array(ctx, 3 * ((size_t)t->count + 2), sizeof *out->points);
    if (!out->points)
        return WM_ERR_NOMEM;
    memcpy(out->points, s->points, 3 * sizeof *out->points);
    memcpy(out->points + 3, t->points, 3 * (size_t)t->count * sizeof *out->points);
    out->count = t->count + 1;
    if (t->reached) {
        memcpy(out->points + 3 * (size_t)out->count++, s->points + 3 * (size_t)(s->count - 1), 3 * sizeof(float));
    }
    (void)ends;
    for (uint32_t i = 0; i + 1 < out->count; i++) {
        const float *a = out->points + 3 * (size_t)i, *b = a + 3;
        out->length += sqrt(((double)b[0] - a[0]) * (b[0] - a[0]) + ((double)b[1] - a[1]) * (b[1] - a[1]) +
                            ((double)b[2] - a[2]) * (b[2] - a[2]));
    }
    out->found = t->reached;
    return WM_OK;
}

/* The first triangle of the tables' route whose centre is on no face the shortest route
 * crosses: -1 when they keep to the same faces. */
static int64_t first_parting(wm_ctx *ctx, const wm_nwn2_route *t, const wm_route *s, const wm_walk_graph *graph)
{
    uint32_t *sorted = wm_alloc_array(ctx, s->face_count, sizeof *sorted);
    if (!sorted)
        return -1;
    memcpy(sorted, s->faces, s->face_count * sizeof *sorted);
    qsort(sorted, s->face_count, sizeof *sorted, compare_u32);
    int64_t parting = -1;
    for (uint32_t i = 0; i < t->count && parting < 0; i++) {
        uint32_t face;
        if (wm_walk_locate(ctx, graph, t->points + 3 * (size_t)i, 1, &face, NULL) || face == WM_NO_REGION)
            continue;
        if (!bsearch(&face, sorted, s->face_count, sizeof *sorted, compare_u32))
            parting = i;
    }
    wm_free(ctx, sorted);
    return parting;
}

static void say_parting(wm_buffer *out, int json, const wm_nwn2_route *t, const wm_route *tables,
                        const wm_route *s, int64_t parting)
{
    double longer = s->length > 0 ? 100.0 * (tables->length / s->length - 1.0) : 0;
    if (json) {
        wm_put_text(out, ", \"tables\": {\"reached\": %s, \"triangles\": %u, \"shortest_length\": ",
                    t->reached ? "true" : "false", t->count);
        json_number(out, s->length);
        wm_put_text(out, ", \"longer_percent\": ");
        json_number(out, longer);
        if (parting >= 0)
            wm_put_text(out, ", \"parts_at_triangle\": %u", t->triangles[parting]);
        wm_put_text(out, "}");
        return;
    }
    if (!t->reached)
        wm_put_text(out, "the tables do not reach the goal: %s\n", t->failure);
    wm_put_text(out, "the tables' route: %u triangles, %.6g long, %.3g%% longer than the shortest (%.6g)\n",
                t->count, tables->length, longer, s->length);
    if (parting >= 0) {
        const float *p = t->points + 3 * (size_t)parting;
        wm_put_text(out, "they part at triangle %u (%.6g %.6g %.6g), off the shortest route's faces\n",
                    t->triangles[parting], p[0], p[1], p[2]);
    } else {
        wm_put_text(out, "they keep to the same faces\n");
    }
}

int path_tables(wm_ctx *ctx, const cli_args *args, const float ends[2][3], const wm_route *shortest,
                const wm_walk_graph *graph)
{
    uint8_t *data = NULL;
    size_t size = 0;
    wm_nwn2_route t;
    memset(&t, 0, sizeof t);
    wm_result r = cli_read_input(ctx, args->inputs[0], &data, &size);
    if (!r)
        r = wm_nwn2_route_find(ctx, data, size, args->inputs[0], ends[0], ends[1], &t);
    wm_free(ctx, data);
    if (r == WM_ERR_NOT_FORMAT) {
        cli_error("path: --tables applies to NWN2 .trn/.trx files only (%s)", args->inputs[0]);
        return EXIT_USAGE;
    }
    if (r)
        return cli_fail(ctx, r, 0);
    wm_route tables;
    int code = EXIT_OK;
    if ((r = tables_as_route(ctx, &t, ends, shortest, &tables)) != WM_OK) {
        wm_nwn2_route_free(ctx, &t);
        return cli_fail(ctx, r, 0);
    }
    int64_t parting = first_parting(ctx, &t, shortest, graph);
    wm_buffer out, extra;
    wm_buffer_init(&out, ctx);
    wm_buffer_init(&extra, ctx);
    if (args->json) {
        say_parting(&extra, 1, &t, &tables, shortest, parting);
        wm_put_u8(&extra, 0);
        path_print_route(&out, 1, &tables, (const char *)extra.data);
    } else {
        path_print_route(&out, 0, &tables, NULL);
        say_parting(&out, 0, &t, &tables, shortest, parting);
    }
    fwrite(out.data, 1, out.size, stdout);
    if (!t.reached)
        code = EXIT_NOT_FOUND;
    wm_buffer_free(&out);
    wm_buffer_free(&extra);
    wm_route_free(ctx, &tables);
    wm_nwn2_route_free(ctx, &t);
    return code;
}
