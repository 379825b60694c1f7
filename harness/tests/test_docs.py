"""make docs: which Sphinx warnings count, and the manual's messages."""

import os
import tempfile
import unittest

from kpt import docs

# As Sphinx 5 prints them in a make htmldocs SPHINXDIRS=trace log.
LOG = """\
/src/Documentation/trace/boottime-trace.rst:27: WARNING: undefined label: \
'bootconfig'
/src/Documentation/trace/coresight/coresight.rst:609: WARNING: undefined \
label: 'trace/coresight/coresight-config:using configurations in perf'
/src/Documentation/trace/kprobetrace.rst:40: WARNING: undefined label: \
'no-such-label'
/src/Documentation/trace/kprobetrace.rst:90: WARNING: Title underline too \
short.
"""

PAGES = {
    "admin-guide/bootconfig.rst": ".. SPDX\n\n.. _bootconfig:\n\nBoot\n====\n",
    "trace/coresight/coresight-config.rst":
        "Configs\n=======\n\nUsing Configurations in perf\n"
        "============================\n\ntext\n",
    "trace/kprobetrace.rst": "Kprobe\n======\n",
}


class Warnings(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.src = self.tmp.name
        for path, text in PAGES.items():
            full = os.path.join(self.src, "Documentation", path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        self.found = docs.warnings(LOG, "/src")

    def tearDown(self):
        self.tmp.cleanup()

    def test_parse(self):
        self.assertEqual(len(self.found), 4)
        self.assertIn(("Documentation/trace/kprobetrace.rst",
                       "Title underline too short."), self.found)

    def test_links_defined_elsewhere_do_not_count(self):
        linked = docs.outside_links(self.found, self.src)
        self.assertEqual(sorted(w[0] for w in linked),
                         ["Documentation/trace/boottime-trace.rst",
                          "Documentation/trace/coresight/coresight.rst"])
        left = sorted(w[1] for w in self.found - linked)
        self.assertEqual(left, ["Title underline too short.",
                                "undefined label: 'no-such-label'"])

    def test_label_forms(self):
        doc = os.path.join(self.src, "Documentation")
        self.assertTrue(docs.label_defined(doc, "BootConfig"))
        self.assertTrue(docs.label_defined(
            doc, "trace/coresight/coresight-config:Using  configurations "
            "in perf"))
        # a title of another page, an unknown page, text that is no title
        self.assertFalse(docs.label_defined(
            doc, "trace/kprobetrace:using configurations in perf"))
        self.assertFalse(docs.label_defined(doc, "trace/nopage:kprobe"))
        self.assertFalse(docs.label_defined(
            doc, "trace/coresight/coresight-config:text"))


class Manual(unittest.TestCase):
    def test_every_error_message_is_documented(self):
        self.assertEqual(docs.missing_messages(), [])


if __name__ == "__main__":
    unittest.main()
