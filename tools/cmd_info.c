#include "cli.h"
#include "report_print.h"

#include <stdio.h>
#include <string.h>

static const cli_spec info_spec = {
    .name = "info",
    .features = CLI_RESULTS | CLI_MESH | CLI_MANY,
    .usage = "Usage: walkmesh info FILE... [--json] [options]\n\n"
             "Reads each FILE (any format 'walkmesh formats' lists) and prints its format, vertex,\n"
             "triangle and object counts, bounding box (Z-up game coordinates), a histogram of\n"
             "surfaces, the walkable count, and the format's own details (trees, packets, tiles...).\n"
             "With --json, one object per file (an array for several files). An archive (.mod, .erf,\n"
             ".hak, .rim, chitin.key) lists each member walkmesh reads, its format and triangles;\n"
             "ARCHIVE/member reads one member.\n",
    .footer = "Exit status: 0 read, 1 usage, 2 input missing or unreadable, 4 unknown format.\n",
    .min_inputs = 1,
};

static void print_text(wm_buffer *out, const char *path, const wm_format *format, const wm_mesh *mesh, const uint32_t *histogram,
                       const uint32_t *walk_histogram, uint32_t walkable, const wm_surface_table *table,
                       const wm_report *details)
{
    float min[3], max[3];
    wm_mesh_bounds(mesh, min, max);
    wm_put_text(out, "file: %s\nformat: %s\nvertices: %u\ntriangles: %u\nwalkable: %u\nobjects: %u\n", path, format->name,
           mesh->vertex_count, mesh->triangle_count, walkable, mesh->object_count);
    wm_put_text(out, "bounds: min %.6g %.6g %.6g  max %.6g %.6g %.6g\n", min[0], min[1], min[2], max[0], max[1], max[2]);
    wm_put_text(out, "surfaces:\n");
    for (uint32_t s = 0; s < table->count; s++)
        if (histogram[s])
            wm_put_text(out, "  %-16s %8u triangles (%u walkable)\n", table->entries[s].name, histogram[s], walk_histogram[s]);
    if (details->count) {
        wm_put_text(out, "%s details:\n", format->name);
        report_print_text(out, details, "  ");
    }
}

static void print_json(wm_buffer *out, const char *path, const wm_format *format, const wm_mesh *mesh, const uint32_t *histogram,
                       const uint32_t *walk_histogram, uint32_t walkable, const wm_surface_table *table,
                       const wm_report *details)
{
    float min[3], max[3];
    wm_mesh_bounds(mesh, min, max);
    wm_put_text(out, "{\"file\": ");
    wm_put_json_string(out, path);
    wm_put_text(out, ", \"format\": \"%s\", \"vertices\": %u, \"triangles\": %u, \"walkable\": %u, ", format->name,
           mesh->vertex_count, mesh->triangle_count, walkable);
    wm_put_text(out, "\"bounds\": {");
    for (int corner = 0; corner < 2; corner++) {
        const float *v = corner ? max : min;
        wm_put_text(out, "%s\"%s\": [", corner ? ", " : "", corner ? "max" : "min");
        for (int k = 0; k < 3; k++) {
            wm_put_text(out, k ? ", " : "");
            json_float(out, v[k]);
        }
        wm_put_text(out, "]");
    }
    wm_put_text(out, "}, ");
    wm_put_text(out, "\"surfaces\": {");
    int first = 1;
    for (uint32_t s = 0; s < table->count; s++)
        if (histogram[s]) {
            wm_put_text(out, "%s", first ? "" : ", ");
            wm_put_json_string(out, table->entries[s].name);
            wm_put_text(out, ": {\"triangles\": %u, \"walkable\": %u}", histogram[s], walk_histogram[s]);
            first = 0;
        }
    wm_put_text(out, "}, \"objects\": [");
    for (uint32_t o = 0; o < mesh->object_count; o++) {
        wm_put_text(out, "%s", o ? ", " : "");
        wm_put_json_string(out, mesh->object_names[o]);
    }
    wm_put_text(out, "], \"details\": ");
    report_print_facts_json(out, details);
    wm_put_text(out, "}\n");
}

static int info_one(void *user, int index, wm_ctx *ctx, wm_buffer *out)
{
    const cli_args *args = user;
    const char *path = args->inputs[index];
    wm_mesh mesh;
    const wm_format *format;
    wm_archive *archive = NULL;
    int is_archive = cli_open_archive(ctx, path, &archive);
    if (is_archive) {
        int code = is_archive < 0 ? EXIT_INPUT : cli_list_archive(ctx, args, archive, out);
        wm_archive_close(ctx, archive);
        return code;
    }
    wm_report details;
    wm_report_init(&details, ctx);
    wm_result r = cli_load_mesh(ctx, &args->mesh, path, &mesh, &format, &details);
    if (r) {
        wm_report_free(&details);
        return cli_exit_code(r, 0);
    }
    const wm_surface_table *table = wm_surfaces(ctx);
    uint32_t *histogram = wm_alloc_array(ctx, table->count, sizeof *histogram);
    uint32_t *walk_histogram = wm_alloc_array(ctx, table->count, sizeof *walk_histogram);
    uint32_t walkable = 0;
    for (uint32_t t = 0; histogram && walk_histogram && t < mesh.triangle_count; t++) {
        if (mesh.surfaces[t] < table->count) {
            histogram[mesh.surfaces[t]]++;
            walk_histogram[mesh.surfaces[t]] += mesh.walkable[t];
        }
        walkable += mesh.walkable[t];
    }
    int code = histogram && walk_histogram ? EXIT_OK : cli_exit_code(WM_ERR_NOMEM, 0);
    if (!code && args->json)
        print_json(out, path, format, &mesh, histogram, walk_histogram, walkable, table, &details);
    else if (!code)
        print_text(out, path, format, &mesh, histogram, walk_histogram, walkable, table, &details);
    wm_report_free(&details);
    wm_free(ctx, histogram);
    wm_free(ctx, walk_histogram);
    wm_mesh_free(ctx, &mesh);
    return code;
}

int cmd_info(int argc, char **argv)
{
    return cli_run_over_inputs(&info_spec, argc, argv, info_one);
}
