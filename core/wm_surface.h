/* Surface materials. The table is data (core/surfaces.def.txt is compiled in
 * as text); a user file in the same syntax overrides or extends it.
 * Surface ids 0..22 equal KotOR surfacemat.2da row ids. */
#ifndef WM_SURFACE_H
#define WM_SURFACE_H

#include "wm_api.h"

#include "wm_context.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WM_SURFACE_NONE 0xFFFFu
#define WM_SURFACE_MAX_ALIASES 8

/* Well-known ids of the built-in table (KotOR rows, then our own). */
enum {
    WM_SURF_UNDEFINED = 0,
    WM_SURF_DIRT = 1,
    WM_SURF_NONWALK = 7,
    WM_SURF_STONE = 4,
    WM_SURF_COLLISION = 23, /* collision only (WoW 0xFF material, blockers) */
    WM_SURF_LIQUID = 24
};

typedef struct wm_surface {
    char name[32];            /* neutral name, lower case */
    int walkable;             /* default walkability */
    int32_t kotor_id;         /* surfacemat.2da row, -1 none */
    uint32_t nwn2_flag;       /* ASWM triangle flag bit (0x8 dirt, ...), 0 none */
    uint8_t color[3];         /* sRGB for OBJ/glTF export */
    char aliases[WM_SURFACE_MAX_ALIASES][32]; /* extra names matched case-insensitively */
    unsigned alias_count;
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

/* Parses "name walkable kotor nwn2 color [alias,alias...]" lines onto a copy
 * of base (entries with an existing name are replaced, new names appended;
 * "fallback NAME" sets the fallback). Errors name the line. */
WM_API wm_result wm_surface_table_parse(wm_ctx *ctx, const wm_surface_table *base, const char *text,
                                 size_t length, const char *source_name, wm_surface_table *out);
WM_API wm_result wm_surface_table_load(wm_ctx *ctx, const char *path, wm_surface_table *out);
WM_API void wm_surface_table_free(const wm_ctx *ctx, wm_surface_table *table);

/* Copies name into out (truncated to out_size - 1) without Blender's
 * duplicate suffix: "Dirt.001" -> "Dirt". */
WM_API void wm_material_base_name(const char *name, char *out, size_t out_size);

/* Material name to surface id: neutral names, aliases, "wok_<name>",
 * a trailing/leading decimal id ("12", "mat_12", "Surface12") as a KotOR id.
 * Case-insensitive. Returns WM_SURFACE_NONE when nothing matches. */
WM_API uint16_t wm_surface_from_name(const wm_surface_table *table, const char *name);
WM_API uint16_t wm_surface_from_kotor(const wm_surface_table *table, int32_t kotor_id);
/* First surface whose nwn2 flag is set in flags; WM_SURFACE_NONE if none. */
WM_API uint16_t wm_surface_from_nwn2_flags(const wm_surface_table *table, uint32_t flags);
WM_API int32_t wm_surface_kotor_id(const wm_surface_table *table, uint16_t surface);
WM_API uint32_t wm_surface_nwn2_flag(const wm_surface_table *table, uint16_t surface);
WM_API const char *wm_surface_name(const wm_surface_table *table, uint16_t surface); /* "unknown" if out of range */
WM_API int wm_surface_walkable(const wm_surface_table *table, uint16_t surface);

#ifdef __cplusplus
}
#endif
#endif
