"""A peer tool that is there but cannot run (exit 127, as nwn-trn without its D runtime) makes
the tests that need it skip, saying why in one line; it never fails them. The fake tools are
written here, in the scratch folder, and handed over through WALKMESH_NWN_TRN."""
import os
import stat
import subprocess
import sys
import unittest

from raw_files import peer_problem
from support import SCRATCH

HERE = os.path.dirname(os.path.abspath(__file__))
LOADER_MESSAGE = ("nwn-trn: error while loading shared libraries: libphobos2-ldc-shared.so.100: "
                  "cannot open shared object file: No such file or directory")


def fake_tool(name, body, executable=True):
    path = os.path.join(SCRATCH, name)
    with open(path, "w") as handle:
        handle.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, stat.S_IRWXU if executable else stat.S_IRUSR | stat.S_IWUSR)
    return path


class PeerThatCannotRunTest(unittest.TestCase):
    def test_exit_127_is_a_reason_to_skip(self):
        fake = fake_tool("nwn-trn-exit-127", "echo '%s' >&2; exit 127" % LOADER_MESSAGE)
        problem = peer_problem(fake)
        self.assertIn("exit 127", problem)
        self.assertIn("libphobos2-ldc-shared.so.100", problem)

    def test_not_executable_or_absent_is_a_reason_to_skip(self):
        self.assertIn("no nwn-trn", peer_problem(fake_tool("nwn-trn-not-executable", "exit 0", executable=False)))
        self.assertIn("no nwn-trn", peer_problem(os.path.join(SCRATCH, "no-such-nwn-trn")))

    def test_a_tool_that_starts_is_used(self):
        self.assertIsNone(peer_problem(fake_tool("nwn-trn-starts", "exit 1")))  # --help may exit non-zero

    def test_the_table_tests_skip_and_pass_with_it(self):
        fake = fake_tool("nwn-trn-exit-127", "echo '%s' >&2; exit 127" % LOADER_MESSAGE)
        path = os.environ.get("PYTHONPATH", "").split(os.pathsep)  # made absolute: the run starts in HERE
        env = dict(os.environ, WALKMESH_NWN_TRN=fake, PYTHONPATH=os.pathsep.join(os.path.abspath(p) for p in path if p))
        run = subprocess.run([sys.executable, "-m", "unittest", "-v", "test_tables.Nwn2TablesTest"], cwd=HERE,
                             env=env, capture_output=True, text=True, timeout=600)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertNotIn("FAIL", run.stderr)
        self.assertNotIn("ERROR", run.stderr)
        skipped = [line for line in run.stderr.splitlines() if " ... skipped " in line]
        self.assertGreaterEqual(len(skipped), 2, run.stderr)  # every test of the class
        lines = [line for line in run.stderr.splitlines() if line.startswith("skipping the checks against the peer")]
        self.assertEqual(len(lines), 1, run.stderr)  # one line saying why
        self.assertIn("exit 127", lines[0])
