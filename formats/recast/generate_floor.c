/* The render floor under a point: Recast's voxel tops sit up to a cell height above the floor
 * (FORMAT-NOTES §5), so a generated walkmesh takes its heights from the render triangles. The
 * floor triangles (flat enough to stand on) are listed in a grid of square buckets over x and y
 * so a lookup reads only the triangles whose box covers the point's bucket. */
#include "generate_internal.h"

#include <math.h>
#include <string.h>

/* Buckets per side are capped so the grid stays at most a few entries per floor triangle. */
#define FLOOR_MAX_BUCKETS (1u << 20)

static void triangle_box(const wm_mesh *m, uint32_t t, float lo[2], float hi[2])
{
    lo[0] = lo[1] = INFINITY, hi[0] = hi[1] = -INFINITY;
    for (int k = 0; k < 3; k++) {
        const float *p = m->positions + 3 * (size_t)m->indices[3 * (size_t)t + k];
        for (int a = 0; a < 2; a++)
            lo[a] = fminf(lo[a], p[a]), hi[a] = fmaxf(hi[a], p[a]);
    }
}

static void bucket_range(const floor_index *f, const float lo[2], const float hi[2], uint32_t range[4])
{
    for (int a = 0; a < 2; a++) {
        double first = floor((lo[a] - f->origin[a]) / f->bucket), last = floor((hi[a] - f->origin[a]) / f->bucket);
        uint32_t limit = f->buckets[a] - 1;
        range[2 * a] = first < 0 ? 0 : first > limit ? limit : (uint32_t)first;
        range[2 * a + 1] = last < 0 ? 0 : last > limit ? limit : (uint32_t)last;
    }
}

static void plan_buckets(floor_index *f, const float lo[3], const float hi[3], uint32_t triangles)
{
    double width = fmax(hi[0] - lo[0], 1e-3), depth = fmax(hi[1] - lo[1], 1e-3);
    double wanted = fmax(1.0, fmin((double)FLOOR_MAX_BUCKETS, (double)triangles));
    f->bucket = (float)fmax(sqrt(width * depth / wanted), 0.25);
    f->buckets[0] = (uint32_t)fmin(ceil(width / f->bucket) + 1, 4096.0);
    f->buckets[1] = (uint32_t)fmin(ceil(depth / f->bucket) + 1, 4096.0);
    f->bucket = (float)fmax(f->bucket, fmax(width / (f->buckets[0] - 1), depth / (f->buckets[1] - 1)));
    f->origin[0] = lo[0], f->origin[1] = lo[1];
}

/* Lists each floor triangle under the buckets its box covers: with fill NULL it counts them
 * into first[bucket + 1], else it writes them at fill[bucket]++. Returns the entries. */
static uint64_t list_floor(floor_index *f, const uint8_t *is_floor, uint32_t *fill)
{
    const wm_mesh *m = f->mesh;
    uint64_t total = 0;
    float lo[2], hi[2];
    uint32_t range[4];
    for (uint32_t t = 0; t < m->triangle_count; t++) {
        if (!is_floor[t])
            continue;
        triangle_box(m, t, lo, hi);
        bucket_range(f, lo, hi, range);
        for (uint32_t y = range[2]; y <= range[3]; y++)
            for (uint32_t x = range[0]; x <= range[1]; x++) {
                size_t cell = (size_t)y * f->buckets[0] + x;
                if (fill)
                    f->members[fill[cell]++] = t;
                else
                    f->first[cell + 1]++;
            }
        total += (uint64_t)(range[1] - range[0] + 1) * (range[3] - range[2] + 1);
    }
    return total;
}

wm_result floor_index_build(wm_ctx *ctx, const wm_mesh *m, float max_slope, floor_index *f)
{
    memset(f, 0, sizeof *f);
    f->mesh = m;
    float lo[3], hi[3], n[3], up = cosf(max_slope * 3.14159265f / 180.0f);
    wm_mesh_bounds(m, lo, hi);
    plan_buckets(f, lo, hi, m->triangle_count);
    size_t cells = (size_t)f->buckets[0] * f->buckets[1];
    f->first = wm_alloc_array(ctx, cells + 1, sizeof *f->first);
    f->seen = wm_alloc_array(ctx, m->vertex_count ? m->vertex_count : 1, sizeof *f->seen);
    uint8_t *is_floor = wm_alloc_array(ctx, m->triangle_count ? m->triangle_count : 1, 1);
    wm_result r = f->first && f->seen && is_floor ? WM_OK : WM_ERR_NOMEM;
    if (!r)
        memset(f->seen, 0, sizeof *f->seen * (m->vertex_count ? m->vertex_count : 1));
    for (uint32_t t = 0; !r && t < m->triangle_count; t++) {
        wm_mesh_triangle_normal(m, t, n);
        is_floor[t] = n[2] > up - 1e-4f;
    }
    /* a bucket is at least 1/4096 of the scene and triangles are few per bucket on average:
     * only a mesh of huge overlapping triangles lists many, and that is refused */
    uint64_t total = r ? 0 : list_floor(f, is_floor, NULL);
    if (!r && total > 64ull * 1024 * 1024)
        r = wm_error(ctx, WM_ERR_LIMIT, "generate: %llu floor triangle entries in the lookup grid, over the limit of "
                     "64 Mi (huge overlapping triangles)", (unsigned long long)total);
    for (size_t i = 0; !r && i < cells; i++)
        f->first[i + 1] += f->first[i];
    uint32_t *fill = r ? NULL : wm_alloc_array(ctx, cells, sizeof *fill);
    f->members = r ? NULL : wm_alloc_array(ctx, total ? total : 1, sizeof *f->members);
    if (!r && (!fill || !f->members))
        r = WM_ERR_NOMEM;
    if (!r) {
        memcpy(fill, f->first, cells * sizeof *fill);
        list_floor(f, is_floor, fill);
    }
    wm_free(ctx, fill);
    wm_free(ctx, is_floor);
    if (r)
        floor_index_free(ctx, f);
    return r;
}

