"""deliberate.txt selectors of the differential test (harness/diff)."""

import io
import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "diff"))

import diff  # noqa: E402

UP = ["> -:nope", "rc=1", "errno: write: No such file or directory"]
OURS = UP + ["log: trace_kprobe: error: No event matches this",
             "log:   Command: -:nope", "log: caret at 2"]
GENERIC = ["> p 0x10", "rc=1", "errno: write: Invalid argument",
           "log: trace_kprobe: error: Failed to register probe event",
           "log:   Command: p 0x10", "log: caret at 2"]


def records(recs):
    r = diff.Records()
    for key, lines in recs.items():
        r.recs[key] = lines
        r.order.append(key)
    return r


class RuleTest(unittest.TestCase):
    RULE = ("~/^upstream: (none|\\S+: error: Failed to register probe "
            "event) ours: \\S+: error: (No event matches this|This "
            "address is not in kernel or module text)$/")

    def verdict(self, a, b, selector=RULE, sections="log"):
        rules = [diff.Rule("t", selector, sections, "why")]
        out = io.StringIO()
        diff.compare(records({"K common:1": a}),
                     records({"K common:1": b}), rules, out=out)
        last = out.getvalue().strip().splitlines()[-1].split()
        # "N definitions, S identical, D deliberate, X different"
        return int(last[2]), int(last[4]), int(last[6])

    def test_log_selector_takes_its_class(self):
        self.assertEqual(self.verdict(UP, OURS), (0, 1, 0))
        b = GENERIC[:3] + [
            "log: trace_kprobe: error: This address is not in kernel or "
            "module text"] + GENERIC[4:]
        self.assertEqual(self.verdict(GENERIC, b), (0, 1, 0))

    def test_log_selector_leaves_other_messages(self):
        b = UP + ["log: trace_kprobe: error: Invalid argument number",
                  "log:   Command: -:nope", "log: caret at 2"]
        self.assertEqual(self.verdict(UP, b), (0, 0, 1))
        # a specific upstream message is no "generic" one
        a = GENERIC[:3] + ["log: trace_kprobe: error: Invalid register "
                           "name"] + GENERIC[4:]
        b = GENERIC[:3] + [
            "log: trace_kprobe: error: This address is not in kernel or "
            "module text"] + GENERIC[4:]
        self.assertEqual(self.verdict(a, b), (0, 0, 1))

    def test_log_selector_covers_its_sections_only(self):
        b = OURS[:1] + ["rc=0"] + OURS[2:]
        self.assertEqual(self.verdict(UP, b), (0, 0, 1))

    def test_bad_selector_is_refused(self):
        with self.assertRaises(SystemExit):
            diff.Rule("t", "~@common:1", "log", "why")


SKIP = "/(^| )\\$arg(?!(429496729[56]|1844674407370955161[56])\\b)[0-9]{10,}(:[^ ]*)?( |$)/"


