/* The builder: everything a BWM holds, derived from vertices, faces,
 * materials and per-face-edge transitions, as BioWare's compiler does. */
#include "bwm/bwm.h"
#include "bwm/bwm_link.h"
#include "wm_surface.h"

#include <math.h>
#include <string.h>

int bwm_material_walkable(const wm_ctx *ctx, uint32_t material)
{
    const wm_surface_table *table = wm_surfaces(ctx);
    if (material > 0x7FFFFFFFu) return 0;
    uint16_t s = bwm_surface_of_material(table, material);
    return s != WM_SURFACE_NONE && wm_surface_walkable(table, s);
}

/* Scratch memory lent by the AABB node array, which is written only after
 * the adjacency and perimeter passes: memory that must be touched anyway
 * serves twice, where fresh scratch would cost a page fault per 4 KiB (on
 * some systems more than the work done in it). What does not fit is
 * allocated. Passing a scratch by value and dropping the copy releases what
 * was taken from the copy. */
typedef struct scratch {
    uint8_t *begin, *next, *end;
} scratch;

static scratch scratch_lend(void *memory, size_t size)
{
    scratch s = {NULL, NULL, NULL};
    if (memory) s = (scratch){memory, memory, (uint8_t *)memory + size};
    return s;
}

static void *scratch_take(wm_ctx *ctx, scratch *s, size_t count, size_t elem_size)
{
    size_t room = s->begin ? (size_t)(s->end - s->next) : 0;
    if (count > 0 && count <= room / elem_size) {
        void *p = s->next;
        size_t bytes = (count * elem_size + 7) & ~(size_t)7; /* keep the next block 8-byte aligned */
        s->next += bytes < room ? bytes : room;
        return p;
    }
    return wm_realloc_array(ctx, NULL, count, elem_size);
}

static void scratch_give_back(const wm_ctx *ctx, const scratch *s, void *p)
{
    uintptr_t a = (uintptr_t)p;
    if (a < (uintptr_t)s->begin || a >= (uintptr_t)s->end) wm_free(ctx, p);
}

/* Edges grouped by a vertex (compressed rows): row v lists codes in ascending order. */
typedef struct vertex_rows {
    uint32_t *start; /* vertex_count + 1 */
    uint32_t *codes;
} vertex_rows;

static void rows_free(const wm_ctx *ctx, const scratch *s, vertex_rows *rows)
{
    scratch_give_back(ctx, s, rows->start);
    scratch_give_back(ctx, s, rows->codes);
}

static uint32_t edge_vertex(const uint32_t *faces, uint32_t code, int end)
{
    uint32_t f = code / 3, e = code % 3;
    return faces[3 * (size_t)f + (end ? (e + 1) % 3 : e)];
}

/* The row of edge e of the face whose corners are face[0..3): its lower
 * vertex when by_low, else its start vertex. */
static uint32_t face_edge_row(const uint32_t *face, uint32_t e, int by_low)
{
    uint32_t a = face[e], b = face[e == 2 ? 0 : e + 1];
    return by_low && b < a ? b : a;
}

static uint32_t row_of(const uint32_t *faces, uint32_t code, int by_low)
{
    return face_edge_row(faces + 3 * (size_t)(code / 3), code % 3, by_low);
}

/* Groups the given ascending codes (NULL: the codes 0..count-1, count a
 * multiple of 3) by row_of(code). A counting sort: rows.start counts, then
 * serves as the fill cursor, then is shifted back, so no other array is
 * touched. */
