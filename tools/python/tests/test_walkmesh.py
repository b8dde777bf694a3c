"""The Python package on real files: every call, checked against facts read straight from the
files' bytes (FORMAT-NOTES section 1: the BWM header) or against the CLI, and every error path.
Corpus tests read WALKMESH_CORPUS_DIR (else WALKMESH_CORPUS_FALLBACK) and skip without it."""
import os
import struct
import subprocess
import sys
import unittest

import walkmesh
from walkmesh import _mesh, _native

from support import corpus_file, SCRATCH, corpus_files, need_corpus, rows, scratch


def bwm_header(path):
    """(type, vertex count, face count, position) from the header bytes (FORMAT-NOTES 1)."""
    with open(path, "rb") as handle:
        head = handle.read(136)
    kind, = struct.unpack_from("<I", head, 8)
    position = struct.unpack_from("<3f", head, 0x3C)
    vertices, = struct.unpack_from("<I", head, 0x48)
    faces, = struct.unpack_from("<I", head, 0x50)
    return kind, vertices, faces, position


def readme_modules():
    """{module: (reads, writes)} from the README's "What it reads and writes" table ("—": does not)."""
    top = os.path.join(os.path.dirname(__file__), "..", "..", "..")
    with open(os.path.join(top, "README.md"), encoding="utf-8") as handle:
        text = handle.read().split("## What it reads and writes", 1)[1].split("\n## ", 1)[0]
    modules = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].startswith("`") and cells[0].endswith("`"):
            modules[cells[0].strip("`")] = (cells[1] != "\u2014", cells[2] != "\u2014")
    return modules


class LibraryTest(unittest.TestCase):
    def test_version_matches_headers(self):
        top = os.path.join(os.path.dirname(__file__), "..", "..", "..")
        lines = []
        for folder in ("core", "formats"):
            for name in sorted(os.listdir(os.path.join(top, folder))):
                if name.endswith(".h"):
                    with open(os.path.join(top, folder, name)) as handle:
                        lines += [l for l in handle if l.startswith("#define WALKMESH_VERSION \"")]
        self.assertEqual(walkmesh.version(), lines[0].split('"')[1])

    def test_formats_list_every_module(self):
        names = {f.name: f for f in walkmesh.formats()}
        table = readme_modules()
        # The README's table lists every module; only assimp may be left out of a build.
        self.assertEqual(set(names) | {"assimp"}, set(table) | {"assimp"})
        for name, (reads, writes) in table.items():
            if name in names:
                self.assertEqual((names[name].reads, names[name].writes), (reads, writes), name)
        self.assertEqual(names["bwm"].extensions, ["wok", "pwk", "dwk"])
        self.assertTrue(names["bwm"].writes and names["bwm"].has_validate)
        self.assertFalse(names["svg"].reads)
        self.assertIn("hook1", [o[0] for o in names["bwm"].options])

    def test_surfaces_follow_surfacemat(self):
        table = walkmesh.surfaces()
        # FORMAT-NOTES 1: walkable 1 dirt, 3 grass, 4 stone ...; non-walkable 7 nonwalk, 15 lava
        # The built-in ids 0..22 are surfacemat.2da's rows (core/wm_surface.h).
        self.assertGreaterEqual(len(table), 23)
        self.assertEqual((table[3].name, table[3].walkable), ("grass", True))
        self.assertEqual((table[15].name, table[15].walkable), ("lava", False))
        self.assertEqual((table[7].name, table[7].walkable), ("nonwalk", False))

    def test_missing_library_is_an_error_naming_the_variable(self):
        env = dict(os.environ, WALKMESH_LIBRARY=os.path.join(SCRATCH, "no-such-libwalkmesh.so"))
        run = subprocess.run([sys.executable, "-c", "import walkmesh\ntry:\n walkmesh.version()\n"
                              "except walkmesh.WalkmeshError as e:\n print(e.code.name, e.message)"],
                             env=env, capture_output=True, text=True)
        self.assertIn("IO", run.stdout)
        self.assertIn("WALKMESH_LIBRARY", run.stdout)

    def test_missing_symbol_is_unsupported(self):
        _native.SYMBOLS["wm_no_such_call"] = (None, [])
        try:
            with self.assertRaises(walkmesh.WalkmeshError) as caught:
                _native.fn("wm_no_such_call")
            self.assertEqual(caught.exception.code, walkmesh.Result.UNSUPPORTED)
            self.assertFalse(_native.has("wm_no_such_call"))
        finally:
            del _native.SYMBOLS["wm_no_such_call"]

    def test_every_symbol_is_in_the_library(self):
        missing = [name for name in _native.SYMBOLS if not _native.has(name)]
        self.assertEqual(missing, [])


