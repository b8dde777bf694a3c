/* Neverwinter Nights 2 area terrain (.trn unbaked, .trx baked): the "NWN2"
 * packet container and the ASWM walkmesh packet (version 0x6c; 0x69-0x6b
 * read where their layout is known).
 *
 * The native model keeps every byte the file holds, so read -> write gives
 * an identical container and an identical uncompressed ASWM. Layout facts:
 * ../shared/FORMAT-NOTES.md section 2 (the seed's 20-byte tile grid header
 * is wrong: border size follows the tiles).
 *
 * Ownership: every array below is owned by the struct that holds it and
 * freed by nwn2_container_free / nwn2_aswm_free / nwn2_file_free through
 * the context's allocator. Counts always describe the arrays as stored. */
#ifndef WM_NWN2_H
#define WM_NWN2_H

#include "wm_context.h"
#include "wm_format.h"
#include "wm_io.h"
#include "wm_mesh.h"
#include "wm_surface.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NWN2_NONE32 0xFFFFFFFFu      /* edge/neighbour/exit "none" */
#define NWN2_NO_ISLAND 0xFFFFu       /* triangle island "none" */
#define NWN2_PATH_NONE 0xFFu         /* local_to_node: not walkable; nodes: self/unreachable */
#define NWN2_PATH_LOS 0x80u          /* nodes: line-of-sight bit */
#define NWN2_PATH_NODE_MASK 0x7Fu    /* nodes: node of the next triangle */
#define NWN2_MAX_TILE_NODES 127u     /* walkable triangles per tile the path table can address */

#define NWN2_ASWM_VERSION 0x6cu      /* the only version the toolset writes */
#define NWN2_GRID_FLAGS_TRN 15u
#define NWN2_GRID_FLAGS_TRX 31u

/* Triangle flags. */
enum {
    NWN2_TRI_WALKABLE = 0x0001,
    NWN2_TRI_CLOCKWISE = 0x0004,   /* vertices stored clockwise: normal = -(v1-v0)x(v2-v0) */
    NWN2_TRI_DIRT = 0x0008,
    NWN2_TRI_GRASS = 0x0010,
    NWN2_TRI_STONE = 0x0020,
    NWN2_TRI_WOOD = 0x0040,
    NWN2_TRI_CARPET = 0x0080,
    NWN2_TRI_METAL = 0x0100,
    NWN2_TRI_SWAMP = 0x0200,
    NWN2_TRI_MUD = 0x0400,
    NWN2_TRI_LEAVES = 0x0800,
    NWN2_TRI_WATER = 0x1000,
    NWN2_TRI_PUDDLES = 0x2000,
    NWN2_TRI_SURFACE_MASK = 0x3FF8
};

/* ---------------------------------------------------------------- container */

typedef struct nwn2_packet {
    char type[4];        /* "TRWH", "TRRN", "WATR", "ASWM", ... */
    uint32_t offset;     /* absolute offset from the packet table (as read; recomputed on write) */
    uint8_t *payload;    /* owned copy, byte-for-byte (or inside the container's file_data) */
    uint32_t size;
} nwn2_packet;

typedef struct nwn2_container {
    uint16_t major, minor; /* 2, 3 */
    nwn2_packet *packets;
    uint32_t packet_count;
    uint8_t *file_data; /* NULL, or the whole file (owned) that every payload points into */
    int shares_data;    /* 1: every payload points into the caller's data (not freed) */
} nwn2_container;

void nwn2_container_init(nwn2_container *c);
void nwn2_container_free(const wm_ctx *ctx, nwn2_container *c);
/* Parses "NWN2" + packet table + packets; each packet's own type and size
 * header is checked against the table. Packets may sit anywhere in the data
 * (they are copied); their total size may not exceed the data (overlap). */
wm_result nwn2_container_parse(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source,
                               nwn2_container *out);
/* Same, but the payloads point into data instead of being copied, and on
 * success the container owns data (freed with it); on failure the caller still does. */
wm_result nwn2_container_parse_in_place(wm_ctx *ctx, uint8_t *data, size_t size, const char *source,
                                        nwn2_container *out);
