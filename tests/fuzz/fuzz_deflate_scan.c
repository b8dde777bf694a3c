/* libFuzzer target: the splice's own deflate block scanner (nwn2_splice.c), which
 * reads the compressed walkmesh of the file being re-baked without zlib. The first
 * four bytes choose the uncompressed limit; the rest is taken as a zlib stream. The
 * scan must end, inside the stream, on any bytes. */
#include "nwn2/nwn2.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    size_t limit = (size_t)data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16 | (size_t)data[3] << 24;
    const uint8_t *stream = data + 4;
    size_t stream_size = size - 4;
    uint64_t bit = 0;
    size_t at = 0;
    if (nwn2_deflate_last_boundary(stream, stream_size, limit, &bit, &at) &&
        (bit > (uint64_t)stream_size * 8 || at > limit))
        abort(); /* a cut must lie inside the stream and before the limit */
    return 0;
}