static wm_result rows_build(wm_ctx *ctx, scratch *s, const uint32_t *faces, uint32_t vertex_count,
                            const uint32_t *codes, uint32_t count, int by_low, vertex_rows *rows)
{
    rows->start = scratch_take(ctx, s, (size_t)vertex_count + 1, sizeof(uint32_t));
    rows->codes = scratch_take(ctx, s, count, sizeof(uint32_t));
    if (!rows->start || !rows->codes) {
        rows_free(ctx, s, rows);
        return WM_ERR_NOMEM;
    }
    memset(rows->start, 0, ((size_t)vertex_count + 1) * sizeof(uint32_t));
    if (codes) {
        for (uint32_t i = 0; i < count; i++) rows->start[row_of(faces, codes[i], by_low) + 1]++;
    } else { /* every edge of count / 3 faces: their rows face by face, without dividing codes */
        for (uint32_t i = 0; i + 2 < count; i += 3)
            for (uint32_t e = 0; e < 3; e++) rows->start[face_edge_row(faces + i, e, by_low) + 1]++;
    }
    for (uint32_t v = 0; v < vertex_count; v++) rows->start[v + 1] += rows->start[v];
    /* start[v] is the fill cursor of row v: it ends where row v + 1 begins */
    if (codes) {
        for (uint32_t i = 0; i < count; i++) rows->codes[rows->start[row_of(faces, codes[i], by_low)]++] = codes[i];
    } else {
        for (uint32_t i = 0; i + 2 < count; i += 3)
            for (uint32_t e = 0; e < 3; e++) rows->codes[rows->start[face_edge_row(faces + i, e, by_low)]++] = i + e;
    }
    memmove(rows->start + 1, rows->start, (size_t)vertex_count * sizeof(uint32_t));
    rows->start[0] = 0;
    return WM_OK;
}

/* Adjacency among the first `walkable` faces, matched by vertex index: each
 * vertex row sorted by the other vertex, so a vertex shared by d edges costs
 * O(d log d), not O(d^2). The sort and the sharing counts need one row's
 * room at a time (rows are short), not an entry per edge: at 5M faces that
 * was 120 MB of fresh memory beside the work block. Rows are done in order,
 * so the warnings come in the order of the edges' rows as before. */
static wm_result build_adjacency(wm_ctx *ctx, bwm_file *f, uint32_t walkable, scratch s)
{
    uint32_t n = walkable * 3;
    vertex_rows rows = {0};
    uint32_t nonmanifold = 0;
    for (uint32_t i = 0; i < n; i++) f->adjacency[i] = -1;
    wm_result r = rows_build(ctx, &s, f->faces, f->vertex_count, NULL, n, 1, &rows);
    if (r) return r;
    uint32_t room = bwm_longest_row(rows.start, f->vertex_count);
    bwm_row_edge *sorted = scratch_take(ctx, &s, room, sizeof(bwm_row_edge));
    uint32_t *sides = scratch_take(ctx, &s, room, sizeof *sides);
    if (room && (!sorted || !sides)) {
        scratch_give_back(ctx, &s, sorted);
        scratch_give_back(ctx, &s, sides);
        rows_free(ctx, &s, &rows);
        return WM_ERR_NOMEM;
    }
    for (uint32_t v = 0; v < f->vertex_count; v++) {
        const uint32_t *codes = rows.codes + rows.start[v];
        uint32_t count = rows.start[v + 1] - rows.start[v];
        bwm_link_row(f, v, codes, count, sorted, sides);
        for (uint32_t i = 0; i < count; i++)
            if (sides[i] && nonmanifold++ < 5)
                wm_warn(ctx, "face %u edge %u: walkable edge shared by %u faces (linked to the first only)",
                        codes[i] / 3, codes[i] % 3, sides[i]);
    }
    if (nonmanifold > 5) wm_warn(ctx, "%u more walkable edges shared by three or more faces", nonmanifold - 5);
    scratch_give_back(ctx, &s, sides);
    scratch_give_back(ctx, &s, sorted);
    rows_free(ctx, &s, &rows);
    return WM_OK;
}

