/* KotOR I and II binary models (.mdl): the walkmesh (AABB) node of a room
 * model, or its render meshes, placed by the node chain's position and
 * orientation as the game places them. Layout facts: docs/kotor-areas.md.
 * The .mdx (normals, texture coordinates) and animations are not read. */
#ifndef WM_MDL_H
#define WM_MDL_H

#include "wm_format.h"
#include "wm_io.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MDL_FILE_HEADER 12u  /* every offset inside the model counts from here */
#define MDL_NODE_HEADER 80u
#define MDL_FACE_SIZE 32u
#define MDL_NODE_AABB 0x200u /* node type flag of the walkmesh node */
#define MDL_NODE_MESH 0x20u

typedef enum mdl_game { MDL_GAME_UNKNOWN = 0, MDL_GAME_K1 = 1, MDL_GAME_K2 = 2 } mdl_game;

/* The walkmesh node: vertices already placed (node chain transform, no room offset). */
typedef struct mdl_walkmesh {
    mdl_game game;
    char model_name[33];
    char node_name[33];
    uint32_t node_count;     /* nodes visited */
    uint32_t aabb_nodes;     /* walkmesh nodes found (the first is read) */
    float position[3];       /* the node's world position (a .wok's header position) */
    float orientation[4];    /* the node's world orientation, x y z w */
    float *vertices;         /* 3 per vertex, placed */
    float *stored;           /* 3 per vertex, as stored (the node's own frame) */
    uint32_t vertex_count;
    uint32_t *faces;         /* 3 per face */
    uint32_t *materials;     /* surfacemat id per face */
    uint32_t face_count;
    uint32_t boundary_edges; /* face edges whose stored neighbour is none (0xFFFF) */
} mdl_walkmesh;

/* The render meshes of a model (trimesh, danglymesh, skin: what the game
 * draws), each node one object named after it, placed through its node chain;
 * meshes that do not render (render flag off, texture NULL: invisible planes)
 * are left out and counted. */
typedef struct mdl_render {
    wm_mesh *mesh; /* filled in the room's own space; the caller initialises and frees it */
    uint32_t meshes, hidden;
} mdl_render;

/* The game whose compiler wrote the model (geometry header function
 * pointer), MDL_GAME_UNKNOWN when the bytes are not a KotOR model; a
 * file_size other than 0 must hold the model size the header gives. */
mdl_game mdl_detect(const uint8_t *head, size_t head_size, uint64_t file_size);

void mdl_walkmesh_free(const wm_ctx *ctx, mdl_walkmesh *w);
/* Parses the model's node tree and its first walkmesh node. A model of
 * another game is WM_ERR_UNSUPPORTED; a KotOR model without a walkmesh node
 * is WM_ERR_CORRUPT naming the model; every error names the offset or node. */
wm_result mdl_parse_walkmesh(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name, mdl_walkmesh *out);
/* The render meshes into render->mesh; info gets the model's name, game and
 * node counts. A model without a render mesh is WM_ERR_CORRUPT. */
wm_result mdl_parse_render(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name, mdl_render *render,
                           mdl_walkmesh *info);
/* The walkmesh as a neutral mesh (one object named after the model, the
 * node position as the point "bwm_position"); room_offset (NULL: none) is
 * the room's layout position, added as KotOR's compilers add it. A placement
 * so far out that float coordinates merge corners of a face the model keeps
 * apart is WM_ERR_INVALID. */
wm_result mdl_walkmesh_to_mesh(wm_ctx *ctx, const mdl_walkmesh *w, const double *room_offset, wm_mesh *out);

extern const wm_format wm_format_mdl;

#ifdef __cplusplus
}
#endif
/* The room offset of a model read beside a layout (an archive's member): the position of the room
 * (the model's name) in a layout among the files beside it. *found 0: none places it. */
wm_result mdl_layout_offset(wm_ctx *ctx, const wm_input *in, const char *room, double offset[3], int *found);

#endif