/* Same, but data stays the caller's (it must outlive the container). */
wm_result nwn2_container_parse_shared(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source,
                                      nwn2_container *out);
/* Header, table, then the packets contiguously in table order (the layout
 * every real file uses); the offsets are recomputed. */
wm_result nwn2_container_serialize(wm_ctx *ctx, const nwn2_container *c, wm_buffer *out);
/* Index of the first packet of that type at or after start, or -1. */
/* 1 when the file the container was parsed from (file_size bytes) is laid out
 * exactly as nwn2_container_serialize writes it: packets in table order, back
 * to back, nothing after them. Serialising it then gives the file's bytes. */
int nwn2_container_is_canonical(const nwn2_container *c, size_t file_size);
int32_t nwn2_container_find(const nwn2_container *c, const char type[4], uint32_t start);
/* Replaces a packet's payload with a copy of data. */
wm_result nwn2_container_set_payload(wm_ctx *ctx, nwn2_container *c, uint32_t index, const uint8_t *data,
                                     size_t size);
wm_result nwn2_container_copy(wm_ctx *ctx, nwn2_container *dst, const nwn2_container *src);

/* TRWH payload (12 bytes). */
typedef struct nwn2_trwh {
    uint32_t width, height, id;
} nwn2_trwh;
wm_result nwn2_trwh_parse(wm_ctx *ctx, const uint8_t *payload, size_t size, const char *source, nwn2_trwh *out);

/* What `info` says about the packets kept byte-for-byte (layouts measured
 * on the corpus's WATR packets; TRRN per the community format notes). */
typedef struct nwn2_watr_summary {
    float colour[3];
    uint32_t vertex_count, triangle_count, dds_size;
    uint32_t megatile_x, megatile_y;
} nwn2_watr_summary;
wm_result nwn2_watr_summarise(wm_ctx *ctx, const uint8_t *payload, size_t size, const char *source,
                              nwn2_watr_summary *out);

typedef struct nwn2_trrn_summary {
    char name[129];
    uint32_t vertex_count, triangle_count, dds_a_size, dds_b_size, grass_count;
} nwn2_trrn_summary;
wm_result nwn2_trrn_summarise(wm_ctx *ctx, const uint8_t *payload, size_t size, const char *source,
                              nwn2_trrn_summary *out);

/* ASWM packet payload: "COMP" + u32 compressed size + u32 uncompressed
 * size + zlib stream, or the raw walkmesh. */
typedef struct nwn2_aswm_packet_info {
    int compressed;
    uint32_t compressed_size;   /* as claimed by the header */
    uint32_t uncompressed_size; /* as claimed by the header */
    int zlib_level_hint;        /* from the zlib header FLEVEL: 1, 5 (fast..default: 6), 9; -1 raw */
} nwn2_aswm_packet_info;

/* Inflates (or copies) the walkmesh bytes. The claimed uncompressed size is
 * checked against ctx->limits.max_bytes BEFORE anything is allocated, and
 * the stream must inflate to exactly that size. Free *out_raw with wm_free. */
wm_result nwn2_aswm_decode_packet(wm_ctx *ctx, const uint8_t *payload, size_t size, const char *source,
                                  uint8_t **out_raw, size_t *out_size, nwn2_aswm_packet_info *out_info);
/* Same, the bytes placed `lead` bytes into the block (*out_block, freed with
 * wm_free): lead 3 puts the arrays after the 53-byte ASWM header on 8-byte
 * boundaries, so a shared parse can point at them. */
wm_result nwn2_aswm_decode_packet_at(wm_ctx *ctx, const uint8_t *payload, size_t size, const char *source, size_t lead,
                                     uint8_t **out_block, size_t *out_size, nwn2_aswm_packet_info *out_info);
/* Builds a packet payload from walkmesh bytes: compressed or raw. level
 * 0..9: zlib at that level (6 reproduces the toolset's streams);
 * NWN2_DEFLATE_DEFAULT: libdeflate level 6 when built with it, else zlib 6;
 * NWN2_DEFLATE_BEST: libdeflate level 12, else zlib 9; NWN2_DEFLATE_BETTER:
 * libdeflate level 10 (within 0.6 % of level 12's size in about half its time), else zlib 9. */
