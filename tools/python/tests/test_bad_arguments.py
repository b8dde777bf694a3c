"""Every public call that takes a path or a value given what is not a usable one: None, an int,
a path with an embedded NUL (bytes and str), a directory and a FIFO. Each must raise
WalkmeshError, TypeError or ValueError (a NUL is refused as Python's own os calls refuse it) and
never take the interpreter down, so the calls run in a child interpreter whose death is a failure
naming the call it was in. The child inherits the environment: under python_package_plain it runs
without numpy. A path with a NUL must not be cut there: `<real file>\\0junk` would read the real
file. formats(), surfaces() and version() take no argument."""
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

import walkmesh

from support import SCRATCH, scratch

# The child: builds the calls, runs each, prints "<case>\t<outcome>" as it goes (the case
# flushed before the call, so a crash leaves the call it died in on the last line).
CHILD = r'''
import os, sys, walkmesh
wok, folder, fifo, out_dir = sys.argv[1:5]
nul_bytes = os.fsencode(wok) + b"\0junk"
nul_text = wok + "\0junk"
# what may be given where: a required path takes every bad value; an optional one (None is
# its default) the others; a name or option value (text) None when required, an int, a NUL
PATH = {"None": None, "int": 7, "nul-bytes": nul_bytes, "nul-str": nul_text, "folder": folder, "fifo": fifo}
OPTIONAL_PATH = {k: v for k, v in PATH.items() if k != "None"}
TEXT = {"int": 7, "nul-str": "stone\0junk"}
REQUIRED_TEXT = dict(TEXT, **{"None": None})
mesh = walkmesh.Mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 2)])
obj = os.path.join(folder, "source.obj")  # a source whose writer reads the base
walkmesh.write(mesh, obj)
def out(name):
    return os.path.join(out_dir, name)
slots = [  # (call, the values it is given, the call with the value in its slot)
    ("read(%s)", PATH, lambda v: walkmesh.read(v)),
    ("info(%s)", PATH, lambda v: walkmesh.info(v)),
    ("info(%s, with_mesh)", PATH, lambda v: walkmesh.info(v, with_mesh=True)),
    ("validate(%s)", PATH, lambda v: walkmesh.validate(v)),
    ("convert(%s, out)", PATH, lambda v: walkmesh.convert(v, out("c.obj"))),
    ("convert(wok, %s)", PATH, lambda v: walkmesh.convert(wok, v)),
    ("convert(obj, out, base=%s)", OPTIONAL_PATH, lambda v: walkmesh.convert(obj, out("b.wok"), base=v)),
    ("convert(wok, out, source=%s)", OPTIONAL_PATH, lambda v: walkmesh.convert(wok, out("s.wok"), source=v)),
    ("convert(wok, out, from_format=%s)", TEXT, lambda v: walkmesh.convert(wok, out("f.obj"), from_format=v)),
    ("write(mesh, %s)", PATH, lambda v: walkmesh.write(mesh, v)),
    ("write(%s, out)", {"None": None, "int": 7, "bytes": nul_bytes}, lambda v: walkmesh.write(v, out("w.obj"))),
    ("write(mesh, out, format=%s)", TEXT, lambda v: walkmesh.write(mesh, out("w2.obj"), format=v)),
    ("read_bytes(%s)", {"None": None, "int": 7, "str": wok}, lambda v: walkmesh.read_bytes(v)),
    ("read_bytes(bytes, name=%s)", TEXT, lambda v: walkmesh.read_bytes(b"nothing", name=v)),
    ("render(%s, out)", PATH, lambda v: walkmesh.render(v, out("r.svg"))),
    ("render(wok, %s)", PATH, lambda v: walkmesh.render(wok, v)),
    ("render(wok, out, format=%s)", TEXT, lambda v: walkmesh.render(wok, out("r2.svg"), format=v)),
    ("render(wok, out, git=%s)", OPTIONAL_PATH, lambda v: walkmesh.render(wok, out("r3.svg"), git=v)),
    ("KotorWalkmesh(%s)", PATH, lambda v: walkmesh.KotorWalkmesh(v)),
    ("query_height(%s)", PATH, lambda v: walkmesh.query_height(v, 0, 0)),
    ("raycast(%s)", PATH, lambda v: walkmesh.raycast(v, (0, 0, 5), (0, 0, -1))),
    ("bake(%s)", PATH, lambda v: walkmesh.bake(v)),
    ("bake(wok, git=%s)", OPTIONAL_PATH, lambda v: walkmesh.bake(wok, git=v)),
    ("route(%s)", PATH, lambda v: walkmesh.route(v, (0, 0), (1, 1))),
    ("nwn2_triangles(%s)", PATH, lambda v: walkmesh.nwn2_triangles(v)),
    ("wmo_triangles(%s)", PATH, lambda v: walkmesh.wmo_triangles(v)),
    ("surface_id(%s)", REQUIRED_TEXT, lambda v: walkmesh.surface_id(v)),
    ("file_bytes(%s)", PATH, lambda v: walkmesh.file_bytes(v)),
    ("generate(%s, out)", PATH, lambda v: walkmesh.generate(v, out("g.wok"))),
    ("generate(wok, %s)", OPTIONAL_PATH, lambda v: walkmesh.generate(wok, v)),
    ("path(%s)", PATH, lambda v: walkmesh.path(v, (1, 0.5), (3, 1))),
    ("reach(%s)", PATH, lambda v: walkmesh.reach(v, (1, 0.5))),
    ("paths(%s)", PATH, lambda v: walkmesh.paths(v, [((1, 0.5), (3, 1))], landmarks=2)),
    ("read(wok, options={room-offset: %s})", {"nul-str": "1,2,3\0junk"}, lambda v: walkmesh.read(wok, options={"room-offset": v})),
]
for pattern, values, call in slots:
    for label, value in values.items():
        print(pattern % label, end="\t", flush=True)
        try:
            call(value)
            outcome = "returned"
        except (walkmesh.WalkmeshError, TypeError, ValueError) as error:
            outcome = type(error).__name__
        except Exception as error:
            outcome = "wrong exception %s: %s" % (type(error).__name__, error)
        print(outcome, flush=True)
print("done", flush=True)
'''


