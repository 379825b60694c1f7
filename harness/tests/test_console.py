"""The console parser against saved real console logs (tests/data)."""

import os
import re
import unittest

from kpt import check, console, expect

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def load(name):
    with open(os.path.join(DATA, name), errors="replace") as f:
        return console.parse(f.read().splitlines())


def results(res):
    return dict(res.results)


class CleanRun(unittest.TestCase):
    """A real make check run on x86_64: every case passed or was skipped."""

    def setUp(self):
        self.res = load("check-x86_64-clean.log")

    def test_booted_and_exited(self):
        self.assertTrue(self.res.booted)
        self.assertEqual(self.res.exit_rc, 0)
        self.assertFalse(self.res.timed_out)

    def test_results(self):
        r = results(self.res)
        self.assertEqual(r["test.d/kprobe/profile.tc"], "PASS")
        self.assertEqual(r["test.d/kprobe/add_and_remove.tc"], "PASS")

    def test_no_splats(self):
        self.assertEqual(self.res.splats, [])
        self.assertTrue(self.res.verdict().startswith("PASS"))


class UpstreamOops(unittest.TestCase):
    """Upstream's trace_fprobe_release oops, then a hung guest."""

    def setUp(self):
        self.res = load("tprobe-module-oops.log")

    def test_results_before_oops(self):
        r = results(self.res)
        self.assertEqual(r["test.d/kprobe/kprobe_args_syntax.tc"], "PASS")
        self.assertEqual(r["test.d/dynevent/add_remove_tprobe.tc"], "PASS")
        self.assertEqual(len(r), 33)

    def test_splats_attributed(self):
        case = "test.d/dynevent/add_remove_tprobe_module.tc"
        kinds = {s.kind for s in self.res.splats}
        self.assertTrue({"warning", "bug", "oops"} <= kinds)
        self.assertEqual({s.test for s in self.res.splats}, {case})

    def test_no_exit(self):
        self.assertIsNone(self.res.exit_rc)
        self.assertTrue(self.res.verdict().startswith("CRASH"))

    def test_expectation_allows_it(self):
        exp = expect.load("x86_64", "upstream")
        rows = check.judge(self.res, [], exp)
        bad = [r for r in rows if not r[2]]
        # Only the known upstream FAIL of kprobe_args_user (before the
        # config gained INOTIFY_USER/SECURITY) and the hang remain.
        self.assertEqual(sorted(r[0] for r in bad),
                         ["guest", "test.d/kprobe/kprobe_args_user.tc"])


class Warning(unittest.TestCase):
    """lkdtm WARNING inside a test case: attributed to that case."""

    def setUp(self):
        self.res = load("lkdtm-warning.log")

    def test_splat_found(self):
        kinds = {s.kind for s in self.res.splats}
        self.assertIn("warning", kinds)

    def test_attributed(self):
        self.assertEqual(self.res.splats[0].test, "test.d/fake/warn.tc")

    def test_verdict_fails(self):
        self.assertTrue(self.res.verdict().startswith("FAIL"))

    def test_allowed_by_expectation(self):
        allowed = [("test.d/fake/*", re.compile("lkdtm"))]
        bad = [s for s in self.res.splats
               if not console.allowed_splat(s, allowed)]
        self.assertEqual(bad, [])
        self.assertTrue(self.res.verdict(allowed).startswith("PASS"))


class Crash(unittest.TestCase):
    """A panic (sysrq-c) ends the guest without the exit marker."""

    def setUp(self):
        self.res = load("sysrq-crash.log")

    def test_crash(self):
        self.assertTrue(self.res.booted)
        self.assertIsNone(self.res.exit_rc)
        self.assertTrue(self.res.verdict().startswith("CRASH"))
        self.assertIn("panic", {s.kind for s in self.res.splats})


class Timeout(unittest.TestCase):
    def test_timeout(self):
        with open(os.path.join(DATA, "timeout.log")) as f:
            res = console.parse(f.read().splitlines(), timed_out=True)
        self.assertTrue(res.verdict().startswith("TIMEOUT"))


class Stall(unittest.TestCase):
    """A guest gone silent after one result: the rest are MISSING."""

    def test_stall(self):
        with open(os.path.join(DATA, "runner-stall.log")) as f:
            res = console.parse(f.read().splitlines(), timed_out=True)
        self.assertTrue(res.booted)
        self.assertEqual(res.results,
                         [("test.d/kprobe/add_and_remove.tc", "PASS")])
        self.assertTrue(res.verdict().startswith("TIMEOUT"))
        rows = check.judge(res, ["test.d/kprobe/add_and_remove.tc",
                                 "test.d/kprobe/busy_check.tc"],
                           expect.Expect({}, []))
        self.assertIn(("test.d/kprobe/busy_check.tc", "MISSING", False, ""),
                      rows)


class UserText(unittest.TestCase):
    """Splat words printed by user space (no printk stamp) are not splats."""

    def test_user_line(self):
        res = console.parse(["WARNING: this is a test's own output",
                             "@@KPT-EXIT rc=0"])
        self.assertEqual(res.splats, [])

    def test_interleaved_kernel_line(self):
        res = console.parse(["some output[   12.000001] WARNING: CPU: 0 "
                             "PID: 1 at x.c:1 f+0x1/0x2"])
        self.assertEqual(len(res.splats), 1)


