"""walkmesh.nwn2_triangles and walkmesh.wmo_triangles against values read without our code:
NWN2 tiles and islands from nwn-lib-d's `nwn-trn aswm-dump` (the peer tool; skipped without it),
WMO MOPY records from the group files' raw bytes (FORMAT-NOTES section 3: chunk magics stored
byte-reversed, MOGP = 68-byte header then subchunks, MOPY = {u8 flags, u8 material} per triangle)."""
import os
import unittest

import walkmesh

from raw_files import group_files, peer_dump, peer_problem, raw_group, server_rule, tile_of_file_triangles
from support import corpus_file, corpus_files, need_corpus, rows


@need_corpus
@unittest.skipIf(peer_problem(), peer_problem())
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
        path = corpus_file("nwn2", "CSLMordMansion.TRX")
        islands, tables = self.check_file(path, {"walkable-only": True})
        self.assertTrue(all(islands[t][1] & 1 for t in rows(tables.file_triangle)))
        self.assertEqual(len(tables.tile), sum(1 for _, flags in islands if flags & 1))
        self.assertEqual(tables.island_count, max(i for i, _ in islands if i != 0xFFFF) + 1)

    def test_bytes_equal_path(self):
        path = corpus_file("nwn2", "CSLMordMansion.TRN")
        with open(path, "rb") as handle:
            from_bytes = walkmesh.nwn2_triangles(handle.read())
        from_path = walkmesh.nwn2_triangles(path)
        for field in ("file_triangle", "tile", "island"):
            self.assertEqual(rows(getattr(from_bytes, field)), rows(getattr(from_path, field)))


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