#define NWN2_DEFLATE_DEFAULT (-1)
#define NWN2_DEFLATE_BEST (-2)
#define NWN2_DEFLATE_BETTER (-3)
/* 1 when built with libdeflate (whose level 12 brings every corpus re-bake
 * under the toolset's file size; zlib's level 9 does not always). */
int nwn2_deflate_is_libdeflate(void);
/* A walkmesh of NWN2_PARALLEL_DEFLATE_MIN bytes or more is deflated in
 * pieces (NWN2_DEFLATE_* levels, libdeflate only; nwn2_deflate_parallel.c),
 * on up to `threads` threads at once. The pieces depend on the size alone, so
 * the bytes written are the same whatever the thread count. With release,
 * raw's pages are given back as each piece is deflated (when it is deflated
 * in pieces): for a writer that never reads raw again; the same bytes. */
wm_result nwn2_aswm_encode_packet(wm_ctx *ctx, const uint8_t *raw, size_t size, int compress, int level,
                                  unsigned threads, int release, wm_buffer *out);
/* The same packet for walkmesh bytes that begin as old_raw did, whose packet
 * (old_payload: "COMP", sizes, zlib stream) is at hand: the old stream's
 * deflate blocks before the first changed byte are kept bit for bit and only
 * the rest is deflated at level (NWN2_DEFLATE_*; nwn2_splice.c). *spliced = 0
 * and out untouched when that does not apply (no libdeflate, a raw packet, a
 * change within the first 64 KiB); the caller then encodes the whole.
 * NWN2_PARALLEL_DEFLATE_MIN bytes or more from the first change on: those
 * bytes are deflated in pieces of their own, beside the old stream's scan
 * when threads > 1 (the same stream on any thread count). */
wm_result nwn2_aswm_encode_spliced(wm_ctx *ctx, const uint8_t *raw, size_t size, const uint8_t *old_raw,
                                   size_t old_size, const uint8_t *old_payload, size_t old_payload_size, int level,
                                   unsigned threads, wm_buffer *out, int *spliced);
/* Where nwn2_aswm_encode_spliced cuts the old zlib stream (nwn2_splice.c):
 * the end of its last block that is not the final one and ends at or before
 * uncompressed byte `limit` (where zlib's Z_BLOCK inflate stops), as *bit
 * from the stream's start and *at uncompressed. Returns 0 when there is none
 * past the 2-byte zlib header. */
int nwn2_deflate_last_boundary(const uint8_t *stream, size_t size, size_t limit, uint64_t *bit, size_t *at);

/* Deflating on several threads (nwn2_deflate_parallel.c): bytes to deflate
 * from which it pays (smaller ones are deflated whole, on one thread). */
#define NWN2_PARALLEL_DEFLATE_MIN (1024u * 1024u)
/* 1 when a walkmesh is deflated in pieces: size at least
 * NWN2_PARALLEL_DEFLATE_MIN, built with libdeflate. Never the thread count:
 * a batch's one thread per file and a single run's every core must write the
 * same file. */
int nwn2_deflate_parallel_applies(size_t size);
/* Appends a raw deflate stream (its last block final) of raw[0..size) at
 * libdeflate level lib_level, made of nwn2_deflate_chunk_count(size, 0)
 * independently deflated chunks joined at empty stored blocks (as zlib's sync
 * flush), deflated on up to `threads` threads. With release, each chunk's
 * input pages are given back as soon as it is deflated (raw must not be read
 * afterwards: a writer done with it). */
wm_result nwn2_deflate_raw_parallel(wm_ctx *ctx, const uint8_t *raw, size_t size, int lib_level, unsigned threads,
                                    int release, wm_buffer *out);
/* The same in steps, for the splice (libdeflate only): chunks of raw[0..size)
 * deflated on up to `threads` threads, `count` of them (nwn2_deflate_chunk_count),
 * while
 * side(side_user) runs on one of the threads when not NULL; then joined into
 * out, the last block final when `final` (else followed by an empty stored
 * block, for more to follow); then freed (also after a failed run). */
