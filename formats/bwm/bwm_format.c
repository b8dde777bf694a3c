/* The "bwm" format descriptor: CLI hooks for read, write, info and validate. */
#include "bwm/bwm.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const bwm_extensions[] = {"wok", "pwk", "dwk", NULL};

static const wm_option_desc bwm_options[] = {
    {"rebuild", NULL, "recompute all derived data (order, normals, AABB, adjacency, edges, perimeters)"},
    {"plane-style", "bioware|kotormax", "AABB plane flags: signed 1..32 (BioWare, default) or 1,2,4 (KOTORMax)"},
    {"hook1", "X,Y,Z", "PWK/DWK relative use hook 1"},
    {"hook2", "X,Y,Z", "PWK/DWK relative use hook 2"},
    {"abs-hook1", "X,Y,Z", "PWK/DWK absolute use hook 1"},
    {"abs-hook2", "X,Y,Z", "PWK/DWK absolute use hook 2"},
    {"position", "X,Y,Z", "header position"},
    {NULL, NULL, NULL}};

static int bwm_probe(const uint8_t *head, size_t head_size, uint64_t file_size, const char *path)
{
    (void)path;
    if (head_size < 12 || memcmp(head, "BWM V1.0", 8) != 0) return 0;
    return file_size >= BWM_HEADER_SIZE ? 100 : 60;
}

static void base_name(const char *path, char *out, size_t size)
{
    const char *start = wm_path_file_name(path);
    snprintf(out, size, "%s", start);
    char *dot = strrchr(out, '.');
    if (dot && dot != out) *dot = 0;
}

/* ASCII content behind .wok/.pwk/.dwk (NWN1 files, KotOR text) goes to the ASCII reader. */
static wm_result read_text(wm_ctx *ctx, const char *path, const wm_options *opts, const uint8_t *data, size_t size,
                           wm_mesh *out)
{
    double offset[3];
    int given = 0;
    wm_result r = bwm_room_offset_option(ctx, opts, offset, &given);
    if (!r) r = bwm_ascii_parse(ctx, (const char *)data, size, path, given ? offset : NULL, out);
    if (r) wm_mesh_free(ctx, out);
    return r;
}

static wm_result bwm_read_hook(wm_ctx *ctx, const char *path, const wm_options *opts, wm_mesh *out)
{
    bwm_file file;
    char name[128];
    uint8_t *data = NULL;
    size_t size = 0;
    wm_mesh_init(out);
    wm_result r = wm_file_read(ctx, path, &data, &size);
    int text = !r && bwm_is_text(data, size);
    if (text)
        r = read_text(ctx, path, opts, data, size, out);
    else if (!r)
        r = bwm_parse(ctx, data, size, path, &file);
    wm_free(ctx, data);
    if (r || text) return r;
    base_name(path, name, sizeof name);
    r = bwm_to_mesh(ctx, &file, name, out);
    bwm_file_free(ctx, &file);
    if (r) {
        wm_error_prefix(ctx, path);
        wm_mesh_free(ctx, out);
    }
    return r;
}

static wm_result bwm_write_hook(wm_ctx *ctx, const wm_mesh *mesh, const char *path, const wm_options *opts,
                                int overwrite)
{
    bwm_file file;
    wm_result r = bwm_file_for_mesh(ctx, mesh, bwm_type_for_path(path), opts, &file);
    if (r) return r;
    r = bwm_write_file(ctx, &file, path, overwrite);
    bwm_file_free(ctx, &file);
    return r;
}

typedef enum report_kind { REPORT_VALIDATE, REPORT_INFO } report_kind;

/* Reads and parses the file, then fills the report with findings or facts. */
static wm_result report_on_file(wm_ctx *ctx, const char *path, wm_report *report, report_kind kind)
{
    size_t size = 0;
    bwm_file file;
    wm_result r = bwm_load_any(ctx, path, &file, &size);
    if (r) return r;
    if (kind == REPORT_VALIDATE)
        r = bwm_validate(ctx, &file, size, report);
    else
        bwm_info(&file, ctx, report);
    bwm_file_free(ctx, &file);
    return r ? r : report->status;
}

static wm_result bwm_validate_hook(wm_ctx *ctx, const char *path, const wm_options *opts, wm_report *report)
{
    (void)opts;
    return report_on_file(ctx, path, report, REPORT_VALIDATE);
}

static wm_result bwm_info_hook(wm_ctx *ctx, const char *path, const wm_options *opts, wm_report *report)
{
    (void)opts;
    return report_on_file(ctx, path, report, REPORT_INFO);
}

const wm_format wm_format_bwm = {
    .name = "bwm",
    .description = "KotOR binary walkmesh (.wok area, .pwk placeable, .dwk door); ASCII content behind these "
                   "extensions (NWN1) is read by the ASCII reader",
    .extensions = bwm_extensions,
    .probe = bwm_probe,
    .read = bwm_read_hook,
    .write = bwm_write_hook,
    .info = bwm_info_hook,
    .validate = bwm_validate_hook,
    .options = bwm_options,
};
