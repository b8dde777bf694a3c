/* Internal interface of the Assimp-backed interchange module. */
#ifndef WM_ASSIMP_MODULE_H
#define WM_ASSIMP_MODULE_H

#include "walkmesh.h"

/* Extension of path (after the last '.', lower case, at most 15 chars) into out. */
void wm_assimp_extension(const char *path, char *out, size_t out_size);

/* Material name -> surface and walkability, with the "__walk"/"__nowalk"
 * suffixes our exporter writes when a triangle's walkability differs from
 * its surface's default. Returns 0 when the name is unknown (outputs untouched). */
int wm_assimp_material_to_surface(const wm_surface_table *table, const char *name, uint16_t *surface, int *walkable);
/* The material name written for a surface/walkability pair. */
void wm_assimp_surface_material_name(const wm_surface_table *table, uint16_t surface, int walkable, char *out,
                                     size_t out_size);

/* Structural check of an OBJ file before Assimp sees it (Assimp accepts
 * truncated or binary files silently): text only, vertex lines with three
 * numbers, faces with three or more in-range references. Errors name the line. */
wm_result wm_obj_check(wm_ctx *ctx, const char *path, const uint8_t *data, size_t size);

wm_result wm_assimp_read(wm_ctx *ctx, const char *path, const wm_options *opts, wm_mesh *out);
wm_result wm_assimp_write(wm_ctx *ctx, const wm_mesh *mesh, const char *path, const wm_options *opts, int overwrite);

#endif
