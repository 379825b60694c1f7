"""make check-debug's per-arch fail-nth corpus."""

import re
import tempfile
import unittest

from kpt import reliability


class Corpus(unittest.TestCase):
    def test_x86_64_uses_the_file_as_it_is(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(reliability.corpus("x86_64", d),
                             f"{reliability.REL}/failnth.txt")

    def test_arm64_has_no_x86_names(self):
        with tempfile.TemporaryDirectory() as d:
            with open(reliability.corpus("arm64", d)) as f:
                text = f.read()
        body = "\n".join(ln for ln in text.splitlines()
                         if not ln.startswith("#"))
        self.assertFalse(re.search(r"%(di|si|dx|cx|ax|ip|r8|r9)\b", body))
        self.assertIn("a=%x0 b=%x1:u32 c=%x2:s16 d=%x3:x8", body)
        self.assertIn("%x0:%pD", body)
        self.assertNotIn("0xffffffff81000000", body)


class Job(unittest.TestCase):
    def env(self, lane):
        with tempfile.TemporaryDirectory() as d:
            reliability.job(d, ["test.d/kprobe/profile.tc"],
                            reliability.LANES[lane])
            with open(f"{d}/rel.env") as f:
                return f.read()

    def test_the_debug_lane_runs_every_phase(self):
        env = self.env("debug")
        self.assertIn("REL_PHASES='failnth fuzz stress perm kmemleak "
                      "lockdown'", env)
        self.assertIn("REL_STRESS_ARGS='-t 90 -s 1'", env)

    def test_the_kcsan_lane_fuzzes_and_stresses_for_5_minutes(self):
        env = self.env("kcsan")
        self.assertIn("REL_PHASES='fuzz stress'\n", env)
        self.assertIn("REL_STRESS_ARGS='-t 300 -s 1'", env)
        self.assertNotIn("FAILNTH", env)

    def test_damaging_cases_run_after_the_phases(self):
        with tempfile.TemporaryDirectory() as d:
            path = reliability.job(d, ["test.d/a.tc"],
                                   reliability.LANES["kcsan"],
                                   ["test.d/kprobe/damage.tc"])
            with open(path) as f:
                text = f.read()
        self.assertLess(text.index("test.d/a.tc"), text.index("rel.sh\n"))
        self.assertLess(text.index("rel.sh\n"), text.index("damage.tc"))
