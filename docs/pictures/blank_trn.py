#!/usr/bin/env python3
"""Writes an empty NWN2 interior terrain (TRN) of W x H tiles of 9 m: the --base a project-made mesh
needs to become a TRN (layout: FORMAT-NOTES section 2). No game data: every byte is made here.
Usage: blank_trn.py OUT.trn W H"""
import struct
import sys

out, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
aswm = struct.pack("<I32sBIIII", 0x6C, b"blank", 1, 0, 0, 0, 0)
aswm += struct.pack("<IfII", 15, 9.0, height, width)
for _ in range(width * height):
    aswm += struct.pack("<32sBIIIffI", b"", 0, 0, 0, 0, 0.0, 0.0, 0)  # tile header
    aswm += struct.pack("<IIBI", 0, 0, 0, 0) + struct.pack("<I", 15)  # empty path table, tile flags
aswm += struct.pack("<II", 0, 0)  # border size, island count
packets = [(b"TRWH", struct.pack("<III", width, height, 1)), (b"ASWM", aswm)]
table_end = 12 + 8 * len(packets)
data, offset = b"", table_end
head = b"NWN2" + struct.pack("<HHI", 2, 3, len(packets))
for kind, payload in packets:
    head += kind + struct.pack("<I", offset)
    offset += 8 + len(payload)
for kind, payload in packets:
    data += kind + struct.pack("<I", len(payload)) + payload
open(out, "wb").write(head + data)
