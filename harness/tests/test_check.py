"""check.compare_wide() and check.fixes_table(): what make check-wide and
make check-fixes report; the expectations a flavour adds."""

import os
import tempfile
import unittest
from unittest import mock

from kpt import check, expect, plan


def rows(*pairs, console=()):
    out = [(k, r, r in check.PASSING, "") for k, r in pairs]
    out += [(f"console:{n}", kind, ok, "[x.tc] line")
            for n, kind, ok in console]
    return out


class CompareWide(unittest.TestCase):
    def test_same_results_agree(self):
        up = rows(("a.tc", "PASS"), ("b.tc", "FAIL"), ("c.tc", "UNSUPPORTED"))
        ours = rows(("a.tc", "PASS"), ("b.tc", "FAIL"), ("c.tc", "UNSUPPORTED"))
        self.assertEqual(check.compare_wide(up, ours), [])

    def test_a_different_result_is_reported(self):
        up = rows(("a.tc", "PASS"), ("b.tc", "FAIL"))
        ours = rows(("a.tc", "FAIL"), ("b.tc", "FAIL"))
        self.assertEqual(check.compare_wide(up, ours),
                         ["a.tc: upstream PASS, ours FAIL"])

    def test_ours_passing_where_upstream_fails_is_reported(self):
        out = check.compare_wide(rows(("a.tc", "FAIL")),
                                 rows(("a.tc", "PASS")))
        self.assertEqual(out, ["a.tc: upstream FAIL, ours PASS"])

    def test_a_case_missing_on_one_side_is_reported(self):
        out = check.compare_wide(rows(("a.tc", "PASS"), ("b.tc", "PASS")),
                                 rows(("a.tc", "PASS")))
        self.assertEqual(out, ["b.tc: upstream PASS, ours MISSING"])

    def test_a_splat_of_ours_is_reported_not_upstreams(self):
        up = rows(("a.tc", "PASS"), console=[(7, "WARNING", False)])
        ours = rows(("a.tc", "PASS"), console=[(9, "BUG", False)])
        out = check.compare_wide(up, ours)
        self.assertEqual(len(out), 1)
        self.assertTrue(out[0].startswith("ours console:9 BUG"))

    def test_an_allowed_console_row_is_not_reported(self):
        ours = rows(("a.tc", "PASS"), console=[(9, "WARNING", True)])
        self.assertEqual(check.compare_wide(rows(("a.tc", "PASS")), ours), [])


class FixesTable(unittest.TestCase):
    """make check-fixes: a fix's test must fail on 6.12, pass with part 1."""

    def table(self, up, fx):
        step = plan.Step(1, "fix-a")
        return check.fixes_table([(step, "test.d/a.tc")], up, fx, "x86_64")

    def test_fail_then_pass_is_ok(self):
        _, bad = self.table([("test.d/a.tc", "FAIL", False, "")],
                            [("test.d/a.tc", "PASS", True, "")])
        self.assertEqual(bad, 0)

    def test_a_splat_on_612_counts_as_failing(self):
        lines, bad = self.table(
            [("test.d/a.tc", "PASS", True, ""),
             ("console:5", "WARNING", False, "[test.d/a.tc] WARNING: x")],
            [("test.d/a.tc", "PASS", True, "")])
        self.assertEqual(bad, 0)
        self.assertIn("PASS+splat", lines[-1])

    def test_passing_on_612_is_bad(self):
        _, bad = self.table([("test.d/a.tc", "PASS", True, "")],
                            [("test.d/a.tc", "PASS", True, "")])
        self.assertEqual(bad, 1)

    def test_unsupported_on_both_is_not_counted(self):
        lines, bad = self.table([("test.d/a.tc", "UNSUPPORTED", False, "")],
                                [("test.d/a.tc", "UNSUPPORTED", False, "")])
        self.assertEqual(bad, 0)
        self.assertIn("n/a", lines[-1])

    def test_a_splat_with_the_fixes_is_bad(self):
        _, bad = self.table(
            [("test.d/a.tc", "FAIL", False, "")],
            [("test.d/a.tc", "PASS", True, ""),
             ("console:9", "BUG", False, "[test.d/b.tc] BUG: y")])
        self.assertEqual(bad, 1)

    def arm64_fix(self, up, fx, karch):
        step = plan.Step(1, "arm64-fix")
        step.applies = ["patches/x.patch"]
        with mock.patch("kpt.tree.patched_paths",
                        return_value=["arch/arm64/kernel/hw_breakpoint.c"]):
            return check.fixes_table([(step, "test.d/a.tc")], up, fx,
                                     karch, karch)

    def test_another_arch_fix_passing_on_both_is_not_counted(self):
        lines, bad = self.arm64_fix([("test.d/a.tc", "PASS", True, "")],
                                    [("test.d/a.tc", "PASS", True, "")],
                                    "x86_64")
        self.assertEqual(bad, 0)
        self.assertIn("n/a", lines[-1])

    def test_its_own_arch_fix_passing_on_612_is_bad(self):
        _, bad = self.arm64_fix([("test.d/a.tc", "PASS", True, "")],
                                [("test.d/a.tc", "PASS", True, "")],
                                "arm64")
        self.assertEqual(bad, 1)


if __name__ == "__main__":
    unittest.main()


class FlavourExpectations(unittest.TestCase):
    """A flavour's file (arm64-bti.txt) adds to and overrides its arch's
    entries for that flavour only."""

    def test_flavour_file_over_the_arch_file(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "arm64.txt"), "w") as f:
                f.write("test.d/a.tc FAIL all why a\n"
                        "test.d/b.tc FAIL all why b\n")
            with open(os.path.join(d, "arm64-bti.txt"), "w") as f:
                f.write("test.d/b.tc UNRESOLVED all why b under bti\n")
            with mock.patch.object(expect, "DIR", d):
                plain = expect.load("arm64", "ours")
                bti = expect.load("arm64", "ours", flavour="bti")
                debug = expect.load("arm64", "ours", flavour="debug")
        self.assertEqual(plain.results["test.d/b.tc"][0], "FAIL")
        self.assertEqual(bti.results["test.d/b.tc"][0], "UNRESOLVED")
        self.assertEqual(bti.results["test.d/a.tc"][0], "FAIL")
        self.assertEqual(debug.results, plain.results)