typedef struct nwn2_deflate_chunk nwn2_deflate_chunk;
typedef struct nwn2_deflate_chunks {
    nwn2_deflate_chunk *chunks;
    size_t count;
    int final;
} nwn2_deflate_chunks;
/* How many chunks: from the size alone (2 to 4 for a whole walkmesh, one a
 * MiB; 1 to 4 for the bytes deflated beside the splice's scan, one per 2 MiB),
 * so that the stream does not depend on the threads that made it. */
size_t nwn2_deflate_chunk_count(size_t size, int beside_scan);
wm_result nwn2_deflate_chunks_run(wm_ctx *ctx, const uint8_t *raw, size_t size, int lib_level, unsigned threads,
                                  size_t count, int final, void (*side)(void *), void *side_user, int release,
                                  nwn2_deflate_chunks *set);
wm_result nwn2_deflate_chunks_join(wm_ctx *ctx, nwn2_deflate_chunks *set, wm_buffer *out);
void nwn2_deflate_chunks_free(wm_ctx *ctx, nwn2_deflate_chunks *set);
/* The libdeflate level of NWN2_DEFLATE_DEFAULT (6), _BETTER (10), _BEST (12). */
int nwn2_libdeflate_level(int level);
/* Appends the first `bit` bits of a deflate stream, then an empty stored
 * block (3 header bits, padding to the byte, 00 00 FF FF): a boundary where
 * another raw deflate's bytes can follow. */
void nwn2_put_bits_then_sync(wm_buffer *out, const uint8_t *stream, uint64_t bit);

/* ------------------------------------------------------------- ASWM model */

typedef struct nwn2_edge {
    uint32_t v[2];   /* vertex indices */
    uint32_t tri[2]; /* triangles on each side, NWN2_NONE32 none */
} nwn2_edge;

typedef struct nwn2_triangle {
    uint32_t v[3];
    uint32_t edge[3];      /* slot i of edge and neighbour describe the same side */
    uint32_t neighbour[3]; /* NWN2_NONE32 none */
    float centre[2];       /* mean of the vertices, x/y */
    float normal[3];
    float d;               /* -normal . v0 */
    uint16_t island;       /* NWN2_NO_ISLAND none */
    uint16_t flags;        /* NWN2_TRI_* */
} nwn2_triangle;

typedef struct nwn2_tile {
    /* 57-byte header */
    uint8_t name[32];        /* kept as stored (often garbage) */
    uint8_t owns_data;       /* 0 in every real file */
    uint32_t vertex_count;   /* header counts; arrays below only when owns_data */
    uint32_t edge_count;
    uint32_t triangle_count; /* tile's triangles: [triangle_offset, +triangle_count) */
    float size_x, size_y;
    uint32_t triangle_offset;
    float *vertices;         /* 3*vertex_count when owns_data, else NULL */
    nwn2_edge *edges;        /* edge_count when owns_data, else NULL */
    /* path table: 13-byte header */
    uint32_t path_flags;     /* 0 (rle 1 / zlib 2 never used; refused) */
    uint32_t local_count;    /* entries of local_to_node (= triangle_count in baked files) */
    uint8_t node_count;      /* entries of node_to_local */
    uint32_t rle_size;       /* 0 */
    uint8_t *local_to_node;  /* local_count, NWN2_PATH_NONE = not walkable */
    uint32_t *node_to_local; /* node_count local triangle indices */
    uint8_t *nodes;          /* node_count^2, [from*node_count + to] */
    uint32_t flags;          /* trailing tile flags (31 TRX, 15 TRN) */
} nwn2_tile;

typedef struct nwn2_island {
    uint32_t index;          /* = position */
    uint32_t tile;           /* same value for every island of a file */
    float centre[3];
    uint32_t triangle_count;
    /* three length-prefixed arrays; equal lengths in valid files, but kept
     * separately so odd files still round-trip */
    uint32_t adjacent_count, distance_count, exit_count;
    uint32_t *adjacent;      /* adjacent island indices */
    float *distance;         /* 2-D distance between island centres */
    uint32_t *exit;          /* own-side triangle of a tile-crossing edge */
} nwn2_island;

