"""walkmesh.path and walkmesh.reach on real files, checked against the CLI's `path --json` and
`reach --json` on the same points and against facts computed here from the file's faces; every
argument error is a TypeError or a WalkmeshError, never a crash."""
import json
import math
import os
import subprocess
import unittest

import walkmesh

from support import CORPUS, corpus_file, need_corpus

CLI = os.environ.get("WALKMESH_CLI")


def walkable_centres(mesh):
    """Centres of the walkable faces seen from above (their plan area is not zero)."""
    positions, indices = [list(p) for p in mesh.positions], [list(t) for t in mesh.indices]
    centres = []
    for t, face in enumerate(indices):
        a, b, c = (positions[i] for i in face)
        plan = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        if mesh.walkable[t] and abs(plan) > 1e-3:
            centres.append(tuple((a[k] + b[k] + c[k]) / 3 for k in range(3)))
    return centres


@need_corpus
class RouteTest(unittest.TestCase):
    def setUp(self):
        self.wok = corpus_file("bwm", "pykotor-generated_kit-blackvulkar-m10aa_03a.wok")
        self.mesh = walkmesh.read(self.wok)
        self.centres = walkable_centres(self.mesh)

    def cli(self, *args):
        result = subprocess.run([CLI] + list(args) + ["--json"], capture_output=True, text=True)
        return result.returncode, json.loads(result.stdout) if result.returncode == 0 else None

    @unittest.skipUnless(CLI, "no CLI (WALKMESH_CLI)")
    def test_path_matches_the_cli_and_the_straight_line(self):
        start, goal = self.centres[0], self.centres[len(self.centres) // 2]
        route = walkmesh.path(self.wok, start, goal)
        code, printed = self.cli("path", self.wok, "%r,%r,%r" % start, "%r,%r,%r" % goal)
        if route is None:
            self.assertEqual(code, 6)
            return
        self.assertEqual(code, 0)
        self.assertAlmostEqual(route.length, printed["length"], places=3)
        self.assertEqual(len(route.points), len(printed["points"]))
        self.assertGreaterEqual(route.length + 1e-4, math.dist(start, goal))
        self.assertAlmostEqual(route.points[0][0], start[0], places=4)
        self.assertAlmostEqual(route.points[-1][1], goal[1], places=4)
        from_mesh = walkmesh.path(self.mesh, start, goal)  # a Mesh is a source too
        self.assertAlmostEqual(from_mesh.length, route.length, places=4)

    @unittest.skipUnless(CLI, "no CLI (WALKMESH_CLI)")
    def test_reach_matches_the_cli(self):
        reach = walkmesh.reach(self.wok, self.centres[0])
        code, printed = self.cli("reach", self.wok, "%r,%r,%r" % self.centres[0])
        self.assertEqual(code, 0)
        self.assertEqual(reach.regions, printed["regions"])
        self.assertEqual([r.faces for r in reach.unreachable], [r["faces"] for r in printed["unreachable"]])
        walkable = sum(1 for w in self.mesh.walkable if w)
        self.assertLessEqual(sum(r.faces for r in reach.unreachable), walkable)
        for region in reach.unreachable:  # no route into an unreachable region
            self.assertIsNone(walkmesh.path(self.wok, self.centres[0], region.point))

    def test_bad_arguments_raise(self):
        for bad in (None, "1,2", (1,), (1, 2, 3, 4), ("a", 2)):
            with self.assertRaises(TypeError):
                walkmesh.path(self.wok, bad, self.centres[0])
        with self.assertRaises(TypeError):
            walkmesh.reach(None, self.centres[0])
        with self.assertRaises(TypeError):
            walkmesh.path(self.wok, self.centres[0], self.centres[1], radius="wide")
        for bad in (float("nan"), -1.0, float("inf")):
            with self.assertRaises(walkmesh.WalkmeshError):
                walkmesh.path(self.wok, self.centres[0], self.centres[1], radius=bad)
        with self.assertRaises(walkmesh.WalkmeshError):
            walkmesh.path(self.wok, (float("nan"), 0.0), self.centres[1])
        with self.assertRaises(walkmesh.WalkmeshError):  # over no walkable face
            walkmesh.reach(self.wok, (1e6, 1e6))
        with self.assertRaises(ValueError):  # as the package's other calls: C would cut the path
            walkmesh.path(self.wok + "\0x", self.centres[0], self.centres[1])


if __name__ == "__main__":
    unittest.main()
