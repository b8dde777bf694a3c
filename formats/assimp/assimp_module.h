/* Internal interface of the Assimp-backed interchange module. */
#ifndef WM_ASSIMP_MODULE_H
#define WM_ASSIMP_MODULE_H

#include "walkmesh.h"

/* Faces without a known material are walkable when at most this many
 * degrees from horizontal (--walkable-slope changes it): Recast's default
 * agent slope, and the ramp sample's 26.6-degree ramp stays walkable. */
#define WM_ASSIMP_DEFAULT_SLOPE 45.0f

/* Extension of path (after the last '.', lower case, at most 15 chars) into out. */
void wm_assimp_extension(const char *path, char *out, size_t out_size);

/* Whether Debian's Assimp cannot read files with this extension (USD, M3D): refused with advice. */
int wm_assimp_unreadable_extension(const char *ext);
/* WM_ERR_UNSUPPORTED with advice for extensions Debian's Assimp cannot
 * read (USD, M3D); WM_OK for the others. */
wm_result wm_assimp_unreadable(wm_ctx *ctx, const char *path, const char *ext);
/* WM_ERR_UNSUPPORTED with advice when the file starts like a .blend Assimp
 * cannot read (Blender 3.0+, or zstd-compressed); else WM_OK. */
wm_result wm_assimp_blend_refusal(wm_ctx *ctx, const char *path, const uint8_t *head, size_t size);

/* Material name -> surface and walkability, with the "__walk"/"__nowalk"
 * suffixes our exporter writes when a triangle's walkability differs from
 * its surface's default. Returns 0 when the name is unknown (outputs untouched). */
int wm_assimp_material_to_surface(const wm_surface_table *table, const char *name, uint16_t *surface, int *walkable);
/* The material name written for a surface/walkability pair. */
void wm_assimp_surface_material_name(const wm_surface_table *table, uint16_t surface, int walkable, char *out,
                                     size_t out_size);

/* Structural check of an OBJ file (Assimp accepts truncated or binary
 * files silently): text only, vertex lines with three numbers, faces with
 * three or more in-range references. Errors name the line. */
wm_result wm_obj_check(wm_ctx *ctx, const char *path, const uint8_t *data, size_t size);
/* The same check of one line (trimmed, neither blank nor a comment), with
 * the `v` and `f` lines before it counted in *vertices and *faces (counted
 * on). The OBJ reader asks it about any line its fast parser does not take. */
wm_result wm_obj_check_line(wm_ctx *ctx, const char *path, unsigned long line_no, const char *line, const char *end,
                            long *vertices, long *faces);
/* The error for a file without faces. */
wm_result wm_obj_no_faces(wm_ctx *ctx, const char *path, long vertices, unsigned long lines);

/* A transition on a triangle edge: vertex indices a < b and its value. */
typedef struct transition_edge {
    uint32_t a, b;
    int32_t value;
} transition_edge;
/* Sorted (by value, then edge) distinct transition edges of the mesh, malloc'ed;
 * NULL with *count 0 when there are none (or memory ran out). */
transition_edge *wm_assimp_transition_edges(const wm_mesh *mesh, size_t *count);
/* Number of distinct transition values. */
uint32_t wm_assimp_transition_values(const wm_mesh *mesh);

/* An output file: the main one (extension NULL) or a side file named
 * <stem>.<extension> beside it. */
typedef struct output_file {
    const char *extension;
    const void *data;
    size_t size;
} output_file;
/* File name of path without folder and extension. */
void wm_assimp_stem(const char *path, char *out, size_t out_size);
/* Writes files[0] as the sink's main output and the others beside it (<stem>.<extension>). */
wm_result wm_assimp_write_outputs(wm_sink *sink, const output_file *files, unsigned count);

/* Our own OBJ + MTL writer (obj_write.c): an `o` object per mesh object and
 * per transition value (`l` edges), so Blender's importer keeps them all. */
wm_result wm_obj_write(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, int y_up);

/* OBJ read by walkmesh itself (obj_read.c) from the file's bytes, in one
 * pass that checks each line as wm_obj_check does. */
wm_result wm_obj_check_and_read(wm_ctx *ctx, const char *path, const wm_options *opts, const uint8_t *data,
                                size_t size, wm_mesh *out);
/* The same from an input, whose pages the reader lets go behind it (wm_input_release). */
wm_result wm_obj_read_input(wm_ctx *ctx, const wm_options *opts, const wm_input *in, wm_mesh *out);

/* The import itself, in this process (assimp_read.c). */
/* glTF 2.0 written by walkmesh itself (gltf_write.c): .gltf + .bin, or .glb when binary. */
wm_result wm_gltf_write(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, int binary);

wm_result wm_assimp_read_in_process(wm_ctx *ctx, const char *path, const wm_options *opts, wm_mesh *out);
/* The module's read: the import runs in a child process with CPU-time and
 * memory limits, so a crash or runaway allocation inside Assimp becomes an
 * input error (assimp_contained.c; in process on Windows). */
wm_result wm_assimp_read(wm_ctx *ctx, const char *path, const wm_options *opts, wm_mesh *out);
wm_result wm_assimp_write(wm_ctx *ctx, const wm_mesh *mesh, wm_sink *sink, const wm_options *opts);

/* Objects (OBJ) and empties (glTF) that carry a mesh's named points. */
#define WM_ASSIMP_POINT_PREFIX "point_"
struct aiScene;
/* Appends one empty per named point to the scene's root (room reserved by the caller). */
wm_result wm_assimp_add_point_empties(const wm_mesh *mesh, struct aiScene *scene, int y_up);

#endif
