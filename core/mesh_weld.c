/* Welding, degenerate removal and compaction of the neutral mesh. */
#include "wm_geometry.h"
#include "wm_mesh.h"

#include <math.h>
#include <string.h>

/* Representatives by cell, open addressing: an entry holds representative + 1
 * in its low index_bits and the top bits of its cell's hash (the tag) above
 * them, 0 when empty, stored from the home slot hash & mask onwards. A probe
 * reads a run of adjacent entries (mostly one cache line) and skips those
 * tagged with another cell's hash without reading their positions. The tag
 * only filters: a representative within the tolerance is always in a probed
 * cell, so one of another cell let through by a shared tag is either beyond
 * the tolerance or would be found anyway, and the result is that of
 * examining them all. Four-byte entries keep the table half the size of
 * eight-byte ones: at 2.5M vertices 16 MB, within a last-level cache. */
typedef struct weld_table {
    uint32_t *entries;
    uint32_t mask;
    uint32_t tag_mask; /* the bits above the representative's */
} weld_table;

static uint32_t cell_hash(int64_t x, int64_t y, int64_t z)
{
    /* unsigned arithmetic: the products wrap instead of overflowing */
    uint64_t h = (uint64_t)x * 0x9E3779B97F4A7C15ull ^ (uint64_t)y * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)z * 0x165667B19E3779F9ull;
    return (uint32_t)(h ^ (h >> 32));
}

/* Cells of huge coordinates are clamped: converting a double beyond the
 * int64 range is undefined, and the hash only needs nearby cells to differ.
 * The walls are half a cell off the multiples of the cell size, so that a
 * coordinate of 0 (a floor at height 0, a model's axis) is mid-cell rather
 * than on a wall, where it would make every such vertex probe two cells
 * (a 1M-face grid: 1.55 -> 1.25 cells a vertex at 1e-4, 1.22 -> 1.14 at
 * 1e-6). Any shift keeps the cells growing with v: the same merges. */
static int64_t cell_of(float v, float cell)
{
    double c = floor((double)v / cell + 0.5);
    const double limit = 4.0e18;
    return c > limit ? (int64_t)limit : c < -limit ? -(int64_t)limit : (int64_t)c;
}

/* The hash of the cell holding q. */
static uint32_t home_hash(const float *q, float cell)
{
    return cell_hash(cell_of(q[0], cell), cell_of(q[1], cell), cell_of(q[2], cell));
}

static void table_insert(weld_table *t, uint32_t hash, uint32_t v)
{
    uint32_t slot = hash & t->mask;
    while (t->entries[slot])
        slot = (slot + 1) & t->mask;
    t->entries[slot] = (hash & t->tag_mask) | (v + 1);
}

/* The least representative of cell `hash` within the tolerance of q, or found. */
static uint32_t table_nearest(const weld_table *t, uint32_t hash, const float *p, const float *q, double tol2,
                              uint32_t found)
{
    uint32_t tag = hash & t->tag_mask;
    for (uint32_t slot = hash & t->mask; t->entries[slot]; slot = (slot + 1) & t->mask) {
        uint32_t e = t->entries[slot];
        uint32_t r = (e & ~t->tag_mask) - 1;
        if ((e & t->tag_mask) != tag || (found != UINT32_MAX && r > found))
            continue;
        const float *s = p + 3 * (size_t)r;
        double ddx = (double)s[0] - q[0], ddy = (double)s[1] - q[1], ddz = (double)s[2] - q[2];
        if (ddx * ddx + ddy * ddy + ddz * ddz <= tol2)
            found = r;
    }
    return found;
}

/* The least representative within the tolerance of q in every cell that the
 * box of +-tolerance around q overlaps, or UINT32_MAX. */
static uint32_t nearest(const weld_table *t, const float *p, const float *q, float tolerance, float cell)
{
    int64_t lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        lo[k] = cell_of(q[k] - tolerance, cell);
        hi[k] = cell_of(q[k] + tolerance, cell);
    }
    double tol2 = (double)tolerance * tolerance;
    uint32_t found = UINT32_MAX;
    for (int64_t cx = lo[0]; cx <= hi[0]; cx++)
        for (int64_t cy = lo[1]; cy <= hi[1]; cy++)
            for (int64_t cz = lo[2]; cz <= hi[2]; cz++)
                found = table_nearest(t, cell_hash(cx, cy, cz), p, q, tol2, found);
    return found;
}

#define WELD_AHEAD 8u
#if defined(__GNUC__)
#define WELD_PREFETCH(address) __builtin_prefetch(address)
#else
#define WELD_PREFETCH(address) ((void)(address))
#endif

