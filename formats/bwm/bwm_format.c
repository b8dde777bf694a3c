/* The "bwm" format descriptor: CLI hooks for read, write, info and validate. */
#include "bwm/bwm.h"
#include "base_format.h"

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

static wm_result bwm_read_hook(wm_ctx *ctx, const char *path, const wm_options *opts, wm_mesh *out)
{
    bwm_file file;
    char name[128];
    (void)opts;
    wm_mesh_init(out);
    wm_result r = bwm_read_file(ctx, path, &file);
    if (r) return r;
    base_name(path, name, sizeof name);
    r = bwm_to_mesh(ctx, &file, name, out);
    bwm_file_free(ctx, &file);
    if (r) {
        wm_error_prefix(ctx, path);
        wm_mesh_free(ctx, out);
    }
    return r;
}

static uint32_t type_for_path(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (dot && (strcasecmp(dot, ".pwk") == 0 || strcasecmp(dot, ".dwk") == 0)) return BWM_TYPE_PLACEABLE;
    return BWM_TYPE_AREA;
}

static wm_result parse_planes(wm_ctx *ctx, const wm_options *opts, bwm_plane_style *out)
{
    const char *v = wm_option_get(opts, "plane-style");
    *out = BWM_PLANES_BIOWARE;
    if (!v || strcasecmp(v, "bioware") == 0) return WM_OK;
    if (strcasecmp(v, "kotormax") == 0) {
        *out = BWM_PLANES_KOTORMAX;
        return WM_OK;
    }
    return wm_error(ctx, WM_ERR_OPTION, "--plane-style: \"%s\" is neither bioware nor kotormax", v);
}

static wm_result parse_vec3(wm_ctx *ctx, const wm_options *opts, const char *name, float out[3])
{
    const char *v = wm_option_get(opts, name);
    if (!v) return WM_OK;
    const char *p = v;
    for (int k = 0; k < 3; k++) {
        char *end;
        errno = 0;
        double d = strtod(p, &end);
        if (end == p || errno) return wm_error(ctx, WM_ERR_OPTION, "--%s: \"%s\" is not X,Y,Z", name, v);
        out[k] = (float)d;
        if (!isfinite(out[k]))
            return wm_error(ctx, WM_ERR_OPTION, "--%s: \"%s\": coordinates must be finite floats", name, v);
        p = end;
        if (k < 2) {
            if (*p != ',') return wm_error(ctx, WM_ERR_OPTION, "--%s: \"%s\" is not X,Y,Z", name, v);
            p++;
        }
    }
    if (*p) return wm_error(ctx, WM_ERR_OPTION, "--%s: \"%s\" is not X,Y,Z", name, v);
    return WM_OK;
}

/* Loads a BWM named by the options (the conversion source, else --base) when it is one.
 * The source is optional; a --base that is not a readable BWM is an error. */
static wm_result load_native_source(wm_ctx *ctx, const wm_options *opts, bwm_file *out, int *loaded)
{
    *loaded = 0;
    if (opts->source_path) {
        wm_ctx quiet = *ctx; /* a source that is not a BWM must not leave messages behind */
        const wm_format *format = NULL;
        if (wm_format_detect(&quiet, opts->source_path, &format) == WM_OK && format == &wm_format_bwm &&
            bwm_read_file(&quiet, opts->source_path, out) == WM_OK) {
            *loaded = 1;
            return WM_OK;
        }
    }
    if (!opts->base_path) return WM_OK;
    wm_result r = wm_base_check_format(ctx, opts->base_path, &wm_format_bwm);
    if (r) return r;
    if ((r = bwm_read_file(ctx, opts->base_path, out))) {
        wm_error_prefix(ctx, "--base");
        return r;
    }
    *loaded = 1;
    return WM_OK;
}

static int mesh_has_transitions(const wm_mesh *mesh)
{
    for (size_t i = 0; i < (size_t)mesh->triangle_count * 3; i++)
        if (mesh->transitions[i] != WM_NO_TRANSITION) return 1;
    return 0;
}

/* The mesh came through a format without transitions: take them from the original BWM by edge position. */
static wm_result restore_transitions(wm_ctx *ctx, const bwm_file *source, bwm_file *file, float tolerance)
{
    uint32_t unmatched = 0, total = 0;
    for (uint32_t e = 0; e < source->edge_count; e++) total += source->edges[e].transition >= 0;
    if (!total) return WM_OK;
    wm_result r = bwm_transfer_transitions(ctx, source, file, tolerance < 0 ? 1e-3f : tolerance, &unmatched);
    if (!r && unmatched)
        wm_warn(ctx, "%u of %u transitions of the original walkmesh match no boundary edge of the new one", unmatched,
                total);
    return r;
}

static wm_result bwm_write_hook(wm_ctx *ctx, const wm_mesh *mesh, const char *path, const wm_options *opts,
                                int overwrite)
{
    bwm_plane_style planes;
    bwm_file file, source;
    uint32_t type = type_for_path(path);
    int have_source;
    wm_result r = parse_planes(ctx, opts, &planes);
    if (r) return r;

    r = load_native_source(ctx, opts, &source, &have_source);
    if (r) return r;
    if (have_source && source.type == type && bwm_matches_mesh(ctx, &source, mesh)) {
        file = source; /* native data kept as is, so an unmodified file stays byte-identical */
        have_source = 0;
        if (wm_option_flag(opts, "rebuild") || wm_option_get(opts, "plane-style")) r = bwm_rebuild(ctx, &file, planes, 1);
    } else {
        r = bwm_from_mesh(ctx, mesh, type, opts->weld_tolerance, planes, &file);
        if (!r && have_source) {
            memcpy(file.rel_hook, source.rel_hook, sizeof file.rel_hook);
            memcpy(file.abs_hook, source.abs_hook, sizeof file.abs_hook);
            memcpy(file.position, source.position, sizeof file.position);
            if (!mesh_has_transitions(mesh)) r = restore_transitions(ctx, &source, &file, opts->weld_tolerance);
        }
    }
    if (have_source) bwm_file_free(ctx, &source);
    if (r) return r;
    r = parse_vec3(ctx, opts, "hook1", file.rel_hook[0]);
    if (!r) r = parse_vec3(ctx, opts, "hook2", file.rel_hook[1]);
    if (!r) r = parse_vec3(ctx, opts, "abs-hook1", file.abs_hook[0]);
    if (!r) r = parse_vec3(ctx, opts, "abs-hook2", file.abs_hook[1]);
    if (!r) r = parse_vec3(ctx, opts, "position", file.position);
    if (!r) r = bwm_write_file(ctx, &file, path, overwrite);
    bwm_file_free(ctx, &file);
    return r;
}

typedef enum report_kind { REPORT_VALIDATE, REPORT_INFO } report_kind;

/* Reads and parses the file, then fills the report with findings or facts. */
static wm_result report_on_file(wm_ctx *ctx, const char *path, wm_report *report, report_kind kind)
{
    uint8_t *data = NULL;
    size_t size = 0;
    bwm_file file;
    wm_result r = wm_file_read(ctx, path, &data, &size);
    if (r) return r;
    r = bwm_parse(ctx, data, size, path, &file);
    wm_free(ctx, data);
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
    "bwm",
    "KotOR binary walkmesh (.wok area, .pwk placeable, .dwk door)",
    bwm_extensions,
    bwm_probe,
    bwm_read_hook,
    bwm_write_hook,
    bwm_info_hook,
    bwm_validate_hook,
    bwm_options,
};
