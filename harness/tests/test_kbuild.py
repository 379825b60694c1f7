"""check_config(): what a fragment asks for and the .config must have."""

import os
import tempfile
import unittest

from kpt import kbuild


class CheckConfigTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def _write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_series_only_option_may_be_missing_upstream(self):
        frag = self._write("base.config",
                           "CONFIG_A=y\n# kpt: series-only\nCONFIG_T=m\n")
        dot = self._write(".config", "CONFIG_A=y\n")
        self.assertEqual(kbuild.check_config(dot, [frag], "upstream"), [])
        self.assertEqual(len(kbuild.check_config(dot, [frag], "ours")), 1)

    def test_series_only_marks_the_next_line_only(self):
        frag = self._write("base.config",
                           "# kpt: series-only\nCONFIG_T=m\nCONFIG_B=y\n")
        dot = self._write(".config", "")
        missing = kbuild.check_config(dot, [frag], "upstream")
        self.assertEqual([m.split()[0] for m in missing], ["CONFIG_B=y"])

    def test_series_only_option_with_a_wrong_value_is_missing(self):
        frag = self._write("base.config", "# kpt: series-only\nCONFIG_T=m\n")
        dot = self._write(".config", "CONFIG_T=y\n")
        self.assertEqual(len(kbuild.check_config(dot, [frag], "upstream")), 1)

    def test_a_later_fragment_turns_an_option_off(self):
        base = self._write("base.config", "CONFIG_H=y\nCONFIG_B=y\n")
        arch = self._write("arch.config", "# CONFIG_H is not set\n")
        dot = self._write(".config", "CONFIG_B=y\n")
        self.assertEqual(kbuild.check_config(dot, [base, arch]), [])
        dot = self._write(".config", "CONFIG_B=y\nCONFIG_H=y\n")
        missing = kbuild.check_config(dot, [base, arch])
        self.assertEqual([m.split()[1] for m in missing], ["CONFIG_H"])


class ArchesProblemsTest(unittest.TestCase):
    """check-arches fails on warnings in our files only."""

    def test_only_our_files(self):
        from kpt import arches
        with tempfile.NamedTemporaryFile("w", delete=False) as f:
            f.write("/src/kernel/trace/probe_kenv.c:30:5: warning: unused\n"
                    "kernel/sched/core.c:1:1: warning: not ours\n"
                    "  CC      kernel/trace/probe_fetch.o\n"
                    "../arch/riscv/kernel/x.c:2: error: bad\n"
                    "include/linux/probe_regs.h:9:1: error: broken\n")
        self.addCleanup(os.unlink, f.name)
        ours = {"kernel/trace/probe_kenv.c", "include/linux/probe_regs.h"}
        got = arches.problems(f.name, ours)
        self.assertEqual(len(got), 2)
        self.assertIn("probe_kenv.c", got[0])
        self.assertIn("probe_regs.h", got[1])


if __name__ == "__main__":
    unittest.main()


class FlavourTest(unittest.TestCase):
    def test_only_kcsan_instruments_the_probe_files(self):
        from kpt import arch
        a = arch.get("x86_64")
        plain = kbuild.Build("ours", a)
        self.assertEqual(plain.make_vars(), [])
        self.assertFalse(plain.debug)
        self.assertEqual(kbuild.Build("ours", a, "debug").make_vars(), [])
        k = kbuild.Build("ours", a, "kcsan")
        self.assertIn("KCSAN_SANITIZE_trace_kprobe.o=y", k.make_vars())
        self.assertTrue(k.frags[-1].endswith("kcsan.config"))
        self.assertIn("-kcsan-", k.dir)
        self.assertNotEqual(k.hash, plain.hash)

    def test_unknown_flavour_is_refused(self):
        from kpt import arch
        with self.assertRaises(SystemExit):
            kbuild.Build("ours", arch.get("x86_64"), "kasan")