class ReadWriteTest(unittest.TestCase):
    @need_corpus
    def test_read_matches_bwm_headers(self):
        for path in corpus_files("bwm", (".wok", ".pwk", ".dwk")):
            kind, vertices, faces, _ = bwm_header(path)
            mesh = walkmesh.read(path)
            self.assertEqual((mesh.vertex_count, mesh.triangle_count), (vertices, faces), path)
            self.assertEqual(len(mesh.surfaces), faces)

    @need_corpus
    def test_unchanged_write_is_byte_identical(self):
        for path in corpus_files("bwm", (".wok", ".pwk", ".dwk")) + corpus_files("nwn2", (".trx",))[:3]:
            out = scratch("same" + os.path.splitext(path)[1])
            walkmesh.write(walkmesh.read(path), out, overwrite=True, source=path)
            with open(path, "rb") as a, open(out, "rb") as b:
                self.assertTrue(a.read() == b.read(), path)

    def test_new_wok_from_arrays_validates(self):
        positions = [(0, 0, 0), (4, 0, 0), (4, 4, 0), (0, 4, 0), (0, 0, 3), (4, 0, 3)]
        indices = [(0, 1, 2), (0, 2, 3), (0, 4, 1), (1, 4, 5)]
        mesh = walkmesh.Mesh(positions, indices, surfaces=["grass", "grass", "nonwalk", "nonwalk"],
                             transitions=[(7, -1, -1), (-1, -1, -1), (-1, -1, -1), (-1, -1, -1)])
        out = scratch("arrays.wok")
        walkmesh.write(mesh, out, overwrite=True)
        kind, vertices, faces, _ = bwm_header(out)
        self.assertEqual((kind, faces), (1, 4))
        self.assertTrue(walkmesh.validate(out).ok)
        back = walkmesh.read(out)
        self.assertEqual(sorted(int(s) for s in back.surfaces), [3, 3, 7, 7])
        self.assertEqual(sum(int(v) for v in rows(back.walkable)), 2)
        self.assertIn(7, [int(t) for row in rows(back.transitions) for t in row])

    def test_slope_classifies_faces_without_surfaces(self):
        mesh = walkmesh.Mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)], [(0, 1, 2), (0, 3, 1)])
        out = scratch("slope.obj")
        walkmesh.write(mesh, out, overwrite=True, up="z")
        back = walkmesh.read(out, up="z")
        self.assertEqual(sorted(int(s) for s in back.surfaces), [_mesh.STONE, _mesh.NONWALK])

    @need_corpus
    def test_read_bytes_equals_read(self):
        path = corpus_files("bwm", (".wok",))[0]
        with open(path, "rb") as handle:
            from_bytes = walkmesh.read_bytes(handle.read(), name=os.path.basename(path))
        self.assertEqual(rows(from_bytes.indices), rows(walkmesh.read(path).indices))

    @need_corpus
    def test_trx_and_wmo_read(self):
        trx = corpus_files("nwn2", (".trx",))[0]
        self.assertGreater(walkmesh.read(trx).triangle_count, 0)
        wmo = [p for p in corpus_files("wmo", (".wmo",)) if p.endswith("Redridge.wmo")][0]
        mesh = walkmesh.read(wmo)
        self.assertEqual(len(mesh.object_names), 3)  # X_000 .. X_002 beside the root


class OperationsTest(unittest.TestCase):
    @need_corpus
    def test_convert_and_info(self):
        path = corpus_files("bwm", (".wok",))[0]
        out = scratch("converted.obj")
        walkmesh.convert(path, out, overwrite=True)
        report = walkmesh.info(out, with_mesh=True)
        self.assertEqual(report.mesh.triangle_count, bwm_header(path)[2])
        facts = walkmesh.info(path)
        self.assertEqual(int(facts["faces"]), bwm_header(path)[2])
        self.assertIn("faces", facts)

    @need_corpus
    def test_validate_finds_pykotor_breakage(self):
        report = walkmesh.validate(corpus_file("bwm", "pykotor-root-out.wok"))
        self.assertFalse(report.ok)
        self.assertTrue(any("perimeter" in f.message for f in report.findings))
        self.assertTrue(walkmesh.validate(corpus_file("bwm", "k1cp-m12aa_01f.wok")).ok)

    @need_corpus
    def test_render_draws_svg(self):
        path = corpus_file("bwm", "k1cp-m12aa_01f.wok")
        out = scratch("picture.svg")
        walkmesh.render(path, out, overwrite=True, view="iso")
        with open(out) as handle:
            self.assertIn("<svg", handle.read(4096))

    @need_corpus
    def test_query_height_on_a_face_centre(self):
        path = corpus_file("bwm", "k1cp-m12aa_01f.wok")
        mesh = walkmesh.read(path)
        index = [i for i, w in enumerate(rows(mesh.walkable)) if w][0]
        corners = [rows(mesh.positions)[v] for v in rows(mesh.indices)[index]]
        centre = [sum(c[k] for c in corners) / 3 for k in range(3)]
        with walkmesh.KotorWalkmesh(path) as kotor:
            hit = kotor.height(centre[0], centre[1])
            self.assertAlmostEqual(hit.point[2], centre[2], places=3)
            down = kotor.raycast((centre[0], centre[1], centre[2] + 5), (0, 0, -1))
            self.assertAlmostEqual(down.distance, 5, places=3)
            self.assertIsNone(kotor.height(1e6, 1e6))
        self.assertEqual(walkmesh.query_height(path, centre[0], centre[1]).face, hit.face)
        self.assertIsNone(walkmesh.raycast(path, (1e6, 1e6, 0), (0, 0, 1)))

    @need_corpus
    def test_bake_and_route(self):
        trx = corpus_file("nwn2", "CSLMordMansion.TRX")
        stages = []
        result = walkmesh.bake(trx, progress=lambda stage, done, total: stages.append(stage))
        self.assertEqual(result.data[:4], b"NWN2")
        self.assertGreater(result.stats["island_count"], 0)
        self.assertTrue(stages)
        out = scratch("baked.trx")
        walkmesh.bake(trx, out, overwrite=True)
        with open(out, "rb") as handle:
            self.assertEqual(handle.read(), result.data)
        mesh = walkmesh.read(out)
        walkable = [i for i, w in enumerate(rows(mesh.walkable)) if w]
        centre = [sum(rows(mesh.positions)[v][k] for v in rows(mesh.indices)[walkable[0]]) / 3 for k in range(2)]
        found = walkmesh.route(out, centre, centre)
        self.assertTrue(found.reached)
        self.assertEqual(found.start, found.goal)


if __name__ == "__main__":
    unittest.main()
