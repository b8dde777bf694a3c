/* Helpers shared by the interchange module's reader, writers and descriptor: names and
 * extensions, refusals with advice, transition edges, and the sink outputs. They call
 * nothing else of the module, so its files depend on them one way. */
#include "assimp_module.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wm_assimp_extension(const char *path, char *out, size_t out_size)
{
    const char *dot = strrchr(wm_path_file_name(path), '.');
    out[0] = '\0';
    if (!dot)
        return;
    size_t n = 0;
    for (const char *p = dot + 1; *p && n + 1 < out_size; p++)
        out[n++] = (char)tolower((unsigned char)*p);
    out[n] = '\0';
}

void wm_assimp_stem(const char *path, char *out, size_t out_size)
{
    const char *fname = wm_path_file_name(path);
    const char *dot = strrchr(fname, '.');
    size_t len = dot && dot != fname ? (size_t)(dot - fname) : strlen(fname);
    snprintf(out, out_size, "%.*s", (int)(len < out_size ? len : out_size - 1), fname);
}

/* Side files (OBJ's .mtl, glTF's .bin) go beside the main file with its stem; the sink
 * places them all together. */
wm_result wm_assimp_write_outputs(wm_sink *sink, const output_file *files, unsigned count)
{
    wm_result r = wm_sink_write(sink, NULL, files[0].data, files[0].size);
    for (unsigned i = 1; !r && i < count; i++) {
        char suffix[64];
        snprintf(suffix, sizeof suffix, ".%s", files[i].extension);
        r = wm_sink_write(sink, suffix, files[i].data, files[i].size);
    }
    return r;
}

int wm_assimp_unreadable_extension(const char *ext)
{
    return strncmp(ext, "usd", 3) == 0 || strcmp(ext, "m3d") == 0 || strcmp(ext, "a3d") == 0;
}

wm_result wm_assimp_unreadable(wm_ctx *ctx, const char *path, const char *ext)
{
    static const char advice[] = "export it from your modelling tool as glTF 2.0 (.glb) or Wavefront (.obj)";
    if (strncmp(ext, "usd", 3) == 0)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: Debian's Assimp 5.2 cannot read USD files: %s", path, advice);
    if (strcmp(ext, "m3d") == 0 || strcmp(ext, "a3d") == 0)
        return wm_error(ctx, WM_ERR_UNSUPPORTED, "%s: Debian's Assimp 5.2 is built without its M3D reader: %s", path,
                        advice);
    return WM_OK;
}

wm_result wm_assimp_blend_refusal(wm_ctx *ctx, const char *path, const uint8_t *head, size_t size)
{
    static const uint8_t zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};
    if (size >= 4 && memcmp(head, zstd_magic, 4) == 0)
        return wm_error(ctx, WM_ERR_UNSUPPORTED,
                        "%s: a compressed .blend of Blender 3.0 or later, which Assimp 5.2 cannot read: in Blender "
                        "use File > Export > glTF 2.0 (.glb) or Wavefront (.obj)",
                        path);
    /* "BLENDER" + pointer size + endianness + version "304" */
    if (size >= 12 && memcmp(head, "BLENDER", 7) == 0 && isdigit(head[9]) && isdigit(head[10]) && isdigit(head[11])) {
        int version = (head[9] - '0') * 100 + (head[10] - '0') * 10 + (head[11] - '0');
        if (version >= 300)
            return wm_error(ctx, WM_ERR_UNSUPPORTED,
                            "%s: a .blend of Blender %d.%d, which Assimp 5.2 cannot read (it reads Blender 2.x "
                            "files): in Blender use File > Export > glTF 2.0 (.glb) or Wavefront (.obj)",
                            path, version / 100, version % 100);
    }
    return WM_OK;
}

/* Transitions (room and door links on triangle edges) cannot be stored in
 * OBJ or glTF triangles, so each distinct value becomes a line mesh named
 * "transition_<value>" holding its edges; the reader puts them back onto
 * the triangle edges they coincide with. */
static int compare_transition_edges(const void *x, const void *y)
{
    const transition_edge *p = x, *q = y;
    if (p->value != q->value)
        return p->value < q->value ? -1 : 1;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

transition_edge *wm_assimp_transition_edges(const wm_mesh *mesh, size_t *count)
{
    size_t n = 0;
    for (size_t i = 0; i < 3 * (size_t)mesh->triangle_count; i++)
        n += mesh->transitions[i] != WM_NO_TRANSITION;
    *count = 0;
    if (n == 0)
        return NULL;
    transition_edge *edges = malloc(n * sizeof *edges);
    if (!edges)
        return NULL;
    size_t k = 0;
    for (uint32_t t = 0; t < mesh->triangle_count; t++)
        for (int e = 0; e < 3; e++) {
            int32_t v = mesh->transitions[3 * (size_t)t + e];
            if (v == WM_NO_TRANSITION)
                continue;
            uint32_t a = mesh->indices[3 * (size_t)t + e], b = mesh->indices[3 * (size_t)t + (e + 1) % 3];
            edges[k].a = a < b ? a : b;
            edges[k].b = a < b ? b : a;
            edges[k].value = v;
            k++;
        }
    qsort(edges, k, sizeof *edges, compare_transition_edges);
    size_t unique = 0;
    for (size_t i = 0; i < k; i++)
        if (unique == 0 || compare_transition_edges(&edges[unique - 1], &edges[i]) != 0)
            edges[unique++] = edges[i];
    *count = unique;
    return edges;
}

uint32_t wm_assimp_transition_values(const wm_mesh *mesh)
{
    size_t count;
    transition_edge *edges = wm_assimp_transition_edges(mesh, &count);
    uint32_t values = 0;
    for (size_t i = 0; i < count; i++)
        values += i == 0 || edges[i].value != edges[i - 1].value;
    free(edges);
    return values;
}

