/* The nwn2 format descriptor: TRN/TRX through the neutral mesh, info and validate. */
#include "nwn2_compact.h"
#include "nwn2_route.h"
#include "base_format.h"

#include <stdlib.h>
#include <string.h>

static const char *const nwn2_extensions[] = {"trx", "trn", NULL};

static const wm_option_desc nwn2_options[] = {
    {"keep-border", NULL, "nwn2 read: keep TRN map-border triangles (island none, not walkable, in the border band)"},
    {"keep-borders", NULL, "same as --keep-border (bake's spelling)"},
    {"walkable-only", NULL, "nwn2 read: only walkable triangles"},
    {"zlib-level", "N", "nwn2 write: zlib level 0-9 for a changed ASWM (default 6, the toolset's)"},
    {"path", "X1,Y1 X2,Y2", "render, NWN2: the route the file's path tables give between two points"},
    {"git", "AREA.git", "render, NWN2: draw the walkmesh cutters of the area's GIT"},
    {"tile-numbers", NULL, "render, NWN2: number every tile even where the numbers do not fit"},
    {"island-graph", NULL, "render, NWN2: island centres and links even where they do not fit"},
    {NULL, NULL, NULL}};

static int nwn2_probe(const wm_input *in)
{
    if (in->size < 12 || memcmp(in->data, "NWN2", 4) != 0)
        return 0;
    return wm_le16(in->data + 4) == 2 ? 100 : 60;
}

unsigned nwn2_mesh_flags(const wm_options *opts)
{
    unsigned flags = 0;
    if (opts && (wm_option_flag(opts, "keep-border") || wm_option_flag(opts, "keep-borders")))
        flags |= NWN2_MESH_KEEP_BORDER;
    if (opts && wm_option_flag(opts, "walkable-only"))
        flags |= NWN2_MESH_WALKABLE_ONLY;
    return flags;
}

static void mesh_name_from_path(wm_mesh *mesh, const char *path)
{
    const char *base = wm_path_file_name(path);
    size_t n = strcspn(base, ".");
    if (n >= sizeof mesh->name)
        n = sizeof mesh->name - 1;
    memcpy(mesh->name, base, n);
    mesh->name[n] = '\0';
}

/* `convert a.trx b.trx` reads the source, then writes: the writer used to
 * inflate and convert the source again only to learn that the mesh is the
 * source's own. A default read leaves a fingerprint of the ASWM packet it
 * read and of the mesh it made (per thread: read and write of one convert
 * run on the same thread); a writer given that same mesh and a source whose
 * ASWM packet has that fingerprint keeps the source's packets without
 * inflating anything. */
typedef struct read_memo {
    int valid;
    uint64_t packet, mesh;
} read_memo;
static _Thread_local read_memo last_read;

/* Four independent lanes over 32-byte blocks, so the multiplies overlap (the
 * memo hashes megabytes on every read and on the write of a convert). */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t n)
{
    const uint8_t *p = data;
    size_t i = 0;
    uint64_t lane[4] = {h, h ^ 0x9E3779B97F4A7C15ull, h ^ 0xC2B2AE3D27D4EB4Full, h ^ 0x165667B19E3779F9ull};
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; k++) {
            uint64_t w;
            memcpy(&w, p + i + 8 * k, 8);
            lane[k] = (lane[k] ^ w) * 0x100000001B3ull;
            lane[k] ^= lane[k] >> 29;
        }
    h = lane[0];
    for (int k = 1; k < 4; k++)
        h = (h ^ lane[k]) * 0x100000001B3ull;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001B3ull;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 0x100000001B3ull;
    return h ^ (uint64_t)n;
}

static uint64_t hash_mesh(const wm_mesh *m)
{
    uint64_t h = 0xCBF29CE484222325ull;
    h = hash_bytes(h, &m->vertex_count, sizeof m->vertex_count);
    h = hash_bytes(h, &m->triangle_count, sizeof m->triangle_count);
    h = hash_bytes(h, m->positions, (size_t)m->vertex_count * 3 * sizeof *m->positions);
    h = hash_bytes(h, m->indices, (size_t)m->triangle_count * 3 * sizeof *m->indices);
    h = hash_bytes(h, m->walkable, m->triangle_count);
    return hash_bytes(h, m->surfaces, (size_t)m->triangle_count * sizeof *m->surfaces);
}

