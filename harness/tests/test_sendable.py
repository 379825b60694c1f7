"""The rules that keep the series sendable (kpt/sendable.py)."""

import unittest

from kpt import sendable

GOOD = """tracing/probes: Keep a symstr argument inside its room

A symstr argument can be longer than the room reserved for it, so the
record overruns.  Clamp it.

Fixes: 123456789abc ("tracing/probes: Add symstr type")
Cc: stable@vger.kernel.org
Signed-off-by: A U Thor <a@example.org>
"""


def diff(path: str, *added: str) -> str:
    body = "".join(f"+{line}\n" for line in added)
    return (f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
            f"@@ -1,0 +2,{len(added)} @@\n{body}")


class Messages(unittest.TestCase):

    def test_plain_message_passes(self):
        self.assertEqual(sendable.message_problems(GOOD), [])

    def test_long_subject(self):
        msg = "tracing: " + "x" * 67 + "\n\nBody.\n"
        self.assertEqual(len(msg.split("\n")[0]), 76)
        self.assertIn("subject of 76", sendable.message_problems(msg)[0])
        self.assertEqual(sendable.message_problems(msg[:-len("x\n\nBody.\n")]
                                                   + "\n\nBody.\n"), [])

    def test_headings(self):
        for head in ("Context: the parser", "Problem: it breaks",
                     "Solution: mend it", "## Testing"):
            msg = f"x: Do y\n\n{head}\nmore.\n"
            self.assertTrue(sendable.message_problems(msg), head)

    def test_tags_are_no_headings(self):
        msg = ("x: Do y\n\nText.\n\nFixes: 1234 (\"a\")\nLink: https://l/\n"
               "Reported-by: A <a@b>\nCc: stable@vger.kernel.org\n")
        self.assertEqual(sendable.message_problems(msg), [])

    def test_harness_in_message(self):
        for word in ("harness/bench/dyndel.sh", "make series-check",
                     "SERIES_PATCHES='2/30'", "make check-debug", "kpfuzz",
                     "make bench SUITE=watch", "probetest clients"):
            msg = f"x: Do y\n\nMeasured with {word} on x86_64.\n"
            self.assertTrue(sendable.message_problems(msg), word)

    def test_ordinary_make_words_pass(self):
        msg = "x: Do y\n\nThis makes the check cheaper; make htmldocs.\n"
        self.assertEqual(sendable.message_problems(msg), [])


class Diffs(unittest.TestCase):

    def test_version_in_c_comment(self):
        for line in ("/* as 6.12 does */", " * unlike Linux 6.1, this",
                     "x = 1; // v5.15 did not", "\t * 6.12 refuses it"):
            got = sendable.diff_problems(diff("kernel/trace/a.c", line))
            self.assertTrue(got, line)
            self.assertIn("code comment", got[0])

    def test_version_outside_comment_passes(self):
        lines = ('pr_info("6.12 compatible\\n");', "x = 6.12;",
                 "/* 2.5 times faster */", "#define V 0x612")
        self.assertEqual(sendable.diff_problems(
            diff("kernel/trace/a.c", *lines)), [])

    def test_multiline_comment(self):
        got = sendable.diff_problems(diff(
            "kernel/trace/a.h", "/*", " * The rule of the code,",
            " * which 6.12 did not have.", " */", "int x; /* fine */"))
        self.assertEqual(len(got), 1)

    def test_harness_anywhere(self):
        for path in ("kernel/trace/a.c", "kernel/trace/Kconfig",
                     "tools/testing/selftests/ftrace/test.d/k/a.tc",
                     "Documentation/trace/kprobetrace.rst"):
            got = sendable.diff_problems(diff(path, "run make check-fixes"))
            self.assertTrue(got, path)

    def test_kconfig_help_version(self):
        got = sendable.diff_problems(diff(
            "kernel/trace/Kconfig", "\t  are those of Linux 6.12;"))
        self.assertIn("Kconfig help", got[0])

    def test_selftest_version(self):
        got = sendable.diff_problems(diff(
            "tools/testing/selftests/ftrace/test.d/k/a.tc",
            "# 6.12 records 0 here"))
        self.assertIn("selftest", got[0])

    def test_removed_lines_do_not_count(self):
        d = diff("kernel/trace/a.c", "int y;").replace(
            "+int y;", "-/* 6.12 */\n+int y;")
        self.assertEqual(sendable.diff_problems(d), [])

    def test_deleted_file(self):
        d = ("--- a/kernel/trace/a.c\n+++ /dev/null\n@@ -1 +0,0 @@\n"
             "-/* 6.12 */\n")
        self.assertEqual(sendable.diff_problems(d), [])


if __name__ == "__main__":
    unittest.main()
