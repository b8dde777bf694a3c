/* KotOR binary walkmeshes (.wok area, .pwk placeable, .dwk door): the
 * native file model, byte-exact parse/serialize, the BioWare-style builder,
 * conversion to and from the neutral mesh, independent validation and
 * spatial queries through the file's own AABB tree.
 * Layout facts: ../shared/FORMAT-NOTES.md section 1. */
#ifndef WM_BWM_H
#define WM_BWM_H

#include "wm_format.h"
#include "wm_io.h"
#include "wm_surface.h"

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

/* AABB plane flag styles. */
typedef enum bwm_plane_style {
    BWM_PLANES_BIOWARE = 0, /* signed: 1,2,4 / 8,16,32 */
    BWM_PLANES_KOTORMAX     /* unsigned: 1,2,4 */
} bwm_plane_style;

/* A built WOK whose normals, distances, AABB tree and adjacency are not kept
 * but derived again as the writer reaches their sections (bwm_from_mesh_for_writing):
 * one work block serves every phase in turn, so these arrays (16 + 88 + 12
 * bytes a face) never exist all at once. NULL work: an ordinary file. */
typedef struct bwm_derived {
    uint8_t *work;
    size_t work_size;
    bwm_plane_style planes;
} bwm_derived;

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
    bwm_derived derived; /* normals, distances, aabb and adjacency NULL while derived.work is set */
    unsigned borrowed;   /* BWM_BORROWED_*: arrays of the mesh it was built from, not freed with it */
} bwm_file;

#define BWM_BORROWED_VERTICES 1u
#define BWM_BORROWED_FACES 2u

/* "BWM V1.0", the first 8 bytes of every binary BWM. */
extern const char bwm_magic[8];
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
/* The same, taking over vertices, faces and materials (the arrays in->vertices,
 * in->faces and in->materials point to, allocated with ctx's allocator)
 * instead of copying them: from the call on they belong to the build, which
 * puts faces and materials in order where they are and frees all three on
 * failure. */
wm_result bwm_build_taking(wm_ctx *ctx, const bwm_build_input *in, float *vertices, uint32_t *faces,
                           uint32_t *materials, bwm_file *out);
/* bwm_build_taking for a file that is only written: a WOK (without tie_rank
 * or fallback normals) comes back with derived.work set (see bwm_derived),
 * anything else as from bwm_build_taking. */
wm_result bwm_build_for_writing(wm_ctx *ctx, const bwm_build_input *in, float *vertices, uint32_t *faces,
                                uint32_t *materials, bwm_file *out);
/* bwm_build_for_writing with in's vertices and faces borrowed, not copied
 * (bwm_file.borrowed): they must outlive the file, which never writes to
 * them (faces not in walkable-first order are copied). materials are taken
 * over as in bwm_build_taking. */
wm_result bwm_build_borrowing(wm_ctx *ctx, const bwm_build_input *in, uint32_t *materials, bwm_file *out);
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

/* Where the words of a file being written go (bwm_write.c's staging block);
 * returns the writer's status. */
typedef wm_result (*bwm_put_fn)(void *stage, const void *words, size_t count);
/* The 11 words of an AABB node as the file holds them. */
void bwm_node_words(const bwm_aabb_node *node, uint32_t words[11]);
/* The same tree as bwm_build_aabb (no tie rank), its nodes handed to put in
 * file order as they are found: no node array. The builder's work (ranks,
 * record buffers and face boxes, 56 bytes a face) lives in work, which must
 * hold bwm_aabb_stream_bytes(face_count) and be 8-byte aligned. */
size_t bwm_aabb_stream_bytes(uint32_t face_count);
wm_result bwm_stream_aabb(const float *vertices, const uint32_t *faces, uint32_t face_count,
                          bwm_plane_style planes, void *work, bwm_put_fn put, void *stage);
/* The sections from normals to adjacency of a file with derived.work set,
 * derived and handed to put in file order (bwm_derive.c). */
wm_result bwm_put_derived(wm_ctx *ctx, const bwm_file *file, bwm_put_fn put, void *stage);
/* What the builder does between building and writing, for bwm_put_derived:
 * planes (3 + 1 floats a face) and adjacency (3 a walkable face) of a built
 * file again, without its warnings, scratch from work. */
void bwm_planes_into(wm_ctx *ctx, const bwm_file *file, float *normals, float *distances);
/* Normals and distances of every face into file->normals/distances, warning
 * about degenerate and downward walkable faces; a face without a plane keeps
 * fallback's (through order[face], input order) when fallback has normals. */
/* The face's (b-a)x(c-a) in doubles, as BioWare's planes are computed; returns its length. */
double bwm_face_cross(const bwm_file *f, uint32_t face, double n[3]);
void bwm_compute_planes(wm_ctx *ctx, bwm_file *file, const bwm_build_input *fallback, const uint32_t *order);
/* bwm_compute_planes's warnings alone (a file without fallback normals), the planes
 * not stored: a face whose cross product points up costs its z alone. */
