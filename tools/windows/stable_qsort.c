/* qsort for Recast and Detour in the Windows build (tools/windows/build.sh points their calls
 * here with objcopy --redefine-sym). They sort with qsort, and some keys tie (Detour's BV tree sorts
 * polygons by one bound; Recast sorts contour holes and diagonals). glibc's qsort is a stable
 * merge sort; msvcrt's is not, so tied polygons came out in another order and the same input gave
 * another .navmesh (its BV tree) than on Linux. A stable sort has one answer for a given
 * comparison, the one glibc gives. */
#include <stdlib.h>
#include <string.h>

typedef int (*compare_fn)(const void *, const void *);

static void merge_sort(char *items, char *scratch, size_t count, size_t size, compare_fn compare)
{
    if (count < 2)
        return;
    size_t half = count / 2;
    merge_sort(items, scratch, half, size, compare);
    merge_sort(items + half * size, scratch, count - half, size, compare);
    char *left = items, *left_end = items + half * size, *right = left_end, *end = items + count * size;
    char *out = scratch;
    while (left < left_end && right < end) {
        /* ties take the left (earlier) item first: that is what keeps the sort stable */
        char **from = compare(right, left) < 0 ? &right : &left;
        memcpy(out, *from, size);
        out += size;
        *from += size;
    }
    memcpy(out, left, (size_t)(left_end - left));
    out += left_end - left;
    memcpy(out, right, (size_t)(end - right));
    memcpy(items, scratch, count * size);
}

/* Without memory for the merge, an insertion sort: as stable, slower on long arrays. */
static void insertion_sort(char *items, size_t count, size_t size, compare_fn compare)
{
    for (size_t i = 1; i < count; i++)
        for (size_t j = i; j > 0 && compare(items + (j - 1) * size, items + j * size) > 0; j--)
            for (size_t b = 0; b < size; b++) {
                char swap = items[(j - 1) * size + b];
                items[(j - 1) * size + b] = items[j * size + b];
                items[j * size + b] = swap;
            }
}

void walkmesh_stable_qsort(void *base, size_t count, size_t size, compare_fn compare)
{
    if (count < 2 || size == 0)
        return;
    char *scratch = count <= (size_t)-1 / size ? malloc(count * size) : NULL;
    if (!scratch) {
        insertion_sort(base, count, size, compare);
        return;
    }
    merge_sort(base, scratch, count, size, compare);
    free(scratch);
}
