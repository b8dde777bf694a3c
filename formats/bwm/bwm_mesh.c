/* BWM <-> neutral mesh. */
#include "bwm/bwm.h"
#include "wm_surface.h"

#include <math.h>
#include <string.h>

static uint16_t surface_of_material(wm_ctx *ctx, uint32_t material, uint32_t *unknown)
{
    const wm_surface_table *table = wm_surfaces(ctx);
    uint16_t s = bwm_surface_of_material(table, material);
    if (s == WM_SURFACE_NONE) {
        (*unknown)++;
        return WM_SURF_UNDEFINED;
    }
    return s;
}

wm_result bwm_face_transitions(wm_ctx *ctx, const bwm_file *file, int32_t **out)
{
    size_t n = (size_t)file->face_count * 3;
    int32_t *t = wm_alloc_array(ctx, n, sizeof(int32_t));
    *out = t;
    if (!t) return WM_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) t[i] = -1;
    for (uint32_t e = 0; e < file->edge_count; e++)
        if (file->edges[e].code < n) t[file->edges[e].code] = file->edges[e].transition;
    return WM_OK;
}

wm_result bwm_to_mesh(wm_ctx *ctx, const bwm_file *file, const char *name, wm_mesh *out)
{
    uint32_t unknown = 0;
    int32_t *transitions = NULL;
    wm_result r = wm_mesh_reserve(ctx, out, file->vertex_count, file->face_count);
    if (name) {
        strncpy(out->name, name, sizeof(out->name) - 1);
        out->name[sizeof(out->name) - 1] = 0;
    }
    for (uint32_t v = 0; !r && v < file->vertex_count; v++)
        r = wm_mesh_add_vertex(ctx, out, file->vertices[3 * (size_t)v], file->vertices[3 * (size_t)v + 1],
                               file->vertices[3 * (size_t)v + 2], NULL);
    if (!r) r = bwm_face_transitions(ctx, file, &transitions);
    uint32_t base = out->triangle_count;
    for (uint32_t f = 0; !r && f < file->face_count; f++) {
        const uint32_t *t = &file->faces[3 * (size_t)f];
        uint16_t s = surface_of_material(ctx, file->materials[f], &unknown);
        r = wm_mesh_add_triangle(ctx, out, t[0], t[1], t[2], s, wm_surface_walkable(wm_surfaces(ctx), s));
        if (!r) memcpy(&out->transitions[3 * (size_t)(base + f)], &transitions[3 * (size_t)f], 3 * sizeof(int32_t));
    }
    wm_free(ctx, transitions);
    if (!r) r = bwm_points_to_mesh(ctx, file, out);
    if (!r && unknown)
        wm_warn(ctx, "%s: %u faces have materials unknown to the surface table (read as undefined)",
                name ? name : "walkmesh", unknown);
    return r;
}

/* KotOR material for a neutral surface; surfaces without a KotOR row follow the walkable bit. */
static uint32_t material_of_surface(const wm_ctx *ctx, uint16_t surface, int walkable, uint32_t *guessed)
{
    int32_t id = bwm_material_of_surface(wm_surfaces(ctx), surface);
    if (id >= 0 && !(id == WM_SURF_UNDEFINED && walkable)) return (uint32_t)id;
    (*guessed)++;
    return walkable ? WM_SURF_DIRT : WM_SURF_NONWALK;
}

/* The material a face of this surface and walkable bit gets, and whether it was guessed
 * (no KotOR row) or changed to follow the walkable bit (the game reads walkability from
 * the material). */
typedef struct face_material {
    uint32_t material;
    uint8_t guessed, disagrees, known;
} face_material;

static face_material material_for(wm_ctx *ctx, uint16_t surface, int walkable)
{
    face_material m = {0, 0, 0, 1};
    uint32_t guessed = 0;
    m.material = material_of_surface(ctx, surface, walkable, &guessed);
    m.guessed = guessed != 0;
    if (bwm_material_walkable(ctx, m.material) != (walkable != 0)) {
        m.material = walkable ? WM_SURF_DIRT : WM_SURF_NONWALK;
        m.disagrees = 1;
    }
    return m;
}

/* Every face's material, each (surface, walkable) pair looked up in the surface table once. */
static wm_result face_materials(wm_ctx *ctx, const wm_mesh *mesh, uint32_t *materials, uint32_t *guessed,
                                uint32_t *disagree)
{
    size_t pairs = 2 * (size_t)wm_surfaces(ctx)->count;
    face_material *seen = wm_alloc_array(ctx, pairs ? pairs : 1, sizeof *seen); /* zeroed: none known */
    if (!seen) return WM_ERR_NOMEM;
    for (uint32_t t = 0; t < mesh->triangle_count; t++) {
        size_t pair = 2 * (size_t)mesh->surfaces[t] + (mesh->walkable[t] != 0);
        face_material m = pair < pairs && seen[pair].known ? seen[pair]
                                                           : material_for(ctx, mesh->surfaces[t], mesh->walkable[t]);
        if (pair < pairs) seen[pair] = m;
        materials[t] = m.material;
        *guessed += m.guessed;
        *disagree += m.disagrees;
    }
    wm_free(ctx, seen);
    return WM_OK;
}

