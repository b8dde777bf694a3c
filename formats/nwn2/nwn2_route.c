/* The game's route between two points of a baked walkmesh, from the file's
 * own tables: island next hops across islands, then the exit triangle's
 * neighbour in the next island; tile next hops inside each tile. */
#include "nwn2/nwn2_route.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

int nwn2_triangle_in_range(const nwn2_aswm *a, uint32_t t)
{
    const nwn2_triangle *tri = &a->triangles[t];
    return tri->v[0] < a->vertex_count && tri->v[1] < a->vertex_count && tri->v[2] < a->vertex_count;
}

void nwn2_triangle_centre(const nwn2_aswm *a, uint32_t t, float out[3])
{
    const uint32_t *v = a->triangles[t].v;
    for (int c = 0; c < 3; c++)
        out[c] = (a->vertices[3 * (size_t)v[0] + c] + a->vertices[3 * (size_t)v[1] + c] +
                  a->vertices[3 * (size_t)v[2] + c]) / 3.0f;
}

wm_result nwn2_tile_of_triangles(wm_ctx *ctx, const nwn2_aswm *a, uint32_t **out)
{
    uint32_t *tile_of = wm_alloc_array(ctx, a->triangle_count ? a->triangle_count : 1, sizeof *tile_of);
    if (!tile_of)
        return WM_ERR_NOMEM;
    memset(tile_of, 0xff, (size_t)a->triangle_count * sizeof *tile_of);
    for (uint32_t t = 0; t < a->grid_width * a->grid_height; t++) {
        uint64_t first = a->tiles[t].triangle_offset, end = first + a->tiles[t].triangle_count;
        for (uint64_t i = first; i < end && i < a->triangle_count; i++)
            tile_of[i] = t;
    }
    *out = tile_of;
    return WM_OK;
}

static int inside(const nwn2_aswm *a, uint32_t t, float x, float y)
{
    int sign = 0;
    for (int k = 0; k < 3; k++) {
        const float *u = a->vertices + 3 * (size_t)a->triangles[t].v[k];
        const float *w = a->vertices + 3 * (size_t)a->triangles[t].v[(k + 1) % 3];
        double cross = ((double)w[0] - u[0]) * ((double)y - u[1]) - ((double)w[1] - u[1]) * ((double)x - u[0]);
        int s = cross > 1e-9 ? 1 : cross < -1e-9 ? -1 : 0;
        if (s && sign && s != sign)
            return 0;
        sign = s ? s : sign;
    }
    return 1;
}

/* The walkable triangle (in an island) under a point; the highest if several. */
static uint32_t triangle_at(const nwn2_aswm *a, const float p[2])
{
    uint32_t best = NWN2_NONE32;
    float best_z = -FLT_MAX;
    for (uint32_t t = 0; t < a->triangle_count; t++) {
        const nwn2_triangle *tri = &a->triangles[t];
        if (!(tri->flags & NWN2_TRI_WALKABLE) || tri->island >= a->island_count || !nwn2_triangle_in_range(a, t) ||
            !inside(a, t, p[0], p[1]))
            continue;
        float c[3];
        nwn2_triangle_centre(a, t, c);
        if (best == NWN2_NONE32 || c[2] > best_z) {
            best = t;
            best_z = c[2];
        }
    }
    return best;
}

typedef struct route_state {
    wm_ctx *ctx;
    const nwn2_aswm *a;
    const uint32_t *tile_of;
    wm_nwn2_route *out;
    uint32_t capacity;
    wm_result status;
} route_state;

static int push(route_state *s, uint32_t t)
{
    wm_nwn2_route *r = s->out;
    if (r->count == s->capacity) {
        uint32_t grow = s->capacity ? s->capacity * 2 : 64;
        uint32_t *bigger = wm_realloc_array(s->ctx, r->triangles, grow, sizeof *bigger);
        if (!bigger) {
            s->status = WM_ERR_NOMEM;
            return 0;
        }
        r->triangles = bigger;
        s->capacity = grow;
    }
    r->triangles[r->count++] = t;
    return 1;
}

/* Follows the tile's next hops from *cur to target (both in one tile). */
static int walk_tile(route_state *s, uint32_t *cur, uint32_t target)
{
    const nwn2_aswm *a = s->a;
    char *failure = s->out->failure;
    size_t cap = sizeof s->out->failure;
    uint32_t tile_index = s->tile_of[*cur];
    if (tile_index == NWN2_NONE32 || tile_index != s->tile_of[target]) {
        snprintf(failure, cap, "triangles %u and %u are not in one tile", *cur, target);
        return 0;
    }
    const nwn2_tile *tile = &a->tiles[tile_index];
    for (uint32_t guard = 0; *cur != target; guard++) {
        uint32_t from_local = *cur - tile->triangle_offset, to_local = target - tile->triangle_offset;
        if (guard > tile->node_count || from_local >= tile->local_count || to_local >= tile->local_count ||
            !tile->local_to_node || tile->local_to_node[from_local] >= tile->node_count ||
            tile->local_to_node[to_local] >= tile->node_count) {
            snprintf(failure, cap, "tile %u's path table has no entry for triangle %u", tile_index, *cur);
            return 0;
        }
        uint8_t hop = tile->nodes[tile->local_to_node[from_local] * (size_t)tile->node_count +
                                  tile->local_to_node[to_local]];
        if (hop == NWN2_PATH_NONE || (hop & NWN2_PATH_NODE_MASK) >= tile->node_count ||
            tile->node_to_local[hop & NWN2_PATH_NODE_MASK] >= tile->local_count) {
            snprintf(failure, cap, "tile %u: no next hop from triangle %u to %u", tile_index, *cur, target);
            return 0;
        }
        *cur = tile->triangle_offset + tile->node_to_local[hop & NWN2_PATH_NODE_MASK];
        if (!push(s, *cur))
            return 0;
    }
    return 1;
}

