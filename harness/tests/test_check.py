"""check.compare_wide(): what make check-wide reports."""

import unittest

from kpt import check


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


if __name__ == "__main__":
    unittest.main()
