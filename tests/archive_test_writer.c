/* The tests' own archive writer (see archive_test_writer.h). */
#include "archive_test_writer.h"
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct bytes {
    uint8_t *data;
    size_t size;
} bytes;

static void put(bytes *b, const void *data, size_t size)
{
    b->data = realloc(b->data, b->size + size + 1);
    assert_non_null(b->data);
    memcpy(b->data + b->size, data, size);
    b->size += size;
}

static void put32(bytes *b, uint32_t v)
{
    uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, le, 4);
}

static void put16(bytes *b, uint16_t v)
{
    uint8_t le[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(b, le, 2);
}

static void put_name(bytes *b, const char *name, size_t field)
{
    char padded[64] = {0};
    memcpy(padded, name, strlen(name) < field ? strlen(name) : field);
    put(b, padded, field);
}

static size_t data_total(const atw_member *members, size_t count)
{
    size_t total = 0;
    for (size_t i = 0; i < count; i++)
        total += members[i].size;
    return total;
}

static void put_data(bytes *b, const atw_member *members, size_t count)
{
    for (size_t i = 0; i < count; i++)
        put(b, members[i].data, members[i].size);
}

/* ERF: a 160-byte header, the key list (name, id, type, unused), the resource list (offset,
 * size), then the data. */
static void build_erf(bytes *b, int v11, const atw_member *members, size_t count)
{
    size_t name_size = v11 ? 32 : 16, keys = 160, resources = keys + count * (name_size + 8);
    size_t data = resources + count * 8;
    put(b, v11 ? "MOD V1.1" : "ERF V1.0", 8);
    put32(b, 0);                 /* languages */
    put32(b, 0);                 /* localized string bytes */
    put32(b, (uint32_t)count);
    put32(b, 160);               /* localized strings */
    put32(b, (uint32_t)keys);
    put32(b, (uint32_t)resources);
    put32(b, 125);               /* build year since 1900 */
    put32(b, 1);                 /* build day */
    put32(b, 0xFFFFFFFFu);       /* description strref */
    uint8_t reserved[116] = {0};
    put(b, reserved, sizeof reserved);
    for (size_t i = 0; i < count; i++) {
        put_name(b, members[i].name, name_size);
        put32(b, (uint32_t)i);
        put16(b, (uint16_t)members[i].type);
        put16(b, 0);
    }
    for (size_t i = 0; i < count; i++) {
        put32(b, (uint32_t)data);
        put32(b, (uint32_t)members[i].size);
        data += members[i].size;
    }
    put_data(b, members, count);
}

/* RIM: "RIM V1.0", 0, count, key list offset 120, padding to 120, 32-byte entries, data. */
static void build_rim(bytes *b, const atw_member *members, size_t count)
{
    put(b, "RIM V1.0", 8);
    put32(b, 0);
    put32(b, (uint32_t)count);
    put32(b, 120);
    uint8_t pad[100] = {0};
    put(b, pad, sizeof pad);
    size_t data = 120 + 32 * count;
    for (size_t i = 0; i < count; i++) {
        put_name(b, members[i].name, 16);
        put32(b, members[i].type);
        put32(b, (uint32_t)i);
        put32(b, (uint32_t)data);
        put32(b, (uint32_t)members[i].size);
        data += members[i].size;
    }
    put_data(b, members, count);
}

static const char bif_name[] = "data\\walkmesh.bif";

/* KEY: header (64 bytes), one file entry, its name, then 22-byte keys whose id is
 * (BIF 0 << 20) | index. */
static void build_key(bytes *b, const atw_member *members, size_t count)
{
    size_t files = 64, name_at = files + 12, keys = name_at + sizeof bif_name;
    put(b, "KEY V1  ", 8);
    put32(b, 1);
    put32(b, (uint32_t)count);
    put32(b, (uint32_t)files);
    put32(b, (uint32_t)keys);
    put32(b, 125);
    put32(b, 1);
    uint8_t reserved[32] = {0};
    put(b, reserved, sizeof reserved);
    put32(b, (uint32_t)(20 + 16 * count + data_total(members, count)));
    put32(b, (uint32_t)name_at);
    put16(b, (uint16_t)sizeof bif_name);
    put16(b, 1);
    put(b, bif_name, sizeof bif_name);
    for (size_t i = 0; i < count; i++) {
        put_name(b, members[i].name, 16);
        put16(b, (uint16_t)members[i].type);
        put32(b, (uint32_t)i);
    }
}

uint8_t *atw_bif(const atw_member *members, size_t count, size_t *out_size)
{
    bytes b = {0};
    put(&b, "BIFFV1  ", 8);
    put32(&b, (uint32_t)count);
    put32(&b, 0);
    put32(&b, 20);
    size_t data = 20 + 16 * count;
    for (size_t i = 0; i < count; i++) {
        put32(&b, (uint32_t)i);
        put32(&b, (uint32_t)data);
        put32(&b, (uint32_t)members[i].size);
        put32(&b, members[i].type);
        data += members[i].size;
    }
    put_data(&b, members, count);
    *out_size = b.size;
    return b.data;
}

uint8_t *atw_build(atw_kind kind, const atw_member *members, size_t count, size_t *out_size)
{
    bytes b = {0};
    if (kind == ATW_RIM)
        build_rim(&b, members, count);
    else if (kind == ATW_KEY)
        build_key(&b, members, count);
    else
        build_erf(&b, kind == ATW_MOD_V11, members, count);
    *out_size = b.size;
    return b.data;
}

char *atw_write(const char *dir, atw_kind kind, const atw_member *members, size_t count)
{
    static const char *const names[] = {"test.erf", "test.mod", "test.rim", "chitin.key"};
    size_t size = 0;
    uint8_t *data = atw_build(kind, members, count, &size);
    char *path = wmt_join(dir, names[kind]);
    wmt_write_file(path, data, size);
    free(data);
    if (kind == ATW_KEY) {
        char *folder = wmt_join(dir, "data"), *bif = wmt_join(dir, "data/walkmesh.bif");
        mkdir(folder, 0777);
        data = atw_bif(members, count, &size);
        wmt_write_file(bif, data, size);
        free(data);
        free(folder);
        free(bif);
    }
    return path;
}

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* The test's reader: ERF V1.0/V1.1 (key list + resource list) or RIM V1.0 (32-byte entries). */
size_t atw_read(const uint8_t *b, size_t size, atw_entry *out, size_t max)
{
    assert_true(size >= 24);
    int rim = memcmp(b, "RIM ", 4) == 0;
    size_t name_size = !rim && memcmp(b + 4, "V1.1", 4) == 0 ? 32 : 16;
    uint32_t count = rim ? le32(b + 12) : le32(b + 16);
    uint32_t keys = rim ? le32(b + 16) : le32(b + 24), resources = rim ? 0 : le32(b + 28);
    assert_true(count <= max);
    assert_true(keys + (uint64_t)count * (rim ? 32 : name_size + 8) <= size);
    assert_true(rim || resources + 8ull * count <= size);
    for (uint32_t i = 0; i < count; i++) {
        atw_entry *e = &out[i];
        memset(e->name, 0, sizeof e->name);
        if (rim) {
            const uint8_t *k = b + keys + 32 * (size_t)i;
            assert_true(keys + 32 * (size_t)(i + 1) <= size);
            memcpy(e->name, k, 16);
            e->type = le32(k + 16);
            e->data = b + le32(k + 24);
            e->size = le32(k + 28);
        } else {
            const uint8_t *k = b + keys + (name_size + 8) * i, *r = b + resources + 8 * (size_t)i;
            memcpy(e->name, k, name_size);
            e->type = k[name_size + 4] | k[name_size + 5] << 8;
            e->data = b + le32(r);
            e->size = le32(r + 4);
        }
        assert_true((size_t)(e->data - b) + e->size <= size);
    }
    return count;
}

