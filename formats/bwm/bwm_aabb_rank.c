/* The AABB builder's ranks: each face's place in the order of the centroids
 * on each axis, ties by tie rank then face index, so that every later
 * comparison is one of two distinct integers. The centroids are sorted by
 * their value rounded to float (a radix sort of 32-bit keys, stable over
 * face order); rounding is monotonic, so only faces of one rounded value
 * can be out of order, and those runs are put right by their doubles. */
#include "bwm/bwm_aabb_order.h"

#include <string.h>

#define DIGIT_BITS 11
#define DIGITS 3 /* 11 + 11 + 10 bits */
#define BUCKETS (1u << DIGIT_BITS)
#define SMALL_RUN 32

typedef struct rank_job {
    const double *cent; /* centroid of each face on the axis */
    const uint32_t *tie_rank;
} rank_job;

static double centroid(const float *vertices, const uint32_t *faces, uint32_t face, int axis)
{
    const uint32_t *c = &faces[3 * (size_t)face];
    double sum = (double)vertices[3 * (size_t)c[0] + axis] + vertices[3 * (size_t)c[1] + axis];
    /* + 0.0: -0 becomes +0, which it equals, so both get one sort key */
    return (sum + vertices[3 * (size_t)c[2] + axis]) / 3.0 + 0.0;
}

/* An order-preserving unsigned image of the centroid rounded to float. */
static uint32_t coarse_key(double cent)
{
    float f = (float)cent;
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b & 0x80000000u ? ~b : b | 0x80000000u;
}

static const int digit_shift[DIGITS] = {32, 32 + DIGIT_BITS, 32 + 2 * DIGIT_BITS};

static uint32_t digit(uint64_t item, int d)
{
    return (uint32_t)(item >> digit_shift[d]) & (BUCKETS - 1);
}

/* Items are key << 32 | face; count holds how many items have each value of
 * each digit. Sorts them by key, stably; returns where the result is (items
 * or other). */
static uint64_t *radix_sort(uint64_t *items, uint64_t *other, uint32_t n, uint32_t count[DIGITS][BUCKETS])
{
    for (int d = 0; d < DIGITS; d++) {
        uint32_t *c = count[d], sum = 0;
        if (c[digit(items[0], d)] == n) continue; /* one value: nothing moves */
        for (uint32_t b = 0; b < BUCKETS; b++) {
            uint32_t k = c[b];
            c[b] = sum;
            sum += k;
        }
        for (uint32_t i = 0; i < n; i++) other[c[digit(items[i], d)]++] = items[i];
        uint64_t *t = items;
        items = other;
        other = t;
    }
    return items;
}

static int face_less(const rank_job *j, uint32_t a, uint32_t b)
{
    if (j->cent[a] != j->cent[b]) return j->cent[a] < j->cent[b];
    uint32_t ta = j->tie_rank ? j->tie_rank[a] : 0, tb = j->tie_rank ? j->tie_rank[b] : 0;
    return ta != tb ? ta < tb : a < b;
}

static void insertion_sort(const rank_job *j, uint64_t *s, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t x = s[i];
        size_t k = i;
        for (; k > 0 && face_less(j, (uint32_t)x, (uint32_t)s[k - 1]); k--) s[k] = s[k - 1];
        s[k] = x;
    }
}

/* Stable merge sort of s[0,n) with tmp of n items; the result ends in s. */
static void merge_sort(const rank_job *j, uint64_t *s, uint64_t *tmp, size_t n)
{
    for (size_t a = 0; a < n; a += SMALL_RUN) insertion_sort(j, s + a, n - a < SMALL_RUN ? n - a : SMALL_RUN);
    uint64_t *from = s, *to = tmp;
    for (size_t w = SMALL_RUN; w < n; w *= 2) {
        for (size_t a = 0; a < n; a += 2 * w) {
            size_t m = a + w < n ? a + w : n, e = a + 2 * w < n ? a + 2 * w : n, i = a, k = m, o = a;
            while (i < m && k < e) to[o++] = face_less(j, (uint32_t)from[k], (uint32_t)from[i]) ? from[k++] : from[i++];
            while (i < m) to[o++] = from[i++];
            while (k < e) to[o++] = from[k++];
        }
        uint64_t *t = from;
        from = to;
        to = t;
    }
    if (from != s) memcpy(s, from, n * sizeof *s);
}

/* Whether a run of one rounded key is in the order of the full comparison:
 * each centroid read once (by face: a cache miss each, in a large mesh). */
static int run_sorted(const rank_job *j, const uint64_t *s, size_t n)
{
    double prev = j->cent[(uint32_t)s[0]];
    for (size_t i = 1; i < n; i++) {
        double c = j->cent[(uint32_t)s[i]];
        /* equal centroids keep face order, which is the tie order without tie ranks */
        if (c < prev || (c == prev && j->tie_rank && face_less(j, (uint32_t)s[i], (uint32_t)s[i - 1]))) return 0;
        prev = c;
    }
    return 1;
}

/* Puts each run of one rounded key in the order of the full comparison. */
static void order_runs(const rank_job *j, uint64_t *s, uint64_t *tmp, uint32_t n)
{
    for (uint32_t a = 0, b; a < n; a = b) {
        for (b = a + 1; b < n && (s[b] >> 32) == (s[a] >> 32); b++) continue;
        if (b - a > 1 && !run_sorted(j, s + a, b - a)) merge_sort(j, s + a, tmp + a, b - a);
    }
}

void aabb_rank_faces(const float *vertices, const uint32_t *faces, uint32_t face_count, const uint32_t *tie_rank,
                     aabb_rec *recs, void *scratch)
{
    double *cent = scratch;
    uint64_t *items = (uint64_t *)(cent + face_count), *other = items + face_count;
    rank_job job = {cent, tie_rank};
    uint32_t count[DIGITS][BUCKETS];
    for (int axis = 0; axis < 3; axis++) {
        memset(count, 0, sizeof count);
        for (uint32_t f = 0; f < face_count; f++) {
            cent[f] = centroid(vertices, faces, f, axis);
            items[f] = (uint64_t)coarse_key(cent[f]) << 32 | f;
            for (int d = 0; d < DIGITS; d++) count[d][digit(items[f], d)]++;
        }
        uint64_t *sorted = radix_sort(items, other, face_count, count);
        order_runs(&job, sorted, sorted == items ? other : items, face_count);
        for (uint32_t i = 0; i < face_count; i++) recs[(uint32_t)sorted[i]].rank[axis] = i;
    }
    for (uint32_t f = 0; f < face_count; f++) recs[f].face = f;
}