static uint64_t hash_packet(const nwn2_packet *p)
{
    return hash_bytes(0xCBF29CE484222325ull, p->payload, p->size);
}

/* The mesh of a file read natively; report (may be NULL) gets the info facts too. */
static wm_result nwn2_read(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_mesh *out,
                           wm_report *report)
{
    nwn2_file f;
    last_read.valid = 0;
    wm_mesh_init(out);
    wm_result r = nwn2_file_parse_shared(ctx, in->data, in->size, in->name, &f); /* only read below */
    if (r)
        return r;
    if (f.aswm_packet < 0)
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: no ASWM (walkmesh) packet", in->name);
    else
        r = nwn2_aswm_to_mesh(ctx, &f.aswm, nwn2_mesh_flags(opts), out);
    if (!r) {
        mesh_name_from_path(out, in->name);
        if (nwn2_mesh_flags(opts) == 0) {
            last_read.packet = hash_packet(&f.container.packets[f.aswm_packet]);
            last_read.mesh = hash_mesh(out);
            last_read.valid = 1;
        }
        if (report)
            r = nwn2_info(ctx, &f, report);
    }
    if (r)
        wm_mesh_free(ctx, out);
    nwn2_file_free(ctx, &f);
    return r;
}

static int zlib_level(const wm_options *opts)
{
    const char *s = opts ? wm_option_get(opts, "zlib-level") : NULL;
    if (!s)
        return -1;
    char *end;
    long v = strtol(s, &end, 10);
    return (*s && !*end && v >= 0 && v <= 9) ? (int)v : -2;
}

/* convert a.trx b.trx: when the mesh is exactly what a default read of the
 * source gives, the source is written back natively, byte-identical. A mesh
 * read with --walkable-only or --keep-border differs and is rebuilt. */
static int mesh_is_source(wm_ctx *ctx, const nwn2_file *src, const wm_mesh *mesh)
{
    wm_mesh again;
    wm_mesh_init(&again);
    int same = nwn2_aswm_to_mesh(ctx, &src->aswm, 0, &again) == WM_OK &&
               again.triangle_count == mesh->triangle_count && again.vertex_count == mesh->vertex_count &&
               memcmp(again.indices, mesh->indices, (size_t)mesh->triangle_count * 3 * sizeof *mesh->indices) == 0 &&
               memcmp(again.positions, mesh->positions, (size_t)mesh->vertex_count * 3 * sizeof(float)) == 0 &&
               memcmp(again.walkable, mesh->walkable, mesh->triangle_count) == 0 &&
               memcmp(again.surfaces, mesh->surfaces, (size_t)mesh->triangle_count * sizeof *mesh->surfaces) == 0;
    wm_mesh_free(ctx, &again);
    return same;
}

/* The fast path of `convert a.trx b.trx` (see read_memo): *kept = 1 when
 * the source's packets were written as they are. */
static wm_result write_source_if_unchanged(wm_ctx *ctx, const wm_input *source, const wm_mesh *mesh, int level,
                                           wm_sink *sink, int *kept)
{
    *kept = 0;
    nwn2_container c;
    if (!last_read.valid || level >= 0 || hash_mesh(mesh) != last_read.mesh ||
        nwn2_container_parse_shared(ctx, source->data, source->size, source->name, &c))
        return WM_OK; /* not the source's mesh, or the full read reports what is wrong */
    int32_t at = nwn2_container_find(&c, "ASWM", 0);
    wm_result r = WM_OK;
    if (at >= 0 && hash_packet(&c.packets[at]) == last_read.packet) {
        if (nwn2_container_is_canonical(&c, source->size)) {
            r = wm_sink_write(sink, NULL, source->data, source->size); /* what serialising would give */
        } else {
            wm_buffer buf;
            wm_buffer_init(&buf, ctx);
            r = nwn2_container_serialize(ctx, &c, &buf);
            if (!r)
                r = wm_sink_write(sink, NULL, buf.data, buf.size);
            wm_buffer_free(&buf);
        }
        *kept = 1;
    }
    nwn2_container_free(ctx, &c);
    return r;
}

/* The file whose other packets the output keeps: --base, else the conversion source when
 * it is a TRN/TRX itself (handed over by the driver, never re-read). */
