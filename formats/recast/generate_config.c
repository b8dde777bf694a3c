/* The generator's per-game defaults. Where each value comes from is in docs/generate.md. */
#include "wm_generate.h"
#include "wm_surface.h"

#include <string.h>

static void common(const wm_ctx *ctx, wm_generate_config *c)
{
    memset(c, 0, sizeof *c);
    c->walkable_surface = wm_surface_named(wm_surfaces(ctx), "stone");
    c->keep_fraction = 0.2f, c->detail = 6.0f;
}

wm_result wm_generate_config_game(wm_ctx *ctx, const char *game, wm_generate_config *c)
{
    common(ctx, c);
    if (strcmp(game, "kotor") == 0) {
        c->agent_height = 1.8f, c->agent_radius = 0.0f, c->max_slope = 30.0f, c->max_climb = 0.4f;
        c->min_area = 1.0f, c->max_error = 0.1f, c->cell_size = 0.1f, c->cell_height = 0.05f;
    } else if (strcmp(game, "nwn") == 0) {
        c->agent_height = 1.8f, c->agent_radius = 0.0f, c->max_slope = 45.0f, c->max_climb = 0.5f;
        c->min_area = 1.0f, c->max_error = 0.1f, c->cell_size = 0.1f, c->cell_height = 0.05f;
    } else if (strcmp(game, "wow") == 0) {
        const float unit = 0.2666666f; /* TrinityCore's voxel (docs/recast.md) */
        c->agent_height = 6 * unit, c->agent_radius = 0.0f, c->max_slope = 55.0f, c->max_climb = 6 * unit;
        c->min_area = 1.0f, c->max_error = 0.3f, c->cell_size = unit, c->cell_height = unit;
    } else {
        return wm_error(ctx, WM_ERR_OPTION, "generate: no defaults for game '%s' (kotor, nwn, wow)", game);
    }
    return WM_OK;
}
