#include "cli.h"
#include "report_print.h"

#include <stdio.h>
#include <string.h>

static void help(void)
{
    printf("Usage: walkmesh info FILE [--json] [options]\n\n"
           "Reads FILE (any format 'walkmesh formats' lists) and prints its format, vertex, triangle\n"
           "and object counts, bounding box (Z-up game coordinates), a histogram of surfaces, the\n"
           "walkable count, and the format's own details (trees, packets, tiles...).\n\n"
           "  --json                 machine-readable output\n");
    cli_print_mesh_options_help();
}

static void print_text(const char *path, const wm_format *format, const wm_mesh *mesh, const uint32_t *histogram,
                       const uint32_t *walk_histogram, uint32_t walkable, const wm_surface_table *table,
                       const wm_report *details)
{
    float min[3], max[3];
    wm_mesh_bounds(mesh, min, max);
    printf("file: %s\nformat: %s\nvertices: %u\ntriangles: %u\nwalkable: %u\nobjects: %u\n", path, format->name,
           mesh->vertex_count, mesh->triangle_count, walkable, mesh->object_count);
    printf("bounds: min %.6g %.6g %.6g  max %.6g %.6g %.6g\n", min[0], min[1], min[2], max[0], max[1], max[2]);
    printf("surfaces:\n");
    for (uint32_t s = 0; s < table->count; s++)
        if (histogram[s])
            printf("  %-16s %8u triangles (%u walkable)\n", table->entries[s].name, histogram[s], walk_histogram[s]);
    if (details->count) {
        printf("%s details:\n", format->name);
        report_print_text(stdout, details, "  ");
    }
}

static void print_json(const char *path, const wm_format *format, const wm_mesh *mesh, const uint32_t *histogram,
                       const uint32_t *walk_histogram, uint32_t walkable, const wm_surface_table *table,
                       const wm_report *details)
{
    float min[3], max[3];
    wm_mesh_bounds(mesh, min, max);
    printf("{\"file\": ");
    json_string(stdout, path);
    printf(", \"format\": \"%s\", \"vertices\": %u, \"triangles\": %u, \"walkable\": %u, ", format->name,
           mesh->vertex_count, mesh->triangle_count, walkable);
    printf("\"bounds\": {");
    for (int corner = 0; corner < 2; corner++) {
        const float *v = corner ? max : min;
        printf("%s\"%s\": [", corner ? ", " : "", corner ? "max" : "min");
        for (int k = 0; k < 3; k++) {
            fputs(k ? ", " : "", stdout);
            json_float(stdout, v[k]);
        }
        putchar(']');
    }
    printf("}, ");
    printf("\"surfaces\": {");
    int first = 1;
    for (uint32_t s = 0; s < table->count; s++)
        if (histogram[s]) {
            printf("%s", first ? "" : ", ");
            json_string(stdout, table->entries[s].name);
            printf(": {\"triangles\": %u, \"walkable\": %u}", histogram[s], walk_histogram[s]);
            first = 0;
        }
    printf("}, \"objects\": [");
    for (uint32_t o = 0; o < mesh->object_count; o++) {
        printf("%s", o ? ", " : "");
        json_string(stdout, mesh->object_names[o]);
    }
    printf("], \"details\": ");
    report_print_facts_json(stdout, details);
    printf("}\n");
}

int cmd_info(int argc, char **argv)
{
    cli_mesh_options o;
    const char *path;
    int json;
    int parsed = cli_parse_file_command(argc, argv, help, &o, &path, &json);
    if (parsed >= 0)
        return parsed;
    wm_ctx ctx;
    cli_ctx_init(&ctx, o.quiet || json);
    int code = cli_mesh_options_apply(&o, &ctx);
    if (code)
        return code;
    wm_mesh mesh;
    const wm_format *format;
    wm_report details;
    wm_report_init(&details, &ctx);
    code = cli_load_mesh_info(&ctx, path, o.from, &o.opts, &mesh, &format, &details);
    if (code) {
        wm_report_free(&details);
        cli_mesh_options_free(&o, &ctx);
        return code;
    }
    const wm_surface_table *table = wm_surfaces(&ctx);
    uint32_t *histogram = wm_alloc_array(&ctx, table->count, sizeof *histogram);
    uint32_t *walk_histogram = wm_alloc_array(&ctx, table->count, sizeof *walk_histogram);
    if (!histogram || !walk_histogram) {
        code = cli_fail(&ctx, WM_ERR_NOMEM, 0);
        goto done;
    }
    uint32_t walkable = 0;
    for (uint32_t t = 0; t < mesh.triangle_count; t++) {
        if (mesh.surfaces[t] < table->count) {
            histogram[mesh.surfaces[t]]++;
            walk_histogram[mesh.surfaces[t]] += mesh.walkable[t];
        }
        walkable += mesh.walkable[t];
    }
    if (json)
        print_json(path, format, &mesh, histogram, walk_histogram, walkable, table, &details);
    else
        print_text(path, format, &mesh, histogram, walk_histogram, walkable, table, &details);
done:
    wm_report_free(&details);
    wm_free(&ctx, histogram);
    wm_free(&ctx, walk_histogram);
    wm_mesh_free(&ctx, &mesh);
    cli_mesh_options_free(&o, &ctx);
    return code;
}
