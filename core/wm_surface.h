/* Surface materials: a neutral model (name, walkability, colour, aliases).
 * The table is data (core/surfaces.txt is compiled in as text); a user file
 * in the same syntax overrides or extends it. What a surface is called in a
 * game (a KotOR surfacemat.2da row, an NWN2 triangle flag) belongs to that
 * game's module, which keeps its own table by surface name; a surface file
 * may give a surface a game code of its own ("kotor=30"), which the module
 * then uses instead. The built-in rows 0..22 are in KotOR's row order. */
#ifndef WM_SURFACE_H
#define WM_SURFACE_H

#include "wm_api.h"

#include "wm_context.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_SURFACE_NONE 0xFFFFu
#define WM_SURFACE_MAX_ALIASES 8
#define WM_SURFACE_MAX_CODES 4
#define WM_SURFACE_CODE_NONE (-1) /* a code given as "none": the surface has none in that game */

/* Well-known ids of the built-in table (KotOR rows, then our own). */
enum {
    WM_SURF_UNDEFINED = 0,
    WM_SURF_DIRT = 1,
    WM_SURF_NONWALK = 7,
    WM_SURF_STONE = 4,
    WM_SURF_COLLISION = 23, /* collision only (WoW 0xFF material, blockers) */
    WM_SURF_LIQUID = 24
};

/* A game's code for a surface given by a surface file ("kotor=4"). */
typedef struct wm_surface_code {
    char scheme[16]; /* lower case: the module's name for its codes, e.g. "kotor", "nwn2" */
    int64_t value;   /* WM_SURFACE_CODE_NONE: explicitly none */
} wm_surface_code;

typedef struct wm_surface {
    char name[32];            /* neutral name, lower case */
    int walkable;             /* default walkability */
    uint8_t color[3];         /* sRGB for OBJ/glTF export and pictures */
    char aliases[WM_SURFACE_MAX_ALIASES][32]; /* extra names matched case-insensitively */
    unsigned alias_count;
    wm_surface_code codes[WM_SURFACE_MAX_CODES]; /* codes a surface file gave; modules know the rest */
    unsigned code_count;
} wm_surface;

typedef struct wm_surface_table {
    wm_surface *entries;
    uint32_t count;
    uint16_t fallback;        /* surface for unknown material names */
} wm_surface_table;

/* The built-in table (parsed once from the compiled-in text; thread-safe after first call). */
WM_API const wm_surface_table *wm_surfaces_default(void);
/* ctx->surfaces or the default. */
WM_API const wm_surface_table *wm_surfaces(const wm_ctx *ctx);

/* Parses "name walkable rrggbb [alias,alias...|-] [scheme=code...]" lines
 * onto a copy of base (entries with an existing name are replaced, new names
 * appended; "fallback NAME" sets the fallback). The older six-column lines
 * "name walkable kotor-id nwn2-flag rrggbb aliases" still read, as
 * kotor=ID nwn2=FLAG (-1 and 0 meaning none). Errors name the line. */
WM_API wm_result wm_surface_table_parse(wm_ctx *ctx, const wm_surface_table *base, const char *text,
                                 size_t length, const char *source_name, wm_surface_table *out);
WM_API wm_result wm_surface_table_load(wm_ctx *ctx, const char *path, wm_surface_table *out);
WM_API void wm_surface_table_free(const wm_ctx *ctx, wm_surface_table *table);

/* Copies name into out (truncated to out_size - 1) without Blender's
 * duplicate suffix: "Dirt.001" -> "Dirt". */
WM_API void wm_material_base_name(const char *name, char *out, size_t out_size);

/* Material name to surface id: neutral names, aliases, "wok_<name>",
 * a trailing/leading decimal number ("12", "mat_12", "Surface12") as a
 * surface id (a row of the table: the built-in rows 0..22 are KotOR's).
 * Case-insensitive. Returns WM_SURFACE_NONE when nothing matches. */
WM_API uint16_t wm_surface_from_name(const wm_surface_table *table, const char *name);
/* The surface whose name is exactly name (lower case, no aliases); fast. */
WM_API uint16_t wm_surface_named(const wm_surface_table *table, const char *name);
/* The first surface a surface file gave this code in scheme; WM_SURFACE_NONE if none. */
WM_API uint16_t wm_surface_by_code(const wm_surface_table *table, const char *scheme, int64_t value);
/* 1 and *out when a surface file gave the surface a code in scheme (maybe
 * WM_SURFACE_CODE_NONE); 0 when the module's own table decides. */
WM_API int wm_surface_code_of(const wm_surface_table *table, uint16_t surface, const char *scheme, int64_t *out);
WM_API const char *wm_surface_name(const wm_surface_table *table, uint16_t surface); /* "unknown" if out of range */
WM_API int wm_surface_walkable(const wm_surface_table *table, uint16_t surface);

#ifdef __cplusplus
}
#endif
#endif