class Judge(unittest.TestCase):
    def exp(self, results=None, cons=None):
        return expect.Expect(results or {}, cons or [])

    def test_unexpected_unsupported_fails(self):
        res = console.parse(["@@KPT-RESULT test.d/a.tc UNSUPPORTED",
                             "@@KPT-EXIT rc=0"])
        rows = check.judge(res, ["test.d/a.tc"], self.exp())
        self.assertEqual(rows, [("test.d/a.tc", "UNSUPPORTED", False, "")])

    def test_expected_unsupported_passes(self):
        res = console.parse(["@@KPT-RESULT test.d/a.tc UNSUPPORTED",
                             "@@KPT-EXIT rc=0"])
        rows = check.judge(res, ["test.d/a.tc"],
                           self.exp({"test.d/a.tc": ("UNSUPPORTED", "why")}))
        self.assertTrue(rows[0][2])

    def test_missing_case_fails(self):
        res = console.parse(["@@KPT-EXIT rc=0"])
        rows = check.judge(res, ["test.d/a.tc"], self.exp())
        self.assertEqual(rows[0][1], "MISSING")
        self.assertFalse(rows[0][2])

    def test_instance_key(self):
        res = console.parse(["@@KPT-RESULT test.d/a.tc PASS",
                             "@@KPT-RESULT test.d/a.tc (instance) FAIL",
                             "@@KPT-EXIT rc=0"])
        rows = check.judge(res, ["test.d/a.tc"], self.exp())
        self.assertIn(("test.d/a.tc(instance)", "FAIL", False, ""), rows)

    def test_crash_row(self):
        res = console.parse(["@@KPT-BOOTED", "@@KPT-RESULT test.d/a.tc PASS"])
        rows = check.judge(res, ["test.d/a.tc"], self.exp())
        self.assertIn(("guest", "CRASH", False, "guest did not finish"), rows)


class Expectations(unittest.TestCase):
    def load(self, text, kernel):
        """expect.load() of a file holding @text, for @kernel"""
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
            f.write(text)
            f.flush()
            return expect.load("x", kernel, f.name)

    def test_reason_required(self):
        with self.assertRaises(SystemExit):
            self.load("test.d/a.tc UNSUPPORTED all\n", "ours")

    def test_committed_files_parse(self):
        for name in ("x86_64", "arm64"):
            for kernel in expect.KERNELS:
                expect.load(name, kernel)

    def test_kernel_lists(self):
        text = ("test.d/a.tc FAIL upstream a 6.12 bug part 1 fixes\n"
                "test.d/b.tc UNSUPPORTED upstream,fixes an extension\n")
        self.assertEqual(set(self.load(text, "upstream").results),
                         {"test.d/a.tc", "test.d/b.tc"})
        self.assertEqual(set(self.load(text, "fixes").results),
                         {"test.d/b.tc"})
        self.assertEqual(self.load(text, "ours").results, {})

    def test_unknown_kernel_is_an_error(self):
        with self.assertRaises(SystemExit):
            self.load("test.d/a.tc FAIL upstream,mine a reason\n", "ours")


if __name__ == "__main__":
    unittest.main()


class KunitSuites(unittest.TestCase):
    """Built-in KUnit suites' KTAP at boot: one case per suite."""

    LOG = [
        "[    1.100000] KTAP version 1",
        "[    1.100001] 1..2",
        "[    1.100002]     KTAP version 1",
        "[    1.100003]     # Subtest: trace_probe_parser",
        "[    1.100004]     1..1",
        "[    1.100005]         ok 1 p^100 vfs_read",
        "[    1.100006]         not ok 2 r^1a111 vfs_read",
        "[    1.100007]     # tpp_kunit_parse: pass:1 fail:1 skip:0 total:2",
        "[    1.100008]     not ok 1 tpp_kunit_parse",
        "[    1.100009] # trace_probe_parser: pass:0 fail:1 skip:0 total:1",
        "[    1.100010] # Totals: pass:1 fail:1 skip:0 total:2",
        "[    1.100011] not ok 1 trace_probe_parser",
        "[    1.100012] # other_suite: pass:3 fail:0 skip:0 total:3",
        "[    1.100013] ok 2 other_suite",
        "ok 3 not_a_kernel_line",
    ]

    def test_suites(self):
        res = console.parse(self.LOG)
        self.assertEqual(results(res), {"kunit/trace_probe_parser": "FAIL",
                                        "kunit/other_suite": "PASS"})
        # the suite's "# Totals:" counts every parameter of its tests
        self.assertEqual(res.notes["kunit/trace_probe_parser"],
                         "pass:1 fail:1 skip:0 total:2")

    def test_judged_and_missing(self):
        res = console.parse(self.LOG[-3:-1])
        rows = check.judge(res, ["kunit/trace_probe_parser"],
                           expect.Expect({}, []))
        got = {k: (r, ok) for k, r, ok, _ in rows}
        self.assertEqual(got["kunit/other_suite"], ("PASS", True))
        self.assertEqual(got["kunit/trace_probe_parser"], ("MISSING", False))
