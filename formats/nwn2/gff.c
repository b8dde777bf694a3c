/* Bounded GFF V3.2 reader (see gff.h). Layout: 56-byte header of a 4-byte
 * file type, "V3.2", then offset/count pairs of six tables; structs are 12
 * bytes {type, data or field-index offset, field count}; fields 12 bytes
 * {type, label index, data}; labels 16 bytes. */
#include "gff.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#if defined(__GNUC__)
WM_PRINTF(3, 4)
#endif
static wm_result gff_fail(const nwn2_gff *g, uint64_t offset, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return wm_error(g->ctx, WM_ERR_CORRUPT, "%s: offset 0x%llx: %s", g->source, (unsigned long long)offset, what);
}

static wm_result check_table(const nwn2_gff *g, uint32_t offset, uint64_t bytes, const char *name)
{
    if (offset > g->size || bytes > g->size - offset)
        return gff_fail(g, 8, "%s table (offset %u, %llu bytes) runs past the end of the file", name, offset,
                        (unsigned long long)bytes);
    return WM_OK;
}

wm_result nwn2_gff_open(wm_ctx *ctx, const uint8_t *data, size_t size, const char *source, nwn2_gff *g)
{
    memset(g, 0, sizeof *g);
    g->ctx = ctx;
    g->data = data;
    g->size = size;
    g->source = source ? source : "<memory>";
    wm_cursor cur;
    wm_cursor_init(&cur, ctx, data, size, g->source);
    uint8_t head[8];
    wm_result r = wm_read_bytes(&cur, head, 8, "GFF header");
    if (r)
        return r;
    if (memcmp(head + 4, "V3.2", 4) != 0)
        return wm_cursor_error(&cur, WM_ERR_CORRUPT, "not a GFF V3.2 file (version \"%.4s\")", (const char *)head + 4);
    memcpy(g->file_type, head, 4);
    uint32_t *fields[12] = {&g->struct_offset,       &g->struct_count,       &g->field_offset,
                            &g->field_count,         &g->label_offset,       &g->label_count,
                            &g->field_data_offset,   &g->field_data_size,    &g->field_indices_offset,
                            &g->field_indices_size,  &g->list_indices_offset, &g->list_indices_size};
    for (int i = 0; i < 12 && !r; i++)
        r = wm_read_u32(&cur, fields[i], "GFF header table offsets");
    if (!r)
        r = check_table(g, g->struct_offset, 12ull * g->struct_count, "struct");
    if (!r)
        r = check_table(g, g->field_offset, 12ull * g->field_count, "field");
    if (!r)
        r = check_table(g, g->label_offset, 16ull * g->label_count, "label");
    if (!r)
        r = check_table(g, g->field_data_offset, g->field_data_size, "field data");
    if (!r)
        r = check_table(g, g->field_indices_offset, g->field_indices_size, "field indices");
    if (!r)
        r = check_table(g, g->list_indices_offset, g->list_indices_size, "list indices");
    if (!r && g->struct_count == 0)
        r = gff_fail(g, 12, "no top-level struct (struct count 0)");
    g->lookups_left = 8ull * ((uint64_t)g->field_count + g->list_indices_size / 4) + 4096;
    return r;
}

static wm_result read_field(const nwn2_gff *g, uint32_t index, nwn2_gff_field *out)
{
    if (index >= g->field_count)
        return gff_fail(g, g->field_offset, "field index %u out of range (%u fields)", index, g->field_count);
    const uint8_t *p = g->data + g->field_offset + 12ull * index;
    out->index = index;
    out->type = wm_le32(p);
    out->data = wm_le32(p + 8);
    return WM_OK;
}

static int label_is(const nwn2_gff *g, uint32_t field_index, const char *label)
{
    uint32_t li = wm_le32(g->data + g->field_offset + 12ull * field_index + 4);
    if (li >= g->label_count)
        return -1;
    const char *l = (const char *)g->data + g->label_offset + 16ull * li;
    size_t n = strlen(label);
    return n <= 16 && memcmp(l, label, n) == 0 && (n == 16 || l[n] == '\0');
}

