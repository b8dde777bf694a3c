/* World of Warcraft WMO (v17) root and group files: native API.
 * A file is kept as its chunk list (unknown chunks keep their bytes, in
 * order), plus decoded views of the chunks this module understands, so an
 * unmodified group writes back byte-identical. Coordinates are the file's:
 * Z-up, the same as the neutral model. */
#ifndef WM_WMO_H
#define WM_WMO_H

#include "walkmesh.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WMO_VERSION 17u
#define WMO_MOGP_HEADER_SIZE 68u
#define WMO_MAX_GROUP_ELEMENTS 65535u /* u16 vertex indices and MOBR entries */
#define WMO_MAX_BSP_NODES 32767u      /* MOBN children are i16 */

/* Chunk ids as read: the on-disk bytes are the reversed name, so the
 * little-endian u32 of "REVM" equals the big-endian spelling of "MVER". */
#define WMO_ID(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))

#define WMO_MVER WMO_ID('M', 'V', 'E', 'R')
#define WMO_MOHD WMO_ID('M', 'O', 'H', 'D')
#define WMO_MOGN WMO_ID('M', 'O', 'G', 'N')
#define WMO_MOGI WMO_ID('M', 'O', 'G', 'I')
#define WMO_GFID WMO_ID('G', 'F', 'I', 'D')
#define WMO_MOGP WMO_ID('M', 'O', 'G', 'P')
#define WMO_MOPY WMO_ID('M', 'O', 'P', 'Y')
#define WMO_MOVI WMO_ID('M', 'O', 'V', 'I')
#define WMO_MOVX WMO_ID('M', 'O', 'V', 'X')
#define WMO_MOVT WMO_ID('M', 'O', 'V', 'T')
#define WMO_MONR WMO_ID('M', 'O', 'N', 'R')
#define WMO_MOTV WMO_ID('M', 'O', 'T', 'V')
#define WMO_MOBA WMO_ID('M', 'O', 'B', 'A')
#define WMO_MOBN WMO_ID('M', 'O', 'B', 'N')
#define WMO_MOBR WMO_ID('M', 'O', 'B', 'R')
#define WMO_MLIQ WMO_ID('M', 'L', 'I', 'Q')

/* MOPY triangle flags (FORMAT-NOTES section 3). */
enum {
    WMO_POLY_NOCAMCOLLIDE = 0x02,
    WMO_POLY_DETAIL = 0x04,
    WMO_POLY_COLLISION = 0x08,
    WMO_POLY_HINT = 0x10,
    WMO_POLY_RENDER = 0x20,
    WMO_POLY_CULL_OBJECTS = 0x40,
    WMO_POLY_COLLIDE_HIT = 0x80
};
#define WMO_MATERIAL_COLLISION_ONLY 0xFFu

/* MOGP group flags. */
enum {
    WMO_GROUP_HAS_BSP = 0x1,
    WMO_GROUP_HAS_VERTEX_COLORS = 0x4,
    WMO_GROUP_OUTDOOR = 0x8,
    WMO_GROUP_UNREACHABLE = 0x80,
    WMO_GROUP_HAS_LIGHTS = 0x200,
    WMO_GROUP_HAS_DOODADS = 0x800,
    WMO_GROUP_HAS_WATER = 0x1000,
    WMO_GROUP_INDOOR = 0x2000,
    WMO_GROUP_ANTIPORTAL = 0x4000000
};

/* MOBN node flags. */
enum { WMO_BSP_AXIS_MASK = 0x3, WMO_BSP_LEAF = 0x4 };

/* One chunk: id, where its payload sits in the file's bytes, its size. */
typedef struct wmo_chunk {
    uint32_t id;
    size_t offset; /* payload offset in the file */
    uint32_t size;
} wmo_chunk;

typedef struct wmo_group_header {
    uint32_t name_offset, description_offset, flags;
    float bbox_min[3], bbox_max[3];
    uint16_t portal_start, portal_count;
    uint16_t trans_batches, int_batches, ext_batches, batch_padding;
    uint8_t fog_ids[4];
    uint32_t liquid_type, group_id, flags2;
    int16_t split_parent, split_next;
} wmo_group_header;