/* Boundary edges of walkable faces, chained into perimeter loops. */
static wm_result build_perimeters(wm_ctx *ctx, bwm_file *f, uint32_t walkable, const int32_t *transitions,
                                  scratch s)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < walkable * 3; i++) n += f->adjacency[i] < 0;
    uint32_t *open = scratch_take(ctx, &s, n, sizeof(uint32_t));
    uint8_t *used = scratch_take(ctx, &s, n, 1);
    vertex_rows rows = {0};
    f->edges = wm_realloc_array(ctx, NULL, n, sizeof(bwm_edge));
    f->perimeters = wm_realloc_array(ctx, NULL, n, sizeof(uint32_t));
    wm_result r = (open && used && f->edges && f->perimeters) ? WM_OK : WM_ERR_NOMEM;
    if (!r) {
        memset(used, 0, n);
        n = 0;
        for (uint32_t i = 0; i < walkable * 3; i++)
            if (f->adjacency[i] < 0) open[n++] = i;
        r = rows_build(ctx, &s, f->faces, f->vertex_count, open, n, 0, &rows);
    }
    if (!r) {
        /* used[] is indexed by the position of a code in `open` (ascending), found by binary search */
        uint32_t out = 0, next_start = 0;
        while (out < n) {
            while (used[next_start]) next_start++;
            uint32_t code = open[next_start];
            uint32_t first_vertex = edge_vertex(f->faces, code, 0);
            for (;;) {
                uint32_t lo = 0, hi = n;
                while (lo < hi) {
                    uint32_t mid = lo + (hi - lo) / 2;
                    if (open[mid] < code) lo = mid + 1; else hi = mid;
                }
                used[lo] = 1;
                f->edges[out].code = code;
                f->edges[out].transition = transitions ? transitions[code] : -1;
                out++;
                uint32_t end = edge_vertex(f->faces, code, 1), next = BWM_NONE;
                if (end == first_vertex) break;
                /* rows.start[end] moves past used edges for good: a vertex many loops pass costs
                 * its edges once, not once per visit */
                for (uint32_t k = rows.start[end]; k < rows.start[end + 1] && next == BWM_NONE; k++) {
                    uint32_t c = rows.codes[k], a = 0, b = n;
                    while (a < b) {
                        uint32_t mid = a + (b - a) / 2;
                        if (open[mid] < c) a = mid + 1; else b = mid;
                    }
                    if (!used[a]) next = c;
                    else if (k == rows.start[end]) rows.start[end]++;
                }
                if (next == BWM_NONE) break;
                code = next;
            }
            f->perimeters[f->perimeter_count++] = out;
        }
        f->edge_count = n;
    }
    rows_free(ctx, &s, &rows);
    scratch_give_back(ctx, &s, open);
    scratch_give_back(ctx, &s, used);
    return r;
}

/* Fills order with the input faces, walkable ones first, each group in input order. */
static wm_result walkable_first_order(wm_ctx *ctx, const bwm_build_input *in, scratch s, uint32_t *order,
                                      uint32_t *out_walkable)
{
    uint32_t nf = in->face_count, walkable = 0, position = 0;
    uint8_t *is_walkable = scratch_take(ctx, &s, nf, 1);
    if (!is_walkable) return WM_ERR_NOMEM;
    uint8_t by_material[64];
    for (uint32_t m = 0; m < 64; m++) by_material[m] = (uint8_t)bwm_material_walkable(ctx, m);
    for (uint32_t i = 0; i < nf; i++) {
        uint32_t m = in->materials[i];
        is_walkable[i] = in->walkable ? in->walkable[i] != 0
                                      : (uint8_t)(m < 64 ? by_material[m] : bwm_material_walkable(ctx, m));
        walkable += is_walkable[i];
    }
    for (uint32_t i = 0, next_other = walkable; i < nf; i++) order[is_walkable[i] ? position++ : next_other++] = i;
    scratch_give_back(ctx, &s, is_walkable);
    *out_walkable = walkable;
    return WM_OK;
}

/* Faces and materials put in `order` (new position i holds old order[i])
 * where they are, one cycle of the permutation at a time: an input taken
 * over needs no second copy. */