wm_result nwn2_gff_find(nwn2_gff *g, uint32_t st, const char *label, nwn2_gff_field *out, int *found)
{
    *found = 0;
    if (st >= g->struct_count)
        return gff_fail(g, g->struct_offset, "struct index %u out of range (%u structs)", st, g->struct_count);
    const uint8_t *sp = g->data + g->struct_offset + 12ull * st;
    uint32_t data = wm_le32(sp + 4), count = wm_le32(sp + 8);
    if (count == 1) {
        wm_result r = read_field(g, data, out);
        if (r)
            return r;
        int is = label_is(g, data, label);
        if (is < 0)
            return gff_fail(g, g->field_offset + 12ull * data, "field %u: label index out of range", data);
        *found = is;
        return WM_OK;
    }
    if (count == 0)
        return WM_OK;
    if (data > g->field_indices_size || (uint64_t)count * 4 > g->field_indices_size - data)
        return gff_fail(g, g->struct_offset + 12ull * st, "struct %u: %u field indices run past the field index table", st,
                        count);
    if (count > g->lookups_left)
        return gff_fail(g, g->struct_offset + 12ull * st,
                        "struct %u: field lookups exceed 8 per field and list entry (structs named by many list "
                        "entries?)", st);
    g->lookups_left -= count;
    const uint8_t *ip = g->data + g->field_indices_offset + data;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t fi = wm_le32(ip + 4ull * k);
        wm_result r = read_field(g, fi, out);
        if (r)
            return r;
        int is = label_is(g, fi, label);
        if (is < 0)
            return gff_fail(g, g->field_offset + 12ull * fi, "field %u: label index out of range", fi);
        if (is) {
            *found = 1;
            return WM_OK;
        }
    }
    return WM_OK;
}

wm_result nwn2_gff_list_count(const nwn2_gff *g, const nwn2_gff_field *list, uint32_t *count)
{
    if (list->type != NWN2_GFF_LIST)
        return gff_fail(g, g->field_offset + 12ull * list->index, "field %u is of type %u, not a list", list->index,
                        list->type);
    if (list->data > g->list_indices_size || g->list_indices_size - list->data < 4)
        return gff_fail(g, g->list_indices_offset, "list at %u runs past the list index table (%u bytes)", list->data,
                        g->list_indices_size);
    uint32_t n = wm_le32(g->data + g->list_indices_offset + list->data);
    if ((uint64_t)n * 4 > g->list_indices_size - list->data - 4)
        return gff_fail(g, g->list_indices_offset + list->data, "list claims %u elements, more than the table holds", n);
    *count = n;
    return WM_OK;
}

wm_result nwn2_gff_list_struct(const nwn2_gff *g, const nwn2_gff_field *list, uint32_t k, uint32_t *st)
{
    uint32_t n = 0;
    wm_result r = nwn2_gff_list_count(g, list, &n);
    if (r)
        return r;
    if (k >= n)
        return gff_fail(g, g->list_indices_offset + list->data, "list element %u out of range (%u elements)", k, n);
    *st = wm_le32(g->data + g->list_indices_offset + list->data + 4 + 4ull * k);
    if (*st >= g->struct_count)
        return gff_fail(g, g->list_indices_offset + list->data + 4 + 4ull * k, "list element names struct %u of %u", *st,
                        g->struct_count);
    return WM_OK;
}

static wm_result type_error(const nwn2_gff *g, const nwn2_gff_field *f, const char *label, const char *wanted)
{
    return wm_error(g->ctx, WM_ERR_CORRUPT, "%s: offset 0x%llx: field \"%s\" has type %u, expected %s", g->source,
                    (unsigned long long)(g->field_offset + 12ull * f->index), label, f->type, wanted);
}

wm_result nwn2_gff_int(nwn2_gff *g, uint32_t st, const char *label, int64_t fallback, int64_t *out)
{
    nwn2_gff_field f;
    int found = 0;
    wm_result r = nwn2_gff_find(g, st, label, &f, &found);
    if (r)
        return r;
    if (!found) {
        *out = fallback;
        return WM_OK;
    }
    switch (f.type) {
    case NWN2_GFF_BYTE: *out = (uint8_t)f.data; break;
    case NWN2_GFF_CHAR: *out = (int8_t)(uint8_t)f.data; break;
    case NWN2_GFF_WORD: *out = (uint16_t)f.data; break;
    case NWN2_GFF_SHORT: *out = (int16_t)(uint16_t)f.data; break;
    case NWN2_GFF_DWORD: *out = f.data; break;
    case NWN2_GFF_INT: *out = (int32_t)f.data; break;
    default: return type_error(g, &f, label, "an integer");
    }
    return WM_OK;
}

wm_result nwn2_gff_float(nwn2_gff *g, uint32_t st, const char *label, float fallback, float *out)
{
    nwn2_gff_field f;
    int found = 0;
    wm_result r = nwn2_gff_find(g, st, label, &f, &found);
    if (r)
        return r;
    if (!found) {
        *out = fallback;
        return WM_OK;
    }
    if (f.type != NWN2_GFF_FLOAT)
        return type_error(g, &f, label, "a float");
    uint8_t b[4] = {(uint8_t)f.data, (uint8_t)(f.data >> 8), (uint8_t)(f.data >> 16), (uint8_t)(f.data >> 24)};
    *out = wm_lef32(b);
    return WM_OK;
}
