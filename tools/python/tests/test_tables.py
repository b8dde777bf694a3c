"""walkmesh.nwn2_triangles and walkmesh.wmo_triangles against values read without our code:
NWN2 tiles and islands from nwn-lib-d's `nwn-trn aswm-dump` (the peer tool; skipped without it),
WMO MOPY records from the group files' raw bytes (FORMAT-NOTES section 3: chunk magics stored
byte-reversed, MOGP = 68-byte header then subchunks, MOPY = {u8 flags, u8 material} per triangle)."""
import os
import re
import struct
import subprocess
import unittest

import walkmesh

from support import CORPUS, corpus_files, need_corpus, rows

NWN_TRN = os.environ.get("WALKMESH_NWN_TRN") or os.path.join(CORPUS, "..", "tools", "nwn-trn")


def peer_dump(path):
    """(per file triangle (island, flags), per tile (offset, count), grid width) from the peer's dump."""
    text = subprocess.run([NWN_TRN, "aswm-dump", path], capture_output=True, check=True).stdout
    text = text.decode("latin-1")  # tile and walkmesh names are raw bytes
    triangles = text.split("==== TRIANGLES ====", 1)[1].split("==== TILES HEADER ====", 1)[0]
    islands = [(int(i), int(f)) for i, f in re.findall(r"island: (\d+), flags: (\d+)", triangles)]
    tiles_part = text.split("==== TILES ====", 1)[1].split("==== ISLANDS ====", 1)[0]
    counts = [int(c) for c in re.findall(r"tri_cnt: (\d+)", tiles_part)]
    offsets = [int(o) for o in re.findall(r"triangles_offset: (\d+)", tiles_part)]
    width = int(re.search(r"tiles_grid_width: (\d+)", text).group(1))
    return islands, list(zip(offsets, counts)), width


def tile_of_file_triangles(ranges, count):
    tile = [-1] * count
    for index, (offset, length) in enumerate(ranges):
        for t in range(offset, min(offset + length, count)):
            tile[t] = index
    return tile


@need_corpus
@unittest.skipUnless(os.access(NWN_TRN, os.X_OK), "no nwn-trn (nwn-lib-d) peer tool")
class Nwn2TablesTest(unittest.TestCase):
    def check_file(self, path, options):
        islands, ranges, width = peer_dump(path)
        tile_of = tile_of_file_triangles(ranges, len(islands))
        tables = walkmesh.nwn2_triangles(path, options=options)
        mesh = walkmesh.read(path, options=options)
        self.assertEqual(len(tables.tile), mesh.triangle_count, path)
        self.assertEqual(tables.grid_width, width)
        self.assertEqual(tables.grid_width * tables.grid_height, len(ranges))
        for i, t in enumerate(rows(tables.file_triangle)):
            self.assertEqual(int(tables.tile[i]), tile_of[t], (path, i))
            island = islands[t][0]
            self.assertEqual(int(tables.island[i]), -1 if island == 0xFFFF else island, (path, i))
            self.assertEqual(bool(mesh.walkable[i]), bool(islands[t][1] & 1), (path, i))
        return islands, tables

    def test_every_corpus_file_against_the_peer_dump(self):
        files = corpus_files("nwn2", (".trx", ".trn"))
        for path in files:
            islands, tables = self.check_file(path, {"keep-border": True})
            self.assertEqual(rows(tables.file_triangle), list(range(len(islands))), path)  # every triangle, in order
            self.check_file(path, None)
        self.assertGreaterEqual(len(files), 10)

    def test_walkable_only_lines_up_with_read(self):
        path = os.path.join(CORPUS, "nwn2", "CSLMordMansion.TRX")
        islands, tables = self.check_file(path, {"walkable-only": True})
        self.assertTrue(all(islands[t][1] & 1 for t in rows(tables.file_triangle)))
        self.assertEqual(len(tables.tile), sum(1 for _, flags in islands if flags & 1))
        self.assertEqual(tables.island_count, max(i for i, _ in islands if i != 0xFFFF) + 1)

    def test_bytes_equal_path(self):
        path = os.path.join(CORPUS, "nwn2", "CSLMordMansion.TRN")
        with open(path, "rb") as handle:
            from_bytes = walkmesh.nwn2_triangles(handle.read())
        from_path = walkmesh.nwn2_triangles(path)
        for field in ("file_triangle", "tile", "island"):
            self.assertEqual(rows(getattr(from_bytes, field)), rows(getattr(from_path, field)))


