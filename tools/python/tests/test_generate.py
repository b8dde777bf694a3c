"""walkmesh.generate: the same walkmesh as `walkmesh generate` (byte for byte), from a path or a
Mesh, and its errors."""
import os
import re
import subprocess
import unittest

import walkmesh

from support import corpus_files, need_corpus, scratch


@need_corpus
class GenerateTest(unittest.TestCase):
    def rooms(self):
        models = [m for m in corpus_files("bwm-models", (".mdl",)) if "m10aa_0" in m]
        if not models:
            self.skipTest("no corpus room models")
        return models

    def test_same_file_as_the_cli(self):
        cli = os.environ.get("WALKMESH_CLI")
        if not cli:
            self.skipTest("WALKMESH_CLI not set")
        for model in self.rooms():
            ours, theirs = scratch("py_generated.wok"), scratch("cli_generated.wok")
            mesh = walkmesh.generate(model, ours, overwrite=True)
            subprocess.run([cli, "generate", model, theirs, "--force", "-q"], check=True)
            with open(ours, "rb") as a, open(theirs, "rb") as b:
                self.assertEqual(a.read(), b.read(), model)
            self.assertTrue(all(mesh.walkable[t] for t in range(len(mesh.walkable))))
            mesh = walkmesh.generate(model, ours, overwrite=True, blocking=True)
            subprocess.run([cli, "generate", model, theirs, "--blocking", "--force", "-q"], check=True)
            with open(ours, "rb") as a, open(theirs, "rb") as b:
                self.assertEqual(a.read(), b.read(), model)

    def test_from_a_mesh_and_parameters(self):
        model = self.rooms()[0]
        render = walkmesh.read(model, options={"geometry": "render"})
        from_mesh = walkmesh.generate(render)
        from_path = walkmesh.generate(model)
        self.assertEqual(len(from_mesh.indices), len(from_path.indices))
        coarse = walkmesh.generate(model, max_error=0.3)
        self.assertLessEqual(len(coarse.indices), len(from_path.indices))

    def test_errors(self):
        with self.assertRaises(TypeError):
            walkmesh.generate("x.obj", agent_size=2)
        with self.assertRaises(walkmesh.WalkmeshError) as caught:
            walkmesh.generate(self.rooms()[0], game="quake")
        self.assertIn("quake", str(caught.exception))
        wall = scratch("wall.obj")
        with open(wall, "w") as handle:
            handle.write("v 0 0 0\nv 4 0 0\nv 4 3 0\nf 1 2 3\n")
        target = scratch("wall.wok")
        if os.path.exists(target):
            os.remove(target)
        with self.assertRaises(walkmesh.WalkmeshError) as caught:
            walkmesh.generate(wall, target)
        self.assertIn("nothing walkable", str(caught.exception))
        self.assertFalse(os.path.exists(target))


class DefaultsTest(unittest.TestCase):
    """generate_defaults gives the values docs/generate.md's per-game table documents."""

    ROWS = {"agent height": "agent_height", "agent radius": "agent_radius", "max slope": "max_slope",
            "max climb": "max_climb", "max error": "max_error"}

    def documented(self):
        doc = os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "generate.md")
        with open(doc, encoding="utf-8") as handle:
            text = handle.read()
        table = {}
        for line in text[text.index("## Per-game defaults"):].splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 4 and cells[0] in self.ROWS:
                values = [float(re.match(r"[0-9.]+", c).group()) for c in cells[1:]]
                table[self.ROWS[cells[0]]] = dict(zip(("kotor", "nwn", "wow"), values))
        self.assertEqual(len(table), len(self.ROWS))
        return table

    def test_defaults_as_documented(self):
        for name, games in self.documented().items():
            for game, value in games.items():
                self.assertAlmostEqual(walkmesh.generate_defaults(game)[name], value, places=5, msg=(game, name))

    def test_defaults_errors(self):
        with self.assertRaises(walkmesh.WalkmeshError):
            walkmesh.generate_defaults("quake")
        with self.assertRaises(TypeError):
            walkmesh.generate_defaults(None)


if __name__ == "__main__":
    unittest.main()
