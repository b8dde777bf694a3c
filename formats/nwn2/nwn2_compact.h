/* A walkmesh built from a mesh without its 64-byte triangle records (issue 20,
 * bounded memory): the triangles' vertices, edges and flags, and each edge's
 * two triangles. Everything else in a record (neighbours, centre, normal, d)
 * and each edge's vertices follow from these, so the writer lays the bytes
 * out from here piece by piece (nwn2_aswm_stream.c), or expands it into the
 * model when the walkmesh is small (nwn2_compact_expand). */
#ifndef WM_NWN2_COMPACT_H
#define WM_NWN2_COMPACT_H

#include "nwn2.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nwn2_compact {
    const float *positions;   /* 3 a vertex (the mesh's: not owned) */
    uint32_t vertex_count, triangle_count, edge_count;
    uint32_t *tv;             /* 3 a triangle: its vertices in the file's order; NULL: from the mesh */
    const uint32_t *indices;  /* the mesh's (when tv is NULL): triangle t is its triangle order[t], */
    uint32_t *order;          /* turned (second and third swapped) when clockwise */
    int clockwise;
    uint32_t *tedge;          /* 3 a triangle: its edges, ascending */
    uint16_t *flags;          /* NWN2_TRI_* */
    uint32_t *edge_tri;       /* 2 an edge: the triangles on each side (NWN2_NONE32 none) */
    uint32_t *origin;         /* base triangle of a kept triangle, else NWN2_NONE32; NULL: none kept */
    nwn2_triangle *old;       /* the base's triangles (the kept ones' links, centre, normal, d) */
} nwn2_compact;

/* nwn2_aswm_from_mesh without the model's records: a's tiles, grid and counts
 * are set, its vertex, edge and triangle arrays freed; c holds the rest (and
 * reads mesh's positions: mesh must outlive c). */
wm_result nwn2_compact_from_mesh(wm_ctx *ctx, const wm_mesh *mesh, nwn2_aswm *a, nwn2_compact *c);
void nwn2_compact_free(wm_ctx *ctx, nwn2_compact *c);
/* Triangle t's vertices in the file's order. */
void nwn2_compact_verts(const nwn2_compact *c, uint32_t t, uint32_t v[3]);
/* Triangle t's record (neighbours from the edges; kept triangles keep the
 * base's centre, normal and d, new ones get the toolset's centre). */
void nwn2_compact_triangle(const nwn2_compact *c, uint32_t t, nwn2_triangle *out);
/* Edge e's record: its vertices (low first) are those of the side of its first
 * triangle that it is. */
void nwn2_compact_edge(const nwn2_compact *c, uint32_t e, nwn2_edge *out);
/* The model's vertices, edges and triangles from c (freed with a), c's arrays freed. */
wm_result nwn2_compact_expand(wm_ctx *ctx, nwn2_compact *c, nwn2_aswm *a);

/* The walkmesh's bytes (nwn2_aswm_write.c): the 53-byte header (a's counts),
 * one record, and everything after the triangles (appended to out). Each
 * put returns the byte after what it wrote. */
#define NWN2_ASWM_HEAD 53u
uint8_t *nwn2_aswm_put_head(uint8_t *w, const nwn2_aswm *a);
uint8_t *nwn2_put_vertex(uint8_t *w, const float *v);
uint8_t *nwn2_put_edge(uint8_t *w, const nwn2_edge *e);
uint8_t *nwn2_put_triangle(uint8_t *w, const nwn2_triangle *t);
wm_result nwn2_aswm_serialize_tail(wm_ctx *ctx, const nwn2_aswm *a, wm_buffer *out);

/* Appends the raw deflate of raw[0..size) as chunks of piece bytes (the last
 * one the rest) deflated on up to `threads` threads and joined as
 * nwn2_deflate_raw_parallel joins them, its last block final when `final`
 * (else followed by an empty stored block, for more to follow). With fill,
 * each chunk's bytes are first laid out into raw by fill(fill_user, dst,
 * from, size) on the thread that deflates them. */
typedef void (*nwn2_fill_fn)(void *user, uint8_t *dst, size_t from, size_t size);
wm_result nwn2_deflate_pieces(wm_ctx *ctx, uint8_t *raw, size_t size, size_t piece, int lib_level,
                              unsigned threads, int final, nwn2_fill_fn fill, void *fill_user, wm_buffer *out);

/* The 2-byte zlib header of a stream deflated at that libdeflate level. */
void nwn2_zlib_header(int lib_level, uint8_t out[2]);

/* Writing a walkmesh whose records take NWN2_STREAM_MIN bytes or more
 * (nwn2_aswm_stream.c): laid out and deflated NWN2_STREAM_PIECE bytes at a
 * time (the deflate's chunks), on f->deflate_threads threads at once, and
 * written to the sink as it is made. The walkmeshes of real areas (5 MB at
 * most) are far below: they keep the whole-walkmesh writer (splice, size ladder). */
#define NWN2_STREAM_MIN (32u * 1024u * 1024u)
#define NWN2_STREAM_PIECE (2u * 1024u * 1024u)
/* Whether f (its walkmesh replaced by c) is written so at this --zlib-level
 * (-1 default): libdeflate, a compressed ASWM packet, large records. */
int nwn2_stream_applies(const nwn2_file *f, const nwn2_compact *c, int level);
/* f's container with its ASWM packet made from c (f->aswm's header and tiles,
 * c's records) at NWN2_DEFLATE_DEFAULT, into the sink's main output. */
wm_result nwn2_file_write_compact(wm_ctx *ctx, const nwn2_file *f, const nwn2_compact *c, wm_sink *sink);

/* What the edge rebuild reads and writes (nwn2_topology.c), as strided
 * arrays, so the model's records and the compact arrays share one rebuild. */
typedef struct nwn2_sides {
    uint32_t triangle_count, vertex_count;
    const uint32_t *v;        /* triangle t's vertices at v[t * tri_stride]; NULL: */
    const nwn2_compact *compact; /* nwn2_compact_verts of this one */
    uint32_t *edge;           /* its edges, written at edge[t * tri_stride] */
    uint32_t *neighbour;      /* its neighbours, written (NULL: not stored) */
    size_t tri_stride;
    const uint32_t *origin;   /* input triangle of t, NWN2_NONE32 new; NULL none */
    const uint32_t *hint;     /* input neighbours: hint[i * hint_stride], i = t (hint_by_origin 0) or origin[t] */
    size_t hint_stride;
    int hint_by_origin;
    uint32_t *edge_v;         /* edge e's vertices at edge_v[e * edge_stride] (NULL: not stored) */
    uint32_t *edge_tri;       /* its triangles at edge_tri[e * edge_stride] */
    size_t edge_stride;
} nwn2_sides;

/* Numbers the edges as nwn2_aswm_rebuild_edges_hinted does; *count gets how
 * many. The edge arrays must hold 3 x triangle_count edges. */
wm_result nwn2_sides_rebuild(wm_ctx *ctx, const nwn2_sides *s, uint32_t *count);
/* Centre, normal and d of the triangle on v[0..2] (as nwn2_triangle_geometry). */
void nwn2_geometry_of(const float *vertices, uint32_t vertex_count, const uint32_t v[3], uint16_t flags,
                      float centre[2], float normal[3], float *d);

#ifdef __cplusplus
}
#endif
#endif