wm_result wm_mesh_check_finite(wm_ctx *ctx, const wm_mesh *mesh)
{
    for (uint32_t v = 0; v < mesh->vertex_count; v++) {
        const float *p = mesh->positions + 3 * (size_t)v;
        if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]))
            return wm_error(ctx, WM_ERR_CORRUPT, "vertex %u: coordinates (%g, %g, %g) are not all finite numbers", v,
                            (double)p[0], (double)p[1], (double)p[2]);
    }
    return WM_OK;
}

/* remap[v] = to, allocating the map (kept vertices before v map to themselves) at the first merge. */
static int map_merge(wm_ctx *ctx, uint32_t **remap, uint32_t n, uint32_t v, uint32_t to)
{
    if (!*remap) {
        *remap = wm_realloc_array(ctx, NULL, n, sizeof(uint32_t));
        for (uint32_t w = 0; *remap && w < v; w++)
            (*remap)[w] = w;
    }
    if (*remap)
        (*remap)[v] = to;
    return *remap != NULL;
}

wm_result wm_mesh_weld_map(wm_ctx *ctx, const wm_mesh *mesh, float tolerance, uint32_t **out_map, uint32_t *out_merged)
{
    uint32_t n = mesh->vertex_count, merged = 0, *remap = NULL;
    *out_merged = 0;
    *out_map = NULL;
    if (!(tolerance > 0.0f) || n == 0)
        return WM_OK;
    wm_result finite = wm_mesh_check_finite(ctx, mesh);
    if (finite)
        return finite;
    if (n > (1u << 30))
        return wm_error(ctx, WM_ERR_NOMEM, "weld: %u vertices are more than its table holds", n);
    /* at most two thirds full: runs stay within a cache line or two, and the
     * table is no larger than the slot heads and chain links it replaced */
    uint32_t slots = 1;
    while (slots < n + n / 2u)
        slots <<= 1;
    uint32_t index_bits = 1;
    while (index_bits < 32 && (n >> index_bits) != 0) /* n < 2^index_bits: v + 1 fits */
        index_bits++;
    weld_table table = {wm_alloc_array(ctx, slots, sizeof(uint32_t)), slots - 1, ~((1u << index_bits) - 1u)};
    if (!table.entries)
        return WM_ERR_NOMEM;
    const float *p = mesh->positions;
    /* Cells about sixteen times the tolerance: the box of +-tolerance around a
     * vertex overlaps 1 or 2 cells per axis (1.4 cells on average, against
     * 3.4 with cells of four tolerances and always 27 with cells of the
     * tolerance itself). Each cell probed is a cache miss in the table,
     * which is most of the weld's time; vertices closer together than 16
     * tolerances are rare in a walkmesh. The cell size changes only which
     * cells are looked at, never the result: every representative within
     * the tolerance is in one of them. The factor is not a round number:
     * with exactly 16 the tolerance's powers of ten put cell walls on the
     * round coordinates modellers snap to (0.5, 0.07 with 1e-6: x / cell
     * whole), where a vertex probes 2 cells an axis, each a cache miss (a
     * 1M-face grid: 2.38 cells a vertex at 1e-6 and 2.91 at 1e-4, against
     * 1.14 and 1.25 now, with the walls' half-cell shift in cell_of). */
    float cell = 16.61803f * tolerance;
    /* Each vertex's home cell is hashed eight vertices ahead and its slot
     * fetched then, so that the cache miss overlaps the probes in between;
     * the hash is kept for the insertion, so nothing is computed twice. */
    uint32_t ahead[WELD_AHEAD];
    for (uint32_t v = 0; v < n && v < WELD_AHEAD; v++)
        ahead[v] = home_hash(p + 3 * (size_t)v, cell);
    for (uint32_t v = 0; v < n; v++) {
        const float *q = p + 3 * (size_t)v;
        uint32_t home = ahead[v % WELD_AHEAD];
        if (v + WELD_AHEAD < n) {
            ahead[v % WELD_AHEAD] = home_hash(q + 3 * WELD_AHEAD, cell);
            WELD_PREFETCH(&table.entries[ahead[v % WELD_AHEAD] & table.mask]);
        }
        uint32_t found = nearest(&table, p, q, tolerance, cell);
        if (found == UINT32_MAX) {
            table_insert(&table, home, v);
            if (remap)
                remap[v] = v;
        } else if (map_merge(ctx, &remap, n, v, found)) {
            merged++;
        } else {
            break;
        }
    }
    wm_free(ctx, table.entries);
    if (merged && !remap)
        return WM_ERR_NOMEM;
    *out_map = remap;
    *out_merged = merged;
    return WM_OK;
}