/* Leaves island `island` for `next` through the island's listed exit:
 * *cur becomes the exit's neighbour in `next`. */
static int cross_to(route_state *s, uint32_t *cur, uint32_t island, uint32_t next)
{
    const nwn2_aswm *a = s->a;
    const nwn2_island *is = &a->islands[island];
    uint32_t exit = NWN2_NONE32;
    for (uint32_t k = 0; k < is->adjacent_count && k < is->exit_count; k++)
        if (is->adjacent[k] == next && is->exit[k] < a->triangle_count)
            exit = is->exit[k];
    if (exit == NWN2_NONE32) {
        snprintf(s->out->failure, sizeof s->out->failure, "island %u lists no exit to island %u", island, next);
        return 0;
    }
    if (!walk_tile(s, cur, exit))
        return 0;
    uint32_t across = NWN2_NONE32;
    for (int k = 0; k < 3; k++) {
        uint32_t n = a->triangles[*cur].neighbour[k];
        if (n < a->triangle_count && a->triangles[n].island == next)
            across = n;
    }
    if (across == NWN2_NONE32) {
        snprintf(s->out->failure, sizeof s->out->failure, "exit triangle %u has no neighbour in island %u", *cur,
                 next);
        return 0;
    }
    *cur = across;
    return push(s, *cur);
}

static void follow_tables(route_state *s, uint32_t start, uint32_t goal)
{
    const nwn2_aswm *a = s->a;
    uint32_t cur = start, island = a->triangles[start].island, target_island = a->triangles[goal].island;
    if (!push(s, cur))
        return;
    for (uint32_t hops = 0; hops <= a->island_count; hops++) {
        if (island == target_island) {
            s->out->reached = walk_tile(s, &cur, goal);
            return;
        }
        uint16_t next = a->island_paths[(size_t)island * a->island_count + target_island].next;
        if (next >= a->island_count) {
            snprintf(s->out->failure, sizeof s->out->failure, "no route: island %u has no path to island %u",
                     island, target_island);
            return;
        }
        if (!cross_to(s, &cur, island, next))
            return;
        island = next;
    }
    snprintf(s->out->failure, sizeof s->out->failure, "the island path table loops");
}

wm_result nwn2_route_on(wm_ctx *ctx, const nwn2_aswm *a, const uint32_t *tile_of, const float from[2],
                        const float to[2], wm_nwn2_route *out)
{
    memset(out, 0, sizeof *out);
    out->start = triangle_at(a, from);
    out->goal = triangle_at(a, to);
    if (out->start == NWN2_NONE32 || out->goal == NWN2_NONE32) {
        const float *p = out->start == NWN2_NONE32 ? from : to;
        return wm_error(ctx, WM_ERR_OPTION, "--path: no walkable triangle with an island at (%g, %g)", (double)p[0],
                        (double)p[1]);
    }
    route_state s = {ctx, a, tile_of, out, 0, WM_OK};
    follow_tables(&s, out->start, out->goal);
    if (!s.status && !(out->points = wm_alloc_array(ctx, out->count, 3 * sizeof(float))))
        s.status = WM_ERR_NOMEM;
    for (uint32_t i = 0; !s.status && i < out->count; i++)
        nwn2_triangle_centre(a, out->triangles[i], out->points + 3 * (size_t)i);
    if (s.status)
        wm_nwn2_route_free(ctx, out);
    return s.status;
}

void wm_nwn2_route_free(wm_ctx *ctx, wm_nwn2_route *route)
{
    wm_free(ctx, route->triangles);
    wm_free(ctx, route->points);
    route->triangles = NULL;
    route->points = NULL;
    route->count = 0;
}

wm_result wm_nwn2_route_find(wm_ctx *ctx, const uint8_t *data, size_t size, const char *name, const float from[2],
                             const float to[2], wm_nwn2_route *out)
{
    memset(out, 0, sizeof *out);
    nwn2_file file;
    nwn2_file_init(&file);
    name = name ? name : "<memory>";
    wm_result r = nwn2_file_parse_shared(ctx, data, size, name, &file); /* only read */
    const nwn2_aswm *a = &file.aswm;
    if (!r && file.aswm_packet < 0)
        r = wm_error(ctx, WM_ERR_INVALID, "%s: no walkmesh (ASWM) packet", name);
    if (!r && a->grid_width && a->grid_width * a->grid_height / a->grid_width != a->grid_height)
        r = wm_error(ctx, WM_ERR_CORRUPT, "%s: tile grid %ux%u is too large", name, a->grid_width, a->grid_height);
    uint32_t *tile_of = NULL;
    if (!r)
        r = nwn2_tile_of_triangles(ctx, a, &tile_of);
    if (!r)
        r = nwn2_route_on(ctx, a, tile_of, from, to, out);
    wm_free(ctx, tile_of);
    nwn2_file_free(ctx, &file);
    return r;
}

wm_result wm_nwn2_route_find_file(wm_ctx *ctx, const char *path, const float from[2], const float to[2],
                                  wm_nwn2_route *out)
{
    uint8_t *data = NULL;
    size_t size = 0;
    memset(out, 0, sizeof *out);
    wm_result r = wm_file_read(ctx, path, &data, &size);
    if (!r)
        r = wm_nwn2_route_find(ctx, data, size, path, from, to, out);
    wm_free(ctx, data);
    return r;
}
