/* The single list of format modules, and lookup by name, extension or content. */
#define _POSIX_C_SOURCE 200809L
#include "wm_format.h"
#include "wm_io.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

extern const wm_format wm_format_assimp;
extern const wm_format wm_format_bwm;
extern const wm_format wm_format_bwm_ascii;
extern const wm_format wm_format_nwn2;
extern const wm_format wm_format_wmo;
extern const wm_format wm_format_svg;

static const wm_format *const registry[] = {
    &wm_format_assimp,
    &wm_format_bwm,
    &wm_format_bwm_ascii,
    &wm_format_nwn2,
    &wm_format_wmo,
    &wm_format_svg,
};

const wm_format *const *wm_formats(size_t *out_count)
{
    *out_count = sizeof registry / sizeof registry[0];
    return registry;
}

const wm_format *wm_format_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (strcasecmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

static const char *extension_of(const char *path)
{
    const char *dot = strrchr(wm_path_file_name(path), '.');
    if (!dot || !dot[1])
        return NULL;
    return dot + 1;
}

static int claims_extension(const wm_format *format, const char *ext)
{
    for (const char *const *e = format->extensions; e && *e; e++)
        if (strcasecmp(*e, ext) == 0)
            return 1;
    return 0;
}

/* Formats that claim the extension and can read (or write). */
static size_t matching_formats(const char *path, int for_writing, const wm_format **out, size_t max)
{
    const char *ext = extension_of(path);
    size_t n = 0;
    if (!ext)
        return 0;
    for (size_t i = 0; i < sizeof registry / sizeof registry[0] && n < max; i++) {
        const wm_format *f = registry[i];
        if ((for_writing ? f->write != NULL : f->read != NULL) && claims_extension(f, ext))
            out[n++] = f;
    }
    return n;
}

wm_result wm_format_by_extension(wm_ctx *ctx, const char *path, int for_writing, const wm_format **out)
{
    const wm_format *found[16];
    size_t n = matching_formats(path, for_writing, found, 16);
    *out = NULL;
    const char *ext = extension_of(path);
    if (n == 0)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: no format %s '.%s' files (see 'walkmesh formats')", path,
                        for_writing ? "writes" : "reads", ext ? ext : "");
    if (n > 1)
        return wm_error(ctx, WM_ERR_AMBIGUOUS, "%s: '.%s' is claimed by '%s' and '%s': name one with --%s", path, ext,
                        found[0]->name, found[1]->name, for_writing ? "to" : "from");
    *out = found[0];
    return WM_OK;
}

wm_result wm_format_probe(wm_ctx *ctx, const wm_input *in, const wm_format *const *candidates,
                          size_t candidate_count, const wm_format **out)
{
    *out = NULL;
    if (!candidates) {
        candidates = registry;
        candidate_count = sizeof registry / sizeof registry[0];
    }
    int best = 0;
    const wm_format *winner = NULL, *tied = NULL;
    for (size_t i = 0; i < candidate_count; i++) {
        const wm_format *f = candidates[i];
        if (!f->probe || !f->read)
            continue;
        int score = f->probe(in);
        if (score > best) {
            best = score;
            winner = f;
            tied = NULL;
        } else if (score == best && score > 0) {
            tied = f;
        }
    }
    if (!winner)
        return wm_error(ctx, WM_ERR_NOT_FORMAT, "%s: not a format walkmesh recognises (see 'walkmesh formats')",
                        in->name);
    if (tied)
        return wm_error(ctx, WM_ERR_AMBIGUOUS, "%s: could be '%s' or '%s' (both score %d): name one with --from",
                        in->name, winner->name, tied->name, best);
    *out = winner;
    return WM_OK;
}

wm_result wm_format_detect(wm_ctx *ctx, const wm_input *in, const wm_format **out)
{
    const wm_format *found[16];
    size_t n = matching_formats(in->name, 0, found, 16);
    if (n == 1) {
        *out = found[0];
        return WM_OK;
    }
    return wm_format_probe(ctx, in, n > 1 ? found : NULL, n, out);
}
