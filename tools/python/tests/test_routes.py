"""walkmesh.path and walkmesh.reach on real files, checked against the CLI's `path --json` and
`reach --json` on the same points and against facts computed here from the file's faces; every
argument error is a TypeError or a WalkmeshError, never a crash."""
import json
import math
import os
import shutil
import subprocess
import tempfile
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

    def test_paths_are_each_pairs_path_with_and_without_landmarks(self):
        pairs = [(self.centres[i], self.centres[-1 - i]) for i in range(0, len(self.centres) // 2, 7)]
        one_by_one = [walkmesh.path(self.wok, s, g, radius=0.25) for s, g in pairs]
        for landmarks in (0, 4):
            together = walkmesh.paths(self.wok, pairs, radius=0.25, landmarks=landmarks)
            self.assertEqual(len(together), len(pairs))
            for alone, batch in zip(one_by_one, together):
                self.assertEqual(alone is None, batch is None)
                if alone is not None:
                    self.assertAlmostEqual(alone.plan_length, batch.plan_length, places=5)
                    self.assertEqual(alone.points[0], batch.points[0])
        self.assertGreater(sum(p is not None for p in one_by_one), 0)
        self.assertEqual(walkmesh.paths(self.wok, [], landmarks=4), [])

    def test_paths_bad_arguments_raise(self):
        pair = (self.centres[0], self.centres[1])
        for bad in (None, 5, "pairs", [pair[0]], [(1, 2)]):
            with self.assertRaises(TypeError):
                walkmesh.paths(self.wok, bad)
        for bad in ("4", 2.5, True):
            with self.assertRaises(TypeError):
                walkmesh.paths(self.wok, [pair], landmarks=bad)
        for bad in (-1, 65):
            with self.assertRaises(walkmesh.WalkmeshError):
                walkmesh.paths(self.wok, [pair], landmarks=bad)


@need_corpus
class NavmeshRouteTest(unittest.TestCase):
    """A WMO is a collision mesh: path and reach go through a navmesh, as the CLI's do."""

    def setUp(self):
        self.wmo = corpus_file("wmo", "warcraftnet__duskwood_lumbermill.wmo")
        mesh = walkmesh.read(self.wmo)
        self.centres = walkable_centres(mesh)
        try:
            walkmesh.reach(self.wmo, self.centres[0])
        except walkmesh.WalkmeshError as error:
            if error.code == walkmesh.Result.UNSUPPORTED:
                self.skipTest("built without Recast/Detour: %s" % error)

    def cli(self, *args):
        result = subprocess.run([CLI] + list(args) + ["--json"], capture_output=True, text=True)
        return result.returncode, json.loads(result.stdout) if result.returncode == 0 else None

    @unittest.skipUnless(CLI, "no CLI (WALKMESH_CLI)")
    def test_path_and_reach_match_the_cli(self):
        compared = routes = 0
        for k in range(0, len(self.centres) - 1, max(1, len(self.centres) // 8)):
            start, goal = self.centres[k], self.centres[-1 - k]
            code, printed = self.cli("path", self.wmo, "%r,%r,%r" % start, "%r,%r,%r" % goal)
            try:
                route = walkmesh.path(self.wmo, start, goal)
            except walkmesh.WalkmeshError as error:  # no polygon near a point: the CLI's exit 6
                self.assertEqual(error.code, walkmesh.Result.INVALID)
                route = None
            compared += 1
            if route is None:
                self.assertEqual(code, 6)
                continue
            routes += 1
            self.assertEqual(code, 0)
            self.assertAlmostEqual(route.length, printed["length"], places=3)
            self.assertEqual(len(route.points), len(printed["points"]))
            self.assertEqual(route.faces, [])
        self.assertGreater(routes, 0)
        reach = walkmesh.reach(self.wmo, self.centres[0])
        code, printed = self.cli("reach", self.wmo, "%r,%r,%r" % self.centres[0])
        self.assertEqual(code, 0)
        self.assertEqual(reach.regions, printed["regions"])
        self.assertEqual([r.faces for r in reach.unreachable], [r["faces"] for r in printed["unreachable"]])

    @unittest.skipUnless(CLI, "no CLI (WALKMESH_CLI)")
    def test_navmesh_file_gives_the_wmos_answer(self):
        folder = tempfile.mkdtemp()
        try:
            stored = os.path.join(folder, "lumbermill.navmesh")
            self.assertEqual(subprocess.run([CLI, "navmesh", self.wmo, stored], capture_output=True).returncode, 0)
            for start, goal in ((self.centres[0], self.centres[-1]), (self.centres[1], self.centres[-2])):
                try:
                    direct = walkmesh.path(self.wmo, start, goal)
                except walkmesh.WalkmeshError:
                    with self.assertRaises(walkmesh.WalkmeshError):
                        walkmesh.path(stored, start, goal)
                    continue
                through = walkmesh.path(stored, start, goal)
                self.assertEqual(direct is None, through is None)
                if direct is not None:
                    self.assertAlmostEqual(direct.length, through.length, places=4)
            with self.assertRaises(walkmesh.WalkmeshError):  # the agent's size is built into a navmesh
                walkmesh.path(stored, self.centres[0], self.centres[-1], radius=0.5)
            with self.assertRaises(walkmesh.WalkmeshError):
                walkmesh.path(self.wmo, self.centres[0], self.centres[-1], preset="no-such-preset")
        finally:
            shutil.rmtree(folder)


if __name__ == "__main__":
    unittest.main()