void bwm_plane_warnings(wm_ctx *ctx, const bwm_file *file);
/* How many transitions (transitions[face*3+edge], in the file's face order; each distinct
 * vertex pair and room once) no edge of the built file carries: one on an edge that is not a
 * walkable boundary edge is kept when a boundary edge between the same two vertices carries
 * the same room (the OBJ reader puts a door's line on the non-walkable frame face's edge as
 * well as on the door face's). *out_first: the code of the first lost one. */
wm_result bwm_lost_transitions(wm_ctx *ctx, const bwm_file *f, uint32_t walkable, const int32_t *transitions,
                               uint32_t *out_lost, uint32_t *out_first);
wm_result bwm_adjacency_into(wm_ctx *ctx, const bwm_file *file, int32_t *adjacency, void *work, size_t work_size);

/* Walkability of a surfacemat id through the context's surface table. */
int bwm_material_walkable(const wm_ctx *ctx, uint32_t material);
/* Per-face-edge transitions (3*face_count, -1 default) from the edge list. */
wm_result bwm_face_transitions(wm_ctx *ctx, const bwm_file *file, int32_t **out);

/* Neutral mesh conversion. */
wm_result bwm_to_mesh(wm_ctx *ctx, const bwm_file *file, const char *name, wm_mesh *out);
/* Welds (tolerance < 0: 1e-4) and builds; hooks/position stay zero. */
wm_result bwm_from_mesh(wm_ctx *ctx, const wm_mesh *mesh, uint32_t type, float weld_tolerance,
                        bwm_plane_style planes, bwm_file *out);
/* The same for a file that is only written (bwm_write_sink/bwm_serialize): a
 * WOK's normals, distances, tree and adjacency are derived as they are
 * written (bwm_derived), the same bytes in less memory; when welding and
 * compaction change nothing, the file borrows the mesh's positions and
 * indices (bwm_build_borrowing): the mesh must outlive it. */
wm_result bwm_from_mesh_for_writing(wm_ctx *ctx, const wm_mesh *mesh, uint32_t type, float weld_tolerance,
                                    bwm_plane_style planes, bwm_file *out);
/* 0..100: how much the first bytes look like an ASCII walkmesh (text with a
 * trimesh/aabb node and vertices). */
int bwm_ascii_probe_text(const uint8_t *head, size_t head_size);
/* A walkmesh in memory parsed as a binary file: the bytes themselves, or for ASCII
 * content (NWN1 and KotOR text behind .wok/.pwk/.dwk, or .wok.ascii; the type from
 * the name) the binary the text describes. *image_size: the binary's size. */
wm_result bwm_parse_any(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name, bwm_file *out,
                        size_t *image_size);
/* Text, not a binary walkmesh (no "BWM V1.0"), that reads as an ASCII walkmesh. */
int bwm_is_text(const uint8_t *data, size_t size);
/* Type from the extension: .pwk/.dwk placeable, else area; a trailing ".ascii" is looked through. */
uint32_t bwm_type_for_path(const char *path);
/* The rows of the first `aabb` list of a text (7 per row: box, face), at most
 * max_rows; *rows is NULL when there is none. */
wm_result bwm_ascii_aabb_rows(wm_ctx *ctx, const char *text, size_t size, uint32_t max_rows, double **rows,
                              uint32_t *count);
/* Builds without welding: every vertex kept in its place and order (a text
 * holding a walkmesh's own vertices); tie_rank as in bwm_build_input. */
wm_result bwm_from_mesh_exact(wm_ctx *ctx, const wm_mesh *mesh, uint32_t type, bwm_plane_style planes,
                              const uint32_t *tie_rank, bwm_file *out);
/* An ASCII walkmesh as the binary file it describes: vertices as written
 * (no weld), the text's AABB leaf order breaking centroid ties and its boxes
 * kept where the tree has the same shape, position and hooks from the text. */
wm_result bwm_ascii_read_file(wm_ctx *ctx, const char *text, size_t size, const char *source, uint32_t type,
                              bwm_file *out);
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
/* The links a tree walk follows: every internal node's children are later
 * nodes inside the array (so no walk can loop or leave it), every leaf's face
 * exists. WM_ERR_CORRUPT naming the node and its file offset otherwise.
 * bwm_parse runs it: a file with a broken tree crashes the game, so every
 * command refuses it. */
wm_result bwm_check_aabb_links(wm_ctx *ctx, const bwm_file *file, const char *source);
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
/* The walkmesh nodes of a text joined: a vertex merges into a coincident vertex (within
 * tolerance) of an earlier node, never into one of its own node (bwm_ascii_weld.c).
 * bwm_ascii_parse joins within the import weld's default; the read hooks pass --weld,
 * where 0 joins nothing. */
#define BWM_ASCII_JOIN_TOLERANCE 1e-4f
wm_result bwm_ascii_parse_joined(wm_ctx *ctx, const char *text, size_t size, const char *source,
                                 const double *room_offset, float join_tolerance, wm_mesh *out);
