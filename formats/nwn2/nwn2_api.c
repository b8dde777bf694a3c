/* The public bake (wm_nwn2.h) over the module's own: parse, bake in place, serialise. */
#include "bake.h"
#include "wm_nwn2.h"
#include "wm_parallel.h"

#include <string.h>

void wm_nwn2_bake_options_init(wm_nwn2_bake_options *opts)
{
    memset(opts, 0, sizeof *opts);
}

static void copy_stats(const nwn2_bake_stats *from, const nwn2_aswm *a, uint32_t cutters, wm_nwn2_bake_stats *to)
{
    memset(to, 0, sizeof *to);
    to->triangles = a->triangle_count;
    to->walkable_triangles = from->walkable_triangles;
    to->grid_width = a->grid_width;
    to->grid_height = a->grid_height;
    to->island_count = from->island_count;
    to->max_tile_nodes = from->max_tile_nodes;
    to->border_removed = from->border_removed;
    to->split_added = from->split_added;
    to->cut_removed = from->cut_removed;
    to->cutter_count = cutters;
    to->whole_cutters = from->whole_cutters;
    to->kept_layout = from->kept_layout;
}

static wm_result bake_file(wm_ctx *ctx, nwn2_file *file, const char *source, const wm_nwn2_bake_options *opts,
                           const nwn2_cutter_set *cutters, nwn2_bake_stats *stats)
{
    if (file->aswm_packet < 0)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: no ASWM walkmesh packet to bake", source);
    nwn2_bake_options native;
    nwn2_bake_options_init(&native);
    native.keep_borders = opts->keep_borders;
    native.cut_whole_triangles = opts->cut_whole_triangles;
    native.threads = opts->threads ? opts->threads : wm_processor_count();
    native.cutters = cutters->count ? cutters : NULL;
    native.progress = opts->progress;
    native.progress_user = opts->progress_user;
    file->deflate_threads = native.threads; /* the re-baked walkmesh too, when large */
    wm_result r = nwn2_bake(ctx, &file->aswm, &native, stats);
    if (r)
        wm_error_prefix(ctx, source);
    return r;
}

wm_result wm_nwn2_bake(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source,
                       const wm_nwn2_bake_options *opts, wm_buffer *out, wm_nwn2_bake_stats *stats)
{
    wm_nwn2_bake_options defaults;
    if (!opts) {
        wm_nwn2_bake_options_init(&defaults);
        opts = &defaults;
    }
    nwn2_cutter_set cutters = {0};
    nwn2_file file;
    nwn2_file_init(&file);
    nwn2_bake_stats native_stats;
    memset(&native_stats, 0, sizeof native_stats);
    wm_result r = WM_OK;
    if (opts->git)
        r = nwn2_bake_cutters_from_git(ctx, opts->git, opts->git_size, opts->git_source ? opts->git_source : "GIT",
                                       &cutters);
    if (!r)
        r = nwn2_file_parse_borrowing(ctx, data, size, source, &file); /* data outlives file */
    if (!r)
        r = bake_file(ctx, &file, source, opts, &cutters, &native_stats);
    if (!r)
        r = nwn2_file_serialize(ctx, &file, -1, out);
    if (!r && stats)
        copy_stats(&native_stats, &file.aswm, cutters.count, stats);
    nwn2_file_free(ctx, &file);
    nwn2_cutter_set_free(ctx, &cutters);
    return r;
}
