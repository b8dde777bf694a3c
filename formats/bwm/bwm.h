/* KotOR binary walkmeshes (.wok area, .pwk placeable, .dwk door): the
 * native file model, byte-exact parse/serialize, the BioWare-style builder,
 * conversion to and from the neutral mesh, independent validation and
 * spatial queries through the file's own AABB tree.
 * Layout facts: ../shared/FORMAT-NOTES.md section 1. */
#ifndef WM_BWM_H
#define WM_BWM_H

#include "wm_format.h"
#include "wm_io.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BWM_HEADER_SIZE 136u
#define BWM_TYPE_PLACEABLE 0u /* .pwk / .dwk */
#define BWM_TYPE_AREA 1u      /* .wok */
#define BWM_NONE 0xFFFFFFFFu  /* AABB child "none" */
#define BWM_AABB_CONSTANT 4u  /* the u32 before the plane flag in every node */

/* Sections in file order (also the order of bwm_file.offsets). */
enum {
    BWM_SEC_VERTICES, BWM_SEC_FACES, BWM_SEC_MATERIALS, BWM_SEC_NORMALS, BWM_SEC_DISTANCES,
    BWM_SEC_AABB, BWM_SEC_ADJACENCY, BWM_SEC_EDGES, BWM_SEC_PERIMETERS, BWM_SEC_COUNT
};

typedef struct bwm_aabb_node {
    float min[3], max[3];
    int32_t face;      /* -1 on internal nodes */
    uint32_t constant; /* always 4 in real files */
    uint32_t plane;    /* 0 leaf; 1/2/4 = +X/+Y/+Z, 8/16/32 = -X/-Y/-Z */
    uint32_t left, right; /* 0-based node indices, BWM_NONE = none */
} bwm_aabb_node;

typedef struct bwm_edge {
    uint32_t code;      /* face*3 + edge */
    int32_t transition; /* -1 or a room index */
} bwm_edge;

typedef struct bwm_file {
    uint32_t type;
    float rel_hook[2][3]; /* 0x0C, 0x18 */
    float abs_hook[2][3]; /* 0x24, 0x30 */
    float position[3];    /* 0x3C */
    uint32_t aabb_root;   /* 0x6C, always 0 in real files */
    /* offsets as read (serialize recomputes the contiguous layout; an empty
     * section keeps offset 0 when empty_offsets_zero, else its position) */
    uint32_t offsets[BWM_SEC_COUNT];
    int empty_offsets_zero;

    float *vertices;   uint32_t vertex_count;   /* 3 per vertex, absolute */
    uint32_t *faces;   uint32_t face_count;     /* 3 per face */
    uint32_t *materials;                        /* face_count */
    float *normals;                             /* 3 per face */
    float *distances;                           /* face_count */
    bwm_aabb_node *aabb; uint32_t aabb_count;
    int32_t *adjacency; uint32_t adjacency_count; /* rows of 3 */
    bwm_edge *edges;   uint32_t edge_count;
    uint32_t *perimeters; uint32_t perimeter_count;
} bwm_file;

void bwm_file_init(bwm_file *file);
void bwm_file_free(const wm_ctx *ctx, bwm_file *file);

/* Parses a whole file image. Counts are checked against the bytes and the
 * limits before any allocation; face vertex indices are checked. Other
 * invariants (tree, adjacency...) are left to bwm_validate. */
wm_result bwm_parse(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, bwm_file *out);
wm_result bwm_read_file(wm_ctx *ctx, const char *path, bwm_file *out);
/* Contiguous layout in section order; an unmodified parsed file comes back byte-identical. */
wm_result bwm_serialize(wm_ctx *ctx, const bwm_file *file, wm_buffer *out);
/* The same bytes written to path through the atomic file writer, a block at a
 * time (no whole file image in memory). */
wm_result bwm_write_file(wm_ctx *ctx, const bwm_file *file, const char *path, int overwrite);
/* The same into a sink's main output (the caller commits). */
wm_result bwm_write_sink(wm_ctx *ctx, const bwm_file *file, wm_sink *sink);

/* AABB plane flag styles. */
typedef enum bwm_plane_style {
    BWM_PLANES_BIOWARE = 0, /* signed: 1,2,4 / 8,16,32 */
    BWM_PLANES_KOTORMAX     /* unsigned: 1,2,4 */
} bwm_plane_style;

/* What the builder starts from: geometry, materials, per-face-edge transitions. */
typedef struct bwm_build_input {
    uint32_t type;
    const float *vertices; uint32_t vertex_count;
    const uint32_t *faces; uint32_t face_count;
    const uint32_t *materials;   /* surfacemat ids */
    const uint8_t *walkable;     /* per face; NULL: from the surface table */
    const int32_t *transitions;  /* 3 per face (input order), NULL: none */
    bwm_plane_style planes;
    /* plane of zero-area faces (input order), e.g. from the file being rebuilt;
     * NULL: normal (0,0,1) through the face */
    const float *normals, *distances;
    /* order among faces whose centroids tie on a split axis (input order);
     * NULL: face index. BioWare's tie order is not derivable from geometry,
     * so a rebuild can take it from the file's existing leaf order. */
    const uint32_t *tie_rank;
} bwm_build_input;