typedef struct nwn2_island_path {
    uint16_t next;    /* NWN2_NO_ISLAND none */
    uint16_t padding; /* garbage, kept */
    float weight;
} nwn2_island_path;

typedef struct nwn2_aswm {
    uint32_t version;
    uint8_t name[32];         /* kept as stored */
    uint8_t owns_data;        /* 1 */
    uint32_t reserved;        /* header u32 after the triangle count (0) */

    float *vertices;          /* 3 per vertex */
    uint32_t vertex_count;
    nwn2_edge *edges;
    uint32_t edge_count;
    nwn2_triangle *triangles;
    uint32_t triangle_count;

    /* tile grid header (16 bytes) */
    uint32_t grid_flags;      /* 31 TRX, 15 TRN */
    float tile_width;         /* 9.0 interiors, 10.0 exteriors */
    uint32_t grid_height, grid_width;
    nwn2_tile *tiles;         /* grid_height*grid_width, row-major (y outer) */

    uint32_t border_size;     /* tiles cut on each side */
    nwn2_island *islands;
    uint32_t island_count;
    nwn2_island_path *island_paths; /* island_count^2, [from*n + to] */

    uint8_t *trailing;        /* bytes after the island path table (none in real files), kept */
    uint32_t trailing_size;

    /* a shared parse: arrays that point into these bytes (the walkmesh as read,
     * owned by the nwn2_file) are not freed with the model; NULL otherwise */
    const uint8_t *shared;
    size_t shared_size;
} nwn2_aswm;

void nwn2_aswm_init(nwn2_aswm *a);
void nwn2_aswm_free(const wm_ctx *ctx, nwn2_aswm *a);
/* Frees only the vertex, edge and triangle arrays (NULL after; the counts stay). */
void nwn2_aswm_free_geometry(const wm_ctx *ctx, nwn2_aswm *a);
/* Parses uncompressed walkmesh bytes. Every count is checked against the
 * bytes left and ctx limits before allocation; indices are NOT checked here
 * (validate reports them) except where the parser itself needs them. */
wm_result nwn2_aswm_parse(wm_ctx *ctx, const uint8_t *raw, size_t size, const char *source, nwn2_aswm *out);
/* Same, but the arrays whose file layout is the model's (vertices, edges,
 * triangles, path tables, island tables) point into raw instead of being
 * copied, when aligned on a little-endian host: raw must outlive out, and out
 * must only be read (no builder or bake may run on it). A misaligned island
 * path table is moved down to alignment inside raw (over bytes already
 * decoded), so raw no longer holds the walkmesh as read afterwards. */
wm_result nwn2_aswm_parse_shared(wm_ctx *ctx, uint8_t *raw, size_t size, const char *source, nwn2_aswm *out);
/* Serialises as version 0x6c (the layout the parser reads for 0x6c). */
wm_result nwn2_aswm_serialize(wm_ctx *ctx, const nwn2_aswm *a, wm_buffer *out);
/* The same, freeing a's vertices, edges and triangles as soon as they are
 * laid out (nwn2_aswm_free_geometry): for a writer done with a. */
wm_result nwn2_aswm_serialize_releasing(wm_ctx *ctx, nwn2_aswm *a, wm_buffer *out);
wm_result nwn2_aswm_copy(wm_ctx *ctx, nwn2_aswm *dst, const nwn2_aswm *src);

/* Allocation helpers for builders (the bake): each frees what was there.
 * Tile path table: local_to_node filled with NWN2_PATH_NONE, node_to_local
 * with 0, nodes with NWN2_PATH_NONE; sets local_count and node_count. */
wm_result nwn2_tile_alloc_path(wm_ctx *ctx, nwn2_tile *tile, uint32_t local_count, uint8_t node_count);
/* Islands zeroed (index = position), island_paths = count^2 entries of
 * {NWN2_NO_ISLAND, 0, 0}. count 0 empties both. */