class SkipTest(unittest.TestCase):
    """Lines that oops 6.12 are not written on it, and count as
    deliberate when a skip rule says why."""

    def rules(self):
        return [diff.Rule("t", SKIP, "skip", "oopses 6.12")]

    def test_only_upstream_skips(self):
        rules = self.rules()
        self.assertEqual(diff.skips_for("upstream", rules), rules)
        self.assertEqual(diff.skips_for("ours", rules), [])

    def test_the_job_does_not_write_a_selected_line(self):
        steps = [diff.Step("gen:1", "W", "p:e kernel_clone $arg184446744073709551615:ustring"),
                 diff.Step("gen:2", "W", "p vfs_read $arg4294967296"),
                 diff.Step("gen:3", "W", "p vfs_read a=$arg1"),
                 diff.Step("common:4", "SH", "echo $arg18446744073709551615")]
        ops = [diff.skip_op(s, self.rules()) for s in steps]
        self.assertEqual(ops, ["SKIP", "W", "W", "SH"])
        self.assertEqual([diff.skip_op(s, []) for s in steps],
                         ["W", "W", "W", "SH"])

    def verdict(self, a, b, rules):
        out = io.StringIO()
        diff.compare(records({"K gen:1": a}), records({"K gen:1": b}),
                     rules, out=out)
        last = out.getvalue().strip().splitlines()[-1].split()
        return int(last[2]), int(last[4]), int(last[6])

    def test_a_skipped_line_is_deliberate_with_its_rule_only(self):
        line = "> p:e kernel_clone $arg184446744073709551615:ustring"
        up = [line, "skip: not written (it oopses this kernel)"]
        ours = [line, "rc=1", "errno: write: Invalid argument",
                "log: trace_kprobe: error: This variable is not found at "
                "this probe point", "list: p:kprobes/e kernel_clone"]
        self.assertEqual(self.verdict(up, ours, self.rules()), (0, 1, 0))
        self.assertEqual(self.verdict(up, ours, []), (0, 0, 1))
        other = [diff.Rule("t", "/kernel_clone/", "status,log", "x")]
        self.assertEqual(self.verdict(up, ours, other), (0, 0, 1))

    def test_a_skip_rule_selects_the_input(self):
        for sel in ("@gen:1", "~/oops/", "K /\\$arg/"):
            with self.assertRaises(SystemExit):
                diff.Rule("t", sel, "skip", "why")


class CommentTest(unittest.TestCase):
    """The kernel cuts a written line at '#': so do the selectors."""

    def test_a_selector_sees_the_line_up_to_its_comment(self):
        rule = diff.Rule("t", "/%edi( |$)/", "*", "asm names")
        line = ["> p:g1/Ev4 kernel_clone+0x0 _x=%edi#x32"]
        self.assertTrue(rule.matches("K gen:1", line, line))
        cut = ["> p:g1/Ev4 kernel_clone _x=%ax #%edi"]
        self.assertFalse(rule.matches("K gen:1", cut, cut))

    def test_a_shell_step_is_not_cut(self):
        rule = diff.Rule("t", "/x # y/", "sh", "why")
        sh = ["sh echo x # y"]
        self.assertTrue(rule.matches("K common:1", sh, sh))


class ShippedEntriesTest(unittest.TestCase):
    """deliberate.txt's entries take the lines that made them, and not
    their neighbours."""

    RULES = diff.load_rules(os.path.join(os.path.dirname(diff.__file__),
                                         "deliberate.txt"))

    def entry(self, reason_part):
        rules = [r for r in self.RULES if reason_part in r.reason]
        self.assertEqual(len(rules), 1, reason_part)
        return rules[0]

    def check(self, reason_part, takes, leaves, key="D gen:1"):
        """The entry whose reason has @reason_part selects every line of
        @takes and none of @leaves"""
        rule = self.entry(reason_part)
        for text, want in [(t, True) for t in takes] + \
                [(t, False) for t in leaves]:
            line = ["> " + text]
            self.assertEqual(rule.matches(key, line, line), want, text)

    def test_btf_caret_takes_any_bitfield_spelling(self):
        self.check("garbage that changes every boot",
                   ("p vfs_read file->f_mode:b3/8",
                    "p vfs_read %pc file->f_mode:b1@31/8",
                    "r:Bad-group/e_3 vfs_read _b2=file->f_mode:symstr[1]"),
                   ("p vfs_read file->f_mode:u8",
                    "p vfs_read file->f_mode:bogus"))

    def test_typecast_takes_the_parsers_shape(self):
        self.check("BTF typecasts are newer kernels' syntax",
                   ("p vfs_read a=(file)file->f_mode",
                    "r:ev2 /bin/busybox:16 a=(task_st.uct)(%x19)->d",
                    "p vfs_read a=(dentry,d_name.name)$arg1->x"),
                   ("p vfs_read a=+0(%ax)", "p vfs_read a=(1file)x->y",
                    "p vfs_read a=(fi le)x->y"))

    def test_layout_takes_far_offsets_only(self):
        self.check("lands where each image's layout puts it",
                   ("r:g_2/Ev4 vfs_read+10000000 $stack0x:x32[1]",
                    "p vfs_read+0x100000", "p:a/b vfs_read+100000000"),
                   ("p vfs_read+16", "p vfs_read+0xfffff",
                    "p vfs_read a=+10000000(%ax)", "p vfs_read+999999"),
                   key="K gen:1")


