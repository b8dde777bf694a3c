/* Findings about a walkmesh's walkable regions, added to `validate`'s report whatever the
 * format (the driver calls it; formats/walk_findings.c). */
#ifndef WM_WALK_FINDINGS_H
#define WM_WALK_FINDINGS_H

#include "wm_format.h"
#include "wm_mesh.h"

/* Warns about each small walkable region (under a tenth of the largest one's area) whose
 * whole border meets blocking faces: ground nothing can walk onto or off. */
wm_result wm_walk_findings(wm_ctx *ctx, const wm_mesh *mesh, wm_report *report);

#endif
