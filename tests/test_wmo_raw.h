/* The WMO tests' own minimal reading of raw bytes, written from
 * FORMAT-NOTES section 3 without going through formats/wmo, so counts the
 * module reports can be checked against an independent computation. */
#ifndef TEST_WMO_RAW_H
#define TEST_WMO_RAW_H

#include "test_support.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline uint32_t raw_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline float raw_f32(const uint8_t *p)
{
    uint32_t u = raw_u32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Finds chunk `name` ("MOPY", spelled forwards; stored reversed) in
 * [begin, end); 1 and its payload offset and size when found. */
static inline int raw_find(const uint8_t *d, size_t begin, size_t end, const char *name, size_t *off, uint32_t *size)
{
    char reversed[4] = {name[3], name[2], name[1], name[0]};
    size_t at = begin;
    *off = 0; /* defined even when not found: callers assert the result */
    *size = 0;
    while (at + 8 <= end) {
        uint32_t n = raw_u32(d + at + 4);
        if (n > end - at - 8)
            return 0;
        if (memcmp(d + at, reversed, 4) == 0) {
            *off = at + 8;
            *size = n;
            return 1;
        }
        at += 8 + (size_t)n;
    }
    return 0;
}

/* Range of a group file's MOGP subchunks (after the 68-byte header). */
static inline int raw_group_range(const uint8_t *d, size_t size, size_t *begin, size_t *end)
{
    size_t off;
    uint32_t n;
    *begin = *end = 0;
    if (!raw_find(d, 0, size, "MOGP", &off, &n) || n < 68)
        return 0;
    *begin = off + 68;
    *end = off + n;
    return 1;
}

/* The server extractors' rule, straight from the notes:
 * (flags & 0x08) || ((flags & 0x20) && !(flags & 0x04)). */
static inline uint32_t raw_server_collision_count(const uint8_t *d, size_t size)
{
    size_t b = 0, e = 0, off = 0;
    uint32_t n, count = 0;
    if (!raw_group_range(d, size, &b, &e) || !raw_find(d, b, e, "MOPY", &off, &n))
        return 0;
    for (uint32_t i = 0; i + 1 < n; i += 2) {
        uint8_t f = d[off + i];
        count += (f & 0x08) || ((f & 0x20) && !(f & 0x04));
    }
    return count;
}

/* Collision triangles of a group file by the server rule, counted from its bytes
 * (FORMAT-NOTES section 3); 0 for groups the rule skips (MOGP flags 0x80,
 * 0x4000000) and LOD groups (no MOPY). */
static inline uint32_t raw_group_collision_file(const char *path)
{
    size_t size, begin, end;
    uint8_t *data = wmt_read_file(path, &size);
    uint32_t count = 0;
    if (raw_group_range(data, size, &begin, &end) && !(raw_u32(data + begin - 68 + 8) & 0x4000080u))
        count = raw_server_collision_count(data, size);
    free(data);
    return count;
}

/* Canonical triangle: its 9 coordinates starting at the lexicographically
 * smallest vertex, winding kept. */
typedef struct raw_tri {
    float v[9];
} raw_tri;

static inline int raw_vertex_less(const float *a, const float *b)
{
    for (int k = 0; k < 3; k++)
        if (a[k] != b[k])
            return a[k] < b[k];
    return 0;
}

static inline raw_tri raw_canonical(const float *a, const float *b, const float *c)
{
    const float *v[3] = {a, b, c};
    int first = 0;
    for (int i = 1; i < 3; i++)
        if (raw_vertex_less(v[i], v[first]))
            first = i;
    raw_tri t;
    for (int i = 0; i < 3; i++)
        memcpy(&t.v[3 * i], v[(first + i) % 3], 3 * sizeof(float));
    return t;
}

static inline int raw_tri_compare(const void *pa, const void *pb)
{
    const raw_tri *a = pa, *b = pb;
    for (int k = 0; k < 9; k++)
        if (a->v[k] != b->v[k])
            return a->v[k] < b->v[k] ? -1 : 1;
    return 0;
}

#endif
