"""The console pump's boot detection."""

import os
import tempfile
import unittest
from unittest import mock

from kpt import qemu


def pump(script):
    """(why, booted) of _pump() over a shell script, BOOT_SILENCE 1 s."""
    with tempfile.TemporaryDirectory() as d, \
            mock.patch.object(qemu, "BOOT_SILENCE", 1):
        return qemu._pump(["sh", "-c", script], os.path.join(d, "log"), 20,
                          False, None)


class Pump(unittest.TestCase):
    def test_marker_split_across_reads(self):
        # The serial port writes byte by byte: the boot marker may come
        # in two reads.  A guest that booted and then stays quiet longer
        # than BOOT_SILENCE is not a hung boot.
        why, booted = pump("printf '@@KPT-'; sleep 0.5; "
                           "printf 'BOOTED kernel=x\\n'; sleep 2; echo done")
        self.assertTrue(booted)
        self.assertEqual(why, "exit")

    def test_marker_a_byte_a_read(self):
        # On a loaded host each read may bring one byte of the marker
        why, booted = pump("for c in @ @ K P T - B O O T E D; do "
                           "printf $c; sleep 0.1; done; printf ' x\\n'; "
                           "sleep 2; echo done")
        self.assertTrue(booted)
        self.assertEqual(why, "exit")

    def test_silent_before_boot_is_a_hang(self):
        why, booted = pump("printf 'early\\n'; sleep 8")
        self.assertFalse(booted)
        self.assertEqual(why, "silent")

    def test_debug_kernels_get_longer_to_boot(self):
        class Build:
            debug = False
        self.assertEqual(qemu.boot_silence(Build()), qemu.BOOT_SILENCE)
        Build.debug = True
        self.assertEqual(qemu.boot_silence(Build()), qemu.DEBUG_BOOT_SILENCE)
        self.assertGreater(qemu.DEBUG_BOOT_SILENCE, qemu.BOOT_SILENCE)