/* A mesh holding copies of the positions and indices only: all that welding
 * and compaction change (the per-triangle attributes are read from the
 * source, so copying them would only touch fresh memory). */
static wm_result copy_geometry(wm_ctx *ctx, const wm_mesh *mesh, wm_mesh *geometry)
{
    wm_mesh_init(geometry);
    geometry->positions = wm_realloc_array(ctx, NULL, mesh->vertex_count, 3 * sizeof(float));
    geometry->indices = wm_realloc_array(ctx, NULL, mesh->triangle_count, 3 * sizeof(uint32_t));
    if (!geometry->positions || !geometry->indices) {
        wm_mesh_free(ctx, geometry);
        return WM_ERR_NOMEM;
    }
    if (mesh->vertex_count) /* an empty mesh has no arrays to copy from */
        memcpy(geometry->positions, mesh->positions, (size_t)mesh->vertex_count * 3 * sizeof(float));
    if (mesh->triangle_count)
        memcpy(geometry->indices, mesh->indices, (size_t)mesh->triangle_count * 3 * sizeof(uint32_t));
    geometry->vertex_count = geometry->vertex_capacity = mesh->vertex_count;
    geometry->triangle_count = geometry->triangle_capacity = mesh->triangle_count;
    return WM_OK;
}

/* The positions and indices the file is built from: the mesh's own (*borrowed set, the
 * mesh unchanged) when welding merges nothing, every vertex is used and the caller may
 * borrow (a file that is only written; a file handed out owns its arrays), which is the
 * usual case and costs no copy; else copies, welded and compacted as wm_mesh_weld and
 * wm_mesh_compact leave them. */
static wm_result welded_geometry(wm_ctx *ctx, const wm_mesh *mesh, float tolerance, int may_borrow, wm_mesh *welded,
                                 int *borrowed)
{
    uint32_t merged = 0, unused = 0, *remap = NULL;
    wm_result r = wm_mesh_weld_map(ctx, mesh, tolerance, &remap, &merged);
    if (!r && !merged) r = wm_mesh_count_unused(ctx, mesh, &unused);
    int unchanged = !r && !merged && !unused;
    *borrowed = unchanged && may_borrow;
    if (*borrowed) {
        wm_mesh_init(welded);
        welded->positions = mesh->positions;
        welded->indices = mesh->indices;
        welded->vertex_count = welded->vertex_capacity = mesh->vertex_count;
        welded->triangle_count = welded->triangle_capacity = mesh->triangle_count;
    } else if (!r) {
        r = copy_geometry(ctx, mesh, welded);
        for (size_t i = 0; !r && remap && i < 3 * (size_t)welded->triangle_count; i++)
            if (welded->indices[i] < welded->vertex_count) welded->indices[i] = remap[welded->indices[i]];
        if (!r && !unchanged) r = wm_mesh_compact(ctx, welded);
    }
    wm_free(ctx, remap);
    return r;
}

/* weld: 0 keeps every vertex as it is (a text that holds a walkmesh's own vertices).
 * for_writing: the file is only written (bwm_build_for_writing): it may borrow the
 * mesh's positions and indices. */
typedef struct from_mesh_how {
    int weld, for_writing;
} from_mesh_how;

/* Materials and the warnings about them. */
static wm_result materials_of(wm_ctx *ctx, const wm_mesh *mesh, uint32_t **out)
{
    uint32_t guessed = 0, disagree = 0;
    *out = wm_realloc_array(ctx, NULL, mesh->triangle_count, sizeof(uint32_t));
    wm_result r = *out ? face_materials(ctx, mesh, *out, &guessed, &disagree) : WM_ERR_NOMEM;
    if (!r && guessed)
        wm_warn(ctx, "%u faces have surfaces without a KotOR material: written as dirt (walkable) or nonwalk",
                guessed);
    if (!r && disagree)
        wm_warn(ctx, "%u faces are marked walkable (or not) against their surface; written as dirt (walkable) or "
                     "nonwalk, since the game follows the material",
                disagree);
    return r;
}

static wm_result from_mesh(wm_ctx *ctx, const wm_mesh *mesh, uint32_t type, from_mesh_how how, float weld_tolerance,
                           bwm_plane_style planes, const uint32_t *tie_rank, bwm_file *out)
{
    wm_mesh welded;
    uint32_t *materials = NULL;
    int borrowed = 0;
    bwm_file_init(out);
    wm_mesh_init(&welded);
    wm_result r = wm_mesh_validate(ctx, mesh);
    if (!r && how.weld)
        r = welded_geometry(ctx, mesh, weld_tolerance < 0 ? 1e-4f : weld_tolerance, how.for_writing, &welded,
                            &borrowed);
    else if (!r)
        r = copy_geometry(ctx, mesh, &welded);
    if (!r) r = materials_of(ctx, mesh, &materials);
    if (!r) {
        bwm_build_input in = {type, welded.positions, welded.vertex_count, welded.indices, welded.triangle_count,
                              materials, NULL, mesh->transitions, planes, NULL, NULL, tie_rank};
        if (borrowed) {
            r = bwm_build_borrowing(ctx, &in, materials, out);
            welded.positions = NULL;
            welded.indices = NULL;
            materials = NULL;
        } else if (welded.positions && welded.indices) { /* the build takes them over: no second copy */
            r = how.for_writing ? bwm_build_for_writing(ctx, &in, welded.positions, welded.indices, materials, out)
                                : bwm_build_taking(ctx, &in, welded.positions, welded.indices, materials, out);
            welded.positions = NULL;
            welded.indices = NULL;
            materials = NULL;
        } else {
            r = bwm_build(ctx, &in, out);
        }
    }
    wm_free(ctx, materials);
    if (borrowed) wm_mesh_init(&welded); /* the mesh's own arrays */
    wm_mesh_free(ctx, &welded);
    return r;
}

