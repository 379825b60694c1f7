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
        """@files: {"P-part/NN-slug.txt": text}"""
        with tempfile.TemporaryDirectory() as d:
            for name, text in files.items():
                os.makedirs(os.path.join(d, os.path.dirname(name)),
                            exist_ok=True)
                self.write(d, name, text)
            with mock.patch.object(plan, "PLAN_DIR", d):
                return plan.load(overlay)

    def test_message_and_directives(self):
        steps = self.load({"1-fixes/01-a.txt": "x: Do y\n\nBody.\n\n"
                           "Signed-off-by: Z <z@z>\n---\nfiles: k/*.c\n"
                           "delete: k/old.c\ntest: test.d/k/a.tc\n"},
                          ["k/a.c", "k/b.c", "k/a.h"])
        s = steps[0]
        self.assertEqual((s.num, s.slug, s.subject), (1, "a", "x: Do y"))
        self.assertEqual(s.files, ["k/a.c", "k/b.c"])
        self.assertEqual(s.deletes, ["k/old.c"])
        self.assertEqual(s.tests, ["test.d/k/a.tc"])
        self.assertEqual((s.part, s.part_name), (1, "fixes"))

    def test_parts_in_order_numbered_through(self):
        steps = self.load({"2-rest/01-b.txt": "s\n---\nfiles: k/b.c\n",
                           "1-fixes/01-a.txt": "s\n---\nfiles: k/a.c\n",
                           "1-fixes/02-c.txt": "s\n---\nfiles: k/c.c\n"},
                          ["k/a.c", "k/b.c", "k/c.c"])
        self.assertEqual([(s.num, s.part, s.slug) for s in steps],
                         [(1, 1, "a"), (2, 1, "c"), (3, 2, "b")])

    def test_glob_skips_what_an_earlier_step_took(self):
        steps = self.load({"1-fixes/01-a.txt": "s\n---\nfiles: k/a.tc\n",
                           "2-rest/01-b.txt": "s\n---\nfiles: k/*.tc\n"},
                          ["k/a.tc", "k/b.tc"])
        self.assertEqual(steps[1].files, ["k/b.tc"])
        overlay = ["k/a.tc", "k/b.tc"]
        self.assertEqual(plan.problems(steps, overlay, []), [])

    def test_glob_skips_what_a_later_step_names(self):
        steps = self.load({"2-rest/01-a.txt": "s\n---\nfiles: k/*.tc\n",
                           "2-rest/02-b.txt": "s\n---\nfiles: k/b.tc\n"},
                          ["k/a.tc", "k/b.tc"])
        self.assertEqual([s.files for s in steps], [["k/a.tc"], ["k/b.tc"]])
        self.assertEqual(plan.problems(steps, ["k/a.tc", "k/b.tc"], []), [])

    def test_named_file_twice_is_an_error(self):
        steps = self.load({"1-fixes/01-a.txt": "s\n---\nfiles: k/a.tc\n",
                           "2-rest/01-b.txt": "s\n---\nfiles: k/a.tc\n"},
                          ["k/a.tc"])
        self.assertEqual(len(plan.problems(steps, ["k/a.tc"], [])), 1)

    def test_glob_matching_nothing_fails(self):
        with self.assertRaises(SystemExit):
            self.load({"1-fixes/01-a.txt": "s\n---\nfiles: k/*.rs\n"},
                      ["k/a.c"])

    def test_unknown_directive_fails(self):
        with self.assertRaises(SystemExit):
            self.load({"1-fixes/01-a.txt": "s\n---\nfile: k/a.c\n"},
                      ["k/a.c"])

    def test_the_repo_has_fixes_first(self):
        parts = plan.parts()
        self.assertEqual(parts[0][:2], (plan.FIXES_PART, "fixes"))
        for _, _, d in parts:
            self.assertTrue(os.path.isfile(os.path.join(d, "cover.txt")))
        fixes = [s for s in plan.load(tree.overlay_files())
                 if s.part == plan.FIXES_PART]
        self.assertTrue(any(s.tests for s in fixes))


