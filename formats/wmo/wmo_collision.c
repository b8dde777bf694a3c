/* Which WMO triangles collide, and their extraction into the neutral mesh.
 * The default rule is the one the server extractors (TrinityCore, cmangos,
 * vmangos) use; see FORMAT-NOTES section 3. */
#include "wmo.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const rule_names[WMO_RULE_COUNT] = {"server", "azerothcore", "collision-flag", "material-ff",
                                                       "all"};

const char *wmo_rule_name(wmo_rule rule)
{
    return (unsigned)rule < WMO_RULE_COUNT ? rule_names[rule] : "unknown";
}

wm_result wmo_rule_parse(wm_ctx *ctx, const char *text, wmo_rule *out)
{
    *out = WMO_RULE_SERVER;
    if (!text)
        return WM_OK;
    for (unsigned i = 0; i < WMO_RULE_COUNT; i++) {
        if (strcasecmp(text, rule_names[i]) == 0) {
            *out = (wmo_rule)i;
            return WM_OK;
        }
    }
    return wm_error(ctx, WM_ERR_OPTION,
                    "--collision-rule %s: expected server, azerothcore, collision-flag, material-ff or all", text);
}

int wmo_triangle_collides(wmo_rule rule, uint8_t flags, uint8_t material)
{
    int server = (flags & WMO_POLY_COLLISION) || ((flags & WMO_POLY_RENDER) && !(flags & WMO_POLY_DETAIL));
    switch (rule) {
    case WMO_RULE_SERVER:
        return server;
    case WMO_RULE_AZEROTHCORE:
        return server || material == WMO_MATERIAL_COLLISION_ONLY;
    case WMO_RULE_COLLISION_FLAG:
        return (flags & WMO_POLY_COLLISION) != 0;
    case WMO_RULE_MATERIAL_FF:
        return material == WMO_MATERIAL_COLLISION_ONLY;
    default:
        return 1;
    }
}

int wmo_group_skipped(wmo_rule rule, uint32_t group_flags, const char *group_name)
{
    if (rule == WMO_RULE_ALL)
        return 0;
    if (group_flags & (WMO_GROUP_UNREACHABLE | WMO_GROUP_ANTIPORTAL))
        return 1;
    return group_name && strcmp(group_name, "antiportal") == 0;
}

uint32_t wmo_group_count_collision(const wmo_group *g, wmo_rule rule)
{
    uint32_t n = 0;
    if (!g->mopy)
        return 0;
    for (uint32_t t = 0; t < g->triangle_count; t++)
        n += (uint32_t)wmo_triangle_collides(rule, g->mopy[2 * t], g->mopy[2 * t + 1]);
    return n;
}

/* Adds the vertex of the group on first use; remap holds mesh indices + 1. */
static wm_result use_vertex(wm_ctx *ctx, wm_mesh *mesh, const float *positions, uint32_t v, uint32_t *remap,
                            uint32_t *out)
{
    if (remap[v] == 0) {
        uint32_t index = 0;
        wm_result r = wm_mesh_add_vertex(ctx, mesh, positions[3 * v], positions[3 * v + 1], positions[3 * v + 2],
                                         &index);
        if (r)
            return r;
        remap[v] = index + 1;
    }
    *out = remap[v] - 1;
    return WM_OK;
}

static wm_result add_triangle(wm_ctx *ctx, wm_mesh *mesh, const uint32_t v[3], uint16_t surface, int walkable,
                              uint16_t object)
{
    wm_result r = wm_mesh_add_triangle(ctx, mesh, v[0], v[1], v[2], surface, walkable);
    if (!r)
        mesh->objects[mesh->triangle_count - 1] = object;
    return r;
}

/* The extracted triangle's origin, when the caller asked for them. */
static void note_origin(const wmo_extract_options *opts, uint32_t index, uint8_t flags, uint8_t material)
{
    if (!opts->origins)
        return;
    wm_put_u32(opts->origins, index);
    wm_put_u8(opts->origins, flags);
    wm_put_u8(opts->origins, material);
}

static int walkable_by_slope(const wm_mesh *mesh, const uint32_t v[3], float cos_limit)
{
    float n[3];
    float len = wm_tri_normal(&mesh->positions[3 * v[0]], &mesh->positions[3 * v[1]], &mesh->positions[3 * v[2]], n);
    return len > 0.0f && n[2] >= cos_limit;
}

