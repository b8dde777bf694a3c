/* Walkmesh cutters of an area's GIT file (a GFF): the polygons the bake
 * cuts out of the walkmesh. Read here, outside the bake, which only takes
 * the polygons. */
#ifndef WM_NWN2_GIT_H
#define WM_NWN2_GIT_H

#include "nwn2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Corners over all cutters of a GIT are capped (real GITs have at most a few
 * hundred); cutting costs O(n log n) in them, so the cap only bounds memory. */
#define NWN2_MAX_CUTTER_POINTS 16384u

/* A walkmesh cutter: a closed polygon in x/y (GIT trigger of Type 3). */
typedef struct nwn2_cutter {
    float *points;        /* 2 per point, owned */
    uint32_t point_count;
    uint32_t source_index; /* position of the trigger in the GIT's TriggerList */
} nwn2_cutter;

typedef struct nwn2_cutter_set {
    nwn2_cutter *cutters;
    uint32_t count;
} nwn2_cutter_set;

void nwn2_cutter_set_free(const wm_ctx *ctx, nwn2_cutter_set *set);
/* Walkmesh cutters of an area's GIT (GFF): every TriggerList entry with
 * Type 3 and at least 3 Geometry points; point = (XPosition + PointX,
 * YPosition + PointY). */
wm_result nwn2_git_cutters(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, nwn2_cutter_set *out);
wm_result nwn2_git_read_cutters(wm_ctx *ctx, const char *path, nwn2_cutter_set *out);

#ifdef __cplusplus
}
#endif
#endif
