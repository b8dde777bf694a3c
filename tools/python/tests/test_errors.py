"""Every error path of the Python package: each of the library's result codes provoked through
the public calls (a table that must name every code), and each offered call failing at least
once. Every failure is a WalkmeshError carrying the code and the library's message. Files are
made here (a WOK written from arrays, then damaged at the offsets of FORMAT-NOTES section 1),
so these tests need no corpus; the corpus adds the game-call cases."""
import os
import struct
import unittest

import walkmesh
from walkmesh import Result

from support import corpus_file, SCRATCH, need_corpus, rows, scratch

ABSENT = os.path.join(SCRATCH, "absent.wok")
TRIANGLE = walkmesh.Mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 2)])
# an ASCII walkmesh and a KotOR layout in one text: the bwm-ascii and lyt modules both claim it
BOTH_TEXTS = (b"beginlayout\nroomcount 0\ndonelayout\n"
              b"node aabb walkmesh\n  verts 3\n 0 0 0\n 1 0 0\n 0 1 0\n  faces 1\n 0 1 2 1 0 0 0 4\nendnode\n")
EMPTY_NWN2 = b"NWN2" + struct.pack("<HHI", 2, 3, 0)  # a container with no packet at all


def write_file(name, data):
    path = scratch(name)
    with open(path, "wb") as handle:
        handle.write(data)
    return path


def room_wok():
    """A two-face WOK written by the package (surfaces grass and nonwalk)."""
    mesh = walkmesh.Mesh([(0, 0, 0), (4, 0, 0), (4, 4, 0), (0, 4, 3)], [(0, 1, 2), (0, 2, 3)],
                         surfaces=["grass", "nonwalk"])
    path = scratch("room.wok")
    walkmesh.write(mesh, path)
    return path


def damaged_wok():
    """room_wok with its first face's first vertex index past the vertex count (FORMAT-NOTES 1:
    vertex count at 0x48, face offset at 0x54)."""
    with open(room_wok(), "rb") as handle:
        data = bytearray(handle.read())
    vertices, = struct.unpack_from("<I", data, 0x48)
    faces_at, = struct.unpack_from("<I", data, 0x54)
    struct.pack_into("<I", data, faces_at, vertices + 1000)
    return write_file("damaged.wok", bytes(data))


class ErrorCase(unittest.TestCase):
    def assertCode(self, code, call, *args, **kwargs):
        with self.assertRaises(walkmesh.WalkmeshError) as caught:
            call(*args, **kwargs)
        error = caught.exception
        self.assertEqual(error.code, code, error)
        self.assertTrue(error.message)
        self.assertIn("WM_ERR_" + code.name, str(error))
        return error


class EveryCodeTest(ErrorCase):
    def cases(self):
        """(code, call, args, keywords): at least one per result code, through public calls."""
        wok, damaged = room_wok(), damaged_wok()
        out = scratch("exists.obj")
        walkmesh.write(TRIANGLE, out, overwrite=True)  # and its .mtl
        return [
            (Result.IO, walkmesh.read, (ABSENT,), {}),
            (Result.TRUNCATED, walkmesh.read, (write_file("short.wok", b"BWM V1.0" + bytes(40)),), {}),
            (Result.CORRUPT, walkmesh.read, (damaged,), {}),
            (Result.LIMIT, walkmesh.read, (wok,), {"limits": walkmesh.Limits(max_triangles=1)}),
            (Result.LIMIT, walkmesh.read, (wok,), {"limits": walkmesh.Limits(max_bytes=100)}),
            (Result.NOMEM, walkmesh.read, (wok,), {"limits": walkmesh.Limits(max_memory=100)}),
            (Result.UNSUPPORTED, walkmesh.write, (TRIANGLE, scratch("thing.xyz123")), {}),
            (Result.AMBIGUOUS, walkmesh.read_bytes, (BOTH_TEXTS,), {"name": "mystery"}),
            (Result.INVALID, walkmesh.write, (walkmesh.Mesh([(0, 0, 0)] * 3, [(0, 1, 3)]), scratch("bad.obj")), {}),
            (Result.EXISTS, walkmesh.write, (TRIANGLE, out), {}),
            (Result.OPTION, walkmesh.write, (TRIANGLE, scratch("hook.pwk")), {"options": {"hook1": "not-a-point"}}),
            (Result.NOT_FORMAT, walkmesh.read, (write_file("thing.xyz123", b"nothing a module knows"),), {}),
        ]

    def test_every_result_code_is_provoked(self):
        cases = self.cases()
        for code, call, args, keywords in cases:
            with self.subTest(code=code.name, call=call.__name__):
                self.assertCode(code, call, *args, **keywords)
        self.assertEqual({c[0] for c in cases}, set(Result) - {Result.OK})


