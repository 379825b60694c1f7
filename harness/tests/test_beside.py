"""check --beside: each side command's status and output reach check."""
import io
import os
import tempfile
import unittest
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stdout
from unittest import mock

from kpt import cli, paths


class BesideTest(unittest.TestCase):
    def run_beside(self, cmds: list[str]) -> tuple[int, str]:
        with tempfile.TemporaryDirectory() as root, \
                mock.patch.object(paths, "runs", lambda: root), \
                ThreadPoolExecutor(max_workers=1) as side:
            jobs = [side.submit(cli._run_beside, c) for c in cmds]
            out = io.StringIO()
            with redirect_stdout(out):
                rc = cli._report_beside(jobs)
            self.assertEqual(len(os.listdir(root)), len(cmds))
        return rc, out.getvalue()

    def test_failure_is_check_status(self) -> None:
        rc, out = self.run_beside(["echo first; exit 3", "echo second"])
        self.assertEqual(rc, 3)
        self.assertIn("first\n", out)
        self.assertIn("second\n", out)
        self.assertIn(": exit 3", out)

    def test_all_pass(self) -> None:
        rc, out = self.run_beside(["true", "echo ok"])
        self.assertEqual(rc, 0)
        self.assertIn("ok\n", out)


if __name__ == "__main__":
    unittest.main()
