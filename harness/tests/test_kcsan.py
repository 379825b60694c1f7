"""KCSAN reports on a console, and which of them are ours."""

import unittest

from kpt import console, kcsan

# As kernel/kcsan/report.c prints them, with printk timestamps.
CONSOLE = """\
[   10.000000] @@KPT-TEST-BEGIN kprobe/profile.tc
[   10.100000] ==================================================================
[   10.100000] BUG: KCSAN: data-race in tk_kprobe_handler / tk_enable
[   10.100000]
[   10.100000] write to 0xffff888004d1c0a8 of 4 bytes by task 80 on cpu 1:
[   10.100000]  tk_enable+0x4c/0x120
[   10.100000]  probe_event_enable+0x22/0x90
[   10.100000]
[   10.100000] read to 0xffff888004d1c0a8 of 4 bytes by interrupt on cpu 0:
[   10.100000]  tk_kprobe_handler.isra.0+0x1d/0x60
[   10.100000]  kprobe_ftrace_handler+0x120/0x1a0
[   10.100000]
[   10.100000] value changed: 0x00000000 -> 0x00000001
[   10.100000]
[   10.100000] Reported by Kernel Concurrency Sanitizer on:
[   10.100000] CPU: 0 UID: 0 PID: 81 Comm: sh Not tainted 6.12.0 #1
[   10.100000] ==================================================================
[   11.000000] @@KPT-TEST-BEGIN rel/stress
[   11.200000] BUG: KCSAN: data-race in ring_buffer_lock_reserve / rb_commit
[   11.200000] read-write to 0xffff888004d1c000 of 8 bytes by task 9 on cpu 1:
[   11.200000]  rb_commit+0x10/0x40
[   11.200000]  ring_buffer_unlock_commit+0x10/0x40
[   11.200000]  tk_trace+0x90/0x100
[   11.200000] read to 0xffff888004d1c000 of 8 bytes by task 7 on cpu 0:
[   11.200000]  ring_buffer_lock_reserve+0x33/0x200
[   11.200000] Reported by Kernel Concurrency Sanitizer on:
[   12.200000] BUG: KCSAN: data-race in rb_commit / ring_buffer_lock_reserve
[   12.300000] BUG: KCSAN: data-race in do_sys_openat2+0x1c/0x90
[   12.300000] race at unknown origin, with read to 0xffff8880 of 1 bytes by task 3 on cpu 0:
[   12.300000]  do_sys_openat2+0x1c/0x90
[   12.300000] Reported by Kernel Concurrency Sanitizer on:
"""


def parse():
    lines = CONSOLE.splitlines()
    return kcsan.parse(lines, console.parse(lines).splats)


class Parse(unittest.TestCase):
    def test_title_case_and_stacks(self):
        r = parse()[0]
        self.assertEqual(r.lineno, 3)
        self.assertEqual(r.kind, "data-race")
        self.assertEqual(r.funcs, ("tk_kprobe_handler", "tk_enable"))
        self.assertEqual(r.test, "kprobe/profile.tc")
        self.assertEqual(r.stacks, [["tk_enable", "probe_event_enable"],
                                    ["tk_kprobe_handler",
                                     "kprobe_ftrace_handler"]])

    def test_the_same_race_either_way_round_is_one_key(self):
        reps = parse()
        self.assertEqual(reps[1].key, reps[2].key)
        self.assertEqual(reps[1].test, "rel/stress")

    def test_unknown_origin_names_one_function_without_offset(self):
        r = parse()[3]
        self.assertEqual(r.funcs, ("do_sys_openat2",))
        self.assertEqual(len(r.stacks), 1)


class Rows(unittest.TestCase):
    SYMS = {"tk_enable", "tk_kprobe_handler", "tk_trace"}

    def test_a_race_in_our_files_fails(self):
        rows = kcsan.rows(parse(), self.SYMS, None)
        self.assertEqual(len(rows), 3)
        key, result, ok, note = rows[0]
        self.assertFalse(ok)
        self.assertIn("in tk_kprobe_handler, tk_enable", note)
        self.assertIn("6.12 not run", note)

    def test_a_race_elsewhere_is_listed_with_6_12(self):
        ref = {"data-race in rb_commit / ring_buffer_lock_reserve"}
        rows = kcsan.rows(parse(), self.SYMS, ref)
        _, _, ok, note = rows[1]
        self.assertTrue(ok)
        self.assertIn("2x", note)
        self.assertIn("called from tk_trace", note)
        self.assertIn("6.12 too", note)
        self.assertIn("not in 6.12's run", rows[2][3])


if __name__ == "__main__":
    unittest.main()