class ConsoleTear(unittest.TestCase):
    """A kernel message printed inside a record line is taken out."""

    def test_torn_line_is_mended(self):
        r = diff.parse_console([
            "@@KPT-DIFF-BEGIN kernel=x arch=y release=z",
            "@D @@ K common:1",
            "@D fmt g/e: \tfield:u8 a;\tof[   40.103295] trace_kprobe: "
            "Could not probe notrace function startup_64",
            "fset:2;\tsize:1;",
            "@D [   31.670817] trace_kprobe: This probe might be able",
            "> p:g/e vfs_read",
            "@D list: p:g/e vfs_read",
            "@@KPT-DIFF-CHUNK lines=4",
            "@@KPT-DIFF-END",
        ])
        self.assertEqual(r.recs["K common:1"],
                         ["fmt g/e: \tfield:u8 a;\toffset:2;\tsize:1;",
                          "> p:g/e vfs_read", "list: p:g/e vfs_read"])
        self.assertTrue(r.complete)


class CitationTest(unittest.TestCase):
    """Every deliberate difference the differential test accepts names its
    item of the one list, docs/design.md "Deliberate differences from
    6.12", and every place of kprobetrace.rst a comment cites exists.  A
    renamed or removed item or section would leave a rule pointing
    nowhere."""

    REPO = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))

    def read(self, *rel):
        with open(os.path.join(self.REPO, *rel)) as f:
            return f.read()

    def test_every_rule_names_a_design_item(self):
        import re
        from kpt import series
        items = set(series.deliberate_items())
        self.assertGreater(len(items), 30)
        import glob
        rules = [r for path in sorted(glob.glob(os.path.join(
            self.REPO, "harness", "diff", "deliberate*.txt")))
            for r in diff.load_rules(path)]
        self.assertGreater(len(rules), 22)
        bad = []
        for r in rules:
            m = re.search(r"\(design\.md: ([^)]+\)?)\)$", r.reason)
            if not m or m.group(1) not in items:
                bad.append(f"{r.where}: {r.reason[-60:]}")
        self.assertEqual(bad, [])

    def test_every_citation_exists(self):
        import re
        doc = self.read("Documentation", "trace",
                        "kprobetrace.rst").splitlines()
        places = {line.strip() for i, line in enumerate(doc[:-1])
                  if doc[i + 1] and set(doc[i + 1]) <= set("=-~^")
                  and len(doc[i + 1]) >= len(line.strip()) > 0}
        # a comment's citation may wrap onto its next ";;" line
        text = re.sub(r"\s*\n;;\s*", " ",
                      self.read("harness", "diff", "deliberate.txt"))
        cited = re.findall(r'kprobetrace\.rst "([^"]+)"', text)
        self.assertGreater(len(cited), 5)
        missing = sorted({c for c in cited if c not in places})
        self.assertEqual(missing, [])


class ArchRulesTest(unittest.TestCase):
    """Each arch of a multi-arch run is compared with its own rules."""

    def test_each_arch_gets_its_file(self):
        seen = []

        def run_kernel(kernel, arch, *rest):
            return records({"K common:1": UP}), ""

        def compare(a, b, rules, names, show):
            seen.append([r.where for r in rules])
            return 0

        with mock.patch.object(diff, "run_kernel", run_kernel), \
                mock.patch.object(diff, "compare", compare), \
                mock.patch("sys.stdout", io.StringIO()):
            diff.main(["--arch", "arm64 x86_64", "--parallel", "0"])
        arm64, x86 = seen
        own = os.path.join(diff.HERE, "deliberate-arm64.txt")
        self.assertTrue(any(w.startswith(own + ":") for w in arm64))
        self.assertFalse(any(w.startswith(own + ":") for w in x86))
        self.assertEqual(len(x86), len(diff.load_rules(
            os.path.join(diff.HERE, "deliberate.txt"))))
