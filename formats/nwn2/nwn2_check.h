/* Shared by the TRN/TRX validator (nwn2_validate.c) and its check files
 * (nwn2_check_mesh.c, nwn2_check_paths.c): the findings sink, which caps
 * how many findings are listed, and small predicates used by both. */
#ifndef NWN2_CHECK_H
#define NWN2_CHECK_H

#include "nwn2.h"

#include <math.h>

#define NWN2_CHECK_MAX_LISTED 200u

typedef struct nwn2_check_state {
    wm_report *rep;
    wm_ctx *ctx;
    const nwn2_aswm *a;
    uint32_t listed;
    uint32_t dropped[3];
} nwn2_check_state;

/* Adds a finding, or counts it as dropped past NWN2_CHECK_MAX_LISTED. */
void nwn2_check_add(nwn2_check_state *v, wm_severity sev, const char *where, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(4, 5)
#endif
    ;

/* Formats a location into buf and returns buf. */
const char *nwn2_check_where(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    WM_PRINTF(3, 4)
#endif
    ;

static inline int nwn2_check_near(double stored, double computed, double tol)
{
    return fabs(stored - computed) <= tol * (1.0 + fabs(computed));
}

static inline int nwn2_check_walkable(const nwn2_aswm *a, uint32_t t)
{
    return t < a->triangle_count && (a->triangles[t].flags & NWN2_TRI_WALKABLE);
}

/* nwn2_check_mesh.c: container, header, vertices, edges, triangles. */
void nwn2_check_container(nwn2_check_state *v, const nwn2_file *f);
void nwn2_check_header_and_vertices(nwn2_check_state *v);
void nwn2_check_edges(nwn2_check_state *v);
void nwn2_check_triangle(nwn2_check_state *v, uint32_t t);
wm_result nwn2_check_duplicates(nwn2_check_state *v);

/* nwn2_check_paths.c: tiles and their path tables, islands, island paths.
 * owner has triangle_count entries preset to NWN2_NONE32; members, state,
 * steps and stack have island_count entries. */
void nwn2_check_tiles(nwn2_check_state *v, int baked, uint32_t *owner);
void nwn2_check_islands(nwn2_check_state *v, const uint32_t *owner, uint32_t *members);
void nwn2_check_island_paths(nwn2_check_state *v, uint8_t *state, uint32_t *steps, uint32_t *stack);

#endif
