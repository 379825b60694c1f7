"""The series plan (harness/series/) and the MAINTAINERS spreading."""

import os
import tempfile
import unittest
from unittest import mock

from kpt import plan, series, tree

BASE = "A\nB\n\nKPROBES\nM:\tx\n"
FINAL = ("A\nB\n\nKPE\nM:\tus\nF:\tkernel/trace/probe_fetch*\n"
         "F:\tkernel/trace/trace_probe*\nF:\ttools/ftrace/\n\nKPROBES\n"
         "M:\tx\n")


class Maintainers(unittest.TestCase):
    """The entry grows with the files the patches so far touched."""

    def test_nothing_touched_keeps_the_file(self):
        self.assertEqual(series._maintainers(BASE, FINAL, {"x.c"}), BASE)

    def test_only_matching_f_lines(self):
        got = series._maintainers(BASE, FINAL,
                                  {"kernel/trace/trace_probe.c"})
        self.assertIn("F:\tkernel/trace/trace_probe*\n", got)
        self.assertNotIn("probe_fetch", got)
        self.assertIn("KPE\nM:\tus\n", got)

    def test_glob_stays_in_its_directory(self):
        self.assertFalse(series._covers("kernel/trace/probe_*",
                                        "kernel/trace/probe_x/y.c"))
        self.assertTrue(series._covers("tools/ftrace/", "tools/ftrace/a/b"))

    def test_everything_touched_is_the_final_file(self):
        touched = {"kernel/trace/probe_fetch.c", "kernel/trace/trace_probe.h",
                   "tools/ftrace/t.tc"}
        self.assertEqual(series._maintainers(BASE, FINAL, touched), FINAL)

    def test_patch_must_only_add(self):
        with self.assertRaises(SystemExit):
            series._entry(BASE, FINAL.replace("A\n", "Z\n"))


class Plan(unittest.TestCase):
    """Plan files, and that they cover the repo exactly once."""

    def write(self, d, name, text):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)

    def load(self, files, overlay):
        with tempfile.TemporaryDirectory() as d:
            for name, text in files.items():
                self.write(d, name, text)
            with mock.patch.object(plan, "PLAN_DIR", d):
                return plan.load(overlay)

    def test_message_and_directives(self):
        steps = self.load({"01-a.txt": "x: Do y\n\nBody.\n\nSigned-off-by: "
                           "Z <z@z>\n---\nfiles: k/*.c\ndelete: k/old.c\n"},
                          ["k/a.c", "k/b.c", "k/a.h"])
        s = steps[0]
        self.assertEqual((s.num, s.slug, s.subject), (1, "a", "x: Do y"))
        self.assertEqual(s.files, ["k/a.c", "k/b.c"])
        self.assertEqual(s.deletes, ["k/old.c"])

    def test_glob_matching_nothing_fails(self):
        with self.assertRaises(SystemExit):
            self.load({"01-a.txt": "s\n---\nfiles: k/*.rs\n"}, ["k/a.c"])

    def test_unknown_directive_fails(self):
        with self.assertRaises(SystemExit):
            self.load({"01-a.txt": "s\n---\nfile: k/a.c\n"}, ["k/a.c"])

    def test_coverage(self):
        a, b = plan.Step(1, "a"), plan.Step(2, "b")
        a.files, b.files = ["k/a.c"], ["k/a.c"]
        a.applies = ["x.patch"]
        errs = plan.problems([a, b], ["k/a.c", "k/b.c"],
                             ["x.patch", "y.patch", plan.MAINTAINERS_PATCH])
        self.assertEqual(len(errs), 3, errs)   # a.c twice, b.c, y.patch

    def test_the_repo_plan_covers_the_repo(self):
        overlay = tree.overlay_files()
        plan.validate(plan.load(overlay), overlay, plan.root_patches())

    def test_order_puts_unplanned_patches_last(self):
        overlay = tree.overlay_files()
        order = plan.patch_order(overlay)
        planned = [p for s in plan.load(overlay) for p in s.applies]
        self.assertEqual(order[:len(planned)], planned)
        self.assertIn(plan.MAINTAINERS_PATCH, order[len(planned):])
        self.assertLess(order.index("patches/probe-regs-Makefile.patch"),
                        order.index("patches/probe-core-Makefile.patch"))


if __name__ == "__main__":
    unittest.main()