static wm_result permute_in_place(wm_ctx *ctx, bwm_file *f, const uint32_t *order, scratch s)
{
    uint32_t n = f->face_count;
    uint8_t *done = scratch_take(ctx, &s, n, 1);
    if (!done) return WM_ERR_NOMEM;
    memset(done, 0, n);
    for (uint32_t i = 0; i < n; i++) {
        if (done[i] || order[i] == i) continue;
        uint32_t face[3], material = f->materials[i], j = i;
        memcpy(face, &f->faces[3 * (size_t)i], sizeof face);
        for (;;) {
            done[j] = 1;
            uint32_t k = order[j];
            if (k == i) {
                memcpy(&f->faces[3 * (size_t)j], face, sizeof face);
                f->materials[j] = material;
                break;
            }
            memcpy(&f->faces[3 * (size_t)j], &f->faces[3 * (size_t)k], sizeof face);
            f->materials[j] = f->materials[k];
            j = k;
        }
    }
    scratch_give_back(ctx, &s, done);
    return WM_OK;
}

/* Arrays bwm_build_taking took over (NULL when copying). */
typedef struct taken_arrays {
    float *vertices;
    uint32_t *faces, *materials;
    int for_writing; /* a WOK's planes, tree and adjacency derived when written (bwm_derived) */
    int borrowed;    /* vertices and faces stay the caller's (bwm_build_borrowing) */
} taken_arrays;

/* Borrowed faces in walkable-first order: the input's own array when that is
 * its order already (every face walkable, or the walkable ones first), else
 * a copy of the file's own to put in order. */
static wm_result own_faces_unless_in_order(wm_ctx *ctx, bwm_file *f, const uint32_t *order)
{
    uint32_t n = f->face_count, i = 0;
    while (i < n && order[i] == i) i++;
    if (!(f->borrowed & BWM_BORROWED_FACES) || i == n) return WM_OK;
    uint32_t *own = wm_realloc_array(ctx, NULL, n, 3 * sizeof(uint32_t));
    if (!own) return WM_ERR_NOMEM;
    memcpy(own, f->faces, (size_t)n * 3 * sizeof(uint32_t));
    f->faces = own;
    f->borrowed &= ~BWM_BORROWED_FACES;
    return WM_OK;
}

/* The file's arrays of per-vertex and per-face data: vertices, faces and
 * materials taken over or room for copies, normals and distances. */
static wm_result geometry_arrays(wm_ctx *ctx, const bwm_build_input *in, const taken_arrays *taken, int derived,
                                 bwm_file *f)
{
    uint32_t nf = in->face_count;
    if (!taken) {
        f->vertices = wm_realloc_array(ctx, NULL, in->vertex_count, 3 * sizeof(float));
        f->faces = wm_realloc_array(ctx, NULL, nf, 3 * sizeof(uint32_t));
        f->materials = wm_realloc_array(ctx, NULL, nf, sizeof(uint32_t));
    }
    if (!derived) {
        f->normals = wm_realloc_array(ctx, NULL, nf, 3 * sizeof(float));
        f->distances = wm_realloc_array(ctx, NULL, nf, sizeof(float));
    }
    return f->vertices && f->faces && f->materials && (derived || (f->normals && f->distances)) ? WM_OK
                                                                                                : WM_ERR_NOMEM;
}

/* The work block of a derived WOK (bwm_derived): the build's scratch first,
 * then the writer's planes, tree records and adjacency in turn. */
static wm_result derived_work(wm_ctx *ctx, uint32_t face_count, bwm_file *f)
{
    f->derived.work_size = bwm_aabb_stream_bytes(face_count) + 128;
    f->derived.work = wm_realloc_array(ctx, NULL, f->derived.work_size, 1);
    return f->derived.work ? WM_OK : WM_ERR_NOMEM;
}

wm_result bwm_adjacency_into(wm_ctx *ctx, const bwm_file *file, int32_t *adjacency, void *work, size_t work_size)
{
    bwm_file f = *file;
    wm_ctx quiet = *ctx;
    quiet.warn = NULL;
    f.adjacency = adjacency;
    wm_result r = build_adjacency(&quiet, &f, file->adjacency_count, scratch_lend(work, work_size));
    if (r == WM_ERR_NOMEM) wm_error(ctx, r, "out of memory deriving the walkmesh's adjacency");
    return r;
}

/* Adjacency, boundary edges and perimeters of the first `walkable` faces,
 * transitions put in face order, and the warning for those BWM cannot keep.
 * A derived WOK's adjacency lives in scratch and is dropped afterwards. */
