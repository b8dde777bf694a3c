/* The walkmesh a writer makes of a neutral mesh: the conversion's own source
 * (or --base) kept byte for byte when it holds the same mesh, else built,
 * with the header from the source, the mesh's points and the options. */
#include "bwm/bwm.h"
#include "wm_geometry.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
        if (!isfinite(out[k]) || fabsf(out[k]) > WM_COORD_LIMIT)
            return wm_error(ctx, WM_ERR_OPTION, "--%s: \"%s\": coordinates must be finite, within 1e7 game units",
                            name, v);
        p = end;
        if (k < 2) {
            if (*p != ',') return wm_error(ctx, WM_ERR_OPTION, "--%s: \"%s\" is not X,Y,Z", name, v);
            p++;
        }
    }
    if (*p) return wm_error(ctx, WM_ERR_OPTION, "--%s: \"%s\" is not X,Y,Z", name, v);
    return WM_OK;
}

/* The conversion source when it is a KotOR walkmesh itself, binary or text (handed over
 * by the driver, never re-read), else --base. The source is optional; a --base that is
 * not a readable walkmesh is an error. */
static wm_result load_native_source(wm_ctx *ctx, const wm_options *opts, bwm_file *out, int *loaded)
{
    size_t size;
    *loaded = 0;
    if (opts->source && opts->source_format &&
        (strcmp(opts->source_format->name, "bwm") == 0 || strcmp(opts->source_format->name, "bwm-ascii") == 0)) {
        wm_ctx quiet = *ctx; /* the source was read once already: its messages are said */
        quiet.warn = NULL;
        if (bwm_parse_any(&quiet, opts->source->data, opts->source->size, opts->source->name, out, &size) == WM_OK) {
            *loaded = 1;
            return WM_OK;
        }
    }
    if (!opts->base_path) return WM_OK;
    wm_input base;
    wm_result r = wm_input_load(ctx, opts->base_path, &base);
    if (!r && !(base.size >= 8 && memcmp(base.data, "BWM V1.0", 8) == 0) && !bwm_is_text(base.data, base.size))
        r = wm_error(ctx, WM_ERR_NOT_FORMAT,
                     "--base %s: the output needs a base of format bwm (a KotOR walkmesh, binary or ASCII), and this "
                     "file is not one",
                     opts->base_path);
    else if (!r)
        r = bwm_parse_any(ctx, base.data, base.size, base.name, out, &size);
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

/* The header as written: a source kept byte for byte brings its own hooks and position,
 * which no mesh point carries (a WOK's hooks), so they are checked here too. */
static wm_result header_within_bound(wm_ctx *ctx, const bwm_file *f)
{
    const float *points[5] = {f->rel_hook[0], f->rel_hook[1], f->abs_hook[0], f->abs_hook[1], f->position};
    static const char *const what[5] = {"relative use hook 1 (0x0C)", "relative use hook 2 (0x18)",
                                        "absolute use hook 1 (0x24)", "absolute use hook 2 (0x30)", "position (0x3C)"};
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < 3; k++)
            if (!(fabsf(points[i][k]) <= WM_COORD_LIMIT))
                return wm_error(ctx, WM_ERR_INVALID, "header %s (%g, %g, %g) is beyond the bound of 1e7 game units: "
                                "nothing written", what[i], (double)points[i][0], (double)points[i][1],
                                (double)points[i][2]);
    return WM_OK;
}

static wm_result file_for_mesh(wm_ctx *ctx, const wm_mesh *mesh, uint32_t type, const wm_options *opts,
                               int for_writing, bwm_file *out)
{
    bwm_plane_style planes;
    bwm_file file, source;
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
        r = for_writing ? bwm_from_mesh_for_writing(ctx, mesh, type, opts->weld_tolerance, planes, &file)
                        : bwm_from_mesh(ctx, mesh, type, opts->weld_tolerance, planes, &file);
        if (!r) bwm_points_from_mesh(mesh, &file);
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
    if (!r) r = header_within_bound(ctx, &file);
    if (r)
        bwm_file_free(ctx, &file);
    else
        *out = file;
    return r;
}


wm_result bwm_file_for_mesh(wm_ctx *ctx, const wm_mesh *mesh, uint32_t type, const wm_options *opts, bwm_file *out)
{
    return file_for_mesh(ctx, mesh, type, opts, 0, out);
}

wm_result bwm_file_for_writing(wm_ctx *ctx, const wm_mesh *mesh, uint32_t type, const wm_options *opts,
                               bwm_file *out)
{
    return file_for_mesh(ctx, mesh, type, opts, 1, out);
}
