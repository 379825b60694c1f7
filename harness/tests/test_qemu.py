"""The console pump's boot detection."""

import os
import tempfile
import unittest
from unittest import mock

from kpt import qemu


class Pump(unittest.TestCase):
    def test_marker_split_across_reads(self):
        # The serial port writes byte by byte: the boot marker may come
        # in two reads.  A guest that booted and then stays quiet longer
        # than BOOT_SILENCE is not a hung boot.
        cmd = ["sh", "-c", "printf '@@KPT-'; sleep 0.5; "
               "printf 'BOOTED kernel=x\\n'; sleep 2; echo done"]
        with tempfile.TemporaryDirectory() as d, \
                mock.patch.object(qemu, "BOOT_SILENCE", 1):
            why, booted = qemu._pump(cmd, os.path.join(d, "log"), 20,
                                     False, None)
        self.assertTrue(booted)
        self.assertEqual(why, "exit")

    def test_silent_before_boot_is_a_hang(self):
        cmd = ["sh", "-c", "printf 'early\\n'; sleep 8"]
        with tempfile.TemporaryDirectory() as d, \
                mock.patch.object(qemu, "BOOT_SILENCE", 1):
            why, booted = qemu._pump(cmd, os.path.join(d, "log"), 20,
                                     False, None)
        self.assertFalse(booted)
        self.assertEqual(why, "silent")