int floor_each_corner(floor_index *f, const float lo[2], const float hi[2], floor_corner_fn fn, void *user)
{
    if (++f->calls == 0) { /* after 4 billion calls the marks start again */
        memset(f->seen, 0, sizeof *f->seen * (f->mesh->vertex_count ? f->mesh->vertex_count : 1));
        f->calls = 1;
    }
    uint32_t range[4];
    bucket_range(f, lo, hi, range);
    for (uint32_t y = range[2]; y <= range[3]; y++)
        for (uint32_t x = range[0]; x <= range[1]; x++) {
            size_t cell = (size_t)y * f->buckets[0] + x;
            for (uint32_t k = f->first[cell]; k < f->first[cell + 1]; k++)
                for (int c = 0; c < 3; c++) {
                    uint32_t v = f->mesh->indices[3 * (size_t)f->members[k] + c];
                    if (f->seen[v] == f->calls)
                        continue;
                    f->seen[v] = f->calls;
                    if (!fn(user, f->mesh->positions + 3 * (size_t)v))
                        return 0;
                }
        }
    return 1;
}

void floor_index_free(wm_ctx *ctx, floor_index *f)
{
    wm_free(ctx, f->first);
    wm_free(ctx, f->members);
    wm_free(ctx, f->seen);
    memset(f, 0, sizeof *f);
}

int corners_height(const float *a, const float *b, const float *c, float x, float y, float *z, float *outside)
{
    double d = (double)(b[0] - a[0]) * (c[1] - a[1]) - (double)(c[0] - a[0]) * (b[1] - a[1]);
    if (fabs(d) < 1e-12)
        return 0;
    double u = ((double)(x - a[0]) * (c[1] - a[1]) - (double)(c[0] - a[0]) * (y - a[1])) / d;
    double v = ((double)(b[0] - a[0]) * (y - a[1]) - (double)(x - a[0]) * (b[1] - a[1])) / d;
    double w = 1.0 - u - v, worst = fmin(w, fmin(u, v));
    double size = sqrt(fabs(d)); /* a length of the triangle's scale */
    *outside = worst >= 0 ? 0.0f : (float)(-worst * size);
    *z = (float)(a[2] + u * (b[2] - a[2]) + v * (c[2] - a[2]));
    return 1;
}

static int plane_height(const wm_mesh *m, uint32_t t, float x, float y, float *z, float *outside)
{
    const uint32_t *i = m->indices + 3 * (size_t)t;
    return corners_height(m->positions + 3 * (size_t)i[0], m->positions + 3 * (size_t)i[1],
                          m->positions + 3 * (size_t)i[2], x, y, z, outside);
}

/* The floor triangle floor_height picks, or UINT32_MAX. */
static uint32_t floor_search(const floor_index *f, float x, float y, float z, float below, float above, float reach,
                             float *out)
{
    double bx = floor((x - f->origin[0]) / f->bucket), by = floor((y - f->origin[1]) / f->bucket);
    if (bx < 0 || by < 0 || bx >= f->buckets[0] || by >= f->buckets[1])
        return UINT32_MAX;
    size_t cell = (size_t)by * f->buckets[0] + (size_t)bx;
    float best = 0, best_outside = INFINITY;
    uint32_t found = UINT32_MAX;
    for (uint32_t k = f->first[cell]; k < f->first[cell + 1]; k++) {
        float h, outside;
        if (!plane_height(f->mesh, f->members[k], x, y, &h, &outside) || outside > reach)
            continue;
        if (h < z - below || h > z + above)
            continue;
        /* inside beats outside; among equals, the highest floor (the one the agent stands on) */
        if (found == UINT32_MAX || outside < best_outside - 1e-4f || (fabsf(outside - best_outside) <= 1e-4f && h > best))
            best = h, best_outside = outside, found = f->members[k];
    }
    if (found != UINT32_MAX)
        *out = best;
    return found;
}

int floor_height(const floor_index *f, float x, float y, float z, float below, float above, float reach, float *out)
{
    return floor_search(f, x, y, z, below, above, reach, out) != UINT32_MAX;
}

int floor_under(const floor_limits *l, float x, float y, float z, uint32_t *hint, float *h)
{
    float outside;
    /* samples in a row mostly lie on the floor triangle the last one found */
    if (*hint < l->floor->mesh->triangle_count && plane_height(l->floor->mesh, *hint, x, y, h, &outside) &&
        outside == 0 && fabsf(*h - z) <= l->error)
        return 1;
    /* a floor the point lies in decides before the planes of floors it lies just outside of */
    const float reaches[2] = {0.0f, l->reach};
    for (int i = 0; i < 2; i++) {
        uint32_t t = floor_search(l->floor, x, y, z, l->error, l->error, reaches[i], h);
        if (t == UINT32_MAX)
            t = floor_search(l->floor, x, y, z, l->below, l->below, reaches[i], h);
        if (t != UINT32_MAX) {
            *hint = reaches[i] == 0 ? t : *hint;
            return 1;
        }
    }
    return 0;
}