static wm_result walkable_links(wm_ctx *ctx, bwm_file *f, const bwm_build_input *in, const uint32_t *order,
                                uint32_t walkable, scratch lent)
{
    uint32_t nf = f->face_count;
    int32_t *transitions = NULL;
    if (in->transitions) {
        transitions = scratch_take(ctx, &lent, nf, 3 * sizeof(int32_t));
        if (!transitions) return WM_ERR_NOMEM;
        for (uint32_t i = 0; i < nf; i++)
            memcpy(&transitions[3 * (size_t)i], &in->transitions[3 * (size_t)order[i]], 3 * sizeof(int32_t));
    }
    int derived = f->derived.work != NULL;
    f->adjacency = derived ? scratch_take(ctx, &lent, walkable, 3 * sizeof(int32_t))
                           : wm_realloc_array(ctx, NULL, walkable, 3 * sizeof(int32_t));
    wm_result r = f->adjacency ? WM_OK : WM_ERR_NOMEM;
    if (!r) r = build_adjacency(ctx, f, walkable, lent);
    if (!r) r = build_perimeters(ctx, f, walkable, transitions, lent);
    uint32_t lost = 0, first = 0;
    if (!r && transitions) r = bwm_lost_transitions(ctx, f, walkable, transitions, &lost, &first);
    if (!r && lost)
        wm_warn(ctx, "%u transitions are on edges that are not walkable boundary edges; BWM cannot keep them "
                     "(the first on face %u edge %u, room %d)",
                lost, order[first / 3], first % 3, transitions[first]);
    if (derived) {
        scratch_give_back(ctx, &lent, f->adjacency);
        f->adjacency = NULL;
    }
    scratch_give_back(ctx, &lent, transitions);
    return r;
}

/* The AABB tree, which overwrites the scratch lent from its memory (order
 * among it: read before). */
static wm_result build_tree(wm_ctx *ctx, bwm_file *f, const bwm_build_input *in, const uint32_t *order)
{
    uint32_t *rank = NULL;
    if (in->tie_rank) {
        rank = wm_realloc_array(ctx, NULL, f->face_count, sizeof(uint32_t));
        if (!rank) return WM_ERR_NOMEM;
        for (uint32_t i = 0; i < f->face_count; i++) rank[i] = in->tie_rank[order[i]];
    }
    wm_result r = bwm_build_aabb(ctx, f->vertices, f->faces, f->face_count, rank, in->planes, f->aabb);
    wm_free(ctx, rank);
    return r;
}

/* Everything but the tree's nodes: arrays, the memory scratch comes from. */
static wm_result allocate(wm_ctx *ctx, const bwm_build_input *in, const taken_arrays *taken, bwm_file *f,
                          scratch *lent)
{
    uint32_t nf = in->face_count;
    /* the writer derives again from the file alone: no tie rank, no planes kept from a source */
    int derived = taken && taken->for_writing && in->type == BWM_TYPE_AREA && nf > 0 && !in->tie_rank &&
                  !in->normals;
    if (geometry_arrays(ctx, in, taken, derived, f)) return WM_ERR_NOMEM;
    if (in->type == BWM_TYPE_AREA && nf > 0) {
        f->aabb_count = 2 * nf - 1;
        if (derived) {
            f->derived.planes = in->planes;
            if (derived_work(ctx, nf, f)) return WM_ERR_NOMEM;
        } else {
            f->aabb = wm_realloc_array(ctx, NULL, (size_t)f->aabb_count + BWM_AABB_SPARE_NODES,
                                       sizeof(bwm_aabb_node));
            if (!f->aabb) return WM_ERR_NOMEM;
        }
    }
    /* the tree is built (or written) last: until then its memory is the scratch of the other passes */
    *lent = derived ? scratch_lend(f->derived.work, f->derived.work_size)
                    : scratch_lend(f->aabb, ((size_t)f->aabb_count + BWM_AABB_SPARE_NODES) * sizeof(bwm_aabb_node));
    return WM_OK;
}