def chunks(data, start, end):
    """[(magic as named, payload offset, size)] of data[start:end]; magics are stored reversed."""
    found = []
    while start + 8 <= end:
        magic, size = data[start:start + 4][::-1].decode("ascii"), struct.unpack_from("<I", data, start + 4)[0]
        found.append((magic, start + 8, size))
        start += 8 + size
    return found


def raw_group(path):
    """(MOGP flags, MOPY flags, MOPY materials) of a group file, from its bytes."""
    with open(path, "rb") as handle:
        data = handle.read()
    _, at, size = [c for c in chunks(data, 0, len(data)) if c[0] == "MOGP"][0]
    group_flags = struct.unpack_from("<I", data, at + 8)[0]
    mopy = [c for c in chunks(data, at + 68, at + size) if c[0] == "MOPY"]
    if not mopy:
        return group_flags, [], []
    _, at, size = mopy[0]
    return group_flags, list(data[at:at + size:2]), list(data[at + 1:at + size:2])


def group_files(path):
    """The group files a WMO read covers: a root's X_NNN.wmo (MOHD group count), or the file itself."""
    with open(path, "rb") as handle:
        data = handle.read()
    listed = dict((m, (at, size)) for m, at, size in chunks(data, 0, len(data)))
    if "MOHD" not in listed:
        return [path]
    count = struct.unpack_from("<I", data, listed["MOHD"][0] + 4)[0]
    return ["%s_%03d.wmo" % (path[:-4], i) for i in range(count)]


def server_rule(flags):
    """FORMAT-NOTES 3: collidable = (flags & 0x08) || ((flags & 0x20) && !(flags & 0x04))."""
    return bool(flags & 0x08) or (bool(flags & 0x20) and not flags & 0x04)


@need_corpus
class WmoTablesTest(unittest.TestCase):
    def check_file(self, path, rule):
        tables = walkmesh.wmo_triangles(path, options={"collision-rule": rule})
        mesh = walkmesh.read(path, options={"collision-rule": rule})
        self.assertEqual(len(tables.index), mesh.triangle_count, path)
        objects, index = rows(mesh.objects), rows(tables.index)
        for part, group in enumerate(group_files(path)):
            group_flags, flags, materials = raw_group(group)
            mine = [i for i, o in enumerate(objects) if o == part]
            if rule == "all":
                expected = list(range(len(flags)))
            elif group_flags & (0x80 | 0x4000000):
                expected = []
            else:
                expected = [t for t, f in enumerate(flags) if server_rule(f)]
            self.assertEqual([index[i] for i in mine], expected, (path, group, rule))
            self.assertEqual([int(tables.flags[i]) for i in mine], [flags[t] for t in expected])
            self.assertEqual([int(tables.material[i]) for i in mine], [materials[t] for t in expected])
        return tables

    def test_every_corpus_wmo_against_raw_mopy(self):
        files = corpus_files("wmo", (".wmo",))
        for path in files:
            for rule in ("server", "all"):
                self.check_file(path, rule)
        self.assertGreaterEqual(len(files), 10)

    def test_liquid_triangles_have_no_record(self):
        for path in corpus_files("wmo", (".wmo",)):
            plain = walkmesh.wmo_triangles(path)
            tables = walkmesh.wmo_triangles(path, options={"liquids": True})
            extra = len(tables.index) - len(plain.index)
            self.assertEqual(sum(1 for i in rows(tables.index) if i == walkmesh.NO_MOPY), extra, path)
