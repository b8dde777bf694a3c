/* Names read from files that become parts of paths or are looked up: a layout's rooms, an
 * archive's members, a key's BIF files, batch outputs named after members. One guard for all of
 * them, so that no name from a file can lead a read or a write out of the folder (or archive) it
 * is resolved in, and names are compared the way the games compare them in every step. */
#ifndef WM_NAMES_H
#define WM_NAMES_H

#include "wm_api.h"

#include "wm_context.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum wm_name_rule {
    WM_NAME_COMPONENT = 0, /* one file name: no separator at all (a room, an ERF/RIM member) */
    WM_NAME_RELATIVE = 1   /* components joined by '/' or '\\' (a key's BIF, an MPQ member) */
} wm_name_rule;

/* The longest component accepted, in bytes: the common file systems' limit. */
#define WM_NAME_MAX_COMPONENT 255

/* WM_OK when name[0, length) is safe under the rule. Else WM_ERR_CORRUPT, with a message that
 * names `what` ("room 3"), shows the name (unprintable bytes escaped) and says why: empty; a NUL
 * or control byte; a component "." or ".."; a separator (component rule); a leading separator
 * (absolute); a drive letter or any ':'; an empty component; a component over 255 bytes; a
 * Windows device name (CON, NUL, COM1, ...); a component ending in '.' or ' ' (Windows drops
 * those, so two names would be one file). */
WM_API wm_result wm_name_check(wm_ctx *ctx, const char *name, size_t length, wm_name_rule rule, const char *what);

/* Compares names as the games do: ASCII letters without case, '/' and '\\' as one. Returns <0, 0
 * or >0 like strcmp. The _n form compares counted names (neither needs a terminating NUL). */
WM_API int wm_name_compare(const char *a, const char *b);
WM_API int wm_name_compare_n(const char *a, size_t a_length, const char *b, size_t b_length);
/* A hash that agrees with wm_name_compare: equal names hash equally. */
WM_API uint64_t wm_name_hash(const char *name, size_t length);

/* name[0, length) made into one safe output file name (a batch output named after an archive
 * member "World\\wmo\\X.wmo" becomes "World_wmo_X.wmo"): separators, control bytes and the
 * characters Windows refuses in names become '_'. WM_ERR_CORRUPT, naming `what`, when even that
 * is unsafe (empty, "." or "..", a device name, too long). *out is freed with wm_free. */
WM_API wm_result wm_name_sanitise(wm_ctx *ctx, const char *name, size_t length, const char *what, char **out);

/* folder + separator + name (+ "." + extension when extension is not NULL), allocated: no
 * fixed-length buffer anywhere. folder NULL or "" gives the name alone. *out is freed with wm_free. */
WM_API wm_result wm_path_join(wm_ctx *ctx, const char *folder, const char *name, const char *extension, char **out);

/* A lookup table of names under wm_name_compare, in linear time: a hash index over items the
 * caller owns (room records, archive entries), asking name_of for an item's name. */
typedef const char *(*wm_name_of_fn)(const void *user, uint32_t item, size_t *out_length);
typedef struct wm_name_index {
    uint32_t *slots; /* item + 1; 0 = empty */
    uint32_t mask;   /* slot count - 1 (a power of two, at least twice the items) */
    wm_name_of_fn name_of;
    const void *user;
} wm_name_index;

/* Indexes items [0, count). Two items with one name: *out_duplicate (may be NULL) gets the pair
 * as {first, second}, the second is not indexed, and the build still succeeds (the caller
 * decides whether that is an error); {UINT32_MAX, UINT32_MAX} when all names differ. */
WM_API wm_result wm_name_index_build(wm_ctx *ctx, wm_name_index *index, uint32_t count, wm_name_of_fn name_of,
                                     const void *user, uint32_t out_duplicate[2]);
/* The item with that name, or UINT32_MAX. */
WM_API uint32_t wm_name_index_find(const wm_name_index *index, const char *name, size_t length);
WM_API void wm_name_index_free(const wm_ctx *ctx, wm_name_index *index);

#ifdef __cplusplus
}
#endif
#endif
