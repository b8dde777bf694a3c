"""Fuzz seeds from NWN2 TRN/TRX files: the walkmesh (ASWM) packet of each, pulled out of the
container without walkmesh's code (FORMAT-NOTES section 2: "NWN2", u16 major, u16 minor, u32
packet count, then (char[4] type, u32 offset) per packet; at the offset type, u32 size, payload;
an ASWM payload is "COMP", u32 compressed size, u32 uncompressed size, zlib stream, or raw).
  nwn2_packet.py aswm OUT_DIR FILE...   the walkmesh uncompressed (fuzz_bake's input)
  nwn2_packet.py zlib OUT_DIR FILE...   u32 uncompressed size, then the zlib stream (fuzz_deflate_scan's)
A file that is not such a container, or whose walkmesh is over MAX_WALKMESH bytes, is left out."""
import os
import struct
import sys
import zlib

MAX_WALKMESH = 256 << 10  # the bake target only bakes small walkmeshes; bigger seeds just slow it


def aswm_payload(data):
    if len(data) < 12 or data[:4] != b"NWN2":
        return None
    count = struct.unpack_from("<I", data, 8)[0]
    for i in range(min(count, (len(data) - 12) // 8)):
        kind, offset = struct.unpack_from("<4sI", data, 12 + 8 * i)
        if kind == b"ASWM" and offset + 8 <= len(data):
            size = struct.unpack_from("<I", data, offset + 4)[0]
            return data[offset + 8:offset + 8 + size]
    return None


def seed(mode, payload):
    compressed = payload[:4] == b"COMP" and len(payload) >= 12
    if mode == "zlib":
        return payload[8:12] + payload[12:] if compressed else None
    if not compressed:
        return payload if len(payload) <= MAX_WALKMESH else None
    claimed = struct.unpack_from("<I", payload, 8)[0]
    if claimed > MAX_WALKMESH:
        return None
    return zlib.decompress(payload[12:], bufsize=claimed)


def main(mode, out_dir, paths):
    written = 0
    for path in paths:
        with open(path, "rb") as handle:
            payload = aswm_payload(handle.read())
        made = seed(mode, payload) if payload else None
        if made:
            with open(os.path.join(out_dir, os.path.basename(path) + "." + mode), "wb") as handle:
                handle.write(made)
            written += 1
    return written


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("aswm", "zlib"):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