class CallErrorTest(ErrorCase):
    """Each offered call failing, with the code its documentation gives."""

    def test_read_write_convert(self):
        self.assertCode(Result.IO, walkmesh.read, ABSENT)
        self.assertCode(Result.AMBIGUOUS, walkmesh.read, write_file("mystery", BOTH_TEXTS))
        with open(damaged_wok(), "rb") as handle:
            self.assertCode(Result.CORRUPT, walkmesh.read_bytes, handle.read(), name="x.wok")
        self.assertCode(Result.NOT_FORMAT, walkmesh.read_bytes, b"nothing", name="x.wok.unknown")
        self.assertCode(Result.IO, walkmesh.convert, ABSENT, scratch("out.obj"))
        self.assertCode(Result.CORRUPT, walkmesh.convert, damaged_wok(), scratch("out.obj"))
        self.assertCode(Result.NOMEM, walkmesh.convert, room_wok(), scratch("out.obj"),
                        limits=walkmesh.Limits(max_memory=1000))
        out = scratch("twice.obj")
        walkmesh.convert(room_wok(), out, overwrite=True)
        self.assertCode(Result.EXISTS, walkmesh.convert, room_wok(), out)
        self.assertCode(Result.OPTION, walkmesh.convert, room_wok(), scratch("o.wok"), options={"hook1": "x"})

    def test_info_validate_render(self):
        self.assertCode(Result.IO, walkmesh.info, ABSENT)
        self.assertCode(Result.CORRUPT, walkmesh.info, damaged_wok())
        self.assertCode(Result.LIMIT, walkmesh.info, room_wok(), with_mesh=True, limits={"max_triangles": 1})
        self.assertCode(Result.IO, walkmesh.validate, ABSENT)
        self.assertCode(Result.NOT_FORMAT, walkmesh.validate, write_file("v.xyz123", b"nothing"))
        self.assertCode(Result.IO, walkmesh.render, ABSENT, scratch("p.svg"))
        self.assertCode(Result.UNSUPPORTED, walkmesh.render, room_wok(), scratch("p.svg"), format="nope")
        picture = scratch("p.svg")
        walkmesh.render(room_wok(), picture, overwrite=True)
        self.assertCode(Result.EXISTS, walkmesh.render, room_wok(), picture)

    def test_invalid_meshes(self):
        def rejected(mesh):
            self.assertCode(Result.INVALID, walkmesh.write, mesh, scratch("bad.obj"), overwrite=True)
        corners = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
        rejected(walkmesh.Mesh(corners, [(0, 1, 3)]))
        rejected(walkmesh.Mesh([(0, 0, 0), (1, 0), (0, 1, 0)], [(0, 1, 2)]))
        rejected(walkmesh.Mesh(corners, [("a", 1, 2)]))
        rejected(walkmesh.Mesh(corners, [(0, 1, 2)], surfaces=["marzipan"]))
        rejected(walkmesh.Mesh(corners, [(0, 1, 2)], objects=[2]))
        self.assertCode(Result.INVALID, walkmesh.read, room_wok(), up="w")

    def test_limits_are_checked(self):
        self.assertCode(Result.INVALID, walkmesh.read, room_wok(), limits=walkmesh.Limits(max_bytes=-1))
        self.assertCode(Result.INVALID, walkmesh.read, room_wok(), limits={"max_memory": "lots"})
        self.assertCode(Result.INVALID, walkmesh.read, room_wok(), limits={"max_pixels": 1})

    def test_memory_cap_large_enough_changes_nothing(self):
        wok = room_wok()
        capped = walkmesh.read(wok, limits=walkmesh.Limits(max_memory=1 << 24))
        self.assertEqual(rows(capped.indices), rows(walkmesh.read(wok).indices))

    @need_corpus
    def test_memory_cap_holds_for_a_threaded_bake(self):
        trn, git = (corpus_file("nwn2", "CSLMordMansion." + e) for e in ("TRN", "GIT"))
        plain = walkmesh.bake(trn, git=git, threads=2).data
        self.assertEqual(walkmesh.bake(trn, git=git, threads=2, limits={"max_memory": 1 << 30}).data, plain)

    def test_kotor_queries(self):
        self.assertCode(Result.IO, walkmesh.KotorWalkmesh, ABSENT)
        self.assertCode(Result.TRUNCATED, walkmesh.KotorWalkmesh, b"BWM V1.0" + bytes(40))
        self.assertCode(Result.NOT_FORMAT, walkmesh.query_height, b"nothing of the kind at all", 0, 0)
        self.assertCode(Result.CORRUPT, walkmesh.raycast, damaged_wok(), (0, 0, 5), (0, 0, -1))
        self.assertCode(Result.INVALID, walkmesh.raycast, room_wok(), (0, 0, 0), (0, 0, 0))
        self.assertCode(Result.NOMEM, walkmesh.query_height, room_wok(), 1, 1, limits={"max_memory": 16})
        kotor = walkmesh.KotorWalkmesh(room_wok())
        kotor.close()
        self.assertCode(Result.INVALID, kotor.height, 0, 0)
        self.assertCode(Result.INVALID, kotor.raycast, (0, 0, 0), (0, 0, 1))

    def test_nwn2_calls(self):
        self.assertCode(Result.IO, walkmesh.bake, os.path.join(SCRATCH, "absent.trx"))
        self.assertCode(Result.NOT_FORMAT, walkmesh.bake, room_wok())
        self.assertCode(Result.UNSUPPORTED, walkmesh.bake, EMPTY_NWN2)
        self.assertCode(Result.TRUNCATED, walkmesh.bake, EMPTY_NWN2[:8])
        self.assertCode(Result.IO, walkmesh.route, os.path.join(SCRATCH, "absent.trx"), (0, 0), (1, 1))
        self.assertCode(Result.NOT_FORMAT, walkmesh.route, room_wok(), (0, 0), (1, 1))
        self.assertCode(Result.IO, walkmesh.nwn2_triangles, os.path.join(SCRATCH, "absent.trx"))
        self.assertCode(Result.NOT_FORMAT, walkmesh.nwn2_triangles, room_wok())
        self.assertCode(Result.CORRUPT, walkmesh.nwn2_triangles, EMPTY_NWN2)

    def test_wmo_calls(self):
        self.assertCode(Result.IO, walkmesh.wmo_triangles, os.path.join(SCRATCH, "absent.wmo"))
        self.assertCode(Result.NOT_FORMAT, walkmesh.wmo_triangles, room_wok())

    @need_corpus
    def test_game_calls_on_corpus_files(self):
        wok = corpus_file("bwm", "k1cp-m12aa_01f.wok")
        pwk = corpus_file("bwm", "k1cp-plc_fccage2.pwk")
        trx = corpus_file("nwn2", "CSLMordMansion.TRX")
        wmo = corpus_file("wmo", "warcraftnet__prisonHQ_Redridge.wmo")
        self.assertCode(Result.UNSUPPORTED, walkmesh.query_height, pwk, 0, 0)
        self.assertCode(Result.LIMIT, walkmesh.KotorWalkmesh, wok, limits={"max_triangles": 10})
        self.assertCode(Result.OPTION, walkmesh.route, trx, (-1e6, -1e6), (0, 0))
        self.assertCode(Result.LIMIT, walkmesh.route, trx, (0, 0), (1, 1), limits={"max_bytes": 1000})
        self.assertCode(Result.NOMEM, walkmesh.bake, trx, limits={"max_memory": 1 << 16})
        self.assertCode(Result.LIMIT, walkmesh.bake, trx, limits={"max_triangles": 100})
        out = scratch("baked.trx")
        walkmesh.bake(trx, out, overwrite=True)
        self.assertCode(Result.EXISTS, walkmesh.bake, trx, out)
        self.assertCode(Result.LIMIT, walkmesh.nwn2_triangles, trx, limits={"max_triangles": 100})
        self.assertCode(Result.OPTION, walkmesh.wmo_triangles, wmo, options={"collision-rule": "lenient"})
        self.assertCode(Result.NOMEM, walkmesh.wmo_triangles, wmo, limits={"max_memory": 1 << 12})
        self.assertCode(Result.LIMIT, walkmesh.validate, wmo, limits={"max_bytes": 64})


if __name__ == "__main__":
    unittest.main()