def room_wok():
    path = scratch("arguments.wok")
    walkmesh.write(walkmesh.Mesh([(0, 0, 0), (4, 0, 0), (4, 4, 0)], [(0, 1, 2)], surfaces=["grass"]), path)
    return path


class BadArgumentTest(unittest.TestCase):
    @unittest.skipUnless(hasattr(os, "mkfifo"), "no FIFOs here")
    def test_every_call_raises_and_none_crashes(self):
        wok = room_wok()
        with tempfile.TemporaryDirectory(dir=SCRATCH) as folder:
            fifo = os.path.join(folder, "pipe.wok")
            os.mkfifo(fifo)
            out_dir = os.path.join(folder, "out")
            os.mkdir(out_dir)
            child = subprocess.run([sys.executable, "-c", CHILD, wok, folder, fifo, out_dir],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300, text=True)
            lines = child.stdout.splitlines()
            last = lines[-1] if lines else "(before the first call)"
            self.assertEqual(child.returncode, 0, "the interpreter died (%d) after: %s\n%s"
                             % (child.returncode, last, child.stderr[-2000:]))
            self.assertEqual(last, "done")
            outcomes = dict(line.split("\t") for line in lines[:-1])
            self.assertGreaterEqual(len(outcomes), 163)
            for name, outcome in outcomes.items():
                with self.subTest(call=name):
                    self.assertIn(outcome, ("WalkmeshError", "TypeError", "ValueError"))
            # what the outcome is where Python itself decides: as os.stat does
            for label, expected in (("None", "TypeError"), ("int", "TypeError"), ("nul-bytes", "ValueError"),
                                    ("nul-str", "ValueError"), ("folder", "WalkmeshError"), ("fifo", "WalkmeshError")):
                self.assertEqual(outcomes["read(%s)" % label], expected, label)
                self.assertEqual(outcomes["convert(wok, %s)" % label],
                                 "WalkmeshError" if label in ("folder", "fifo") else expected, label)
            self.assertEqual(os.listdir(out_dir), [])  # nothing written anywhere

    def test_nul_is_refused_as_os_refuses_it(self):
        wok = room_wok()
        for path in (wok + "\0junk", os.fsencode(wok) + b"\0junk"):
            with self.assertRaises(ValueError):
                os.stat(path)
            with self.assertRaises(ValueError):
                walkmesh.read(path)

    def test_path_like_accepted(self):
        wok = pathlib.Path(room_wok())
        self.assertEqual(walkmesh.read(wok).triangle_count, 1)
        self.assertEqual(walkmesh.read(os.fsencode(wok)).triangle_count, 1)
        self.assertTrue(walkmesh.validate(wok).ok)
        self.assertEqual(walkmesh.info(wok)["faces"], "1")
        out = pathlib.Path(scratch("path_like.obj"))
        walkmesh.convert(wok, out, base=wok, overwrite=True)
        self.assertTrue(out.exists())
        with walkmesh.KotorWalkmesh(wok) as kotor:
            self.assertIsNotNone(kotor.height(3, 1))


if __name__ == "__main__":
    unittest.main()