static wm_result load_base(wm_ctx *ctx, const wm_mesh *mesh, const char *path, const wm_options *opts, int level,
                           wm_sink *sink, nwn2_file *f, int *native, int *kept)
{
    const char *base = opts ? opts->base_path : NULL;
    const wm_input *source = opts ? opts->source : NULL;
    *native = *kept = 0;
    if (base) {
        wm_input in;
        wm_result r = wm_base_load(ctx, base, &wm_format_nwn2, &in);
        if (r)
            return r;
        if ((r = nwn2_file_parse(ctx, in.data, in.size, in.name, f)))
            wm_error_prefix(ctx, "--base");
        wm_input_free(ctx, &in);
        return r;
    }
    if (!source)
        return wm_error(ctx, WM_ERR_INVALID,
                        "%s: writing a TRN/TRX needs --base AREA.trx (an existing TRN/TRX whose other packets and "
                        "tile grid are kept)", path);
    if (opts->source_format != &wm_format_nwn2)
        return wm_error(ctx, WM_ERR_INVALID, "%s: writing a TRN/TRX needs --base AREA.trx (input %s is not one)",
                        path, source->name);
    wm_result r = write_source_if_unchanged(ctx, source, mesh, level, sink, kept);
    if (r || *kept)
        return r;
    if ((r = nwn2_file_parse_borrowing(ctx, source->data, source->size, source->name, f))) /* source outlives f */
        return r;
    *native = mesh_is_source(ctx, f, mesh);
    return WM_OK;
}

/* f's walkmesh made from the mesh; a large one is written at once, laid out
 * piece by piece from the compact walkmesh (*written = 1), a small one is
 * expanded into f->aswm for the whole-walkmesh writer. */
static wm_result write_from_mesh(wm_ctx *ctx, const wm_mesh *mesh, int level, wm_sink *sink, nwn2_file *f,
                                 int *written)
{
    nwn2_compact c;
    wm_result r = nwn2_compact_from_mesh(ctx, mesh, &f->aswm, &c);
    if (r)
        return r;
    if (!nwn2_stream_applies(f, &c, level))
        return nwn2_compact_expand(ctx, &c, &f->aswm);
    r = nwn2_file_write_compact(ctx, f, &c, sink);
    nwn2_compact_free(ctx, &c);
    *written = 1;
    return r;
}

static wm_result nwn2_write(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, const wm_options *opts)
{
    const char *path = wm_sink_path(sink);
    int level = zlib_level(opts);
    if (level == -2)
        return wm_error(ctx, WM_ERR_OPTION, "--zlib-level must be a number from 0 to 9");
    nwn2_file f;
    int native = 0, kept = 0;
    wm_result r = load_base(ctx, mesh, path, opts, level, sink, &f, &native, &kept);
    if (r || kept)
        return r;
    if (f.aswm_packet < 0)
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: no ASWM packet to replace",
                     opts->base_path ? opts->base_path : opts->source->name);
    else if (!native)
        r = write_from_mesh(ctx, mesh, level, sink, &f, &kept);
    if (!r && !kept) {
        wm_buffer buf;
        wm_buffer_init(&buf, ctx);
        r = nwn2_file_serialize_releasing(ctx, &f, level, &buf);
        if (!r)
            r = wm_sink_write(sink, NULL, buf.data, buf.size);
        wm_buffer_free(&buf);
    }
    nwn2_file_free(ctx, &f);
    return r;
}

static wm_result nwn2_validate_hook(wm_ctx *ctx, const wm_input *in, const wm_options *opts, wm_report *report)
{
    nwn2_file f;
    (void)opts;
    wm_result r = nwn2_file_parse_shared(ctx, in->data, in->size, in->name, &f); /* only read */
    if (r)
        return r;
    r = nwn2_validate(ctx, &f, report);
    nwn2_file_free(ctx, &f);
    return r;
}

const wm_format wm_format_nwn2 = {
    .name = "nwn2",
    .capabilities = WM_IS_WALKMESH,
    .description = "Neverwinter Nights 2 area terrain TRN/TRX (ASWM walkmesh; other packets kept byte-for-byte)",
    .extensions = nwn2_extensions,
    .probe = nwn2_probe,
    .read = nwn2_read,
    .write = nwn2_write,
    .validate = nwn2_validate_hook,
    .options = nwn2_options,
    .picture = nwn2_picture,
};
