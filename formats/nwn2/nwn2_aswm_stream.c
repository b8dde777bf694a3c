/* A large TRN/TRX written without its walkmesh in memory (issue 20, bounded
 * memory): the walkmesh's bytes are laid out from the compact walkmesh a
 * batch of pieces at a time, each batch deflated and written to the sink as
 * soon as it is made, and the sizes known only at the end (the ASWM packet's,
 * the COMP header's, the offsets of the packets after it) are written back
 * into their places. Standard output cannot go back: there the file is put
 * together in memory, as before.
 *
 * The stream is the one nwn2_deflate_raw_parallel makes, but its chunks are
 * NWN2_STREAM_PIECE bytes each (from the size alone, never the threads), so
 * that one batch is all the walkmesh held at a time. */
#include "nwn2_compact.h"
#include "wm_parallel.h"

#include <string.h>
#include <zlib.h>
#ifdef WALKMESH_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#define CONTAINER_HEAD 12u
#define TABLE_ENTRY 8u
#define PACKET_HEAD 8u
#define COMP_HEAD 12u

/* The output: the sink itself, or (standard output) a buffer written at the end. */
typedef struct out_stream {
    wm_sink *sink;
    wm_buffer *buf;
    uint64_t pos;
} out_stream;

static wm_result put(out_stream *o, const void *data, size_t size)
{
    o->pos += size;
    if (o->buf) {
        wm_put_bytes(o->buf, data, size);
        return o->buf->status;
    }
    return wm_sink_write(o->sink, NULL, data, size);
}

static wm_result put_u32_at(out_stream *o, uint64_t offset, uint32_t v)
{
    const uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    if (o->buf) {
        wm_patch_u32(o->buf, (size_t)offset, v);
        return o->buf->status;
    }
    return wm_sink_write_at(o->sink, offset, le, 4);
}

static wm_result put_u32(out_stream *o, uint32_t v)
{
    const uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return put(o, le, 4);
}

/* ---- the walkmesh's bytes, in order, from the compact walkmesh ---- */

typedef struct layout {
    const nwn2_aswm *a;
    const nwn2_compact *c;
    uint8_t head[NWN2_ASWM_HEAD];
    wm_buffer tail;
    uint64_t vertices, edges, triangles, tail_at, total; /* where each part begins; the size */
} layout;

/* Record i of the part that begins at `at` with records of `size` bytes. */
static void make_record(const layout *L, uint64_t at, uint64_t i, uint8_t *rec)
{
    if (at == L->vertices) {
        nwn2_put_vertex(rec, &L->c->positions[3 * i]);
    } else if (at == L->edges) {
        nwn2_edge e;
        nwn2_compact_edge(L->c, (uint32_t)i, &e);
        nwn2_put_edge(rec, &e);
    } else {
        nwn2_triangle t;
        nwn2_compact_triangle(L->c, (uint32_t)i, &t);
        nwn2_put_triangle(rec, &t);
    }
}

/* Bytes [from, to) of the records part [at, end) (records of `size` bytes) into out. */
static uint8_t *put_records(const layout *L, uint64_t at, uint64_t end, size_t size, uint64_t from, uint64_t to,
                            uint8_t *out)
{
    from = from > at ? from : at;
    to = to < end ? to : end;
    for (uint64_t pos = from; pos < to;) {
        const uint64_t i = (pos - at) / size, skip = (pos - at) % size;
        uint8_t rec[64];
        make_record(L, at, i, rec);
        const size_t n = (size_t)(size - skip < to - pos ? size - skip : to - pos);
        memcpy(out, rec + skip, n);
        out += n;
        pos += n;
    }
    return out;
}

/* Bytes [from, to) of a part held whole (data, [at, at + size)) into out. */
static uint8_t *put_held(const uint8_t *data, uint64_t at, uint64_t size, uint64_t from, uint64_t to, uint8_t *out)
{
    from = from > at ? from : at;
    to = to < at + size ? to : at + size;
    if (from >= to)
        return out;
    memcpy(out, data + (from - at), (size_t)(to - from));
    return out + (to - from);
}

