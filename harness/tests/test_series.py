"""The series plan (harness/series/) and the MAINTAINERS spreading."""

import os
import tempfile
import unittest
from unittest import mock

from kpt import plan, series, tree

BASE = ("A\nB\n\nKPROBES\nM:\tx\nF:\tkernel/kprobes.c\n\nTRACING\n"
        "M:\ty\nF:\tfs/tracefs/\nF:\tkernel/trace/\n")
FINAL = ("A\nB\n\nKPROBES\nM:\tx\nF:\tkernel/kprobes.c\n\nTRACING\n"
         "M:\ty\nF:\tarch/*/kernel/probe_regs.c\nF:\tfs/tracefs/\n"
         "F:\tinclude/linux/probe_regs.h\nF:\ttools/ftrace/\n"
         "F:\tkernel/trace/\n")


class Maintainers(unittest.TestCase):
    """MAINTAINERS.patch adds F: lines to existing entries, and each
    patch of the series gets those that match the files so far."""

    def test_nothing_touched_keeps_the_file(self):
        self.assertEqual(series._maintainers(BASE, FINAL, {"x.c"}), BASE)

    def test_only_matching_f_lines(self):
        got = series._maintainers(BASE, FINAL,
                                  {"arch/arm64/kernel/probe_regs.c"})
        self.assertIn("F:\tarch/*/kernel/probe_regs.c\n", got)
        self.assertNotIn("probe_regs.h", got)
        self.assertIn("TRACING\nM:\ty\n", got)

    def test_glob_stays_in_its_directory(self):
        self.assertFalse(series._covers("kernel/trace/probe_*",
                                        "kernel/trace/probe_x/y.c"))
        self.assertTrue(series._covers("tools/ftrace/", "tools/ftrace/a/b"))
        self.assertTrue(series._covers("arch/*/kernel/probe_regs.c",
                                       "arch/x86/kernel/probe_regs.c"))

    def test_everything_touched_is_the_final_file(self):
        touched = {"arch/x86/kernel/probe_regs.c",
                   "include/linux/probe_regs.h", "tools/ftrace/t.tc"}
        self.assertEqual(series._maintainers(BASE, FINAL, touched), FINAL)

    def test_patch_must_only_add(self):
        with self.assertRaises(SystemExit):
            series.maintainers_added(BASE, FINAL.replace("A\n", "Z\n"))

    def test_no_entry_of_our_own(self):
        own = BASE + "\nPROBE EVENTS\nM:\tsomeone\nF:\tkernel/x.c\n"
        with self.assertRaises(SystemExit) as cm:
            series.maintainers_added(BASE, own)
        self.assertIn("existing entries", str(cm.exception))

    def test_no_maintainer_added_to_an_entry(self):
        extra = BASE.replace("M:\tx\n", "M:\tx\nM:\tme\n")
        with self.assertRaises(SystemExit):
            series.maintainers_added(BASE, extra)

    def test_the_repo_patch_adds_only_f_lines(self):
        """MAINTAINERS.patch itself: only F: lines, on the real file."""
        src = series.paths.src("upstream")
        base = os.path.join(src, "MAINTAINERS")
        if not os.path.exists(os.path.join(src, ".kpt-unpacked")):
            self.skipTest("no unpacked 6.12 tree")
        with open(base) as f:
            text = f.read()
        final = series._patched(text, os.path.join(
            series.paths.REPO, plan.MAINTAINERS_PATCH))
        added = series.maintainers_added(text, final)
        self.assertTrue(added)
        self.assertTrue(all(line.startswith("F:\t") for _, line in added))


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


class CoverTable(unittest.TestCase):
    """Part 2's cover letter has a short table of the deliberate
    differences: one row for each item of docs/design.md's list but the
    build's, so neither can gain or lose one alone."""

    def test_one_row_per_item(self):
        from kpt import series
        names = series.deliberate_items(rewrite=True)
        self.assertGreater(len(names), 30)
        self.assertIn("Image layout", series.deliberate_items())
        self.assertNotIn("Image layout", names)
        with open(os.path.join(plan.PLAN_DIR, "2-rewrite",
                               "cover.txt")) as f:
            text = f.read()
        head = f"The {len(names)} deliberate differences, for a user of "\
            "tracefs:"
        self.assertIn(head, text)
        table = text.split(head, 1)[1]
        rows = [line for line in table.splitlines()
                if line.startswith(" ") and not line.startswith(" What")]
        self.assertEqual(len(rows), len(names))