typedef struct wmo_bsp_node {
    uint16_t flags;      /* axis 0/1/2 or WMO_BSP_LEAF */
    int16_t negative;    /* child for coordinates <= plane, -1 none */
    int16_t positive;    /* child for coordinates >= plane, -1 none */
    uint16_t face_count; /* leaves: MOBR range */
    uint32_t first_face;
    float plane;         /* absolute coordinate on the split axis */
} wmo_bsp_node;

typedef struct wmo_liquid {
    int32_t xverts, yverts, xtiles, ytiles;
    float corner[3];
    uint16_t material;
    const uint8_t *vertices; /* xverts*yverts * 8 bytes: 4 bytes flow/uv, float height */
    const uint8_t *tiles;    /* xtiles*ytiles bytes; low nibble 0x0F = no liquid */
} wmo_liquid;

#define WMO_LIQUID_TILE_SIZE 4.1666625f

typedef struct wmo_group {
    uint8_t *bytes; /* the whole file, owned */
    size_t size;
    wmo_chunk *top;  /* top-level chunks (MVER, MOGP, anything after) */
    uint32_t top_count;
    wmo_chunk *sub;  /* MOGP subchunks in file order */
    uint32_t sub_count;
    uint32_t version;
    wmo_group_header header;

    uint32_t triangle_count;
    const uint8_t *mopy;  /* 2 bytes per triangle, NULL when absent (LOD groups) */
    uint32_t *indices;    /* 3 per triangle (MOVI or MOVX) */
    int uses_movx;
    uint32_t vertex_count;
    float *positions;     /* 3 per vertex */
    wmo_bsp_node *nodes;
    uint32_t node_count;
    uint16_t *refs;       /* MOBR */
    uint32_t ref_count;
    int has_liquid;
    wmo_liquid liquid;
    /* which subchunk each decoded array came from (-1 none): those are
     * re-encoded from the arrays when serialising, the rest copied */
    int32_t index_chunk, vertex_chunk, node_chunk, ref_chunk;
} wmo_group;

typedef struct wmo_group_info {
    uint32_t flags;
    float bbox_min[3], bbox_max[3];
    int32_t name_offset;
} wmo_group_info;

typedef struct wmo_root {
    uint8_t *bytes;
    size_t size;
    wmo_chunk *chunks;
    uint32_t chunk_count;
    uint32_t version;
    uint32_t material_count, group_count, portal_count, light_count, model_count, doodad_count, set_count;
    uint32_t ambient, wmo_id;
    float bbox_min[3], bbox_max[3];
    uint16_t flags, lod_count;
    wmo_group_info *groups; /* MOGI entries */
    uint32_t group_info_count;
    const char *names;      /* MOGN block (not NUL-terminated at the end necessarily) */
    uint32_t names_size;
    uint32_t *file_ids;     /* GFID, NULL when absent */
    uint32_t file_id_count;
} wmo_root;

/* Chunk reader: walks [begin, end) of data into a freshly allocated list. */
wm_result wmo_read_chunks(wm_cursor *cur, size_t end, wmo_chunk **out, uint32_t *out_count);
/* A whole file's top-level chunks; the first must be MVER 17. */
wm_result wmo_read_file_chunks(wm_cursor *cur, wmo_chunk **out, uint32_t *out_count, uint32_t *out_version);
/* First chunk with the id, or NULL. */
const wmo_chunk *wmo_find_chunk(const wmo_chunk *chunks, uint32_t count, uint32_t id);
/* Chunk writing: id and a size placeholder, patched by wmo_end_chunk. */
size_t wmo_begin_chunk(wm_buffer *b, uint32_t id);
void wmo_end_chunk(wm_buffer *b, size_t size_at);
/* "MOPY" from an id (buffer of 5). */
void wmo_chunk_name(uint32_t id, char out[5]);

/* Parsing takes ownership of bytes (allocated with the ctx); free the
 * struct with the matching _free after success AND after failure. */
wm_result wmo_group_parse(wm_ctx *ctx, uint8_t *bytes, size_t size, const char *source, wmo_group *out);
wm_result wmo_group_load(wm_ctx *ctx, const char *path, wmo_group *out);
void wmo_group_free(const wm_ctx *ctx, wmo_group *group);
/* Serialises the group from its decoded parts and kept chunks. */
wm_result wmo_group_serialize(wm_ctx *ctx, const wmo_group *group, wm_buffer *out);
/* LOD groups carry no MOPY and no collision. */
int wmo_group_is_lod(const wmo_group *group);