wm_result nwn2_aswm_alloc_islands(wm_ctx *ctx, nwn2_aswm *a, uint32_t count);
/* The three link arrays of one island, each of length count, zeroed. */
wm_result nwn2_island_alloc_links(wm_ctx *ctx, nwn2_island *island, uint32_t count);

/* Recomputation from vertices + triangle vertex indices.
 * Edges as the toolset orders them: one edge per vertex pair (lower index
 * first), sorted by (low, high); each triangle's three slots sorted by edge
 * index (slot i of edge[] and neighbour[] is the same side). The sides of a
 * vertex pair shared by three or more triangles pair up in triangle order. */
wm_result nwn2_aswm_rebuild_edges(wm_ctx *ctx, nwn2_aswm *a);
/* Same, but where three or more sides share a vertex pair, the sides whose
 * triangles the input linked are paired first: origin[t] is triangle t's
 * index in the input (NWN2_NONE32 for new triangles) and t's neighbour[]
 * still holds the input's neighbours. */
wm_result nwn2_aswm_rebuild_edges_hinted(wm_ctx *ctx, nwn2_aswm *a, const uint32_t *origin);
/* Centre (x,y mean), normal (flipped when NWN2_TRI_CLOCKWISE is set, so it
 * faces the same way as the unflagged winding), d = -normal . v0. A
 * zero-area triangle gets the toolset's placeholder normal (1,0,0). */
void nwn2_aswm_recompute_geometry(nwn2_aswm *a);
/* Same for one triangle, into the given outputs. */
void nwn2_triangle_geometry(const nwn2_aswm *a, uint32_t t, float centre[2], float normal[3], float *d);
/* |cross| / longest side^2: about 0.87 for an equilateral triangle, below
 * 1e-6 for the slivers whose normal the toolset writes as (1,0,0). */
double nwn2_triangle_sliver(const nwn2_aswm *a, uint32_t t);
#define NWN2_SLIVER_RATIO 1e-6

/* A triangle's three vertex positions as one sortable key (the bits of each
 * corner, corners in ascending order): equal keys = the same triangle,
 * whatever its vertex indices, order or winding. A total order, NaN included. */
typedef struct nwn2_corner_key {
    uint32_t p[9];
    uint32_t index; /* the triangle's index; ties in nwn2_corner_key_cmp go by it */
} nwn2_corner_key;
void nwn2_corner_key_make(nwn2_corner_key *key, const float *positions, const uint32_t v[3], uint32_t index);
/* Compares the positions only. */
int nwn2_corner_key_same(const nwn2_corner_key *x, const nwn2_corner_key *y);
/* qsort order: positions, then index. */
int nwn2_corner_key_cmp(const void *x, const void *y);

/* ---------------------------------------------------- whole file (TRN/TRX) */

typedef struct nwn2_file {
    nwn2_container container;
    int32_t aswm_packet;         /* index of the ASWM packet, -1 none */
    nwn2_aswm_packet_info aswm_info;
    uint8_t *aswm_raw;           /* uncompressed walkmesh bytes as read, NULL in a shared read */
    size_t aswm_raw_size;
    uint8_t *aswm_block;         /* the allocation holding them (owned); in a shared read the model's
                                  * backing, which the parse may rearrange (see nwn2_aswm_parse_shared) */
    nwn2_aswm aswm;              /* parsed walkmesh (empty when aswm_packet < 0) */
    unsigned deflate_threads;    /* a changed walkmesh deflated on this many threads when large; 0, 1: one */
} nwn2_file;

void nwn2_file_init(nwn2_file *f);
void nwn2_file_free(const wm_ctx *ctx, nwn2_file *f);
wm_result nwn2_file_parse(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, nwn2_file *out);
wm_result nwn2_file_read(wm_ctx *ctx, const char *path, nwn2_file *out);
/* The packets point into data (which must outlive out); the walkmesh is
 * parsed into arrays of its own, which a bake may change. */
wm_result nwn2_file_parse_borrowing(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source,
                                    nwn2_file *out);