wm_result bwm_from_mesh(wm_ctx *ctx, const wm_mesh *mesh, uint32_t type, float weld_tolerance,
                        bwm_plane_style planes, bwm_file *out)
{
    return from_mesh(ctx, mesh, type, (from_mesh_how){1, 0}, weld_tolerance, planes, NULL, out);
}

wm_result bwm_from_mesh_for_writing(wm_ctx *ctx, const wm_mesh *mesh, uint32_t type, float weld_tolerance,
                                    bwm_plane_style planes, bwm_file *out)
{
    return from_mesh(ctx, mesh, type, (from_mesh_how){1, 1}, weld_tolerance, planes, NULL, out);
}

wm_result bwm_from_mesh_exact(wm_ctx *ctx, const wm_mesh *mesh, uint32_t type, bwm_plane_style planes,
                              const uint32_t *tie_rank, bwm_file *out)
{
    return from_mesh(ctx, mesh, type, (from_mesh_how){0, 0}, 0.0f, planes, tie_rank, out);
}

int bwm_matches_mesh(const wm_ctx *ctx, const bwm_file *file, const wm_mesh *mesh)
{
    const wm_surface_table *table = wm_surfaces(ctx);
    if (mesh->vertex_count != file->vertex_count || mesh->triangle_count != file->face_count) return 0;
    if (file->vertex_count && memcmp(mesh->positions, file->vertices, (size_t)file->vertex_count * 12) != 0) return 0;
    if (file->face_count && memcmp(mesh->indices, file->faces, (size_t)file->face_count * 12) != 0) return 0;
    for (uint32_t f = 0; f < file->face_count; f++) {
        int32_t id = bwm_material_of_surface(table, mesh->surfaces[f]);
        if (id < 0 || (uint32_t)id != file->materials[f]) return 0;
    }
    size_t n = (size_t)file->face_count * 3;
    size_t on_edges = 0;
    for (uint32_t e = 0; e < file->edge_count; e++) {
        uint32_t c = file->edges[e].code;
        if (c >= n || mesh->transitions[c] != file->edges[e].transition) return 0;
    }
    for (size_t i = 0; i < n; i++) on_edges += mesh->transitions[i] != WM_NO_TRANSITION;
    for (uint32_t e = 0; e < file->edge_count; e++) on_edges -= file->edges[e].transition != WM_NO_TRANSITION;
    return on_edges == 0;
}

static int same_point(const float *a, const float *b, float tolerance)
{
    return fabsf(a[0] - b[0]) <= tolerance && fabsf(a[1] - b[1]) <= tolerance && fabsf(a[2] - b[2]) <= tolerance;
}

static const float *edge_point(const bwm_file *f, uint32_t code, int end)
{
    uint32_t face = code / 3, e = code % 3;
    return &f->vertices[3 * (size_t)f->faces[3 * (size_t)face + (end ? (e + 1) % 3 : e)]];
}

wm_result bwm_transfer_transitions(wm_ctx *ctx, const bwm_file *from, bwm_file *to, float tolerance,
                                   uint32_t *out_unmatched)
{
    uint32_t unmatched = 0;
    size_t from_codes = (size_t)from->face_count * 3, to_codes = (size_t)to->face_count * 3;
    (void)ctx;
    /* transitions are few (door and seam edges): a direct search is enough */
    for (uint32_t i = 0; i < from->edge_count; i++) {
        if (from->edges[i].transition < 0 || from->edges[i].code >= from_codes) continue;
        const float *a = edge_point(from, from->edges[i].code, 0), *b = edge_point(from, from->edges[i].code, 1);
        int found = 0;
        for (uint32_t k = 0; k < to->edge_count; k++) {
            if (to->edges[k].code >= to_codes) continue;
            const float *c = edge_point(to, to->edges[k].code, 0), *d = edge_point(to, to->edges[k].code, 1);
            if ((same_point(a, c, tolerance) && same_point(b, d, tolerance)) ||
                (same_point(a, d, tolerance) && same_point(b, c, tolerance))) {
                to->edges[k].transition = from->edges[i].transition;
                found = 1;
            }
        }
        unmatched += !found;
    }
    if (out_unmatched) *out_unmatched = unmatched;
    return WM_OK;
}
