/* The neutral mesh being built by an importer (Assimp's scene walk or the
 * OBJ reader): axes and units, material names -> surfaces, slope
 * classification of faces without a known material, transition edges, the
 * orientation check, and the warnings that count what happened. */
#ifndef WM_IMPORT_STATE_H
#define WM_IMPORT_STATE_H

#include "assimp_module.h"

typedef struct import_state {
    wm_ctx *ctx;
    const wm_options *opts;
    wm_options defaults; /* opts when the caller gave none */
    wm_mesh *out;
    int y_up;
    int axis_from_file; /* the file states its up axis (glTF, FBX): no orientation guess */
    float scale;        /* file units -> game units */
    float slope;        /* degrees: faces without a known material steeper than this block */
    const char *path;
    /* per material: name (owned by the caller), surface, walkable, known */
    const char *const *material_names;
    unsigned material_count;
    uint16_t *material_surface;
    uint8_t *material_walkable;
    uint8_t *material_known;
    /* faces without a known material, per material and for faces without any, and how many became walkable */
    uint32_t *unknown_faces, *unknown_walkable;
    uint32_t none_faces, none_walkable;
    /* area of candidate floor faces (walkable or unknown material): total, facing up, facing down,
     * and facing up if the other up axis were right */
    double floor_area, up_area, down_area, other_axis_up_area;
    /* transition edges read from "transition_<value>" line objects, game axes */
    float *segment_points; /* 6 per segment */
    int32_t *segment_values;
    size_t segment_count, segment_capacity;
    /* "transition_<value>" objects that arrived without any edge */
    unsigned empty_transition_objects;
    char first_empty_transition[64];
} import_state;

/* Sets up st for path (--up, --scale, --walkable-slope; glTF is Y-up); opts may be NULL. */
wm_result wm_import_begin(import_state *st, wm_ctx *ctx, const char *path, const char *ext, const wm_options *opts,
                          wm_mesh *out);
/* Maps count material names (placeholders allowed) to surfaces. */
wm_result wm_import_materials(import_state *st, const char *const *names, unsigned count);
/* Adds one material slot (index material_count); the caller keeps
 * material_names pointing at all names so far. */
wm_result wm_import_add_material(import_state *st, const char *name);
/* File coordinates -> game units, Z-up, in place. */
void wm_import_to_game(const import_state *st, float v[3]);
/* Adds a vertex given in file coordinates. */
wm_result wm_import_vertex(import_state *st, const float file_xyz[3]);
/* Adds a triangle of material (>= material_count: none) in object; classifies it by slope when the material is unknown. */
wm_result wm_import_triangle(import_state *st, uint32_t a, uint32_t b, uint32_t c, unsigned material, uint16_t object);
/* "transition_<value>" names the objects that carry transition edges. */
int wm_import_transition_value(const char *name, int32_t *value);
/* A transition edge between two points in game axes. */
wm_result wm_import_segment(import_state *st, const float p[3], const float q[3], int32_t value);
/* "point_<name>" objects carry a named point of the mesh (wm_mesh_set_point):
 * the name after the prefix, or NULL for other objects. */
const char *wm_import_point_name(const char *object_name);
/* The point is the lower end (game z) of the object's edge p-q. */
wm_result wm_import_point(import_state *st, const char *name, const float p[3], const float q[3]);
/* A transition object that held no edge (its transitions were lost on the way). */
void wm_import_empty_transition_object(import_state *st, const char *name);
/* Warnings, weld, transitions onto edges; frees st. On failure (r or its own) empties the mesh. */
wm_result wm_import_finish(import_state *st, wm_result r);

#endif