static void lay_out(const layout *L, uint64_t from, uint64_t to, uint8_t *out)
{
    out = put_held(L->head, 0, NWN2_ASWM_HEAD, from, to, out);
    out = put_records(L, L->vertices, L->edges, 12, from, to, out);
    out = put_records(L, L->edges, L->triangles, 16, from, to, out);
    out = put_records(L, L->triangles, L->tail_at, 64, from, to, out);
    put_held(L->tail.data, L->tail_at, L->tail.size, from, to, out);
}

static wm_result layout_init(wm_ctx *ctx, const nwn2_aswm *a, const nwn2_compact *c, layout *L)
{
    memset(L, 0, sizeof *L);
    L->a = a;
    L->c = c;
    wm_buffer_init(&L->tail, ctx);
    nwn2_aswm_put_head(L->head, a);
    L->vertices = NWN2_ASWM_HEAD;
    L->edges = L->vertices + 12ull * c->vertex_count;
    L->triangles = L->edges + 16ull * c->edge_count;
    L->tail_at = L->triangles + 64ull * c->triangle_count;
    wm_result r = nwn2_aswm_serialize_tail(ctx, a, &L->tail);
    L->total = L->tail_at + L->tail.size;
    if (!r && L->total > UINT32_MAX)
        r = wm_error(ctx, WM_ERR_LIMIT, "ASWM of %llu bytes exceeds the 4 GiB packet sizes",
                     (unsigned long long)L->total);
    return r;
}

/* A batch's piece laid out on the thread that deflates it (the compact
 * walkmesh is only read). */
typedef struct batch_fill {
    const layout *L;
    uint64_t from; /* the batch's first byte in the walkmesh */
} batch_fill;

static void fill_piece(void *user, uint8_t *dst, size_t from, size_t size)
{
    const batch_fill *b = user;
    lay_out(b->L, b->from + from, b->from + from + size, dst);
}

/* ---- the packet ---- */

/* Writes "COMP", sizes, the zlib stream; *stream gets the stream's size. */
static wm_result put_comp(wm_ctx *ctx, const layout *L, unsigned threads, out_stream *o, uint64_t *stream)
{
    const int lib_level = nwn2_libdeflate_level(NWN2_DEFLATE_DEFAULT);
    /* one piece a thread at a time (0: every core, as nwn2_deflate_raw_parallel) */
    const unsigned jobs = threads ? threads : wm_processor_count();
    const size_t piece = NWN2_STREAM_PIECE, batch = piece * (jobs ? jobs : 1);
    uint8_t zhead[2];
    nwn2_zlib_header(lib_level, zhead);
    wm_result r;
    if ((r = put(o, "COMP", 4)) || (r = put_u32(o, 0)) || (r = put_u32(o, (uint32_t)L->total)) ||
        (r = put(o, zhead, 2)))
        return r;
    const uint64_t begin = o->pos - 2;
    uint8_t *raw = wm_realloc_array(ctx, NULL, batch, 1);
    wm_buffer z;
    wm_buffer_init(&z, ctx);
    uint32_t adler = 1;
    for (uint64_t from = 0; !r && from < L->total; from += batch) {
        const size_t n = (size_t)(L->total - from < batch ? L->total - from : batch);
        if (!raw) {
            r = WM_ERR_NOMEM;
            break;
        }
        batch_fill fill = {L, from};
        z.size = 0;
        r = nwn2_deflate_pieces(ctx, raw, n, piece, lib_level, jobs, from + n == L->total, fill_piece, &fill, &z);
#ifdef WALKMESH_HAVE_LIBDEFLATE
        adler = libdeflate_adler32(adler, raw, n);
#else
        adler = (uint32_t)adler32(adler, raw, (uInt)n);
#endif
        if (!r)
            r = put(o, z.data, z.size);
    }
    const uint8_t be[4] = {(uint8_t)(adler >> 24), (uint8_t)(adler >> 16), (uint8_t)(adler >> 8), (uint8_t)adler};
    if (!r)
        r = put(o, be, 4);
    wm_free(ctx, raw);
    wm_buffer_free(&z);
    *stream = o->pos - begin;
    return r;
}

