/* A small bounded reader for BioWare GFF V3.2 files (GIT, ARE, ...): just
 * enough to walk structs, lists and simple fields by label. Nothing is
 * copied or allocated; every offset and index is checked on use, so a
 * hostile file gives an error naming the offset, never a crash. */
#ifndef WM_NWN2_GFF_H
#define WM_NWN2_GFF_H

#include "wm_io.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    NWN2_GFF_BYTE = 0, NWN2_GFF_CHAR = 1, NWN2_GFF_WORD = 2, NWN2_GFF_SHORT = 3, NWN2_GFF_DWORD = 4,
    NWN2_GFF_INT = 5, NWN2_GFF_DWORD64 = 6, NWN2_GFF_INT64 = 7, NWN2_GFF_FLOAT = 8, NWN2_GFF_DOUBLE = 9,
    NWN2_GFF_STRING = 10, NWN2_GFF_RESREF = 11, NWN2_GFF_LOCSTRING = 12, NWN2_GFF_VOID = 13,
    NWN2_GFF_STRUCT = 14, NWN2_GFF_LIST = 15
};

typedef struct nwn2_gff {
    wm_ctx *ctx;
    const uint8_t *data;
    size_t size;
    const char *source;
    char file_type[5];            /* "GIT ", NUL-terminated */
    uint32_t struct_offset, struct_count;
    uint32_t field_offset, field_count;
    uint32_t label_offset, label_count;
    uint32_t field_data_offset, field_data_size;
    uint32_t field_indices_offset, field_indices_size;
    uint32_t list_indices_offset, list_indices_size;
    /* field comparisons label lookups may still make: 8 per field and per
     * list entry (a tree's lookups visit each struct's fields a few times),
     * so a struct named by many list entries cannot cost the square of the
     * file size */
    uint64_t lookups_left;
} nwn2_gff;

typedef struct nwn2_gff_field {
    uint32_t index; /* field index */
    uint32_t type;
    uint32_t data;  /* inline value, or offset / struct index for complex types */
} nwn2_gff_field;

/* Checks the header and that every table lies inside the data. */
wm_result nwn2_gff_open(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, nwn2_gff *out);
/* Field of struct `st` with that label. WM_OK and *found = 0 when absent;
 * an error once the lookups spend their budget (lookups_left). */
wm_result nwn2_gff_find(nwn2_gff *g, uint32_t st, const char *label, nwn2_gff_field *out, int *found);
/* List field: number of structs and the struct index of element k. */
wm_result nwn2_gff_list_count(const nwn2_gff *g, const nwn2_gff_field *list, uint32_t *count);
wm_result nwn2_gff_list_struct(const nwn2_gff *g, const nwn2_gff_field *list, uint32_t k, uint32_t *st);
/* Numeric fields (BYTE..INT, FLOAT); a type mismatch is an error naming the label. */
wm_result nwn2_gff_int(nwn2_gff *g, uint32_t st, const char *label, int64_t fallback, int64_t *out);
wm_result nwn2_gff_float(nwn2_gff *g, uint32_t st, const char *label, float fallback, float *out);

#ifdef __cplusplus
}
#endif
#endif
