/* The walkable ground of a mesh as the route tests see it, computed on the triangles alone:
 * which faces lie over a point in plan, a 5 cm raster's shortest way between two points, and
 * where the ground folds over itself. The raster covers the ellipse of points x with
 * |s-x| + |x-t| <= reach: any shorter way lies inside it, so bounding it there keeps the
 * check whole. */
#ifndef ROUTE_GROUND_H
#define ROUTE_GROUND_H

#include <stdint.h>

#include "walkmesh.h"

typedef struct cover {
    const wm_mesh *mesh;
    const uint32_t *klass;   /* per face, UINT32_MAX for blocking */
    double lo[2];
    uint32_t w, h;
    uint32_t *start, *items; /* faces per 1 m bucket */
    double height_span;      /* the mesh's highest vertex above its lowest */
} cover;

/* Corner k of face t. */
const float *vtx(const wm_mesh *m, uint32_t t, int k);
void cover_build(cover *c, const wm_mesh *m, const uint32_t *klass);
void cover_free(cover *c);
/* Whether (x, y) lies in face t in plan, within slack (distance to each edge line). */
int inside(const wm_mesh *m, uint32_t t, double x, double y, double slack, double *height);
/* Faces of class want (UINT32_MAX: any walkable) over (x, y): how many, and the spread of their heights. */
int covered(const cover *c, double x, double y, uint32_t want, double slack, double *spread, uint32_t *face);
/* 16-neighbour Dijkstra from s to t over the cells of class klass inside the ellipse of plan
 * length reach: the length, INFINITY when the raster does not join them. */
double raster_length(const cover *c, uint32_t klass, const double s[2], const double t[2], double reach,
                     int *multilevel);
/* Samples of the route, every 10 cm in plan, over no walkable face (0.1 mm of slack). */
unsigned off_ground(const cover *c, const wm_route *route);
double straight3(const float *a, const float *b);
/* The longest a route of this plan length may be over the ground: no walkable slope (60 degrees
 * at most) doubles a leg, and the climbs at faces on edge go up and down at most the mesh's
 * height twice over. */
double longest_over_ground(const cover *c, double plan);
/* Per face: 1 when it and a walkable face across an edge of it lie over 0.1 mm to one side. */
uint8_t *find_folds(const wm_mesh *m);

#endif
