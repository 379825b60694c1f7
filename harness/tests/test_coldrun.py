"""cold-run: the phases of a timed .ci/run log."""

import unittest

from kpt import coldrun, deps

# the commands make echoes in make check, as they start a line
LINES = [
    (0, "python3 -m unittest discover -s harness/tests -t harness"),
    (11, "pyflakes3 harness/kpt harness/diff harness/clients harness/tests \\"),
    (11, "\tharness/series harness/unit/fuzz harness/bench"),
    (12, "cd harness && mypy --config-file mypy.ini"),
    (15, "harness/probetest unit"),
    (25, "[probetest     0.0s] installing fuzz: clang-14"),
    (25, "harness/probetest fuzz smoke"),
    (90, "harness/probetest check"),
    (700, "ok   x86_64  ours     PASS        test.d/kprobe/profile.tc"),
    (900, "ARCH=x86_64 KERNEL=ours harness/probetest clients"),
]


class Phases(unittest.TestCase):
    def test_installed(self):
        m = deps.INSTALLED.search("[probetest    12.0s] " +
                                  deps.installed(4, 12.2))
        self.assertEqual(m.group(1), "12")
    def test_commands_start_phases(self):
        got = [(secs, m.group(1)) for secs, line in LINES
               for m in [coldrun._PHASE.match(line)] if m]
        self.assertEqual([w for _, w in got], [
            "python3 -m unittest", "pyflakes3", "cd harness && mypy",
            "harness/probetest unit", "harness/probetest fuzz smoke",
            "harness/probetest check", "harness/probetest clients"])

    def test_table(self):
        rows = coldrun.phase_table([(0, "a"), (11, "b"), (90, "end")])
        self.assertEqual(rows, ["    0 s     11 s  a",
                                "   11 s     79 s  b"])


if __name__ == "__main__":
    unittest.main()