wm_result wmo_root_parse(wm_ctx *ctx, uint8_t *bytes, size_t size, const char *source, wmo_root *out);
wm_result wmo_root_load(wm_ctx *ctx, const char *path, wmo_root *out);
void wmo_root_free(const wm_ctx *ctx, wmo_root *root);
/* The MOGN name at an offset (a MOGP header's name_offset); "" when out of range. */
void wmo_root_group_name(const wmo_root *root, uint32_t name_offset, char *out, size_t cap);

/* Reads a file as a root (group NULL), a group (root NULL) or, given both,
 * whichever its second chunk says (MOHD: root, MOGP: group); the other
 * struct stays zeroed. Free both afterwards, on failure too. */
wm_result wmo_load(wm_ctx *ctx, const char *path, wmo_root *root, wmo_group *group);

/* Probe: 0 not WMO, otherwise a score; *out_is_root tells MOHD from MOGP. */
int wmo_probe_kind(const uint8_t *head, size_t head_size, int *out_is_root);

/* Collision rules. */
typedef enum wmo_rule {
    WMO_RULE_SERVER = 0, /* TrinityCore/cmangos/vmangos: 0x08 || (0x20 && !0x04) */
    WMO_RULE_AZEROTHCORE,/* server rule || material 0xFF */
    WMO_RULE_COLLISION_FLAG, /* 0x08 only */
    WMO_RULE_MATERIAL_FF,/* material 0xFF only */
    WMO_RULE_ALL,        /* every triangle, no group skips */
    WMO_RULE_COUNT
} wmo_rule;

const char *wmo_rule_name(wmo_rule rule);
wm_result wmo_rule_parse(wm_ctx *ctx, const char *text, wmo_rule *out);
int wmo_triangle_collides(wmo_rule rule, uint8_t flags, uint8_t material);
/* Whether the rule skips the whole group (0x80, 0x4000000, name "antiportal"). */
int wmo_group_skipped(wmo_rule rule, uint32_t group_flags, const char *group_name);
uint32_t wmo_group_count_collision(const wmo_group *group, wmo_rule rule);

typedef struct wmo_extract_options {
    wmo_rule rule;
    int liquids;           /* MLIQ tiles as WM_SURF_LIQUID triangles in "<name>_liquid" */
    float walkable_slope;  /* degrees from +Z */
    /* NULL, or per extracted triangle 6 bytes appended: u32 index in its group (WMO_NO_ORIGIN
     * for a liquid tile's), u8 MOPY flags, u8 MOPY material (0 for liquids) */
    wm_buffer *origins;
} wmo_extract_options;
#define WMO_NO_ORIGIN 0xFFFFFFFFu
#define WMO_ORIGIN_SIZE 6u

#define WMO_DEFAULT_WALKABLE_SLOPE 60.0f

/* Reads a root with its groups, or one group, as the format's reader does (opts: the module's
 * options); origins as in wmo_extract_options (NULL: none); facts may be NULL. */
wm_result wmo_read_mesh(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out, wm_report *facts,
                        wm_buffer *origins);

/* Appends the group's collision triangles to mesh as object `name`. */
wm_result wmo_group_extract(wm_ctx *ctx, const wmo_group *group, const char *name, const char *group_name,
                            const wmo_extract_options *opts, wm_mesh *mesh);

/* BSP. */
typedef struct wmo_bsp_stats {
    uint32_t nodes, leaves, refs, depth, min_leaf, max_leaf, empty_children;
    uint32_t unreferenced;  /* triangles in no leaf */
    double average_leaf;
} wmo_bsp_stats;

wm_result wmo_bsp_stats_compute(wm_ctx *ctx, const wmo_bsp_node *nodes, uint32_t node_count, uint32_t triangle_count,
                                const uint16_t *refs, uint32_t ref_count, wmo_bsp_stats *out);

/* Calls visit(user, leaf node index) for each leaf a point reaches (both
 * sides of a plane the point lies on). Returns 0 when the tree is malformed.
 * *out_visits (may be NULL) counts the nodes visited, at most node_count + 1. */
