/* Selection among distinct 32-bit integers (the AABB builder's ranks):
 * without branches on the data, whose comparisons no predictor guesses.
 * A large set is first narrowed to the values between two pivots drawn
 * from a sample (Floyd and Rivest's idea), in one pass over the input;
 * the rest is a quickselect in the scratch copy. */
#include "bwm/bwm_aabb_order.h"

#define SAMPLE 1024
#define NARROW_FROM 2048 /* below this a plain quickselect of a copy is cheaper */
#define SORT_BELOW 16

/* Deterministic positions for pivots and samples: any choice gives the same
 * value, a well spread one only makes it quicker. */
static size_t spread(uint64_t *state, size_t n)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return (size_t)(((*state >> 32) * (uint64_t)n) >> 32);
}

static void sort_small(uint32_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint32_t x = a[i];
        size_t k = i;
        for (; k > 0 && a[k - 1] > x; k--) a[k] = a[k - 1];
        a[k] = x;
    }
}

/* a[k] becomes the k-th smallest; a is reordered. Each round partitions
 * around a median of three spread values (Lomuto, without branches) and
 * keeps the side holding k; past a generous round count the rest is sorted. */
static uint32_t quickselect(uint32_t *a, size_t n, size_t k)
{
    uint64_t state = n;
    int rounds = 0;
    while (n > SORT_BELOW && rounds++ < 64) {
        size_t i0 = spread(&state, n), i1 = spread(&state, n), i2 = spread(&state, n);
        uint32_t x = a[i0], y = a[i1], z = a[i2];
        size_t p = (x < y) == (y < z) ? i1 : (y < x) == (x < z) ? i0 : i2;
        uint32_t pivot = a[p];
        a[p] = a[n - 1];
        a[n - 1] = pivot;
        size_t j = 0;
        for (size_t i = 0; i + 1 < n; i++) {
            uint32_t v = a[i];
            a[i] = a[j];
            a[j] = v;
            j += v < pivot;
        }
        a[n - 1] = a[j];
        a[j] = pivot;
        if (k == j) return pivot;
        if (k < j) {
            n = j;
        } else {
            a += j + 1;
            n -= j + 1;
            k -= j + 1;
        }
    }
    sort_small(a, n); /* small, or (never seen) a run of bad pivots */
    return a[k];
}

/* Copies the values in [lo, hi] to out; returns their count, *below the
 * count under lo. */
static size_t keep_between(const uint32_t *v, size_t stride, size_t n, uint32_t lo, uint32_t hi, uint32_t *out,
                           size_t *below)
{
    size_t kept = 0, under = 0;
    uint32_t width = hi - lo;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = v[i * stride];
        out[kept] = x;
        kept += x - lo <= width;
        under += x < lo;
    }
    *below = under;
    return kept;
}

uint32_t aabb_select(const uint32_t *v, size_t stride, size_t n, size_t k, uint32_t *scratch)
{
    if (n < NARROW_FROM) {
        for (size_t i = 0; i < n; i++) scratch[i] = v[i * stride];
        return quickselect(scratch, n, k);
    }
    uint32_t sample[SAMPLE];
    uint64_t state = n ^ k;
    for (size_t i = 0; i < SAMPLE; i++) sample[i] = v[spread(&state, n) * stride];
    /* pivots 3 standard deviations of k's place in the sample (16) either side */
    size_t at = (size_t)((uint64_t)k * SAMPLE / n), margin = 48;
    size_t lo_at = at > margin ? at - margin : 0, hi_at = at + margin < SAMPLE ? at + margin : SAMPLE - 1;
    uint32_t lo = quickselect(sample, SAMPLE, lo_at);
    uint32_t hi = quickselect(sample + lo_at + 1, SAMPLE - lo_at - 1, hi_at - lo_at - 1);
    size_t below, kept = keep_between(v, stride, n, lo, hi, scratch, &below);
    if (k >= below && k - below < kept) return quickselect(scratch, kept, k - below);
    if (k < below) /* rare: k's value is under the sample's bracket */
        return quickselect(scratch, keep_between(v, stride, n, 0, lo - 1, scratch, &below), k);
    size_t above = below + kept;
    return quickselect(scratch, keep_between(v, stride, n, hi + 1, UINT32_MAX, scratch, &below), k - above);
}