static wm_result extract_liquid(wm_ctx *ctx, const wmo_group *g, const char *name, const wmo_extract_options *opts,
                                wm_mesh *mesh)
{
    const wmo_liquid *l = &g->liquid;
    char object_name[160];
    snprintf(object_name, sizeof object_name, "%s_liquid", name);
    uint16_t object = 0;
    wm_result r = wm_mesh_add_object(ctx, mesh, object_name, &object);
    for (int32_t y = 0; y < l->ytiles && !r; y++) {
        for (int32_t x = 0; x < l->xtiles && !r; x++) {
            if ((l->tiles[(size_t)y * (size_t)l->xtiles + (size_t)x] & 0x0F) == 0x0F)
                continue;
            uint32_t v[4];
            for (int k = 0; k < 4 && !r; k++) {
                int32_t vx = x + (k & 1), vy = y + (k >> 1);
                const uint8_t *rec = l->vertices + ((size_t)vy * (size_t)l->xverts + (size_t)vx) * 8;
                r = wm_mesh_add_vertex(ctx, mesh, l->corner[0] + (float)vx * WMO_LIQUID_TILE_SIZE,
                                       l->corner[1] + (float)vy * WMO_LIQUID_TILE_SIZE, wm_lef32(rec + 4), &v[k]);
            }
            const uint32_t a[3] = {v[0], v[1], v[3]}, b[3] = {v[0], v[3], v[2]};
            r = r ? r : add_triangle(ctx, mesh, a, WM_SURF_LIQUID, 0, object);
            r = r ? r : add_triangle(ctx, mesh, b, WM_SURF_LIQUID, 0, object);
            note_origin(opts, WMO_NO_ORIGIN, 0, 0);
            note_origin(opts, WMO_NO_ORIGIN, 0, 0);
        }
    }
    return r;
}

wm_result wmo_group_extract(wm_ctx *ctx, const wmo_group *g, const char *name, const char *group_name,
                            const wmo_extract_options *opts, wm_mesh *mesh)
{
    uint16_t object = 0;
    wm_result r = wm_mesh_add_object(ctx, mesh, name, &object);
    if (r)
        return r;
    if (wmo_group_is_lod(g)) {
        wm_warn(ctx, "%s: LOD group (no MOPY): no collision triangles", name);
    } else if (wmo_group_skipped(opts->rule, g->header.flags, group_name)) {
        wm_warn(ctx, "%s: group skipped by the %s rule (flags 0x%x%s)", name, wmo_rule_name(opts->rule),
                g->header.flags, group_name && strcmp(group_name, "antiportal") == 0 ? ", named antiportal" : "");
    } else {
        uint32_t collide = 0;
        for (uint32_t t = 0; t < g->triangle_count; t++)
            collide += (uint32_t)wmo_triangle_collides(opts->rule, g->mopy[2 * t], g->mopy[2 * t + 1]);
        uint32_t vertices = collide * 3 < g->vertex_count ? collide * 3 : g->vertex_count;
        if ((r = wm_mesh_reserve(ctx, mesh, mesh->vertex_count + vertices, mesh->triangle_count + collide)))
            return r;
        uint32_t *remap = wm_alloc_array(ctx, g->vertex_count, sizeof *remap);
        if (!remap)
            return WM_ERR_NOMEM;
        float cos_limit = cosf(opts->walkable_slope * 3.14159265358979f / 180.0f);
        for (uint32_t t = 0; t < g->triangle_count && !r; t++) {
            if (!wmo_triangle_collides(opts->rule, g->mopy[2 * t], g->mopy[2 * t + 1]))
                continue;
            uint32_t v[3];
            for (int k = 0; k < 3 && !r; k++)
                r = use_vertex(ctx, mesh, g->positions, g->indices[3 * t + k], remap, &v[k]);
            r = r ? r : add_triangle(ctx, mesh, v, WM_SURF_COLLISION, walkable_by_slope(mesh, v, cos_limit), object);
            note_origin(opts, t, g->mopy[2 * t], g->mopy[2 * t + 1]);
        }
        wm_free(ctx, remap);
    }
    if (!r && opts->liquids && g->has_liquid)
        r = extract_liquid(ctx, g, name, opts, mesh);
    return r;
}