/* A read-only view for info and conversion: the packets point into data
 * (which must outlive out) and the walkmesh is parsed shared
 * (nwn2_aswm_parse_shared), so nothing read is copied; aswm_raw is NULL (the
 * inflated bytes back the model). out must only be read: no bake or builder. */
wm_result nwn2_file_parse_shared(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, nwn2_file *out);
/* Re-serialises f->aswm into the ASWM packet and serialises the container.
 * level -1: when the walkmesh bytes equal those read, the original packet
 * (and its zlib stream) is kept, so an unchanged file is written back
 * byte-identical; otherwise it is compressed (when the packet was) with
 * NWN2_DEFLATE_DEFAULT, keeping the stream read up to the first changed byte
 * (nwn2_aswm_encode_spliced), and again, whole, with NWN2_DEFLATE_BETTER
 * (libdeflate only), then NWN2_DEFLATE_BEST, while that came out larger than
 * the packet it replaces although the walkmesh bytes did not grow (a re-bake;
 * the smallest is kept). level 0..9
 * always re-encodes with zlib at that level. */
wm_result nwn2_file_serialize(wm_ctx *ctx, const nwn2_file *f, int level, wm_buffer *out);
/* The same, for a writer done with f->aswm: its arrays are freed once its
 * bytes are laid out, so they never sit beside the packet being deflated. */
wm_result nwn2_file_serialize_releasing(wm_ctx *ctx, nwn2_file *f, int level, wm_buffer *out);
wm_result nwn2_file_write(wm_ctx *ctx, const nwn2_file *f, const char *path, int overwrite);

/* ------------------------------------------------------ neutral mesh bridge */

enum {
    NWN2_MESH_KEEP_BORDER = 1,   /* keep TRN map-border triangles */
    NWN2_MESH_WALKABLE_ONLY = 2  /* only walkable triangles */
};
/* A TRN map-border triangle: island none, not walkable, centre in the
 * border band (border_size tiles on each side of the grid). */
int nwn2_triangle_is_border(const nwn2_aswm *a, uint32_t t);
/* The NWN2_MESH_* flags of the reader's options (keep-border, walkable-only). */
unsigned nwn2_mesh_flags(const wm_options *opts);
/* Whether triangle t goes into the neutral mesh under those flags. */
int nwn2_mesh_keeps(const nwn2_aswm *a, uint32_t t, unsigned mesh_flags);
/* ASWM -> neutral mesh: clockwise-flagged triangles are turned
 * counter-clockwise (seen from their normal); walkable = flag 0x1;
 * surface = the table's surface for the first surface flag set, else
 * WM_SURF_UNDEFINED when walkable and WM_SURF_NONWALK when not. */
wm_result nwn2_aswm_to_mesh(wm_ctx *ctx, const nwn2_aswm *a, unsigned mesh_flags, wm_mesh *out);
/* Neutral mesh -> ASWM replacing a's geometry: vertices, triangles (flags
 * from walkable + surface; the clockwise convention of the base is kept),
 * edges, neighbours, centres, normals, d recomputed; triangles sorted into
 * tiles by centre; path tables, islands and island paths left empty. The
 * grid header is kept (grown when the mesh extends past it). */
wm_result nwn2_aswm_from_mesh(wm_ctx *ctx, const wm_mesh *mesh, nwn2_aswm *a);

/* ------------------------------------------------------- checks and facts */

/* Every invariant of FORMAT-NOTES section 2 plus edge/triangle agreement,
 * island membership and exits, and next-hop walks. Findings go to report. */
wm_result nwn2_validate(wm_ctx *ctx, const nwn2_file *f, wm_report *report);
wm_result nwn2_info(wm_ctx *ctx, const nwn2_file *f, wm_report *report);

extern const wm_format wm_format_nwn2;

/* NWN2 triangle surface flags to surface and back (nwn2_surface.c): the
 * first surface in table order whose flag is set; WM_SURFACE_NONE / 0 none. */
uint16_t nwn2_surface_of_flags(const wm_surface_table *table, uint32_t flags);
uint32_t nwn2_flag_of_surface(const wm_surface_table *table, uint16_t surface);

#ifdef __cplusplus
}
#endif
#endif