class Rewind(unittest.TestCase):
    """A later patch's hunks on one of our files are undone for an
    earlier patch, and only that file's hunks."""

    DIFF = ("Subject: [PATCH] x\n\nBody.\n---\n"
            "--- a/k/other.c\n+++ b/k/other.c\n@@ -1,1 +1,1 @@\n-a\n+b\n"
            "--- a/k/ours.c\n+++ b/k/ours.c\n@@ -1,3 +1,3 @@\n one\n"
            "-two\n+TWO\n three\n")

    def test_file_diff_takes_one_file(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "x.patch")
            with open(p, "w") as f:
                f.write(self.DIFF)
            got = tree.file_diff(p, "k/ours.c")
        self.assertTrue(got.startswith("--- a/k/ours.c\n+++ b/k/ours.c\n"))
        self.assertNotIn("other", got)
        self.assertIn("+TWO\n", got)

    def test_rewound_undoes_later_patches(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "k"))
            with open(os.path.join(d, "k/ours.c"), "w") as f:
                f.write("one\nTWO\nthree\n")
            with open(os.path.join(d, "x.patch"), "w") as f:
                f.write(self.DIFF)
            with mock.patch.object(tree.paths, "REPO", d):
                later = [self.step(applies=["x.patch"])]
                self.assertEqual(tree.rewound("k/ours.c", later),
                                 ("k/ours.c", "one\ntwo\nthree\n"))
                self.assertEqual(tree.rewound("k/ours.c", []),
                                 ("k/ours.c", "one\nTWO\nthree\n"))
                with open(os.path.join(d, "k/ours.c"), "w") as f:
                    f.write("one\nchanged\nthree\n")
                with self.assertRaises(SystemExit):
                    tree.rewound("k/ours.c", later)

    def step(self, applies=(), renames=(), substs=()):
        s = plan.Step(9, "x", 2, "rest")
        s.applies, s.renames, s.substs = list(applies), list(renames), \
            list(substs)
        return s

    def test_rewound_undoes_a_rename(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "k"))
            with open(os.path.join(d, "k/final.c"), "w") as f:
                f.write('#include "final.h"\nint x;\n')
            later = [self.step(renames=[("k/tmp.c", "k/final.c")],
                               substs=[('"tmp.h"', '"final.h"')])]
            with mock.patch.object(tree.paths, "REPO", d):
                self.assertEqual(tree.rewound("k/final.c", later),
                                 ("k/tmp.c", '#include "tmp.h"\nint x;\n'))

    def test_the_repo_rewinds_the_record_path(self):
        """Part 2's probe_event.h has no plain record path; the end has."""
        overlay = tree.overlay_files()
        steps = plan.load(overlay)
        i = next(n for n, s in enumerate(steps)
                 if "kernel/trace/probe_event.h" in s.files)
        _, old = tree.rewound("kernel/trace/probe_event.h", steps[i + 1:])
        self.assertLess(steps[i].part, 3)
        self.assertNotIn("trace_event_plain", old)
        with open(os.path.join(tree.paths.REPO,
                               "kernel/trace/probe_event.h")) as f:
            self.assertIn("trace_event_plain", f.read())


class Checkpatch(unittest.TestCase):
    """Exempt findings are named by type and patch, with a reason."""

    def test_maintained_moves(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "x.patch")
            with open(p, "w") as f:
                f.write("diff --git a/k/trace/probe_x.c b/k/trace/probe_x.c\n"
                        "new file mode 100644\n"
                        "diff --git a/k/old.c b/k/new.c\n"
                        "rename from k/old.c\nrename to k/new.c\n")
            self.assertEqual(series._moved_paths(p),
                             {"k/trace/probe_x.c", "k/old.c", "k/new.c"})
            self.assertTrue(series._maintained(
                p, ["k/trace/probe_*", "k/"]))
            self.assertFalse(series._maintained(p, ["k/trace/probe_*"]))

    EX = [("RCU_TASKS_TRACE", "2-rewrite/*-Rebuild-*", "why")]

    def test_exempt_only_for_its_type_and_patch(self):
        line = "x.patch:9: WARNING:RCU_TASKS_TRACE: use of RCU tasks trace"
        self.assertTrue(series._exempt(line, "2-rewrite/0011-Rebuild-a.patch",
                                       self.EX))
        self.assertFalse(series._exempt(line, "1-fixes/0001-a.patch",
                                        self.EX))
        other = "x.patch:9: CHECK:BRACES: braces {} should be used"
        self.assertFalse(series._exempt(other,
                                        "2-rewrite/0011-Rebuild-a.patch",
                                        self.EX))

    def test_every_exemption_has_a_reason(self):
        for t, g, why in series._exemptions():
            self.assertRegex(t, r"^[A-Z0-9_]+$")
            self.assertGreater(len(why.split()), 5, (t, g))

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
                        order.index("patches/probe-rename.patch"))


if __name__ == "__main__":
    unittest.main()


class SeriesExpect(unittest.TestCase):
    """A patch's boot judges 6.12's cases as fixes, ours as its part."""

    def test_ours_by_part_theirs_by_fixes(self):
        from kpt import cli, expect

        def load(arch, kernel):
            e = expect.Expect({}, [])
            if kernel == "fixes":
                e.results = {"ours.tc": ("FAIL", "an extension"),
                             "theirs.tc": ("FAIL", "a 6.12 lack")}
            else:
                e.results = {"unsup.tc": ("UNSUPPORTED", "not here")}
            return e
        with mock.patch.object(expect, "load", load), \
                mock.patch.object(cli.check, "own_cases",
                                  lambda: ["ours.tc", "unsup.tc"]):
            fix = cli._series_expect("x86_64", "1/02").results
            rw = cli._series_expect("x86_64", "2/25").results
        self.assertEqual(set(fix), {"ours.tc", "theirs.tc"})
        self.assertEqual(set(rw), {"theirs.tc", "unsup.tc"})


class DeliberateText(unittest.TestCase):
    """Part 2's cover letter carries docs/design.md's list of deliberate
    differences: every item, as plain text, without the build's."""

    def test_every_item_in_the_cover(self):
        from kpt import series
        names = series.deliberate_items()
        text = series.deliberate_text()
        flat = " ".join(text.split())
        self.assertGreater(len(names), 30)
        for name in names:
            if name == "Image layout":
                self.assertNotIn(name, flat)
            else:
                self.assertIn(f"- {name}.", flat)
        self.assertNotIn("**", text)
        self.assertNotIn("`", text)
        self.assertLessEqual(max(len(line) for line in text.splitlines()), 72)