class Sending(unittest.TestCase):
    """Recipients, the stable route and the signer of a series to send."""

    GM = ("Steven Rostedt <rostedt@goodmis.org> (maintainer:TRACING)\n"
          "Masami Hiramatsu <mhiramat@kernel.org> (maintainer:TRACING,"
          "commit_signer:1/2=50%)\n"
          "Mathieu Desnoyers <mathieu.desnoyers@efficios.com> "
          "(reviewer:TRACING)\n"
          "linux-kernel@vger.kernel.org (open list)\n"
          "linux-arm-kernel@lists.infradead.org (moderated list:ARM64)\n")

    def test_maintainers_to_the_rest_cc(self):
        to, cc = series.split_recipients(self.GM)
        self.assertEqual(to, ["Steven Rostedt <rostedt@goodmis.org>",
                              "Masami Hiramatsu <mhiramat@kernel.org>"])
        self.assertEqual(cc[0], "Mathieu Desnoyers "
                                "<mathieu.desnoyers@efficios.com>")
        self.assertIn("linux-arm-kernel@lists.infradead.org", cc)

    def patch(self, d):
        path = os.path.join(d, "0001-x.patch")
        with open(path, "w") as f:
            f.write("From 0000 Mon Sep 17 00:00:00 2001\nFrom: A <a@b.org>\n"
                    "Date: Tue, 1 Dec 2026 00:00:00 +0000\n"
                    "Subject: [PATCH 01/15] tracing: Fix it\n\nBody.\n")
        return path

    def test_headers_written_once(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.patch(d)
            series._set_headers(path, ["M <m@k.org>", "N <n@k.org>"],
                                ["l@v.org"], False)
            series._set_headers(path, ["M <m@k.org>"], ["l@v.org"], False)
            with open(path) as f:
                text = f.read()
        self.assertEqual(text.count("To: "), 1)
        self.assertNotIn("N <n@k.org>", text)
        self.assertIn("To: M <m@k.org>\nCc: l@v.org\n\nBody.\n", text)

    def test_stable_route_prefix(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.patch(d)
            series._set_headers(path, [series.STABLE_LIST], ["M <m@k>"],
                                True)
            with open(path) as f:
                text = f.read()
        self.assertIn("Subject: [PATCH 6.12.y 01/15] tracing:", text)
        self.assertIn("To: stable@vger.kernel.org\n", text)

    def test_placeholder_signer_refused(self):
        ident = ("Seed maintainers", "m@users.noreply.a-seed.example")
        with mock.patch.object(series, "author", return_value=ident), \
                mock.patch.dict(os.environ, {"SERIES_AUTHOR": ""}):
            with self.assertRaises(SystemExit) as cm:
                series.check_signer()
        self.assertIn("SERIES_AUTHOR", str(cm.exception))

    def test_real_or_chosen_signer_passes(self):
        with mock.patch.object(series, "author",
                               return_value=("A U Thor", "a@kernel.org")):
            series.check_signer()
        ident = ("Seed", "m@noreply.example")
        with mock.patch.object(series, "author", return_value=ident), \
                mock.patch.dict(os.environ, {"SERIES_AUTHOR": "Seed <m@x>"}):
            series.check_signer()

    def test_base_names_the_stable_tag(self):
        """The tag and the package come from the installed package."""
        with mock.patch.object(series, "source_version",
                               return_value="6.12.118-1~deb12u1"):
            self.assertIn("v6.12.118.", series.base_text(1))
            self.assertIn("v6.12.118 with parts 1-2 of", series.base_text(3))
            self.assertIn("Debian's linux-source-6.12 6.12.118-1~deb12u1 "
                          "(v6.12.118 with", series.base_text(2))


class StaleLocks(unittest.TestCase):
    """A run killed half-way leaves git's *.lock files in the series
    repo; the next run, holding the series lock, removes them, but not
    those of series-check's work tree, which has a lock of its own."""

    def test_clears_repo_locks_keeps_worktree_locks(self):
        with tempfile.TemporaryDirectory() as gitdir:
            wt = os.path.join(gitdir, "worktrees", "series")
            refs = os.path.join(gitdir, "refs", "heads")
            os.makedirs(wt)
            os.makedirs(refs)
            stale = [os.path.join(gitdir, "kpt-series-index.lock"),
                     os.path.join(refs, "series-part1.lock")]
            live = os.path.join(wt, "index.lock")
            for f in [*stale, live, os.path.join(gitdir, "HEAD")]:
                open(f, "w").close()
            with mock.patch.object(series, "log"):
                series._clear_stale_locks(gitdir)
            self.assertEqual([os.path.exists(f) for f in stale],
                             [False, False])
            self.assertTrue(os.path.exists(live))
            self.assertTrue(os.path.exists(os.path.join(gitdir, "HEAD")))


class BuildStamps(unittest.TestCase):
    """series-check's stamps follow a commit's tree, not its date"""

    @staticmethod
    def _env(date: str) -> dict[str, str]:
        return dict(os.environ, GIT_AUTHOR_DATE=date,
                    GIT_COMMITTER_DATE=date, GIT_AUTHOR_NAME="t",
                    GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
                    GIT_COMMITTER_EMAIL="t@t")

    def _commit(self, repo: str, text: str, date: str) -> str:
        with open(os.path.join(repo, "f"), "w") as f:
            f.write(text)
        series.git(repo, "add", "f")
        series.git(repo, "commit", "-q", "-m", "step", env=self._env(date))
        return series.git(repo, "rev-parse", "HEAD")

    def test_same_tree_new_date_same_stamp(self):
        with tempfile.TemporaryDirectory() as repo:
            series.git(repo, "init", "-q")
            a = self._commit(repo, "x\n", "1700000000 +0000")
            # the same tree, committed again on a later day
            b = series.git(repo, "commit-tree", f"{a}^{{tree}}", "-m", "s",
                           env=self._env("1800000000 +0000"))
            c = self._commit(repo, "y\n", "1700000000 +0000")
            self.assertNotEqual(a, b)
            sa, sb, sc = (series.build_stamps(repo, x, "/p",
                                              "/b/series-x86_64-h")
                          for x in (a, b, c))
            self.assertEqual(sa[0], sb[0])
            self.assertTrue(sa[0].startswith("/p/tree-"))
            self.assertEqual(sa[1], f"/p/{a}-series-x86_64-h")
            self.assertNotEqual(sa[0], sc[0])


class Built(unittest.TestCase):
    """The committed list of trees that built (series.BUILT)."""

    def test_key_of_a_stamp(self):
        stamp = "/x/passed/tree-0a1b2c-series-arm64-1234abcd"
        self.assertEqual(series.built_key(stamp),
                         "0a1b2c series-arm64-1234abcd")

    def test_record_then_read(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "built.txt")
            with open(path, "w") as f:
                f.write("# TREE DIR DATE\nmalformed line\n")
            built: set[str] = set()
            series.record_built(built, "aa series-x86_64-12", path)
            series.record_built(built, "bb series-arm64-34", path)
            self.assertEqual(series.read_built(path),
                             {"aa series-x86_64-12", "bb series-arm64-34"})
            self.assertEqual(built, series.read_built(path))

    def test_missing_file_is_empty(self):
        self.assertEqual(series.read_built("/nonexistent/built.txt"), set())

    def test_the_repo_file_parses(self):
        for key in series.read_built():
            tree_, bdir = key.split()
            self.assertRegex(tree_, r"^[0-9a-f]{40}$")
            self.assertRegex(bdir, r"^series-[a-z0-9_]+-[0-9a-f]{12}$")
