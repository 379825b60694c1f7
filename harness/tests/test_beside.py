"""check --beside: each side command's status and output reach check."""
import argparse
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


class CheckBesideTest(unittest.TestCase):
    """cmd_check starts the side commands when the last build ends, and
    reports them also when that build fails."""

    def run_check(self, prepare: object) -> tuple[str, list[str]]:
        checked: list[str] = []
        args = argparse.Namespace(arches=["first", "last"],
                                  beside=["echo side ran"])
        out = io.StringIO()
        with tempfile.TemporaryDirectory() as root, \
                mock.patch.object(paths, "runs", lambda: root), \
                mock.patch.object(cli, "_prepare", prepare), \
                mock.patch.object(cli, "_check_arch",
                                  lambda a, p, t: checked.append(p)), \
                redirect_stdout(out):
            try:
                cli.cmd_check(args)
            except SystemExit as e:
                out.write(f"SystemExit {e}\n")
        return out.getvalue(), checked

    def test_last_build_fails(self) -> None:
        def prepare(args: object, name: str) -> str:
            if name == "last":
                raise SystemExit("build of last failed")
            return name

        out, checked = self.run_check(prepare)
        self.assertEqual(checked, ["first"])
        self.assertIn("side ran\n", out)
        self.assertIn("echo side ran: exit 0", out)
        self.assertIn("SystemExit build of last failed", out)

    def test_both_build(self) -> None:
        out, checked = self.run_check(lambda args, name: name)
        self.assertEqual(checked, ["first", "last"])
        self.assertIn("side ran\n", out)
        self.assertIn("0 passed, 0 failed", out)


if __name__ == "__main__":
    unittest.main()
