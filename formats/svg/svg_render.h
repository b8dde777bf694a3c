/* `walkmesh render`: one SVG picture per file, drawn from the format
 * module's native data (KotOR BWM, NWN2 TRN/TRX, WoW WMO; any other
 * readable format through the neutral mesh). Every picture has the file
 * name as title, a labelled grid in game units, a scale bar, axis arrows
 * and a legend listing only what is drawn. See docs/render.md. */
#ifndef WM_SVG_RENDER_H
#define WM_SVG_RENDER_H

#include "walkmesh.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum svg_view {
    SVG_VIEW_TOP = 0, /* looking down -Z: x right, y up (north) */
    SVG_VIEW_FRONT,   /* looking along +Y: x right, z up */
    SVG_VIEW_SIDE,    /* looking along -X: y right, z up */
    SVG_VIEW_ISO      /* fixed isometric view from the -X -Y +Z corner */
} svg_view;

typedef struct svg_render_options {
    svg_view view;
    const char *select;  /* KotOR surface, NWN2 tile or tile range "A-B", WMO group number; NULL: all */
    int has_path;        /* NWN2: route from path[0],path[1] to path[2],path[3] */
    float path[4];
    const char *git_path; /* NWN2: walkmesh cutters of this GIT */
    int floors;          /* WMO: only upward-facing (walkable by slope) collision */
    int liquids;         /* WMO: MLIQ liquid tiles */
} svg_render_options;

/* Reads the render options from module options "view", "select", "path"
 * ("X1,Y1 X2,Y2"), "git", "floors" and "liquids". Errors are WM_ERR_OPTION. */
wm_result svg_render_options_parse(wm_ctx *ctx, const wm_options *opts, svg_render_options *out);

/* Draws in_path (format NULL: detected) into out_path. opts carries the
 * render options above and the reading options (materials via ctx). */
wm_result svg_render_file(wm_ctx *ctx, const char *in_path, const wm_format *format, const char *out_path,
                          const wm_options *opts, int overwrite);

#ifdef __cplusplus
}
#endif
#endif