static wm_result build(wm_ctx *ctx, const bwm_build_input *in, const taken_arrays *taken, bwm_file *out)
{
    bwm_file *f = out;
    uint32_t nf = in->face_count, walkable = 0;
    uint32_t *order = NULL;
    scratch lent = scratch_lend(NULL, 0);
    wm_result r = WM_OK;

    bwm_file_init(f);
    f->type = in->type;
    f->empty_offsets_zero = in->type == BWM_TYPE_PLACEABLE;
    int adopt = taken != NULL;
    if (adopt) { /* taken over now: freed with the file on any failure */
        f->vertices = taken->vertices;
        f->faces = taken->faces;
        f->materials = taken->materials;
        f->borrowed = taken->borrowed ? BWM_BORROWED_VERTICES | BWM_BORROWED_FACES : 0;
    }
    for (size_t i = 0; i < (size_t)nf * 3; i++)
        if (in->faces[i] >= in->vertex_count) {
            r = wm_error(ctx, WM_ERR_INVALID, "face %u: vertex index %u out of range (%u vertices)",
                         (unsigned)(i / 3), in->faces[i], in->vertex_count);
            bwm_file_free(ctx, f);
            return r;
        }

    f->vertex_count = in->vertex_count;
    f->face_count = nf;
    if (allocate(ctx, in, taken, f, &lent)) goto nomem;
    order = scratch_take(ctx, &lent, nf, sizeof(uint32_t));
    if (!order) goto nomem;
    if (!adopt && in->vertex_count) memcpy(f->vertices, in->vertices, (size_t)in->vertex_count * 3 * sizeof(float));

    if (walkable_first_order(ctx, in, lent, order, &walkable)) goto nomem;
    if (adopt) {
        if (own_faces_unless_in_order(ctx, f, order) || permute_in_place(ctx, f, order, lent)) goto nomem;
    } else {
        for (uint32_t i = 0; i < nf; i++) {
            memcpy(&f->faces[3 * (size_t)i], &in->faces[3 * (size_t)order[i]], 3 * sizeof(uint32_t));
            f->materials[i] = in->materials[order[i]];
        }
    }
    if (in->type == BWM_TYPE_AREA) f->adjacency_count = walkable;
    if (f->derived.work) /* the planes are derived again as they are written: their warnings only */
        bwm_plane_warnings(ctx, f);
    else
        bwm_compute_planes(ctx, f, in, order);
    if (!r && in->type == BWM_TYPE_AREA) r = walkable_links(ctx, f, in, order, walkable, lent);
    if (in->type != BWM_TYPE_AREA) f->adjacency_count = 0;
    if (!r && in->type == BWM_TYPE_AREA && nf > 0 && !f->derived.work) r = build_tree(ctx, f, in, order);
    scratch_give_back(ctx, &lent, order);
    if (r) bwm_file_free(ctx, f);
    return r;
nomem:
    scratch_give_back(ctx, &lent, order);
    bwm_file_free(ctx, f);
    return WM_ERR_NOMEM;
}

wm_result bwm_build(wm_ctx *ctx, const bwm_build_input *in, bwm_file *out)
{
    return build(ctx, in, NULL, out);
}

wm_result bwm_build_taking(wm_ctx *ctx, const bwm_build_input *in, float *vertices, uint32_t *faces,
                           uint32_t *materials, bwm_file *out)
{
    taken_arrays taken = {vertices, faces, materials, 0, 0};
    return build(ctx, in, &taken, out);
}

wm_result bwm_build_for_writing(wm_ctx *ctx, const bwm_build_input *in, float *vertices, uint32_t *faces,
                                uint32_t *materials, bwm_file *out)
{
    taken_arrays taken = {vertices, faces, materials, 1, 0};
    return build(ctx, in, &taken, out);
}

wm_result bwm_build_borrowing(wm_ctx *ctx, const bwm_build_input *in, uint32_t *materials, bwm_file *out)
{
    /* the file writes to borrowed arrays never: faces out of order are copied first */
    taken_arrays taken = {(float *)(uintptr_t)in->vertices, (uint32_t *)(uintptr_t)in->faces, materials, 1, 1};
    return build(ctx, in, &taken, out);
}
