/* The floor a re-bake is measured against (issue 20), as a process of its own:
 *   bench_floor rebake IN.trx OUT.trx  read the file, inflate the ASWM packet with libdeflate,
 *                                      deflate it again at the level a re-bake uses (libdeflate 6,
 *                                      zlib format), write the file with the new packet;
 *   bench_floor inflate IN.trx         read the file and inflate the ASWM packet, nothing else
 *                                      (the floor for `walkmesh info`);
 *   bench_floor packet IN.trx OUT.raw  write the inflated ASWM packet (bench/bake_identity.sh
 *                                      compares bakes by their packets, not their zlib bytes).
 * Everything a re-bake does beyond this (parse, tables, islands, serialise) is its own cost. */
#include <libdeflate.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REBAKE_LEVEL 6

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0)
        return NULL;
    long n = ftell(f);
    rewind(f);
    unsigned char *data = malloc(n > 0 ? (size_t)n : 1);
    if (!data || n < 12 || fread(data, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(data);
        return NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

/* Offset of the compressed ASWM packet's payload, 0 if none. */
static uint32_t find_aswm(const unsigned char *data, size_t size)
{
    uint32_t packets = le32(data + 8);
    for (uint32_t i = 0; i < packets && 12 + 8 * (uint64_t)i + 8 <= (uint64_t)size; i++) {
        uint32_t at = le32(data + 16 + 8 * i);
        if (memcmp(data + 12 + 8 * i, "ASWM", 4) == 0 && (uint64_t)at + 20 <= (uint64_t)size &&
            memcmp(data + at + 8, "COMP", 4) == 0 && (uint64_t)at + 20 + le32(data + at + 12) <= (uint64_t)size)
            return at;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rebake = argc == 4 && strcmp(argv[1], "rebake") == 0;
    int packet = argc == 4 && strcmp(argv[1], "packet") == 0;
    if (!rebake && !packet && !(argc == 3 && strcmp(argv[1], "inflate") == 0)) {
        fprintf(stderr, "usage: bench_floor rebake IN.trx OUT.trx | bench_floor inflate IN.trx | bench_floor packet "
                        "IN.trx OUT.raw\n");
        return 1;
    }
    size_t size = 0;
    unsigned char *data = slurp(argv[2], &size);
    uint32_t at = data ? find_aswm(data, size) : 0;
    if (!at) {
        fprintf(stderr, "%s: unreadable or no compressed ASWM packet\n", argv[2]);
        return 2;
    }
    const uint32_t zsize = le32(data + at + 12), rsize = le32(data + at + 16);
    unsigned char *raw = malloc(rsize ? rsize : 1);
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    if (!raw || !d || libdeflate_zlib_decompress(d, data + at + 20, zsize, raw, rsize, NULL) != LIBDEFLATE_SUCCESS) {
        fprintf(stderr, "%s: inflate failed\n", argv[2]);
        return 2;
    }
    libdeflate_free_decompressor(d);
    if (packet) {
        FILE *f = fopen(argv[3], "wb");
        if (!f || fwrite(raw, 1, rsize, f) != rsize || fclose(f) != 0) {
            fprintf(stderr, "%s: not written\n", argv[3]);
            return 3;
        }
        return 0;
    }
    if (!rebake) {
        printf("%u\n", rsize);
        return 0;
    }
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(REBAKE_LEVEL);
    size_t bound = c ? libdeflate_zlib_compress_bound(c, rsize) : 0;
    unsigned char *out = malloc(size + bound + 20);
    if (!out)
        return 2;
    /* the file up to the packet's stream, the new stream, the rest (the ASWM sizes patched) */
    memcpy(out, data, at + 20);
    size_t z = libdeflate_zlib_compress(c, raw, rsize, out + at + 20, bound);
    size_t tail = size - (at + 20 + zsize);
    memcpy(out + at + 20 + z, data + at + 20 + zsize, tail);
    put32(out + at + 12, (uint32_t)z);
    put32(out + at + 4, (uint32_t)(le32(data + at + 4) - zsize + z)); /* the packet's size (offsets of later
                                                                        packets are not moved: timing only) */
    FILE *f = fopen(argv[3], "wb");
    if (!z || !f || fwrite(out, 1, at + 20 + z + tail, f) != at + 20 + z + tail || fclose(f) != 0) {
        fprintf(stderr, "%s: not written\n", argv[3]);
        return 3;
    }
    libdeflate_free_compressor(c);
    free(out);
    free(raw);
    free(data);
    return 0;
}
