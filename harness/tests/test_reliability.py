"""make check-debug's per-arch fail-nth corpus."""

import re
import tempfile
import unittest

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