wm_result wm_mesh_weld(wm_ctx *ctx, wm_mesh *mesh, float tolerance, uint32_t *out_merged)
{
    uint32_t n = mesh->vertex_count, merged = 0, *remap = NULL;
    if (out_merged)
        *out_merged = 0;
    wm_result r = wm_mesh_weld_map(ctx, mesh, tolerance, &remap, &merged);
    for (size_t i = 0; remap && i < 3 * (size_t)mesh->triangle_count; i++) /* none merged: no map */
        if (mesh->indices[i] < n)
            mesh->indices[i] = remap[mesh->indices[i]];
    wm_free(ctx, remap);
    if (r)
        return r;
    if (out_merged)
        *out_merged = merged;
    return merged ? wm_mesh_compact(ctx, mesh) : WM_OK;
}

wm_result wm_mesh_remove_degenerate(wm_ctx *ctx, wm_mesh *mesh, float min_area, uint32_t *out_removed)
{
    (void)ctx;
    uint32_t kept = 0;
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        const uint32_t *tri = mesh->indices + 3 * (size_t)t;
        int degenerate = tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2];
        if (!degenerate) {
            float area = wm_tri_area(mesh->positions + 3 * (size_t)tri[0], mesh->positions + 3 * (size_t)tri[1],
                                     mesh->positions + 3 * (size_t)tri[2]);
            degenerate = !(area > min_area);
        }
        if (degenerate)
            continue;
        if (kept != t) {
            memmove(mesh->indices + 3 * (size_t)kept, tri, 3 * sizeof(uint32_t));
            memmove(mesh->transitions + 3 * (size_t)kept, mesh->transitions + 3 * (size_t)t, 3 * sizeof(int32_t));
            mesh->surfaces[kept] = mesh->surfaces[t];
            mesh->walkable[kept] = mesh->walkable[t];
            mesh->objects[kept] = mesh->objects[t];
        }
        kept++;
    }
    if (out_removed)
        *out_removed = mesh->triangle_count - kept;
    mesh->triangle_count = kept;
    return WM_OK;
}

/* A byte a vertex, 1 for those a triangle uses; *unused counts the others. NULL: out of memory. */
static uint8_t *used_vertices(wm_ctx *ctx, const wm_mesh *mesh, uint32_t *unused)
{
    uint32_t n = mesh->vertex_count, used_count = 0;
    uint8_t *used = wm_alloc_array(ctx, (size_t)n + 1, 1);
    if (!used)
        return NULL;
    for (size_t i = 0; i < 3 * (size_t)mesh->triangle_count; i++) {
        uint32_t v = mesh->indices[i];
        used[v < n ? v : n] = 1; /* out of range: the spare byte, not counted */
    }
    for (uint32_t v = 0; v < n; v++) /* without branches: vectorised */
        used_count += used[v];
    *unused = n - used_count;
    return used;
}

wm_result wm_mesh_count_unused(wm_ctx *ctx, const wm_mesh *mesh, uint32_t *out_unused)
{
    uint8_t *used = used_vertices(ctx, mesh, out_unused);
    wm_free(ctx, used);
    return used ? WM_OK : WM_ERR_NOMEM;
}

/* Unused vertices are rare: the map of new indices is made only when there are some, and
 * whether there are takes a byte a vertex, not a word. */
wm_result wm_mesh_compact(wm_ctx *ctx, wm_mesh *mesh)
{
    uint32_t n = mesh->vertex_count, unused;
    uint8_t *used = used_vertices(ctx, mesh, &unused);
    uint32_t *remap = used && unused ? wm_realloc_array(ctx, NULL, n, sizeof(uint32_t)) : NULL;
    if (!used || (unused && !remap)) {
        wm_free(ctx, used);
        return WM_ERR_NOMEM;
    }
    uint32_t next = 0;
    for (uint32_t v = 0; remap && v < n; v++) {
        if (!used[v])
            continue;
        if (next != v)
            memcpy(mesh->positions + 3 * (size_t)next, mesh->positions + 3 * (size_t)v, 3 * sizeof(float));
        remap[v] = next++;
    }
    for (size_t i = 0; remap && i < 3 * (size_t)mesh->triangle_count; i++)
        if (mesh->indices[i] < n)
            mesh->indices[i] = remap[mesh->indices[i]];
    if (remap)
        mesh->vertex_count = next;
    wm_free(ctx, remap);
    wm_free(ctx, used);
    return WM_OK;
}
