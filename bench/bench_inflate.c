/* The reference for `walkmesh info` / `convert` speed: a bare zlib inflate
 * of a TRN/TRX's ASWM packet, as a process of its own (read the file, find
 * the packet, inflate it with zlib's uncompress, nothing else).
 * Usage: bench_inflate FILE. Prints the walkmesh's uncompressed size. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench_inflate FILE.trx\n");
        return 1;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        perror(argv[1]);
        return 2;
    }
    long size = ftell(f);
    rewind(f);
    unsigned char *data = malloc(size > 0 ? (size_t)size : 1);
    if (!data || size < 12 || fread(data, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "%s: unreadable\n", argv[1]);
        return 2;
    }
    fclose(f);
    uint32_t packets = le32(data + 8);
    for (uint32_t i = 0; i < packets && 12 + 8 * (uint64_t)i + 8 <= (uint64_t)size; i++) {
        uint32_t at = le32(data + 16 + 8 * i);
        if (memcmp(data + 12 + 8 * i, "ASWM", 4) != 0 || (uint64_t)at + 20 > (uint64_t)size ||
            memcmp(data + at + 8, "COMP", 4) != 0)
            continue;
        uLong zsize = le32(data + at + 12), rsize = le32(data + at + 16);
        if ((uint64_t)at + 20 + zsize > (uint64_t)size)
            break;
        unsigned char *raw = malloc(rsize ? rsize : 1);
        uLongf got = rsize;
        if (!raw || uncompress(raw, &got, data + at + 20, zsize) != Z_OK) {
            fprintf(stderr, "%s: inflate failed\n", argv[1]);
            return 2;
        }
        printf("%lu\n", (unsigned long)got);
        free(raw);
        free(data);
        return 0;
    }
    fprintf(stderr, "%s: no compressed ASWM packet\n", argv[1]);
    return 2;
}