/* The --weld tolerance of the options (the default when not given). */
float bwm_ascii_join_tolerance(const wm_options *opts);
wm_result bwm_ascii_join_nodes(wm_ctx *ctx, wm_mesh *mesh, const uint32_t *node_start, uint32_t nodes,
                               float tolerance);

/* Header fields a neutral mesh carries as named points (wm_mesh_set_point),
 * so that they survive formats that keep named empties. */
#define BWM_POINT_POSITION "bwm_position"
#define BWM_POINT_HOOK1 "bwm_use_hook1"
#define BWM_POINT_HOOK2 "bwm_use_hook2"
#define BWM_POINT_ABS_HOOK1 "bwm_abs_use_hook1"
#define BWM_POINT_ABS_HOOK2 "bwm_abs_use_hook2"
/* The file's position (and a PWK/DWK's hooks) as points of the mesh. */
wm_result bwm_points_to_mesh(wm_ctx *ctx, const bwm_file *file, wm_mesh *mesh);
/* Header fields from the mesh's points (those present); returns how many were found. */
int bwm_points_from_mesh(const wm_mesh *mesh, bwm_file *file);
/* The render meshes of an ASCII model (trimesh, danglymesh, skin, animmesh nodes,
 * animations left out), one object per node, placed through the parent chains in
 * the room's own space; nodes with `render 0` or `bitmap NULL` are left out and
 * counted in *hidden. Walkmesh text (no newmodel) is WM_ERR_OPTION. */
wm_result bwm_ascii_render(wm_ctx *ctx, const char *text, size_t size, const char *source, wm_mesh *out,
                           uint32_t *meshes, uint32_t *hidden);
/* The room an ASCII text is the walkmesh of: a model's name (`newmodel`; returns 1),
 * else the first node parent that is not NULL (returns 0; "" when none). */
int bwm_ascii_room_name(const char *text, size_t size, char *out, size_t out_size);
/* Corners farther apart than this before a room is placed that one float holds
 * after: the place is too far out for the room's detail (past about 1000 units
 * a float steps by 1.2e-4, at 1e7 by 1), and its faces would collapse and tangle. */
#define BWM_KEPT_APART 1e-4
/* How many faces lose corners kept apart before placing (*first: the first such
 * face); each array of faces indexes its own positions, after's from after_first. */
uint32_t bwm_faces_losing_corners(const float *before, const uint32_t *before_faces, const float *after,
                                  uint32_t after_first, const uint32_t *after_faces, uint32_t face_count,
                                  uint32_t *first);
/* --room-offset X,Y,Z (within WM_COORD_LIMIT): *given = 0 when absent. */
wm_result bwm_room_offset_option(wm_ctx *ctx, const wm_options *opts, double out[3], int *given);

/* The walkmesh a writer makes of a mesh: the conversion's source (or --base)
 * when it is a BWM holding the same mesh, else built, with the header from
 * the source, the mesh's points and the --hook/--position options. */
wm_result bwm_file_for_mesh(wm_ctx *ctx, const wm_mesh *mesh, uint32_t type, const wm_options *opts, bwm_file *out);
/* The same for a file that is only written: built with bwm_from_mesh_for_writing (it may
 * borrow the mesh's arrays: free it before the mesh). */
wm_result bwm_file_for_writing(wm_ctx *ctx, const wm_mesh *mesh, uint32_t type, const wm_options *opts, bwm_file *out);
/* ASCII text of a walkmesh: model_form 1 = the walkmesh node of a .mdl.ascii,
 * 0 = a KOTORMax-style .wok.ascii (also .pwk/.dwk). */
wm_result bwm_ascii_serialize(wm_ctx *ctx, const bwm_file *file, int model_form, const char *name, wm_buffer *out);
wm_result bwm_ascii_write_hook(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, const wm_options *opts);

extern const wm_format wm_format_bwm;
extern const wm_format wm_format_bwm_ascii;

/* KotOR material (surfacemat.2da row) to surface and back (bwm_surface.c):
 * WM_SURFACE_NONE / -1 when the table has none. */
uint16_t bwm_surface_of_material(const wm_surface_table *table, uint32_t material);
int32_t bwm_material_of_surface(const wm_surface_table *table, uint16_t surface);

/* Pictures (bwm_picture.c): surfaces shaded by height, perimeters,
 * transitions with their rooms, use hooks. bwm_picture is the binary
 * descriptor's hook; an ASCII walkmesh read into a mesh is drawn as
 * KOTORMax would compile it with bwm_picture_of_mesh. */
wm_result bwm_picture(wm_ctx *ctx, const wm_input *in, const wm_options *opts, struct wm_picture *picture);
wm_result bwm_picture_of_mesh(wm_ctx *ctx, const wm_mesh *mesh, const char *name, struct wm_picture *picture);

#ifdef __cplusplus
}
#endif
#endif