/* Derives everything: stable walkable-first order, normals, distances, AABB
 * tree (WOK), adjacency, boundary edges with transitions, perimeter loops.
 * Header fields (hooks, position) are left zero. Warns about non-manifold
 * walkable edges, downward walkable faces and degenerate faces. */
wm_result bwm_build(wm_ctx *ctx, const bwm_build_input *in, bwm_file *out);
/* Rebuilds a parsed file in place from its own geometry/materials/transitions.
 * keep_tie_order: break centroid ties by the file's current AABB leaf order
 * (when its tree is sound), so unmodified geometry gives back BioWare's tree. */
wm_result bwm_rebuild(wm_ctx *ctx, bwm_file *file, bwm_plane_style planes, int keep_tie_order);

/* The AABB builder alone (F faces -> 2F-1 nodes in out, preorder). out must
 * have room for 2F-1 + BWM_AABB_SPARE_NODES nodes: the builder keeps its
 * working records in that memory instead of allocating scratch. */
#define BWM_AABB_SPARE_NODES 34u
wm_result bwm_build_aabb(wm_ctx *ctx, const float *vertices, const uint32_t *faces, uint32_t face_count,
                         const uint32_t *tie_rank, bwm_plane_style planes, bwm_aabb_node *out);

/* Walkability of a surfacemat id through the context's surface table. */
int bwm_material_walkable(const wm_ctx *ctx, uint32_t material);
/* Per-face-edge transitions (3*face_count, -1 default) from the edge list. */
wm_result bwm_face_transitions(wm_ctx *ctx, const bwm_file *file, int32_t **out);

/* Neutral mesh conversion. */
wm_result bwm_to_mesh(wm_ctx *ctx, const bwm_file *file, const char *name, wm_mesh *out);
/* Welds (tolerance < 0: 1e-4) and builds; hooks/position stay zero. */
wm_result bwm_from_mesh(wm_ctx *ctx, const wm_mesh *mesh, uint32_t type, float weld_tolerance,
                        bwm_plane_style planes, bwm_file *out);
/* Copies the transitions of `from`'s edges onto the boundary edges of `to`
 * that join the same two points (within tolerance, either direction): how a
 * WOK edited through OBJ/glTF (which cannot hold transitions) gets its room
 * links back from the original file given as --base. Returns the number of
 * transitions that found no edge through *out_unmatched. */
wm_result bwm_transfer_transitions(wm_ctx *ctx, const bwm_file *from, bwm_file *to, float tolerance,
                                   uint32_t *out_unmatched);
/* 1 when the mesh holds exactly the file's vertices, faces, surfaces and transitions. */
int bwm_matches_mesh(const wm_ctx *ctx, const bwm_file *file, const wm_mesh *mesh);

/* Every invariant of FORMAT-NOTES section 1, written independently of the
 * builder; findings go to the report. file_size is the size of the image
 * (0 = unknown) for the layout checks. */
wm_result bwm_validate(wm_ctx *ctx, const bwm_file *file, size_t file_size, wm_report *report);
/* Facts for `walkmesh info`. */
void bwm_info(const bwm_file *file, const wm_ctx *ctx, wm_report *report);
/* Depth of the AABB tree (root = 1), 0 when absent; stops on bad links. */
uint32_t bwm_aabb_depth(const bwm_file *file);

/* Queries through the AABB tree (WOK). Faces are walkable ones only.
 * bwm_face_at picks, among walkable faces under (x,y), the one whose plane
 * height is closest to z_ref (pass HUGE_VALF for the highest). Returns
 * WM_ERR_INVALID with a message when no face is there. */
wm_result bwm_face_at(wm_ctx *ctx, const bwm_file *file, float x, float y, float z_ref, uint32_t *out_face,
                      float *out_z);
wm_result bwm_height_at(wm_ctx *ctx, const bwm_file *file, float x, float y, float z_ref, float *out_z);
/* Nearest hit of any face (walkable or not) along the ray (t >= 0). */
wm_result bwm_raycast(wm_ctx *ctx, const bwm_file *file, const float origin[3], const float dir[3],
                      uint32_t *out_face, float *out_t);

/* ASCII walkmesh text (KOTORMax .wok.ascii, `node aabb` in .mdl.ascii, PyKotor,
 * MDLOps) into a mesh in the text's face order, transitions from roomlinks.
 * room_offset (NULL: none) is the room's LYT position, which KOTORMax adds
 * to node-relative vertices when it compiles a .wok. */
wm_result bwm_ascii_parse(wm_ctx *ctx, const char *text, size_t size, const char *source, const double *room_offset,
                          wm_mesh *out);

extern const wm_format wm_format_bwm;
extern const wm_format wm_format_bwm_ascii;

#ifdef __cplusplus
}
#endif
#endif
