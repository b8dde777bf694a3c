/* The walk graph's layout, shared by its builder, the route search and reach (core only). */
#ifndef WM_WALK_GRAPH_INTERNAL_H
#define WM_WALK_GRAPH_INTERNAL_H

#include "wm_geometry.h"
#include "wm_route.h"

struct wm_walk_graph {
    uint32_t vertex_count, triangle_count;
    float *positions;        /* 3 per vertex, copied from the mesh */
    uint32_t *indices;       /* 3 per face */
    uint8_t *walkable;       /* per face */
    int32_t *neighbour;      /* 3 per face: the joined walkable face's edge code (face*3+edge), -1 none */
    uint8_t *open;           /* 3 per face: a walkable face's edge joined to no face at all */
    uint8_t *corner;         /* per vertex: on the border of the walkable ground (a route may turn there) */
    uint32_t *region;        /* per face, WM_NO_REGION for blocking faces */
    uint32_t region_count;
    uint32_t *region_faces;  /* per region: its face count */
    uint32_t *fan_start;     /* vertex_count + 1: each vertex's walkable corners in fan_corners */
    uint32_t *fan_corners;   /* face*3+corner of every walkable face at the vertex */
    uint32_t *walkable_faces; /* the walkable faces in order, and their tree over walkable_indices */
    uint32_t *walkable_indices;
    uint32_t walkable_count;
    wm_aabb_tree tree;
    /* wm_walk_graph_add_landmarks: per face, 2 per landmark, a lower and an upper bound of the
     * plan distance from the landmark to every point of the face (0 and infinite where the
     * landmark's search did not reach) */
    uint32_t landmark_count;
    float *landmarks;
};

static inline const float *walk_vertex(const wm_walk_graph *graph, uint32_t face, uint32_t corner)
{
    return graph->positions + 3 * (size_t)graph->indices[3 * (size_t)face + corner];
}

/* Height of face's plane at (x, y) (its first vertex's height when the face is vertical). */
float walk_face_height(const wm_walk_graph *graph, uint32_t face, double x, double y);
/* The centre of a face (the mean of its corners). */
void walk_face_centre(const wm_walk_graph *graph, uint32_t face, float out[3]);
/* 3-D area of a face. */
double walk_face_area(const wm_walk_graph *graph, uint32_t face);

#endif