typedef void (*wmo_bsp_leaf_fn)(void *user, uint32_t node);
int wmo_bsp_query_point(const wmo_bsp_node *nodes, uint32_t node_count, const float p[3], wmo_bsp_leaf_fn visit,
                        void *user, uint32_t *out_visits);

/* A tree and the triangles it indexes (indices already range-checked). */
typedef struct wmo_bsp_view {
    const wmo_bsp_node *nodes;
    uint32_t node_count;
    const uint16_t *refs;
    uint32_t ref_count;
    const float *positions;
    const uint32_t *indices;
    uint32_t triangle_count;
} wmo_bsp_view;

/* Checks the tree: structure (children after parents, one parent each,
 * ranges), every triangle with include[t] != 0 (all when include is NULL)
 * listed by a leaf whose region overlaps it, and a point query at its
 * centroid reaching a leaf that lists it. Problems go to report (may be
 * NULL) as errors naming node or triangle; *out_problems counts them.
 * The work is linear in the group: leaves listing more than 8 times MOBR's
 * entries in all, or queries visiting more than 64 times the group's
 * elements, stop the check with a problem (docs/complexity.md). */
wm_result wmo_bsp_check(wm_ctx *ctx, const wmo_bsp_view *bsp, const uint8_t *include, wm_report *report,
                        uint32_t *out_problems);

/* Builds a tree over triangles (u32 indices, positions) with leaves of at
 * most leaf_size triangles where a split still separates them. */
wm_result wmo_bsp_build(wm_ctx *ctx, const float *positions, const uint32_t *indices, uint32_t triangle_count,
                        uint32_t leaf_size, wmo_bsp_node **out_nodes, uint32_t *out_node_count, uint16_t **out_refs,
                        uint32_t *out_ref_count);
#define WMO_DEFAULT_LEAF_SIZE 32u
/* MOBN payload: 16 bytes per node. */
void wmo_put_bsp_nodes(wm_buffer *b, const wmo_bsp_node *nodes, uint32_t count);

/* Writing. */
typedef struct wmo_write_options {
    uint32_t max_group_triangles; /* <= 65535 */
    uint32_t leaf_size;
    uint32_t group_flags;         /* 0x1 | 0x8 (outdoor) or 0x1 | 0x2000 (indoor) */
    const char *base_path;        /* existing root to update, or NULL */
    const uint8_t *base_bytes;    /* that root's bytes when the caller has them already (borrowed), or NULL */
    size_t base_size;
    int overwrite;
} wmo_write_options;

/* Builds one collision-only group file image from triangles (positions in
 * WMO space). name_offset indexes the root's MOGN. */
wm_result wmo_build_collision_group(wm_ctx *ctx, const float *positions, uint32_t vertex_count,
                                    const uint32_t *indices, uint32_t triangle_count, uint32_t name_offset,
                                    uint32_t group_flags, uint32_t leaf_size, wm_buffer *out);

/* Writes mesh into the sink: the root as its main output, the groups as side outputs
 * "_NNN.wmo" (root X.wmo, groups X_000.wmo...). The caller commits. */
wm_result wmo_write_mesh(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, const wmo_write_options *opts);
/* The same into root `path` and its groups, all or nothing (opts->overwrite). */
wm_result wmo_write_file(wm_ctx *ctx, const wm_mesh *mesh, const char *path, const wmo_write_options *opts);

/* Group file path for root path and index: "dir/X.wmo" -> "dir/X_007.wmo". Returns malloc'ed (ctx) string. */
char *wmo_group_path(wm_ctx *ctx, const char *root_path, uint32_t index);

extern const wm_format wm_format_wmo;

/* roof[t] = 1 for each floor[t] triangle with another floor triangle under
 * its centre, a person's height lower (wmo_roofs.c; bounded work). */
wm_result wmo_find_roofs(wm_ctx *ctx, const wm_mesh *mesh, const uint8_t *floor, uint8_t *roof);

/* The picture of a WMO's collision as the module reads it (wmo_picture.c;
 * the descriptor's hook reads, this draws): by group, floors solid, walls
 * pale, roofs cut away from above, liquids on request. path: the file, for
 * its group names (NULL: none). */
wm_result wmo_picture(wm_ctx *ctx, const wm_mesh *collision, const char *path, const wm_options *opts,
                      struct wm_picture *picture);

#ifdef __cplusplus
}
#endif
#endif
