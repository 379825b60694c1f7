"""The differential test's generated corpus (harness/diff/gen.py)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "diff"))

import diff  # noqa: E402
import gen   # noqa: E402


class GenTest(unittest.TestCase):
    def test_same_seed_same_lines(self):
        self.assertEqual(gen.generate("x86_64", 300, 7),
                         gen.generate("x86_64", 300, 7))

    def test_seed_and_arch_change_the_lines(self):
        a = gen.generate("x86_64", 100, 1)
        self.assertNotEqual(a, gen.generate("x86_64", 100, 2))
        self.assertNotEqual(a, gen.generate("arm64", 100, 1))

    def test_lines_fit_the_corpus_format(self):
        lines = gen.generate("arm64", 2000, 1)
        self.assertEqual(len(lines), 2000)
        for s in lines:
            self.assertTrue(s and s == s.strip(), s)
            self.assertNotIn("\n", s)
            self.assertNotIn("{{", s)
            self.assertNotIn(diff.DELIM, s)

    def test_every_probe_type_and_arch_register(self):
        lines = gen.generate("x86_64", 2000, 1)
        heads = {s.split(None, 1)[0][0] for s in lines}
        self.assertTrue({"p", "r", "f", "t", "e"} <= heads, heads)
        self.assertTrue(any("/bin/" in s for s in lines))
        self.assertTrue(any("%return" in s for s in lines))
        self.assertTrue(any("+-" in s or "+u-" in s for s in lines))
        self.assertTrue(any("%x0" in s for s in
                            gen.generate("arm64", 2000, 1)))
        self.assertFalse(any("%x0" in s for s in lines))

    def test_corpus_ids_follow_the_files(self):
        steps = diff.load_corpus("x86_64", 5, 3)
        self.assertEqual([s.id for s in steps[-5:]],
                         [f"gen:{n}" for n in range(1, 6)])
        self.assertEqual([s.text for s in steps[-5:]],
                         gen.generate("x86_64", 5, 3))
        self.assertFalse(any(s.id.startswith("gen:")
                             for s in diff.load_corpus("x86_64")))


if __name__ == "__main__":
    unittest.main()
