"""make check-debug: the per-arch fail-nth corpus, the lanes and their jobs."""

import os
import re
import tempfile
import types
import unittest
from unittest import mock

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

    def test_a_lane_without_cases_runs_only_the_phases(self):
        with tempfile.TemporaryDirectory() as d:
            path = reliability.job(d, [], reliability.LANES["long"])
            with open(path) as f:
                text = f.read()
        self.assertNotIn("ftrace-run.sh", text)
        self.assertIn("sh /kpt/job/rel.sh pre\nsh /kpt/job/rel.sh\n", text)


class Lanes(unittest.TestCase):
    def lane(self, debug=True, kcsan=False, **env):
        args = types.SimpleNamespace(debug=debug, kcsan=kcsan)
        with mock.patch.dict(os.environ, env):
            return reliability.lane_name(args)

    def test_long_runs_on_the_debug_kernel_or_the_normal_one(self):
        self.assertEqual(self.lane(LONG="1"), "long")
        self.assertEqual(self.lane(debug=False, LONG="1"), "long-plain")
        self.assertEqual(self.lane(LONG=""), "debug")
        self.assertEqual(self.lane(kcsan=True, LONG="0"), "kcsan")

    def test_the_normal_kernel_is_for_the_long_runs_only(self):
        with self.assertRaises(SystemExit):
            self.lane(debug=False, LONG="")
        with self.assertRaises(SystemExit):
            self.lane(kcsan=True, LONG="1")

    def test_the_timeout_follows_the_budgets_as_they_run(self):
        lane = reliability.LANES["long"]
        with mock.patch.dict(os.environ, {"REL_FUZZ_ARGS": "",
                                          "REL_STRESS_ARGS": ""}):
            self.assertEqual(reliability.lane_seconds(lane),
                             300 + 3600 + 3600)
        with mock.patch.dict(os.environ, {"REL_FUZZ_ARGS": "-n 5 -t 60",
                                          "REL_STRESS_ARGS": "-t 120 -s 3"}):
            self.assertEqual(reliability.lane_seconds(lane), 300 + 60 + 120)

    def test_the_debug_lane_keeps_its_time(self):
        with mock.patch.dict(os.environ, {"REL_FAILNTH_ARGS": "",
                                          "REL_FUZZ_ARGS": "",
                                          "REL_STRESS_ARGS": ""}):
            self.assertEqual(
                reliability.lane_seconds(reliability.LANES["debug"]),
                600 + 150 + 90 + 300)
