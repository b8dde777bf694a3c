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

static int bwm_probe(const wm_input *in)
{
    if (in->size < 12 || memcmp(in->data, "BWM V1.0", 8) != 0) return 0;
    return in->size >= BWM_HEADER_SIZE ? 100 : 60;
}

static void base_name(const char *path, char *out, size_t size)
{
    const char *start = wm_path_file_name(path);
    snprintf(out, size, "%s", start);
    char *dot = strrchr(out, '.');
    if (dot && dot != out) *dot = 0;
}

static wm_result bwm_read_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out,
                               wm_report *facts)
{
    bwm_file file;
    char name[128];
    (void)opts;
    wm_mesh_init(out);
    wm_result r = bwm_parse(ctx, in->data, in->size, in->name, &file);
    if (r) return r;
    base_name(in->name, name, sizeof name);
    r = bwm_to_mesh(ctx, &file, name, out);
    if (r) wm_error_prefix(ctx, in->name);
    if (!r && facts) {
        bwm_info(&file, ctx, facts);
        r = facts->status;
    }
    bwm_file_free(ctx, &file);
    if (r) wm_mesh_free(ctx, out);
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

/* The conversion source when it is a BWM itself (handed over by the driver, never re-read),
 * else --base. The source is optional; a --base that is not a readable BWM is an error. */
static wm_result load_native_source(wm_ctx *ctx, const wm_options *opts, bwm_file *out, int *loaded)
{
    *loaded = 0;
    if (opts->source && opts->source_format == &wm_format_bwm) {
        wm_ctx quiet = *ctx; /* the source was read once already: its messages are said */
        quiet.warn = NULL;
        if (bwm_parse(&quiet, opts->source->data, opts->source->size, opts->source->name, out) == WM_OK) {
            *loaded = 1;
            return WM_OK;
        }
    }
    if (!opts->base_path) return WM_OK;
    wm_input base;
    wm_result r = wm_input_load(ctx, opts->base_path, &base);
    if (!r && !bwm_probe(&base))
        r = wm_error(ctx, WM_ERR_NOT_FORMAT, "--base %s: not a KotOR binary walkmesh", opts->base_path);
    else if (!r)
        r = bwm_parse(ctx, base.data, base.size, base.name, out);
    wm_input_free(ctx, &base);
    if (r) {
        if (r != WM_ERR_NOT_FORMAT) wm_error_prefix(ctx, "--base");
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

static wm_result bwm_write_hook(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, const wm_options *opts)
{
    bwm_plane_style planes;
    bwm_file file, source;
    uint32_t type = type_for_path(wm_sink_path(sink));
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
    if (!r) r = bwm_write_sink(ctx, &file, sink);
    bwm_file_free(ctx, &file);
    return r;
}

static wm_result bwm_validate_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_report *report)
{
    bwm_file file;
    (void)opts;
    wm_result r = bwm_parse(ctx, in->data, in->size, in->name, &file);
    if (r) return r;
    r = bwm_validate(ctx, &file, in->size, report);
    bwm_file_free(ctx, &file);
    return r ? r : report->status;
}

const wm_format wm_format_bwm = {
    .name = "bwm",
    .description = "KotOR binary walkmesh (.wok area, .pwk placeable, .dwk door)",
    .extensions = bwm_extensions,
    .capabilities = WM_CAN_TRANSITIONS,
    .probe = bwm_probe,
    .read = bwm_read_hook,
    .write = bwm_write_hook,
    .validate = bwm_validate_hook,
    .options = bwm_options,
};