/* The container: header and table, the packets in table order (ASWM from the
 * layout), then the sizes and offsets that depended on the stream. */
static wm_result put_container(wm_ctx *ctx, const nwn2_file *f, const layout *L, out_stream *o)
{
    const nwn2_container *c = &f->container;
    const uint32_t aswm = (uint32_t)f->aswm_packet;
    const uint64_t table = CONTAINER_HEAD;
    uint64_t packet_size_at = 0, stream = 0;
    wm_result r;
    const uint8_t version[4] = {(uint8_t)c->major, (uint8_t)(c->major >> 8), (uint8_t)c->minor,
                                (uint8_t)(c->minor >> 8)};
    if ((r = put(o, "NWN2", 4)) || (r = put(o, version, 4)) || (r = put_u32(o, c->packet_count)))
        return r;
    for (uint32_t i = 0; i < c->packet_count; i++)
        if ((r = put(o, c->packets[i].type, 4)) || (r = put_u32(o, 0)))
            return r;
    for (uint32_t i = 0; i < c->packet_count; i++) {
        const uint64_t at = o->pos;
        if (at > UINT32_MAX)
            return wm_error(ctx, WM_ERR_LIMIT, "NWN2 container of %llu bytes exceeds the 4 GiB offsets",
                            (unsigned long long)at);
        if ((r = put_u32_at(o, table + (uint64_t)i * TABLE_ENTRY + 4, (uint32_t)at)) ||
            (r = put(o, c->packets[i].type, 4)))
            return r;
        packet_size_at = i == aswm ? o->pos : packet_size_at;
        if (i == aswm)
            r = put_u32(o, 0);
        if (!r)
            r = i == aswm ? put_comp(ctx, L, f->deflate_threads, o, &stream) : put_u32(o, c->packets[i].size);
        if (!r && i != aswm)
            r = put(o, c->packets[i].payload, c->packets[i].size);
        if (r)
            return r;
    }
    if (COMP_HEAD + stream > UINT32_MAX)
        return wm_error(ctx, WM_ERR_LIMIT, "ASWM packet of %llu bytes exceeds 4 GiB",
                        (unsigned long long)(COMP_HEAD + stream));
    if ((r = put_u32_at(o, packet_size_at, (uint32_t)(COMP_HEAD + stream))))
        return r;
    return put_u32_at(o, packet_size_at + 4 + 4, (uint32_t)stream);
}

int nwn2_stream_applies(const nwn2_file *f, const nwn2_compact *c, int level)
{
    const uint64_t records = 12ull * c->vertex_count + 16ull * c->edge_count + 64ull * c->triangle_count;
    return level < 0 && nwn2_deflate_is_libdeflate() && f->aswm_packet >= 0 &&
           (f->aswm_info.compressed || f->aswm_raw == NULL) && records >= NWN2_STREAM_MIN;
}

wm_result nwn2_file_write_compact(wm_ctx *ctx, const nwn2_file *f, const nwn2_compact *c, wm_sink *sink)
{
    layout L;
    wm_result r = layout_init(ctx, &f->aswm, c, &L);
    wm_buffer buf;
    wm_buffer_init(&buf, ctx);
    out_stream o = {sink, wm_sink_can_write_at(sink) ? NULL : &buf, 0};
    if (!r)
        r = put_container(ctx, f, &L, &o);
    if (!r && o.buf)
        r = wm_sink_write(sink, NULL, buf.data, buf.size);
    wm_buffer_free(&buf);
    wm_buffer_free(&L.tail);
    return r;
}
